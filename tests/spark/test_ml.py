"""NDCGEvaluator and query_folds in Spark ML's CrossValidator and TrainValidationSplit.

The reference is an independent loop over the same folds: fit the same Spark ML
regressor on the other folds, collect the fold's predictions and score them with the
in-memory ``sklearn_ndcg.ndcg_score``; the model it selects is the one CrossValidator
selects with NDCGEvaluator.
"""

import numpy as np
import pytest

import sklearn_ndcg
from sklearn_ndcg import make_ranking

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)


@pytest.fixture(scope="module")
def ranking_frame(spark):
    from pyspark.ml.linalg import Vectors

    X, y, qid = make_ranking(
        n_queries=60, n_items=(3, 15), n_features=6, n_informative=4, random_state=0
    )
    rows = [(int(q), float(t), Vectors.dense(x)) for q, t, x in zip(qid, y, X)]
    return spark.createDataFrame(rows, ["qid", "label", "features"])


def test_query_folds_keep_queries_whole(ranking_frame):
    from pyspark.sql import functions as F

    from sklearn_ndcg.spark import query_folds

    folds = query_folds(ranking_frame, n_folds=3, seed=7)
    per_query = folds.groupBy("qid").agg(F.countDistinct("fold").alias("n")).collect()
    assert {row["n"] for row in per_query} == {1}
    assigned = {row["qid"]: row["fold"] for row in folds.select("qid", "fold").collect()}
    assert set(assigned.values()) == {0, 1, 2}
    again = query_folds(ranking_frame, n_folds=3, seed=7).select("qid", "fold").collect()
    assert {row["qid"]: row["fold"] for row in again} == assigned  # reproducible
    other = query_folds(ranking_frame, n_folds=3, seed=8).select("qid", "fold").collect()
    assert {row["qid"]: row["fold"] for row in other} != assigned


def test_evaluator_equals_ndcg_score(ranking_frame):
    from sklearn_ndcg.spark import NDCGEvaluator

    scored = _with_prediction(ranking_frame)
    rows = scored.collect()
    label = np.array([r["label"] for r in rows])
    score = np.array([r["prediction"] for r in rows])
    qid = np.array([r["qid"] for r in rows])
    for params in (
        {},
        {"k": 5, "gain": "exponential", "ties": "first"},
        {"gain": [0, 1, 3, 7, 15]},
    ):
        evaluator = NDCGEvaluator(**params)
        assert evaluator.isLargerBetter()
        expected = sklearn_ndcg.ndcg_score(label, score, qid=qid, **params)
        assert abs(evaluator.evaluate(scored) - expected) < 1e-12


def _with_prediction(frame):
    from pyspark.ml.functions import vector_to_array
    from pyspark.sql import functions as F

    # a fixed scorer: the first feature, rounded so that scores tie
    return frame.withColumn("prediction", F.round(vector_to_array("features")[0], 1))


def test_evaluator_is_persistable(tmp_path, ranking_frame):
    from sklearn_ndcg.spark import NDCGEvaluator

    evaluator = NDCGEvaluator(k=3, gain=[0.0, 1.0, 3.0, 7.0, 15.0], ties="pessimistic")
    evaluator.save(str(tmp_path / "evaluator"))
    loaded = NDCGEvaluator.load(str(tmp_path / "evaluator"))
    assert loaded.getOrDefault("k") == 3 and loaded.getOrDefault("ties") == "pessimistic"
    scored = _with_prediction(ranking_frame)
    assert loaded.evaluate(scored) == evaluator.evaluate(scored)


def _independent_selection(frame, lr, grid, n_folds, k):
    """Fit on the other folds, collect the fold's predictions, score them in memory."""
    means = []
    for params in grid:
        scores = []
        for fold in range(n_folds):
            model = lr.copy(params).fit(frame.filter(frame["fold"] != fold))
            rows = model.transform(frame.filter(frame["fold"] == fold)).collect()
            scores.append(
                sklearn_ndcg.ndcg_score(
                    np.array([r["label"] for r in rows]),
                    np.array([r["prediction"] for r in rows]),
                    qid=np.array([r["qid"] for r in rows]),
                    k=k,
                )
            )
        means.append(np.mean(scores))
    return np.array(means)


# CrossValidator and TrainValidationSplit leave their ThreadPool to the garbage collector,
# whose ResourceWarning pytest reports as unraisable (pyspark/ml/tuning.py, not ours)
_SPARK_THREAD_POOL = pytest.mark.filterwarnings(
    "ignore::pytest.PytestUnraisableExceptionWarning", "ignore::ResourceWarning"
)


@pytest.mark.slow  # 45-130 s; test_train_validation_split takes pyspark.ml's tuning API
@_SPARK_THREAD_POOL
def test_cross_validator_selects_as_the_independent_loop(ranking_frame):
    from pyspark.ml.regression import LinearRegression
    from pyspark.ml.tuning import CrossValidator, ParamGridBuilder

    from sklearn_ndcg.spark import NDCGEvaluator, query_folds

    frame = query_folds(ranking_frame, n_folds=3, seed=1).cache()
    lr = LinearRegression(elasticNetParam=1.0)
    grid = ParamGridBuilder().addGrid(lr.regParam, [0.0, 0.05, 0.3, 2.0]).build()
    cv = CrossValidator(
        estimator=lr,
        estimatorParamMaps=grid,
        evaluator=NDCGEvaluator(k=5),
        foldCol="fold",
        numFolds=3,
    )
    model = cv.fit(frame)
    expected = _independent_selection(frame, lr, grid, 3, k=5)
    np.testing.assert_allclose(model.avgMetrics, expected, rtol=0, atol=1e-9)
    assert np.unique(np.round(expected, 6)).size > 1  # the grid's models differ
    best = int(np.argmax(expected))
    assert model.bestModel.getOrDefault("regParam") == grid[best][lr.regParam]
    frame.unpersist()


@_SPARK_THREAD_POOL
def test_train_validation_split(ranking_frame):
    from pyspark.ml.regression import LinearRegression
    from pyspark.ml.tuning import ParamGridBuilder, TrainValidationSplit

    from sklearn_ndcg.spark import NDCGEvaluator

    lr = LinearRegression()
    grid = ParamGridBuilder().addGrid(lr.regParam, [0.0, 1.0]).build()
    tvs = TrainValidationSplit(
        estimator=lr, estimatorParamMaps=grid, evaluator=NDCGEvaluator(k=5), seed=0
    )
    model = tvs.fit(ranking_frame)
    assert len(model.validationMetrics) == 2
    assert all(0 <= value <= 1 for value in model.validationMetrics)
