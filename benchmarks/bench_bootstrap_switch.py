"""Where bootstrap_ci should switch from Student's t interval to BCa (issue 50).

Run ``python benchmarks/bench_bootstrap_switch.py``: one system's per-query NDCG from
the light- and heavy-tailed populations of ``_calibration_data.py`` (bounded, skewed,
many 0s and 1s), ``--reps`` samples of n queries each; for each n it prints the coverage
of the true mean by ``bootstrap_ci``'s 95 % BCa interval (``method="BCa"`` above the
switch) and by Student's t interval of the same samples, with Monte Carlo standard
errors sqrt(c (1 - c) / reps). ``MIN_BOOTSTRAP_QUERIES`` in ``_stats/_bootstrap.py`` is
the first n from which BCa covers at least 0.93 in both scenarios. ``--resamples``:
1,999 by default (not the library's 9,999, for time). ``--smoke``: a small subset.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from _calibration_data import Population, draw
from scipy import stats

from sklearn_ndcg._stats import _bootstrap

SIZES = (20, 25, 30, 40, 50, 75, 100)
TARGET = 0.93


def _bca(x, resamples, seed):
    """bootstrap_ci's BCa interval, whatever the number of queries (the switch bypassed)."""
    switch = _bootstrap.MIN_BOOTSTRAP_QUERIES
    _bootstrap.MIN_BOOTSTRAP_QUERIES = 0
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = _bootstrap.bootstrap_ci(x, n_resamples=resamples, random_state=seed)
    finally:
        _bootstrap.MIN_BOOTSTRAP_QUERIES = switch
    return result.confidence_interval


def _t(x):
    half = stats.t.ppf(0.975, x.shape[0] - 1) * x.std(ddof=1) / np.sqrt(x.shape[0])
    return x.mean() - half, x.mean() + half


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=1999)
    parser.add_argument("--sizes", type=int, nargs="*", default=list(SIZES))
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args(argv)
    reps, sizes = (args.reps, args.sizes) if not args.smoke else (60, [25, 40])
    rng = np.random.default_rng(50)
    started = time.perf_counter()
    print(
        f"coverage of 95 % intervals of the mean, {reps} samples a cell, {args.resamples} resamples"
    )
    for scenario in ("light", "heavy"):
        values = Population(scenario).system_a()
        truth = float(values.mean())
        print(f"\n{scenario}-tailed\n\n| n | BCa | t |\n|---:|---:|---:|")
        for n in sizes:
            sample = draw(values, rng, n, reps)
            cover = {"BCa": 0, "t": 0}
            for i, x in enumerate(sample):
                for name, (low, high) in (("BCa", _bca(x, args.resamples, i)), ("t", _t(x))):
                    cover[name] += low <= truth <= high
            cells = []
            for name in ("BCa", "t"):
                c = cover[name] / reps
                se = np.sqrt(c * (1 - c) / reps)
                cells.append(f"{c:.3f} ({se:.3f}){' *' if c < TARGET else ''}")
            print(f"| {n} | " + " | ".join(cells) + " |", flush=True)
    print(f"\n* below {TARGET}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
