"""Planning with ``assurance=``: how often the plan reaches the power asked (issue 34).

Run ``python benchmarks/bench_assurance.py``. ``required_queries(..., assurance=s)``
plans with an upper confidence bound of the pilot's standard deviation of the per-query
differences, so that the study reaches the power asked in a share ``s`` of pilots. The
plan reaches the power exactly when the bound is at least the true standard deviation
(the number of queries grows with the standard deviation planned with), so the share of
plans that reach it is the share of pilots whose bound covers the truth; this script
measures that share, vectorized over pilots, for:

- "chi2": the bound ``required_queries`` uses, ``s sqrt((m - 1) / chi2_{1-s}(m - 1))``
  (Browne 1995; Julious & Owen 2006), exact for normal differences;
- "bonett": Bonett's (2006) bound for non-normal data, the log-variance interval with
  the kurtosis estimated around a trimmed mean and the small-sample factor
  ``c = m / (m - z)``, one-sided at ``s``;
- "larger": the larger of the two, what ``required_queries`` plans with;

on pilots of ``m`` = 10, 25 and 50 queries of three populations of per-query differences
with known standard deviation: normal, and the light- and heavy-tailed realistic NDCG
differences of ``_calibration_data.py`` (at a true mean difference of 0.02). It also
measures, on normal pilots, the share of ``required_queries``'s own plans (the public
function, not the formulas here) whose true power reaches 0.8. ``--smoke`` runs a small
subset (for the test suite). Run it with ``PYTHONPATH=.`` from a checkout to measure
that checkout's package.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from _calibration_data import Population, moments
from scipy import stats

from sklearn_ndcg import required_queries
from sklearn_ndcg._stats._power import t_test_power

ASSURANCES = (0.8, 0.9)
PILOTS = (10, 25, 50)
DELTA = 0.02


def chi2_bound(d: np.ndarray, assurance: float) -> np.ndarray:
    """The chi-square upper bound of the standard deviation of each row of ``d``."""
    m = d.shape[1]
    sd = d.std(axis=1, ddof=1)
    return sd * np.sqrt((m - 1) / stats.chi2.ppf(1 - assurance, m - 1))


def bonett_bound(d: np.ndarray, assurance: float) -> np.ndarray:
    """Bonett's (2006) upper bound of the standard deviation of each row of ``d``.

    ``var(log s^2) ~ (kurtosis - (m - 3) / m) / (m - 1)``, the kurtosis ``m sum (x -
    t)^4 / (sum (x - mean)^2)^2`` around the mean ``t`` trimmed by ``1 / (2 sqrt(m -
    4))`` on each side, and ``c = m / (m - z)``.
    """
    m = d.shape[1]
    z = stats.norm.ppf(assurance)
    variance = d.var(axis=1, ddof=1)
    trimmed = stats.trim_mean(d, 1 / (2 * np.sqrt(m - 4)), axis=1)
    centred = d - d.mean(axis=1, keepdims=True)
    kurtosis = m * np.sum((d - trimmed[:, None]) ** 4, axis=1) / np.sum(centred**2, axis=1) ** 2
    c = m / (m - z)
    se = c * np.sqrt(np.maximum(kurtosis - (m - 3) / m, 0.0) / (m - 1))
    return np.sqrt(np.exp(np.log(c * variance) + z * se))


def larger_bound(d: np.ndarray, assurance: float) -> np.ndarray:
    """The larger of the two: never below the chi-square bound."""
    return np.maximum(chi2_bound(d, assurance), bonett_bound(d, assurance))


BOUNDS = {"chi2": chi2_bound, "bonett": bonett_bound, "larger": larger_bound}


def _populations(seed: int) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    populations = {"normal": rng.normal(DELTA, 0.1, 200_000)}
    for scenario in ("light", "heavy"):
        populations[scenario] = Population(scenario, seed=seed).differences(DELTA)
    return populations


def _share_covered(population, pilot, reps, rng) -> dict[tuple[str, float], float]:
    """Share of pilots whose bound is at least the population's standard deviation."""
    truth = float(population.std())
    d = population[rng.integers(0, population.size, (reps, pilot))]
    d = d[np.ptp(d, axis=1) > 0]  # no variance in the pilot: nothing to plan from
    return {
        (name, s): float(np.mean(bound(d, s) >= truth))
        for name, bound in BOUNDS.items()
        for s in ASSURANCES
    }


def _required_queries_share(pilot, assurance, reps, seed) -> float:
    """The share of ``required_queries`` plans from normal pilots that reach power 0.8."""
    rng = np.random.default_rng(seed)
    sigma = 0.05
    reached = []
    for _ in range(reps):
        b = rng.uniform(0.3, 0.7, pilot)
        a = b + rng.normal(DELTA, sigma, pilot)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            n = required_queries(a, b, delta=DELTA, power=0.8, assurance=assurance)
        reached.append(t_test_power(n, DELTA / sigma, 0.975) >= 0.8)
    return float(np.mean(reached))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a small subset, for the tests")
    parser.add_argument("--reps", type=int, default=20_000, help="pilots a cell")
    parser.add_argument("--plans", type=int, default=1000, help="required_queries calls a cell")
    args = parser.parse_args()
    reps, plans = (2000, 100) if args.smoke else (args.reps, args.plans)
    start = time.perf_counter()
    rng = np.random.default_rng(0)
    populations = _populations(0)
    print(f"{reps} pilots a cell; the share of plans whose true power reaches the power asked")
    print()
    for name, population in populations.items():
        mean, sd, skew, kurtosis = moments(population)
        print(
            f"## {name} differences (mean {mean:.4f}, sd {sd:.3f}, skew {skew:.2f}, "
            f"excess kurtosis {kurtosis:.1f})"
        )
        print()
        header = " | ".join(f"{b} {s}" for b in BOUNDS for s in ASSURANCES)
        print(f"| pilot queries | {header} |")
        print("|---" * (1 + len(BOUNDS) * len(ASSURANCES)) + "|")
        for pilot in PILOTS:
            share = _share_covered(population, pilot, reps, rng)
            cells = " | ".join(f"{share[(b, s)]:.3f}" for b in BOUNDS for s in ASSURANCES)
            print(f"| {pilot} | {cells} |")
        print()
    print(f"## required_queries on normal pilots ({plans} plans a cell)")
    print()
    print("| pilot queries | assurance | plans reaching 0.8 |")
    print("|---|---|---|")
    for pilot in (10, 25):
        for assurance in (None, *ASSURANCES):
            share = _required_queries_share(pilot, assurance, plans, seed=pilot)
            print(f"| {pilot} | {assurance or '-'} | {share:.3f} |")
    print()
    print(f"{time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
