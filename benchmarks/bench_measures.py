"""The measures beside NDCG (issue 49): their cost from one call, and the dict input of
pytrec_eval's interface against pytrec_eval and ranx, measured in the same run.

Targets:

- arrays: NDCG@10 with map, recip_rank, P_10 and recall_100 from one ``query_scores``
  call costs at most 1.3x NDCG@10 alone (also printed: against NDCG without a cutoff,
  which ranks whole queries as map and recall_100 must);
- arrays at every size (issue 56): those five measures, and six (with success_10), cost
  at most 1.3x NDCG of whole queries, with ties in the scores and without, at each
  ``--queries`` (2,000 and 10,000 queries of 100 documents: 200k and 1M rows); the
  calls of one size are alternated within each repeat;
- dicts: ``RelevanceEvaluator(qrels, measures).evaluate(run)`` takes at most ranx's total
  time (its conversion of the dicts included) and at most a tenth of pytrec_eval's.

Every figure is the minimum over ``--repeats`` calls (``--clock cpu``: of the process's
CPU time, steadier than the wall clock on a loaded machine); the values of the three
evaluators are compared (to 1e-12) before anything is timed. What each dict time holds:

- sklearn-ndcg: ``RelevanceEvaluator(qrels, measures)`` (the qrels copied and their
  levels converted once) and ``.evaluate(run)`` (the run read, joined, evaluated, the
  result dict built);
- pytrec_eval: the same two calls (its constructor copies the qrels into C++ maps);
- ranx: ``Qrels(qrels)``, ``Run(run)`` (numba's typed dicts) and ``evaluate``, numba's
  compilation left out (one call before the timing).

The floor is what any Python evaluator of these dicts pays before computing anything:
the run's scores and each entry's level (one qrels lookup) read into two arrays.

    python benchmarks/bench_measures.py            # 2,000 queries x 100 documents
    python benchmarks/bench_measures.py --smoke    # tiny, to check that it runs
    python benchmarks/bench_measures.py --no-ranx  # without ranx (numba's start is slow)
    python benchmarks/bench_measures.py --arrays-only --clock cpu --repeats 15 \
        --queries 2000 10000                       # the arrays' table at two sizes

Run it from the checkout with ``PYTHONPATH=.`` (the script's folder comes first on
``sys.path``, so an installed sklearn_ndcg would be timed instead).
"""

from __future__ import annotations

import argparse
import importlib.util
import time
from itertools import chain, repeat

import numpy as np

from sklearn_ndcg import RelevanceEvaluator, query_scores

NAMES = ["ndcg_cut_10", "map", "recip_rank", "P_10", "recall_100"]
SIX = [*NAMES, "success_10"]
TARGET = 1.3
PYTREC = {"ndcg_cut.10", "map", "recip_rank", "P.10", "recall.100"}
RANX = ["ndcg@10", "map", "mrr", "precision@10", "recall@100"]


def _data(n_queries: int, n_documents: int, seed: int = 0, ties: bool = True):
    rng = np.random.default_rng(seed)
    qid = np.repeat(np.arange(n_queries), n_documents)
    label = rng.integers(0, 3, qid.shape[0]) * (rng.random(qid.shape[0]) < 0.3)
    score = rng.random(qid.shape[0])
    if ties:  # two decimals: about 40 % of a query's documents share a score
        score = np.round(score, 2)
    return qid, label.astype(np.float64), score


def _dicts(qid, label, score):
    n_documents = int(np.bincount(qid).max())
    docs = [f"d{i}" for i in range(n_documents)]
    qrels, run = {}, {}
    for q in range(int(qid.max()) + 1):
        rows = slice(q * n_documents, (q + 1) * n_documents)
        qrels[f"q{q}"] = {d: int(v) for d, v in zip(docs, label[rows]) if v > 0 or d < "d3"}
        run[f"q{q}"] = dict(zip(docs, score[rows].tolist()))
    return qrels, run


_CLOCK = {"wall": time.perf_counter, "cpu": time.process_time}
_clock = time.perf_counter


