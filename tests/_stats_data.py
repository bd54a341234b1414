"""Per-query scores built by hand, for the tests of the statistics (tests/stats/)."""

import numpy as np
import pytest
import scipy
from scipy import special

from sklearn_ndcg import QueryScores

# scipy < 1.13 chose between Wilcoxon's exact and normal p-values by other rules (the exact
# distribution with ties up to 25 queries, the normal one with zeros); the package computes
# the rules of later versions on every stack, so equality with scipy is checked from 1.13 on.
WILCOXON_AS_SCIPY = pytest.mark.skipif(
    tuple(int(part) for part in scipy.__version__.split(".")[:2]) < (1, 13),
    reason="scipy < 1.13 chooses between Wilcoxon's exact and normal p-values by other rules",
)


def scores(model, qid, weight=None) -> QueryScores:
    """A QueryScores of the given per-query values (weights 1 unless given)."""
    qid = np.asarray(qid)
    return QueryScores(
        qid,
        np.asarray(model, dtype=float),
        np.ones(qid.shape[0]) if weight is None else np.asarray(weight, dtype=float),
    )


def pair(seed, n, shift=5):
    """Two models' per-query NDCG on a grid of 0.01; ``a - b`` is never 0.

    The differences are ``shift`` hundredths on average, with a spread of 10.
    """
    rng = np.random.default_rng(seed)
    b = rng.integers(0, 80, size=n)
    d = rng.integers(1, 20, size=n) * rng.choice([-1, 1], size=n) + shift
    d[d == 0] = 1
    return (b + d) / 100, b / 100


def models():
    """Four models on 20 queries: the best, a copy, one a little below, one far below."""
    rng = np.random.default_rng(7)
    best = np.round(rng.uniform(0.3, 0.9, size=20), 2)
    return {
        "worse": best - 0.25 + rng.normal(0, 0.02, size=20),
        "best": best,
        "same": best.copy(),
        "close": best + 0.03 * (-1) ** np.arange(20) - 0.005,  # mean 0.005 lower
    }


def simulated_ndcg(latent):
    """Per-query NDCG from a latent score: bounded, with many 0s and 1s, on a 1e-4 grid."""
    value = special.ndtr(latent)
    return np.round(np.where(value < 0.2, 0.0, np.where(value > 0.8, 1.0, value)), 4)


def heavy_tailed_pair(seed, reps, n, shift=0.0):
    """``reps`` samples of near-identical candidates on ``n`` queries: equal on 37 % of
    queries, a little apart on 60 %, far apart on 3 % (skew 1-1.3, excess kurtosis 23-30;
    ``benchmarks/_calibration_data.py``'s heavy-tailed scenario)."""
    rng = np.random.default_rng(seed)
    base = rng.normal(0.3, 1.1, (reps, n))
    small = rng.random((reps, n)) < 0.6
    large = rng.random((reps, n)) < 0.03
    noise = np.where(
        large, rng.normal(0.0, 2.0, (reps, n)), np.where(small, rng.normal(0.0, 0.2, (reps, n)), 0)
    )
    return simulated_ndcg(base), simulated_ndcg(base + noise - shift * (small | large))
