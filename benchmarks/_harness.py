"""What the benchmark scripts share: input generators, memory and time measurement,
markdown tables and the machine description.

The scripts run as ``python benchmarks/bench_X.py``, which puts this folder first
on ``sys.path``, so they import this module as ``_harness``.
"""

from __future__ import annotations

import os
import platform
import resource
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

import sklearn_ndcg

# --------------------------------------------------------------------------- data
#
# Relevance labels 0..4 as float64 everywhere; scores float64.


def dense_format(
    rng: np.random.Generator, n_queries: int, n_documents: int, score_levels: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """2-D ``(y_true, y_score)``, one query per row (W1-W3).

    Scores are uniform on [0, 1), or drawn from ``0..score_levels - 1`` (heavy ties).
    """
    shape = (n_queries, n_documents)
    y_true = rng.integers(0, 5, size=shape).astype(np.float64)
    if score_levels is None:
        return y_true, rng.random(shape)
    return y_true, rng.integers(0, score_levels, size=shape).astype(np.float64)


def ragged_sizes(
    rng: np.random.Generator, n_queries: int, n_rows: int, low: int = 1, high: int = 99
) -> np.ndarray:
    """Query sizes drawn uniformly from ``low..high``, nudged to sum to ``n_rows``."""
    sizes = rng.integers(low, high + 1, size=n_queries)
    while (gap := n_rows - int(sizes.sum())) != 0:
        room = sizes < high if gap > 0 else sizes > low
        chosen = rng.choice(np.flatnonzero(room), size=min(abs(gap), room.sum()), replace=False)
        sizes[chosen] += 1 if gap > 0 else -1
    return sizes


def long_format(
    rng: np.random.Generator,
    sizes: np.ndarray,
    *,
    grouped: bool,
    score_decimals: int | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Long-format ``(y_true, y_score, qid)`` of queries of the given sizes.

    Query ids are distinct random int64. ``grouped``: rows sorted by query id, so
    each query's rows are contiguous; otherwise rows shuffled, queries interleaved.
    Scores are uniform on [0, 1), rounded to ``score_decimals`` if given (ties).
    """
    n_rows = int(sizes.sum())
    ids = rng.choice(10**9, size=sizes.size, replace=False).astype(np.int64)
    qid = np.repeat(ids, sizes)
    y_true = rng.integers(0, 5, size=n_rows).astype(np.float64)
    y_score = rng.random(n_rows)
    if score_decimals is not None:
        y_score = np.round(y_score, score_decimals)
    order = np.argsort(qid, kind="stable") if grouped else rng.permutation(n_rows)
    return y_true[order], y_score[order], qid[order]


def ragged_long_format(
    n_rows: int, n_queries: int, *, grouped: bool, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Long format of queries of 1..99 documents (W4 shuffled, W4s grouped)."""
    rng = np.random.default_rng(seed)
    return long_format(rng, ragged_sizes(rng, n_queries, n_rows), grouped=grouped)


def query_offsets(qid: np.ndarray) -> np.ndarray:
    """Start row of each run of equal ``qid``, then ``qid.size`` (int64)."""
    edges = np.r_[True, qid[1:] != qid[:-1], True]
    return np.flatnonzero(edges).astype(np.int64, copy=False)


# ------------------------------------------------------------------------- memory


def _status_bytes(field_name: str) -> int | None:
    """A ``kB`` field of /proc/self/status in bytes; None off Linux."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return None


def peak_rss() -> int:
    """Resident high-water mark of this process: VmHWM on Linux, else ru_maxrss."""
    hwm = _status_bytes("VmHWM")
    if hwm is not None:
        return hwm
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, else KiB
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def reset_peak_rss() -> bool:
    """Reset the high-water mark to the current resident size (Linux); False elsewhere."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def rss_peak_rise(fn: Callable, *args):
    """Run ``fn(*args)`` once; return its value and the rise of the resident peak, in bytes.

    On Linux the high-water mark is reset first, and the rise is measured from the
    resident size before the call: it sees every allocator (numpy, numba's runtime,
    C extensions), but not memory the allocator already holds from earlier calls, so
    it can read low. Elsewhere it is the rise of ``ru_maxrss``, a lower bound.
    """
    before = _status_bytes("VmRSS") if reset_peak_rss() else peak_rss()
    value = fn(*args)
    return value, peak_rss() - before


def traced_peak(fn: Callable, *args):
    """Run ``fn(*args)`` under tracemalloc; return its value and the traced peak in bytes.

    Only allocations during the call count (the input is allocated before), as
    seen by tracemalloc: Python objects and numpy's buffers, not numba's runtime
    or C extensions' own allocations.
    """
    tracemalloc.start()
    try:
        value = fn(*args)
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


# --------------------------------------------------------------------------- time


def timed(fn: Callable, *args, **kwargs):
    """``fn(*args, **kwargs)`` and the seconds it took."""
    start = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - start


def best_time(fn: Callable[[], object], repeats: int) -> float:
    """Best of ``repeats`` timed calls of ``fn()``, after an untimed warm-up."""
    fn()
    return min(timed(fn)[1] for _ in range(repeats))


# ---------------------------------------------------------------------- reporting


def markdown_row(cells: Sequence[object]) -> str:
    """One markdown table row."""
    return "| " + " | ".join(map(str, cells)) + " |"


def markdown_table(header: Sequence[str], rows: Sequence[Sequence[object]] = ()) -> str:
    """A markdown table; without rows, its header (print the rows as they come)."""
    lines = [markdown_row(header), "|" + "---|" * len(header)]
    return "\n".join(lines + [markdown_row(row) for row in rows])


def machine_description(modules: Sequence[str] = ()) -> list[str]:
    """Markdown list lines: commit, CPU, Python, library versions, BLAS threadpools.

    ``modules``: optional libraries whose version to add when they are importable.
    """
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
    for module in modules:
        try:
            mod = __import__(module)
            versions.append(f"{module} {getattr(mod, '__version__', '?')}")
        except ImportError:
            pass
    try:  # read-only: which engine was measured
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
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else "?"
    return [
        f"- sklearn-ndcg commit: {commit} (uncommitted engine edits are not shown)",
        f"- CPU: {platform.processor() or platform.machine()}, {os.cpu_count()} logical cores "
        f"(usable: {usable})",
        f"- Python {platform.python_version()} on {platform.system()} {platform.release()}",
        f"- {', '.join(versions)}",
        f"- threadpools: {blas}",
    ]
