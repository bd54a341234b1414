"""sklearn_ndcg.spark.evaluate_run: a run and its qrels as Spark DataFrames.

Reference: the in-memory ``sklearn_ndcg.evaluate_run`` on the same rows (itself equal to
NIST's trec_eval in tests/common/test_trec_parity.py, and behind the ``trec-eval``
command), per query and in the mean, to 1e-12.
"""

import numpy as np
import pytest
from _spark_session import collect_each

import sklearn_ndcg
from sklearn_ndcg import positive_part_gain
from sklearn_ndcg import spark as ndcg_spark


def _run_and_qrels(seed, int_ids=False):
    rng = np.random.default_rng(seed)
    run, qrels = [], []
    for i in range(24):
        q = 100 + i if int_ids else f"q{i}"
        docs = [f"d{j}" for j in rng.permutation(20)[: rng.integers(3, 16)]]
        if i < 21:  # the last three queries are judged but not in the run
            for d in docs[:-2]:
                run.append((q, d, float(rng.integers(0, 5))))  # heavy ties
        if i in (18, 19):
            continue  # in the run, not judged
        for d in docs:
            if rng.random() < 0.7:
                qrels.append((q, d, int(rng.integers(-1, 3))))  # negative levels too
    order = rng.permutation(len(run))
    return [run[i] for i in order], qrels


def _columns(rows):
    return tuple(list(column) for column in zip(*rows))


@pytest.mark.parametrize(("int_ids", "partitions"), [(False, 1), (True, 3), (False, 5)])
def test_evaluate_run_equals_memory(spark, int_ids, partitions):
    run, qrels = _run_and_qrels(partitions, int_ids)
    id_type = "bigint" if int_ids else "string"
    run_frame = spark.createDataFrame(
        spark.sparkContext.parallelize(run, partitions),
        f"qid {id_type}, docno string, score double",
    )
    qrels_frame = spark.createDataFrame(qrels, f"qid {id_type}, docno string, relevance int")
    in_memory = (
        tuple(
            np.array([str(v) for v in c]) if i < 2 else np.array(c)
            for i, c in enumerate(_columns(run_frame.collect()))
        ),
        tuple(
            np.array([str(v) for v in c]) if i < 2 else np.array(c)
            for i, c in enumerate(_columns(qrels))
        ),
    )
    option_sets = [
        {"gain": positive_part_gain, **options}
        for options in (
            {"ties": "docno"},
            {"ties": "docno", "k": 5, "unjudged": "drop"},
            {"ties": "first", "missing_queries": "zero", "k": 10},
            {"ties": "average", "metric": "dcg", "k": 3},
            {"ties": "pessimistic", "normalize": "minmax"},
        )
    ]
    results = [ndcg_spark.evaluate_run(run_frame, qrels_frame, **o) for o in option_sets]
    # every option set's per-query frame in one Spark job
    per_query = collect_each([result.per_query for result in results])
    for options, got, got_rows in zip(option_sets, results, per_query):
        expected = sklearn_ndcg.evaluate_run(*in_memory, **options)
        assert abs(got.score - expected.score) < 1e-12, options
        rows = sorted(got_rows)
        assert [row["qid"] for row in rows] == list(expected.per_query.qid), options
        np.testing.assert_allclose(
            [row["score"] for row in rows], expected.per_query.score, rtol=0, atol=1e-12
        )


def test_evaluate_run_refuses_as_memory(spark):
    run = spark.createDataFrame([("q1", "d1", 1.0)], "qid string, docno string, score double")
    rows = [("q2", "d1", -2), ("q1", "d1", -1), ("q1", "d2", 1)]
    qrels = spark.createDataFrame(rows, "qid string, docno string, relevance int")
    # a frame's rows have no order: the count, the lowest level and the smallest query id
    negative = sorted(row for row in rows if row[2] < 0)
    message = (
        rf"negative relevance labels \(min -2\) in {len(negative)} row\(s\), e.g. of query "
        rf"'{negative[0][0]}'; gain=\"linear\" does not accept them"
    )
    with pytest.raises(ValueError, match=message):
        ndcg_spark.evaluate_run(run, qrels)
    other = spark.createDataFrame([("q9", "d1", 1)], "qid string, docno string, relevance int")
    with pytest.raises(ValueError, match="no query of the run is in the qrels"):
        ndcg_spark.evaluate_run(run, other)
    twice = spark.createDataFrame(
        [("q1", "d1", 1.0), ("q1", "d1", 2.0)], "qid string, docno string, score double"
    )
    with pytest.raises(Exception, match="more than once"):
        ndcg_spark.evaluate_run(twice, qrels, gain=positive_part_gain)
    with pytest.raises(ValueError, match="y_true='relevance' is not a column of qrels"):
        ndcg_spark.evaluate_run(run, run)


def test_evaluate_run_example(spark):
    run = spark.createDataFrame(
        [("q1", "d1", 2.0), ("q1", "d2", 1.0), ("q2", "d3", 5.0)],
        "qid string, docno string, score double",
    )
    qrels = spark.createDataFrame(
        [("q1", "d1", 0), ("q1", "d2", 1), ("q1", "d4", 2), ("q2", "d3", 1)],
        "qid string, docno string, relevance int",
    )
    assert round(ndcg_spark.evaluate_run(run, qrels).score, 4) == 0.6199
    # the in-memory docstring example (q1: DCG 1/log2(3), ideal 2 + 1/log2(3))
    by_hand = ((1 / np.log2(3)) / (2 + 1 / np.log2(3)) + 1.0) / 2
    assert round(by_hand, 4) == 0.6199
