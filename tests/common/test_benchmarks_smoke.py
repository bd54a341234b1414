"""The benchmark scripts still run, at smoke size. No timing is checked."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
WORKLOADS = ("W1", "W2", "W3", "W4", "W4s", "W5")
OPTIONAL_PEERS = ("numba", "ranx", "pytrec_eval")


def _run(script, *args):
    """The script at smoke size, on this checkout's package (not an installed one)."""
    env = dict(os.environ, PYTHONPATH=str(BENCHMARKS.parent))
    return subprocess.run(
        [sys.executable, str(BENCHMARKS / script), "--smoke", *args],
        capture_output=True,
        text=True,
        timeout=900,
        env=env,
    )


def _check_ndcg_smoke(result):
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for workload in WORKLOADS:
        for k in (10, None):
            assert f"\n{workload} k={k}:" in result.stdout
    assert "| sklearn-ndcg |" in result.stdout
    assert "| floor |" in result.stdout
    assert "VALUE CHECK FAILED" not in result.stdout
    targets = result.stdout.split("\nTargets")[1]
    assert "- W4s k=10 (grouped long format): sklearn-ndcg / numba kernel" in targets
    assert "- W2 k=None (heavy ties): sklearn-ndcg ties='first' / sklearn-ndcg = " in targets


# the full peer set imports ranx and numba, which takes tens of seconds
@pytest.mark.slow
def test_bench_ndcg_smoke():
    result = _run("bench_ndcg.py")
    _check_ndcg_smoke(result)
    if importlib.util.find_spec("numba") is not None:
        assert "numba JIT: " in result.stdout
        for row in ("numba kernel", "numba kernel (+ offsets)", "numba kernel after argsort(qid)"):
            assert f"| {row} |" in result.stdout
        assert "W5 k=10: numba kernel " in result.stdout  # the value check
        assert ": not measured" not in result.stdout.split("\nTargets")[1]


def test_bench_ndcg_smoke_without_optional_peers():
    """numba, ranx and pytrec_eval made unimportable: skipped with a note."""
    blocked = ", ".join(map(repr, OPTIONAL_PEERS))
    code = (
        "import runpy, sys\n"
        f"sys.modules.update(dict.fromkeys([{blocked}]))\n"
        f"sys.path.insert(0, {str(BENCHMARKS)!r})\n"
        f"sys.argv = [{str(BENCHMARKS / 'bench_ndcg.py')!r}, '--smoke']\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=900
    )
    _check_ndcg_smoke(result)
    for peer in ("numba kernel", "ranx", "pytrec_eval"):
        assert f"- note: {peer} skipped: " in result.stdout
    assert "| numba kernel |" not in result.stdout
    assert "sklearn-ndcg / numba kernel: not measured" in result.stdout


def test_bench_benchmark_verdicts_smoke():
    result = _run("bench_benchmark_verdicts.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert (
        "| unit | models | datasets | scenario | FWER | best in set | rank cover |" in result.stdout
    )
    assert "| queries | 5 | 5 | equal | " in result.stdout
    assert "| queries | 5 | 5 | spread | " in result.stdout
    assert "cell(s) outside their bounds" in result.stdout


