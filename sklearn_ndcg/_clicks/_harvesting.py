"""Intervention harvesting from several logging rankers (Agarwal et al., WSDM 2019).

Where rankers differ, the same (query, document) pair is shown at different ranks, and
the pairs shown at both ranks ``k`` and ``k'`` make an intervention: their relevance is
the same at both ranks, so their clicks at ``k`` and at ``k'`` differ by examination
only. The AllPairs estimator of the paper fits every pair of ranks at once by maximum
likelihood.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from scipy.optimize import minimize

from ._bias_log import BiasLog, cells

_INSIDE = 1e-9  # the parameters are kept in [_INSIDE, 1 - _INSIDE]


class Interventions(NamedTuple):
    """The (query, document) pairs shown at two ranks or more, prepared once per log.

    ``seen[p, k]`` is 1 where pair ``p`` was shown at rank ``k``, ``rate[p, k]`` its
    click-through rate there, ``first_row[p]`` a row of the pair (every row of a pair
    belongs to one query, so has its query's weight). Pairs shown at one rank only are
    in no intervention and are left out.
    """

    seen: np.ndarray
    rate: np.ndarray
    first_row: np.ndarray

    @classmethod
    def of(cls, log: BiasLog) -> Interventions:
        shown, _, rate = cells(log, np.ones(log.rank.shape[0]))
        seen = shown > 0
        kept = seen.sum(axis=1) > 1
        first_row = np.zeros(log.n_pairs, dtype=np.intp)
        first_row[log.pair[::-1]] = np.arange(log.rank.shape[0])[::-1]
        return cls(seen[kept].astype(np.float64), rate[kept], first_row[kept])

    def counts(self, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """:func:`harvested_counts` with ``weight`` the weight of each row of the log."""
        copies = weight[self.first_row][:, None] * self.seen
        clicks = (copies * self.rate).T @ self.seen
        skips = (copies * (1.0 - self.rate)).T @ self.seen
        np.fill_diagonal(clicks, 0.0)
        np.fill_diagonal(skips, 0.0)
        return clicks, skips


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
    return Interventions.of(log).counts(weight)


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


def all_pairs_examination(
    clicks: np.ndarray, skips: np.ndarray, start: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The AllPairs maximum-likelihood examination probabilities, scaled to rank 1, and
    the fitted parameters (to warm-start the fits of bootstrap resamples: ``start``).

    Maximises ``sum over k != k2 of clicks[k, k2] * log(theta[k] * r[k, k2]) +
    skips[k, k2] * log(1 - theta[k] * r[k, k2])`` over the examination ``theta`` and
    the symmetric mean relevance ``r`` of each intervention set (Agarwal et al. 2019,
    section 4). Ranks that no chain of interventions links to rank 1 get NaN.
    """
    n = clicks.shape[0]
    total = clicks.sum() + skips.sum()
    c, s = clicks / total, skips / total
    upper = np.triu_indices(n, 1)

    # theta[0] is fixed at 1: theta * a and r / a fit alike, and without that ridge the
    # fit takes half the iterations (a third from a warm start)
    def unpack(x):
        theta = np.concatenate(([1.0], x[: n - 1]))
        r = np.zeros((n, n))
        r[upper] = x[n - 1 :]
        return theta, r + r.T

    def loss(x):
        theta, r = unpack(x)
        p = np.clip(theta[:, None] * r, _INSIDE, 1.0 - _INSIDE)
        value = -(c * np.log(p) + s * np.log1p(-p)).sum()
        d_p = -(c / p - s / (1.0 - p))
        d_theta = (d_p * r).sum(axis=1)[1:]
        d_r = d_p * theta[:, None]
        d_r = d_r + d_r.T
        return value, np.concatenate([d_theta, d_r[upper]])

    if start is None:
        start = np.full(n - 1 + upper[0].size, 0.5)
    bounds = [(_INSIDE, None)] * (n - 1) + [(_INSIDE, 1.0 - _INSIDE)] * upper[0].size
    fit = minimize(
        loss,
        start,
        jac=True,
        method="L-BFGS-B",
        bounds=bounds,
        options={"maxiter": 10_000, "ftol": 1e-14, "gtol": 1e-10},
    )
    theta = unpack(fit.x)[0]
    return np.where(connected_to_top(clicks, skips), theta, np.nan), fit.x
