"""sklearn_ndcg.spark: ndcg_score, dcg_score and query_scores of a Spark DataFrame.

The reference is the in-memory engine on the same rows (``sklearn_ndcg.query_scores``,
itself checked against scikit-learn and exact references in tests/metrics/): every
per-query value and every mean agrees to 1e-12, for 1, 2 and many partitions, with the
queries split over partitions or not, in any row order.
"""

import numpy as np
import pytest
from _spark_session import collect_each

import sklearn_ndcg
from sklearn_ndcg import spark as ndcg_spark

pytestmark = pytest.mark.filterwarnings(
    "ignore:PySpark does not yet fully support pandas:FutureWarning"
)


def _ids(kind, n, rng):
    base = rng.choice(np.arange(1, 10 * n), size=n, replace=False)
    if kind == "string":
        return [f"q{v:03d}" for v in base]
    if kind == "bigint":
        return [int(v) + 2**62 for v in base]  # beyond float64's exact integers
    return [int(v) - 5 * n for v in base]  # negative and positive


def _random_rows(seed, kind="int", n_queries=25, with_docno=False):
    """Ragged queries (1 to 12 documents), heavy ties, queries without relevant document."""
    rng = np.random.default_rng(seed)
    ids = _ids(kind, n_queries, rng)
    sizes = rng.integers(1, 13, size=n_queries)
    sizes[0] = 1
    qid = [ids[i] for i in range(n_queries) for _ in range(sizes[i])]
    n = len(qid)
    label = rng.integers(0, 4, size=n).astype(float)
    label[: sizes[0] + sizes[1]] = 0.0  # two queries without relevant document
    score = rng.integers(0, 4, size=n) / 2.0  # heavy ties
    weight_of = {q: float(w) for q, w in zip(ids, rng.integers(1, 5, size=n_queries))}
    weight = [weight_of[q] for q in qid]
    document_weight = rng.uniform(0.5, 2.0, size=n)
    order = rng.permutation(n)  # any row order
    columns = {
        "qid": [qid[i] for i in order],
        "label": label[order],
        "score": score[order],
        "w": [weight[i] for i in order],
        "dw": document_weight[order],
    }
    if with_docno:
        columns["docno"] = [f"d{i}" for i in order]
    return columns


def _frame(spark, columns, qid_type, partitions, by_query=False):
    names = list(columns)
    types = {"qid": qid_type, "docno": "string"}
    schema = ", ".join(f"{name} {types.get(name, 'double')}" for name in names)
    rows = [
        tuple(v.item() if hasattr(v, "item") else v for v in row) for row in zip(*columns.values())
    ]
    if by_query:  # hash-partitioned by query: scored without an exchange
        return spark.createDataFrame(rows, schema).repartition(partitions, "qid")
    # the rows in this order, cut into `partitions` slices: queries split over partitions
    return spark.createDataFrame(spark.sparkContext.parallelize(rows, partitions), schema)


def _collected(frame, names):
    """The frame's rows in its own order (the input order for ties="first")."""
    rows = frame.collect()
    return {name: [row[name] for row in rows] for name in names}


def _as_memory(columns):
    return {
        "y_true": np.asarray(columns["label"], dtype=float),
        "y_score": np.asarray(columns["score"], dtype=float),
        "qid": np.asarray(columns["qid"], dtype=object)
        if isinstance(columns["qid"][0], str)
        else np.asarray(columns["qid"], dtype=np.int64),
    }


OPTION_SETS = [
    {},
    {"k": 3, "gain": "exponential"},
    {"ties": "first", "discount": "reciprocal"},
    {"ties": "optimistic", "zero_division": 1.0, "k": 5},
    {"ties": "pessimistic", "normalize": "minmax"},
    {"zero_division": np.nan, "gain": {0: 0.0, 1: 1.0, 2: 3.0, 3: 7.0}},
    {"gain": [0.0, 1.0, 3.0, 7.0], "discount": lambda r: 1.0 / r**2},
    {"sample_weight": "w"},
    {"document_weight": "dw", "k": 4},
]


@pytest.mark.parametrize(
    ("kind", "partitions", "by_query"),
    [("int", 1, False), ("string", 2, False), ("bigint", 7, False), ("string", 3, True)],
)
def test_query_scores_equal_memory(spark, kind, partitions, by_query):
    columns = _random_rows(hash((kind, partitions, by_query)) % 1000, kind)
    qid_type = {"string": "string", "int": "int", "bigint": "bigint"}[kind]
    frame = _frame(spark, columns, qid_type, partitions, by_query)
    seen = _collected(frame, list(columns))
    memory = _as_memory(seen)
    # every option set's per-query frame in one Spark job
    per_query = collect_each([ndcg_spark.query_scores(frame, **o) for o in OPTION_SETS])
    for options, got in zip(OPTION_SETS, per_query):
        memory_options = dict(options)
        for name, column in (("sample_weight", "w"), ("document_weight", "dw")):
            if name in options:
                memory_options[name] = np.asarray(seen[column], dtype=float)
        expected = sklearn_ndcg.query_scores(**memory, **memory_options)
        got = sorted(got, key=lambda row: row["qid"])
        assert [row["qid"] for row in got] == list(expected.qid), options
        np.testing.assert_allclose(
            [row["score"] for row in got], expected.score, rtol=0, atol=1e-12, err_msg=str(options)
        )
        np.testing.assert_array_equal([row["weight"] for row in got], expected.weight)
        mean = ndcg_spark.ndcg_score(frame, **options)
        expected_mean = sklearn_ndcg.ndcg_score(**memory, **memory_options)
        np.testing.assert_allclose(mean, expected_mean, rtol=0, atol=1e-12, err_msg=str(options))


@pytest.mark.parametrize("partitions", [1, 2, 5])
def test_dcg_equals_memory(spark, partitions):
    columns = _random_rows(partitions, "string")
    frame = _frame(spark, columns, "string", partitions)
    memory = _as_memory(_collected(frame, list(columns)))
    option_sets = ({}, {"k": 2, "log_base": 10.0}, {"ties": "first", "gain": "exponential"})
    per_query = collect_each(
        [ndcg_spark.query_scores(frame, metric="dcg", **o) for o in option_sets]
    )
    for options, got in zip(option_sets, per_query):
        np.testing.assert_allclose(
            ndcg_spark.dcg_score(frame, **options),
            sklearn_ndcg.dcg_score(**memory, **options),
            rtol=1e-13,
            atol=1e-12,
        )
        expected = sklearn_ndcg.query_scores(**memory, metric="dcg", **options)
        got = sorted(got)
        assert [row["qid"] for row in got] == list(expected.qid)
        np.testing.assert_allclose([row["score"] for row in got], expected.score, rtol=1e-13)
