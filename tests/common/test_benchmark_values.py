"""Every value check of the benchmark scripts, made by a unit test as well.

The smoke tests run the benchmarks in a subprocess and only look for "VALUE CHECK
FAILED"; they must not be the only guard of a computed value. The checks:

- ``benchmarks/bench_ndcg.py`` (``check_values``), on a small instance of each
  workload W1 to W5 (dense 100 documents, continuous or heavily tied scores; long
  format of 1 to 99 documents per query, rows shuffled or grouped; a small fold),
  k = 10 and None: the numba kernel (on offsets, + offsets, after argsort) equals
  sklearn-ndcg (``ties="average"``); scikit-learn's ``ndcg_score`` equals it on
  dense input, and with ``ignore_ties=True`` equals ``ties="first"`` (W1, W3);
  ranx and pytrec_eval equal ``ties="first"``. Here: the same workloads from the
  benchmark's own ``make_workload``, sklearn-ndcg against the exact reference
  ``tests/_reference.py`` (for the numba kernel, a stronger oracle), scikit-learn,
  and pytrec_eval and ranx through the benchmark's own peer functions.
- ``benchmarks/bench_dask.py`` (``check_value``): ``sklearn_ndcg.dask.ndcg_score``
  equals the in-memory one with k=10, with ``ties="first"`` and with
  ``zero_division=nan``: ``tests/test_dask.py::test_ndcg_score_equals_in_memory``
  (those options among others, 12 partitions).
- ``benchmarks/bench_spark.py``: ``sklearn_ndcg.spark.ndcg_score`` equals the
  in-memory one (``tests/spark/test_metrics.py::test_query_scores_equal_memory``,
  whose mean is ``ndcg_score``), and ``CONVENTIONS["spark"]`` equals Spark's
  ``RankingEvaluator`` (``tests/spark/test_metrics_conventions.py::
  test_spark_preset_equals_ranking_evaluator``).
"""

import importlib.util
import sys
from pathlib import Path

import _reference as ref
import numpy as np
import pytest
import sklearn.metrics as skm

from sklearn_ndcg import ndcg_score

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
RTOL = 1e-12  # the benchmark's tolerance
# the benchmark checks at CHECK_DIVISOR = 200 times fewer queries; W3 (100,000
# dense queries) at 2,000 times fewer, so that the plain-Python reference stays fast
DIVISORS = {"W1": 200, "W2": 200, "W3": 2000, "W4": 200, "W4s": 200, "W5": 200}
KS = (10, None)


@pytest.fixture(scope="module")
def bench():
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bench_ndcg
    finally:
        sys.path.remove(str(BENCHMARKS))
    return bench_ndcg


def _reference_mean(workload, k, ties):
    if workload.dense:
        return ref.mean(
            ref.evaluate(workload.y_true.tolist(), workload.y_score.tolist(), k=k, ties=ties)
        )
    return ref.mean(
        ref.evaluate(
            workload.y_true.tolist(),
            workload.y_score.tolist(),
            qid=workload.qid.tolist(),
            k=k,
            ties=ties,
        )  # fmt: skip
    )


def _ours(workload, k, ties):
    qid = None if workload.dense else workload.qid
    return ndcg_score(workload.y_true, workload.y_score, qid=qid, k=k, ties=ties)


@pytest.mark.parametrize("k", KS, ids=["k10", "kNone"])
@pytest.mark.parametrize("name", list(DIVISORS))
def test_workload_equals_reference(bench, name, k):
    """The numba kernel checks: sklearn-ndcg (average, and first) on each workload."""
    workload = bench.make_workload(name, divisor=DIVISORS[name])
    if name == "W4":  # more than 32 query lengths: queries share padded blocks
        assert np.unique(np.unique(workload.qid, return_counts=True)[1]).size > 32
    for ties in ("average", "first"):
        np.testing.assert_allclose(
            _ours(workload, k, ties), _reference_mean(workload, k, ties), rtol=RTOL,
            err_msg=f"{name} k={k} ties={ties}",
        )  # fmt: skip


@pytest.mark.parametrize("k", KS, ids=["k10", "kNone"])
@pytest.mark.parametrize("name", ["W1", "W2", "W3"])
def test_dense_workload_equals_scikit_learn(bench, name, k):
    workload = bench.make_workload(name, divisor=DIVISORS[name])
    expected = skm.ndcg_score(workload.y_true, workload.y_score, k=k)
    np.testing.assert_allclose(_ours(workload, k, "average"), expected, rtol=RTOL)
    if name != "W2":  # scikit-learn's order of tied scores is its sort's (the benchmark
        # excuses W2 too); continuous scores have no ties
        expected = skm.ndcg_score(workload.y_true, workload.y_score, k=k, ignore_ties=True)
        np.testing.assert_allclose(_ours(workload, k, "first"), expected, rtol=RTOL)


@pytest.mark.skipif(
    importlib.util.find_spec("pytrec_eval") is None, reason="pytrec_eval not installed (bench)"
)
@pytest.mark.parametrize("k", KS, ids=["k10", "kNone"])
@pytest.mark.parametrize("name", list(DIVISORS))
def test_workload_equals_pytrec_eval(bench, name, k):
    workload = bench.make_workload(name, divisor=DIVISORS[name])
    value, _ = bench.pytrec_peer()(workload, k)
    np.testing.assert_allclose(_ours(workload, k, "first"), value, rtol=RTOL)


@pytest.mark.slow  # ranx compiles its numba code on first use
@pytest.mark.skipif(importlib.util.find_spec("ranx") is None, reason="ranx not installed (bench)")
@pytest.mark.parametrize("name", list(DIVISORS))
def test_workload_equals_ranx(bench, name):
    workload = bench.make_workload(name, divisor=DIVISORS[name])
    peer = bench.ranx_peer()
    for k in KS:
        value, _ = peer(workload, k)
        np.testing.assert_allclose(_ours(workload, k, "first"), value, rtol=RTOL)