def _best(function, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = _clock()
        function()
        times.append(_clock() - start)
    return min(times)


def _alternated(functions: dict, repeats: int) -> dict[str, float]:
    """The minimum time of each function over ``repeats`` rounds, the functions called
    in turn within each round (a change of load hits them alike)."""
    times: dict[str, list[float]] = {name: [] for name in functions}
    for function in functions.values():
        function()  # warm-up
    for _ in range(repeats):
        for name, function in functions.items():
            start = _clock()
            function()
            times[name].append(_clock() - start)
    return {name: min(values) for name, values in times.items()}


def _calls(label, score, qid) -> dict:
    """The four ``query_scores`` calls of the table on one input."""
    return {
        "whole": lambda: query_scores(label, score, qid=qid, metric="ndcg"),
        "ndcg10": lambda: query_scores(label, score, qid=qid, k=10),
        "five": lambda: query_scores(label, score, qid=qid, metric=NAMES),
        "six": lambda: query_scores(label, score, qid=qid, metric=SIX),
    }


def _sizes_table(sizes: list[int], n_documents: int, repeats: int) -> None:
    """The measures against NDCG of whole queries at each number of queries, with ties
    and without, as a table with the target."""
    print(
        f"\narrays at every size: measures / NDCG of whole queries (target <= {TARGET}), "
        f"minimum of {repeats} alternated calls"
    )
    print(
        "| queries x documents | ties | NDCG whole | NDCG@10 | 5 measures | 6 measures "
        "| 5 / whole | 6 / whole | target |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for n_queries in sizes:
        for ties in (True, False):
            qid, label, score = _data(n_queries, n_documents, ties=ties)
            t = _alternated(_calls(label, score, qid), repeats)
            five, six = t["five"] / t["whole"], t["six"] / t["whole"]
            verdict = "met" if max(five, six) <= TARGET else "missed"
            print(
                f"| {n_queries:,} x {n_documents} | {'yes' if ties else 'no'} "
                f"| {t['whole'] * 1e3:.2f} ms | {t['ndcg10'] * 1e3:.2f} ms "
                f"| {t['five'] * 1e3:.2f} ms | {t['six'] * 1e3:.2f} ms "
                f"| {five:.2f} | {six:.2f} | {verdict} |"
            )


def _floor(qrels, run) -> np.ndarray:
    """The run's scores and each entry's qrels level read into arrays, nothing else."""
    nan, none = float("nan"), {}
    score = np.fromiter(chain.from_iterable(docs.values() for docs in run.values()), float)
    found = (map(qrels.get(q, none).get, docs, repeat(nan)) for q, docs in run.items())
    return np.stack([score, np.fromiter(chain.from_iterable(found), float)])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--no-ranx", action="store_true", help="skip ranx (numba's start)")
    parser.add_argument("--clock", choices=sorted(_CLOCK), default="wall")
    parser.add_argument(
        "--queries",
        type=int,
        nargs="+",
        default=None,
        help="numbers of queries of the arrays' table at every size (default: 2000)",
    )
    parser.add_argument("--documents", type=int, default=100, help="documents per query")
    parser.add_argument(
        "--arrays-only", action="store_true", help="the arrays' table alone (no dicts)"
    )
    args = parser.parse_args(argv)
    global _clock
    _clock = _CLOCK[args.clock]
    sizes = args.queries or [2000]
    n_queries, n_documents = (50, 20) if args.smoke else (sizes[0], args.documents)
    repeats = 1 if args.smoke else args.repeats
    if args.arrays_only:
        print(f"{args.clock} time")
        _sizes_table([n_queries] if args.smoke else sizes, n_documents, repeats)
        return 0
    qid, label, score = _data(n_queries, n_documents)
    print(f"{n_queries} queries x {n_documents} documents, ties in the scores ({args.clock} time)")

    ndcg = _best(lambda: query_scores(label, score, qid=qid, k=10), repeats)
    every = _best(lambda: query_scores(label, score, qid=qid, metric=NAMES), repeats)
    whole = _best(lambda: query_scores(label, score, qid=qid, metric="ndcg"), repeats)
    print(
        f"arrays: NDCG@10 alone {ndcg * 1e3:.2f} ms, NDCG (whole queries) alone "
        f"{whole * 1e3:.2f} ms, {len(NAMES)} measures {every * 1e3:.2f} ms"
    )
    ratio_arrays = every / ndcg
    # a constant scorer: every query one tie (the expected values over its orders)
    wide = (10, 100_000) if not args.smoke else (2, 1_000)
    tied_qid = np.repeat(np.arange(wide[0]), wide[1])
    tied_label = (np.random.default_rng(1).random(tied_qid.shape[0]) < 0.01).astype(float)
    tied = np.zeros(tied_qid.shape[0])
    tied_every = _best(lambda: query_scores(tied_label, tied, qid=tied_qid, metric=NAMES), repeats)
    tied_whole = _best(lambda: query_scores(tied_label, tied, qid=tied_qid, metric="ndcg"), repeats)
    print(
        f"a constant scorer, {wide[0]} queries x {wide[1]:,} tied documents: NDCG (whole "
        f"queries) {tied_whole * 1e3:.1f} ms, {len(NAMES)} measures {tied_every * 1e3:.1f} ms"
    )

    qrels, run = _dicts(qid, label, score)
    ours = RelevanceEvaluator(qrels, PYTREC)
    values = ours.evaluate(run)
    times = {
        "sklearn-ndcg": _best(lambda: RelevanceEvaluator(qrels, PYTREC).evaluate(run), repeats)
    }
    if importlib.util.find_spec("pytrec_eval") is not None:
        import pytrec_eval

        theirs = pytrec_eval.RelevanceEvaluator(qrels, PYTREC).evaluate(run)
        worst = max(abs(values[q][m] - theirs[q][m]) for q in theirs for m in theirs[q])
        if worst > 1e-12:
            print(f"VALUE CHECK FAILED: pytrec_eval differs by {worst:.3g}")
        times["pytrec_eval"] = _best(
            lambda: pytrec_eval.RelevanceEvaluator(qrels, PYTREC).evaluate(run), repeats
        )
    else:
        print("pytrec_eval: not installed, not measured")
    if not args.no_ranx and importlib.util.find_spec("ranx") is not None:
        from ranx import Qrels, Run, evaluate

        def with_ranx():
            return evaluate(Qrels(qrels), Run(run), RANX, return_mean=False)

        with_ranx()  # numba's compilation, outside the timing
        times["ranx"] = _best(with_ranx, repeats)
    else:
        print("ranx: skipped (--no-ranx) or not installed, not measured")
    times["floor: the dicts read into arrays"] = _best(lambda: _floor(qrels, run), repeats)
    print("dicts (conversion included), one evaluation of", ", ".join(sorted(PYTREC)))
    print("| evaluator | ms | ratio to sklearn-ndcg |")
    print("|---|---|---|")
    for name, seconds in times.items():
        print(f"| {name} | {seconds * 1e3:.1f} | {seconds / times['sklearn-ndcg']:.2f} |")
    _sizes_table([n_queries] if args.smoke else sizes, n_documents, repeats)
    print("\nTargets")
    print(f"- {len(NAMES)} measures / NDCG@10 alone = {ratio_arrays:.2f} (target <= 1.3)")
    print(
        f"- {len(NAMES)} measures / NDCG of whole queries alone = {every / whole:.2f} "
        "(map and recall_100 rank whole queries, as NDCG without a cutoff does)"
    )
    if "ranx" in times:
        print(f"- sklearn-ndcg / ranx = {times['sklearn-ndcg'] / times['ranx']:.2f} (<= 1)")
    if "pytrec_eval" in times:
        ratio = times["sklearn-ndcg"] / times["pytrec_eval"]
        print(f"- sklearn-ndcg / pytrec_eval = {ratio:.3f} (target <= 0.1)")
        floor = times["floor: the dicts read into arrays"] / times["pytrec_eval"]
        print(f"- floor / pytrec_eval = {floor:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
