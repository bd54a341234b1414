"""Do the click-log estimates hold their promises on logs shaped like real ones?

Run ``PYTHONPATH=. python benchmarks/bench_click_calibration.py`` (``--smoke`` for the
test suite's small run, ``--logs N`` to change the number of simulated logs per row,
``--sections`` to pick the parts). Every log comes from :func:`sklearn_ndcg.make_click_log`
(position-based clicks unless said, 10 positions, a known truth). Three sections, each
figure with its Monte Carlo standard error (``se``) over the logs of its row:

1. **Propensities** (``estimate_position_bias``, the default method unless said, 100
   bootstrap resamples): per rank, the mean estimate's bias in standard errors and the
   coverage of the 95 % intervals, on Zipfian logs (61 % of the queries seen once,
   capped at 100 sessions), at 2, 5 and 20 sessions per query, with examination
   ``1 / r`` and ``1 / sqrt(r)``; the swap and several-loggers designs; cascade clicks
   (misspecified, reported only); EM with a free relevance per pair beside the default.
2. **End to end** (``counterfactual_dcg`` with a ``PositionBias`` estimated on another
   log of 1,000 queries x 3 sessions): coverage of the DCG@10 of a ranker over the
   population of queries (the truth: the exact DCG@10 of 200,000 simulated queries),
   with the propensities' spread in the interval and without it.
3. **Comparing two rankers under stochastic logging** (epsilon-greedy, epsilon = 0.3,
   one session per query; item-position IPS, SNIPS, DR): how often ``paired_test`` on
   ``per_query`` calls the truly worse ranker significantly better (bound alpha / 2),
   calls one of two equally good rankers better (bound alpha), calls the better one
   better (power), the interval's coverage, and how often each estimator (and the naive
   click DCG) picks the truly better ranker, at 200, 1,000 and 5,000 queries.
   ``counterfactual_dcg`` warns below ``MIN_STOCHASTIC_QUERIES`` (5,000), where the
   intervals of this section covered less than 0.93.

A line ``CALIBRATION CHECK FAILED: ...`` names each promise the table does not keep
(the checks of issue 47: per-rank coverage >= 0.93 within 2 standard errors, pooled
coverage >= 0.93 and |bias| <= 3 standard errors for the default method; end-to-end
coverage >= 0.93 at 1,000 queries; under stochastic logging, false "better" <= alpha / 2 +
3 standard errors at every size, and coverage >= 0.93 within 2 standard errors from
the documented minimum of queries).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from _harness import machine_description, markdown_table

from sklearn_ndcg import (
    counterfactual_dcg,
    estimate_position_bias,
    make_click_log,
    paired_test,
)
from sklearn_ndcg._clicks._counterfactual import MIN_STOCHASTIC_QUERIES
from sklearn_ndcg._clicks._make_log import ATTRACTIVENESS

ALPHA = 0.05
FAILED: list[str] = []


def _se(p: float, n: int) -> float:
    return float(np.sqrt(max(p * (1 - p), 1e-12) / n))


def _check(ok: bool, what: str) -> str:
    if not ok:
        FAILED.append(what)
    return "" if ok else " (FAILED)"


# ------------------------------------------------------------------ 1. propensities


def _propensity_rows(smoke: bool):
    """label -> (make_click_log options, estimate options, checked)."""
    q = 10 if smoke else 1
    rows = {}
    for eta, curve in ((1.0, "1/r"), (0.5, "1/sqrt(r)")):
        for sessions, n in (("zipf", 3000), (2, 1500), (5, 1000), (20, 300)):
            label = f"default, {sessions} sessions, {n // q:,} queries, {curve}"
            rows[label] = (dict(n_queries=n // q, sessions=sessions, eta=eta), {}, True)
    rows["swap (RandPair), 1,000 x 4 sessions, 1/r"] = (
        dict(n_queries=1000 // q, sessions=4, logging="swap"),
        dict(method="swap"),
        False,
    )
    rows["harvesting, 3 loggers, 800 x 6 sessions, 1/r"] = (
        dict(n_queries=800 // q, sessions=6, logging="loggers"),
        dict(method="harvesting"),
        False,
    )
    rows["default, cascade clicks (misspecified), zipf, 3,000 queries"] = (
        dict(n_queries=3000 // q, sessions="zipf", click_model="cascade"),
        {},
        False,
    )
    rows["em, free relevance, zipf, 3,000 queries, 1/r (before 0.3's default)"] = (
        dict(n_queries=3000 // q, sessions="zipf"),
        dict(method="em"),
        False,
    )
    if smoke:  # one checked row, one design with a logger, the old default
        keep = (next(iter(rows)), "swap (RandPair)", "em, free relevance")
        return {label: row for label, row in rows.items() if label.startswith(keep)}
    return rows


def propensities(smoke: bool, n_logs: int, n_bootstrap: int, only: str | None = None) -> None:
    print("\n## 1. Propensities: bias and per-rank coverage of the 95 % intervals\n")
    print(f"{n_logs} logs per row, {n_bootstrap} bootstrap resamples each.\n")
    summary = []
    for label, (log_options, options, checked) in _propensity_rows(smoke).items():
        if only is not None and not any(part in label for part in only.split(";")):
            continue
        started = time.perf_counter()
        estimates, covered = [], []
        for seed in range(n_logs):
            log = make_click_log(**log_options, random_state=seed)
            logger = log.logger if options.get("method") in ("swap", "harvesting") else None
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # EM's few-impressions warning
                bias = estimate_position_bias(
                    log.qid,
                    log.doc,
                    log.logged_rank,
                    log.click,
                    logger=logger,
                    n_bootstrap=n_bootstrap,
                    random_state=seed,
                    **options,
                )
            low, high = bias.confidence_interval
            estimates.append(bias.propensity)
            covered.append((low <= log.propensity) & (log.propensity <= high))
        truth = log.propensity
        estimates, covered = np.array(estimates), np.array(covered, dtype=float)
        nan = np.isnan(estimates[:, 1:]).mean()
        mean = np.nanmean(estimates, axis=0)
        spread = np.nanstd(estimates, axis=0, ddof=1) / np.sqrt((~np.isnan(estimates)).sum(0))
        print(f"### {label} ({time.perf_counter() - started:.0f} s)\n")
        print(
            markdown_table(
                ["rank", "truth", "mean estimate", "bias / se", "coverage", "se"],
                [
                    [
                        r + 1,
                        f"{truth[r]:.3f}",
                        f"{mean[r]:.3f}",
                        f"{(mean[r] - truth[r]) / spread[r]:+.1f}" if r else "",
                        f"{covered[:, r].mean():.3f}" if r else "",
                        f"{_se(covered[:, r].mean(), n_logs):.3f}" if r else "",
                    ]
                    for r in range(truth.shape[0])
                ],
            )
        )
        pooled = covered[:, 1:].mean()
        worst_bias = float(np.nanmax(np.abs((mean - truth)[1:] / spread[1:])))
        worst_rank = covered[:, 1:].mean(axis=0).min()
        note = ""
        if checked:
            note += _check(pooled >= 0.93, f"{label}: pooled coverage {pooled:.3f} < 0.93")
            note += _check(
                worst_rank >= 0.93 - 2 * _se(worst_rank, n_logs),
                f"{label}: a rank's coverage {worst_rank:.3f} below 0.93 - 2 se",
            )
            note += _check(worst_bias <= 3, f"{label}: |bias| {worst_bias:.1f} se > 3")
        print(
            f"\npooled coverage (ranks 2-10) {pooled:.3f} (se "
            f"{_se(pooled, covered[:, 1:].size):.3f}); largest |bias| {worst_bias:.1f} se; "
            f"NaN estimates {nan:.1%}{note}\n"
        )
        summary.append([label, f"{pooled:.3f}", f"{worst_rank:.3f}", f"{worst_bias:.1f}"])
    print("### Summary\n")
    print(
        markdown_table(
            ["log", "pooled coverage", "lowest rank's coverage", "largest |bias| / se"],
            summary,
        )
    )


# ------------------------------------------------------------------ 2. end to end


def _population(smoke: bool):
    """200,000 simulated queries (20,000 at smoke size): the exact DCG@k of a ranker over
    them is its population DCG@k (standard error about 0.002)."""
    return make_click_log(20_000 if smoke else 200_000, 10, sessions=1, random_state=12345)


def end_to_end(smoke: bool, n_logs: int, n_bootstrap: int) -> None:
    print("\n## 2. End to end: counterfactual_dcg with estimated propensities\n")
    n_queries = 100 if smoke else 1000
    k = 10
    population = _population(smoke)
    truth = population.true_dcg(population.X[:, 1], k=k)
    print(
        f"Propensities from a log of {n_queries:,} queries x 3 sessions ({n_bootstrap} "
        f"resamples), applied to another log of {n_queries:,} queries (Zipfian sessions); "
        f"the ranker's population DCG@{k} is {truth:.4f}. {n_logs} pairs of logs.\n"
    )
    hits = {"with the propensities' spread (PositionBias)": [], "propensities as known": []}
    estimates = []
    for seed in range(n_logs):
        source = make_click_log(n_queries, 10, sessions=3, random_state=10_000 + seed)
        bias = estimate_position_bias(
            source.qid,
            source.doc,
            source.logged_rank,
            source.click,
            n_bootstrap=n_bootstrap,
            random_state=seed,
        )
        log = make_click_log(n_queries, 10, sessions="zipf", random_state=20_000 + seed)
        kw = dict(qid=log.qid, impression=log.impression, logged_rank=log.logged_rank, k=k)
        for name, propensity in zip(hits, (bias, bias.propensity)):
            low, high = counterfactual_dcg(
                log.click, log.X[:, 1], propensity=propensity, **kw
            ).confidence_interval
            hits[name].append(low <= truth <= high)
        estimates.append(counterfactual_dcg(log.click, log.X[:, 1], propensity=bias, **kw).estimate)
    rows = []
    for name, hit in hits.items():
        coverage = float(np.mean(hit))
        note = ""
        if name.startswith("with"):
            note = _check(coverage >= 0.93 or smoke, f"end-to-end coverage {coverage:.3f} < 0.93")
        rows.append([name, f"{coverage:.3f}{note}", f"{_se(coverage, n_logs):.3f}"])
    print(markdown_table(["interval", "coverage", "se"], rows))
    bias_se = (np.mean(estimates) - truth) / (np.std(estimates, ddof=1) / np.sqrt(n_logs))
    print(f"\nmean estimate {np.mean(estimates):.4f} against {truth:.4f}: {bias_se:+.1f} se\n")


# ------------------------------------------------------------------ 3. comparisons


def _rankers(log, rng):
    """The better ranker (grade + noise 0.5), a worse one (grade + noise 0.7: about 0.035
    lower DCG@5), and one as good as the better (grade + fresh noise 0.5)."""
    grade = np.searchsorted(ATTRACTIVENESS, log.relevance)
    return {
        "better": log.X[:, 1],
        "worse": grade + 0.7 * rng.normal(size=grade.shape),
        "equal": grade + 0.5 * rng.normal(size=grade.shape),
    }


def comparisons(smoke: bool, n_logs: int) -> None:
    print("\n## 3. Two rankers under stochastic logging (epsilon-greedy, epsilon 0.3)\n")
    k = 5
    rng = np.random.default_rng(7)
    population = _population(smoke)
    truths = {name: population.true_dcg(s, k=k) for name, s in _rankers(population, rng).items()}
    print(
        "Population DCG@5: "
        + ", ".join(f"{name} {value:.4f}" for name, value in truths.items())
        + f"; {n_logs} logs per size. A call is paired_test's (randomization, "
        "two-sided 0.05) on the two per_query.\n"
    )
    sizes = (200, 1000) if smoke else (200, 1000, 5000)
    rows = []
    for n_queries in sizes:
        counts: dict = {}
        for seed in range(n_logs):
            log = make_click_log(n_queries, 10, logging="stochastic", random_state=30_000 + seed)
            scores = _rankers(log, np.random.default_rng(seed))
            reward = np.clip(log.X[:, 1] / 4, 0.05, 0.95)
            kw = dict(
                qid=log.qid,
                impression=log.impression,
                logged_rank=log.logged_rank,
                propensity=log.propensity,
                logging_probability=log.logging_probability,
                k=k,
            )
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # the small-log warnings
                for estimator in ("ips", "snips", "dr"):
                    extra = {"reward_model": reward} if estimator == "dr" else {}
                    result = {
                        name: counterfactual_dcg(log.click, s, estimator=estimator, **kw, **extra)
                        for name, s in scores.items()
                    }
                    _tally(counts, estimator, result, truths, seed)
            naive = {
                name: counterfactual_dcg(
                    log.click, s, **{**kw, "propensity": np.ones(10), "logging_probability": None}
                ).estimate
                for name, s in scores.items()
            }
            counts.setdefault(("naive click DCG", "picks"), []).append(
                naive["better"] > naive["worse"]
            )
        for estimator in ("ips", "snips", "dr", "naive click DCG"):
            row = [f"{n_queries:,}", estimator]
            for what in ("false better", "equal called", "power", "coverage", "picks"):
                values = counts.get((estimator, what))
                if values is None:
                    row.append("")
                    continue
                rate = float(np.mean(values))
                note = ""
                if what == "false better":  # at every size
                    bound = ALPHA / 2 + 3 * _se(ALPHA / 2, n_logs)
                    note = _check(rate <= bound, f"false better {rate:.3f} at {n_queries}")
                if what == "coverage" and n_queries >= MIN_STOCHASTIC_QUERIES:
                    low = 0.93 - 2 * _se(rate, n_logs)
                    note = _check(rate >= low, f"coverage {rate:.3f} at {n_queries}")
                row.append(f"{rate:.3f} ({_se(rate, n_logs):.3f}){note}")
            rows.append(row)
    header = ["queries", "estimator", "false better", "equal called", "power", "coverage"]
    print(markdown_table([*header, "picks the better"], rows))
    print(
        "\nfalse better: the worse ranker called significantly better (bound alpha/2 = "
        "0.025); equal called: one of two equally good rankers called better (bound 0.05); "
        "power: the better called better; coverage: the better ranker's interval holds its "
        "DCG@5; picks: the estimate of the better ranker is the larger. Each rate with its "
        "standard error in brackets.\n"
    )


def _tally(counts, estimator, result, truths, seed) -> None:
    better, worse, equal = result["better"], result["worse"], result["equal"]
    test = paired_test(worse.per_query, better.per_query, random_state=seed, n_resamples=1999)
    significant = test.pvalue < ALPHA
    counts.setdefault((estimator, "false better"), []).append(
        significant and test.mean_difference > 0
    )
    counts.setdefault((estimator, "power"), []).append(significant and test.mean_difference < 0)
    same = paired_test(equal.per_query, better.per_query, random_state=seed, n_resamples=1999)
    counts.setdefault((estimator, "equal called"), []).append(same.pvalue < ALPHA)
    low, high = better.confidence_interval
    counts.setdefault((estimator, "coverage"), []).append(low <= truths["better"] <= high)
    counts.setdefault((estimator, "picks"), []).append(better.estimate > worse.estimate)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--smoke", action="store_true", help="small sizes, for the suite")
    parser.add_argument("--logs", type=int, default=None, help="simulated logs per row")
    parser.add_argument("--bootstrap", type=int, default=100, help="resamples per estimate")
    parser.add_argument(
        "--sections", default="propensities,end_to_end,comparisons", help="parts to run"
    )
    parser.add_argument(
        "--rows", default=None, help="section 1: only rows whose label holds one of these ;-parts"
    )
    args = parser.parse_args()
    n_logs = args.logs or (2 if args.smoke else 100)
    n_bootstrap = 10 if args.smoke else args.bootstrap
    print("# Click-log calibration (benchmarks/bench_click_calibration.py)\n")
    print("\n".join(machine_description()))
    sections = args.sections.split(",")
    if "propensities" in sections:
        propensities(args.smoke, n_logs, n_bootstrap, args.rows)
    if "end_to_end" in sections:
        end_to_end(args.smoke, n_logs, n_bootstrap)
    if "comparisons" in sections:
        comparisons(args.smoke, n_logs)
    for what in FAILED:
        if not args.smoke:
            print(f"CALIBRATION CHECK FAILED: {what}")


if __name__ == "__main__":
    main()
