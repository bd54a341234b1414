"""Calibration of the verdicts of paired_test, compare_models and required_queries.

Run ``python benchmarks/bench_calibration.py``: realistic per-query NDCG (bounded,
skewed, many 0s and 1s, correlated systems; ``_calibration_data.py``), light- and
heavy-tailed differences, at n = 3, 5, 10, 25, 50, 100 and 250 queries, 2,000 replicates
a cell. It prints, for each method of ``paired_test``:

- type I: the share of "better"/"worse" (p < 0.05) when nothing differs;
- FWER 5 / FWER 10: the share of runs of ``compare_models`` against the best (its
  default) that call at least one of 5 (10) truly equal systems different;
- false equiv.: the share of "equivalent" when the true difference lies on the margin
  (0.03);
- cover 0 / cover m: the share of the REPORTED 95 % confidence intervals that hold the
  true difference (0, and the margin, where the differences are skewed); "-" where no
  interval is reported (below 30 queries ``paired_test`` gives ``(nan, nan)``);
- cover mean: the share of ``bootstrap_ci``'s 95 % intervals of one system's mean NDCG
  that hold its true mean;
- power .01 / .02 / .05: the share of p < 0.05 at those true differences;

and, for ``required_queries`` planned from a 10- or 25-query pilot to detect 0.02 with
power 0.8, without and with ``assurance=`` 0.8 and 0.9: the median number of queries it
asks for, the power the studies reach (the share of t-tests of a new sample of that many
queries that reject) and the share of plans whose true power (normal theory, the
population's standard deviation) is at least 0.8, which ``assurance`` promises.
Cells outside the bounds of issue 34 (alpha + 0.02 = 0.07 for the error rates, 0.93 for
coverage) carry a ``*``. Every paired cell comes from ``paired_batch``, the kernels that
``paired_test`` runs on one row, on all replicates at once (one seed a cell: every
replicate is tested with the same resamples); the family-wise error from the batch
p-values of every pair, corrected and read against the best as ``compare_models`` does
(``against_best_verdicts``; tests/stats/test_batch.py checks both equalities). The
resampling methods use ``--resamples`` (default 1,999, not the library's 9,999: the FWER
cells test 90,000 pairs a cell at 10 systems, and 1,999 fits the run in about 30 minutes
on 2 loaded cores; exact sign flips up to 10 queries); ``bootstrap_ci`` and the planning
rows, still one public call a replicate, use ``--side-reps`` (500). ``--smoke`` runs a
small subset and checks the bounds loosely (for the test suite).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

import numpy as np
from _calibration_data import SCENARIOS, Population, draw, moments

from sklearn_ndcg import bootstrap_ci, paired_test, required_queries
from sklearn_ndcg._stats._batch import against_best_verdicts
from sklearn_ndcg._stats._methods import PAIRED_METHODS
from sklearn_ndcg._stats._paired_batch import paired_batch
from sklearn_ndcg._stats._power import smallest_n_queries

ALPHA = 0.05
MARGIN = 0.03
POWER_DELTAS = (0.01, 0.02, 0.05)
PLAN_DELTA = 0.02
PILOTS = (10, 25)
ASSURANCES = (None, 0.8, 0.9)
SIZES = (3, 5, 10, 25, 50, 100, 250)
FWER_SYSTEMS = (5, 10)


def _quiet(function, *args, **kwargs):
    """Call the package with its expected warnings (too few queries, t undefined) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return function(*args, **kwargs)


def _coverage(intervals, truth) -> float:
    """Share of the reported intervals (rows x 2) that hold ``truth``; NaN when none is."""
    intervals = np.asarray(intervals, dtype=float)
    reported = ~np.isnan(intervals).any(axis=1)
    if not reported.any():
        return np.nan
    low, high = intervals[reported].T
    return float(np.mean((low <= truth) & (truth <= high)))


def _mean_coverage(population, n, reps, resamples, rng) -> float:
    """Coverage of bootstrap_ci's interval of one system's mean NDCG at n queries."""
    values = population.system_a()
    sample = draw(values, rng, n, reps)
    truth = float(values.mean())
    results = [
        _quiet(bootstrap_ci, x, n_resamples=resamples, random_state=i) for i, x in enumerate(sample)
    ]
    return _coverage([r.confidence_interval for r in results], truth)


def _batch(d, method, resamples, seed, margin=None):
    """paired_batch of every replicate (rows of ``d``) against 0: the code paired_test runs."""
    return paired_batch(
        d, np.zeros_like(d), method=method, n_resamples=resamples, margin=margin, random_state=seed
    )


