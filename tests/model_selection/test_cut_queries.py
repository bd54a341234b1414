"""A RankingEvaluator warns when a scored query also had other rows in training (issue 50).

The reference is the split itself: scikit-learn's ``KFold`` over rows sorted by query
cuts the queries at the fold boundaries (the rows of those queries on both sides, read
from the splitter's indices), ``GroupKFold`` with ``groups=qid`` keeps every query whole.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GroupKFold, KFold, cross_validate

from sklearn_ndcg import RankingEvaluator, make_ranking
from sklearn_ndcg._model_selection._cut_queries import cut_query_ids, query_rows

X, Y, QID = make_ranking(n_queries=30, n_items=(4, 12), random_state=0)


def _recorded(function):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function()
    return result, [str(w.message) for w in caught if "cut them" in str(w.message)]


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


def test_kfold_cut_queries_are_warned_of_on_test_scores_only(routing):
    cv = KFold(3)
    expected = [  # the queries with rows on both sides of each split
        np.intersect1d(QID[train], QID[test]).tolist() for train, test in cv.split(X)
    ]
    assert all(expected)  # the split does cut queries
    _, messages = _recorded(
        lambda: cross_validate(
            RankingEvaluator(Ridge()), X, Y, cv=cv, params={"qid": QID}, return_train_score=True
        )
    )
    assert len(messages) == 3  # one per test fold; the training scores are silent
    for ids, message in zip(expected, messages):
        assert f"{len(ids)} of the" in message and str(ids[:5]) in message
        assert "GroupKFold" in message and "groups=qid" in message


def test_group_kfold_is_silent(routing):
    _, messages = _recorded(
        lambda: cross_validate(
            RankingEvaluator(Ridge()),
            X,
            Y,
            cv=GroupKFold(3),
            params={"qid": QID, "groups": QID},
            return_train_score=True,
        )
    )
    assert messages == []


def test_a_separate_test_set_with_restarting_ids():
    X2, y2, q2 = make_ranking(n_queries=8, n_items=(4, 12), random_state=1)
    model = RankingEvaluator(Ridge()).fit(X, Y, qid=QID)
    _, messages = _recorded(lambda: model.score(X2, y2, qid=q2))
    assert len(messages) == 1 and "cut_queries='ignore'" in messages[0]
    # the documented ways out: ids the training did not use, or cut_queries="ignore"
    assert _recorded(lambda: model.score(X2, y2, qid=q2 + 100))[1] == []
    quiet = RankingEvaluator(Ridge(), cut_queries="ignore").fit(X, Y, qid=QID)
    assert _recorded(lambda: quiet.score(X2, y2, qid=q2))[1] == []
    # scoring the training rows (in another order, a feature permuted) is silent
    order = np.random.default_rng(0).permutation(len(Y))
    permuted = X[order].copy()
    permuted[:, 0] = permuted[order, 0]
    assert _recorded(lambda: model.score(permuted, Y[order], qid=QID[order]))[1] == []


def test_same_number_of_rows_other_documents():
    """A query of 8 rows cut 4 | 4: as many rows on both sides, other features."""
    features = np.arange(36.0).reshape(12, 3)
    qid = np.repeat([0, 1], 4)  # the fold scores query 0's second half and query 1
    training = query_rows(features[:4], qid[:4])
    scored = query_rows(features[4:], qid)
    assert cut_query_ids(training, scored).tolist() == [0]
    permuted = features[[0, 1, 2, 3, 8, 9, 10, 11]].copy()
    permuted[:, 1] = permuted[[1, 2, 3, 0, 4, 5, 6, 7], 1]  # one column permuted
    assert cut_query_ids(training, query_rows(permuted, qid)).tolist() == []
    # training queries alone, as many rows: silent whatever the features (a qid column
    # permuted by permutation_importance mixes every query's rows)
    assert cut_query_ids(training, query_rows(features[4:8], qid[:4])).tolist() == []
    first = training
    # sparse and DataFrame features give the same sums; text falls back to counts
    assert np.array_equal(query_rows(sp.csr_matrix(features[:4]), qid[:4]).sums, first.sums)
    pd = pytest.importorskip("pandas")
    assert np.array_equal(query_rows(pd.DataFrame(features[:4]), qid[:4]).sums, first.sums)
    assert query_rows(np.array([["a"], ["b"]]), np.array([0, 0])).sums is None


def test_ids_of_other_types_never_match():
    X = np.zeros((3, 1))
    training = query_rows(X, np.array([0, 0, 1]))
    assert cut_query_ids(training, query_rows(X, np.array([0, 1, 1]))).tolist() == [0, 1]
    assert cut_query_ids(training, query_rows(X, np.array(["0", "1", "1"]))).tolist() == []
    assert cut_query_ids(training, query_rows(X, np.array([0.0, 1.0, 1.0]))).tolist() == [0, 1]


def test_cut_queries_is_validated():
    with pytest.raises(ValueError, match="cut_queries"):
        RankingEvaluator(Ridge(), cut_queries="raise").fit(X, Y, qid=QID)
