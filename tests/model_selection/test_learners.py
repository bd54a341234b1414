"""The learner adapters: which one an estimator gets, and the query form it reads.

RankingEvaluator's behaviour with each library is tested end to end in
test_evaluator_rankers.py and test_early_stopping.py; here, the lookup itself.
"""

import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ndcg._model_selection._learners import LearnerAdapter, adapter_for
from sklearn_ndcg._model_selection._learners._sklearn import SklearnAdapter


@pytest.mark.parametrize(
    "module, ranker, adapter, form",
    [
        ("lightgbm", "LGBMRanker", "LightGBMAdapter", "group"),
        ("xgboost", "XGBRanker", "XGBoostAdapter", "qid"),
        ("catboost", "CatBoostRanker", "CatBoostAdapter", "group_id"),
    ],
)
def test_rankers_and_their_subclasses(module, ranker, adapter, form):
    library = pytest.importorskip(module)
    cls = getattr(library, ranker)
    Subclass = type("Subclass", (cls,), {"__module__": "my_project.models"})
    for estimator in (cls(), Subclass()):
        found = adapter_for(estimator)
        assert type(found).__name__ == adapter
        assert found.estimator is estimator
        assert found.query_form == form


@pytest.mark.parametrize(
    "estimator",
    [Ridge(), HistGradientBoostingRegressor(), make_pipeline(StandardScaler(), Ridge())],
)
def test_scikit_learn_estimators_take_no_queries(estimator):
    found = adapter_for(estimator)
    assert type(found) is SklearnAdapter
    assert found.query_form is None


class _Foreign:
    """An estimator of no known library whose fit takes query sizes."""

    __module__ = "my_project.models"

    def fit(self, X, y, group=None, sample_weight=None):
        return self

    def predict(self, X):
        return np.zeros(len(X))


def test_other_libraries_get_the_base_adapter_by_signature():
    found = adapter_for(_Foreign())
    assert type(found) is LearnerAdapter
    assert found.query_form == "group"
    # hand computation: rows stably sorted by query id (3, 5, 7), one size per query
    X = np.arange(5.0).reshape(-1, 1)
    qid, weight = np.array([7, 3, 7, 3, 5]), np.array([1.0, 2.0, 3.0, 4.0, 5.0])
    fit_input = found.fit_input(X, np.arange(5), qid, weight)
    assert_array_equal(fit_input.X.ravel(), [1, 3, 4, 0, 2])  # queries 3, 5, 7
    assert_array_equal(fit_input.params["group"], [2, 1, 2])
    assert_array_equal(fit_input.params["sample_weight"], [2, 4, 5, 1, 3])
    assert_array_equal(fit_input.qid, [0, 0, 1, 2, 2])
    assert_array_equal(qid, [7, 3, 7, 3, 5])  # input unchanged
    with pytest.raises(ValueError, match="_Foreign learns from queries, so fit needs qid"):
        found.fit_input(X, np.arange(5), None, None)
    with pytest.raises(ValueError, match="early_stopping needs a boosting model.*_Foreign"):
        found.early_stopping_params(3, None, fit_input, None)
