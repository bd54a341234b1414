"""The test suite's one local SparkSession, shared by tests/spark/ and the benchmark smoke
test (tests/common/test_bench_spark_smoke.py): each new session costs seconds of start-up
and of warming its first jobs, so the run starts one (the ``spark`` fixture of
tests/conftest.py, session-scoped) and stops it at the end."""

import os
import shutil
import sys
import warnings

_JAVA_HOME_BIN = os.path.join(os.environ.get("JAVA_HOME", ""), "bin")
JAVA = shutil.which("java") or shutil.which("java", path=_JAVA_HOME_BIN)
NO_JAVA = "Spark needs a Java runtime (java on PATH or JAVA_HOME); none found"

# Warnings of PySpark itself, not of sklearn-ndcg, ignored in the Spark tests only:
SPARK_WARNINGS = (
    # PySpark 4 warns about pandas >= 3 when it checks pandas' version (UDFs, mllib)
    "ignore:PySpark does not yet fully support pandas:FutureWarning",
    # PySpark 3.5 leaves the sockets of collect() to the garbage collector
    "ignore:unclosed <socket:ResourceWarning",
    "ignore:Exception ignored in. <socket:pytest.PytestUnraisableExceptionWarning",
    # PySpark 3.5.0 compares versions with distutils' LooseVersion (Arrow paths)
    "ignore:distutils Version classes are deprecated:DeprecationWarning",
)


def start_session():
    """``local[2]``, no UI, quiet logs, few shuffle partitions, this interpreter on workers."""
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session = (
            SparkSession.builder.master("local[2]")
            .appName("sklearn-ndcg-tests")
            .config("spark.ui.enabled", "false")
            .config("spark.ui.showConsoleProgress", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.default.parallelism", "2")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.driver.memory", "1g")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .getOrCreate()
        )
    session.sparkContext.setLogLevel("ERROR")
    return session


def collect_each(frames):
    """The rows of each DataFrame of ``frames`` (same columns), collected in one Spark job
    (their union, each tagged with its position) instead of one job each: a job costs a
    fraction of a second of scheduling on ``local[2]`` whatever its size."""
    from functools import reduce

    from pyspark.sql import functions as F

    tagged = [frame.withColumn("_frame", F.lit(i)) for i, frame in enumerate(frames)]
    rows = reduce(lambda a, b: a.unionByName(b), tagged).collect()
    each = [[] for _ in frames]
    for row in rows:
        each[row["_frame"]].append(row)
    return each
