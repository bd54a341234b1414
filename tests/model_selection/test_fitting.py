"""Fitting the wrapped estimator: its learning step, the checks of fit's input, the
weights it receives."""

import numpy as np
import pytest
from sklearn.linear_model import Ridge
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ndcg import RankingEvaluator, make_ranking
from sklearn_ndcg._model_selection._fitting import final_step


@pytest.fixture(scope="module")
def data():
    return make_ranking(
        n_queries=30, n_items=(4, 12), n_features=6, n_informative=4, random_state=0
    )


def test_final_step_of_nested_pipelines():
    ridge = Ridge()
    inner = Pipeline([("scale", StandardScaler()), ("model", ridge)])
    outer = Pipeline([("scale", StandardScaler()), ("inner", inner)])
    assert final_step(outer) == ("inner__model__", ridge)
    assert final_step(ridge) == ("", ridge)


def test_fit_requires_y(data):
    X, _, _ = data
    with pytest.raises(ValueError, match="target y is None"):
        RankingEvaluator(Ridge()).fit(X, None)


def test_sample_weight_reaches_the_estimator(data):
    X, y, qid = data
    weight = np.random.RandomState(0).uniform(0.5, 2.0, size=y.shape[0])
    evaluator = RankingEvaluator(Ridge()).fit(X, y, qid=qid, sample_weight=weight)
    direct = Ridge().fit(X, y, sample_weight=weight)
    assert np.allclose(evaluator.predict(X), direct.predict(X))
    assert not np.allclose(evaluator.predict(X), Ridge().fit(X, y).predict(X))
