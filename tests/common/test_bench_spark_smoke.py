"""benchmarks/bench_spark.py still runs, at smoke size, and its value checks hold. No timing
is checked. It runs in this process, in the test run's one SparkSession (the ``spark``
fixture): a session of its own would cost seconds of start-up and warm-up."""

import importlib.util
from pathlib import Path

import pytest
from _spark_session import SPARK_WARNINGS

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bench_spark.py"


pytest.importorskip("pyspark", reason="needs pyspark (the spark extra)")
pytest.importorskip("pyarrow", reason="needs pyarrow (the spark extra)")
pytestmark = [pytest.mark.filterwarnings(spec) for spec in SPARK_WARNINGS]


def _bench_spark():
    spec = importlib.util.spec_from_file_location("bench_spark", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_bench_spark_smoke(spark, capsys):
    returncode = _bench_spark().main(["--smoke"], spark=spark)
    stdout = capsys.readouterr().out
    assert returncode == 0, stdout[-3000:]
    assert "difference to the in-memory engine" in stdout
    assert "ratio Spark's RankingEvaluator pipeline / sklearn_ndcg.spark" in stdout
    assert "VALUE CHECK FAILED" not in stdout
    assert not spark.sparkContext._jsc.sc().isStopped()  # the session is left running
