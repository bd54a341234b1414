"""A list of measures through ``evaluate_run`` against one NDCG through it (issue 56):
one join of run and qrels and one staging serve every measure of the list.

Target: ``evaluate_run(run, qrels, metric=NAMES)`` (five measures) costs at most 1.3x
``evaluate_run(run, qrels, metric="ndcg_cut_10")``, at 2,000 and 10,000 queries of 100
documents (tables of str ids, scores with ties). Each figure is the minimum over
``--repeats`` calls, the two calls alternating so that both see the same load.

    python benchmarks/bench_evaluate_run_measures.py           # 2,000 and 10,000 x 100
    python benchmarks/bench_evaluate_run_measures.py --smoke   # tiny, to check that it runs

Run it from the checkout with ``PYTHONPATH=.`` (the script's folder comes first on
``sys.path``, so an installed sklearn_ndcg would be timed instead).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from sklearn_ndcg import evaluate_run

NAMES = ["ndcg_cut_10", "map", "recip_rank", "P_10", "recall_100"]
TARGET = 1.3


def _tables(n_queries: int, n_documents: int, seed: int = 0):
    """A run (str ids, scores rounded to 2 decimals: ties) and its qrels (30% of the
    documents judged relevant at levels 1-2, and three non-relevant judgments a query)."""
    rng = np.random.default_rng(seed)
    query = np.repeat(np.arange(n_queries), n_documents)
    document = np.tile(np.arange(n_documents), n_queries)
    label = rng.integers(0, 3, query.shape[0]) * (rng.random(query.shape[0]) < 0.3)
    score = np.round(rng.random(query.shape[0]), 2)
    qid = np.array([f"q{q}" for q in range(n_queries)], dtype=object)[query]
    docno = np.array([f"d{d}" for d in range(n_documents)], dtype=object)[document]
    judged = (label > 0) | (document < 3)
    return (qid, docno, score), (qid[judged], docno[judged], label[judged].astype(float))


def _alternating_best(calls: dict, repeats: int) -> dict:
    """The minimum time of each call over ``repeats`` rounds, the calls alternating."""
    best = dict.fromkeys(calls, float("inf"))
    for _ in range(repeats):
        for name, call in calls.items():
            start = time.perf_counter()
            call()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args(argv)
    sizes = [(50, 20)] if args.smoke else [(2_000, 100), (10_000, 100)]
    repeats = 1 if args.smoke else args.repeats
    print(f"evaluate_run, {len(NAMES)} measures ({', '.join(NAMES)}) against ndcg_cut_10 alone")
    print(f"min of {repeats} alternating repeats, wall clock; target ratio <= {TARGET}\n")
    print("| queries x documents | ndcg_cut_10 (ms) | 5 measures (ms) | ratio | target |")
    print("|---|---|---|---|---|")
    for n_queries, n_documents in sizes:
        run, qrels = _tables(n_queries, n_documents)
        calls = {
            "one": lambda run=run, qrels=qrels: evaluate_run(run, qrels, metric="ndcg_cut_10"),
            "five": lambda run=run, qrels=qrels: evaluate_run(run, qrels, metric=NAMES),
        }
        best = _alternating_best(calls, repeats)
        ratio = best["five"] / best["one"]
        verdict = "met" if ratio <= TARGET else "missed"
        print(
            f"| {n_queries:,} x {n_documents} | {best['one'] * 1e3:.1f} | "
            f"{best['five'] * 1e3:.1f} | {ratio:.2f} | <= {TARGET}: {verdict} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
