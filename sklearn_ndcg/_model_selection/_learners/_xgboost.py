"""XGBoost: query ids (``qid``), weights per query, and early stopping by a callback."""

from __future__ import annotations

import numpy as np

from ..._engine import Queries
from .._early_stopping import QueryMetric
from ._base import FitInput, LearnerAdapter


class XGBoostAdapter(LearnerAdapter):
    """``XGBRanker`` takes one query id per row (``qid``) and one weight per query;
    other XGBoost models take no query information.

    With early stopping, XGBoost gets a training callback (after the user's
    own) that scores the validation rows after each round and keeps the trees
    up to the best one: XGBoost hands a ranker's custom metric one query at a
    time, which cannot weigh or pool queries.
    """

    query_forms = ("qid",)

    def weight_params(self, sample_weight, sorted_weight, queries: Queries) -> dict:
        return {"sample_weight": queries.weights(sample_weight)}  # XGBRanker weighs queries

    def early_stopping_params(
        self, rounds: int, monitor: QueryMetric, validation: FitInput, training: QueryMetric
    ) -> dict:
        callbacks = self.estimator.get_params()["callbacks"]
        stopper = _xgboost_stopper(rounds, monitor, validation.X)
        self._replace(callbacks=[*(callbacks or []), stopper])
        return {}


def _xgboost_stopper(rounds: int, monitor: QueryMetric, X_val):
    """An XGBoost training callback: stop after ``rounds`` rounds without gain."""
    from xgboost.callback import TrainingCallback

    class NDCGEarlyStopping(TrainingCallback):
        best_round = 0

        def after_iteration(self, model, epoch: int, evals_log) -> bool:
            scores = model.inplace_predict(
                X_val, iteration_range=(0, epoch + 1), predict_type="margin"
            )
            monitor(scores)
            self.best_round = int(np.argmax(monitor.history))  # the first best
            return epoch - self.best_round >= rounds

        def after_training(self, model):
            return model[: self.best_round + 1]

    return NDCGEarlyStopping()
