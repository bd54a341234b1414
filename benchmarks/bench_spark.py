"""NDCG@10 of a long-format Spark DataFrame: sklearn_ndcg.spark against its peers.

Run ``python benchmarks/bench_spark.py`` (needs the ``spark`` extra and Java).
It starts a local SparkSession (``local[2]`` by default), generates
``--rows`` rows of ``--queries`` queries inside Spark (random query id per
row, so every query is scattered over every partition; labels 0..4, mostly 0;
scores rounded to 2 decimals, so there are ties), caches them, and times, on the
same cached rows:

- ``sklearn_ndcg.spark.ndcg_score(frame, k=10)``: one exchange by query id, the
  engine once per partition on Arrow batches, partial sums back;
- the in-memory engine, ``sklearn_ndcg.ndcg_score`` on the collected columns
  (collection not timed);
- Spark's own pipeline for ``RankingEvaluator(metricName="ndcgAtK", k=10)``:
  collect the document ids of each query sorted by score, collect its relevant
  ids, evaluate (binary relevance, Spark's only kind); timed against
  ``sklearn_ndcg.spark.ndcg_score(frame, k=10, **CONVENTIONS["spark"])``, which
  must give the same value.

It prints each time, rows/s, the ratios (Spark's pipeline / sklearn_ndcg.spark,
in-memory / sklearn_ndcg.spark) and the differences of the values, which must be
below 1e-12 (else "VALUE CHECK FAILED"). ``--smoke`` runs 20,000 rows in
seconds, one round without warm-up. Timings are the best of ``--repeat`` rounds after one
warm-up; each round runs the four in turn (interleaved), and the load averages before and
after are printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings
from pathlib import Path

import sklearn_ndcg
from sklearn_ndcg import CONVENTIONS
from sklearn_ndcg import spark as ndcg_spark


def session(master: str, partitions: int):
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    warnings.simplefilter("ignore")  # PySpark's own version-check warnings
    spark = (
        SparkSession.builder.master(master)
        .appName("bench_spark")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", str(partitions))
        .config("spark.driver.memory", "3g")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def make_frame(spark, n_rows: int, n_queries: int, partitions: int):
    """Rows generated inside Spark: query id, document id, label, score."""
    from pyspark.sql import functions as F

    utility = F.randn(seed=1)
    frame = (
        spark.range(0, n_rows, numPartitions=partitions)
        .withColumnRenamed("id", "docno")
        .withColumn("qid", (F.rand(seed=0) * n_queries).cast("long"))
        .withColumn("utility", utility)
        .withColumn(
            "label",
            F.when(F.col("utility") > 2.0, 4.0)
            .when(F.col("utility") > 1.4, 3.0)
            .when(F.col("utility") > 0.8, 2.0)
            .when(F.col("utility") > 0.0, 1.0)
            .otherwise(0.0),
        )
        .withColumn("score", F.round(F.col("utility") + F.randn(seed=2), 2))
        .select("qid", "docno", "label", "score")
    )
    return frame.cache()


def spark_ranking_pipeline(frame, k: int) -> float:
    """Spark's own way: ids per query in rank order, relevant ids, RankingEvaluator."""
    from pyspark.ml.evaluation import RankingEvaluator
    from pyspark.sql import functions as F

    ranked = frame.groupBy("qid").agg(
        F.sort_array(F.collect_list(F.struct(-F.col("score"), F.col("docno"))), asc=True).alias(
            "pairs"
        ),
        F.collect_list(F.when(F.col("label") > 0, F.col("docno").cast("double"))).alias("label"),
    )
    ranked = ranked.select(F.col("pairs.docno").cast("array<double>").alias("prediction"), "label")
    return RankingEvaluator(metricName="ndcgAtK", k=k).evaluate(ranked)


def interleaved_best(functions: dict, repeat: int, cpu=None, warm_up: bool = True) -> dict:
    """``{name: (best time, value, CPU seconds of each round)}``: one warm-up each (unless
    not ``warm_up``: the smoke run times its one round cold), then ``repeat`` rounds.

    Each round runs every function once, in turn, so that a change of load on a
    shared machine falls on all of them alike. ``cpu()`` (if given) reads a CPU-time
    counter before and after each call.
    """
    values = {name: function() for name, function in functions.items() if warm_up}
    times = {name: [] for name in functions}
    cpus = {name: [] for name in functions}
    for _ in range(repeat):
        for name, function in functions.items():
            cpu_before = cpu() if cpu else 0.0
            started = time.perf_counter()
            values[name] = function()
            times[name].append(time.perf_counter() - started)
            cpus[name].append((cpu() if cpu else 0.0) - cpu_before)
    return {name: (min(times[name]), values[name], cpus[name]) for name in functions}


