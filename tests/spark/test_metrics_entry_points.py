"""sklearn_ndcg.spark agrees with the in-memory functions (and Dask) where they refuse,
and its NDCGEvaluator takes the presets of CONVENTIONS.

References: the in-memory functions on the same rows (their refusals and values are
tested against scikit-learn and the libraries in tests/metrics/ and
tests/test_conventions*.py); for "xgboost" at ``k=None``, XGBoost's own ``ndcg``
(tests/test_conventions_without_cutoff.py) is the in-memory value.
"""

import numpy as np
import pytest

import sklearn_ndcg
from sklearn_ndcg import CONVENTIONS
from sklearn_ndcg import spark as ndcg_spark

# two queries: query 1 ties a relevant and an irrelevant document
ROWS = [(1, 1.0, 0.5), (1, 0.0, 0.5), (1, 2.0, 0.1), (2, 1.0, 0.3), (2, 0.0, 0.2)]


def _memory_error(**options):
    qid, label, score = (np.array(column) for column in zip(*ROWS))
    with pytest.raises((ValueError, TypeError)) as memory:
        sklearn_ndcg.ndcg_score(label, score, qid=qid, **options)
    return memory.value


def test_docno_ties_without_document_ids_are_refused_as_in_memory(spark):
    # on main: 0.8801 with one partition, 0.6956 with three (the rows' order decided)
    expected = _memory_error(ties="docno")
    frame = spark.createDataFrame(ROWS, "qid long, label double, score double")
    for function, partitions in ((ndcg_spark.ndcg_score, 3), (ndcg_spark.dcg_score, 1)):
        with pytest.raises(type(expected)) as error:
            function(frame.repartition(partitions), ties="docno")
        # the package's error, its message first: not Spark's wrapper of the worker's
        assert type(error.value) is type(expected)
        assert str(error.value) == str(expected)


def test_docno_ties_without_document_ids_are_refused_by_dask():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from sklearn_ndcg import dask as ndcg_dask

    expected = _memory_error(ties="docno")
    frame = dd.from_pandas(pd.DataFrame(ROWS, columns=["qid", "label", "score"]), npartitions=2)
    with pytest.raises(type(expected)) as error:
        ndcg_dask.ndcg_score(frame, ties="docno")
    assert str(error.value) == str(expected)


def test_docno_without_ties_is_the_memory_value(spark):
    rows = [(1, 1.0, 0.5), (1, 0.0, 0.4), (1, 2.0, 0.1), (2, 1.0, 0.3), (2, 0.0, 0.2)]
    frame = spark.createDataFrame(rows, "qid long, label double, score double").repartition(3)
    qid, label, score = (np.array(column) for column in zip(*rows))
    expected = sklearn_ndcg.ndcg_score(label, score, qid=qid, ties="docno")
    assert ndcg_spark.ndcg_score(frame, ties="docno") == pytest.approx(expected, abs=1e-15)


def _long_queries(seed=0, n_queries=8):
    """Queries of 10 to 60 documents, tie-free scores, labels 0..3, one without relevant."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(10, 61, n_queries)
    qid = np.repeat(np.arange(n_queries), sizes)
    label = rng.integers(0, 4, qid.size).astype(float)
    label[qid == 0] = 0.0
    score = rng.permutation(qid.size).astype(float) / 8
    return qid, label, score


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_evaluator_takes_every_preset(spark, name, tmp_path):
    from sklearn_ndcg.spark import NDCGEvaluator

    qid, label, score = _long_queries()
    frame = spark.createDataFrame(
        [(int(q), float(y), float(s)) for q, y, s in zip(qid, label, score)],
        "qid long, label double, prediction double",
    )
    preset = CONVENTIONS[name]
    evaluator = NDCGEvaluator(**preset)
    expected = sklearn_ndcg.ndcg_score(label, score, qid=qid, **preset)
    assert evaluator.evaluate(frame) == pytest.approx(expected, abs=1e-12)
    if name not in ("trec_eval", "spark", "xgboost"):
        return
    # saved and loaded with its preset (gain functions by name, XGBoost's cutoff as k)
    evaluator.save(str(tmp_path / name))
    loaded = NDCGEvaluator.load(str(tmp_path / name))
    assert loaded.evaluate(frame) == pytest.approx(evaluator.evaluate(frame), abs=1e-15)


def test_evaluator_xgboost_preset_cuts_at_32_without_k(spark):
    from sklearn_ndcg.spark import NDCGEvaluator

    qid, label, score = _long_queries(1)
    assert np.bincount(qid).max() > 32
    frame = spark.createDataFrame(
        [(int(q), float(y), float(s)) for q, y, s in zip(qid, label, score)],
        "qid long, label double, prediction double",
    )
    evaluator = NDCGEvaluator(**CONVENTIONS["xgboost"])
    assert evaluator.getOrDefault("k") == 32
    expected = sklearn_ndcg.ndcg_score(label, score, qid=qid, k=32, **CONVENTIONS["xgboost"])
    assert evaluator.evaluate(frame) == pytest.approx(expected, abs=1e-12)


def test_evaluator_zero_division_names(spark):
    from sklearn_ndcg.spark import NDCGEvaluator

    assert NDCGEvaluator(zero_division=1.0).getOrDefault("zeroDivision") == 1.0
    assert NDCGEvaluator().setParams(zero_division=1.0).getOrDefault("zeroDivision") == 1.0
    with pytest.raises(ValueError, match="zeroDivision and zero_division"):
        NDCGEvaluator(zeroDivision=1.0, zero_division=0.0)
    with pytest.raises(TypeError, match="gain of a preset of CONVENTIONS"):
        NDCGEvaluator(gain=np.sqrt)
