"""EM under the position-based click model (Wang et al., WSDM 2018).

A click is an examination times a relevance: ``P(click) = theta[rank] * gamma[pair]``.
The relevance is either free, one per (query, document) pair, or a logistic regression
on the pair's features (the paper's regression EM, with a logistic model where the paper
fits gradient-boosted trees). Each step works on the cells (pair, rank) of the log at
once; no loop over queries. The EM map is accelerated by SQUAREM (Varadhan and Roland,
Scand. J. Stat. 2008), with a fall-back to the plain step wherever the extrapolation
lowers the likelihood.
"""

from __future__ import annotations

import numpy as np

from ._bias_log import BiasLog, cells

_INSIDE = 1e-12  # probabilities are kept in [_INSIDE, 1 - _INSIDE]


def _inside(x: np.ndarray) -> np.ndarray:
    return np.clip(x, _INSIDE, 1.0 - _INSIDE)


class _Cells:
    """The weighted impressions and clicks of every shown (pair, rank) cell."""

    def __init__(self, log: BiasLog, weight: np.ndarray):
        shown, clicked, _ = cells(log, weight)
        self.pair, self.rank = np.nonzero(shown)
        self.clicks = clicked[self.pair, self.rank]
        self.skips = shown[self.pair, self.rank] - self.clicks
        n = self.clicks + self.skips
        self.at_rank = np.bincount(self.rank, weights=n, minlength=log.max_rank)
        self.at_pair = np.bincount(self.pair, weights=n, minlength=log.n_pairs)
        self.n_rank = log.max_rank

    def posteriors(self, theta, gamma):
        """Per cell: expected examinations and expected relevant impressions."""
        t, g = theta[self.rank], gamma[self.pair]
        not_clicked = 1.0 - t * g
        examined = self.clicks + self.skips * t * (1.0 - g) / not_clicked
        relevant = self.clicks + self.skips * (1.0 - t) * g / not_clicked
        theta = np.bincount(self.rank, weights=examined, minlength=self.n_rank)
        theta = np.divide(
            theta, self.at_rank, out=np.full(self.n_rank, 0.5), where=self.at_rank > 0
        )
        return _inside(theta), np.bincount(self.pair, weights=relevant, minlength=self.at_pair.size)

    def log_likelihood(self, theta, gamma) -> float:
        p = theta[self.rank] * gamma[self.pair]
        return float(self.clicks @ np.log(p) + self.skips @ np.log1p(-p))


class FreeRelevance:
    """One relevance per (query, document) pair; the parameters are the relevances."""

    bounded = True

    def __init__(self, data: _Cells):
        self.data = data

    def start(self) -> np.ndarray:
        rate = np.bincount(
            self.data.pair, weights=self.data.clicks, minlength=self.data.at_pair.size
        )
        rate = np.divide(
            rate, self.data.at_pair, out=np.full(rate.size, 0.5), where=self.data.at_pair > 0
        )
        return np.clip(rate, 0.01, 0.99)

    def gamma(self, params: np.ndarray) -> np.ndarray:
        return params

    def update(self, params, relevant) -> np.ndarray:
        at_pair = self.data.at_pair
        return _inside(
            np.divide(relevant, at_pair, out=np.full(at_pair.size, 0.5), where=at_pair > 0)
        )


class LogisticRelevance:
    """Relevance ``1 / (1 + exp(-features @ beta))``; the parameters are ``beta``.

    The M-step is one Newton step of the weighted logistic regression on the expected
    relevances (a generalised EM step).
    """

    bounded = False

    def __init__(self, data: _Cells, features: np.ndarray):
        self.data = data
        self.features = np.hstack([features, np.ones((features.shape[0], 1))])  # intercept

    def start(self) -> np.ndarray:
        return np.zeros(self.features.shape[1])

    def gamma(self, params: np.ndarray) -> np.ndarray:
        return _inside(1.0 / (1.0 + np.exp(-(self.features @ params))))

    def update(self, params, relevant) -> np.ndarray:
        weight = self.data.at_pair
        g = self.gamma(params)
        gradient = self.features.T @ (weight * g - relevant)
        hessian = (self.features * (weight * g * (1.0 - g))[:, None]).T @ self.features
        hessian[np.diag_indices_from(hessian)] += 1e-9 * max(1.0, float(weight.sum()))
        return params - np.linalg.solve(hessian, gradient)


def em_examination(
    log: BiasLog,
    weight: np.ndarray,
    *,
    max_iter: int,
    tol: float,
    features: np.ndarray | None = None,
    start: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[np.ndarray, np.ndarray, bool]:
    """The EM estimate of the examination probability of each rank.

    ``weight`` weighs each row; ``features`` (one row per pair) switches to the
    logistic relevance. Returns ``theta`` (NaN at ranks without impressions), the
    relevance model's parameters, and whether the iterations converged: no ratio
    ``theta[k] / theta[0]`` moved by more than ``tol`` in the last of at most
    ``max_iter`` accelerated iterations. ``start`` (theta, parameters) warm-starts them.
    """
    data = _Cells(log, weight)
    model = FreeRelevance(data) if features is None else LogisticRelevance(data, features)
    seen = data.at_rank > 0
    if not seen[0]:  # a resample without impressions at rank 1: nothing to scale to
        return np.full(log.max_rank, np.nan), start[1] if start else model.start(), False
    if start is None:
        theta, params = np.full(log.max_rank, 0.5), model.start()
    else:
        theta, params = np.where(np.isnan(start[0]), 0.5, start[0]), start[1]

    def step(theta, params):
        theta, relevant = data.posteriors(theta, model.gamma(params))
        return theta, model.update(params, relevant)

    def log_likelihood(theta, params):
        return data.log_likelihood(theta, model.gamma(params))

    split = log.max_rank
    converged = False
    for _ in range(max_iter):
        x0 = np.concatenate([theta, params])
        x1 = np.concatenate(step(theta, params))
        x2 = np.concatenate(step(x1[:split], x1[split:]))
        r, v = x1 - x0, x2 - 2 * x1 + x0
        new = (x2[:split], x2[split:])
        norm_v = np.linalg.norm(v)
        if norm_v > 0:
            alpha = min(-np.linalg.norm(r) / norm_v, -1.0)
            x = x0 - 2 * alpha * r + alpha**2 * v
            x[:split] = _inside(x[:split])
            if model.bounded:
                x[split:] = _inside(x[split:])
            jumped = step(x[:split], x[split:])
            if log_likelihood(*jumped) >= log_likelihood(*new):
                new = jumped
        moved = np.abs(new[0] / new[0][0] - theta / theta[0])[seen].max()
        theta, params = new
        if moved < tol:
            converged = True
            break
    return np.where(seen, theta, np.nan), params, converged
