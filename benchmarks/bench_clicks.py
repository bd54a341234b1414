"""Counterfactual DCG from click logs against the exact truth, and its cost at 10M rows.

Run ``python benchmarks/bench_clicks.py``. Simulated logs (``sklearn_ndcg._clicks._simulate``)
of 2,000 queries x 10 positions with graded relevance, examination ``1 / rank`` (the
position-based model), a deterministic logger that ranks by a noisy grade, and a target
ranker that ranks by a less noisy one. Over 200 independent logs of the same queries
(the clicks, and with stochastic logging the positions, redrawn) it prints, for each
estimator of ``counterfactual_dcg``: the true DCG@10 of the target (exact, from the
simulated relevance), the mean estimate, its Monte Carlo standard error (sd over logs /
sqrt(200)), the bias in standard errors, the share of 95 % intervals that hold the truth,
and the mean effective sample size. Three tables: deterministic logging (with the naive
click DCG beside), stochastic logging (epsilon = 0.5 of the logs shuffled uniformly;
item-position IPS, SNIPS, DR), and cascade clicks (where the position-based model fails).
Then the time and peak memory (tracemalloc, which numpy reports to) of
``counterfactual_dcg`` on a 10M-row log. The done-when of issue 35 is checked: IPS and DR
within 3 standard errors of the truth, coverage in [0.93, 0.97]; a miss prints
``CLICKS CHECK FAILED``. ``--smoke`` runs 300 queries, 40 logs and 100,000 rows, and
checks the bias only (3.5 standard errors).
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np
from sklearn.ensemble import HistGradientBoostingRegressor

from sklearn_ndcg import counterfactual_dcg, dcg_score
from sklearn_ndcg._clicks._simulate import simulate_clicks

K = 10


def _reward_model(sim, seed: int) -> np.ndarray:
    """A regressor's predicted relevance, fitted on an independent log of the same
    queries to the IPS-corrected clicks (unbiased for the relevance), predicted per row."""
    log = sim.log(seed)
    target = log.click / sim.propensity[log.logged_rank - 1]
    model = HistGradientBoostingRegressor(max_iter=50, random_state=0).fit(sim.X, target)
    return np.clip(model.predict(sim.X), 0, 1)


def _table(title, sim, rows, n_logs, checked) -> list[str]:
    target = sim.X[:, 1]
    truth = sim.true_dcg(target, K)
    lines = [
        f"## {title}",
        "",
        f"True DCG@{K} of the target ranker: {truth:.4f} ({n_logs} logs)",
        "",
        "| estimator | mean estimate | SE | bias | bias / SE | coverage | mean ESS |",
        "|---|---|---|---|---|---|---|",
    ]
    failures = []
    for name, options in rows.items():
        values, covered, ess = [], [], []
        for seed in range(n_logs):
            log = sim.log(seed)
            if options == "naive":
                values.append(dcg_score(log.click, target, qid=log.qid, k=K))
                continue
            result = counterfactual_dcg(
                log.click,
                target,
                qid=log.qid,
                logged_rank=log.logged_rank,
                propensity=sim.propensity,
                k=K,
                logging_probability=log.logging_probability,
                **options,
            )
            values.append(result.estimate)
            low, high = result.confidence_interval
            covered.append(low <= truth <= high)
            ess.append(result.effective_sample_size)
        values = np.asarray(values)
        se = values.std(ddof=1) / np.sqrt(n_logs)
        bias = values.mean() - truth
        coverage = f"{np.mean(covered):.3f}" if covered else "-"
        mean_ess = f"{np.mean(ess):,.0f}" if ess else "-"
        lines.append(
            f"| {name} | {values.mean():.4f} | {se:.4f} | {bias:+.4f} | {bias / se:+.1f} | "
            f"{coverage} | {mean_ess} |"
        )
        if name in checked:
            bias_bound, coverage_bounds = checked[name]
            if abs(bias) > bias_bound * se:
                failures.append(f"{title}: {name} bias {bias / se:+.1f} SE")
            if coverage_bounds and not coverage_bounds[0] <= np.mean(covered) <= coverage_bounds[1]:
                failures.append(f"{title}: {name} coverage {np.mean(covered):.3f}")
    return lines + [""], failures


def _cost(n_rows: int) -> list[str]:
    n_documents = 10
    sim = simulate_clicks(n_rows // n_documents, n_documents, random_state=0)
    log = sim.log(0)
    target = sim.X[:, 1].copy()
    lines = [
        f"## Cost: counterfactual_dcg on {n_rows:,} rows ({n_rows // n_documents:,} queries "
        f"x {n_documents})",
        "",
        "| estimator | time (s) | peak memory (MB) | peak / input (x) |",
        "|---|---|---|---|",
    ]
    input_mb = 4 * n_rows * 8 / 1e6  # click, y_score, qid, logged_rank
    reward = sim.relevance
    for name, options in {
        "ips": {},
        "ips, clip=0.2": {"clip": 0.2},
        "dr": {"estimator": "dr", "reward_model": reward},
    }.items():
        tracemalloc.start()
        start = time.perf_counter()
        counterfactual_dcg(
            log.click,
            target,
            qid=log.qid,
            logged_rank=log.logged_rank,
            propensity=sim.propensity,
            k=K,
            **options,
        )
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] / 1e6
        tracemalloc.stop()
        lines.append(f"| {name} | {seconds:.2f} | {peak:,.0f} | {peak / input_mb:.1f} |")
    # timed again without tracemalloc, whose bookkeeping slows numpy's allocations
    start = time.perf_counter()
    counterfactual_dcg(
        log.click, target, qid=log.qid, logged_rank=log.logged_rank, propensity=sim.propensity, k=K
    )
    lines.append(f"| ips, untraced | {time.perf_counter() - start:.2f} | - | - |")
    return lines + [f"\nInput: {input_mb:,.0f} MB (4 float64/int64 columns).", ""]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small and fast, for the suite")
    args = parser.parse_args(argv)
    n_queries, n_logs, n_rows = (300, 40, 100_000) if args.smoke else (2000, 200, 10_000_000)
    coverage = None if args.smoke else (0.93, 0.97)
    bound = 3.5 if args.smoke else 3.0
    lines, failures = [], []

    sim = simulate_clicks(n_queries, 10, eta=1.0, random_state=0)
    reward = _reward_model(sim, 10_000)
    rows = {
        "naive click DCG": "naive",
        "IPS": {},
        "clipped IPS (clip=0.2)": {"clip": 0.2},
        "DR (fitted reward model)": {"estimator": "dr", "reward_model": reward},
        "DR, clip=0.2": {"estimator": "dr", "reward_model": reward, "clip": 0.2},
    }
    checked = {"IPS": (bound, coverage), "DR (fitted reward model)": (bound, coverage)}
    new, failed = _table("Deterministic logging, position-based clicks", sim, rows, n_logs, checked)
    lines += new
    failures += failed

    sim = simulate_clicks(n_queries, 10, eta=1.0, epsilon=0.5, random_state=0)
    reward = _reward_model(sim, 10_000)
    rows = {
        "item-position IPS": {},
        "SNIPS": {"estimator": "snips"},
        "DR (fitted reward model)": {"estimator": "dr", "reward_model": reward},
    }
    checked = {name: (bound, coverage) for name in rows}
    new, failed = _table(
        "Stochastic logging (epsilon=0.5), position-based clicks", sim, rows, n_logs, checked
    )
    lines += new
    failures += failed

    sim = simulate_clicks(n_queries, 10, eta=1.0, click_model="cascade", random_state=0)
    rows = {"naive click DCG": "naive", "IPS (position-based propensity)": {}}
    new, _ = _table("Cascade clicks: the position-based model fails", sim, rows, n_logs, {})
    lines += new

    lines += _cost(n_rows)
    print("\n".join(lines))
    if failures:
        print("CLICKS CHECK FAILED: " + "; ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
