"""cross_val_query_scores: out-of-fold per-query NDCG (issue 15).

Every expected value comes from an independent loop over the folds written in
the test (fit on the training rows, ``ndcg_score``/``query_scores`` on the test
rows), not from the function under test.
"""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GroupKFold, KFold, PredefinedSplit

from sklearn_ndcg import (
    RankingEvaluator,
    cross_val_query_scores,
    make_ranking,
    query_scores,
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


@pytest.mark.parametrize("cv", [None, 4, CV])
def test_equals_an_independent_loop_over_folds(cv):
    splitter = GroupKFold(5 if cv is None else cv) if not hasattr(cv, "split") else cv
    groups = QID if isinstance(splitter, GroupKFold) else None
    expected = _per_fold_loop(Ridge(), splitter, groups, k=5, gain="exponential")
    got = cross_val_query_scores(Ridge(), X, Y, qid=QID, cv=cv, k=5, gain="exponential")
    assert got.qid.tolist() == sorted(expected)
    np.testing.assert_allclose(got.score, [expected[q] for q in got.qid], rtol=1e-12)
    np.testing.assert_array_equal(got.weight, np.ones(60))


@pytest.mark.parametrize("routing", [False, True])
def test_ranking_evaluator_gets_the_query_ids(routing):
    """RankingEvaluator takes qid in fit: it receives each training fold's ids."""
    with sklearn.config_context(enable_metadata_routing=routing):
        got = cross_val_query_scores(RankingEvaluator(Ridge()), X, Y, qid=QID, cv=CV, k=3)
    expected = _per_fold_loop(Ridge(), CV, None, k=3)
    np.testing.assert_allclose(got.score, [expected[q] for q in got.qid], rtol=1e-12)


def test_sample_weight_weighs_queries():
    weight = (QID + 1).astype(float)  # one weight per query, given per document
    got = cross_val_query_scores(Ridge(), X, Y, qid=QID, cv=CV, params={"sample_weight": weight})
    np.testing.assert_array_equal(got.weight, np.arange(1.0, 61.0))


def test_refuses_a_query_tested_twice_or_in_part():
    # issue 23: a repeated splitter is accepted (tests/stats/test_search_repeated.py);
    # a query tested more often than the others is not
    uneven = list(CV.split(X, Y)) + [next(CV.split(X, Y))]
    with pytest.raises(ValueError, match="more often than others"):
        cross_val_query_scores(Ridge(), X, Y, qid=QID, cv=uneven)
    with pytest.raises(ValueError, match="between training and test"):
        cross_val_query_scores(Ridge(), X, Y, qid=QID, cv=KFold(4))
