"""One adapter per learner library: how :class:`RankingEvaluator` fits its models.

Each adapter (:class:`~._base.LearnerAdapter`) knows the query form its
library's ``fit`` takes, its weights, its cloning quirks and its early stopping:
LightGBM (``_lightgbm``), XGBoost (``_xgboost``), CatBoost (``_catboost``) and
scikit-learn (``_sklearn``); estimators of other libraries get the base adapter.
:func:`adapter_for` picks one by the estimator's class hierarchy.
"""

from __future__ import annotations

from ._base import FitInput, LearnerAdapter, library_of
from ._catboost import CatBoostAdapter
from ._lightgbm import LightGBMAdapter
from ._sklearn import SklearnAdapter
from ._xgboost import XGBoostAdapter

_ADAPTERS: dict[str, type[LearnerAdapter]] = {
    "lightgbm": LightGBMAdapter,
    "xgboost": XGBoostAdapter,
    "catboost": CatBoostAdapter,
    "sklearn": SklearnAdapter,
}


def adapter_for(estimator) -> LearnerAdapter:
    """The adapter of ``estimator``'s library (found by its MRO, so subclasses count)."""
    return _ADAPTERS.get(library_of(estimator), LearnerAdapter)(estimator)


__all__ = ["FitInput", "LearnerAdapter", "adapter_for", "library_of"]
