"""Benchmark sklearn-ndcg against scikit-learn, ranx, pytrec_eval, a numba kernel
and a floor.

Run ``python benchmarks/bench_ndcg.py`` (see ``benchmarks/README.md``). For each
workload and cutoff it prints each implementation's median time (min-max over
repeats, after a warm-up), rows/s, peak memory and the ratio of its time to
sklearn-ndcg's default (``ties="average"``). Implementations are alternated
within each repeat, so the ratios compare times taken under the same machine
load. Last come the time ratios issue 13 sets as targets. The tables and the
targets are also written to ``benchmarks/RESULTS.md``.

Before timing, every peer is checked to compute the same quantity as
sklearn-ndcg with the matching options, on a small instance of each workload.
Peers that are not installed are skipped with a note.
"""

from __future__ import annotations

import argparse
import gc
import sys
import time
import types
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from _harness import (
    dense_format,
    long_format,
    machine_description,
    markdown_table,
    query_offsets,
    ragged_long_format,
    rss_peak_rise,
    timed,
    traced_peak,
)

import sklearn_ndcg

WORKLOADS = ("W1", "W2", "W3", "W4", "W4s", "W5")
KS = (10, None)
DESCRIPTIONS = {
    "W1": "dense 10,000 queries x 100 documents, continuous scores",
    "W2": "dense 10,000 x 100, heavy ties (scores drawn from 0..9)",
    "W3": "dense 100,000 x 100, continuous scores",
    "W4": "long format, 1,000,000 rows in 20,000 queries of 1..99 documents, "
    "rows shuffled (queries interleaved)",
    "W4s": "W4 with the rows sorted by query id (queries contiguous)",
    "W5": "small fold: long format, 2,000 queries x 30 documents (60,000 rows), "
    "rows sorted by query id",
}
PEERS = ("sklearn", "ranx", "pytrec_eval", "numba", "floor")
SMOKE_DIVISOR = 1000  # --smoke divides the number of queries (and rows) by this
CHECK_DIVISOR = 200  # the value check's instances: 200 times fewer queries
RESULTS = Path(__file__).with_name("RESULTS.md")
HAND_COPIED = "<!-- Sections below are copied in by hand"  # from the other benchmarks: kept


# --------------------------------------------------------------------------- data


@dataclass
class Workload:
    name: str
    y_true: np.ndarray
    y_score: np.ndarray
    qid: np.ndarray | None = None  # long format only
    # query boundaries in the flat (row-major) arrays; None when queries interleave
    offsets: np.ndarray | None = None

    @property
    def dense(self) -> bool:
        return self.qid is None

    @property
    def layout(self) -> str:
        """'dense', 'grouped' (long format, queries contiguous) or 'shuffled'."""
        if self.dense:
            return "dense"
        return "shuffled" if self.offsets is None else "grouped"

    @property
    def n_rows(self) -> int:
        return self.y_true.size

    @property
    def input_bytes(self) -> int:
        arrays = (self.y_true, self.y_score) + (() if self.dense else (self.qid,))
        return sum(a.nbytes for a in arrays)


