"""Position in the ranking -> discount weight, zero after the cutoff k."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import numpy as np

from ._ranking_options import DISCOUNTS as DISCOUNTS  # its list lives with the options
from ._validation import apply_callable


def discount_weights(
    discount: str | Callable,
    longest: int,
    k: int | None,
    log_base: float | None = None,
) -> np.ndarray:
    """Discount weight of each rank that counts: ranks ``1 .. min(k, longest)``.

    Parameters
    ----------
    discount : {"log2", "reciprocal", "none"} or callable
        The discount; a callable maps an int array of 1-based ranks to finite,
        non-negative weights of the same shape, not increasing with rank.
    longest : int
        Documents in the longest query.
    k : int or None
        The cutoff.
    log_base : float or None
        With ``discount="log2"``, the base of the logarithm instead of 2.

    Returns
    -------
    ndarray of shape (min(k, longest),)
        The weight of rank ``r`` at index ``r - 1``; ranks after ``k`` weigh 0
        and are left out.
    """
    if k is not None and k < 1:  # the public functions refuse it first, unless told not to
        raise ValueError(f"k must be a positive integer or None; got k={k}.")
    n_weighted = longest if k is None else min(k, longest)
    if isinstance(discount, str) and n_weighted <= _CACHED_RANKS:  # the same few tables
        return _named_weights(discount, n_weighted, None if log_base is None else float(log_base))
    return _weights(np.arange(1, n_weighted + 1), discount, log_base)


_CACHED_RANKS = 4096
"""Tables of named discounts up to this many ranks are computed once and kept (at most
64 of them, 2 MiB in all); the calls on small folds ask for the same ones again."""


@lru_cache(maxsize=64)
def _named_weights(discount: str, n_weighted: int, log_base: float | None) -> np.ndarray:
    """The weights of a named discount, read-only (shared by the calls that ask)."""
    weights = _weights(np.arange(1, n_weighted + 1), discount, log_base)
    weights.setflags(write=False)
    return weights


def _weights(rank: np.ndarray, discount, log_base: float | None) -> np.ndarray:
    if discount == "log2":
        # scikit-learn's expression, not 1 / log2(...): the results round as its do
        base = 2.0 if log_base is None else log_base
        return 1.0 / (np.log(rank + 1.0) / np.log(base))
    if discount == "reciprocal":
        return 1.0 / rank
    if discount == "none":
        return np.ones(rank.shape[0])
    weights = apply_callable(discount, rank, "discount", "weight per rank")
    bad = ~np.isfinite(weights) | (weights < 0)
    if bad.any():
        raise ValueError(
            "discount callable must return finite, non-negative weights; got "
            f"{weights[bad][0]} for rank {rank[bad][0]}."
        )
    rises = np.flatnonzero(np.diff(weights) > 0)
    if rises.size:
        r = rank[rises[0]]
        raise ValueError(
            "discount callable must not increase with rank (NDCG would exceed 1: the "
            f"ideal ranking would not be the best one); got {weights[rises[0]]} for "
            f"rank {r} and {weights[rises[0] + 1]} for rank {r + 1}."
        )
    return weights
