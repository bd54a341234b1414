"""scikit-learn's estimators: rows as given, and early stopping of HistGradientBoosting."""

from __future__ import annotations

import inspect

import numpy as np

from .._early_stopping import QueryMetric
from .._response import ranking_scores
from ._base import FitInput, LearnerAdapter


class SklearnAdapter(LearnerAdapter):
    """scikit-learn's estimators (and pipelines) take no query information.

    HistGradientBoosting (scikit-learn >= 1.7) stops early on validation
    queries given as ``X_val`` and ``y_val``, with the NDCG as its ``scoring``
    and ``n_iter_no_change``.
    """

    def early_stopping_params(
        self, rounds: int, monitor: QueryMetric, validation: FitInput, training: QueryMetric
    ) -> dict:
        learner = self.estimator
        if not type(learner).__name__.startswith("HistGradientBoosting"):
            return super().early_stopping_params(rounds, monitor, validation, training)
        if "X_val" not in inspect.signature(learner.fit).parameters:
            raise ValueError(
                f"Early stopping of {type(learner).__name__} on validation queries needs "
                "scikit-learn >= 1.7 (fit(X, y, X_val=..., y_val=...)); this is an older "
                "scikit-learn. Upgrade it, or use the estimator's own early_stopping "
                "(which splits rows, not queries) without the evaluator's."
            )

        def scoring(estimator, X, y, sample_weight=None):
            if not monitor.matches(y):  # a subsample of the training rows: queries unknown
                return np.nan
            return monitor(ranking_scores(estimator, X))

        self._replace(early_stopping=True, n_iter_no_change=rounds, scoring=scoring)
        return {"X_val": validation.X, "y_val": validation.y}

    def finish_early_stopping(self) -> None:
        super().finish_early_stopping()
        self.estimator._scorer = None  # HistGradientBoosting keeps the scorer of its fit
