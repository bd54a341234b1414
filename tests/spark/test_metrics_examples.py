"""The docstring examples of sklearn_ndcg.spark (skipped as doctests: they need a Spark
session), with their printed values checked against the in-memory functions on the same rows
(and those against hand computation for one query)."""

import math

import numpy as np
import pytest

import sklearn_ndcg
from sklearn_ndcg import spark as ndcg_spark

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)

ROWS = [(1, 3, 0.9), (1, 2, 0.1), (1, 0, 0.5), (2, 0, 0.4), (2, 1, 0.4), (2, 0, 0.3)]


def test_ndcg_and_dcg_examples(spark):
    frame = spark.createDataFrame(ROWS, "qid long, label int, score double")
    qid, label, score = (np.array(c) for c in zip(*ROWS))
    assert round(ndcg_spark.ndcg_score(frame), 6) == 0.877011
    assert round(sklearn_ndcg.ndcg_score(label, score, qid=qid), 6) == 0.877011
    assert round(ndcg_spark.ndcg_score(frame, k=1, gain="exponential"), 6) == 0.75
    assert round(ndcg_spark.dcg_score(frame, k=2), 6) == 1.907732
    # by hand: query 1 ranks labels 3, 0, 2 -> (3 + 0) at k=2; query 2 ties 0 and 1 on
    # top -> mean gain 0.5 at ranks 1 and 2
    by_hand = (3 + 0 / math.log2(3) + 0.5 + 0.5 / math.log2(3)) / 2
    assert round(by_hand, 6) == 1.907732


def test_query_scores_example(spark):
    frame = spark.createDataFrame(
        [("b", 3, 0.9), ("b", 2, 0.1), ("b", 0, 0.5), ("a", 1, 0.4), ("a", 0, 0.3)],
        "qid string, label int, score double",
    )
    rows = ndcg_spark.query_scores(frame).orderBy("qid").collect()
    # the docstring prints ("b", 0.9385574520455131, 1.0); the last digit may differ with
    # the numpy/pyarrow build, so the values are compared to 1e-12 relative
    assert [(row["qid"], row["weight"]) for row in rows] == [("a", 1.0), ("b", 1.0)]
    assert rows[0]["score"] == 1.0
    # query b by hand: labels 3, 0, 2 in score order against 3, 2, 0
    dcg = 3 + 2 / math.log2(4)
    ideal = 3 + 2 / math.log2(3)
    assert rows[1]["score"] == pytest.approx(dcg / ideal, rel=1e-12)
    assert rows[1]["score"] == pytest.approx(0.9385574520455131, rel=1e-12)
    assert frame.schema["qid"].dataType == ndcg_spark.query_scores(frame).schema["qid"].dataType
