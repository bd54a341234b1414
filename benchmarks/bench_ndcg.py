"""Benchmark sklearn-ndcg against scikit-learn, ranx, pytrec_eval and a floor.

Run ``python benchmarks/bench_ndcg.py`` (see ``benchmarks/README.md``). For each
workload and cutoff it prints each implementation's median time (min-max over
repeats, after a warm-up), rows/s, peak memory and the ratio of its time to
sklearn-ndcg's default (``ties="average"``). Implementations are alternated
within each repeat, so the ratios compare times taken under the same machine
load. The table is also written to ``benchmarks/RESULTS.md``.

Before timing, every peer is checked to compute the same quantity as
sklearn-ndcg with the matching options, on a small instance of each workload.
Peers that are not installed are skipped with a note.
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import sys
import time
import tracemalloc
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import sklearn_ndcg

WORKLOADS = ("W1", "W2", "W3", "W4", "W4s")
KS = (10, None)
DESCRIPTIONS = {
    "W1": "dense 10,000 queries x 100 documents, continuous scores",
    "W2": "dense 10,000 x 100, heavy ties (scores drawn from 0..9)",
    "W3": "dense 100,000 x 100, continuous scores",
    "W4": "long format, 1,000,000 rows in 20,000 queries of 1..99 documents, "
    "rows shuffled (queries interleaved)",
    "W4s": "W4 with the rows sorted by query id",
}
SMOKE_DIVISOR = 100  # --smoke divides the number of queries (and rows) by this
RESULTS = Path(__file__).with_name("RESULTS.md")


# --------------------------------------------------------------------------- data


@dataclass
class Workload:
    name: str
    y_true: np.ndarray
    y_score: np.ndarray
    qid: np.ndarray | None = None  # long format only
    cache: dict = field(default_factory=dict)

    @property
    def dense(self) -> bool:
        return self.qid is None

    @property
    def n_rows(self) -> int:
        return self.y_true.size

    @property
    def input_bytes(self) -> int:
        arrays = (self.y_true, self.y_score) + (() if self.dense else (self.qid,))
        return sum(a.nbytes for a in arrays)


def make_workload(name: str, divisor: int = 1) -> Workload:
    """The workload ``name`` of issue 5, with ``divisor`` times fewer queries."""
    seed = {"W1": 1, "W2": 2, "W3": 3, "W4": 4, "W4s": 4}[name]
    rng = np.random.default_rng(seed)
    if name in ("W1", "W2", "W3"):
        n_queries = (100_000 if name == "W3" else 10_000) // divisor
        shape = (n_queries, 100)
        y_true = rng.integers(0, 5, size=shape).astype(np.float64)
        if name == "W2":
            y_score = rng.integers(0, 10, size=shape).astype(np.float64)
        else:
            y_score = rng.random(shape)
        return Workload(name, y_true, y_score)

    n_queries, n_rows = 20_000 // divisor, 1_000_000 // divisor
    sizes = _sizes_summing_to(rng, n_queries, n_rows, low=1, high=99)
    ids = rng.choice(10**9, size=n_queries, replace=False).astype(np.int64)
    qid = np.repeat(ids, sizes)
    y_true = rng.integers(0, 5, size=n_rows).astype(np.float64)
    y_score = rng.random(n_rows)
    order = rng.permutation(n_rows) if name == "W4" else np.argsort(qid, kind="stable")
    return Workload(name, y_true[order], y_score[order], qid[order])


def _sizes_summing_to(rng, n_queries, total, low, high):
    """Query sizes drawn uniformly from low..high, nudged to sum to ``total``."""
    sizes = rng.integers(low, high + 1, size=n_queries)
    while (gap := total - int(sizes.sum())) != 0:
        room = sizes < high if gap > 0 else sizes > low
        chosen = rng.choice(np.flatnonzero(room), size=min(abs(gap), room.sum()), replace=False)
        sizes[chosen] += 1 if gap > 0 else -1
    return sizes


# ---------------------------------------------------------------- implementations
#
# Each implementation maps (workload, k) to (value, {part: seconds}). The part
# "total" is what the ratio and rows/s use; ranx and pytrec_eval also report
# their conversion from numpy arrays, and ranx its metric call alone.


def _timed(fn, *args, **kwargs):
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - start


def ours(ties):
    def run(wl, k):
        qid = None if wl.dense else wl.qid
        value, seconds = _timed(
            sklearn_ndcg.ndcg_score, wl.y_true, wl.y_score, k=k, qid=qid, ties=ties
        )
        return value, {"total": seconds}

    return run


def sklearn_peer(ignore_ties):
    from sklearn.metrics import ndcg_score

    def run(wl, k):
        value, seconds = _timed(ndcg_score, wl.y_true, wl.y_score, k=k, ignore_ties=ignore_ties)
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
            starts = np.arange(n_queries) * n_documents
        else:
            run_order = np.lexsort((-y_score, qid))
            rel_order = np.lexsort((-y_true, qid))
            sorted_qid = qid[run_order]
            starts = np.flatnonzero(np.r_[True, sorted_qid[1:] != sorted_qid[:-1]])
        ends = np.r_[starts[1:], y_true.size]
        run = split(doc[run_order], y_score[run_order], starts, ends)
        qrels = split(doc[rel_order], y_true[rel_order], starts, ends)
        return qrels, run

    tiny = Workload("tiny", np.array([[1.0, 0.0]]), np.array([[0.5, 0.2]]))
    convert(tiny)  # compile
    return convert


def ranx_peer():
    from ranx.metrics import ndcg

    convert = _ranx_conversion()
    qrels, run = convert(Workload("tiny", np.array([[1.0, 0.0]]), np.array([[0.5, 0.2]])))
    ndcg(qrels, run, k=0)  # JIT warm-up (cached on disk by ranx), not timed
    ndcg(qrels, run, k=10)

    def go(wl, k):
        (qrels, run), t_convert = _timed(convert, wl)
        scores, t_metric = _timed(ndcg, qrels, run, k=0 if k is None else k)
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
        starts = np.flatnonzero(np.r_[True, sorted_qid[1:] != sorted_qid[:-1]])
        bounds = np.r_[starts, n].tolist()
        # 10**d + (n - 1 - row) has d + 1 digits: string order is numeric order
        docs = list(map(str, (10 ** len(str(n)) + (n - 1) - order).tolist()))
        rels = y_true[order].astype(np.int64).tolist()
        scores = y_score[order].tolist()
        names = [str(q) for q in sorted_qid[starts].tolist()]
        qrels, run = {}, {}
        for name, lo, hi in zip(names, bounds[:-1], bounds[1:]):
            qrels[name] = dict(zip(docs[lo:hi], rels[lo:hi]))
            run[name] = dict(zip(docs[lo:hi], scores[lo:hi]))
        return qrels, run

    def evaluate(qrels, run, k):
        measure, key = ("ndcg", "ndcg") if k is None else (f"ndcg_cut.{k}", f"ndcg_cut_{k}")
        per_query = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
        return float(np.mean([m[key] for m in per_query.values()]))

    def go(wl, k):
        (qrels, run), t_build = _timed(build, wl)
        value, t_eval = _timed(evaluate, qrels, run, k)
        return value, {"conversion": t_build, "total": t_build + t_eval}

    return go


@dataclass
class Impl:
    name: str
    run: object
    matches: str | None  # the sklearn-ndcg row computing the same quantity
    dense_only: bool = False
    parts: tuple = ("total",)
    labels: dict = field(default_factory=dict)  # part -> row label


def implementations(selected_peers):
    """The implementations to time, and notes on peers that are missing."""
    impls = [
        Impl("sklearn-ndcg", ours("average"), None),
        Impl("sklearn-ndcg ties='first'", ours("first"), None),
    ]
    notes = []
    if "sklearn" in selected_peers:
        impls += [
            Impl("sklearn default", sklearn_peer(False), "sklearn-ndcg", dense_only=True),
            Impl(
                "sklearn ignore_ties=True",
                sklearn_peer(True),
                "sklearn-ndcg ties='first'",
                dense_only=True,
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
            notes.append(f"ranx skipped: {exc} (pip install '.[bench]')")
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
            notes.append(f"pytrec_eval skipped: {exc} (pip install '.[bench]')")
    if "floor" in selected_peers:
        impls.append(Impl("floor", floor, None))
    return impls, notes


# --------------------------------------------------------------------- measuring


def _rss_hwm_available() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def _proc_status_kb(field_name: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field_name + ":"):
                return int(line.split()[1])
    raise KeyError(field_name)


def measure_rss_peak(fn, *args):
    """Run ``fn`` once; return its value and the rise of peak RSS in bytes.

    Resets the kernel's high-water mark through /proc/self/clear_refs, so it
    sees every allocator (numpy, numba's runtime, pytrec_eval's C code).
    """
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    before = _proc_status_kb("VmRSS")
    value = fn(*args)
    return value, (_proc_status_kb("VmHWM") - before) * 1024


def measure_traced_peak(fn, *args):
    """Run ``fn`` once under tracemalloc; return the traced peak in bytes.

    tracemalloc sees Python objects and numpy's buffers, not numba's runtime or
    pytrec_eval's C allocations.
    """
    tracemalloc.start()
    try:
        fn(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@dataclass
class Result:
    times: dict  # part -> list of seconds
    value: float
    rss_peak: float | None
    traced_peak: float | None
    capped: bool


def bench_case(wl, k, impls, repeats, slow_seconds, log):
    """Time every implementation on one workload and cutoff, alternating them."""
    active = [impl for impl in impls if wl.dense or not impl.dense_only]
    results = {}
    rss = _rss_hwm_available()
    gc.collect()
    for impl in active:  # warm-up; it also measures peak RSS, which costs nothing
        start = time.perf_counter()
        if rss:
            (value, _), rss_peak = measure_rss_peak(impl.run, wl, k)
        else:
            (value, _), rss_peak = impl.run(wl, k), None
        warm = time.perf_counter() - start
        capped = warm > slow_seconds
        traced = None if capped else measure_traced_peak(impl.run, wl, k)
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


def table_rows(wl, k, active, results):
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


def markdown_table(rows):
    lines = ["| " + " | ".join(HEADER) + " |", "|" + "---|" * len(HEADER)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)


def machine_description():
    try:
        from threadpoolctl import threadpool_info

        blas = (
            ", ".join(
                f"{i['internal_api']} {i.get('version') or ''} ({i['num_threads']} threads)"
                for i in threadpool_info()
            )
            or "none loaded"
        )
    except ImportError:
        blas = "threadpoolctl not installed"
    import scipy
    import sklearn

    versions = [
        f"numpy {np.__version__}",
        f"scipy {scipy.__version__}",
        f"scikit-learn {sklearn.__version__}",
        f"sklearn-ndcg {sklearn_ndcg.__version__}",
    ]
    for module in ("ranx", "pytrec_eval", "numba"):
        try:
            mod = __import__(module)
            versions.append(f"{module} {getattr(mod, '__version__', '?')}")
        except ImportError:
            pass
    try:  # read-only: which engine was measured
        import subprocess

        commit = (
            subprocess.run(
                ["git", "rev-parse", "--short", "HEAD"],
                cwd=Path(sklearn_ndcg.__file__).parent,
                capture_output=True,
                text=True,
                timeout=10,
            ).stdout.strip()
            or "unknown"
        )
    except (OSError, subprocess.SubprocessError):
        commit = "unknown"
    return [
        f"- sklearn-ndcg commit: {commit} (uncommitted engine edits are not shown)",
        f"- CPU: {platform.processor() or platform.machine()}, {os.cpu_count()} logical cores "
        f"(usable: {len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else '?'})",
        f"- Python {platform.python_version()} on {platform.system()} {platform.release()}",
        f"- {', '.join(versions)}",
        f"- threadpools: {blas}",
    ]


# ------------------------------------------------------------------- value check


def check_values(workloads, impls, log):
    """Compare every peer with the sklearn-ndcg row it matches, on small input."""
    ok = True
    lines = []
    for name in workloads:
        wl = make_workload(name, divisor=SMOKE_DIVISOR * 2)
        for k in KS:
            values = {}
            for impl in impls:
                if impl.dense_only and not wl.dense:
                    continue
                values[impl.name] = impl.run(wl, k)[0]
            for impl in impls:
                if impl.matches is None or impl.name not in values:
                    continue
                diff = abs(values[impl.name] - values[impl.matches])
                agree = diff <= 1e-9
                note = ""
                if not agree and impl.name == "sklearn ignore_ties=True" and name == "W2":
                    # sklearn orders ties by a reversed unstable argsort, not input order
                    note = " (expected: sklearn's ignore_ties order of tied scores is arbitrary)"
                else:
                    ok &= agree
                lines.append(
                    f"  {name} k={k}: {impl.name} {values[impl.name]:.9f} vs "
                    f"{impl.matches} {values[impl.matches]:.9f}: |diff| {diff:.1e} "
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
        default="sklearn,ranx,pytrec_eval,floor",
        help="comma-separated subset of sklearn,ranx,pytrec_eval,floor",
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
        help=f"markdown file for the table (default {RESULTS.name}; "
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
    machine = machine_description()
    log("sklearn-ndcg benchmark" + (" (smoke size)" if args.smoke else ""))
    for line in machine + [f"- note: {n}" for n in notes]:
        log(line)

    log(
        "\nValue check (small instance of each workload; each peer against the "
        "sklearn-ndcg options that compute the same quantity):"
    )
    ok, check_lines = check_values(workloads, impls, log)
    if not ok:
        log("VALUE CHECK FAILED: a peer does not compute the same NDCG.")

    sections = []
    for name in workloads:
        wl = make_workload(name, divisor)
        for k in KS:
            title = f"{name} k={k}: {DESCRIPTIONS[name]}" + (
                f" [smoke: {wl.n_rows:,} rows]" if args.smoke else ""
            )
            log(f"\n{title} (input {wl.input_bytes / 2**20:.1f} MB)")
            active, results = bench_case(wl, k, impls, repeats, args.slow_seconds, log)
            rows = table_rows(wl, k, active, results)
            table = markdown_table(rows)
            log(table)
            sections.append((title, wl.input_bytes, table))

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
            *[f"- note: {n}" for n in notes],
            "",
            "## Value check",
            "",
            "```",
            *check_lines,
            "```",
            "",
        ]
        for title, input_bytes, table in sections:
            text += [f"## {title}", "", f"Input: {input_bytes / 2**20:.1f} MB.", "", table, ""]
        Path(output).write_text("\n".join(text))
        log(f"\nwrote {output}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