def make_workload(name: str, divisor: int = 1) -> Workload:
    """The workload ``name`` (issues 5 and 13), with ``divisor`` times fewer queries."""
    if name in ("W1", "W2", "W3"):
        rng = np.random.default_rng(int(name[1]))
        n_queries = (100_000 if name == "W3" else 10_000) // divisor
        y_true, y_score = dense_format(
            rng, n_queries, 100, score_levels=10 if name == "W2" else None
        )
        offsets = np.arange(0, y_true.size + 1, 100, dtype=np.int64)
        return Workload(name, y_true, y_score, offsets=offsets)
    if name == "W5":
        sizes = np.full(2_000 // divisor, 30)
        y_true, y_score, qid = long_format(np.random.default_rng(5), sizes, grouped=True)
    else:
        y_true, y_score, qid = ragged_long_format(
            1_000_000 // divisor, 20_000 // divisor, grouped=name == "W4s", seed=4
        )
    offsets = None if name == "W4" else query_offsets(qid)
    return Workload(name, y_true, y_score, qid, offsets)


# one query of two documents, to compile numba code before timing
TINY = Workload("tiny", np.array([[1.0, 0.0]]), np.array([[0.5, 0.2]]), offsets=np.array([0, 2]))


# ---------------------------------------------------------------- implementations
#
# Each implementation maps (workload, k) to (value, {part: seconds}). The part
# "total" is what the ratio and rows/s use; ranx and pytrec_eval also report
# their conversion from numpy arrays, and ranx its metric call alone. Each runs
# on the workload layouts listed in its Impl: "dense", "grouped", "shuffled".


@dataclass
class Impl:
    name: str
    run: object
    matches: str | None  # the sklearn-ndcg row computing the same quantity
    layouts: tuple = ("dense", "grouped", "shuffled")  # the workload layouts it runs on
    parts: tuple = ("total",)
    labels: dict = field(default_factory=dict)  # part -> row label


def ours(ties):
    def run(wl, k):
        qid = None if wl.dense else wl.qid
        value, seconds = timed(
            sklearn_ndcg.ndcg_score,
            wl.y_true,
            wl.y_score,
            k=k,
            qid=qid,
            ties=ties,
            zero_division=0.0,
        )
        return value, {"total": seconds}

    return run


def sklearn_peer(ignore_ties):
    from sklearn.metrics import ndcg_score

    def run(wl, k):
        value, seconds = timed(ndcg_score, wl.y_true, wl.y_score, k=k, ignore_ties=ignore_ties)
        return value, {"total": seconds}

    return run


def floor(wl, k):
    """Read both arrays once, plus the sort no implementation can skip."""
    start = time.perf_counter()
    np.add.reduce(wl.y_true, axis=None)
    np.add.reduce(wl.y_score, axis=None)
    if wl.dense:
        n_documents = wl.y_score.shape[1]
        if k is not None and k < n_documents:
            np.argpartition(wl.y_score, n_documents - k, axis=1)
        else:
            np.argsort(wl.y_score, axis=1)
    else:
        np.lexsort((-wl.y_score, wl.qid))
    return np.nan, {"total": time.perf_counter() - start}


def _grouped(wl):
    """Long-format view of a workload: flat arrays with integer query codes."""
    if wl.dense:
        n_queries, n_documents = wl.y_true.shape
        codes = np.repeat(np.arange(n_queries), n_documents)
        return wl.y_true.ravel(), wl.y_score.ravel(), codes
    return wl.y_true, wl.y_score, wl.qid


def _ranx_conversion():
    """Numba typed lists of (doc id, score) and (doc id, relevance) per query.

    Run rows are sorted by decreasing score (ties in input order, i.e.
    ``ties="first"``), qrels rows by decreasing relevance, as ranx expects.
    The per-query split is compiled with numba (as ranx's own conversion is;
    cached on disk), and compiled before timing: building the list from Python
    instead costs about 6 us per query more.
    """
    import numba
    from numba.typed import List

    @numba.njit(cache=True)
    def split(doc, value, starts, ends):
        out = List()
        for i in range(starts.shape[0]):
            block = np.empty((ends[i] - starts[i], 2))
            block[:, 0] = doc[starts[i] : ends[i]]
            block[:, 1] = value[starts[i] : ends[i]]
            out.append(block)
        return out

    def convert(wl):
        y_true, y_score, qid = _grouped(wl)
        doc = np.arange(y_true.size, dtype=np.float64)
        if wl.dense:
            n_queries, n_documents = wl.y_true.shape
            offset = (np.arange(n_queries) * n_documents)[:, np.newaxis]
            run_order = (np.argsort(-wl.y_score, axis=1, kind="stable") + offset).ravel()
            rel_order = (np.argsort(-wl.y_true, axis=1, kind="stable") + offset).ravel()
            bounds = wl.offsets
        else:
            run_order = np.lexsort((-y_score, qid))
            rel_order = np.lexsort((-y_true, qid))
            bounds = query_offsets(qid[run_order])
        run = split(doc[run_order], y_score[run_order], bounds[:-1], bounds[1:])
        qrels = split(doc[rel_order], y_true[rel_order], bounds[:-1], bounds[1:])
        return qrels, run

    convert(TINY)  # compile
    return convert


def ranx_peer():
    from ranx.metrics import ndcg

    convert = _ranx_conversion()
    qrels, run = convert(TINY)
    ndcg(qrels, run, k=0)  # JIT warm-up (cached on disk by ranx), not timed
    ndcg(qrels, run, k=10)

    def go(wl, k):
        (qrels, run), t_convert = timed(convert, wl)
        scores, t_metric = timed(ndcg, qrels, run, k=0 if k is None else k)
        value = float(np.mean(scores))
        return value, {"conversion": t_convert, "metric": t_metric, "total": t_convert + t_metric}

    return go


def pytrec_peer():
    import pytrec_eval

    def build(wl):
        """qrels and run dicts {query: {doc: value}}.

        Doc names are zero-padded so that trec_eval's tie-break (decreasing
        docno) keeps tied documents in input order, as ``ties="first"``.
        """
        y_true, y_score, qid = _grouped(wl)
        n = y_true.size
        order = np.argsort(qid, kind="stable")
        sorted_qid = qid[order]
        bounds = query_offsets(sorted_qid)
        # 10**d + (n - 1 - row) has d + 1 digits: string order is numeric order
        docs = list(map(str, (10 ** len(str(n)) + (n - 1) - order).tolist()))
        rels = y_true[order].astype(np.int64).tolist()
        scores = y_score[order].tolist()
        names = [str(q) for q in sorted_qid[bounds[:-1]].tolist()]
        qrels, run = {}, {}
        for name, lo, hi in zip(names, bounds[:-1].tolist(), bounds[1:].tolist()):
            qrels[name] = dict(zip(docs[lo:hi], rels[lo:hi]))
            run[name] = dict(zip(docs[lo:hi], scores[lo:hi]))
        return qrels, run

    def evaluate(qrels, run, k):
        measure, key = ("ndcg", "ndcg") if k is None else (f"ndcg_cut.{k}", f"ndcg_cut_{k}")
        per_query = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
        return float(np.mean([m[key] for m in per_query.values()]))

    def go(wl, k):
        (qrels, run), t_build = timed(build, wl)
        value, t_eval = timed(evaluate, qrels, run, k)
        return value, {"conversion": t_build, "total": t_build + t_eval}

    return go


# The numba kernel. Per query of n documents, with cut = min(k, n), the ideal DCG
# (labels as keys) and the DCG (scores as keys) come from one of three methods:
# - cut <= _SELECT_CUT and n >= _SELECT_RATIO * cut: one pass keeping the cut
#   largest keys in a small sorted buffer (_select_top); for a short cut;
# - else, n <= _RANK_MAX: each document's positions from counts of the keys greater
#   than and equal to its own (_rank_dcg): O(n^2) comparisons, but branch-free and
#   vectorized, and no sort, which on short queries beats any sort;
# - else: a partial quicksort in place (_partial_sort), O(n + cut log cut).
# The thresholds were tuned on queries of 1..3000 documents, k from 5 to n. The
# discounts and the work buffers (the size of the longest query) are made once.
_SELECT_CUT = 64
_SELECT_RATIO = 4
_RANK_MAX = 128


def _rank_dcg(keys, gains, cut, cumulative):
    """DCG@cut of ``gains`` ranked by decreasing ``keys``, tied keys averaged.

    A document whose key has ``above`` greater and ``tied`` equal keys (itself
    included) shares, with the rest of its tie group, positions
    above .. above + tied - 1: it adds its gain times the mean of their discounts
    within ``cut``. ``cumulative[p]`` is the sum of the first ``p`` discounts.
    """
    n = keys.size
    total = 0.0
    for i in range(n):
        key = keys[i]
        above = 0
        tied = 0
        for j in range(n):  # from 0 to n: vectorized by LLVM
            above += keys[j] > key
            tied += keys[j] == key
        start = min(above, cut)
        total += gains[i] * (cumulative[min(above + tied, cut)] - cumulative[start]) / tied
    return total


def _select_top(keys, values, cut, top_keys, top_values):
    """``top_keys[:cut]`` = the ``cut`` largest ``keys``, decreasing; ``top_values`` along.

    Insertion into a sorted buffer: a key enters the full buffer only if it is
    larger than its last, so an equal key past the buffer is left out.
    """
    filled = 0  # keys in the buffer so far, at most cut
    for i in range(keys.size):
        key = keys[i]
        if filled == cut and key <= top_keys[cut - 1]:
            continue
        j = min(filled, cut - 1)  # a full buffer drops its last key
        while j > 0 and top_keys[j - 1] < key:
            top_keys[j] = top_keys[j - 1]
            top_values[j] = top_values[j - 1]
            j -= 1
        top_keys[j] = key
        top_values[j] = values[i]
        filled = min(filled + 1, cut)


def _partial_sort(keys, values, n, cut, stack):
    """Reorder ``keys[:n]`` in place (``values`` along) so that ``keys[:cut]`` are the
    ``cut`` largest, decreasing.

    Quicksort (median-of-three pivot, Hoare partition) that drops the parts lying
    wholly at or past ``cut``; insertion sort below 16 keys; ``stack`` holds the
    parts left for later, the larger one each time, so log2(n) rows suffice.
    """
    depth = 0
    lo, hi = 0, n - 1
    while True:
        if hi - lo < 16:
            for i in range(lo + 1, hi + 1):
                key, value = keys[i], values[i]
                j = i
                while j > lo and keys[j - 1] < key:
                    keys[j] = keys[j - 1]
                    values[j] = values[j - 1]
                    j -= 1
                keys[j], values[j] = key, value
            if depth == 0:
                return
            depth -= 1
            lo, hi = stack[depth, 0], stack[depth, 1]
            continue
        mid = (lo + hi) >> 1  # sort keys[lo], keys[mid], keys[hi] decreasing
        if keys[mid] > keys[lo]:
            keys[mid], keys[lo] = keys[lo], keys[mid]
            values[mid], values[lo] = values[lo], values[mid]
        if keys[hi] > keys[mid]:
            keys[hi], keys[mid] = keys[mid], keys[hi]
            values[hi], values[mid] = values[mid], values[hi]
            if keys[mid] > keys[lo]:
                keys[mid], keys[lo] = keys[lo], keys[mid]
                values[mid], values[lo] = values[lo], values[mid]
        pivot = keys[mid]
        i, j = lo, hi
        while True:  # keys[lo] >= pivot >= keys[hi] stop both scans
            i += 1
            while keys[i] > pivot:
                i += 1
            j -= 1
            while keys[j] < pivot:
                j -= 1
            if i >= j:
                break
            keys[i], keys[j] = keys[j], keys[i]
            values[i], values[j] = values[j], values[i]
        # keys[lo:j + 1] >= pivot >= keys[j + 1:hi + 1]
        if j + 1 >= cut:  # the right part holds no position before cut
            hi = j
        elif j - lo < hi - j - 1:
            stack[depth, 0], stack[depth, 1] = j + 1, hi
            depth += 1
            hi = j
        else:
            stack[depth, 0], stack[depth, 1] = lo, j
            depth += 1
            lo = j + 1


def _ndcg_kernel(y_true, y_score, offsets, k):
    """Mean NDCG@k of queries stored one after another: rows offsets[q]:offsets[q + 1].

    Linear gain, log2 discount; tied scores as scikit-learn averages them (a tie
    group's mean gain times the sum of the discounts of its positions within k);
    0 for a query whose ideal DCG is 0; unweighted mean. ``k`` at least the
    longest query means all documents. Compiled by numba in ``numba_peers``, with
    the helpers above; see the comment before them for the method.
    """
    n_queries = offsets.size - 1
    longest = 0
    for q in range(n_queries):
        longest = max(longest, offsets[q + 1] - offsets[q])
    width = min(k, longest)
    cumulative = np.zeros(width + 1)  # cumulative[p]: sum of the first p discounts
    for p in range(width):
        cumulative[p + 1] = cumulative[p] + 1.0 / np.log2(p + 2.0)
    top_keys = np.empty(longest)  # work buffers, for every query
    top_labels = np.empty(longest)
    stack = np.empty((64, 2), dtype=np.int64)
    total = 0.0
    for q in range(n_queries):
        labels, scores = y_true[offsets[q] : offsets[q + 1]], y_score[offsets[q] : offsets[q + 1]]
        n = labels.size
        cut = min(k, n)
        if cut == 0:
            continue
        select = cut <= _SELECT_CUT and n >= _SELECT_RATIO * cut
        if not select and n <= _RANK_MAX:
            idcg = _rank_dcg(labels, labels, cut, cumulative)
            if idcg != 0.0:
                total += _rank_dcg(scores, labels, cut, cumulative) / idcg
            continue
        # ideal DCG: the cut largest labels, decreasing, in top_keys
        if select:
            _select_top(labels, labels, cut, top_keys, top_labels)
        else:
            top_keys[:n] = labels
            _partial_sort(top_keys, top_labels, n, cut, stack)  # top_labels: scratch
        idcg = 0.0
        for p in range(cut):
            idcg += top_keys[p] * (cumulative[p + 1] - cumulative[p])
        if idcg == 0.0:
            continue
        # the cut highest scores, decreasing, with their labels
        if select:
            _select_top(scores, labels, cut, top_keys, top_labels)
        else:
            top_keys[:n] = scores
            top_labels[:n] = labels
            _partial_sort(top_keys, top_labels, n, cut, stack)
        dcg = 0.0
        p = 0
        while p < cut:  # one tie group, positions p .. end - 1, per iteration
            score = top_keys[p]
            gain = top_labels[p]
            end = p + 1
            while end < cut and top_keys[end] == score:
                gain += top_labels[end]
                end += 1
            size = end - p
            if end == cut and n > cut:  # the group at the cut may go on past it
                gain = 0.0
                size = 0
                for i in range(n):
                    if scores[i] == score:
                        gain += labels[i]
                        size += 1
            dcg += gain / size * (cumulative[end] - cumulative[p])
            p = end
        total += dcg / idcg
    return total / n_queries


def _with_globals(fn, **names):
    """``fn`` with some of its global names bound to other objects (the compiled
    helpers, for numba to call), the module left as it is."""
    return types.FunctionType(
        fn.__code__, {**fn.__globals__, **names}, fn.__name__, fn.__defaults__, fn.__closure__
    )


def numba_peers():
    """The numba kernel's implementations and its JIT time in seconds.

    Raises ImportError without numba. The kernel and its helpers are compiled here,
    for the one signature each is called with, so no timing includes compilation.
    """
    import numba

    signature = "float64(float64[::1], float64[::1], int64[::1], int64)"
    helpers = (
        (_rank_dcg, "float64(float64[::1], float64[::1], int64, float64[::1])"),
        (
            _select_top,
            "void(float64[::1], float64[::1], int64, float64[::1], float64[::1])",
        ),
        (_partial_sort, "void(float64[::1], float64[::1], int64, int64, int64[:, ::1])"),
    )

    def compile_kernel():
        compiled = {fn.__name__: numba.njit(sig, cache=False)(fn) for fn, sig in helpers}
        return numba.njit(signature, cache=False)(_with_globals(_ndcg_kernel, **compiled))

    kernel, jit_seconds = timed(compile_kernel)

    def call(y_true, y_score, offsets, k):
        return kernel(y_true, y_score, offsets, y_true.size if k is None else k)

    def on_offsets(wl, k):  # dense input: equal-size queries, reshaped without a copy
        y_true, y_score = wl.y_true.reshape(-1), wl.y_score.reshape(-1)
        value, seconds = timed(call, y_true, y_score, wl.offsets, k)
        return value, {"total": seconds}

    def with_offsets(wl, k):
        start = time.perf_counter()
        value = call(wl.y_true, wl.y_score, query_offsets(wl.qid), k)
        return value, {"total": time.perf_counter() - start}

    def after_argsort(wl, k):
        start = time.perf_counter()
        order = np.argsort(wl.qid, kind="stable")
        qid = wl.qid[order]
        value = call(wl.y_true[order], wl.y_score[order], query_offsets(qid), k)
        return value, {"total": time.perf_counter() - start}

    impls = [
        Impl("numba kernel", on_offsets, "sklearn-ndcg", layouts=("dense", "grouped")),
        Impl("numba kernel (+ offsets)", with_offsets, "sklearn-ndcg", layouts=("grouped",)),
        Impl(
            "numba kernel after argsort(qid)",
            after_argsort,
            "sklearn-ndcg",
            layouts=("shuffled",),
        ),
    ]
    return impls, jit_seconds


def implementations(selected_peers):
    """The implementations to time, and lines to report: skipped peers, JIT time."""
    impls = [
        Impl("sklearn-ndcg", ours("average"), None),
        Impl("sklearn-ndcg ties='first'", ours("first"), None),
    ]
    notes = []
    if "sklearn" in selected_peers:
        impls += [
            Impl("sklearn default", sklearn_peer(False), "sklearn-ndcg", layouts=("dense",)),
            Impl(
                "sklearn ignore_ties=True",
                sklearn_peer(True),
                "sklearn-ndcg ties='first'",
                layouts=("dense",),
            ),
        ]
    if "ranx" in selected_peers:
        try:
            impls.append(
                Impl(
                    "ranx",
                    ranx_peer(),
                    "sklearn-ndcg ties='first'",
                    parts=("metric", "conversion", "total"),
                    labels={
                        "metric": "ranx ndcg (metric call)",
                        "conversion": "ranx conversion",
                        "total": "ranx total",
                    },
                )
            )
        except ImportError as exc:
            notes.append(f"- note: ranx skipped: {exc} (pip install '.[bench]')")
    if "pytrec_eval" in selected_peers:
        try:
            impls.append(
                Impl(
                    "pytrec_eval",
                    pytrec_peer(),
                    "sklearn-ndcg ties='first'",
                    parts=("conversion", "total"),
                    labels={
                        "conversion": "pytrec_eval dict building",
                        "total": "pytrec_eval total",
                    },
                )
            )
        except ImportError as exc:
            notes.append(f"- note: pytrec_eval skipped: {exc} (pip install '.[bench]')")
    if "numba" in selected_peers:
        try:
            numba_impls, jit_seconds = numba_peers()
        except ImportError as exc:
            notes.append(f"- note: numba kernel skipped: {exc} (pip install '.[bench]')")
        else:
            impls += numba_impls
            notes.append(
                f"- numba JIT: {jit_seconds:.2f} s (compiling the numba kernel, before any timing)"
            )
    if "floor" in selected_peers:
        impls.append(Impl("floor", floor, None))
    return impls, notes


# --------------------------------------------------------------------- measuring


@dataclass
class Result:
    times: dict  # part -> list of seconds
    value: float
    rss_peak: float
    traced_peak: float | None
    capped: bool


def bench_case(wl, k, impls, repeats, slow_seconds, log):
    """Time every implementation on one workload and cutoff, alternating them."""
    active = [impl for impl in impls if wl.layout in impl.layouts]
    results = {}
    gc.collect()
    for impl in active:  # warm-up; it also measures peak RSS, which costs nothing
        ((value, _), rss_peak), warm = timed(rss_peak_rise, impl.run, wl, k)
        capped = warm > slow_seconds
        traced = None if capped else traced_peak(impl.run, wl, k)[1]
        results[impl.name] = Result({}, value, rss_peak, traced, capped)
        log(f"    warm-up {impl.name}: {warm:.3f} s" + (" (slow: 1 repeat)" if capped else ""))
    for r in range(repeats):
        shift = r % len(active)  # rotate the order so no implementation always runs first
        for impl in active[shift:] + active[:shift]:
            res = results[impl.name]
            if res.capped and r > 0:
                continue
            _, parts = impl.run(wl, k)
            for part, seconds in parts.items():
                res.times.setdefault(part, []).append(seconds)
    return active, results


# ---------------------------------------------------------------------- reporting


def _fmt_time(seconds):
    if seconds >= 1:
        return f"{seconds:.2f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds * 1e6:.0f} us"


def _fmt_bytes(n):
    if n is None:
        return "n/a"
    return f"{n / 2**20:.1f} MB"


def table_rows(wl, active, results):
    reference = np.median(results["sklearn-ndcg"].times["total"])
    rows = []
    for impl in active:
        res = results[impl.name]
        for part in impl.parts:
            times = np.asarray(res.times[part])
            median = float(np.median(times))
            is_total = part == "total"
            rows.append(
                [
                    impl.labels.get(part, impl.name),
                    f"{_fmt_time(median)} ({_fmt_time(times.min())}-{_fmt_time(times.max())})"
                    + (" [1 run]" if res.capped else ""),
                    f"{wl.n_rows / median:,.0f}",
                    _fmt_bytes(res.traced_peak) if is_total else "",
                    _fmt_bytes(res.rss_peak) if is_total else "",
                    f"{median / reference:.2f}",
                    "" if np.isnan(res.value) or not is_total else f"{res.value:.6f}",
                ]
            )
    return rows


HEADER = [
    "implementation",
    "median (min-max)",
    "rows/s",
    "peak traced",
    "peak RSS rise",
    "time / sklearn-ndcg",
    "NDCG",
]

# Issue 13's targets: (what, workloads, cutoffs, row, reference row, largest
# ratio of the row's median time to the reference row's, in the same run).
TARGETS = [
    ("grouped long format", ("W4s",), (10,), "sklearn-ndcg", "numba kernel", 1.5),
    ("grouped long format", ("W4s",), (None,), "sklearn-ndcg", "numba kernel", 1.0),
    (
        "shuffled long format",
        ("W4",),
        KS,
        "sklearn-ndcg",
        "numba kernel after argsort(qid)",
        1.2,
    ),
    ("dense", ("W1", "W2", "W3"), KS, "sklearn-ndcg", "numba kernel", 1.3),
    ("small fold", ("W5",), KS, "sklearn-ndcg", "numba kernel", 1.5),
    ("heavy ties", ("W2",), KS, "sklearn-ndcg ties='first'", "sklearn-ndcg", 1.5),
]


def target_lines(medians):
    """One line per target whose workload ran; ``medians[(workload, k)][row]`` in s."""
    lines = []
    for what, names, ks, row, reference, limit in TARGETS:
        for name in names:
            for k in ks:
                if (name, k) not in medians:
                    continue
                times = medians[name, k]
                line = f"- {name} k={k} ({what}): {row} / {reference}"
                if row in times and reference in times:
                    ratio = times[row] / times[reference]
                    verdict = "met" if ratio <= limit else "missed"
                    lines.append(f"{line} = {ratio:.2f} (target <= {limit:g}): {verdict}")
                else:
                    lines.append(f"{line}: not measured (target <= {limit:g})")
    return lines


# ------------------------------------------------------------------- value check


def check_values(workloads, impls, log):
    """Compare every peer with the sklearn-ndcg row it matches, on small input."""
    ok = True
    lines = []
    for name in workloads:
        wl = make_workload(name, divisor=CHECK_DIVISOR)
        for k in KS:
            values = {impl.name: impl.run(wl, k)[0] for impl in impls if wl.layout in impl.layouts}
            for impl in impls:
                if impl.matches is None or impl.name not in values:
                    continue
                value, expected = values[impl.name], values[impl.matches]
                relative = abs(value - expected) / abs(expected)
                agree = relative <= 1e-12
                note = ""
                if not agree and impl.name == "sklearn ignore_ties=True" and name == "W2":
                    # sklearn orders ties by a reversed unstable argsort, not input order
                    note = " (expected: sklearn's ignore_ties order of tied scores is arbitrary)"
                else:
                    ok &= agree
                lines.append(
                    f"  {name} k={k}: {impl.name} {value:.9f} vs {impl.matches} "
                    f"{expected:.9f}: relative diff {relative:.1e} "
                    f"{'agree' if agree else 'DIFFER'}{note}"
                )
    for line in lines:
        log(line)
    return ok, lines


# --------------------------------------------------------------------------- main


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--smoke",
        action="store_true",
        help=f"tiny sizes (queries / {SMOKE_DIVISOR}), one repeat; "
        "for CI, to keep the script working",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="timed repeats per implementation (default 5, smoke 1)",
    )
    parser.add_argument(
        "--workloads",
        default=",".join(WORKLOADS),
        help="comma-separated subset of " + ",".join(WORKLOADS),
    )
    parser.add_argument(
        "--peers",
        default=",".join(PEERS),
        help="comma-separated subset of " + ",".join(PEERS),
    )
    parser.add_argument(
        "--slow-seconds",
        type=float,
        default=10.0,
        help="an implementation whose warm-up takes longer is timed once",
    )
    parser.add_argument(
        "--output",
        default=None,
        help=f"markdown file for the tables (default {RESULTS.name}; "
        "'-' for none; smoke runs write none unless given)",
    )
    args = parser.parse_args(argv)

    workloads = [w.strip() for w in args.workloads.split(",") if w.strip()]
    unknown = set(workloads) - set(WORKLOADS)
    if unknown:
        parser.error(f"unknown workloads {sorted(unknown)}; choose from {WORKLOADS}")
    repeats = args.repeats or (1 if args.smoke else 5)
    divisor = SMOKE_DIVISOR if args.smoke else 1
    output = args.output or (None if args.smoke else str(RESULTS))
    if output == "-":
        output = None

    def log(message):
        print(message, flush=True)

    impls, notes = implementations({p.strip() for p in args.peers.split(",")})
    machine = machine_description(("ranx", "pytrec_eval", "numba")) + notes
    log("sklearn-ndcg benchmark" + (" (smoke size)" if args.smoke else ""))
    for line in machine:
        log(line)

    log(
        "\nValue check (small instance of each workload; each peer against the "
        "sklearn-ndcg options that compute the same quantity):"
    )
    ok, check_lines = check_values(workloads, impls, log)
    if not ok:
        log("VALUE CHECK FAILED: a peer does not compute the same NDCG.")

    sections = []
    medians = {}
    for name in workloads:
        wl = make_workload(name, divisor)
        for k in KS:
            title = f"{name} k={k}: {DESCRIPTIONS[name]}" + (
                f" [smoke: {wl.n_rows:,} rows]" if args.smoke else ""
            )
            log(f"\n{title} (input {wl.input_bytes / 2**20:.1f} MB)")
            active, results = bench_case(wl, k, impls, repeats, args.slow_seconds, log)
            medians[name, k] = {
                impl.name: float(np.median(results[impl.name].times["total"])) for impl in active
            }
            table = markdown_table(HEADER, table_rows(wl, active, results))
            log(table)
            sections.append((title, wl.input_bytes, table))

    targets = target_lines(medians)
    log("\nTargets (issue 13; ratios of median times in this run):")
    for line in targets:
        log(line)

    if output:
        text = [
            "# Benchmark results",
            "",
            f"`python benchmarks/bench_ndcg.py {' '.join(argv or sys.argv[1:])}`".replace(
                " `", "`"
            ),
            f"on {time.strftime('%Y-%m-%d')}; {repeats} repeats after a warm-up, implementations "
            "alternated within each repeat. Times are median (min-max); "
            "`time / sklearn-ndcg` divides by the median of sklearn-ndcg's default "
            '(`ties="average"`) in the same run. Peak traced = tracemalloc peak '
            "(Python objects and numpy buffers; blind to numba's and pytrec_eval's C "
            "allocations); peak RSS rise = rise of the process's resident high-water "
            "mark (reset through /proc/self/clear_refs) during one run, which sees "
            "every allocator but not memory glibc already holds. `[1 run]`: slow, "
            f"timed once (warm-up over {args.slow_seconds:g} s).",
            "",
            "## Machine",
            "",
            *machine,
            "",
            "## Value check",
            "",
            "```",
            *check_lines,
            "```",
            "",
            "## Targets",
            "",
            "Issue 13's targets: ratios of median times in this run.",
            "",
            *targets,
            "",
        ]
        for title, input_bytes, table in sections:
            text += [f"## {title}", "", f"Input: {input_bytes / 2**20:.1f} MB.", "", table, ""]
        previous = Path(output).read_text() if Path(output).exists() else ""
        if HAND_COPIED in previous:  # the figures of the other benchmarks: kept
            text.append(previous[previous.index(HAND_COPIED) :].strip("\n") + "\n")
        Path(output).write_text("\n".join(text))
        log(f"\nwrote {output}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
