"""paired_batch: the paired test of many rows at once, through the kernels of paired_test."""

from __future__ import annotations

import warnings

import numpy as np

from . import _batch
from ._methods import METHODS, Resampling
from ._query_values import _seeds, _uniform


def paired_batch(
    a,
    b,
    *,
    method: str = "randomization",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    alternative: str = "two-sided",
    margin: float | None = None,
    equivalence_alpha: float | None = None,
    weight: np.ndarray | None = None,
    random_state=None,
) -> _batch.PairedBatch:
    """The paired test of each row of ``a`` against the same row of ``b``, warnings off.

    Row ``i`` equals ``paired_test(a[i], b[i], ..., random_state=random_state)`` (its
    p-value, statistic, interval, equivalence interval and verdict); ``weight``: query
    weights shared by every row (``method="bootstrap"`` only). No NaN handling: rows
    hold the queries to test. No strata: use :func:`paired_test`.
    """
    rows = _batch.snap_rows(np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64))
    if weight is not None and _uniform(weight):
        weight = None
    if weight is not None and not METHODS[method].takes_weights:
        raise ValueError(f"method={method!r} does not take query weights.")
    bootstrap_seed, permutation_seed = _seeds(random_state, 2)
    settings = Resampling(
        confidence_level, n_resamples, alternative, bootstrap_seed, permutation_seed
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return METHODS[method].batch(rows, weight, settings, margin, equivalence_alpha)
