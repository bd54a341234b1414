"""Errors for bad values name the first offending row and its query, and count the bad
rows, with the same message in memory, over Dask and over Spark (issue 37, item 6).

Bad values: labels a gain refuses (negative labels under a built-in gain, labels that
overflow the exponential gain, labels missing from a mapping, beyond a sequence or not
integers for it, labels a callable maps to NaN), negative or missing weights. The
reference row, query and count of each case are computed here from the data with the
predicate the documentation states (e.g. ``np.flatnonzero(labels < 0)``), not read
from the package; the in-memory message is the reference of the Dask and Spark ones,
whose partitions are numbered through (rows of the whole frame, in its order).
"""

import numpy as np
import pytest
from _spark_session import SPARK_WARNINGS

import sklearn_ndcg

# four queries of six documents, ids not equal to their positions; one weight per query
QID = np.repeat([11, 12, 13, 14], 6)
LABEL = np.tile([0.0, 1.0, 2.0, 0.0, 1.0, 2.0], 4)
SCORE = np.arange(24.0)[::-1] / 10
WEIGHT = np.repeat([1.0, 2.0, 3.0, 4.0], 6)


def _data(label=None, w=None):
    """The base columns with some rows of the labels or weights replaced."""
    data = {"qid": QID, "label": LABEL.copy(), "score": SCORE, "w": WEIGHT.copy()}
    for column, changes in (("label", label), ("w", w)):
        for row, value in (changes or {}).items():
            data[column][row] = value
    return data


def _query_rows(query, value):
    return {int(row): value for row in np.flatnonzero(QID == query)}


# (id, data, options, the argument the error names, the predicate of the refused rows)
CASES = [
    (
        "negative-labels-linear",
        _data(label={5: -1.0, 9: -2.0, 20: -1.0}),
        {},
        "y_true",
        lambda d: d["label"] < 0,
    ),
    (
        "negative-labels-exponential",
        _data(label={8: -1.0, 21: -3.0}),
        {"gain": "exponential"},
        "y_true",
        lambda d: d["label"] < 0,
    ),
    (
        "labels-overflowing-exponential",  # 2**label - 1 is finite for labels below 1024
        _data(label={3: 1500.0, 17: 1024.0, 22: 2000.0}),
        {"gain": "exponential"},
        "gain",
        lambda d: d["label"] >= 1024,
    ),
    (
        "labels-missing-from-mapping",
        _data(label={7: 5.0, 19: 4.0, 23: 5.0}),
        {"gain": {0: 0.0, 1: 1.0, 2: 3.0}},
        "gain",
        lambda d: ~np.isin(d["label"], [0.0, 1.0, 2.0]),
    ),
    (
        "labels-beyond-sequence",
        _data(label={10: 3.0, 14: 4.0}),
        {"gain": [0.0, 1.0, 3.0]},
        "gain",
        lambda d: d["label"] >= 3,
    ),
    (
        # in memory the non-integer labels are refused first, though the too large one
        # comes earlier in the frame (and so in another partition)
        "non-integer-labels-after-too-large-one",
        _data(label={2: 9.0, 16: 1.5, 18: 0.5}),
        {"gain": [0.0, 1.0, 3.0]},
        "gain",
        lambda d: d["label"] != np.round(d["label"]),
    ),
    (
        "labels-a-callable-maps-to-nan",
        _data(label={4: 3.0, 13: 3.0, 15: 4.0}),
        # a lambda: Spark's workers get it by value (they cannot import this module)
        {"gain": lambda y: np.where(y > 2, np.nan, y)},
        "gain",
        lambda d: d["label"] > 2,
    ),
    (
        "negative-weights",
        _data(w={**_query_rows(12, -1.0), **_query_rows(14, -2.0)}),
        {"sample_weight": "w"},
        "sample_weight",
        lambda d: d["w"] < 0,
    ),
    (
        # in memory missing weights are refused first, though negative ones come
        # earlier in the frame
        "missing-weights-after-negative-ones",
        _data(w={**_query_rows(12, -1.0), **_query_rows(14, np.nan)}),
        {"sample_weight": "w"},
        "sample_weight",
        lambda d: np.isnan(d["w"]),
    ),
]
IDS = [case[0] for case in CASES]
# labels under a gain (one kind, and two kinds in two partitions), weights (two kinds)
SPARK_CASES = {
    "negative-labels-linear",
    "labels-missing-from-mapping",
    "non-integer-labels-after-too-large-one",
    "missing-weights-after-negative-ones",
}


def _memory(data, options):
    """The in-memory error; weights are given as the columns of data that they name."""
    options = dict(options)
    for name in ("sample_weight", "document_weight"):
        if name in options:
            options[name] = data[options[name]]
    with pytest.raises(ValueError) as info:
        sklearn_ndcg.ndcg_score(data["label"], data["score"], qid=data["qid"], **options)
    return str(info.value)


@pytest.mark.parametrize("case, data, options, name, refused", CASES, ids=IDS)
def test_memory_names_the_first_row_its_query_and_the_count(case, data, options, name, refused):
    before = {column: values.copy() for column, values in data.items()}
    message = _memory(data, options)
    rows = np.flatnonzero(refused(data))
    shown = ", ".join(str(row) for row in rows[:5]) + (", ..." if rows.size > 5 else "")
    assert message.startswith(name), message
    assert f" at {rows.size} position(s) of the flattened input (e.g. {shown})" in message
    assert f"; the first is in row {rows[0]}, of query {data['qid'][rows[0]]}" in message
    for column, values in data.items():  # the input is not changed
        np.testing.assert_array_equal(values, before[column])


