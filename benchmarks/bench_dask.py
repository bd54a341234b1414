"""NDCG of a long-format dataset far larger than a Dask worker's memory.

Run ``python benchmarks/bench_dask.py`` (needs the ``dask`` extra). It starts a
LocalCluster of 2 single-threaded worker processes with ``--memory-limit`` each
(600 MB by default) on 127.0.0.1, and evaluates
:func:`sklearn_ndcg.dask.ndcg_score` at k=10 on a dataset that dask generates
lazily, partition by partition, on the workers (``dd.from_map``): the client
never holds the data and no worker ever holds more than a few partitions. Each
query's documents are scattered over all partitions (query ids drawn at random
per row), the worst case for the shuffle by query id. It prints the wall time,
rows/s, the peak resident memory of each worker process (``VmHWM`` on Linux,
else ``ru_maxrss``), the bytes the workers wrote to disk (the shuffle streaming
through disk), and whether any worker was restarted.

Before the big run it checks the value on a slice small enough for memory:
the dask result on the first partitions equals :func:`sklearn_ndcg.ndcg_score`
on the same rows, collected.

``--smoke`` runs the same at a tiny size in seconds (for CI). On a multi-machine
cluster, start ``dask scheduler`` and ``dask worker tcp://SCHEDULER:8786 --nthreads 1
--memory-limit 4GB`` on each machine (every worker needs ``sklearn-ndcg[dask]``)
and run ``python benchmarks/bench_dask.py --scheduler tcp://SCHEDULER:8786``:
the same code then runs on that cluster; only the client-side address changes.
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time

import _harness
import numpy as np
import pandas as pd
from _harness import machine_description, markdown_table, peak_rss, reset_peak_rss

import sklearn_ndcg
import sklearn_ndcg.dask

BYTES_PER_ROW = 24  # int64 qid, float64 label, float64 score
DOCS_PER_QUERY = 40


def make_partition(number: int, n_rows: int, n_queries: int) -> pd.DataFrame:
    """Rows of partition ``number``: random query ids, labels 0..4 (mostly 0), scores.

    Deterministic in ``number``, so any worker can (re)build any partition.
    """
    rng = np.random.default_rng([12345, number])
    qid = rng.integers(0, n_queries, size=n_rows)
    utility = rng.standard_normal(n_rows)
    label = np.digitize(utility, [0.0, 0.8, 1.4, 2.0]).astype(np.float64)
    score = np.round(utility + rng.standard_normal(n_rows), 2)  # some ties
    return pd.DataFrame({"qid": qid, "label": label, "score": score})


def make_frame(n_partitions: int, partition_rows: int):
    """A lazy dask DataFrame of ``n_partitions * partition_rows`` rows."""
    import dask.dataframe as dd

    n_queries = max(n_partitions * partition_rows // DOCS_PER_QUERY, 1)
    return dd.from_map(
        make_partition,
        range(n_partitions),
        n_rows=partition_rows,
        n_queries=n_queries,
        meta=make_partition(0, 0, 1),
        enforce_metadata=False,
    )


def worker_stats(dask_worker=None) -> dict:
    """Peak RSS and bytes written to disk by this worker process."""
    import psutil

    process = psutil.Process()
    try:
        written = process.io_counters().write_bytes
    except (AttributeError, psutil.Error):  # pragma: no cover - not on every OS
        written = float("nan")
    return {
        "peak_rss": peak_rss(),
        "rss": process.memory_info().rss,
        "written": written,
        "memory_limit": dask_worker.memory_manager.memory_limit,
    }


def check_value(n_partitions: int, partition_rows: int) -> float:
    """Largest relative difference to the in-memory engine, on a collectable slice."""
    frame = make_frame(n_partitions, partition_rows)
    rows = frame.compute()
    worst = 0.0
    for options in ({"k": 10}, {"k": 10, "ties": "first"}, {"zero_division": np.nan}):
        expected = sklearn_ndcg.ndcg_score(
            rows["label"].to_numpy(),
            rows["score"].to_numpy(),
            qid=rows["qid"].to_numpy(),
            **options,
        )
        got = sklearn_ndcg.dask.ndcg_score(frame, **options)
        worst = max(worst, abs(got - expected) / abs(expected))
    return worst


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--smoke", action="store_true", help="tiny size (about 1e5 rows), seconds: for CI"
    )
    parser.add_argument(
        "--rows",
        type=float,
        default=None,
        help="rows in total (default 1.6e8, about 3.8 GB; smoke 1.2e5)",
    )
    parser.add_argument(
        "--partition-rows",
        type=int,
        default=None,
        help="rows per partition (default 500000; smoke 10000)",
    )
    parser.add_argument(
        "--memory-limit",
        default="600MB",
        help="memory limit of each local worker (default 600MB; an idle "
        "worker with pandas, pyarrow, scipy and scikit-learn loaded "
        "already takes about 300 MB)",
    )
    parser.add_argument("--workers", type=int, default=2, help="local workers (default 2)")
    parser.add_argument(
        "--scheduler",
        default=None,
        help="address of an existing cluster's scheduler, e.g. "
        "tcp://10.0.0.1:8786; no local cluster is started",
    )
    args = parser.parse_args(argv)
    partition_rows = args.partition_rows or (10_000 if args.smoke else 500_000)
    n_rows = int(args.rows or (1.2e5 if args.smoke else 1.6e8))
    n_partitions = max(n_rows // partition_rows, 1)
    n_rows = n_partitions * partition_rows

    import cloudpickle
    import distributed

    # Functions sent to the workers (client.run) call _harness, which the workers of
    # another machine cannot import: ship it with them.
    cloudpickle.register_pickle_by_value(_harness)
    # p2p logs a WARNING line per shuffle when it starts and stops; not news here.
    logging.getLogger("distributed.shuffle").setLevel(logging.ERROR)
    print("sklearn-ndcg on Dask")
    print("\n".join(machine_description(("dask", "distributed", "pandas"))))

    with tempfile.TemporaryDirectory(prefix="bench_dask_") as scratch:
        if args.scheduler:
            cluster = None
            client = distributed.Client(args.scheduler)
            where = f"the cluster at {args.scheduler}"
        else:
            cluster = distributed.LocalCluster(
                n_workers=args.workers,
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
                memory_limit=args.memory_limit,
                local_directory=scratch,
            )
            client = distributed.Client(cluster)
            where = (
                f"LocalCluster: {args.workers} worker processes x 1 thread, "
                f"memory_limit {args.memory_limit} each"
            )
        try:
            return _run(client, where, n_rows, n_partitions, partition_rows, args.smoke)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def _run(client, where, n_rows, n_partitions, partition_rows, smoke) -> int:
    client.wait_for_workers(1)
    before = client.run(worker_stats)
    limit = min(s["memory_limit"] or float("inf") for s in before.values())
    data_bytes = n_rows * BYTES_PER_ROW
    print(f"{where}")
    print(
        f"data: {n_rows:,} rows in {n_partitions} partitions of {partition_rows:,} "
        f"({data_bytes / 1e9:.2f} GB of int64 qid + float64 label + float64 score, "
        f"{data_bytes / limit:.1f}x one worker's memory limit), "
        f"~{n_rows // DOCS_PER_QUERY:,} queries spread over all partitions; "
        "generated lazily on the workers (dd.from_map)"
    )

    start = time.perf_counter()
    difference = check_value(min(n_partitions, 4), min(partition_rows, 50_000))
    print(
        f"value check on a collectable slice (k=10, ties='first', zero_division=nan): "
        f"max relative difference to sklearn_ndcg.ndcg_score {difference:.1e} "
        f"({time.perf_counter() - start:.1f} s)"
    )
    if not difference <= 1e-12:
        print("VALUE CHECK FAILED")
        return 1

    client.run(reset_peak_rss)  # peak RSS from here on, where the OS allows it
    before = client.run(worker_stats)
    frame = make_frame(n_partitions, partition_rows)
    start = time.perf_counter()
    score = sklearn_ndcg.dask.ndcg_score(frame, k=10)
    elapsed = time.perf_counter() - start
    after = client.run(worker_stats)

    print(f"ndcg_score(frame, k=10) = {score:.6f}")
    print(
        f"time {elapsed:.1f} s, {n_rows / elapsed:,.0f} rows/s, "
        f"{data_bytes / elapsed / 1e6:.0f} MB/s"
    )
    rows = []
    for address in sorted(after):
        b, a = before.get(address), after[address]
        written = a["written"] - (b["written"] if b else 0)
        rss_before = _mb(b["rss"]) if b else "-"
        rows.append([address, _mb(a["memory_limit"]), rss_before, _mb(a["peak_rss"]), _mb(written)])
    header = ["worker", "memory limit", "RSS before", "peak RSS", "written to disk"]
    print(markdown_table(header, rows))
    peak = max(a["peak_rss"] for a in after.values())
    print(
        f"peak worker memory {_mb(peak)} = {peak / limit:.0%} of the limit, "
        f"for {data_bytes / 1e9:.2f} GB of data"
    )
    restarted = set(before) != set(after)
    print("worker restarts: " + ("YES (a worker was lost)" if restarted else "none"))
    if smoke:
        print("(smoke size: the numbers above say nothing about speed)")
    return 0


def _mb(n) -> str:
    if n is None or n != n:
        return "-"
    return f"{n / 1e6:,.0f} MB"


if __name__ == "__main__":
    sys.exit(main())
