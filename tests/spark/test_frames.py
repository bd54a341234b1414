"""The physical plan: each query moves into one partition with at most one exchange, and a
frame hash-partitioned by the query id is not shuffled again (read with ``explain``'s plan).
"""

import numpy as np
import pytest

import sklearn_ndcg
from sklearn_ndcg import spark as ndcg_spark
from sklearn_ndcg._engine import RankingOptions
from sklearn_ndcg._spark import _frames
from sklearn_ndcg._spark._frames import ARROW_BATCH, BATCH_ROWS, larger_arrow_batches

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)

ROWS = [(q, float(q * i % 3), float(i % 4)) for q in range(30) for i in range(1 + q % 5)]
SCHEMA = "qid bigint, label double, score double"


def _plan(frame) -> str:
    """The physical plan as ``frame.explain()`` prints it (before execution)."""
    return frame._jdf.queryExecution().executedPlan().toString()


def _exchanges(frame) -> int:
    return _plan(frame).count("Exchange ")


def test_a_frame_partitioned_by_query_is_not_shuffled_again(spark):
    frame = spark.createDataFrame(ROWS, SCHEMA).repartition(4, "qid")
    assert _exchanges(frame) == 1  # the user's own repartition
    for ties in ("average", "first"):
        scores = ndcg_spark.query_scores(frame, ties=ties)
        assert _exchanges(scores) == 1, _plan(scores)
        assert "MapInArrow" in _plan(scores) or "PythonMapInArrow" in _plan(scores)


def test_any_other_frame_is_shuffled_once(spark):
    frame = spark.createDataFrame(spark.sparkContext.parallelize(ROWS, 3), SCHEMA)
    assert _exchanges(frame) == 0
    scores = ndcg_spark.query_scores(frame, ties="first", document_weight="label")
    assert _exchanges(scores) == 1, _plan(scores)
    by_other = spark.createDataFrame(ROWS, SCHEMA).repartition(4, "score")
    assert _exchanges(ndcg_spark.query_scores(by_other)) == 2  # by score, then by query


def test_the_values_do_not_depend_on_the_partitioning(spark):
    qid, label, score = (np.array(column) for column in zip(*ROWS))
    expected = sklearn_ndcg.ndcg_score(label, score, qid=qid, k=3)
    for frame in (
        spark.createDataFrame(ROWS, SCHEMA).repartition(4, "qid"),
        spark.createDataFrame(ROWS, SCHEMA).repartition(3, "score"),
        spark.createDataFrame(ROWS, SCHEMA).coalesce(1),
    ):
        assert abs(ndcg_spark.ndcg_score(frame, k=3) - expected) < 1e-12


def _largest_batch(spark, rows: int) -> int:
    """The most rows in one Arrow batch that ``mapInArrow`` hands to Python."""

    def sizes(batches):
        import pyarrow as pa

        yield pa.RecordBatch.from_arrays([pa.array([max(b.num_rows for b in batches)])], ["n"])

    return spark.range(rows, numPartitions=1).mapInArrow(sizes, "n long").collect()[0]["n"]


def test_own_jobs_use_larger_arrow_batches_unless_the_user_chose(spark):
    assert BATCH_ROWS > 10_000  # Spark's default batch
    rows = BATCH_ROWS + 5
    assert _largest_batch(spark, rows) == 10_000
    with larger_arrow_batches(spark):
        assert _largest_batch(spark, rows) == BATCH_ROWS
    assert _largest_batch(spark, rows) == 10_000  # the default is back
    spark.conf.set(ARROW_BATCH, "500")
    try:
        with larger_arrow_batches(spark):
            assert _largest_batch(spark, rows) == 500  # the user's choice is kept
        assert spark.conf.get(ARROW_BATCH) == "500"
    finally:
        spark.conf.unset(ARROW_BATCH)


def test_a_partition_of_judgments_only_with_ties_first():
    """With ``ties="first"`` each row carries its position; a partition that holds only
    the judgments of a query the ranking lacks has no ranked row to sort back, and with
    ``missing_queries="zero"`` that query scores 0 (as trec_eval's -c)."""
    pa = pytest.importorskip("pyarrow")
    judgments_only = pa.table(
        {
            _frames._Q: ["c"],
            _frames._S: pa.array([None], pa.float64()),
            _frames._DOC: ["d1"],
            _frames._R: pa.array([None], pa.int64()),
            _frames._KIND: pa.array([1], pa.int8()),  # a judgment, not a ranked row
            _frames._Y: [2.0],
        }
    )
    options = RankingOptions(ties="first", unjudged="zero", missing_queries="zero")
    ids, score, weight, _ = _frames.partition_scores(
        judgments_only.to_batches(), spec={"weights": [], "pool": True}, options=options
    )
    assert list(ids) == ["c"] and list(score) == [0.0] and list(weight) == [1.0]
