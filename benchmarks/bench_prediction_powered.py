"""Prediction-powered NDCG: estimate, interval width and coverage against the truth.

Run ``python benchmarks/bench_prediction_powered.py``: in each replicate a collection of
2,000 queries (20 documents each) is judged by a biased model labeller and, on a simple
random sample of 100 queries, by people (``_judgments_data.py``: lenient, confused,
favouring one ranker's style). The truth is the mean NDCG@10 under the true labels over
all 2,000 queries, what judging every query by people would give. For the mean NDCG@10 of
ranker ``a`` and for the difference ``a - b`` it prints, for each estimator:

- naive: the model-labelled values of all queries, with their normal 95 % interval;
- human only: the human-labelled queries alone, normal 95 % interval (sample standard
  deviation);
- PPI: ``prediction_powered_mean`` / ``_difference`` with ``power_tuning=False``;
- PPI++: the same with power tuning (the default);

the mean estimate, its bias and standard deviation over replicates, the mean interval
width, and the coverage (share of 95 % intervals that hold the truth; its Monte Carlo
standard error is about 0.007 at 1,000 replicates). For the difference it also prints
the verdicts with a margin of 0.01 (a is truly better by about 0.03). The first
replicate is printed as an example. ``--smoke``: 60 replicates of 500 queries, 50 of
them human-labelled, for the test suite. ``--queries``, ``--labelled`` and ``--docs``
change the sizes (the coverage bounds 0.93-0.97 are checked at the default sizes only).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter

import numpy as np
from _judgments_data import human_sample, simulate
from scipy import stats

from sklearn_ndcg import QueryScores, prediction_powered_difference, prediction_powered_mean

LEVEL = 0.95
MARGIN = 0.01
METHODS = ("naive", "human only", "PPI", "PPI++")
Z = stats.norm.ppf(0.5 + LEVEL / 2)


def _scores(qid, values):
    return QueryScores(qid, values, np.ones(qid.shape[0]))


def _normal(values):
    """Mean and normal interval of independent values (sample standard deviation)."""
    mean = values.mean()
    half = Z * values.std(ddof=1) / np.sqrt(values.shape[0])
    return mean, (mean - half, mean + half)


def _verdict(estimate, interval, pvalue_below_alpha, equivalence):
    if -MARGIN < equivalence[0] and equivalence[1] < MARGIN:
        return "equivalent"
    if pvalue_below_alpha:
        return "better" if estimate > 0 else "worse"
    return "inconclusive"


def _naive_verdict(values):
    """The verdict of a normal (z) TOST and z-test on independent per-query values."""
    mean, interval = _normal(values)
    se = values.std(ddof=1) / np.sqrt(values.shape[0])
    half = stats.norm.ppf(1 - (1 - LEVEL)) * se
    below = 2 * stats.norm.sf(abs(mean) / se) < 1 - LEVEL
    return _verdict(mean, interval, below, (mean - half, mean + half))


def replicate(rng, n_queries, n_labelled, n_docs=20):
    """Estimates and intervals of each method for the mean of a and for a - b."""
    data = simulate(rng, n_queries, n_docs)
    labelled = human_sample(rng, n_queries, n_labelled)
    qid = data.qid
    truth = {"mean": data.true_a.mean(), "difference": (data.true_a - data.true_b).mean()}
    out = {"mean": {}, "difference": {}}
    out["mean"]["naive"] = _normal(data.model_a)
    out["mean"]["human only"] = _normal(data.true_a[labelled])
    diff_model = data.model_a - data.model_b
    diff_human = (data.true_a - data.true_b)[labelled]
    out["difference"]["naive"] = (*_normal(diff_model), _naive_verdict(diff_model))
    out["difference"]["human only"] = (*_normal(diff_human), _naive_verdict(diff_human))
    model_a, model_b = _scores(qid, data.model_a), _scores(qid, data.model_b)
    human_a = _scores(qid[labelled], data.true_a[labelled])
    human_b = _scores(qid[labelled], data.true_b[labelled])
    for name, tuning in (("PPI", False), ("PPI++", True)):
        mean = prediction_powered_mean(model_a, human_a, power_tuning=tuning)
        out["mean"][name] = (mean.estimate, mean.confidence_interval)
        difference = prediction_powered_difference(
            model_a, model_b, human_a, human_b, power_tuning=tuning, margin=MARGIN
        )
        out["difference"][name] = (
            difference.estimate,
            difference.confidence_interval,
            difference.verdict,
        )
    return truth, out


def summarise(rows, target):
    """The table of one target ("mean" or "difference") over the replicates."""
    truths = np.array([truth[target] for truth, _ in rows])
    lines = [
        "| estimator | mean estimate | bias | sd | mean width | coverage |"
        + (" better | equivalent | inconclusive | worse |" if target == "difference" else ""),
        "|---|---:|---:|---:|---:|---:|"
        + ("---:|---:|---:|---:|" if target == "difference" else ""),
    ]
    coverage = {}
    for method in METHODS:
        estimate = np.array([out[target][method][0] for _, out in rows])
        low = np.array([out[target][method][1][0] for _, out in rows])
        high = np.array([out[target][method][1][1] for _, out in rows])
        coverage[method] = float(np.mean((low <= truths) & (truths <= high)))
        line = (
            f"| {method} | {estimate.mean():.4f} | {np.mean(estimate - truths):+.4f} | "
            f"{estimate.std(ddof=1):.4f} | {np.mean(high - low):.4f} | {coverage[method]:.3f} |"
        )
        if target == "difference":
            counts = Counter(out[target][method][2] for _, out in rows)
            shares = [
                counts[v] / len(rows) for v in ("better", "equivalent", "inconclusive", "worse")
            ]
            line += "".join(f" {share:.3f} |" for share in shares)
        lines.append(line)
    return truths, lines, coverage


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=2000)
    parser.add_argument("--labelled", type=int, default=100)
    parser.add_argument("--docs", type=int, default=20, help="documents per query")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args(argv)
    if args.smoke:
        args.reps, args.queries, args.labelled = 60, 500, 50
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    rows = [replicate(rng, args.queries, args.labelled, args.docs) for _ in range(args.reps)]
    elapsed = time.perf_counter() - started
    print(
        f"{args.reps} replicates of {args.queries} queries x {args.docs} documents, "
        f"{args.labelled} human-labelled; seed {args.seed}; {elapsed:.1f} s"
    )
    truth, first = rows[0]
    print(
        f"\nFirst replicate: true mean NDCG@10 of a {truth['mean']:.4f}, of a - b "
        f"{truth['difference']:+.4f}"
    )
    for method in METHODS:
        estimate, (low, high) = first["mean"][method][:2]
        d_estimate, (d_low, d_high), verdict = first["difference"][method]
        print(
            f"- {method}: a {estimate:.4f} ({low:.4f}, {high:.4f}); a - b {d_estimate:+.4f} "
            f"({d_low:+.4f}, {d_high:+.4f}), {verdict}"
        )
    failed = False
    for target, title in (("mean", "Mean NDCG@10 of a"), ("difference", "Difference a - b")):
        truths, lines, coverage = summarise(rows, target)
        print(f"\n{title} (truth: mean over replicates {truths.mean():.4f}; 95 % intervals)")
        print("\n".join(lines))
        # the claims of the docs (at the default sizes), with room for Monte Carlo error at
        # smoke size; other sizes are reported, not checked
        default = (args.queries, args.labelled, args.docs) == (2000, 100, 20)
        if not (args.smoke or default):
            continue
        low, high = (0.85, 1.0) if args.smoke else (0.93, 0.97)
        for method in ("PPI", "PPI++"):
            if not low <= coverage[method] <= high:
                print(f"VALUE CHECK FAILED: {target} {method} coverage {coverage[method]:.3f}")
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
