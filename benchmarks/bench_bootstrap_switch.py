"""Where bootstrap_ci should switch from Student's t interval to BCa (issue 50).

Run ``python benchmarks/bench_bootstrap_switch.py``: one system's per-query NDCG from four
populations, ``--reps`` samples of n queries each; for each n it prints the coverage of
the true mean by ``bootstrap_ci``'s 95 % BCa interval (``method="BCa"``, the switch
bypassed) and by Student's t interval of the same samples, with Monte Carlo standard
errors sqrt(c (1 - c) / reps). Each population is finite (200,000 queries, values rounded
to 4 decimals as NDCG@10 takes finitely many values) and a sample draws from it with
replacement, so the true mean is the population's, known exactly.

- "light", "heavy": system A of the light- and heavy-tailed populations of
  ``_calibration_data.py`` (bounded, many 0s and 1s; mean 0.59, skewness -0.32).
- "skewed" (issue 50): a hard query set. 25 % of queries score exactly 0 (nothing
  relevant retrieved), 3 % exactly 1, the rest Beta(0.6, 2.5) (most below 0.3):
  mean 0.169, skewness +1.86, excess kurtosis 3.2.
- "left-tailed" (issue 50): an easy query set with a long left tail. NDCG is
  ``1 - min(L, 1)`` with ``L = 0.08 * U ** (-1 / 1.2)`` (a Pareto tail of index 1.2, U
  uniform): the median query scores 0.90, 5 % score 0: mean 0.761, skewness -2.21,
  excess kurtosis 4.1.

``MIN_COVERING_QUERIES`` in ``_stats/_bootstrap.py`` (40) is the first n from which BCa
covers at least 0.93 on every population; below it ``bootstrap_ci`` warns that its
interval may cover less (Student's t covers less than BCa there on "skewed" and
"left-tailed"). ``MIN_BOOTSTRAP_QUERIES`` (25) is where BCa replaces t: from 20 on, BCa
covers at least as much as t on every population (within 2 Monte Carlo se). BCa is
vectorized over the samples (the same call as the library's, checked equal on one
sample). ``--resamples``: 999 by default (not the library's 9,999, for time). ``--smoke``:
a small subset.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from _calibration_data import POPULATION, Population, draw
from scipy import stats

from sklearn_ndcg._stats import _bootstrap

SIZES = (20, 25, 30, 40, 50, 75, 100, 150, 200)
SCENARIOS = ("skewed", "left-tailed", "light", "heavy")
TARGET = 0.93
_CHUNK = 100  # samples per vectorized bootstrap call (memory: chunk * n * batch)


def population(scenario: str, seed: int = 0) -> np.ndarray:
    """The per-query NDCG of the population of ``scenario`` (see the module's docstring)."""
    if scenario in ("light", "heavy"):
        return Population(scenario).system_a()
    rng = np.random.default_rng(seed)
    if scenario == "skewed":
        u = rng.random(POPULATION)
        bulk = rng.beta(0.6, 2.5, POPULATION)
        values = np.where(u < 0.25, 0.0, np.where(u > 0.97, 1.0, bulk))
    elif scenario == "left-tailed":
        loss = 0.08 * rng.random(POPULATION) ** (-1 / 1.2)
        values = 1.0 - np.minimum(loss, 1.0)
    else:
        raise ValueError(f"scenario must be one of {SCENARIOS}, got {scenario!r}")
    return np.round(values, 4)


def _bca(samples, resamples, seed):
    """bootstrap_ci's BCa interval of each row of ``samples``, whatever their number of
    queries (the switch bypassed): the call of ``_bootstrap._bootstrap`` (scipy's BCa of
    the mean, the percentile interval where BCa is undefined), vectorized over the rows,
    the same interval with the same random stream (``_check_bca`` checks it)."""
    options = dict(n_resamples=resamples, axis=-1, vectorized=True, rng=None)
    options["batch"] = max(1, _bootstrap._ELEMENTS_PER_BATCH // samples.size)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        options["rng"] = np.random.default_rng(seed)
        low, high = stats.bootstrap(
            (samples,), np.mean, method="BCa", **options
        ).confidence_interval
    undefined = np.isnan(low) | np.isnan(high)
    if undefined.any():
        options["rng"] = np.random.default_rng(seed)
        fallback = stats.bootstrap((samples[undefined],), np.mean, method="percentile", **options)
        low[undefined], high[undefined] = fallback.confidence_interval
    return low, high


def _check_bca(values, resamples):
    """The vectorized interval equals the library's on one sample with the same seed."""
    x = values[:30]
    ours = np.ravel(_bca(x[None, :], resamples, 7))
    library = _bootstrap._bootstrap(
        x, None, confidence_level=0.95, n_resamples=resamples, method="BCa", seed=7
    ).confidence_interval
    if not np.allclose(ours, library, rtol=0, atol=1e-12):
        raise AssertionError(f"vectorized BCa {ours} differs from bootstrap_ci's {library}")


def _t(samples):
    """Student's t interval of the mean of each row (``bootstrap_ci``'s below the switch)."""
    n = samples.shape[1]
    half = stats.t.ppf(0.975, n - 1) * samples.std(axis=1, ddof=1) / np.sqrt(n)
    return samples.mean(axis=1) - half, samples.mean(axis=1) + half


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--resamples", type=int, default=999)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--scenarios", nargs="*", default=list(SCENARIOS), choices=SCENARIOS)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args(argv)
    reps, sizes = (args.reps, args.sizes) if not args.smoke else (40, [25, 40])
    rng = np.random.default_rng(50)
    started = time.perf_counter()
    print(
        f"coverage of 95 % intervals of the mean, {reps} samples a cell, {args.resamples} resamples"
    )
    first_holding = {}
    for scenario in args.scenarios:
        values = population(scenario)
        _check_bca(values, args.resamples)
        truth = float(values.mean())
        print(
            f"\n{scenario} (mean {truth:.3f}, skewness {stats.skew(values):+.2f}, "
            f"share of 0s {np.mean(values == 0):.2f}, of 1s {np.mean(values == 1):.2f})"
            "\n\n| n | BCa | t |\n|---:|---:|---:|"
        )
        holding = []
        for n in sizes:
            sample = draw(values, rng, n, reps)
            low, high = [], []
            for start in range(0, reps, _CHUNK):
                chunk_low, chunk_high = _bca(
                    sample[start : start + _CHUNK], args.resamples, n + start
                )
                low.append(chunk_low)
                high.append(chunk_high)
            low, high = np.concatenate(low), np.concatenate(high)
            t_low, t_high = _t(sample)
            cover = {
                "BCa": int(np.sum((low <= truth) & (truth <= high))),
                "t": int(np.sum((t_low <= truth) & (truth <= t_high))),
            }
            cells = []
            for name in ("BCa", "t"):
                c = cover[name] / reps
                se = np.sqrt(c * (1 - c) / reps)
                cells.append(f"{c:.3f} ({se:.3f}){' *' if c < TARGET else ''}")
            holding.append((n, cover["BCa"] / reps >= TARGET))
            print(f"| {n} | " + " | ".join(cells) + " |", flush=True)
        below = [n for n, holds in holding if not holds]
        first_holding[scenario] = next((n for n, _ in holding if not below or n > max(below)), None)
    print(f"\nBCa at least {TARGET} from n on (every larger n of the table):")
    for scenario, n in first_holding.items():
        print(f"  {scenario}: {n}")
    print(f"\n* below {TARGET}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
