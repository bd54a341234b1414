"""EM under the position-based click model (Wang et al., WSDM 2018).

A click is an examination times a relevance: ``P(click) = theta[rank] * gamma[pair]``.
Each step works on the cells (pair, rank) of the log at once; no loop over queries.
"""

from __future__ import annotations

import numpy as np

from ._bias_log import BiasLog, cells


def em_examination(
    log: BiasLog,
    weight: np.ndarray,
    *,
    max_iter: int,
    tol: float,
    start: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """The EM estimate of the examination probability of each rank.

    ``weight`` weighs each row. Returns ``theta`` (NaN at ranks without impressions),
    the relevance ``gamma`` of each (query, document) pair, and the number of
    iterations run. ``start`` (theta, gamma) warm-starts the iterations. The iterations
    stop when no ratio ``theta[k] / theta[0]`` moves by more than ``tol``.
    """
    shown, clicked, _ = cells(log, weight)
    pair, rank = np.nonzero(shown)
    n, c = shown[pair, rank], clicked[pair, rank]
    skipped = n - c  # weighted impressions without a click
    at_rank = np.bincount(rank, weights=n, minlength=log.max_rank)
    at_pair = np.bincount(pair, weights=n, minlength=log.n_pairs)
    seen_rank = at_rank > 0
    if start is None:
        theta = np.full(log.max_rank, 0.5)
        gamma = np.bincount(pair, weights=c, minlength=log.n_pairs) / np.maximum(at_pair, 1e-300)
        gamma = np.clip(gamma, 1e-6, 1 - 1e-6)
    else:
        theta, gamma = (np.array(a, dtype=np.float64) for a in start)
        theta = np.where(np.isnan(theta), 0.5, theta)
    ratio = theta / theta[0]
    for iteration in range(1, max_iter + 1):
        t, g = theta[rank], gamma[pair]
        not_clicked = 1.0 - t * g
        # E-step: P(examined | no click) and P(relevant | no click) of each cell
        examined = t * (1.0 - g) / not_clicked
        relevant = (1.0 - t) * g / not_clicked
        # M-step: the expected examinations per rank, relevances per pair
        theta = np.bincount(rank, weights=c + skipped * examined, minlength=log.max_rank)
        theta = np.divide(theta, at_rank, out=np.full(log.max_rank, 0.5), where=seen_rank)
        gamma = np.bincount(pair, weights=c + skipped * relevant, minlength=log.n_pairs)
        gamma = np.divide(gamma, at_pair, out=np.full(log.n_pairs, 0.5), where=at_pair > 0)
        # a parameter at exactly 0 or 1 makes 1 - theta * gamma vanish: keep them inside
        theta = np.clip(theta, 1e-12, 1.0 - 1e-12)
        gamma = np.clip(gamma, 1e-12, 1.0 - 1e-12)
        new_ratio = theta / theta[0]
        moved = np.max(np.abs(new_ratio - ratio)[seen_rank])
        ratio = new_ratio
        if moved < tol:
            break
    return np.where(seen_rank, theta, np.nan), gamma, iteration
