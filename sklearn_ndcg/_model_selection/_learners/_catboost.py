"""CatBoost: query ids (``group_id``), query weights, its cloning, and early stopping."""

from __future__ import annotations

import contextlib
import copy
import warnings
from collections.abc import Iterator

import numpy as np

from ..._engine import Queries
from .._early_stopping import QueryMetric
from ._base import _UNSET, FitInput, LearnerAdapter


class CatBoostAdapter(LearnerAdapter):
    """CatBoost's models take one query id per row (``group_id``) and weigh whole
    queries (``group_weight``).

    CatBoost 1.2.10's constructor stores a copy of ``cat_features`` (and of
    some other list parameters), which fails ``clone``'s check that the
    parameters are the ones given (catboost issue #3078); such a model is
    rebuilt from deep copies of its parameters instead.

    With early stopping, CatBoost gets ``eval_set`` as a ``Pool`` with
    ``group_id``, the NDCG as its custom ``eval_metric``,
    ``early_stopping_rounds`` and ``use_best_model=True``.
    """

    query_forms = ("group_id",)

    def clone(self):
        try:
            return super().clone()
        except RuntimeError:
            params = copy.deepcopy(self.estimator.get_params(deep=False))
            return type(self.estimator)(**params)

    def weight_params(self, sample_weight, sorted_weight, queries: Queries) -> dict:
        weights = queries.weights(sample_weight)  # called with weights: not None
        return {"group_weight": np.repeat(weights, queries.sizes)}  # type: ignore[arg-type]

    @contextlib.contextmanager
    def fitting(self) -> Iterator[None]:
        with warnings.catch_warnings():
            # CatBoost tries to compile a custom metric with numba, and warns when
            # it cannot (or numba is missing); the metric then runs as Python.
            warnings.filterwarnings(
                "ignore",
                "(Failed to optimize|Can't optimze) method|Failed to import numba",
                UserWarning,
            )
            yield

    def early_stopping_params(
        self, rounds: int, monitor: QueryMetric, validation: FitInput, training: QueryMetric
    ) -> dict:
        from catboost import Pool

        cat_features = self.estimator.get_params().get("cat_features")
        pool = Pool(
            validation.X,
            validation.y,
            cat_features=cat_features,
            group_id=validation.params.get("group_id"),
        )
        self._replace(eval_metric=_CatBoostMetric(monitor, training))
        return {"eval_set": pool, "early_stopping_rounds": rounds, "use_best_model": True}

    def finish_early_stopping(self) -> None:
        for name, value in self._original.items():
            if value is _UNSET:  # CatBoost lists only the parameters it was given
                self.estimator._init_params.pop(name, None)
            else:
                self.estimator.set_params(**{name: value})
        self._original = {}


class _CatBoostMetric:
    """CatBoost's custom ``eval_metric`` protocol: the NDCG of the validation rows,
    or of the training rows, which CatBoost also evaluates (it refuses NaN)."""

    def __init__(self, monitor: QueryMetric, training: QueryMetric):
        self.monitor = monitor
        self.training = training

    def __deepcopy__(self, memo):  # CatBoost copies its parameters; keep the history
        return self

    def is_max_optimal(self) -> bool:
        return True

    def evaluate(self, approxes, target, weight) -> tuple[float, float]:
        metric = self.monitor if self.monitor.matches(target) else self.training
        return metric(np.asarray(approxes[0], dtype=np.float64)), 1.0

    def get_final_error(self, error: float, weight: float) -> float:
        return error
