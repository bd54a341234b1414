"""The benchmark scripts still run, at smoke size. No timing is checked."""

import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def _run(script, *args):
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--smoke", *args],
        capture_output=True,
        text=True,
        timeout=900,
    )


# the full peer set imports ranx and numba, which takes tens of seconds
@pytest.mark.slow
def test_bench_ndcg_smoke():
    result = _run("bench_ndcg.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for workload in ("W1", "W2", "W3", "W4", "W4s"):
        for k in (10, None):
            assert f"\n{workload} k={k}:" in result.stdout
    assert "| sklearn-ndcg |" in result.stdout
    assert "| floor |" in result.stdout
    assert "VALUE CHECK FAILED" not in result.stdout


def test_bench_scaling_smoke():
    result = _run("bench_scaling.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "| rows |" in result.stdout
    assert "fitted exponent" in result.stdout