def test_two_d_input_names_the_query_and_document():
    labels = np.array([[1.0, 0.0, 2.0], [0.0, -1.0, -2.0]])
    message = str(
        pytest.raises(ValueError, sklearn_ndcg.ndcg_score, labels, [[1, 2, 3], [3, 2, 1]]).value
    )
    query, document = np.argwhere(labels < 0)[0]
    assert message.startswith("y_true has negative relevance labels (min -2) at 2 position(s)")
    assert f"the first is in query (row) {query}, document {document};" in message
    weights = np.array([[1.0, 1.0, 1.0], [1.0, 1.0, -0.5]])
    message = str(
        pytest.raises(
            ValueError,
            sklearn_ndcg.ndcg_score,
            [[1, 0, 2], [0, 1, 2]],
            [[1, 2, 3], [3, 2, 1]],
            document_weight=weights,
        ).value
    )
    query, document = np.argwhere(weights < 0)[0]
    assert message.startswith("document_weight has negative values at 1 position(s)")
    assert f"the first is in query (row) {query}, document {document};" in message


def test_document_weight_of_long_format_names_its_query():
    weights = np.ones(24)
    weights[[13, 20]] = -1.0
    message = str(
        pytest.raises(
            ValueError,
            sklearn_ndcg.ndcg_score,
            LABEL,
            SCORE,
            qid=QID.astype(str),
            document_weight=weights,
        ).value
    )
    first = np.flatnonzero(weights < 0)[0]
    assert (
        "document_weight has negative values at 2 position(s) of the flattened input (e.g. "
        "13, 20)" in message
    )
    assert f"row {first}, of query '{QID[first]}'; weights must be >= 0." in message


@pytest.mark.parametrize("npartitions", [1, 3])
@pytest.mark.parametrize("case, data, options, name, refused", CASES, ids=IDS)
def test_dask_gives_the_in_memory_message(case, data, options, name, refused, npartitions):
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from sklearn_ndcg import dask as ndcg_dask

    expected = _memory(data, options)
    frame = dd.from_pandas(pd.DataFrame(data), npartitions=npartitions, sort=False)
    assert frame.npartitions == npartitions
    with dask.config.set(scheduler="synchronous"), pytest.raises(ValueError) as info:
        ndcg_dask.ndcg_score(frame, **options)
    assert str(info.value) == expected


@pytest.mark.filterwarnings(*SPARK_WARNINGS)
def test_spark_gives_the_in_memory_message(spark):
    """One case of each way of locating, over one and three partitions (frames in the
    list's order): the other cases run the same code (Spark costs seconds per call)."""
    from sklearn_ndcg import spark as ndcg_spark

    failures = []
    cases = [case for case in CASES if case[0] in SPARK_CASES] + [_document_weight_case()]
    assert len(cases) == len(SPARK_CASES) + 1
    for case, data, options, _, _ in cases:
        expected = _memory(data, options)
        columns = ["qid", "label", "score", "w", "dw"]
        rows = [
            tuple(int(v) if c == "qid" else float(v) for c, v in zip(columns, values))
            for values in zip(*(data.get(c, np.ones(24)) for c in columns))
        ]
        for n in (1, 3):
            frame = spark.createDataFrame(
                spark.sparkContext.parallelize(rows, n),
                "qid long, label double, score double, w double, dw double",
            )
            assert frame.rdd.getNumPartitions() == n
            try:
                ndcg_spark.ndcg_score(frame, **options)
                failures.append(f"{case}, {n} partitions: no error")
            except ValueError as error:
                if str(error) != expected:
                    failures.append(f"{case}, {n} partitions:\n{error}\n!=\n{expected}")
    assert not failures, "\n\n".join(failures)


def _document_weight_case():
    """Negative document weights: Spark and the in-memory function take them (not Dask)."""
    data = _data()
    data["dw"] = np.ones(24)
    data["dw"][[9, 17, 18]] = -1.0
    return ("negative-document-weights", data, {"document_weight": "dw"}, None, None)


def test_memory_document_weight_case():
    """The reference of the Spark case above, against the data."""
    _, data, _, _, _ = _document_weight_case()
    message = str(
        pytest.raises(
            ValueError,
            sklearn_ndcg.ndcg_score,
            data["label"],
            data["score"],
            qid=data["qid"],
            document_weight=data["dw"],
        ).value
    )
    first = np.flatnonzero(data["dw"] < 0)[0]
    assert "at 3 position(s) of the flattened input (e.g. 9, 17, 18)" in message
    assert f"the first is in row {first}, of query {data['qid'][first]};" in message


@pytest.mark.parametrize("ignore_ties", [False, True])
def test_two_d_position_is_the_input_s_under_scikit_learn_s_layout(ignore_ties):
    """``ignore_ties=True`` lays each row out in scikit-learn's order before the gains;
    the message still names the document where the user put it."""
    labels = np.array([[1.0, 0.0, 2.0], [-1.0, 0.0, 3.0]])
    scores = [[1.0, 2.0, 3.0], [1.0, 2.0, 3.0]]
    message = str(
        pytest.raises(
            ValueError, sklearn_ndcg.ndcg_score, labels, scores, ignore_ties=ignore_ties
        ).value
    )
    query, document = np.argwhere(labels < 0)[0]
    assert f"(e.g. {query * 3 + document}); the first is in query (row) {query}, " in message
    assert f"document {document};" in message
