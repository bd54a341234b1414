"""Counterfactual DCG from click logs against the exact truth, and its cost at 10M rows.

Run ``PYTHONPATH=. python benchmarks/bench_clicks.py``. Simulated logs
(``sklearn_ndcg._clicks._simulate``) of 2,000 queries x 10 positions with graded
relevance, examination ``1 / rank`` (the position-based model), a deterministic logger
that ranks by a noisy grade, and a target ranker that ranks by a less noisy one. Over 200
independent logs, each of its own 2,000 queries drawn from the same distribution, it
prints, for each estimator of ``counterfactual_dcg``: the true DCG@10 of the target (the
population value: the exact DCG@10, from the simulated relevance, of 500,000 further
queries, with its Monte Carlo error), the mean estimate, its Monte Carlo standard error
(sd over logs / sqrt(200)), the bias in standard errors (of the mean and of the truth
together), the share of 95 % intervals that hold the truth, and the mean effective sample
size. The intervals are over queries, so they are intervals for the population value;
for the DCG of one log's own queries, whose spread between queries they also count, they
are conservative.

Three tables: deterministic logging (with the naive click DCG beside), stochastic logging
(half of the logged rankings shuffled uniformly; item-position IPS, SNIPS, DR), and
cascade clicks (where the position-based model fails). Then the time and peak memory
(tracemalloc, which numpy reports to) of ``counterfactual_dcg`` on a 10M-row log, beside
``dcg_score`` with ``document_weight=1 / propensity`` (the same IPS value) timed in the
same run. The done-when of issue 35 is checked: IPS and DR within 3 standard errors of
the truth, coverage in [0.93, 0.97]; a miss prints ``CLICKS CHECK FAILED``. ``--smoke``
runs 300 queries, 40 logs and 100,000 rows, and checks the bias only (3.5 standard
errors).
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


def _reward_model(make_sim, seed: int):
    """A regressor of relevance, fitted on an independent log (its own queries) to the
    IPS-corrected clicks (unbiased for the relevance); its predictions are the DR's
    ``reward_model`` on every other log."""
    sim = make_sim(seed)
    log = sim.log(seed)
    target = log.click / sim.propensity[log.logged_rank - 1]
    return HistGradientBoostingRegressor(max_iter=50, random_state=0).fit(sim.X, target)


def _truth(make_sim, n_reference: int) -> tuple[float, float]:
    """The population DCG@10 of the target ranker and its Monte Carlo error."""
    sim = make_sim(-1, n_reference)
    per_query = sim.true_per_query(sim.X[:, 1], K)
    return per_query.mean(), per_query.std(ddof=1) / np.sqrt(per_query.shape[0])


def _table(title, make_sim, rows, n_logs, checked, n_reference):
    truth, truth_se = _truth(make_sim, n_reference)
    lines = [
        f"## {title}",
        "",
        f"True DCG@{K} of the target ranker: {truth:.4f} (Monte Carlo error {truth_se:.4f}, "
        f"from {n_reference:,} queries); {n_logs} logs",
        "",
        "| estimator | mean estimate | SE | bias | bias / SE | coverage | mean ESS |",
        "|---|---|---|---|---|---|---|",
    ]
    logs = []
    for seed in range(n_logs):
        sim = make_sim(seed)
        logs.append((sim, sim.log(seed)))
    failures = []
    for name, options in rows.items():
        values, covered, ess = [], [], []
        for sim, log in logs:
            target = sim.X[:, 1]
            if options == "naive":
                values.append(dcg_score(log.click, target, qid=log.qid, k=K))
                continue
            options_here = dict(options)
            if "reward_model" in options_here:
                options_here["reward_model"] = np.clip(options["reward_model"].predict(sim.X), 0, 1)
            result = counterfactual_dcg(
                log.click,
                target,
                qid=log.qid,
                logged_rank=log.logged_rank,
                propensity=sim.propensity,
                k=K,
                logging_probability=log.logging_probability,
                **options_here,
            )
            values.append(result.estimate)
            low, high = result.confidence_interval
            covered.append(low <= truth <= high)
            ess.append(result.effective_sample_size)
        values = np.asarray(values)
        se = np.hypot(values.std(ddof=1) / np.sqrt(n_logs), truth_se)
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
    # timed again without tracemalloc, whose bookkeeping slows numpy's allocations, beside
    # dcg_score with inverse-propensity document weights: the same IPS value
    start = time.perf_counter()
    value = counterfactual_dcg(
        log.click, target, qid=log.qid, logged_rank=log.logged_rank, propensity=sim.propensity, k=K
    ).estimate
    lines.append(f"| ips, untraced | {time.perf_counter() - start:.2f} | - | - |")
    start = time.perf_counter()
    weight = 1 / sim.propensity[log.logged_rank - 1]
    reference = dcg_score(log.click, target, qid=log.qid, k=K, document_weight=weight)
    lines.append(
        f"| dcg_score(document_weight=1 / propensity), untraced | "
        f"{time.perf_counter() - start:.2f} | - | - |"
    )
    if abs(value - reference) > 1e-9 * abs(reference):
        lines.append(f"VALUE CHECK FAILED: {value!r} != {reference!r}")
    return lines + [f"\nInput: {input_mb:,.0f} MB (4 float64/int64 columns).", ""]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="small and fast, for the suite")
    args = parser.parse_args(argv)
    if args.smoke:
        n_queries, n_logs, n_rows, n_reference = 300, 40, 100_000, 20_000
    else:
        n_queries, n_logs, n_rows, n_reference = 2000, 200, 10_000_000, 500_000
    coverage = None if args.smoke else (0.93, 0.97)
    bound = 3.5 if args.smoke else 3.0
    lines, failures = [], []

    def simulation(**options):
        def make(seed, n=n_queries):
            return simulate_clicks(n, 10, eta=1.0, random_state=1_000 + seed, **options)

        return make

    make_sim = simulation()
    reward = _reward_model(make_sim, 10_000)
    rows = {
        "naive click DCG": "naive",
        "IPS": {},
        "clipped IPS (clip=0.2)": {"clip": 0.2},
        "DR (fitted reward model)": {"estimator": "dr", "reward_model": reward},
        "DR, clip=0.2": {"estimator": "dr", "reward_model": reward, "clip": 0.2},
    }
    checked = {"IPS": (bound, coverage), "DR (fitted reward model)": (bound, coverage)}
    new, failed = _table(
        "Deterministic logging, position-based clicks",
        make_sim,
        rows,
        n_logs,
        checked,
        n_reference,
    )
    lines += new
    failures += failed

    make_sim = simulation(epsilon=0.5)
    reward = _reward_model(make_sim, 10_000)
    rows = {
        "item-position IPS": {},
        "SNIPS": {"estimator": "snips"},
        "DR (fitted reward model)": {"estimator": "dr", "reward_model": reward},
    }
    checked = {name: (bound, coverage) for name in rows}
    new, failed = _table(
        "Stochastic logging (epsilon=0.5), position-based clicks",
        make_sim,
        rows,
        n_logs,
        checked,
        n_reference,
    )
    lines += new
    failures += failed

    make_sim = simulation(click_model="cascade")
    rows = {"naive click DCG": "naive", "IPS (position-based propensity)": {}}
    new, _ = _table(
        "Cascade clicks: the position-based model fails",
        make_sim,
        rows,
        n_logs,
        {},
        n_reference,
    )
    lines += new

    lines += _cost(n_rows)
    print("\n".join(lines))
    if "VALUE CHECK FAILED" in "\n".join(lines):
        failures.append("the IPS value differs from dcg_score's")
    if failures:
        print("CLICKS CHECK FAILED: " + "; ".join(failures))
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