def _paired_cells(population, method, n, reps, resamples, rng) -> dict:
    """Type I, coverage, false equivalence and power of one method at n queries."""
    cells = {}
    seed = int(rng.integers(2**31))
    result = _batch(draw(population.differences(0.0), rng, n, reps), method, resamples, seed)
    cells["type I"] = np.mean(result.pvalue < ALPHA)
    cells["cover 0"] = _coverage(result.confidence_interval, 0.0)
    edge = draw(population.differences(MARGIN), rng, n, reps)
    result = _batch(edge, method, resamples, seed, margin=MARGIN)
    cells["false equiv."] = np.mean([v == "equivalent" for v in result.verdict])
    cells["cover m"] = _coverage(result.confidence_interval, MARGIN)
    for delta in POWER_DELTAS:
        sample = draw(population.differences(delta), rng, n, reps)
        cells[f"power {delta:g}"] = np.mean(_batch(sample, method, resamples, seed).pvalue < ALPHA)
    return cells


def fwer_verdicts(systems, method, resamples, seed) -> list:
    """compare_models' verdicts against the best (all pairs, Holm), one list a replicate,
    from the batch p-values of every pair (``systems``: replicates x models x queries)."""
    reps, k, n = systems.shape
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    a = np.concatenate([systems[:, i] for i, _ in pairs])
    b = np.concatenate([systems[:, j] for _, j in pairs])
    pvalues = _batch_pvalues(a, b, method, resamples, seed).reshape(len(pairs), reps).T
    return against_best_verdicts(systems, pvalues, ALPHA, "holm")


def _batch_pvalues(a, b, method, resamples, seed):
    return paired_batch(a, b, method=method, n_resamples=resamples, random_state=seed).pvalue


def _fwer(population, method, n, k, reps, resamples, rng) -> float:
    """Share of compare_models runs (against the best) calling an equal system different."""
    systems = population.systems(k, rng, n, reps)
    verdicts = fwer_verdicts(systems, method, resamples, int(rng.integers(2**31)))
    return float(np.mean([any(v in ("better", "worse") for v in row) for row in verdicts]))


def _planning(population, pilot, assurance, reps, rng) -> tuple[float, float, float]:
    """Median queries required_queries asks for, the power the studies reach, and the
    share of plans whose true power is at least 0.8."""
    differences = population.differences(PLAN_DELTA)
    effect = PLAN_DELTA / float(np.std(differences))
    needed = smallest_n_queries(effect, 0.8, 1 - ALPHA / 2, 10**7)  # with the true sd
    pilots = draw(differences, rng, pilot, reps)
    wanted, reached = [], []
    for d in pilots:
        if np.ptp(d) == 0:
            continue  # no variance in the pilot: nothing to plan from
        try:
            n = _quiet(
                required_queries,
                d,
                np.zeros(pilot),
                delta=PLAN_DELTA,
                power=0.8,
                assurance=assurance,
            )
        except ValueError:  # more queries than the planner allows
            continue
        study = draw(differences, rng, n, 1)[0]
        wanted.append(n)
        reached.append(_quiet(paired_test, study, np.zeros(n), method="t").pvalue < ALPHA)
    wanted = np.array(wanted)
    return float(np.median(wanted)), float(np.mean(reached)), float(np.mean(wanted >= needed))


