"""make_ranking_scorer (model_selection/_measure_scorer.py): the measures beside NDCG as
scorers; values against query_scores' means (hand-checked in
tests/metrics/test_measure_scores.py), a search with routing, refusals."""

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, GroupKFold

from sklearn_ndcg import make_ranking_scorer, query_scores


class _Fixed(RegressorMixin, BaseEstimator):
    """An estimator whose scores are the first column of X."""

    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.asarray(X)[:, 0]


@pytest.mark.parametrize("metric", ["map", "recip_rank", "recip_rank_1", "P_2", "recall_2"])
def test_mean_of_query_scores(metric):
    rng = np.random.default_rng(0)
    qid = np.repeat(np.arange(10), 6)
    X = rng.integers(0, 3, (qid.shape[0], 1)).astype(float)  # ties
    y = rng.integers(0, 2, qid.shape[0])
    expected = query_scores(y, X[:, 0], qid=qid, metric=metric).score.mean()
    assert make_ranking_scorer(metric)(_Fixed(), X, y, qid=qid) == pytest.approx(expected)


def test_search_with_routing():
    rng = np.random.default_rng(1)
    qid = np.repeat(np.arange(12), 5)
    X = rng.normal(size=(qid.shape[0], 3))
    y = (X[:, 0] > 0.5).astype(int)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            Ridge(), {"alpha": [0.1, 10.0]}, cv=GroupKFold(3),
            scoring=make_ranking_scorer("recall_2"),
        )  # fmt: skip
        search.fit(X, y, groups=qid, qid=qid)
    assert 0.0 <= search.best_score_ <= 1.0


def test_refusals():
    with pytest.raises(ValueError, match="unknown metric 'mrr@10'"):
        make_ranking_scorer("mrr@10")
    scorer = make_ranking_scorer("map")
    with pytest.raises(ValueError, match="no qid"):
        scorer(_Fixed(), np.ones((3, 1)), np.ones(3))
