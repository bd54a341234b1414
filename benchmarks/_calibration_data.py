"""Realistic per-query NDCG for the calibration benchmark: bounded, skewed, many 0s and 1s.

Each scenario is a finite population of queries (200,000 pairs of per-query NDCG of two
systems); a replicate draws its queries from the population with replacement, so the true
mean difference is the population's, known exactly. A shift of the second system's latent
quality, found by bisection, sets the true mean difference to any target.

- "light": two correlated systems, each with its own noise on every query: differences
  light-tailed, about 40 % of queries tied (both 0 or both 1).
- "heavy": near-identical candidates: the second system equals the first on most queries
  a little on most queries and by a lot on a few (3 %): about 65 % ties, skew 1-1.3 and
  excess kurtosis 23-30 at
  the true differences the benchmark uses.
"""

from __future__ import annotations

import numpy as np
from scipy import special

POPULATION = 200_000
SCENARIOS = ("light", "heavy")


def _ndcg(latent: np.ndarray) -> np.ndarray:
    """Latent quality to a per-query NDCG in [0, 1], with many exact 0s and 1s."""
    value = special.ndtr(latent)
    value = np.where(value < 0.2, 0.0, value)
    value = np.where(value > 0.8, 1.0, value)
    return np.round(value, 4)  # NDCG@10 takes finitely many values


class Population:
    """The queries of one scenario; ``pair(delta)`` gives the two systems' NDCG."""

    def __init__(self, scenario: str, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.scenario = scenario
        self.base = rng.normal(0.3, 1.1, POPULATION)  # query difficulty, shared
        if scenario == "light":
            self.noise_a = rng.normal(0.0, 0.3, POPULATION)
            self.noise_b = rng.normal(0.0, 0.3, POPULATION)
            self.changed = np.ones(POPULATION, dtype=bool)
        elif scenario == "heavy":
            # small changes on 60 % of queries, large ones on 3 %
            self.noise_a = np.zeros(POPULATION)
            small = rng.random(POPULATION) < 0.6
            large = rng.random(POPULATION) < 0.03
            self.changed = small | large
            self.noise_b = np.where(
                large,
                rng.normal(0.0, 2.0, POPULATION),
                np.where(small, rng.normal(0.0, 0.2, POPULATION), 0.0),
            )
        else:
            raise ValueError(f"scenario must be one of {SCENARIOS}, got {scenario!r}")
        self._cache: dict[float, np.ndarray] = {}

    def _differences(self, shift: float) -> np.ndarray:
        a = _ndcg(self.base + self.noise_a)
        b = _ndcg(self.base + self.noise_b - shift * self.changed)
        return a - b

    def differences(self, delta: float) -> np.ndarray:
        """Per-query ``a - b`` of the population whose mean is ``delta`` (to 1e-4).

        ``delta = 0`` gives exchangeable systems: each query's difference gets a random
        sign, so the differences are symmetric about 0, the null of every paired test.
        """
        if delta in self._cache:
            return self._cache[delta]
        if delta == 0:
            d = self._differences(0.0)
            sign = np.random.default_rng(1).choice([-1.0, 1.0], d.size)
            half = (d * sign)[: d.size // 2]
            d = np.concatenate([half, -half])  # symmetric: the mean is exactly 0
        else:
            low, high = -3.0, 3.0
            for _ in range(60):
                mid = (low + high) / 2
                if self._differences(mid).mean() < delta:
                    low = mid
                else:
                    high = mid
            d = self._differences((low + high) / 2)
            d = d - (d.mean() - delta) * (d != 0) / max(np.mean(d != 0), 1e-12)
        self._cache[delta] = d
        return d

    def system_a(self) -> np.ndarray:
        """The first system's per-query NDCG over the population (one system's values)."""
        return _ndcg(self.base + self.noise_a)

    def systems(self, k: int, rng: np.random.Generator, n: int, reps: int) -> np.ndarray:
        """``k`` truly equal systems on ``n`` queries, ``reps`` times: shape (reps, k, n)."""
        base = rng.normal(0.3, 1.1, (reps, 1, n))
        if self.scenario == "light":
            latent = base + rng.normal(0.0, 0.3, (reps, k, n))
        else:
            small = rng.random((reps, k, n)) < 0.6
            large = rng.random((reps, k, n)) < 0.03
            noise = np.where(
                large,
                rng.normal(0.0, 2.0, (reps, k, n)),
                np.where(small, rng.normal(0.0, 0.2, (reps, k, n)), 0.0),
            )
            latent = base + noise
        return _ndcg(latent)


def moments(d: np.ndarray) -> tuple[float, float, float, float]:
    """Mean, standard deviation, skewness and excess kurtosis of the differences."""
    from scipy import stats

    return (
        float(d.mean()),
        float(d.std()),
        float(stats.skew(d)),
        float(stats.kurtosis(d)),
    )


def draw(d: np.ndarray, rng: np.random.Generator, n: int, reps: int) -> np.ndarray:
    """``reps`` samples of ``n`` queries from the population: shape (reps, n)."""
    return d[rng.integers(0, d.size, (reps, n))]
