"""Randomized swaps of rank 1 with rank k: RandPair (Joachims et al., WSDM 2017).

In the experiment of rank ``k`` the documents of ranks 1 and ``k`` are shown in a
random order, so the document at rank ``k`` is as relevant, on average, as the one at
rank 1, and the ratio of their click-through rates is the relative examination
``theta[k] / theta[1]``.
"""

from __future__ import annotations

import numpy as np

from ._bias_log import BiasLog


def swap_experiments(log: BiasLog) -> np.ndarray:
    """The swap experiment of each row: its partner rank - 1, or -1 outside any.

    ``log.logger_labels`` holds the partner rank ``k`` (2 <= k <= max_rank) of the rows
    of a randomized pair (1, k) and 0 for rows in no pair. Raises ValueError on other
    labels and on a row of experiment ``k`` logged at a rank other than 1 and ``k``.
    """
    labels, logger = log.logger_labels, log.logger
    if labels is None or logger is None:
        raise ValueError(
            "method='swap' needs logger=, the randomized pair (1, k) of each row, as its "
            "rank k (0 outside)."
        )
    if labels.dtype.kind not in "iuf" or np.any(labels != np.floor(labels)):
        raise ValueError(
            "logger must hold, for method='swap', the rank k of the randomized pair "
            "(1, k) of each row (an integer from 2 to max_rank), or 0 for rows in no "
            f"randomized pair; got labels {labels[:5].tolist()}."
        )
    bad = (labels != 0) & ((labels < 2) | (labels > log.max_rank))
    if bad.any():
        raise ValueError(
            f"logger has the label {labels[bad][0].item()!r}: for method='swap' a label is "
            f"the rank k (2 to max_rank={log.max_rank}) of a randomized pair (1, k), or 0 for "
            "rows in no randomized pair."
        )
    partner = labels.astype(np.intp)[logger] - 1  # -1 outside every pair
    inside = partner >= 0
    misplaced = inside & (log.rank != 0) & (log.rank != partner)
    if misplaced.any():
        row = int(np.flatnonzero(misplaced)[0])
        raise ValueError(
            f"row {row} belongs to the randomized pair (1, {int(partner[row]) + 1}) by its logger "
            f"label but is logged at rank {int(log.rank[row]) + 1}; only ranks 1 and "
            f"{int(partner[row]) + 1} are swapped in that pair."
        )
    return partner


def swap_examination(log: BiasLog, partner: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """The RandPair estimate ``theta[k] / theta[1]`` for every rank (1 at rank 1).

    For each experiment ``k``: the click-through rate of its rows at rank ``k`` divided
    by that of its rows at rank 1. NaN where an experiment has no rows at one of them.
    """
    inside = partner >= 0
    index = partner[inside] * 2 + (log.rank[inside] != 0)  # (experiment, at rank k?)
    size = 2 * log.max_rank
    shown = np.bincount(index, weights=weight[inside], minlength=size).reshape(-1, 2)
    clicked = np.bincount(index, weights=(weight * log.click)[inside], minlength=size).reshape(
        -1, 2
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = clicked / shown
        theta = rate[:, 1] / rate[:, 0]
    theta[0] = 1.0
    return np.where(np.isfinite(theta), theta, np.nan)
