"""Peak memory and time of sklearn-ndcg at scale, long format.

Run ``python benchmarks/bench_scale.py`` (``--smoke`` for a tiny version). Workloads:

- ``many``: 10 million rows in 200,000 queries of 50 documents, rows shuffled;
- ``one``: one query of 5 million documents;
- ``skewed``: 2 million rows in 100,001 queries, one of them 1 million long. A
  dense ``(n_queries x max_query_length)`` padding would need 100,001 x 1e6
  cells (800 GB as float64), so this workload finishes only without one.

Each workload and cutoff (k=10, k=None) runs in a fresh subprocess that loads
its input from ``.npy`` files (so no generator temporaries are counted) and
measures ``ndcg_score`` twice:

- time and the peak *resident* memory: ``resource.getrusage(RUSAGE_SELF).ru_maxrss``
  after the call minus before it (the input is already resident). This is a
  lower bound: pages the process freed earlier can be reused without raising
  the high-water mark;
- the peak *allocated* memory, with ``tracemalloc`` (numpy reports its array
  allocations to it), in a separate call so that tracing does not skew the time.

Memory is reported as a multiple of the input size (y_true + y_score + qid, as
given: 8 bytes per float64 and int64 value). Target: under 4x.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

import numpy as np

TARGET = 4.0


def make_workload(name: str, scale: float, seed: int = 0):
    """(y_true, y_score, qid) of a workload, ``scale`` times its full size."""
    rng = np.random.default_rng(seed)
    if name == "many":
        n_queries, per_query = max(int(200_000 * scale), 2), 50
        sizes = np.full(n_queries, per_query)
    elif name == "one":
        sizes = np.array([max(int(5_000_000 * scale), 10)])
    elif name == "skewed":
        n_small = max(int(100_000 * scale), 2)
        sizes = np.append(np.full(n_small, 10), max(int(1_000_000 * scale), 10))
    else:
        raise ValueError(f"unknown workload {name!r}")
    n_rows = int(sizes.sum())
    qid = np.repeat(rng.choice(10**9, size=sizes.size, replace=False), sizes)
    order = rng.permutation(n_rows)
    qid = qid[order]
    y_true = rng.integers(0, 5, size=n_rows).astype(np.float64)
    # scores on a coarse grid: ties are common, as with real models
    y_score = np.round(rng.random(n_rows), 4)
    return y_true, y_score, qid


def _maxrss_bytes() -> int:
    scale = 1 if sys.platform == "darwin" else 1024  # bytes on macOS, KiB on Linux
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def measure(directory: str, k: int | None) -> dict:
    """In the child process: load the input and measure one cutoff."""
    import sklearn_ndcg

    folder = Path(directory)
    y_true = np.load(folder / "y_true.npy")
    y_score = np.load(folder / "y_score.npy")
    qid = np.load(folder / "qid.npy")
    input_bytes = y_true.nbytes + y_score.nbytes + qid.nbytes
    sklearn_ndcg.ndcg_score(y_true[:1000], y_score[:1000], qid=qid[:1000])  # warm-up
    results = {
        "rows": int(y_true.size),
        "queries": int(np.unique(qid).size),
        "input_bytes": input_bytes,
        "runs": [],
    }
    for cutoff in (k,):
        before = _maxrss_bytes()
        start = time.perf_counter()
        value = sklearn_ndcg.ndcg_score(y_true, y_score, qid=qid, k=cutoff)
        seconds = time.perf_counter() - start
        rss = _maxrss_bytes() - before

        tracemalloc.start()
        tracemalloc.reset_peak()
        sklearn_ndcg.ndcg_score(y_true, y_score, qid=qid, k=cutoff)
        _, traced = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        results["runs"].append(
            {
                "k": cutoff,
                "seconds": seconds,
                "ndcg": value,
                "rss_bytes": rss,
                "traced_bytes": traced,
            }
        )
    return results


def run_workload(name: str, scale: float) -> dict:
    result = None
    with tempfile.TemporaryDirectory() as directory:
        for array_name, array in zip(("y_true", "y_score", "qid"), make_workload(name, scale)):
            np.save(Path(directory) / f"{array_name}.npy", array)
        for k in ("10", "None"):
            child = subprocess.run(
                [sys.executable, __file__, "--child", directory, "--k", k],
                capture_output=True,
                text=True,
                check=False,
            )
            if child.returncode != 0:
                raise RuntimeError(f"workload {name} k={k} failed:\n{child.stderr}")
            one = json.loads(child.stdout.splitlines()[-1])
            if result is None:
                result = one
            else:
                result["runs"] += one["runs"]
    return result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="1/1000 of the full sizes: for CI, to keep the script working",
    )
    parser.add_argument(
        "--workloads",
        nargs="+",
        default=["many", "one", "skewed"],
        choices=["many", "one", "skewed"],
    )
    parser.add_argument("--child", metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--k", default="10", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(measure(args.child, None if args.k == "None" else int(args.k))))
        return 0

    scale = 0.001 if args.smoke else 1.0
    print(
        f"sklearn-ndcg at scale, long format, shuffled rows; numpy {np.__version__}; "
        f"memory: peak RSS increase (getrusage ru_maxrss, fresh subprocess) and peak "
        f"traced allocation (tracemalloc), as multiples of the input size"
    )
    header = [
        "workload",
        "rows",
        "queries",
        "k",
        "time",
        "input",
        "peak RSS",
        "x input",
        "peak traced",
        "x input",
    ]
    print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    worst = 0.0
    for name in args.workloads:
        result = run_workload(name, scale)
        size = result["input_bytes"]
        for run in result["runs"]:
            rss, traced = run["rss_bytes"] / size, run["traced_bytes"] / size
            worst = max(worst, rss, traced)
            print(
                f"| {name} | {result['rows']:,} | {result['queries']:,} | {run['k']} | "
                f"{run['seconds']:.2f} s | {size / 2**20:.1f} MiB | "
                f"{run['rss_bytes'] / 2**20:.1f} MiB | {rss:.2f} | "
                f"{run['traced_bytes'] / 2**20:.1f} MiB | {traced:.2f} |",
                flush=True,
            )
    verdict = "within" if worst < TARGET else "ABOVE"
    print(f"\nworst peak memory: {worst:.2f} x input ({verdict} the {TARGET:g}x target)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
