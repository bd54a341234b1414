"""Tests for make_counterfactual_dcg_scorer in scikit-learn's model selection.

The scores are checked against counterfactual_dcg on the test folds sliced here; the
search test runs on a simulated log built so that the naive click NDCG picks the worse
of two rankers.
"""

import inspect

import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, GroupKFold, cross_validate

from sklearn_ndcg import (
    RankingEvaluator,
    counterfactual_dcg,
    make_counterfactual_dcg_scorer,
    make_ndcg_scorer,
)
from sklearn_ndcg._clicks._simulate import simulate_clicks

# qid as the logged ranking (its meaning before 0.3), under its FutureWarning
pytestmark = pytest.mark.filterwarnings(
    "ignore:counterfactual_dcg\\(qid=...\\) without impression=:FutureWarning"
)


class ColumnRanker(RegressorMixin, BaseEstimator):
    """Scores each row by one column of X: a fixed ranker to choose in a search."""

    def __init__(self, column=0):
        self.column = column

    def fit(self, X, y):
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        return np.asarray(X)[:, self.column]


@pytest.fixture(scope="module")
def log():
    # the logger ranks by X[:, 0] (noisy); X[:, 1] is a better ranker. Strong position
    # bias (eta=1.5) makes clicks follow the logger's order
    sim = simulate_clicks(600, 10, eta=1.5, logger_noise=2.0, ranker_noise=0.3, random_state=0)
    return sim, sim.log(1)


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


def test_called_directly_equals_counterfactual_dcg(log):
    sim, clicks = log
    scorer = make_counterfactual_dcg_scorer(sim.propensity, k=5, clip=0.5)
    value = scorer(
        ColumnRanker(1).fit(sim.X, clicks.click),
        sim.X,
        clicks.click,
        qid=clicks.qid,
        logged_rank=clicks.logged_rank,
    )
    expected = counterfactual_dcg(
        clicks.click,
        sim.X[:, 1],
        qid=clicks.qid,
        logged_rank=clicks.logged_rank,
        propensity=sim.propensity,
        k=5,
        clip=0.5,
    ).estimate
    assert value == pytest.approx(expected)


def test_cross_validate_scores_each_fold(log, routing):
    sim, clicks = log
    scorer = make_counterfactual_dcg_scorer(sim.propensity)
    cv = GroupKFold(3)
    result = cross_validate(
        Ridge(),
        sim.X,
        clicks.click,
        cv=cv,
        scoring=scorer,
        params={"groups": clicks.qid, "qid": clicks.qid, "logged_rank": clicks.logged_rank},
    )
    for score, (train, test) in zip(
        result["test_score"], cv.split(sim.X, clicks.click, clicks.qid)
    ):
        model = Ridge().fit(sim.X[train], clicks.click[train])
        expected = counterfactual_dcg(
            clicks.click[test],
            model.predict(sim.X[test]),
            qid=clicks.qid[test],
            logged_rank=clicks.logged_rank[test],
            propensity=sim.propensity,
            k=10,
        ).estimate
        assert score == pytest.approx(expected)


def test_grid_search_picks_the_truly_better_ranker_where_click_ndcg_picks_the_worse(log, routing):
    sim, clicks = log
    truth = [sim.true_dcg(sim.X[:, column], 10) for column in (0, 1)]
    assert truth[1] > truth[0] + 0.1  # the simulation: column 1 is truly better
    params = {"groups": clicks.qid, "qid": clicks.qid, "logged_rank": clicks.logged_rank}
    grid = {"column": [0, 1]}
    naive = GridSearchCV(ColumnRanker(), grid, cv=GroupKFold(3), scoring=make_ndcg_scorer(k=10))
    naive.fit(sim.X, clicks.click, **{k: v for k, v in params.items() if k != "logged_rank"})
    assert naive.best_params_ == {"column": 0}  # the logger's own order wins on clicks
    search = GridSearchCV(
        ColumnRanker(),
        grid,
        cv=GroupKFold(3),
        scoring=make_counterfactual_dcg_scorer(sim.propensity, k=10),
    )
    search.fit(sim.X, clicks.click, **params)
    assert search.best_params_ == {"column": 1}
    # the winner's mean test score is close to its true DCG@10
    assert_allclose(search.best_score_, truth[1], rtol=0.1)


@pytest.mark.skipif(
    "X_val" not in inspect.signature(HistGradientBoostingRegressor.fit).parameters,
    reason="early stopping on validation queries needs scikit-learn >= 1.7 (X_val)",
)
def test_ranking_evaluator_with_early_stopping(log, routing):
    sim, clicks = log
    evaluator = RankingEvaluator(
        HistGradientBoostingRegressor(max_iter=30, random_state=0),
        k=10,
        early_stopping=3,
        random_state=0,
    )
    result = cross_validate(
        evaluator,
        sim.X,
        clicks.click,
        cv=GroupKFold(2),
        scoring=make_counterfactual_dcg_scorer(sim.propensity, k=10),
        params={"groups": clicks.qid, "qid": clicks.qid, "logged_rank": clicks.logged_rank},
        return_estimator=True,
    )
    assert np.all(np.isfinite(result["test_score"]))
    assert all(e.estimator_.n_iter_ <= 30 for e in result["estimator"])


def test_dr_scorer_requests_the_reward_model(log, routing):
    sim, clicks = log
    scorer = make_counterfactual_dcg_scorer(sim.propensity, estimator="dr", clip=0.2)
    request = scorer.get_metadata_routing().score.requests
    assert {"qid", "logged_rank", "reward_model", "logging_probability"} <= set(request)
    plain = make_counterfactual_dcg_scorer(sim.propensity).get_metadata_routing()
    assert "reward_model" not in plain.score.requests
    reward = np.full(clicks.click.shape[0], 0.2)
    result = cross_validate(
        ColumnRanker(1),
        sim.X,
        clicks.click,
        cv=GroupKFold(2),
        scoring=scorer,
        params={
            "groups": clicks.qid,
            "qid": clicks.qid,
            "logged_rank": clicks.logged_rank,
            "reward_model": reward,
        },
    )
    assert np.all(np.isfinite(result["test_score"]))
