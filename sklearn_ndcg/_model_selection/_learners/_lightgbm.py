"""LightGBM: query sizes (``group``), and early stopping by its callback."""

from __future__ import annotations

import inspect
from typing import Any

from .._early_stopping import QueryMetric
from ._base import FitInput, LearnerAdapter


class LightGBMAdapter(LearnerAdapter):
    """``LGBMRanker`` takes the size of each query (``group``); other LightGBM
    models take no query information.

    With early stopping, LightGBM gets ``eval_set`` (``eval_X`` and ``eval_y``
    from LightGBM 4.7), ``eval_group`` for rankers, this package's NDCG as its
    only ``eval_metric`` (built-in metrics off) and the
    ``lightgbm.early_stopping`` callback.
    """

    query_forms = ("group",)

    def early_stopping_params(
        self, rounds: int, monitor: QueryMetric, validation: FitInput, training: QueryMetric
    ) -> dict:
        import lightgbm

        self.estimator.set_params(metric="None")  # stop on the custom metric alone
        X_val, y_val = validation.X, validation.y
        params: dict[str, Any]
        if "eval_X" in inspect.signature(lightgbm.LGBMModel.fit).parameters:
            # LightGBM >= 4.7 deprecates eval_set
            params = {"eval_X": (X_val,), "eval_y": (y_val,)}
        else:
            params = {"eval_set": [(X_val, y_val)]}
        params["eval_metric"] = lambda y_true, y_score: (monitor.name, monitor(y_score), True)
        params["callbacks"] = [lightgbm.early_stopping(rounds, verbose=False)]
        if "group" in validation.params:
            params["eval_group"] = [validation.params["group"]]
        return params
