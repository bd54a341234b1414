"""Intervention harvesting from several logging rankers (Agarwal et al., WSDM 2019).

Where rankers differ, the same (query, document) pair is shown at different ranks, and
the pairs shown at both ranks ``k`` and ``k'`` make an intervention: their relevance is
the same at both ranks, so their clicks at ``k`` and at ``k'`` differ by examination
only. The AllPairs estimator of the paper fits every pair of ranks at once by maximum
likelihood.
"""

from __future__ import annotations

import numpy as np
from scipy.optimize import minimize

from ._bias_log import BiasLog, cells

_INSIDE = 1e-9  # the parameters are kept in [_INSIDE, 1 - _INSIDE]


def harvested_counts(log: BiasLog, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The intervention counts of every pair of ranks.

    ``clicks[k, k2]`` sums, over the (query, document) pairs shown at both ranks ``k``
    and ``k2``, their click-through rate at ``k`` (each pair counts once, whatever its
    number of impressions, as in the paper's weighting); ``skips[k, k2]`` sums one minus
    that rate. The diagonal is zero.

    In a bootstrap resample a pair counts as many times as its query was drawn (the
    weight of its rows): counted once, a resample would be the distinct queries drawn,
    about 63 % of them, whose spread around the estimate is sqrt(0.58) of its
    standard error, and the intervals would be that much too narrow.
    """
    shown, _, rate = cells(log, weight)
    seen = (shown > 0).astype(np.float64)
    # the weight of a pair's rows: 1 in the log, its query's count in a resample
    copies = np.bincount(log.pair, weights=weight, minlength=log.n_pairs) / np.bincount(
        log.pair, minlength=log.n_pairs
    ).clip(1)
    clicks = (copies[:, None] * seen * rate).T @ seen
    skips = (copies[:, None] * seen * (1.0 - rate)).T @ seen
    np.fill_diagonal(clicks, 0.0)
    np.fill_diagonal(skips, 0.0)
    return clicks, skips


def connected_to_top(clicks: np.ndarray, skips: np.ndarray) -> np.ndarray:
    """The ranks that a chain of interventions links to rank 1 (a loop over ranks)."""
    linked = (clicks + skips + (clicks + skips).T) > 0
    reached = np.zeros(linked.shape[0], dtype=bool)
    reached[0] = True
    for _ in range(linked.shape[0]):
        grown = reached | linked[reached].any(axis=0)
        if (grown == reached).all():
            break
        reached = grown
    return reached


def all_pairs_examination(clicks: np.ndarray, skips: np.ndarray) -> np.ndarray:
    """The AllPairs maximum-likelihood examination probabilities, scaled to rank 1.

    Maximises ``sum over k != k2 of clicks[k, k2] * log(theta[k] * r[k, k2]) +
    skips[k, k2] * log(1 - theta[k] * r[k, k2])`` over the examination ``theta`` and
    the symmetric mean relevance ``r`` of each intervention set (Agarwal et al. 2019,
    section 4). Ranks that no chain of interventions links to rank 1 get NaN.
    """
    n = clicks.shape[0]
    total = clicks.sum() + skips.sum()
    c, s = clicks / total, skips / total
    upper = np.triu_indices(n, 1)

    def unpack(x):
        theta = x[:n]
        r = np.zeros((n, n))
        r[upper] = x[n:]
        return theta, r + r.T

    def loss(x):
        theta, r = unpack(x)
        p = np.clip(theta[:, None] * r, _INSIDE, 1.0 - _INSIDE)
        value = -(c * np.log(p) + s * np.log1p(-p)).sum()
        d_p = -(c / p - s / (1.0 - p))
        d_theta = (d_p * r).sum(axis=1)
        d_r = d_p * theta[:, None]
        d_r = d_r + d_r.T
        return value, np.concatenate([d_theta, d_r[upper]])

    start = np.concatenate([np.full(n, 0.5), np.full(upper[0].size, 0.5)])
    bounds = [(_INSIDE, 1.0 - _INSIDE)] * start.size
    fit = minimize(
        loss,
        start,
        jac=True,
        method="L-BFGS-B",
        bounds=bounds,
        options={"maxiter": 10_000, "ftol": 1e-14, "gtol": 1e-10},
    )
    theta = fit.x[:n]
    return np.where(connected_to_top(clicks, skips), theta / theta[0], np.nan)
