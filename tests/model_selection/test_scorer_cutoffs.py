"""Scorers for several cutoffs at once (issue 15): ``make_ndcg_scorer(k=[1, 5, 10])``.

The reference values are the single-cutoff scorers and ``ndcg_score`` itself; the
count of ``predict`` calls is taken by a counting estimator.
"""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, PredefinedSplit, cross_validate

from sklearn_ndcg import dcg_score, make_dcg_scorer, make_ndcg_scorer, make_ranking, ndcg_score

X, Y, QID = make_ranking(n_queries=45, random_state=3)
CV = PredefinedSplit(QID % 3)


class CountingRidge(Ridge):
    """Ridge that counts its calls of predict (class-level: clones share it)."""

    calls = 0

    def predict(self, X):
        type(self).calls += 1
        return super().predict(X)


@pytest.mark.parametrize("ties", ["average", "first"])
def test_values_equal_one_call_per_cutoff(ties):
    model = Ridge().fit(X, Y)
    y_score = np.round(model.predict(X), 1)  # ties, some groups cut at k
    scorer = make_ndcg_scorer(k=[10, 1, 5], ties=ties)
    dcg_scorer = make_dcg_scorer(k=(3, 2), ties=ties, gain="exponential")

    class Fixed(Ridge):
        def predict(self, X):
            return y_score

    fitted = Fixed().fit(X, Y)
    got = scorer(fitted, X, Y, qid=QID)
    assert list(got) == ["ndcg@1", "ndcg@5", "ndcg@10"]
    for k in (1, 5, 10):
        expected = ndcg_score(Y, y_score, qid=QID, k=k, ties=ties)
        assert got[f"ndcg@{k}"] == pytest.approx(expected, rel=1e-12)
    got = dcg_scorer(fitted, X, Y, qid=QID)
    assert list(got) == ["dcg@2", "dcg@3"]
    for k in (2, 3):
        expected = dcg_score(Y, y_score, qid=QID, k=k, ties=ties, gain="exponential")
        assert got[f"dcg@{k}"] == pytest.approx(expected, rel=1e-12)


def test_in_a_search_with_refit_and_one_predict_per_fold():
    CountingRidge.calls = 0
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            CountingRidge(),
            {"alpha": [0.1, 1e4]},
            cv=CV,
            scoring=make_ndcg_scorer(k=[1, 5, 10]),
            refit="ndcg@10",
        ).fit(X, Y, qid=QID)
    # 2 candidates x 3 folds: one predict per fold for all three cutoffs
    assert CountingRidge.calls == 6
    assert {"mean_test_ndcg@1", "mean_test_ndcg@5", "mean_test_ndcg@10"} <= set(search.cv_results_)
    for fold, (train, test) in enumerate(CV.split()):
        for i, alpha in enumerate([0.1, 1e4]):
            y_score = Ridge(alpha=alpha).fit(X[train], Y[train]).predict(X[test])
            for k in (1, 5, 10):
                expected = ndcg_score(Y[test], y_score, qid=QID[test], k=k)
                got = search.cv_results_[f"split{fold}_test_ndcg@{k}"][i]
                assert got == pytest.approx(expected, rel=1e-12)
    best = int(np.argmax(search.cv_results_["mean_test_ndcg@10"]))
    assert search.best_index_ == best


def test_in_cross_validate():
    with sklearn.config_context(enable_metadata_routing=True):
        result = cross_validate(
            Ridge(), X, Y, cv=CV, scoring=make_ndcg_scorer(k=[2, 4]), params={"qid": QID}
        )
    assert result["test_ndcg@2"].shape == (3,) and result["test_ndcg@4"].shape == (3,)


@pytest.mark.parametrize(
    "k, match",
    [
        ([], "k must be a non-empty list of distinct integers >= 1"),
        ([0, 5], "k must be a non-empty list of distinct integers >= 1"),
        ([5, 5], "k must be a non-empty list of distinct integers >= 1"),
        ([1.5], "k must be a non-empty list of distinct integers >= 1"),
        ([True, 3], "k must be a non-empty list of distinct integers >= 1"),
        (["5"], "k must be a non-empty list of distinct integers >= 1"),
    ],
)
def test_bad_cutoff_lists(k, match):
    for maker in (make_ndcg_scorer, make_dcg_scorer):
        with pytest.raises(ValueError, match=match):
            maker(k=k)
