"""Recovery of simulated propensities by estimate_position_bias, and its cost.

Run ``python benchmarks/bench_position_bias.py``. The click logs come from
``tests/clicks/_bias_logs.py`` (the tests' generator): a position-based click model with
the known propensity ``1 / r ** 0.7`` at ranks 1..10, deterministic loggers. It prints:

- for each method, the recovery on one log (true and estimated propensity of each rank,
  its 95 % interval, covered or not) and the coverage of the intervals over ``--logs``
  (10) independent logs (with the mean estimate); then the coverage of ranks 2-10 by
  three intervals from the same bootstrap replicates: the package's (normal on the log
  scale, with the bootstrap standard error), the percentile interval, and the normal
  interval on the propensity itself;
- the bias of EM with a free relevance per (query, document) pair against the number of
  sessions per query (the nuisance-parameter bias of that model);
- the cost on a 10-million-row log: the time of the estimate alone (``n_bootstrap=0``),
  the time per bootstrap resample, and the rise of the resident memory peak.

``--smoke`` runs small sizes (for the test suite); ``--sections`` picks the parts to run.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "clicks"))
from _bias_logs import em_log, harvesting_log, regression_log, swap_log
from _harness import machine_description, markdown_table, rss_peak_rise

from sklearn_ndcg import estimate_position_bias
from sklearn_ndcg._clicks._position_bias import estimate_with_replicates


def _setups(smoke: bool) -> dict:
    """method label -> (method, function of a seed returning (log, features))."""
    scale = 10 if smoke else 1
    return {
        "em, free relevance (30 queries x 1,000 sessions)": (
            "em",
            lambda seed: (em_log(30, n_sessions=1000 // scale, seed=seed), None),
        ),
        "em, logistic relevance on features (1,000 queries, one ranking each)": (
            "em",
            lambda seed: regression_log(1000 // scale, seed=seed),
        ),
        "harvesting, 3 loggers (800 queries x 6 sessions)": (
            "harvesting",
            lambda seed: (harvesting_log(800 // scale, seed=seed), None),
        ),
        "swap, RandPair (1,000 queries x 4 sessions)": (
            "swap",
            lambda seed: (swap_log(1000 // scale, seed=seed), None),
        ),
    }


def _estimate(method, log, features, n_bootstrap, seed):
    return estimate_position_bias(
        log.qid,
        log.doc,
        log.logged_rank,
        log.click,
        logger=log.logger,
        features=features,
        method=method,
        n_bootstrap=n_bootstrap,
        random_state=seed,
    )


def _other_intervals(propensity, replicates, level=0.95):
    """The percentile interval and the normal interval on the propensity scale."""
    alpha = 1 - level
    percentile = np.nanquantile(replicates, [alpha / 2, 1 - alpha / 2], axis=0)
    half = stats.norm.ppf(1 - alpha / 2) * np.nanstd(replicates, axis=0, ddof=1)
    return {"percentile": percentile, "normal": np.array([propensity - half, propensity + half])}


def recovery(smoke: bool, n_logs: int, n_bootstrap: int) -> None:
    for label, (method, make) in _setups(smoke).items():
        start = time.perf_counter()
        estimates, covered = [], []
        others = {"percentile": [], "normal": []}
        for seed in range(n_logs):
            log, features = make(seed)
            result, replicates = estimate_with_replicates(
                log.qid, log.doc, log.logged_rank, log.click, log.logger, features, method,
                None, 0.95, n_bootstrap, seed, 1000, 1e-6,
            )  # fmt: skip
            low, high = result.confidence_interval
            estimates.append(result.propensity)
            covered.append((low <= log.propensity) & (log.propensity <= high))
            for name, (low, high) in _other_intervals(result.propensity, replicates).items():
                others[name].append((low <= log.propensity) & (log.propensity <= high))
            if seed == 0:
                first, first_log = result, log
        estimates, covered = np.array(estimates), np.array(covered)
        print(f"\n### {label}\n")
        print(
            f"{first_log.qid.size:,} rows a log; {n_logs} logs, {n_bootstrap} resamples each, "
            f"{time.perf_counter() - start:.1f} s\n"
        )
        rows = []
        for r in range(first_log.propensity.size):
            low, high = first.confidence_interval[:, r]
            rows.append(
                [
                    r + 1,
                    f"{first_log.propensity[r]:.3f}",
                    f"{first.propensity[r]:.3f}",
                    f"[{low:.3f}, {high:.3f}]",
                    "yes" if covered[0, r] else "NO",
                    f"{estimates[:, r].mean():.3f}",
                    f"{covered[:, r].mean():.2f}",
                ]
            )
        print(
            markdown_table(
                [
                    "rank",
                    "true",
                    "estimate (log 0)",
                    "95 % interval (log 0)",
                    "covered",
                    f"mean estimate ({n_logs} logs)",
                    f"coverage ({n_logs} logs)",
                ],
                rows,
            )
        )
        cells = covered[:, 1:].size
        print(f"\nranks 2-10 covered: {covered[:, 1:].mean():.1%} of {cells} (rank, log) cells")
        print(
            "same replicates, other intervals: "
            + ", ".join(f"{name} {np.array(c)[:, 1:].mean():.1%}" for name, c in others.items())
        )


def em_bias(smoke: bool, n_logs: int) -> None:
    print("\n### EM with a free relevance per pair: bias against sessions per query\n")
    n_queries = 20 if smoke else 100
    print(f"{n_queries} queries, 14 candidates a query, the top 10 of a random subset shown per")
    print(f"session; mean over {n_logs} logs of (estimate - true), and its standard error.\n")
    rows = []
    for sessions in (10, 30) if smoke else (10, 30, 100, 300, 1000):
        bias = np.array(
            [
                _estimate(
                    "em", em_log(n_queries, n_sessions=sessions, seed=s), None, 0, s
                ).propensity
                - em_log(1, n_sessions=1).propensity
                for s in range(n_logs)
            ]
        )
        mean, se = bias.mean(axis=0), bias.std(axis=0, ddof=1) / np.sqrt(n_logs)
        rows.append(
            [sessions] + [f"{m:+.3f} ({s:.3f})" for m, s in zip(mean[[1, 4, 9]], se[[1, 4, 9]])]
        )
    print(
        markdown_table(
            ["sessions", "bias rank 2 (SE)", "bias rank 5 (SE)", "bias rank 10 (SE)"], rows
        )
    )


def cost(smoke: bool) -> None:
    n_rows = 10_000 if smoke else 10_000_000
    print(f"\n### Cost on a {n_rows:,}-row log\n")
    print("estimate: n_bootstrap=0; per resample: (time with n_bootstrap=2 - estimate) / 2.\n")
    q = n_rows // 100  # 10 ranks x 10 sessions a query
    logs = {
        "em, free relevance": ("em", lambda: (em_log(q // 10, n_sessions=100), None)),
        "em, logistic relevance": ("em", lambda: regression_log(q, n_sessions=10)),
        "harvesting": ("harvesting", lambda: (harvesting_log(q, n_sessions=10), None)),
        "swap": ("swap", lambda: (swap_log(q, n_sessions=10), None)),
    }
    rows = []
    for label, (method, make) in logs.items():
        log, features = make()
        start = time.perf_counter()
        _, rise = rss_peak_rise(_estimate, method, log, features, 0, 0)
        alone = time.perf_counter() - start
        start = time.perf_counter()
        _estimate(method, log, features, 2, 0)
        per_resample = (time.perf_counter() - start - alone) / 2
        rows.append(
            [
                label,
                f"{log.qid.size:,}",
                f"{alone:.2f}",
                f"{per_resample:.2f}",
                f"{rise / 2**20:.0f}",
            ]
        )
        del log, features
    print(
        markdown_table(
            ["method", "rows", "estimate (s)", "per resample (s)", "peak RSS rise (MiB)"], rows
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes, for the test suite")
    parser.add_argument("--logs", type=int, default=None, help="independent logs per method")
    parser.add_argument("--resamples", type=int, default=200, help="bootstrap resamples")
    parser.add_argument(
        "--sections",
        nargs="+",
        choices=("recovery", "em-bias", "cost"),
        default=("recovery", "em-bias", "cost"),
        help="the parts to run (all by default)",
    )
    args = parser.parse_args()
    n_logs = args.logs or (2 if args.smoke else 10)
    resamples = 20 if args.smoke else args.resamples
    print("## Position bias: recovery of simulated propensities\n")
    print("\n".join(machine_description()))
    if "recovery" in args.sections:
        recovery(args.smoke, n_logs, resamples)
    if "em-bias" in args.sections:
        em_bias(args.smoke, n_logs)
    if "cost" in args.sections:
        cost(args.smoke)


if __name__ == "__main__":
    main()
