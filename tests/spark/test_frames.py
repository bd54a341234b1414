"""The physical plan: each query moves into one partition with at most one exchange, and a
frame hash-partitioned by the query id is not shuffled again (read with ``explain``'s plan).
"""

import numpy as np
import pytest

import sklearn_ndcg
from sklearn_ndcg import spark as ndcg_spark

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
