"""Coverage by simulation with a known truth: prediction-powered intervals hold the
human-label mean NDCG about 95 % of the time under a biased model labeller, where the
interval of the model labels alone almost never does; and the benchmark runs at smoke
size (``benchmarks/bench_prediction_powered.py``, whose simulation this reuses)."""

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from sklearn_ndcg import QueryScores, prediction_powered_difference, prediction_powered_mean

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))
from _judgments_data import human_sample, simulate  # noqa: E402

# 10 simulated collections of 2,000 queries x 20 documents, as the benchmark's, each
# with 100 random human samples of 100 queries: 1,000 intervals, the truth of each the
# mean under human labels of its collection's 2,000 queries. Re-using each collection
# for many samples keeps the test fast (the simulation costs more than the intervals)
# and the Monte Carlo error near 0.007. PPI++'s interval of the mean is the one nearest
# the lower bound (0.934-0.948 over seeds 0-2; its tuned lambda_ is estimated from the
# same 100 queries).
COLLECTIONS, SAMPLES, N_QUERIES, N_LABELLED, SEED = 10, 100, 2000, 100, 0


def _scores(qid, values):
    return QueryScores(qid, values, np.ones(qid.shape[0]))


@pytest.fixture(scope="module")
def coverage():
    rng = np.random.default_rng(SEED)
    hits = dict.fromkeys(["naive", "PPI", "PPI++", "PPI difference", "PPI++ difference"], 0)
    for _ in range(COLLECTIONS):
        data = simulate(rng, N_QUERIES)
        truth = data.true_a.mean()  # full human judging of every query
        truth_difference = (data.true_a - data.true_b).mean()
        half = 1.959964 * data.model_a.std(ddof=1) / np.sqrt(N_QUERIES)
        naive = abs(data.model_a.mean() - truth) <= half
        model_a, model_b = _scores(data.qid, data.model_a), _scores(data.qid, data.model_b)
        for _ in range(SAMPLES):
            labelled = human_sample(rng, N_QUERIES, N_LABELLED)
            human_a = _scores(data.qid[labelled], data.true_a[labelled])
            human_b = _scores(data.qid[labelled], data.true_b[labelled])
            hits["naive"] += naive
            for name, tuning in (("PPI", False), ("PPI++", True)):
                low, high = prediction_powered_mean(
                    model_a, human_a, power_tuning=tuning
                ).confidence_interval
                hits[name] += low <= truth <= high
                low, high = prediction_powered_difference(
                    model_a, model_b, human_a, human_b, power_tuning=tuning
                ).confidence_interval
                hits[f"{name} difference"] += low <= truth_difference <= high
    return {name: count / (COLLECTIONS * SAMPLES) for name, count in hits.items()}


@pytest.mark.parametrize("method", ["PPI", "PPI++", "PPI difference", "PPI++ difference"])
def test_prediction_powered_intervals_cover_the_truth(coverage, method):
    assert 0.93 <= coverage[method] <= 0.97, coverage


def test_model_labels_alone_miss_the_truth(coverage):
    assert coverage["naive"] < 0.5, coverage


def test_bench_prediction_powered_smoke():
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    result = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_prediction_powered.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert "VALUE CHECK FAILED" not in result.stdout
    assert "| estimator | mean estimate | bias | sd | mean width | coverage |" in result.stdout
    for method in ("naive", "human only", "PPI", "PPI++"):
        assert f"\n| {method} | " in result.stdout
