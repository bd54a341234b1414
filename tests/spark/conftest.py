"""A local SparkSession per test module; the tests skip where pyspark or Java is missing."""

import importlib.util
import os
import shutil
import sys
import warnings

import pytest

MISSING = next(
    (
        f"needs {name} (the spark extra: pip install '.[spark]')"
        for name in ("pyspark", "pyarrow")
        if importlib.util.find_spec(name) is None
    ),
    None,
)

_JAVA_HOME_BIN = os.path.join(os.environ.get("JAVA_HOME", ""), "bin")
JAVA = shutil.which("java") or shutil.which("java", path=_JAVA_HOME_BIN)

# Warnings of PySpark itself, not of sklearn-ndcg, ignored in this folder only:
SPARK_WARNINGS = (
    # PySpark 4 warns about pandas >= 3 when it checks pandas' version (UDFs, mllib)
    "ignore:PySpark does not yet fully support pandas:FutureWarning",
    # PySpark 3.5 leaves the sockets of collect() to the garbage collector
    "ignore:unclosed <socket:ResourceWarning",
    "ignore:Exception ignored in. <socket:pytest.PytestUnraisableExceptionWarning",
)


def pytest_collection_modifyitems(config, items):
    """PySpark's own warnings ignored here; every test but the import test skipped, saying
    why, without pyspark or pyarrow."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            for spec in SPARK_WARNINGS:
                item.add_marker(pytest.mark.filterwarnings(spec))
            if MISSING and not item.name.startswith("test_importing_"):
                item.add_marker(pytest.mark.skip(reason=MISSING))


@pytest.fixture(scope="module")
def spark():
    """``local[2]``, no UI, quiet logs, few shuffle partitions, this interpreter on workers."""
    if not JAVA:
        pytest.skip("Spark needs a Java runtime (java on PATH or JAVA_HOME); none found")
    from pyspark.sql import SparkSession

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        session = (
            SparkSession.builder.master("local[2]")
            .appName("sklearn-ndcg-tests")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.shuffle.partitions", "4")
            .config("spark.default.parallelism", "2")
            .config("spark.sql.session.timeZone", "UTC")
            .config("spark.driver.memory", "1g")
            .config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .getOrCreate()
        )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()
