"""What counterfactual_dcg returns: the estimate, its interval and the per-query values."""

from __future__ import annotations

from typing import NamedTuple

from .._metrics import QueryScores


class CounterfactualResult(NamedTuple):
    """Result of :func:`counterfactual_dcg`: a new ranker's DCG@k estimated from clicks."""

    estimate: float
    confidence_interval: tuple[float, float]
    per_query: QueryScores
    effective_sample_size: float
    max_weight: float
    estimator: str
    confidence_level: float
    clipped_fraction: float = 0.0


CounterfactualResult.estimate.__doc__ = "The estimated DCG@k: the mean of ``per_query``."
CounterfactualResult.confidence_interval.__doc__ = (
    "``(low, high)``: Student's t interval of the mean over queries at ``confidence_level``, "
    "its variance widened by the spread of the estimate over the propensities' bootstrap "
    "replicates when the propensities are a ``PositionBias``."
)
CounterfactualResult.per_query.__doc__ = (
    "The estimate of each query (the mean over its impressions), a "
    ":class:`~sklearn_ndcg.QueryScores` "
    "that :func:`~sklearn_ndcg.paired_test` and :func:`~sklearn_ndcg.compare_models` take."
)
CounterfactualResult.effective_sample_size.__doc__ = (
    "Kish's effective number of rows, ``sum(w)**2 / sum(w**2)``, over the importance "
    "weights ``w`` of the rows the new ranker puts in its top ``k``."
)
CounterfactualResult.max_weight.__doc__ = "The largest of those importance weights."
CounterfactualResult.estimator.__doc__ = 'The estimator: "ips", "snips" or "dr".'
CounterfactualResult.confidence_level.__doc__ = "The level of ``confidence_interval``."
CounterfactualResult.clipped_fraction.__doc__ = (
    "The share of the unclipped estimate that ``clip`` removed, ``1 - clipped / "
    "unclipped`` (0 without ``clip``): under stochastic logging the clip caps the whole "
    "weight ``pi / (p * propensity)``, and can remove half of the DCG."
)
