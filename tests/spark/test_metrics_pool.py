"""sklearn_ndcg.spark with a judgment pool given as a Spark DataFrame of qrels.

Reference: the in-memory engine with the labels looked up by hand (a dict from
(query, document) to label, NaN where not judged) and ``JudgmentPool`` of the qrels.
"""

import numpy as np
import pytest
from _spark_session import collect_each

import sklearn_ndcg
from sklearn_ndcg import JudgmentPool
from sklearn_ndcg import spark as ndcg_spark

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)


def _run_and_qrels(seed, string_ids):
    """A run (ranked documents) and qrels: unjudged ranked documents, judged documents
    not retrieved, queries of the qrels without results, queries of the run without
    judgments."""
    rng = np.random.default_rng(seed)
    n_queries = 20
    ids = [f"q{i}" if string_ids else 3 * i - 20 for i in range(n_queries)]
    run, qrels = [], []
    for i, q in enumerate(ids):
        docs = [f"d{j}" for j in rng.permutation(15)[: rng.integers(4, 15)]]
        ranked = docs[: max(1, len(docs) - 3)] if i < 17 else []  # 17.. not in the run
        for d in ranked:
            run.append((q, d, float(rng.integers(0, 4) / 2)))
        if i in (15, 16):
            continue  # queries of the run without judgments
        for d in docs:
            if rng.random() < 0.75:  # the rest is unjudged
                qrels.append((q, d, float(rng.integers(0, 3))))
    order = rng.permutation(len(run))
    return [run[i] for i in order], qrels


def _qid_dtype(run):
    return object if isinstance(run[0][0], str) else np.int64


def _memory(run, qrels):
    label = {(q, d): y for q, d, y in qrels}
    return {
        "y_true": np.array([label.get((q, d), np.nan) for q, d, _ in run]),
        "y_score": np.array([s for _, _, s in run]),
        "qid": np.array([q for q, _, _ in run], dtype=_qid_dtype(run)),
        "pool": JudgmentPool([q for q, _, _ in qrels], [y for _, _, y in qrels]),
    }


@pytest.mark.parametrize(("string_ids", "partitions"), [(True, 1), (False, 2), (True, 6)])
def test_pool_equals_memory(spark, string_ids, partitions):
    run, qrels = _run_and_qrels(partitions, string_ids)
    qid_type = "string" if string_ids else "bigint"
    frame = spark.createDataFrame(
        spark.sparkContext.parallelize(run, partitions),
        f"qid {qid_type}, docno string, score double",
    )
    pool = spark.createDataFrame(qrels, f"qid {qid_type}, docno string, label double")
    memory = _memory(run, qrels)
    option_sets = (
        {},
        {"k": 5, "gain": "exponential"},
        {"unjudged": "drop", "ties": "first"},
        {"missing_queries": "zero", "ties": "pessimistic"},
        {"missing_queries": "zero", "unjudged": "drop", "normalize": "minmax", "k": 3},
    )
    # every option set's per-query frame in one Spark job
    per_query = collect_each([ndcg_spark.query_scores(frame, pool=pool, **o) for o in option_sets])
    for options, got in zip(option_sets, per_query):
        expected = sklearn_ndcg.query_scores(**memory, **options)
        got = sorted(got)
        assert [row["qid"] for row in got] == list(expected.qid), options
        np.testing.assert_allclose(
            [row["score"] for row in got], expected.score, rtol=0, atol=1e-12, err_msg=str(options)
        )
        np.testing.assert_allclose(
            ndcg_spark.ndcg_score(frame, pool=pool, **options),
            sklearn_ndcg.ndcg_score(**memory, **options),
            rtol=0,
            atol=1e-12,
        )
    np.testing.assert_allclose(
        ndcg_spark.dcg_score(frame, pool=pool, k=4),
        sklearn_ndcg.dcg_score(**memory, k=4),
        rtol=1e-13,
    )


def test_a_pool_adds_no_second_exchange(spark):
    run, qrels = _run_and_qrels(0, True)
    frame = spark.createDataFrame(run, "qid string, docno string, score double")
    pool = spark.createDataFrame(qrels, "qid string, docno string, label double")
    plan = _physical_plan(ndcg_spark.query_scores(frame, pool=pool))
    assert plan.count("Exchange hashpartitioning") == 1, plan


def _physical_plan(frame) -> str:
    return frame._jdf.queryExecution().executedPlan().toString()


def test_a_query_judged_twice_is_refused(spark):
    frame = spark.createDataFrame([("a", "d1", 1.0)], "qid string, docno string, score double")
    pool = spark.createDataFrame(
        [("a", "d1", 1.0), ("a", "d1", 2.0)], "qid string, docno string, label double"
    )
    with pytest.raises(Exception, match="more than once"):
        ndcg_spark.ndcg_score(frame, pool=pool)


def test_partitions_without_a_judged_query(spark):
    """A partition may hold ranked queries and judged queries that do not meet; the
    reference is the in-memory engine, which leaves the unjudged query out."""
    run = [("a", "d1", 1.0), ("a", "d2", 0.5), ("b", "d1", 0.3)]
    qrels = [("b", "d1", 1.0), ("c", "d1", 2.0)]
    frame = spark.createDataFrame(run, "qid string, docno string, score double").coalesce(1)
    pool = spark.createDataFrame(qrels, "qid string, docno string, label double")
    memory = _memory(run, qrels)
    for options in ({}, {"missing_queries": "zero"}):
        expected = sklearn_ndcg.query_scores(**memory, **options)
        got = sorted(ndcg_spark.query_scores(frame, pool=pool, **options).collect())
        assert [row["qid"] for row in got] == list(expected.qid)
        np.testing.assert_allclose([row["score"] for row in got], expected.score, atol=1e-12)
    none_judged = spark.createDataFrame(
        [("z", "d1", 1.0)], "qid string, docno string, score double"
    )
    with pytest.raises(ValueError, match="no query of frame is in the pool"):
        ndcg_spark.ndcg_score(none_judged, pool=pool)
