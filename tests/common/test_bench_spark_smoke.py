"""benchmarks/bench_spark.py still runs, at smoke size, and its value checks hold. No timing
is checked."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bench_spark.py"


pytest.importorskip("pyspark", reason="needs pyspark (the spark extra)")
pytest.importorskip("pyarrow", reason="needs pyarrow (the spark extra)")


@pytest.mark.slow
def test_bench_spark_smoke():
    java_home_bin = os.path.join(os.environ.get("JAVA_HOME", ""), "bin")
    if not (shutil.which("java") or shutil.which("java", path=java_home_bin)):
        pytest.skip("Spark needs a Java runtime (java on PATH or JAVA_HOME); none found")
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "PYTHONPATH": path, "PYSPARK_PYTHON": sys.executable}
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "difference to the in-memory engine" in result.stdout
    assert "ratio Spark's RankingEvaluator pipeline / sklearn_ndcg.spark" in result.stdout
    assert "VALUE CHECK FAILED" not in result.stdout
