"""Bad input to sklearn_ndcg.spark: a clear TypeError or ValueError naming the argument,
raised on the driver before any Spark job."""

import re

import numpy as np
import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_ndcg import spark as ndcg_spark

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)


@pytest.fixture(scope="module")
def frame(spark):
    return spark.createDataFrame(
        [(1, "d1", 1.0, 0.5, "x"), (1, "d2", 0.0, 0.2, "y")],
        "qid bigint, docno string, label double, score double, text string",
    )


def test_frame_must_be_a_spark_dataframe(frame):
    pd = pytest.importorskip("pandas")
    with pytest.raises(TypeError, match="frame must be a pyspark.sql.DataFrame.*pandas"):
        ndcg_spark.ndcg_score(pd.DataFrame({"qid": [1], "label": [1.0], "score": [1.0]}))
    with pytest.raises(TypeError, match="frame must be a pyspark.sql.DataFrame.*Column"):
        ndcg_spark.ndcg_score(frame["qid"])
    with pytest.raises(TypeError, match="frame must be a pyspark.sql.DataFrame.*list"):
        ndcg_spark.query_scores([1, 2])


@pytest.mark.parametrize(
    "argument", ["qid", "y_true", "y_score", "sample_weight", "document_weight"]
)
def test_a_missing_column_is_named(frame, argument):
    message = f"{argument}='nope' is not a column of frame; its columns are"
    with pytest.raises(ValueError, match=re.escape(message)):
        ndcg_spark.ndcg_score(frame, **{argument: "nope"})


def test_labels_and_scores_must_be_numbers(frame):
    with pytest.raises(TypeError, match="y_score='text' names a column of type string"):
        ndcg_spark.dcg_score(frame, y_score="text")
    with pytest.raises(TypeError, match="y_true='text' names a column of type string"):
        ndcg_spark.query_scores(frame, y_true="text")


def test_options_are_validated(frame):
    for bad in ({"k": 0}, {"ties": "random"}, {"zero_division": 0.5}, {"qid": 3}):
        with pytest.raises(InvalidParameterError):
            ndcg_spark.ndcg_score(frame, **bad)
    with pytest.raises(InvalidParameterError, match="metric"):
        ndcg_spark.query_scores(frame, metric=3)
    with pytest.raises(ValueError, match="log_base"):
        ndcg_spark.dcg_score(frame, log_base=10.0, discount="reciprocal")


def test_pool_options(frame, spark):
    with pytest.raises(ValueError, match="unjudged='drop' only applies with a pool"):
        ndcg_spark.ndcg_score(frame, unjudged="drop")
    with pytest.raises(TypeError, match="pool must be a pyspark.sql.DataFrame"):
        ndcg_spark.ndcg_score(frame, pool={"qid": [1]})
    pool = spark.createDataFrame([(1, "d1", 2.0)], "qid bigint, docno string, grade double")
    with pytest.raises(ValueError, match="y_true='label' is not a column of pool"):
        ndcg_spark.ndcg_score(frame, pool=pool)
    with pytest.raises(ValueError, match="docno='doc' is not a column of frame"):
        ndcg_spark.ndcg_score(frame, pool=pool, y_true="grade", docno="doc")
    with pytest.raises(ValueError, match="sample_weight cannot weigh"):
        ndcg_spark.ndcg_score(
            frame, pool=pool, y_true="grade", sample_weight="score", missing_queries="zero"
        )


def test_an_empty_frame_is_refused(spark):
    empty = spark.createDataFrame([], "qid bigint, label double, score double")
    with pytest.raises(ValueError, match="frame has no rows"):
        ndcg_spark.ndcg_score(empty)
    assert ndcg_spark.query_scores(empty).count() == 0


def test_all_undefined_warns_and_returns_nan(spark):
    rows = spark.createDataFrame(
        [(1, 0.0, 0.5), (1, 0.0, 0.2)], "qid int, label double, score double"
    )
    with pytest.warns(Warning, match="NDCG is undefined"):
        assert np.isnan(ndcg_spark.ndcg_score(rows, zero_division=np.nan))


@pytest.mark.parametrize(
    ("metric", "match"),
    [
        ("recip_rank", r"metric='recip_rank' is not computed by sklearn_ndcg\.spark\.query_scores"),
        ("P_10", r"metric='P_10' is not computed .* sklearn_ndcg\.evaluate_run"),
        ("ndcg_cut_10", r"takes the cutoff as k; write metric='ndcg', k=10"),
        ("ndgc", r"metric must be 'ndcg' or 'dcg' in sklearn_ndcg\.spark\.query_scores"),
    ],
)
def test_the_measures_beside_ndcg_are_refused_by_name(frame, metric, match):
    # refused on the driver, before any Spark job: one cheap call each
    with pytest.raises(ValueError, match=match):
        ndcg_spark.query_scores(frame, metric=metric)


def test_evaluate_run_refuses_them_too(frame):
    with pytest.raises(ValueError, match=r"metric='map' is not computed by .*evaluate_run"):
        ndcg_spark.evaluate_run(frame, frame, metric="map")
