"""Per-query DCG, ideal DCG and NDCG, and their weighted mean."""

from __future__ import annotations

import sys
import warnings
from typing import NamedTuple

import numpy as np
from sklearn.exceptions import UndefinedMetricWarning

from ._queries import Queries


def dcg_per_query(ranked_gain: np.ndarray, weight: np.ndarray, queries: Queries) -> np.ndarray:
    """DCG of each query: the sum of its ranked gains times the position weights.

    ``weight`` is what :func:`~sklearn_ndcg._discount.discount_weights` gives:
    for 2-D input the weights of the first positions, shared by every query,
    and ``ranked_gain`` may hold only those first positions of each query.
    """
    if queries.codes is None:
        return ranked_gain.reshape(queries.shape[0], -1)[:, : weight.shape[0]] @ weight
    return np.add.reduceat(ranked_gain * weight, queries.starts)


def dcg_at_cutoffs(contribution: np.ndarray, queries: Queries, ks: np.ndarray) -> np.ndarray:
    """DCG@k of each query for every cutoff in ``ks``, shape (n_queries, n_cutoffs).

    ``contribution`` is each document's discounted gain in the sorted layout,
    with no cutoff applied; DCG@k sums the first ``k`` of each query. The tie
    rules give the same order (and averaged gains) at every cutoff, so one
    ranking serves all of them.
    """
    contribution = np.append(contribution, 0.0)  # reduceat needs end < len
    dcg = np.empty((queries.starts.shape[0], ks.shape[0]))
    for j, k in enumerate(ks):  # one vectorized pass per cutoff
        bounds = np.column_stack((queries.starts, queries.starts + np.minimum(queries.sizes, k)))
        dcg[:, j] = np.add.reduceat(contribution, bounds.ravel())[::2]
    return dcg


def ndcg_from_dcg(dcg: np.ndarray, ideal_dcg: np.ndarray, zero_division: float) -> np.ndarray:
    """DCG / ideal DCG per query; ``zero_division`` where the ideal DCG is <= 0.

    An ideal DCG of 0 means no document of the query is relevant; a negative one
    (possible with negative gains) means none is better than neutral. NDCG is
    undefined for both.
    """
    defined = ideal_dcg > 0
    ndcg = np.full(dcg.shape[0], float(zero_division))
    np.divide(dcg, ideal_dcg, out=ndcg, where=defined)
    return ndcg


class WeightedSums(NamedTuple):
    """The sums behind a weighted mean over queries; they add up across chunks."""

    weighted_sum: float  # sum of weight * value over the defined (non-NaN) values
    kept_weight: float  # sum of their weights
    total_weight: float  # sum of all weights
    n_kept: int  # number of defined values


def weighted_sums(values: np.ndarray, weight: np.ndarray | None) -> WeightedSums:
    """The :class:`WeightedSums` of per-query ``values``, NaN meaning undefined."""
    weight = np.ones(values.shape[0]) if weight is None else weight
    kept = ~np.isnan(values)
    return WeightedSums(
        float((weight[kept] * values[kept]).sum()),
        float(weight[kept].sum()),
        float(weight.sum()),
        int(kept.sum()),
    )


def mean_from_sums(sums: WeightedSums) -> float:
    """The weighted mean, or NaN with a warning when nothing defined is left.

    Returns NaN with an :class:`~sklearn.exceptions.UndefinedMetricWarning` when
    every value is undefined, or when the defined ones weigh 0.
    """
    if sums.total_weight == 0:
        raise ValueError("sample_weight sums to zero; at least one query needs a positive weight.")
    if sums.kept_weight == 0:
        what = "every query was left out" if sums.n_kept == 0 else "the queries left weigh 0"
        warnings.warn(
            f"NDCG is undefined: {what} (no relevant document and "
            "zero_division=np.nan); returning NaN.",
            UndefinedMetricWarning,
            stacklevel=_caller_stacklevel(),
        )
        return float("nan")
    return float(sums.weighted_sum / sums.kept_weight)


def _caller_stacklevel() -> int:
    """The ``stacklevel`` of the user's frame, for a warning raised in the caller.

    Skips the frames of this package and of scikit-learn's parameter
    validation wrapper, so that the warning points at the user's line however
    deep the call was (in memory or through Dask).
    """
    internal = ("sklearn_ndcg", "sklearn.utils._param_validation")
    frame, level = sys._getframe(1), 1  # the frame that calls warnings.warn
    while frame is not None and frame.f_globals.get("__name__", "").startswith(internal):
        frame, level = frame.f_back, level + 1
    return level


def weighted_mean(values: np.ndarray, sample_weight: np.ndarray | None) -> float:
    """Weighted mean over queries, leaving out NaN (undefined) values."""
    if sample_weight is not None:  # scaled so that huge weights cannot overflow their sum
        sample_weight = sample_weight / max(sample_weight.max(), np.finfo(float).tiny)
    return mean_from_sums(weighted_sums(values, sample_weight))
