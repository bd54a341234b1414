"""Estimators of NDCG from a pool judged by stratified sampling, against full judgments.

Run ``python benchmarks/bench_sampled_judgments.py`` (issue 36's table). Each replicate
simulates TREC-style pooling: per query, 1,000 candidate documents with graded
relevance (0-3, about 20 % relevant, the relevant ones concentrated among the
documents the systems score high); three systems score them with independent noise;
the pool is the union of their top 100, split into strata by the best rank any
system gives a document (1-10, 11-30, 31-100); each stratum is sampled at 30 % (at
least one document), and only the sample is judged. The first system's run (its 1,000
documents) is evaluated by:

- infNDCG (``evaluate_run(..., metric="infNDCG")``, sample_eval.pl's estimator);
- the condensed list (``unjudged="drop"``: the unsampled documents removed from the
  ranking, the ideal DCG from the sampled ones);
- unjudged as non-relevant (``unjudged="zero"``: unsampled documents gain 0, the
  ideal DCG from the sampled ones);

each against the full-judgment NDCG of the same query (every pooled document judged;
trec_eval's ndcg, the conventions of ``CONVENTIONS["trec_eval"]``). It prints, over all
queries of all replicates, the bias (mean of estimate minus truth) and the standard
deviation of that error per query, their RMSE, and, for the mean over the ``--queries``
queries of a replicate, the coverage of a 95 % t interval of each estimator's per-query
values for the full-judgment mean of the same queries (the interval the package's
``bootstrap_ci`` gives below 25 queries and approximates above), with its mean width.
``--smoke`` runs a small seeded subset for the test suite.
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np
from scipy import stats

from sklearn_ndcg import CONVENTIONS, evaluate_run

N_CANDIDATES = 1000
POOL_DEPTH = 100
STRATA = (10, 30, 100)  # the best pool rank that ends each stratum
RATE = 0.30
N_SYSTEMS = 3


def simulate(rng: np.random.Generator, n_queries: int):
    """One replicate: the run (qid, docno, score), the full qrels (qid, docno, level) of
    the pool and the sampled qrels (qid, docno, stratum, level or -1)."""
    run, full, sampled = ([], [], []), ([], [], []), ([], [], [], [])
    for q in range(n_queries):
        qid = f"q{q:03d}"
        quality = rng.normal(size=N_CANDIDATES)
        threshold = np.quantile(quality, 0.8)  # about 20 % relevant
        level = np.clip(np.floor((quality - threshold) * 2 + 1), 0, 3).astype(int)
        scores = quality + rng.normal(scale=1.0, size=(N_SYSTEMS, N_CANDIDATES))
        ranks = np.argsort(np.argsort(-scores, axis=1), axis=1) + 1
        best = ranks.min(axis=0)
        pooled = np.flatnonzero(best <= POOL_DEPTH)
        stratum = np.searchsorted(STRATA, best[pooled])  # 0, 1, 2
        judged = np.zeros(pooled.shape[0], dtype=bool)
        for s in range(len(STRATA)):
            members = np.flatnonzero(stratum == s)
            if members.shape[0]:
                n = max(1, round(RATE * members.shape[0]))
                judged[rng.choice(members, n, replace=False)] = True
        docno = np.array([f"{qid}-d{j:04d}" for j in range(N_CANDIDATES)], dtype=object)
        for column, values in zip(run, ([qid] * N_CANDIDATES, docno, scores[0])):
            column.extend(values)
        for column, values in zip(full, ([qid] * pooled.shape[0], docno[pooled], level[pooled])):
            column.extend(values)
        sampled_level = np.where(judged, level[pooled], -1)
        for column, values in zip(
            sampled, ([qid] * pooled.shape[0], docno[pooled], stratum, sampled_level)
        ):
            column.extend(values)
    as_arrays = [tuple(np.asarray(c) for c in table) for table in (run, full, sampled)]
    return as_arrays


def estimates(run, full, sampled) -> dict[str, np.ndarray]:
    """Per-query values of the truth and of the three estimators (queries sorted by id)."""
    trec = CONVENTIONS["trec_eval"]
    qrels = (sampled[0], sampled[1], sampled[3].astype(float))
    values = {
        "full judgments": evaluate_run(run, full, **trec).per_query.score,
        "infNDCG": evaluate_run(run, sampled, metric="infNDCG").per_query.score,
        'condensed (unjudged="drop")': evaluate_run(
            run, qrels, unjudged="drop", **trec
        ).per_query.score,
        'unjudged as 0 (unjudged="zero")': evaluate_run(
            run, qrels, unjudged="zero", **trec
        ).per_query.score,
    }
    return values


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicates", type=int, default=200)
    parser.add_argument("--queries", type=int, default=50)
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--smoke", action="store_true", help="10 replicates of 20 queries")
    args = parser.parse_args(argv)
    if args.smoke:
        args.replicates, args.queries = 10, 20
    rng = np.random.default_rng(args.seed)
    started = time.perf_counter()
    errors: dict[str, list[np.ndarray]] = {}
    covered: dict[str, list[bool]] = {}
    widths: dict[str, list[float]] = {}
    truth_means = []
    quantile = stats.t.ppf(0.975, args.queries - 1)
    for _ in range(args.replicates):
        values = estimates(*simulate(rng, args.queries))
        truth = values.pop("full judgments")
        truth_means.append(truth.mean())
        for name, estimate in values.items():
            errors.setdefault(name, []).append(estimate - truth)
            half = quantile * estimate.std(ddof=1) / math.sqrt(estimate.shape[0])
            covered.setdefault(name, []).append(abs(estimate.mean() - truth.mean()) <= half)
            widths.setdefault(name, []).append(2 * half)
    elapsed = time.perf_counter() - started
    print(
        f"{args.replicates} replicates x {args.queries} queries; pools: top {POOL_DEPTH} of "
        f"{N_SYSTEMS} systems over {N_CANDIDATES} candidates, strata by best rank 1-10, "
        f"11-30, 31-100, each sampled at {RATE:.0%}; mean full-judgment NDCG "
        f"{np.mean(truth_means):.4f}; {elapsed:.1f} s\n"
    )
    print("| estimator | bias | sd (per query) | RMSE | 95 % t interval: coverage | width |")
    print("|---|---|---|---|---|---|")
    for name, parts in errors.items():
        error = np.concatenate(parts)
        rmse = math.sqrt(float(np.mean(error**2)))
        print(
            f"| {name} | {error.mean():+.4f} | {error.std(ddof=1):.4f} | {rmse:.4f} | "
            f"{np.mean(covered[name]):.3f} | {np.mean(widths[name]):.4f} |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
