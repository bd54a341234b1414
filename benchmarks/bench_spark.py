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
seconds. Timings are the best of ``--repeat`` runs after one warm-up.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import warnings

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


def best_time(function, repeat: int):
    value = function()  # warm-up
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        value = function()
        times.append(time.perf_counter() - started)
    return min(times), value


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--queries", type=int, default=100_000)
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--smoke", action="store_true", help="20,000 rows, 200 queries")
    args = parser.parse_args(argv)
    if args.smoke:
        args.rows, args.queries, args.partitions, args.repeat = 20_000, 200, 4, 1
    import pyspark

    spark = session(args.master, args.partitions)
    print(
        f"pyspark {pyspark.__version__}, master {args.master}, {args.rows:,} rows, "
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
    t_spark, v_spark = best_time(lambda: ndcg_spark.ndcg_score(frame, k=k), args.repeat)
    t_memory, v_memory = best_time(
        lambda: sklearn_ndcg.ndcg_score(label, score, qid=qid, k=k), args.repeat
    )
    preset = CONVENTIONS["spark"]
    t_preset, v_preset = best_time(lambda: ndcg_spark.ndcg_score(frame, k=k, **preset), args.repeat)
    t_peer, v_peer = best_time(lambda: spark_ranking_pipeline(frame, k), args.repeat)

    rows = [
        ("sklearn_ndcg.spark.ndcg_score", t_spark, v_spark),
        ("sklearn_ndcg.ndcg_score (in memory)", t_memory, v_memory),
        ('sklearn_ndcg.spark.ndcg_score, CONVENTIONS["spark"]', t_preset, v_preset),
        ("Spark RankingEvaluator pipeline (binary)", t_peer, v_peer),
    ]
    for name, seconds, value in rows:
        print(f"{name:55s} {seconds:8.3f} s  {args.rows / seconds:14,.0f} rows/s  {value:.15f}")
    print(f"ratio in-memory / sklearn_ndcg.spark: {t_memory / t_spark:.2f}")
    print(f"ratio Spark's RankingEvaluator pipeline / sklearn_ndcg.spark: {t_peer / t_preset:.2f}")
    memory_difference = abs(v_spark - v_memory)
    peer_difference = abs(v_preset - v_peer)
    print(f"difference to the in-memory engine: {memory_difference:.3g}")
    print(f"difference to Spark's RankingEvaluator (spark preset): {peer_difference:.3g}")
    ok = memory_difference < 1e-12 and peer_difference < 1e-12
    if not ok:
        print("VALUE CHECK FAILED")
    spark.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