def tree_cpu_seconds(root: int) -> float:
    """CPU seconds (user + system) of this process, process ``root`` and its live
    descendants (the JVM and its Python workers), from Linux's /proc."""
    parents, ticks = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        pid = int(stat.parent.name)
        parents[pid], ticks[pid] = int(fields[1]), int(fields[11]) + int(fields[12])
    tree = {root}
    while grown := {pid for pid, parent in parents.items() if parent in tree} - tree:
        tree |= grown
    jvm = sum(ticks.get(pid, 0) for pid in tree) / os.sysconf("SC_CLK_TCK")
    return jvm + time.process_time()


def cpus_text(cpus) -> str:
    return ", ".join(f"{value:.2f}" for value in cpus)


def load() -> str:
    """The 1, 5 and 15 minute load averages, as ``uptime`` prints them."""
    return "load average " + ", ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv=None, spark=None) -> int:
    """Run the benchmark; in a given SparkSession (``spark``, left running, as the test
    suite's smoke test does) or in a new one, stopped at the end."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument(
        "--smoke", action="store_true", help="20,000 rows, 200 queries, one round, no warm-up"
    )
    args = parser.parse_args(argv)
    if args.smoke:
        args.rows, args.queries, args.partitions, args.repeat = 20_000, 200, 4, 1
    import pyspark

    own_session = spark is None
    if own_session:
        spark = session(args.master, args.partitions)
    master = spark.sparkContext.master
    print(
        f"pyspark {pyspark.__version__}, master {master}, {args.rows:,} rows, "
        f"{args.queries:,} queries, {args.partitions} partitions, k={args.k}, "
        f"best of {args.repeat}"
    )
    frame = make_frame(spark, args.rows, args.queries, args.partitions)
    frame.count()  # materialise the cache before timing

    table = frame.select("qid", "label", "score").toArrow() if hasattr(frame, "toArrow") else None
    if table is not None:
        qid, label, score = (table.column(name).to_numpy() for name in ("qid", "label", "score"))
    else:  # pyspark < 4: through pandas
        columns = frame.select("qid", "label", "score").toPandas()
        qid, label, score = (columns[name].to_numpy() for name in ("qid", "label", "score"))

    k = args.k
    preset = CONVENTIONS["spark"]
    try:  # CPU time as well as wall time, since the machine may be shared (Linux only)
        jvm = spark.sparkContext._gateway.proc.pid
        tree_cpu_seconds(jvm)
        cpu = lambda: tree_cpu_seconds(jvm)  # noqa: E731
    except Exception:
        cpu = None
    print(f"before timing: {load()}")
    names = {
        "spark": "sklearn_ndcg.spark.ndcg_score",
        "memory": "sklearn_ndcg.ndcg_score (in memory)",
        "preset": 'sklearn_ndcg.spark.ndcg_score, CONVENTIONS["spark"]',
        "peer": "Spark RankingEvaluator pipeline (binary)",
    }
    timed = interleaved_best(
        {
            "spark": lambda: ndcg_spark.ndcg_score(frame, k=k),
            "memory": lambda: sklearn_ndcg.ndcg_score(label, score, qid=qid, k=k),
            "preset": lambda: ndcg_spark.ndcg_score(frame, k=k, **preset),
            "peer": lambda: spark_ranking_pipeline(frame, k),
        },
        args.repeat,
        cpu=cpu,
        warm_up=not args.smoke,
    )
    print(f"after timing: {load()}")
    for key, name in names.items():
        seconds, value, cpus = timed[key]
        print(f"{name:55s} {seconds:8.3f} s  {args.rows / seconds:14,.0f} rows/s  {value:.15f}")
        if cpu:
            print(f"{'':55s} CPU s per round (driver + JVM + workers): {cpus_text(cpus)}")
    (t_spark, v_spark, _), (t_memory, v_memory, _), (t_preset, v_preset, _), (t_peer, v_peer, _) = (
        timed[key] for key in names
    )
    print(f"ratio in-memory / sklearn_ndcg.spark: {t_memory / t_spark:.2f}")
    print(f"ratio Spark's RankingEvaluator pipeline / sklearn_ndcg.spark: {t_peer / t_preset:.2f}")
    print(
        "ratio Spark's RankingEvaluator pipeline / sklearn_ndcg.spark with its defaults "
        f"(graded, ties averaged): {t_peer / t_spark:.2f}"
    )
    memory_difference = abs(v_spark - v_memory)
    peer_difference = abs(v_preset - v_peer)
    print(f"difference to the in-memory engine: {memory_difference:.3g}")
    print(f"difference to Spark's RankingEvaluator (spark preset): {peer_difference:.3g}")
    ok = memory_difference < 1e-12 and peer_difference < 1e-12
    if not ok:
        print("VALUE CHECK FAILED")
    frame.unpersist()
    if own_session:
        spark.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