def _flag(column: str, value: float) -> str:
    bad = (
        value < 0.93
        if column.startswith("cover")
        else (column in ("type I", "false equiv.", "FWER 5", "FWER 10") and value > ALPHA + 0.02)
    )
    return f"{value:.3f}{'*' if bad else ' '}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="a small subset, bounds checked")
    parser.add_argument("--reps", type=int, default=None, help="replicates a cell (2000)")
    parser.add_argument("--resamples", type=int, default=None, help="resamples (1999)")
    parser.add_argument("--sizes", type=int, nargs="*", default=None, help="numbers of queries")
    parser.add_argument("--scenarios", nargs="*", default=list(SCENARIOS))
    parser.add_argument("--no-fwer", action="store_true", help="skip compare_models")
    parser.add_argument("--methods", nargs="*", default=list(PAIRED_METHODS))
    parser.add_argument(
        "--fwer-reps", type=int, default=None, help="replicates of the FWER cells (--reps)"
    )
    parser.add_argument(
        "--side-reps", type=int, default=None, help="replicates of bootstrap_ci and planning (500)"
    )
    args = parser.parse_args(argv)
    reps = args.reps or (100 if args.smoke else 2000)
    resamples = args.resamples or (199 if args.smoke else 1999)
    mean_reps = plan_reps = args.side_reps or (100 if args.smoke else 500)
    sizes = args.sizes or ((5, 30) if args.smoke else SIZES)
    fwer_systems = (5,) if args.smoke else FWER_SYSTEMS
    rng = np.random.default_rng(20261127)
    print("load before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    start = time.perf_counter()
    fwer_reps = args.fwer_reps or reps
    print(
        f"{reps} replicates a cell ({fwer_reps} for FWER; {mean_reps} for bootstrap_ci and "
        f"planning), {resamples} resamples, "
        f"alpha {ALPHA}, margin {MARGIN}"
    )
    failures = []
    for scenario in args.scenarios:
        population = Population(scenario)
        mean, sd, skew, kurtosis = moments(population.differences(MARGIN))
        ties = np.mean(population.differences(MARGIN) == 0)
        print(
            f"\n## {scenario}-tailed differences (at the margin: sd {sd:.3f}, skew "
            f"{skew:.2f}, excess kurtosis {kurtosis:.1f}, {ties:.0%} ties)\n"
        )
        columns = ["type I", "FWER 5", "FWER 10", "false equiv.", "cover 0", "cover m"]
        columns += [f"power {delta:g}" for delta in POWER_DELTAS]
        print("| method | n | " + " | ".join(columns) + " |")
        print("|---|---:|" + "---:|" * len(columns))
        for method in args.methods:
            for n in sizes:
                cells = _paired_cells(population, method, n, reps, resamples, rng)
                for k in FWER_SYSTEMS:
                    cells[f"FWER {k}"] = (
                        _fwer(population, method, n, k, fwer_reps, resamples, rng)
                        if k in fwer_systems and not args.no_fwer
                        else np.nan
                    )
                row = [_flag(c, cells[c]) if not np.isnan(cells[c]) else "-" for c in columns]
                print(f"| {method} | {n} | " + " | ".join(row) + " |", flush=True)
                failures += [
                    (scenario, method, n, c, cells[c])
                    for c in columns
                    if _smoke_bound_fails(scenario, n, c, cells[c], reps)
                ]
        print(f"\nbootstrap_ci of one system's mean NDCG ({scenario}):\n")
        print("| n | cover mean |")
        print("|---:|---:|")
        for n in sizes:
            cover = _mean_coverage(population, n, mean_reps, resamples, rng)
            print(f"| {n} | {_flag('cover mean', cover)} |", flush=True)
            failures += [
                (scenario, "bootstrap_ci", n, "cover mean", cover)
                for _ in [0]
                if _smoke_bound_fails(scenario, n, "cover mean", cover, reps)
            ]
        needed = smallest_n_queries(
            PLAN_DELTA / float(np.std(population.differences(PLAN_DELTA))),
            0.8,
            1 - ALPHA / 2,
            10**7,
        )
        print(
            f"\nrequired_queries planned from a pilot ({scenario}; delta {PLAN_DELTA}, "
            f"power asked 0.80; {needed} queries with the true sd):\n"
        )
        print("| pilot queries | assurance | median queries asked | power reached | plans >= 0.8 |")
        print("|---:|---:|---:|---:|---:|")
        for pilot in PILOTS:
            for assurance in (None, 0.8) if args.smoke else ASSURANCES:
                wanted, reached, enough = _planning(population, pilot, assurance, plan_reps, rng)
                print(
                    f"| {pilot} | {assurance or '-'} | {wanted:.0f} | {reached:.3f} | "
                    f"{enough:.3f} |",
                    flush=True,
                )
    print(f"\ntime: {time.perf_counter() - start:.0f} s")
    print("load after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    if args.smoke:
        for failure in failures:
            print("CALIBRATION CHECK FAILED:", *failure)
        return 1 if failures else 0
    return 0


def _smoke_bound_fails(scenario, n, column, value, reps) -> bool:
    """Whether a cell misses its bound by more than Monte Carlo error (4 sd, loosely).

    Coverage is that of the reported intervals (NaN: none reported, nothing to check).
    """
    if np.isnan(value):
        return False
    slack = 4 * np.sqrt(0.05 * 0.95 / reps)
    if column in ("type I", "false equiv.", "FWER 5", "FWER 10"):
        return value > ALPHA + 0.02 + slack
    if column.startswith("cover"):  # every reported interval, at every n
        return value < 0.93 - slack
    return False


if __name__ == "__main__":
    sys.exit(main())
