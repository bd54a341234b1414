"""benchmarks/bench_dask.py still runs, at smoke size. No timing is checked."""

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_dask.py"


def test_bench_dask_smoke():
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "max relative difference to sklearn_ndcg.ndcg_score" in result.stdout
    assert "VALUE CHECK FAILED" not in result.stdout
    assert "rows/s" in result.stdout
    assert "peak worker memory" in result.stdout
    assert "worker restarts: none" in result.stdout
