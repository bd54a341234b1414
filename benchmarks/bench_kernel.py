"""The engine against a single-thread C kernel, long format (issues 26 and 38).

Run ``python benchmarks/bench_kernel.py``. It compiles ``_ndcg_kernel.c`` with
``cc -O2 -shared -fPIC`` into a temporary folder and loads it with ctypes (no C
compiler: the kernel is skipped with a note, and only sklearn-ndcg is timed).
The kernel computes NDCG@k with linear gain and log2 discount, with the tie rules
"first" (tied scores in input order) and "average" (each tied document gets its
group's mean gain), i.e. ``sklearn_ndcg.ndcg_score(..., ties=..., zero_division=0)``;
the script checks that they agree to 1e-12 on every scenario, for both rules,
before timing. Its discounts and work buffers are sized to the longest query.

Scenarios (relevance 0..4):

- grouped: 1M rows in 20,000 queries of 1..99 documents, rows of a query contiguous;
- shuffled: the same rows shuffled (queries interleaved);
- shuffled-hashed: the shuffled rows with each query's id replaced by a random 64-bit
  integer (hashed ids; no target);
- heavy-ties: grouped, scores rounded to one decimal (11 distinct scores);
- small-folds: 100 calls on folds of 100 queries x 30 documents (grouped), the total;
- dense-heavy-ties: 2-D, 10,000 queries x 100 documents, integer scores 0..9, also
  against the numba kernel of ``bench_ndcg.py`` (ties averaged) when numba is installed;
- one-query: 200 calls on one query of 10 documents (2-D), also against
  ``sklearn.metrics.ndcg_score`` (which averages ties), the total.

Each at k=10 and k=None. Implementations are alternated within each repeat, and
the ratios divide medians of the same run; each engine rule is divided by the
kernel with the same rule. The load average (``os.getloadavg``) is printed before
and after.

The shuffled scenario also times two floors for any design on numpy's sorts: one
sort of the rows' 64-bit keys ``query << b | row`` then one gather of the scores
into query order (the keys and the order are made before timing), and two passes of
numpy's stable radix sort of 16-bit integers (ids spanning at most 32 bits) then the
gather. The engine sorts with neither: it takes a byte of the ids per pass of scipy's
counting sort, which carries the row numbers along. The summary compares these with
what the 1.6x target leaves for grouping once the grouped engine has run. A last
line measures with tracemalloc the memory a call takes with compact dtypes (int32
ids, float32 scores) and with 64-bit ones, as multiples of the compact ids' and
scores' own size, and times both calls. The last lines time the grouping's sort of
shuffled ids by scipy's private counting sort, by its numpy-only fallback (a radix sort
of 16-bit digits, what the engine uses where scipy is not loaded) and by ``argsort``.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _harness import (
    dense_format,
    long_format,
    machine_description,
    markdown_table,
    ragged_long_format,
    ragged_sizes,
    timed,
    traced_peak,
)

import sklearn_ndcg

SOURCE = Path(__file__).with_name("_ndcg_kernel.c")
SCENARIOS = (
    "grouped",
    "shuffled",
    "shuffled-hashed",
    "heavy-ties",
    "small-folds",
    "dense-heavy-ties",
    "one-query",
)
KS = (10, None)
FIRST, AVERAGE = "sklearn-ndcg ties='first'", "sklearn-ndcg (ties='average')"
C_FIRST, C_AVERAGE = "C kernel", "C kernel (ties='average')"
NUMBA, SKLEARN = "numba kernel (ties averaged)", "sklearn.metrics.ndcg_score"
# issues 26 and 38: (numerator, denominator, limit), medians of one run
TARGETS = {
    ("grouped", 10): [(FIRST, C_FIRST, 1.9)],
    ("shuffled", 10): [(FIRST, C_FIRST, 1.6)],
    ("heavy-ties", 10): [(FIRST, C_FIRST, 1.6), (AVERAGE, C_AVERAGE, 1.6)],
    ("small-folds", 10): [(FIRST, C_FIRST, 1.6)],
    ("dense-heavy-ties", 10): [(AVERAGE, NUMBA, 1.6)],
    ("one-query", 10): [(AVERAGE, SKLEARN, 0.3)],
}
RATIOS = ((FIRST, C_FIRST), (AVERAGE, C_AVERAGE), (AVERAGE, NUMBA), (AVERAGE, SKLEARN))
FLOOR = "numpy grouping floor (sort + gather)"
RADIX_FLOOR = "numpy radix floor (2 radix passes + gather)"


def load_kernel(folder: str):
    """The compiled kernel's two functions, or None and why not."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        return None, "no C compiler (cc, gcc or clang) found"
    library = Path(folder) / "ndcg_kernel.so"
    built = subprocess.run(
        [compiler, "-O2", "-shared", "-fPIC", str(SOURCE), "-o", str(library), "-lm"],
        capture_output=True,
        text=True,
    )
    if built.returncode != 0:
        return None, f"compiling {SOURCE.name} failed: {built.stderr.strip()[:500]}"
    lib = ctypes.CDLL(str(library))
    pointer = np.ctypeslib.ndpointer
    functions = {}
    for name in ("ndcg_grouped", "ndcg_shuffled"):
        fn = getattr(lib, name)
        fn.restype = ctypes.c_double
        fn.argtypes = [
            pointer(np.float64, flags="C"),
            pointer(np.float64, flags="C"),
            pointer(np.int64, flags="C"),
            ctypes.c_int64,
            ctypes.c_int64,
            ctypes.c_int64,
        ]
        functions[name] = fn
    return functions, f"{compiler} -O2 -shared -fPIC {SOURCE.name}"


