"""Prediction-powered intervals on few queries: coverage by human-labelled and unlabelled
counts, the simulation behind the minimums of ``prediction_powered_mean`` (issue 50).

Run ``python benchmarks/bench_ppi_small_samples.py``. A population of 20,000 queries is
judged by people and by a biased model labeller (``_judgments_data.py``: lenient,
confused, favouring one ranker's style); the truth is the population's mean NDCG@10 of
ranker ``a`` under the true labels. Each replicate draws, with replacement, ``n``
human-labelled queries and ``N`` other (model-labelled only) queries and computes
``prediction_powered_mean`` (PPI++, the default, and plain PPI), and PPI++ for the
difference ``a - b`` (``prediction_powered_difference``). It prints the coverage of
the 95 % intervals (share that hold the truth) with its Monte Carlo standard error,
sqrt(c (1 - c) / R), for each (n, N): the package warns where the coverage of either
falls below 0.93 (``MIN_LABELLED``, ``MIN_UNLABELLED`` in ``_judgments/_ppi.py``).
``--smoke``: 100 replicates on a smaller grid, for the test suite.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from _judgments_data import simulate

from sklearn_ndcg import prediction_powered_difference, prediction_powered_mean

LABELLED = (3, 5, 10, 20, 30, 50, 100)
UNLABELLED = (1, 2, 5, 10, 100, 1000)
TARGET = 0.93


def coverage(population, n, big_n, replicates, rng, tuning, difference):
    """Share of 95 % intervals that hold the truth, over ``replicates`` draws."""
    true_a, true_b, model_a, model_b = population
    truth = (true_a - true_b).mean() if difference else true_a.mean()
    hits = 0
    for _ in range(replicates):
        rows = rng.integers(0, true_a.shape[0], n + big_n)
        qid = np.arange(n + big_n)
        labelled = qid[:n]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            if difference:
                result = prediction_powered_difference(
                    (qid, model_a[rows]),
                    (qid, model_b[rows]),
                    (labelled, true_a[rows[:n]]),
                    (labelled, true_b[rows[:n]]),
                    power_tuning=tuning,
                )
            else:
                result = prediction_powered_mean(
                    (qid, model_a[rows]), (labelled, true_a[rows[:n]]), power_tuning=tuning
                )
        low, high = result.confidence_interval
        hits += low <= truth <= high
    return hits / replicates


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replicates", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args(argv)
    labelled, unlabelled, replicates = LABELLED, UNLABELLED, args.replicates
    if args.smoke:
        labelled, unlabelled, replicates = (5, 100), (1, 100), 100
    rng = np.random.default_rng(args.seed)
    data = simulate(rng, 20_000)
    population = (data.true_a, data.true_b, data.model_a, data.model_b)
    started = time.perf_counter()
    print(f"coverage of 95 % intervals, {replicates} replicates each")
    for difference, tuning in ((False, True), (False, False), (True, True)):
        if True:
            what = "a - b" if difference else "mean of a"
            name = "PPI++" if tuning else "PPI"
            print(f"\n{name}, {what}: rows n human-labelled, columns N unlabelled")
            print("| n \\ N | " + " | ".join(str(big_n) for big_n in unlabelled) + " |")
            print("|---" * (len(unlabelled) + 1) + "|")
            for n in labelled:
                cells = []
                for big_n in unlabelled:
                    c = coverage(population, n, big_n, replicates, rng, tuning, difference)
                    se = np.sqrt(c * (1 - c) / replicates)
                    flag = "" if c >= TARGET else " *"
                    cells.append(f"{c:.3f} ({se:.3f}){flag}")
                print(f"| {n} | " + " | ".join(cells) + " |")
    print(f"\n* below {TARGET}; {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
