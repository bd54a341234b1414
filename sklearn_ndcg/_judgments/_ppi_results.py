"""What prediction_powered_mean and prediction_powered_difference return."""

from __future__ import annotations

from typing import NamedTuple


class PredictionPoweredResult(NamedTuple):
    """Result of :func:`prediction_powered_mean`: a mean NDCG from model and human labels.

    Printed as one line: the estimate, its interval and what it rests on.
    """

    estimate: float
    confidence_interval: tuple[float, float]
    standard_error: float
    lambda_: float
    n_labelled: int
    n_unlabelled: int
    confidence_level: float

    def __str__(self) -> str:
        low, high = self.confidence_interval
        return (
            f"{self.estimate:.4f} ({self.confidence_level:.0%} interval {low:.4f} to "
            f"{high:.4f}; {self.n_labelled} human-labelled and {self.n_unlabelled} "
            f"model-labelled queries, lambda {self.lambda_:.3f})"
        )


PredictionPoweredResult.estimate.__doc__ = "The prediction-powered estimate of the mean."
PredictionPoweredResult.confidence_interval.__doc__ = (
    "``(low, high)``: the normal interval at ``confidence_level``."
)
PredictionPoweredResult.standard_error.__doc__ = "The standard error of the estimate."
PredictionPoweredResult.lambda_.__doc__ = (
    "The weight of the model's values: 1 for classical PPI, the variance-minimising "
    "weight in [0, 1] with power tuning (PPI++); 0 is the human-only mean."
)
PredictionPoweredResult.n_labelled.__doc__ = "Number of human-labelled queries."
PredictionPoweredResult.n_unlabelled.__doc__ = "Number of queries with model labels only."
PredictionPoweredResult.confidence_level.__doc__ = "The level of ``confidence_interval``."


class PredictionPoweredComparison(NamedTuple):
    """Result of :func:`prediction_powered_difference`: ranker ``a`` against ranker ``b``.

    The prediction-powered estimate of the mean of ``a - b`` over queries, its
    interval, a p-value for ``a - b = 0`` and, with a margin, a verdict.
    """

    estimate: float
    confidence_interval: tuple[float, float]
    standard_error: float
    lambda_: float
    n_labelled: int
    n_unlabelled: int
    confidence_level: float
    pvalue: float
    margin: float | None = None
    verdict: str | None = None
    equivalence_interval: tuple[float, float] | None = None

    def __str__(self) -> str:
        low, high = self.confidence_interval
        text = (
            f"a - b = {self.estimate:+.4f} ({self.confidence_level:.0%} interval "
            f"{low:+.4f} to {high:+.4f}, p = {self.pvalue:.3g}; {self.n_labelled} "
            f"human-labelled and {self.n_unlabelled} model-labelled queries)"
        )
        return text if self.verdict is None else f"{text}: {self.verdict}"


PredictionPoweredComparison.estimate.__doc__ = (
    "The prediction-powered estimate of the mean of ``a - b`` over queries."
)
PredictionPoweredComparison.confidence_interval.__doc__ = (
    "``(low, high)``: the normal interval of the mean difference at ``confidence_level``."
)
PredictionPoweredComparison.standard_error.__doc__ = "The standard error of the estimate."
PredictionPoweredComparison.lambda_.__doc__ = (
    "The weight of the model's values of ``a - b``: 1 for classical PPI, the "
    "variance-minimising weight in [0, 1] with power tuning (PPI++)."
)
PredictionPoweredComparison.n_labelled.__doc__ = "Number of human-labelled queries."
PredictionPoweredComparison.n_unlabelled.__doc__ = "Number of queries with model labels only."
PredictionPoweredComparison.confidence_level.__doc__ = "The level of ``confidence_interval``."
PredictionPoweredComparison.pvalue.__doc__ = (
    "Two-sided p-value of the z-test of ``a - b = 0`` with the prediction-powered standard error."
)
PredictionPoweredComparison.margin.__doc__ = "The equivalence margin, or None."
PredictionPoweredComparison.verdict.__doc__ = (
    'With a margin: ``a`` relative to ``b``, one of "better", "worse", "equivalent" or '
    '"inconclusive"; None without a margin.'
)
PredictionPoweredComparison.equivalence_interval.__doc__ = (
    "With a margin: the ``1 - 2 alpha`` prediction-powered interval that the two "
    "one-sided tests (TOST) compare with ``(-margin, margin)``; None without a margin."
)
