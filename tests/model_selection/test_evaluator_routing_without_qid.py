"""RankingEvaluator in a search with metadata routing on but no ``qid`` routed refuses, as
the NDCG scorer does for the same mistake, rather than score each test fold as one query.

Reference: the scorer's behaviour in the same search (make_ndcg_scorer, tested in
tests/model_selection/test_scorer*.py) and the search given ``qid``.
"""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, GroupKFold, cross_validate

from sklearn_ndcg import RankingEvaluator, make_ndcg_scorer, make_ranking

X, Y, QID = make_ranking(n_queries=30, random_state=0)
GRID = {"alpha": [0.1, 10.0]}


def _search(evaluator: bool, **kwargs):
    if evaluator:
        grid = {f"estimator__{name}": values for name, values in GRID.items()}
        return GridSearchCV(RankingEvaluator(Ridge(), k=5), grid, cv=GroupKFold(3), **kwargs)
    return GridSearchCV(Ridge(), GRID, cv=GroupKFold(3), scoring=make_ndcg_scorer(k=5), **kwargs)


@pytest.mark.parametrize("evaluator", [True, False], ids=["evaluator", "scorer"])
def test_routing_without_qid_raises_naming_the_fix(evaluator):
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match=r"but no qid.*groups=qid, qid=qid"):
            _search(evaluator, error_score="raise").fit(X, Y, groups=QID)


@pytest.mark.parametrize("evaluator", [True, False], ids=["evaluator", "scorer"])
def test_routing_without_qid_gives_no_score(evaluator):
    """With the default error_score, every fold's score fails, with the message: the
    search shows NaN, never the NDCG of folds scored as one query."""
    with (
        sklearn.config_context(enable_metadata_routing=True),
        warnings.catch_warnings(record=True) as caught,
    ):
        warnings.simplefilter("always")
        search = _search(evaluator).fit(X, Y, groups=QID)
    assert np.isnan(search.best_score_)
    messages = [str(w.message) for w in caught]
    assert any("but no qid" in m and "groups=qid, qid=qid" in m for m in messages)
    assert not any("scored as one query" in m for m in messages)


def test_routing_with_qid_scores_each_query():
    with sklearn.config_context(enable_metadata_routing=True):
        by_evaluator = _search(True).fit(X, Y, groups=QID, qid=QID)
        by_scorer = _search(False).fit(X, Y, groups=QID, qid=QID)
    assert by_evaluator.best_score_ == pytest.approx(by_scorer.best_score_, abs=1e-12)


def test_cross_validate_without_qid_raises():
    with sklearn.config_context(enable_metadata_routing=True):
        with pytest.raises(ValueError, match="RankingEvaluator.score got 1-D y"):
            cross_validate(
                RankingEvaluator(Ridge()),
                X,
                Y,
                cv=GroupKFold(3),
                params={"groups": QID},
                error_score="raise",
            )


def test_direct_score_with_routing_on_needs_qid():
    with sklearn.config_context(enable_metadata_routing=True):
        model = RankingEvaluator(Ridge(), k=5).fit(X, Y)
        with pytest.raises(ValueError, match=r"qid=np.zeros\(len\(y\)\) for one query"):
            model.score(X, Y)
        one_query = model.score(X, Y, qid=np.zeros(Y.shape[0]))
    with pytest.warns(UserWarning, match="scored as one query"):
        assert model.score(X, Y) == one_query  # routing off: one query, with a warning