def test_bench_scaling_smoke():
    result = _run("bench_scaling.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "| rows |" in result.stdout
    assert "fitted exponent" in result.stdout


def test_bench_kernel_smoke(monkeypatch):
    """The C kernel (compiled when a compiler is present) agrees with ties='first' and
    ties='average' in every scenario of the script, and scikit-learn with ties='average'
    on the one-query scenario."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))  # the script's own list of scenarios
    spec = importlib.util.spec_from_file_location("bench_kernel", BENCHMARKS / "bench_kernel.py")
    bench_kernel = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench_kernel)
    scenarios = bench_kernel.SCENARIOS
    assert "shuffled-hashed" in scenarios and "one-query" in scenarios
    result = _run("bench_kernel.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "VALUE CHECK FAILED" not in result.stdout
    for scenario in scenarios:
        for k in (10, None):
            assert f"\n{scenario} k={k}:" in result.stdout
    assert "- load average before: " in result.stdout
    assert "- load average after: " in result.stdout
    assert "- memory, shuffled, int32 ids, float32 scores: traced peak " in result.stdout
    assert "sklearn.metrics.ndcg_score vs sklearn-ndcg ties='average': max" in result.stdout
    if "- C kernel: " in result.stdout:  # compiled: every scenario checked and timed
        # both tie rules in every scenario at 2 cutoffs, and scikit-learn on one query at 2
        assert result.stdout.count(": max relative diff ") == len(scenarios) * 2 * 2 + 2
        assert "- grouped k=10: sklearn-ndcg ties='first' / C kernel = " in result.stdout
        assert (
            "- heavy-ties k=10: sklearn-ndcg (ties='average') / C kernel (ties='average') = "
            in result.stdout
        )
    else:
        assert "- note: C kernel skipped: " in result.stdout


def test_bench_trec_smoke():
    """The command and evaluate_run from files, timed; with a built trec_eval (beside
    the test folder SKLEARN_NDCG_TREC_EVAL_TESTS names) also it, and the output check."""
    folder = os.environ.get("SKLEARN_NDCG_TREC_EVAL_TESTS")
    binary = Path(folder).parent / "trec_eval" if folder else None
    extra = ["--trec-eval", str(binary)] if binary is not None and binary.is_file() else []
    result = _run("bench_trec.py", "--no-peers", *extra)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for row in (
        'floor: python -c "import numpy"',
        "sklearn-ndcg trec-eval",
        "sklearn-ndcg trec-eval (numpy only)",
        "evaluate_run from files",
        "sklearn-ndcg trec-eval --help",
    ):
        assert f"\n| {row} | " in result.stdout
    for size in ("typical", "tied"):  # the smoke sizes
        assert f"\n## {size}: " in result.stdout
    for peer in ("ranx", "pytrec_eval"):
        assert f"- note: {peer} skipped: " in result.stdout
    if extra:
        assert "| trec_eval (C) | " in result.stdout
        assert "byte-identical to trec_eval's: True" in result.stdout
        for subject in ("files", "read_trec_run, read_trec_qrels"):  # issue 51's target
            assert f"- evaluate_run from {subject} / trec_eval (C): wall " in result.stdout
        assert "(target <= 1x both): " in result.stdout


@pytest.mark.slow
def test_bench_calibration_smoke():
    result = _run("bench_calibration.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for scenario in ("light", "heavy"):
        assert f"## {scenario}-tailed differences" in result.stdout
    for method in ("randomization", "t", "wilcoxon", "bootstrap"):
        assert f"| {method} | 30 |" in result.stdout
    assert "| 10 |" in result.stdout.split("required_queries planned")[1]
    assert "CALIBRATION CHECK FAILED" not in result.stdout


@pytest.mark.slow
def test_bench_assurance_smoke():
    """Issue 34's planning table at smoke size: the larger bound never below the chi-square
    one, the chi-square bound short on heavy-tailed NDCG differences."""
    result = _run("bench_assurance.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    tables = result.stdout.split("## ")[1:]
    assert [t.split(" ")[0] for t in tables] == ["normal", "light", "heavy", "required_queries"]
    for table in tables[:3]:
        for line in table.splitlines():
            if line.startswith("| 10 |"):
                chi2_8, _, _, _, larger_8, _ = map(float, line.strip("| ").split(" | ")[1:])
                assert larger_8 >= chi2_8
    heavy = [line for line in tables[2].splitlines() if line.startswith("| 10 |")][0]
    assert float(heavy.split(" | ")[1]) < 0.7  # 2,000 pilots: about 0.45


def test_bench_sampled_judgments_smoke():
    """Issue 36's table at smoke size: infNDCG nearly unbiased, unjudged-as-0 far off."""
    result = _run("bench_sampled_judgments.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    rows = {
        line.split("|")[1].strip(): float(line.split("|")[2])
        for line in result.stdout.splitlines()
        if line.startswith("| ") and not line.startswith("| estimator")
    }
    assert set(rows) == {
        "infNDCG",
        'condensed (unjudged="drop")',
        'unjudged as 0 (unjudged="zero")',
    }
    assert abs(rows["infNDCG"]) < 0.03
    assert rows['unjudged as 0 (unjudged="zero")'] < -0.1


def test_bench_clicks_smoke():
    result = _run("bench_clicks.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for title in ("## Deterministic logging", "## Stochastic logging", "## Cascade clicks"):
        assert title in result.stdout
    for row in ("| IPS |", "| SNIPS |", "| DR (fitted reward model) |", "| naive click DCG |"):
        assert row in result.stdout
    assert "## Cost: counterfactual_dcg on 100,000 rows" in result.stdout
    assert "CLICKS CHECK FAILED" not in result.stdout


def test_bench_position_bias_smoke():
    result = _run("bench_position_bias.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for label in (
        "### em, free relevance",
        "### em, logistic relevance",
        "### harvesting",
        "### swap",
    ):
        assert label in result.stdout
    assert result.stdout.count("| 10 | 0.200 |") == 4  # rank 10 and its truth, each method
    assert "### EM with a free relevance per pair: bias against sessions per query" in result.stdout
    for method in ("em, free relevance", "em, logistic relevance", "harvesting", "swap"):
        assert f"| {method} | 10,000 |" in result.stdout


def test_bench_small_calls_smoke():
    """It runs and prints every case and target line; no time is asserted."""
    result = _run("bench_small_calls.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for row in (
        "| validation, 2 arguments: package's validate_params |",
        "| validation, 5 arguments: scikit-learn's validate_params |",
        "| one query: sklearn.metrics.ndcg_score | ",
        "| one query: sklearn_ndcg.ndcg_score | ",
        "| 200 x 30 fold, k=10, long format: sklearn_ndcg.ndcg_score |",
    ):
        assert row in result.stdout
    targets = result.stdout.split("\nTargets (issue 38)\n")[1]
    assert "- validation per call, 2 arguments, package's decorator: " in targets
    assert "- one query of 10 documents: sklearn-ndcg / scikit-learn = " in targets
    assert "(after)" in targets


def test_bench_ppi_small_samples_smoke():
    """Issue 50's table at smoke size: plain PPI with 1 model-only query covers far less
    than 95 % (its variance over 1 value is 0); 100 human-labelled queries do better than 5."""
    result = _run("bench_ppi_small_samples.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    tables = result.stdout.split("\nPPI")
    plain = next(t for t in tables if t.startswith(", mean of a"))
    rows = {
        int(line.split("|")[1]): [float(cell.split()[0]) for cell in line.split("|")[2:-1]]
        for line in plain.splitlines()
        if line.startswith("| ") and line.split("|")[1].strip().isdigit()
    }
    assert rows[100][0] < 0.6 and rows[100][1] > 0.85  # 1 vs 100 model-only queries


def test_bench_bootstrap_switch_smoke():
    """Issue 50's switch table at smoke size: both intervals at each n of the four
    populations (the vectorized BCa checked against the library's on the way)."""
    result = _run("bench_bootstrap_switch.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    rows = [line for line in result.stdout.splitlines() if line.startswith("| 25 |")]
    assert len(rows) == 4  # skewed, left-tailed, light and heavy
    assert "skewed (mean 0.169, skewness +1.86" in result.stdout


def test_bench_measures_smoke():
    """The measures beside NDCG (issue 49): arrays and pytrec_eval's dicts, values checked
    against pytrec_eval when installed; ranx skipped (numba's start)."""
    result = _run("bench_measures.py", "--no-ranx")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "VALUE CHECK FAILED" not in result.stdout
    targets = result.stdout.split("\nTargets")[1]
    assert "5 measures / NDCG@10 alone = " in targets


def test_bench_click_calibration_smoke():
    """Issue 47's calibration tables at smoke size: every section and its rows."""
    result = _run("bench_click_calibration.py")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    for title in (
        "## 1. Propensities",
        "### default, zipf sessions, 300 queries, 1/r",
        "### swap (RandPair)",
        "## 2. End to end",
        "| with the propensities' spread (PositionBias) |",
        "## 3. Two rankers under stochastic logging",
        "| 200 | dr |",
    ):
        assert title in result.stdout, title
