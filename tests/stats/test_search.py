"""Out-of-fold per-query NDCG and selection with ties (issue 15).

Every expected value comes from an independent loop over the folds written in
the test (fit on the training rows, ``ndcg_score``/``query_scores`` on the test
rows), not from the function under test.
"""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, PredefinedSplit

from sklearn_ndcg import (
    RankingEvaluator,
    make_ndcg_scorer,
    make_ranking,
    query_scores,
    search_query_scores,
)

X, Y, QID = make_ranking(n_queries=60, random_state=1)
CV = PredefinedSplit(QID % 3)


def _per_fold_loop(estimator, cv, groups, **options):
    """{qid: value}, each query scored by the model fitted without its fold."""
    values = {}
    for train, test in cv.split(X, Y, groups):
        model = sklearn.base.clone(estimator).fit(X[train], Y[train])
        fold = query_scores(Y[test], model.predict(X[test]), qid=QID[test], **options)
        for q, v in zip(fold.qid, fold.score):
            assert q not in values
            values[q] = v
    return values


def test_search_query_scores_reuses_the_search_folds_and_scorer():
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            Ridge(),
            {"alpha": [0.1, 100.0, 1e5]},
            cv=CV,
            scoring=make_ndcg_scorer(k=[3, 10]),
            refit="ndcg@3",
        ).fit(X, Y, qid=QID)
        scores = search_query_scores(search, X, Y, qid=QID, scoring="ndcg@3", n_candidates=2)
    ranked = np.argsort(-search.cv_results_["mean_test_ndcg@3"], kind="stable")[:2]
    assert list(scores) == [f"alpha={search.cv_results_['params'][i]['alpha']!r}" for i in ranked]
    for name, i in zip(scores, ranked):
        alpha = search.cv_results_["params"][i]["alpha"]
        expected = _per_fold_loop(Ridge(alpha=alpha), CV, None, k=3)
        np.testing.assert_allclose(scores[name].score, [expected[q] for q in scores[name].qid])
        # the per-query values average to the search's own fold scores (equal-size folds)
        fold_means = [
            np.mean([expected[q] for q in np.unique(QID[test])]) for _, test in CV.split()
        ]
        np.testing.assert_allclose(
            fold_means,
            [search.cv_results_[f"split{f}_test_ndcg@3"][i] for f in range(3)],
            rtol=1e-12,
        )
    with pytest.raises(ValueError, match="name the metric"):
        search_query_scores(search, X, Y, qid=QID)


def test_search_query_scores_reads_a_ranking_evaluators_options():
    """A search scored by RankingEvaluator.score: its k (and other options) are used."""
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            RankingEvaluator(Ridge(), k=3, gain="exponential"),
            {"estimator__alpha": [0.1, 100.0]},
            cv=CV,
        ).fit(X, Y, qid=QID)
        scores = search_query_scores(search, X, Y, qid=QID, n_candidates=1)
    (name,) = scores
    i = int(np.argmax(search.cv_results_["mean_test_score"]))
    alpha = search.cv_results_["params"][i]["estimator__alpha"]
    expected = _per_fold_loop(Ridge(alpha=alpha), CV, None, k=3, gain="exponential")
    np.testing.assert_allclose(scores[name].score, [expected[q] for q in scores[name].qid])
