"""
NDCG of a Spark DataFrame, and a Spark ML search by NDCG
=========================================================

``sklearn_ndcg.spark`` scores a long-format Spark DataFrame where it lives, with the
numbers of the in-memory functions, and :class:`sklearn_ndcg.spark.NDCGEvaluator` lets
Spark ML's ``CrossValidator`` select a model by NDCG, with every query kept whole in one
fold by :func:`sklearn_ndcg.spark.query_folds`. This example needs the ``spark`` extra
and a Java runtime (17 or 21); it runs on a local session of two threads. A docs build
without them shows its code without output (``docs/conf.py`` skips it, with a note).
"""

# %%
# A local session and a ranking data set
# --------------------------------------
# :func:`sklearn_ndcg.make_ranking` draws 150 queries with graded labels 0..4; each row
# becomes one document of the Spark DataFrame.

import logging
import os
import sys
import tempfile
import warnings

import numpy as np
from pyspark.ml.linalg import Vectors
from pyspark.sql import SparkSession

import sklearn_ndcg
from sklearn_ndcg import CONVENTIONS, make_ranking
from sklearn_ndcg import spark as ndcg_spark

os.environ["PYSPARK_PYTHON"] = sys.executable
warnings.filterwarnings("ignore", message="PySpark does not yet fully support pandas")
# Spark's Python workers print a BrokenPipeError traceback to the JVM's error stream
# whenever a job stops reading their output early, which is harmless: the JVM, started
# here, writes its error stream to a log file instead of this console.
jvm_log = tempfile.NamedTemporaryFile(prefix="spark-jvm-", suffix=".log", delete=False)
console = os.dup(2)
os.dup2(jvm_log.fileno(), 2)
try:
    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
finally:
    os.dup2(console, 2)
    os.close(console)
spark.sparkContext.setLogLevel("ERROR")

X, y, qid = make_ranking(
    n_queries=150, n_items=(5, 30), n_features=8, n_informative=5, random_state=0
)
frame = spark.createDataFrame(
    [(int(q), float(label), Vectors.dense(x), float(x[0])) for q, label, x in zip(qid, y, X)],
    ["qid", "label", "features", "score"],
)
print(f"{frame.count()} documents of {frame.select('qid').distinct().count()} queries")

# %%
# NDCG of a score column, in Spark and in memory
# ----------------------------------------------
# Here the score is the first feature alone. The Spark value and the in-memory value of
# the same rows agree to the last digits; Spark's own convention (binary relevance,
# ``CONVENTIONS["spark"]``, what ``RankingEvaluator(metricName="ndcgAtK")`` computes)
# gives another number, because it ignores the grades.

in_spark = ndcg_spark.ndcg_score(frame, k=10)
in_memory = sklearn_ndcg.ndcg_score(y, X[:, 0], qid=qid, k=10)
binary = ndcg_spark.ndcg_score(frame, k=10, **CONVENTIONS["spark"])
print(f"NDCG@10 in Spark:  {in_spark:.12f}")
print(f"NDCG@10 in memory: {in_memory:.12f}")
print(f"Spark's binary NDCG@10: {binary:.4f}")

# %%
# Model selection with CrossValidator
# -----------------------------------
# A lasso-type linear regression with four penalties, three folds of whole queries,
# selected by NDCG\@10. ``avgMetrics`` holds the mean NDCG\@10 of each penalty over the
# folds: the strongest penalty removes the informative features and ranks worst.

from pyspark.ml.regression import LinearRegression  # noqa: E402
from pyspark.ml.tuning import CrossValidator, ParamGridBuilder  # noqa: E402

from sklearn_ndcg.spark import NDCGEvaluator, query_folds  # noqa: E402

lr = LinearRegression(elasticNetParam=1.0)
grid = ParamGridBuilder().addGrid(lr.regParam, [0.0, 0.05, 0.3, 2.0]).build()
cv = CrossValidator(
    estimator=lr, estimatorParamMaps=grid, evaluator=NDCGEvaluator(k=10), foldCol="fold", numFolds=3
)
model = cv.fit(query_folds(frame, n_folds=3, seed=0))
for params, value in zip(grid, model.avgMetrics):
    print(f"regParam={params[lr.regParam]:<5} mean NDCG@10 {value:.4f}")
print("selected regParam:", model.bestModel.getOrDefault("regParam"))

# %%
# The NDCG of each query stays in Spark
# -------------------------------------
# :func:`sklearn_ndcg.spark.query_scores` returns a Spark DataFrame; here the five
# queries the selected model ranks worst.

scored = model.bestModel.transform(frame)
worst = ndcg_spark.query_scores(scored, y_score="prediction", k=10).orderBy("score")
worst.show(5)
per_query = np.array([row["score"] for row in worst.collect()])
print(f"{per_query.size} queries, mean {per_query.mean():.4f}")

# %%
# Stop the session: the JVM and its workers end here, and py4j's logger stays quiet
# about the connections it closes.
logging.getLogger("py4j").setLevel(logging.CRITICAL)
spark.stop()
jvm_log.close()
os.unlink(jvm_log.name)  # kept only when the example fails before this line