def make_scenario(name: str, divisor: int = 1):
    """A list of folds (y_true, y_score, qid) and whether their rows are grouped.

    2-D scenarios give 2-D ``y_true`` and ``y_score`` and the row of each document
    (grouped) as ``qid``, for the kernels.
    """
    n_rows, n_queries = 1_000_000 // divisor, 20_000 // divisor
    if name in ("grouped", "shuffled", "shuffled-hashed"):
        y_true, y_score, qid = ragged_long_format(
            n_rows, n_queries, grouped=name == "grouped", seed=4
        )
        if name == "shuffled-hashed":  # the same queries under random 64-bit ids
            ids, codes = np.unique(qid, return_inverse=True)
            hashed = np.random.default_rng(5).integers(-(2**63), 2**63 - 1, ids.size)
            qid = hashed[codes.reshape(-1)]
        return [(y_true, y_score, qid)], name == "grouped"
    rng = np.random.default_rng(26)
    if name == "heavy-ties":
        sizes = ragged_sizes(rng, n_queries, n_rows)
        return [long_format(rng, sizes, grouped=True, score_decimals=1)], True
    if name in ("dense-heavy-ties", "one-query"):
        shape = (10_000 // divisor, 100) if name == "dense-heavy-ties" else (1, 10)
        y_true, y_score = dense_format(rng, *shape, score_levels=10)
        rows = np.repeat(np.arange(shape[0], dtype=np.int64), shape[1])
        n_calls = 1 if name == "dense-heavy-ties" else max(2, 200 // divisor)
        return [(y_true, y_score, rows)] * n_calls, True
    n_folds = max(2, 100 // divisor)
    sizes = np.full(100, 30)
    return [long_format(rng, sizes, grouped=True) for _ in range(n_folds)], True


def ours(ties):
    def run(folds, k):
        return [
            sklearn_ndcg.ndcg_score(
                y, s, qid=None if y.ndim == 2 else q, k=k, ties=ties, zero_division=0.0
            )
            for y, s, q in folds
        ]

    return run


def sklearn_peer():
    from sklearn.metrics import ndcg_score

    def run(folds, k):
        return [ndcg_score(y, s, k=k) for y, s, _ in folds]

    return run


def numba_peer():
    """The numba kernel of ``bench_ndcg.py`` (ties averaged) on 2-D folds, or None
    and why not."""
    try:
        from bench_ndcg import numba_peers
        from numba.core.errors import NumbaError  # noqa: F401  (numba importable)
    except ImportError as exc:
        return None, f"numba kernel skipped: {exc} (pip install '.[bench]')"
    impls, jit_seconds = numba_peers()
    kernel = next(impl for impl in impls if impl.name == "numba kernel")

    class Dense:  # what the kernel's wrapper reads of a workload
        def __init__(self, y_true, y_score):
            self.y_true, self.y_score = y_true, y_score
            n_queries, n_documents = y_true.shape
            self.offsets = np.arange(n_queries + 1, dtype=np.int64) * n_documents

    def run(folds, k):
        return [kernel.run(Dense(y, s), k)[0] for y, s, _ in folds]

    return run, f"numba kernel compiled in {jit_seconds:.2f} s (before any timing)"


def grouping_floor(folds):
    """Sort the packed keys and gather the scores through the order: numpy's floor."""
    prepared = []
    for _, score, qid in folds:
        codes = np.unique(qid, return_inverse=True)[1].reshape(-1).astype(np.uint64)
        row_bits = max(1, (qid.shape[0] - 1).bit_length())
        keys = (codes << np.uint64(row_bits)) | np.arange(qid.shape[0], dtype=np.uint64)
        order = np.argsort(keys)
        prepared.append((keys, score, order))

    def run(folds, k):
        firsts = []
        for keys, score, order in prepared:
            np.sort(keys)
            firsts.append(np.take(score, order)[0])  # any value: no check, no NDCG
        return firsts

    return run


def radix_floor(folds):
    """Order the rows by query id with two passes of numpy's stable radix sort of
    16-bit integers (the ids less the smallest fit in 32 bits), then gather the
    scores: the least a grouping on numpy's radix sort does."""
    prepared = []
    for _, score, qid in folds:
        prepared.append(((qid - qid.min()).astype(np.uint32), score))

    def run(folds, k):
        firsts = []
        for offset, score in prepared:
            order = np.argsort(offset.astype(np.uint16), kind="stable").astype(np.int32)
            high = np.take((offset >> np.uint32(16)).astype(np.uint16), order)
            order = np.take(order, np.argsort(high, kind="stable"))
            firsts.append(np.take(score, order)[0])  # any value: no check, no NDCG
        return firsts

    return run


def c_kernel(fn, ties):
    rule = {"first": 0, "average": 1}[ties]

    def run(folds, k):
        return [
            fn(y.reshape(-1), s.reshape(-1), q, q.shape[0], 0 if k is None else k, rule)
            for y, s, q in folds
        ]

    return run


def compact_memory_lines(divisor: int, repeats: int) -> list[str]:
    """Traced peak memory of a call on compact dtypes (int32 ids, float32 scores)
    and on the same values in 64 bits, as multiples of the compact ids' and scores'
    own size; and the median time of each call (alternated, untraced)."""
    y_true, y_score, qid = ragged_long_format(
        1_000_000 // divisor, 20_000 // divisor, grouped=False, seed=4
    )
    compact = (qid % 2**31).astype(np.int32), y_score.astype(np.float32)
    wide = compact[0].astype(np.int64), compact[1].astype(np.float64)
    own = compact[0].nbytes + compact[1].nbytes
    cases = {"int32 ids, float32 scores": compact, "int64, float64": wide}

    def call(scores, ids):
        return sklearn_ndcg.ndcg_score(y_true, scores, qid=ids, k=10)

    times = {label: [] for label in cases}
    for _ in range(repeats):
        for label, (ids, scores) in cases.items():
            times[label].append(timed(call, scores, ids)[1])
    lines = []
    for label, (ids, scores) in cases.items():
        _, peak = traced_peak(call, scores, ids)
        lines.append(
            f"- memory, shuffled, {label}: traced peak {peak / 2**20:.1f} MiB = "
            f"{peak / own:.2f} x the compact ids' and scores' size ({own / 2**20:.1f} MiB); "
            f"median time {np.median(times[label]) * 1e3:.2f} ms"
        )
    return lines


def sort_fallback_lines(divisor: int, repeats: int) -> list[str]:
    """The grouping's sort of 1M shuffled ids (20,000 distinct) by scipy's private counting
    sort (the engine's where scipy is loaded), by its numpy-only fallback (one numpy sort
    of each key packed with its row number) and by numpy's stable argsort: medians of
    alternated calls, and their ratios to the counting sort. All three give the same
    order (checked)."""
    from sklearn_ndcg._engine import _queries, _sort

    rng = np.random.default_rng(5)
    n_rows, n_ids = 1_000_000 // divisor, 20_000 // divisor
    ids = {
        "int32 ids of 31 bits": rng.integers(0, 2**31 - 1, n_ids).astype(np.int32),
        "int64 ids of 20 bits": rng.integers(0, 2**20, n_ids),
        "hashed 64-bit ids": rng.integers(0, 2**64 - 1, n_ids, dtype=np.uint64, endpoint=True),
    }
    counting = _sort._counting_sort

    def sort(key, n_bits, counting_sort):
        _sort._counting_sort = counting_sort
        try:
            return _sort._stable_order(key.copy(), n_bits)[0]
        finally:
            _sort._counting_sort = counting

    sorts = {
        "counting sort": lambda key, n_bits: sort(key, n_bits, counting),
        "numpy sort": lambda key, n_bits: sort(key, n_bits, lambda n_rows: None),
        "argsort": lambda key, n_bits: np.argsort(key, kind="stable"),
    }
    lines = []
    for label, values in ids.items():
        key, n_bits = _sort._offsets(_queries._integer_key(values[rng.integers(0, n_ids, n_rows)]))
        orders = [np.asarray(run(key, n_bits)) for run in sorts.values()]
        same = all(np.array_equal(order, orders[-1]) for order in orders)
        times = {name: [] for name in sorts}
        for r in range(repeats):
            for name in list(sorts)[r % 3 :] + list(sorts)[: r % 3]:
                times[name].append(timed(sorts[name], key, n_bits)[1])
        median = {name: float(np.median(t)) for name, t in times.items()}
        lines.append(
            f"- grouping sort, {n_rows:,} shuffled {label}: counting sort "
            f"{median['counting sort'] * 1e3:.1f} ms, numpy sort (no scipy) "
            f"{median['numpy sort'] * 1e3:.1f} ms "
            f"({median['numpy sort'] / median['counting sort']:.2f}x), argsort "
            f"{median['argsort'] * 1e3:.1f} ms "
            f"({median['argsort'] / median['counting sort']:.2f}x)"
            + ("" if same else "; ORDERS DIFFER")
        )
    return lines


def floor_summary(medians_by_case) -> list[str]:
    """What the shuffled target leaves for grouping, against numpy's grouping floor."""
    ours = FIRST
    lines = []
    for k in KS:
        limit = next((t[2] for t in TARGETS.get(("shuffled", k), ())), None)
        shuffled, grouped = (
            medians_by_case.get(("shuffled", k)),
            medians_by_case.get(("grouped", k)),
        )
        if limit is None or not shuffled or not grouped or "C kernel" not in shuffled:
            continue
        left = limit * shuffled["C kernel"] - grouped[ours]
        lines.append(
            f"- shuffled k={k}: {limit:g} x the C kernel ({shuffled['C kernel'] * 1e3:.2f} ms) "
            f"less the engine on the same rows grouped ({grouped[ours] * 1e3:.2f} ms) leaves "
            f"{left * 1e3:.2f} ms for grouping; numpy's floor for it (one sort of 64-bit keys "
            f"+ one gather of the scores) took {shuffled[FLOOR] * 1e3:.2f} ms, two radix "
            f"passes + the gather {shuffled[RADIX_FLOOR] * 1e3:.2f} ms, and the engine's "
            f"grouping {(shuffled[ours] - grouped[ours]) * 1e3:.2f} ms"
        )
    return lines


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="1/100 size, one repeat (CI)")
    parser.add_argument("--repeats", type=int, default=None, help="default 7, smoke 1")
    parser.add_argument(
        "--scenarios", default=",".join(SCENARIOS), help="subset of " + ",".join(SCENARIOS)
    )
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.smoke else 7)
    divisor = 100 if args.smoke else 1
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    if set(scenarios) - set(SCENARIOS):
        parser.error(f"unknown scenarios; choose from {SCENARIOS}")

    def log(message=""):
        print(message, flush=True)

    log("sklearn-ndcg against a single-thread C kernel" + (" (smoke size)" if args.smoke else ""))
    for line in machine_description():
        log(line)
    log("- load average before: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    numba_run = None
    if "dense-heavy-ties" in scenarios and args.smoke:  # its JIT takes seconds
        log("- note: numba kernel not run at smoke size (bench_ndcg.py --smoke checks it)")
    elif "dense-heavy-ties" in scenarios:
        numba_run, note = numba_peer()
        log(f"- {note}" if numba_run else f"- note: {note}")
    with tempfile.TemporaryDirectory() as folder:
        kernel, how = load_kernel(folder)
        log(f"- C kernel: {how}" if kernel else f"- note: C kernel skipped: {how}")
        ok = True
        summary = []
        medians_by_case = {}
        for name in scenarios:
            folds, grouped = make_scenario(name, divisor)
            impls = {FIRST: ours("first"), AVERAGE: ours("average")}
            if kernel:
                fn = kernel["ndcg_grouped" if grouped else "ndcg_shuffled"]
                impls[C_FIRST] = c_kernel(fn, "first")
                impls[C_AVERAGE] = c_kernel(fn, "average")
            if name == "dense-heavy-ties" and numba_run:
                impls[NUMBA] = numba_run
            if name == "one-query":
                impls[SKLEARN] = sklearn_peer()
            if name == "shuffled":
                impls[FLOOR] = grouping_floor(folds)
                impls[RADIX_FLOOR] = radix_floor(folds)
            n_rows = sum(f[0].size for f in folds)
            for k in KS:
                log(f"\n{name} k={k}: {len(folds)} call(s), {n_rows:,} rows")
                values = {}
                for label, run in impls.items():  # warm-up and value check
                    values[label] = np.asarray(run(folds, k))
                values.pop(FLOOR, None)
                values.pop(RADIX_FLOOR, None)
                for label, value in values.items():
                    expected = values[FIRST if label == C_FIRST else AVERAGE]
                    if label in (FIRST, AVERAGE):
                        continue
                    diff = float(np.max(np.abs(value - expected) / np.abs(expected)))
                    agree = diff <= 1e-12
                    ok &= agree
                    rule = "first" if label == C_FIRST else "average"
                    log(
                        f"  value check: {label} vs sklearn-ndcg ties='{rule}': max relative "
                        f"diff {diff:.1e} {'agree' if agree else 'DIFFER'}"
                    )
                times = {label: [] for label in impls}
                labels = list(impls)
                for r in range(repeats):
                    shift = r % len(labels)
                    for label in labels[shift:] + labels[:shift]:
                        times[label].append(timed(impls[label], folds, k)[1])
                medians = {label: float(np.median(t)) for label, t in times.items()}
                reference = medians.get(C_FIRST)
                rows = [
                    [
                        label,
                        f"{medians[label] * 1e3:.3f} ms",
                        f"{min(times[label]) * 1e3:.3f}-{max(times[label]) * 1e3:.3f} ms",
                        "" if reference is None else f"{medians[label] / reference:.2f}",
                    ]
                    for label in labels
                ]
                medians_by_case[name, k] = medians
                log(markdown_table(["implementation", "median", "min-max", "/ C kernel"], rows))
                summary += ratio_lines(name, k, medians)
    log("\nRatios (medians of this run):")
    for line in summary:
        log(line)
    for line in floor_summary(medians_by_case):
        log(line)
    for line in compact_memory_lines(divisor, repeats):
        log(line)
    for line in sort_fallback_lines(divisor, repeats):
        log(line)
    log("- load average after: " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))
    if not ok:
        log("VALUE CHECK FAILED: a kernel and sklearn-ndcg differ.")
    return 0 if ok else 1


def ratio_lines(name: str, k, medians) -> list[str]:
    """One line per ratio of the scenario (an engine rule over the peer of the same
    rule), with its target's verdict where the issues set one."""
    targets = {(top, bottom): limit for top, bottom, limit in TARGETS.get((name, k), ())}
    lines = []
    for top, bottom in RATIOS:
        if top not in medians or bottom not in medians:
            continue
        ratio = medians[top] / medians[bottom]
        line = f"- {name} k={k}: {top} / {bottom} = {ratio:.2f}"
        if (top, bottom) in targets:
            limit = targets[top, bottom]
            line += f" (target <= {limit:g}): {'met' if ratio <= limit else 'missed'}"
        lines.append(line)
    return lines


if __name__ == "__main__":
    sys.exit(main())
