"""Tests of the grouping of rows into queries and the blocks in _queries.py."""

import sys

import numpy as np
import pytest

from sklearn_ndcg._engine import _queries
from sklearn_ndcg._engine._queries import (
    Queries,
    _bucket_widths,
    _integer_key,
    _stable_order,
    block_columns,
    blocks,
    group_queries,
    query_weights,
    rows_by_query,
    take,
)

QID = np.array([30, 10, 30, 20, 10, 30])


def test_group_queries_long_format():
    queries = group_queries(QID, None)
    np.testing.assert_array_equal(queries.ids, [10, 20, 30])
    np.testing.assert_array_equal(queries.sizes, [2, 1, 3])
    np.testing.assert_array_equal(queries.starts, [0, 2, 3])
    # hand: rows of query 10 (1, 4), of 20 (3), of 30 (0, 2, 5), input order within
    np.testing.assert_array_equal(queries.order, [1, 4, 3, 0, 2, 5])


def test_interleaved_ids_without_an_integer_key():
    # strings: ids by np.unique, rows by their codes; hand: "a" at rows 1 and 4,
    # "b" at 0 and 2, "c" at 3
    queries = group_queries(np.array(["b", "a", "b", "c", "a"]), None)
    assert queries.ids.tolist() == ["a", "b", "c"]
    np.testing.assert_array_equal(queries.sizes, [2, 2, 1])
    np.testing.assert_array_equal(queries.order, [1, 4, 0, 2, 3])


def test_contiguous_queries_are_not_sorted():
    # rows already grouped, queries not in id order: no permutation is made
    queries = group_queries(np.array(["b"] * 4 + ["a"] * 3 + ["c"] * 5), None)
    assert queries.order is None
    assert queries.ids.tolist() == ["a", "b", "c"]
    np.testing.assert_array_equal(queries.sizes, [3, 4, 5])
    np.testing.assert_array_equal(queries.starts, [4, 0, 7])
    np.testing.assert_array_equal(rows_by_query(queries), [4, 5, 6, 0, 1, 2, 3, *range(7, 12)])


def test_group_queries_2d():
    queries = group_queries(None, (3, 4))
    np.testing.assert_array_equal(queries.ids, [0, 1, 2])
    np.testing.assert_array_equal(queries.sizes, [4, 4, 4])
    np.testing.assert_array_equal(queries.starts, [0, 4, 8])
    assert queries.order is None and queries.shape == (3, 4)


def test_group_queries_mixed_types():
    with pytest.raises(TypeError, match="qid mixes values"):
        group_queries(np.array([1, "a", 1], dtype=object), None)


@pytest.mark.parametrize(
    "qid",
    [
        np.array([30, 10, 30, 20, 10, 30]),  # a small range
        np.array([3 * 10**12, 10, 3 * 10**12, -(10**15), 10, 3 * 10**12]),  # a wide one
        np.array([30, 10, 30, 20, 10, 30], dtype=np.uint64),
        np.array([-3, -10, -3, -5, -10, -3], dtype=np.int8),
    ],
)
def test_group_queries_integer_ids(qid):
    queries = group_queries(qid, None)
    # hand: ids in increasing order; each query's rows in input order
    expected_ids = np.array(sorted(set(qid.tolist())))
    np.testing.assert_array_equal(queries.ids, expected_ids)
    assert queries.ids.dtype == qid.dtype
    np.testing.assert_array_equal(queries.sizes, [qid.tolist().count(i) for i in expected_ids])
    expected_rows = [i for q in expected_ids for i, v in enumerate(qid) if v == q]
    np.testing.assert_array_equal(rows_by_query(queries), expected_rows)


def test_query_weights():
    queries = group_queries(QID, None)
    weight = np.array([3.0, 1.0, 3.0, 2.0, 1.0, 3.0])
    np.testing.assert_array_equal(query_weights(weight, queries), [1, 2, 3])
    assert query_weights(None, queries) is None
    with pytest.raises(ValueError, match=r"varies within the queries \[10\]"):
        query_weights(np.array([3.0, 1.0, 3.0, 2.0, 1.5, 3.0]), queries)


def _cells(queries: Queries, values: np.ndarray, max_cells: int) -> dict:
    """{query index: its values as laid out in its block, padding left out}."""
    found = {}
    queries, values = block_columns(queries, values)
    for block in blocks(queries, max_cells):
        laid_out = take(values, block, queries.shape, -1.0, block.padding())
        indices = np.arange(queries.ids.shape[0])[block.queries]
        for row, query in enumerate(indices):
            size = block.sizes[row]
            assert (laid_out[row, size:] == -1.0).all()  # padding holds the fill
            found[int(query)] = laid_out[row, :size].tolist()
    return found


@pytest.mark.parametrize("max_cells", [1, 7, 2**16])  # chunks of one query, some, all
@pytest.mark.parametrize("n_queries", [3, 60])  # exact widths; shared buckets
def test_blocks_hold_every_query_once_in_input_order(max_cells, n_queries):
    rng = np.random.default_rng(n_queries)
    qid = rng.permutation(np.repeat(np.arange(n_queries), np.arange(1, n_queries + 1)))
    values = np.arange(qid.shape[0], dtype=float)  # a row's value is its input position
    queries = group_queries(qid, None)
    found = _cells(queries, values, max_cells)
    assert sorted(found) == list(range(n_queries))
    for query in range(n_queries):
        assert found[query] == np.flatnonzero(qid == query).tolist()


def test_blocks_of_2d_input_are_its_rows():
    queries = group_queries(None, (5, 3))
    values = np.arange(15.0)
    found = _cells(queries, values, 6)  # two rows per chunk
    assert found == {q: [3.0 * q, 3.0 * q + 1, 3.0 * q + 2] for q in range(5)}


@pytest.mark.parametrize(
    "ids",
    [
        np.array([2**63 - 1, -(2**63), 0, 5, -1, 5, 2**63 - 1], dtype=np.int64),
        np.array([2**64 - 1, 0, 2**63, 7, 2**63], dtype=np.uint64),
        np.array([1.5, -0.0, 0.0, np.inf, -2.0, 1.5]),
        np.array([3, -128, 127, 3], dtype=np.int8),
        np.array([True, False, True]),
        np.array(["2026-01-02", "2025-12-31", "2026-01-02"], dtype="datetime64[ns]"),
    ],
    ids=["int64_extremes", "uint64_high", "float_signed_zero", "int8", "bool", "datetime"],
)
def test_numeric_ids_group_as_numpy_unique_sorts_them(ids):
    """Interleaved numeric ids, sorted by an integer key (without np.unique's copies,
    issue 13's memory), give the queries np.unique gives, rows in input order."""
    queries = group_queries(ids, None)
    expected_ids, counts = np.unique(ids, return_counts=True)
    np.testing.assert_array_equal(queries.ids, expected_ids)
    np.testing.assert_array_equal(queries.sizes, counts)
    np.testing.assert_array_equal(queries.order, np.argsort(ids, kind="stable"))


def test_fixed_length_lists_take_the_dense_layout():
    """Long format with contiguous queries of one size, sorted by id, is read as a
    matrix (no gathers); the values equal the same data given as 2-D input."""
    from sklearn_ndcg import query_scores

    rng = np.random.default_rng(4)
    y_true, y_score = rng.integers(0, 4, (50, 7)), rng.integers(0, 3, (50, 7))
    qid = np.repeat(np.arange(50), 7)
    assert group_queries(qid, None).layout == (50, 7)
    assert group_queries(qid[::-1].copy(), None).layout is None  # ids not in order
    assert group_queries(np.repeat(np.arange(50), [6, 8] * 25), None).layout is None
    # string ids sorted, one run each (found by their runs, not as sorted numbers)
    names = np.repeat([f"q{i:02d}" for i in range(50)], 7)
    assert group_queries(names, None).layout == (50, 7)
    assert group_queries(names[::-1].copy(), None).layout is None  # runs not in id order
    for k in (None, 3):
        long = query_scores(y_true.ravel(), y_score.ravel(), qid=qid, k=k)
        dense = query_scores(y_true, y_score, k=k)
        np.testing.assert_array_equal(long.score, dense.score)


def _interleaved_ids(dtype, low: int, high: int, seed: int = 0, n_rows: int = 3_000) -> np.ndarray:
    """Ids drawn from [low, high] of ``dtype``, rows interleaved, both ends present."""
    rng = np.random.default_rng(seed)
    native = np.dtype(dtype).newbyteorder("=")
    ids = rng.integers(low, high, n_rows, endpoint=True, dtype=native).astype(dtype)
    ids[[5, 900]] = low, high
    return ids


@pytest.mark.parametrize(
    ("dtype", "low", "high"),
    [
        (np.int8, -128, 127),  # full 8-bit range, negative ids: one byte
        (np.uint8, 0, 255),
        (np.int16, -(2**15), 2**15 - 1),
        (np.uint16, 0, 2**16 - 1),
        (np.int32, -(2**31), 2**31 - 1),  # full 32-bit range: four bytes
        (np.uint32, 0, 2**32 - 1),
        (np.int32, -70_000, 70_000),  # 18 bits: three bytes, the last one partial
        (np.int64, -(2**31), 2**31 - 1),  # 32 bits of a 64-bit dtype
        (np.int64, 10**12, 10**12 + 2**16 - 1),  # far from 0, 16 bits
        (np.uint64, 2**64 - 2**20, 2**64 - 1),  # beyond int64, 20 bits
        (np.int64, -(2**40), 2**40),  # 41 bits
        (np.int64, -(2**63), 2**63 - 1),  # hashed 64-bit ids: all eight bytes
        (np.uint64, 0, 2**64 - 1),
        (np.dtype(">i4"), -300, 300),  # the other byte order (big-endian)
        (np.dtype(">u8"), 0, 2**20),
    ],
)
@pytest.mark.parametrize("n_rows", [3_000, 20_000])  # numpy's argsort; scipy's counting sort
def test_grouping_of_interleaved_integer_ids_is_a_stable_sort(dtype, low, high, n_rows):
    # the reference: numpy's stable argsort and np.unique, whatever sort is taken
    _assert_grouped_as_a_stable_sort(_interleaved_ids(dtype, low, high, n_rows=n_rows))


def _assert_grouped_as_a_stable_sort(qid: np.ndarray) -> None:
    """The queries of ``qid`` are np.unique's, their rows in numpy's stable order."""
    before = qid.copy()
    queries = group_queries(qid, None)
    ids, counts = np.unique(qid, return_counts=True)
    np.testing.assert_array_equal(queries.ids, ids)
    assert queries.ids.dtype == qid.dtype
    np.testing.assert_array_equal(queries.sizes, counts)
    np.testing.assert_array_equal(queries.starts, np.cumsum(counts) - counts)
    np.testing.assert_array_equal(queries.order, np.argsort(qid, kind="stable"))
    np.testing.assert_array_equal(qid, before)  # the input is not changed


def _ids_of(values: np.ndarray, n_rows: int, dtype) -> np.ndarray:
    """``n_rows`` ids drawn from ``values`` (each present), rows interleaved."""
    rng = np.random.default_rng(n_rows)
    index = np.concatenate([np.arange(len(values)), rng.integers(0, len(values), n_rows)])
    return np.asarray(values)[rng.permutation(index)[:n_rows]].astype(dtype)


_FLOATS = [-3e300, -2.5, -1.0, -1e-300, -5e-324, 0.0, 5e-324, 1e-300, 0.5, 1.0, 7.0, 3e300]


@pytest.mark.parametrize(
    ("values", "dtype"),
    [
        (_FLOATS, np.float64),  # negative, subnormal, huge: sorted as numbers
        (_FLOATS[1:-1], np.float32),
        ([-2.5, -1.0, 0.0, 0.5, 7.0], np.float16),
        (_FLOATS, ">f8"),  # the other byte order
        (np.arange(300) * 0.1 - 7.0, np.float64),
        ([False, True], bool),
        (np.array(["2020-01-01", "1969-12-31", "2024-02-29T12:00"], "datetime64[m]"), "M8[m]"),
        (np.array([-5, 0, 86_400, 10**12], "timedelta64[s]"), "m8[s]"),
        (np.array(["1900-01-01", "1970-01-02", "2100-01-01"], "datetime64[D]"), ">M8[D]"),
    ],
)
@pytest.mark.parametrize("n_rows", [3_000, 20_000])  # numpy's argsort; scipy's counting sort
def test_grouping_of_floats_booleans_and_timestamps_is_a_stable_sort(values, dtype, n_rows):
    # the same reference: floats, booleans and timestamps are sorted by an integer
    # key in their order (float bits flipped to sort as unsigned integers)
    _assert_grouped_as_a_stable_sort(_ids_of(values, n_rows, dtype))


@pytest.mark.parametrize(
    "qid",
    [
        np.array(_FLOATS),
        np.array(_FLOATS[1:-1], dtype=">f4"),
        np.array([True, False, True]),
        np.array(["2026-01-02", "1969-12-31", "2026-01-02"], dtype="datetime64[ns]"),
        np.array([1, -5, 1], dtype=">m8[s]"),
    ],
)
def test_integer_key_sorts_as_the_ids(qid):
    # the key of each id: in the ids' order, equal exactly for equal ids
    key = _integer_key(qid)
    assert key.dtype.kind in "iu"
    np.testing.assert_array_equal(np.argsort(key, kind="stable"), np.argsort(qid, kind="stable"))
    np.testing.assert_array_equal(key[:, None] == key, qid[:, None] == qid)


def test_ids_without_an_integer_key():
    assert _integer_key(np.array(["a", "b"])) is None
    assert _integer_key(np.array([1.0, 2.0], dtype=np.longdouble)) is None
    assert _integer_key(np.array([1, "a"], dtype=object)) is None


def test_float_ids_minus_zero_is_zero():
    # -0.0 == 0.0: one query, its rows in input order (numpy's sort sees them equal)
    qid = np.array([0.0, 1.0, -0.0, 0.0, -0.0] * 4000)
    queries = group_queries(qid, None)
    assert queries.ids.tolist() == [0.0, 1.0] and queries.sizes.tolist() == [16_000, 4000]
    np.testing.assert_array_equal(queries.order, np.argsort(qid, kind="stable"))


@pytest.mark.parametrize("n_bits", [0, 1, 8, 9, 16, 20, 32, 33, 64])
@pytest.mark.parametrize("counting", [True, False])
def test_stable_order_is_numpys_stable_argsort(n_bits, counting, monkeypatch):
    # a byte per pass of scipy's counting sort, or numpy's argsort without it: the
    # same order, whatever the width of the keys and however many bytes they span
    if counting and _queries._scipy_counting_sort() is None:
        pytest.skip("this scipy has no counting sort the engine can use")
    if not counting:
        monkeypatch.setattr(_queries, "_scipy_counting_sort", lambda: None)
    rng = np.random.default_rng(n_bits)
    n_values = 1 << min(n_bits, 12)
    values = rng.integers(0, 2**n_bits, n_values, dtype=np.uint64, endpoint=False)
    values[:1] = 2**n_bits - 1 if n_bits else 0  # the largest key is present
    key = values[rng.integers(0, n_values, 3 * _queries._COUNTING_SORT_ROWS)]
    key = key.astype(
        next(
            t
            for t in (np.uint8, np.uint16, np.uint32, np.uint64)
            if 8 * np.dtype(t).itemsize >= n_bits
        )
    )
    expected = np.argsort(key, kind="stable")
    order, sorted_key = _stable_order(key.copy(), n_bits)
    np.testing.assert_array_equal(order, expected)
    np.testing.assert_array_equal(sorted_key, key[expected])


@pytest.mark.parametrize("layout", ["distinct", "some shared", "edges shared", "packed"])
def test_wide_keys_sorted_by_top_bits_are_numpys_stable_argsort(layout, monkeypatch):
    # keys wider than 32 bits: one pass by their top bits, then the rows of the digits
    # holding several keys sorted a byte per pass (all rows, for keys packed in their
    # low bits under equal top bits); the order is numpy's stable argsort either way
    if _queries._scipy_counting_sort() is None:
        pytest.skip("this scipy has no counting sort the engine can use")
    n_rows = 3 * _queries._COUNTING_SORT_ROWS  # a top digit of 15 bits (the row count's)
    rng = np.random.default_rng(7)
    top = rng.permutation(2**12)[:2000].astype(np.uint64)  # distinct in their top 12 bits
    values = (top << np.uint64(51)) | rng.integers(0, 2**51 - 1, 2000, dtype=np.uint64)
    if layout == "some shared":  # 40 ids share their top bits with another id
        values[1960:] = values[:40] + np.uint64(1)
    elif layout == "edges shared":  # the smallest and largest digits hold two ids each
        low, high = values.argmin(), values.argmax()
        one = np.uint64(1)
        values[:4] = [values[low] + one, values[low], values[high], values[high] - one]
    elif layout == "packed":  # two small ids in the low bits, top bits equal
        values = (rng.integers(0, 50, 2000, dtype=np.uint64) << np.uint64(20)) | rng.integers(
            0, 2000, 2000, dtype=np.uint64
        )
        values[0] = 2**63 - 1  # 63 bits in all
    key = values[rng.integers(0, values.shape[0], n_rows)]
    sorted_rows = []
    by_bytes = _queries._by_bytes
    monkeypatch.setattr(
        _queries,
        "_by_bytes",
        lambda key, *rest: sorted_rows.append(key.shape[0]) or by_bytes(key, *rest),
    )
    expected = np.argsort(key, kind="stable")
    order, sorted_key = _stable_order(key.copy(), 63)
    np.testing.assert_array_equal(order, expected)
    np.testing.assert_array_equal(sorted_key, key[expected])
    if layout == "distinct":
        assert sorted_rows == []
    elif layout == "packed":  # the sample sees ids sharing top bits: bytes from the start
        assert sorted_rows == [n_rows]
    else:
        assert len(sorted_rows) == 1 and 0 < sorted_rows[0] < n_rows // 10


@pytest.mark.parametrize(
    "ids",
    [
        "int32 spread",  # 31 bits: parts of about equal size
        "uint32 full range",  # 32 bits: offsets that need all 32 bits
        "int16 negative",  # 16 bits below zero
        "int32 skewed",  # one huge id: all other rows in the first part
        "float32",  # the bits of floats, both signs
        "uint16 codes",  # few bits: split in 4 bits, each part one byte pass
    ],
)
def test_compact_ids_split_by_top_bits_group_as_numpy(ids, monkeypatch):
    # many compact (4-byte or narrower) ids are split into 16 parts by their top
    # bits, chunk by chunk, and each part sorted alone: the queries must be those of
    # numpy's stable argsort and np.unique, whatever the parts' sizes (empty or all)
    if _queries._scipy_counting_sort() is None:
        pytest.skip("this scipy has no counting sort the engine can use")
    monkeypatch.setattr(_queries, "_SPLIT_ROWS", 2**14)
    monkeypatch.setattr(_queries, "_SPLIT_CHUNK", 2**12 + 3)  # chunks cut anywhere
    split = _queries._split_by_top_bits
    calls = []
    monkeypatch.setattr(_queries, "_split_by_top_bits", lambda *a: calls.append(1) or split(*a))
    rng = np.random.default_rng(11)
    n_rows = 3 * 2**14 + 5
    values = {
        "int32 spread": rng.integers(-(2**31), 2**31 - 1, 3000),
        "uint32 full range": np.append(rng.integers(0, 2**32, 2998), [0, 2**32 - 1]),
        "int16 negative": rng.integers(-(2**15), -1, 3000),
        "int32 skewed": np.append(rng.integers(0, 500, 2999), 2**31 - 1),
        "float32": rng.normal(size=3000) * 1e3,
        "uint16 codes": rng.integers(0, 2**16, 3000),
    }[ids]
    dtype = {"uint32 full range": np.uint32, "int16 negative": np.int16, "float32": np.float32}
    qid = values[rng.integers(0, values.shape[0], n_rows)].astype(
        dtype.get(ids, np.uint16 if ids == "uint16 codes" else np.int32)
    )
    qid_before = qid.copy()
    queries = group_queries(qid, None)
    assert calls == [1]  # the split was taken
    expected_ids, counts = np.unique(qid, return_counts=True)
    np.testing.assert_array_equal(queries.order, np.argsort(qid, kind="stable"))
    np.testing.assert_array_equal(queries.ids, expected_ids)
    np.testing.assert_array_equal(queries.sizes, counts)
    np.testing.assert_array_equal(queries.starts, np.cumsum(counts) - counts)
    np.testing.assert_array_equal(qid, qid_before)  # the input is not modified


def test_split_by_top_bits_parts_are_the_top_4_bits(monkeypatch):
    # 16 parts, part p holding the rows whose offset key (id less the smallest) has p
    # as its top 4 bits, in input order: numpy's stable argsort of those bits
    monkeypatch.setattr(_queries, "_SPLIT_CHUNK", 1000)  # chunks cut anywhere
    rng = np.random.default_rng(12)
    qid = rng.integers(-5000, 2**20 - 5000, 20_000).astype(np.int32)  # 20 bits
    qid[:2] = [-5000, 2**20 - 5001]
    top_bits = (qid.astype(np.int64) + 5000) >> 16  # by hand: 20 - 4 bits shifted out
    counting_sort = _queries._scipy_counting_sort()
    order, bounds = _queries._split_by_top_bits(qid, (-5000, 20), counting_sort)
    np.testing.assert_array_equal(order, np.argsort(top_bits, kind="stable"))
    np.testing.assert_array_equal(bounds, np.append(0, np.cumsum(np.bincount(top_bits))))
    assert bounds.shape == (17,)


@pytest.mark.parametrize(
    ("n_rows", "n_bits", "split"),
    [(2**14, 13, True), (2**14 - 1, 13, False), (2**14, 12, False)],
)
def test_split_from_split_rows_and_more_than_12_bits(n_rows, n_bits, split, monkeypatch):
    # the split starts at _SPLIT_ROWS rows of keys spanning more than 4 + 8 bits (a
    # part's keys then span more than one byte); below, the keys are sorted whole
    monkeypatch.setattr(_queries, "_SPLIT_ROWS", 2**14)
    calls = []
    real = _queries._split_by_top_bits
    monkeypatch.setattr(_queries, "_split_by_top_bits", lambda *a: calls.append(1) or real(*a))
    qid = np.random.default_rng(n_bits).integers(0, 2**n_bits, n_rows).astype(np.int32)
    qid[:2] = [0, 2**n_bits - 1]
    queries = group_queries(qid, None)
    assert calls == ([1] if split else [])
    np.testing.assert_array_equal(queries.order, np.argsort(qid, kind="stable"))


def test_wide_ids_are_not_split(monkeypatch):
    # 8-byte ids are sorted whole: each of the 16 parts would read them again
    monkeypatch.setattr(_queries, "_SPLIT_ROWS", 2**14)
    calls = []
    monkeypatch.setattr(_queries, "_split_by_top_bits", lambda *a: calls.append(1))
    qid = np.random.default_rng(0).integers(0, 2**31 - 1, 2**15)
    queries = group_queries(qid, None)
    assert calls == []
    np.testing.assert_array_equal(queries.order, np.argsort(qid, kind="stable"))


def test_counting_sort_is_taken_from_this_scipy():
    # the engine probes scipy's private counting sort on first use; if a scipy release
    # moves or changes it, the engine falls back on numpy's sort, and this test says so
    assert _queries._scipy_counting_sort() is not None


def test_counting_sort_only_where_scipy_is_loaded(monkeypatch):
    # importing scipy's sparse module for the sort costs more than the sort saves: a
    # caller that has not loaded it (the trec-eval command) gets the numpy radix sort
    pytest.importorskip("scipy.sparse")
    n_rows = _queries._COUNTING_SORT_ROWS
    assert _queries._counting_sort(n_rows) is _queries._scipy_counting_sort()
    assert _queries._counting_sort(n_rows - 1) is None  # numpy's argsort is faster
    monkeypatch.delitem(sys.modules, "scipy.sparse")
    assert _queries._counting_sort(n_rows) is None


def _radix_keys(kind, rng, n_rows):
    """Query ids of one kind, with repeats, in shuffled order."""
    n_ids = n_rows // 4
    if kind == "int32, negative":
        ids = rng.integers(-(2**31), 2**31 - 1, n_ids, endpoint=True).astype(np.int32)
        ids[:2] = [-(2**31), 2**31 - 1]  # the whole range: 32 bits
    elif kind == "int64, negative":
        ids = rng.integers(-(2**62), 2**62, n_ids)
    elif kind == "uint64, hashed":  # 64 random bits, as a hash of string ids gives
        ids = rng.integers(0, 2**64 - 1, n_ids, dtype=np.uint64, endpoint=True)
    elif kind == "float64, negative":
        ids = rng.standard_normal(n_ids) * 1e6
    elif kind == "17 bits":
        ids = rng.integers(0, 2**17, n_ids)
    else:  # 48 bits: three digits, the top one partly used
        ids = rng.integers(0, 2**48, n_ids)
    return ids[rng.integers(0, n_ids, n_rows)]


@pytest.mark.parametrize(
    "kind",
    [
        "int32, negative",
        "int64, negative",
        "uint64, hashed",
        "float64, negative",
        "17 bits",
        "48 bits",
    ],
)
def test_radix_order_is_numpys_stable_argsort(kind, monkeypatch):
    # the fallback of scipy's counting sort, numpy only: 16 bits per pass of numpy's
    # stable sort, least significant first; the order of numpy's stable argsort of the
    # ids themselves, and the grouping the same as with scipy's counting sort
    rng = np.random.default_rng(sum(map(ord, kind)))
    qid = _radix_keys(kind, rng, 3 * _queries._COUNTING_SORT_ROWS)
    expected = np.argsort(qid, kind="stable")
    key, n_bits = _queries._offsets(_integer_key(qid))
    assert n_bits > _queries._RADIX_BITS
    np.testing.assert_array_equal(_queries._radix_order(key.copy(), n_bits), expected)
    with_counting_sort = group_queries(qid, None)
    monkeypatch.setattr(_queries, "_counting_sort", lambda n_rows: None)
    calls = []
    radix = _queries._radix_order
    monkeypatch.setattr(_queries, "_radix_order", lambda *a: calls.append(1) or radix(*a))
    queries = group_queries(qid, None)
    assert calls == [1]
    np.testing.assert_array_equal(queries.order, expected)
    for field in ("ids", "sizes", "starts", "order"):
        np.testing.assert_array_equal(getattr(queries, field), getattr(with_counting_sort, field))


@pytest.mark.parametrize(
    "qid",
    [
        np.repeat([2, 5, 9], [3, 1, 4]),  # sorted runs: the fast path
        np.repeat([2.5, -1.0, 9.0], [2, 2, 2]),  # runs not in id order
        np.repeat([4, 4, 7], [1, 2, 3]),  # one id in two adjacent runs: one run
        np.array([7]),  # one row
        np.repeat(np.array([-3, 0, 2**40], dtype=np.int64), [2, 5, 1]),
        np.repeat(np.array([1, 2, 3], dtype=np.uint8), 4),  # equal sizes: dense
    ],
)
def test_grouped_runs_match_a_plain_python_grouping(qid):
    """Contiguous queries (sorted ids or not; runs long enough to be read as runs)
    against a grouping by hand: the sorted distinct ids, each query's size and
    first row, and the dense layout for equal sizes in id order."""
    qid = np.repeat(qid, 4)  # runs of 4 rows or more: the path of contiguous queries
    queries = group_queries(qid, None)
    runs = {}
    for row, value in enumerate(qid.tolist()):
        runs.setdefault(value, [row, 0])[1] += 1
    expected = sorted(runs)
    assert queries.ids.dtype == qid.dtype
    np.testing.assert_array_equal(queries.ids, expected)
    np.testing.assert_array_equal(queries.sizes, [runs[i][1] for i in expected])
    np.testing.assert_array_equal(queries.starts, [runs[i][0] for i in expected])
    assert queries.order is None
    firsts = [runs[i][0] for i in expected]
    sizes = {runs[i][1] for i in expected}
    dense = len(sizes) == 1 and firsts == sorted(firsts)
    assert queries.layout == ((len(expected), sizes.pop()) if dense else None)


def test_nan_ids_in_runs_are_each_a_query():
    # NaN never equals NaN: each NaN row is a query of its own, as np.unique has it
    qid = np.repeat([1.0, np.nan, 3.0], [8, 1, 8])
    queries = group_queries(qid, None)
    assert queries.ids.shape[0] == 3
    np.testing.assert_array_equal(queries.sizes, [8, 8, 1])
    np.testing.assert_array_equal(rows_by_query(queries), [*range(8), *range(9, 17), 8])


def test_blocks_of_the_last_queries_read_no_further_than_the_end():
    # over 32 distinct sizes share buckets: the last query (31 documents) sits in a
    # block of width 38, so its window would run past the last row; values are positions
    sizes = np.append(np.arange(40, 0, -1), 31)
    qid = np.repeat(np.arange(sizes.shape[0]), sizes)
    queries = group_queries(qid, None)
    assert int(queries.starts[-1]) > qid.shape[0] - 38  # the case this test is for
    values = np.arange(qid.shape[0], dtype=float)
    found = _cells(queries, values, 2**16)
    for query in range(sizes.shape[0]):
        assert found[query] == np.flatnonzero(qid == query).tolist()


@pytest.mark.parametrize(
    ("n_ids", "span", "rows_per_id"),
    [
        (50, 2**17, 200),  # no two ids share their low 16 bits
        (3_000, 2**20, 10),  # some ids share them
        (80_000, 2**24, 2),  # most ids share them
        (5, 2**32, 2000),  # ids far apart, long queries
    ],
)
def test_grouping_of_ids_sharing_low_digits_is_numpys_stable_argsort(n_ids, span, rows_per_id):
    # ids over several bytes (a pass each), some sharing their low 16 bits: the later
    # passes must keep the rows of each low digit apart by their high digits
    rng = np.random.default_rng(n_ids)
    ids = rng.choice(span, n_ids, replace=False).astype(np.int64) - span // 3
    ids[:2] = [-(span // 3), span - 1 - span // 3]  # the whole span
    if n_ids >= 3_000:  # ids equal in their low 16 bits, different above
        ids[2:6] = ids[2] % 2**16 + np.arange(4) * 2**16 - span // 3
        ids = np.unique(ids)
    qid = rng.permutation(np.repeat(ids, rows_per_id))
    queries = group_queries(qid, None)
    np.testing.assert_array_equal(queries.order, np.argsort(qid, kind="stable"))
    unique, counts = np.unique(qid, return_counts=True)
    np.testing.assert_array_equal(queries.ids, unique)
    np.testing.assert_array_equal(queries.sizes, counts)
    np.testing.assert_array_equal(queries.starts, np.cumsum(counts) - counts)


VALUES_AS_BYTES = np.arange(70_000) % 256.0


@pytest.mark.parametrize(
    "values",
    [
        VALUES_AS_BYTES,  # integers 0..255: read as bytes
        np.arange(70_000) % 256.0 + 0.5,  # not integers
        np.where(np.arange(70_000) == 1234, 2.5, np.arange(70_000) % 256.0),  # one is not
        np.arange(70_000) % 257.0,  # 256 does not fit a byte
        np.arange(70_000) % 256.0 - 1,  # negative
        np.arange(70_000, dtype=np.float32) % 7,  # float32 kept as it is
    ],
)
def test_block_columns_read_values_exactly(values):
    # labels 0..255 are kept as bytes and come back from take as float64 equal to
    # them; the other values are read as they are, in their own dtype
    rng = np.random.default_rng(0)
    qid = rng.integers(0, 5_000, values.shape[0])
    queries = group_queries(qid, None)
    _, column = block_columns(queries, values)
    as_bytes = values.dtype == np.float64 and column.dtype == np.uint8
    assert as_bytes == (values is VALUES_AS_BYTES)
    expected = np.split(values[np.argsort(qid, kind="stable")], np.cumsum(queries.sizes)[:-1])
    found = _cells(queries, values, 2**16)
    assert [found[i] for i in range(len(expected))] == [e.tolist() for e in expected]
    block = next(blocks(queries))
    assert take(column, block, None, -1.0).dtype == np.result_type(values.dtype, np.float32)


def test_blocks_of_queries_far_longer_than_their_count():
    # the longest query is long for so few queries (a sort of the sizes rather than a
    # table of them), over 32 distinct sizes: shared buckets of at most 25% padding
    sizes = np.append(np.arange(1, 40), 2_000)
    qid = np.repeat(np.arange(sizes.shape[0]), sizes)
    queries = group_queries(qid, None)
    widths = _bucket_widths(queries.sizes)
    assert (widths >= sizes).all() and (widths <= np.ceil(1.25 * sizes) + 1).all()
    assert np.unique(widths).shape[0] < np.unique(sizes).shape[0]  # buckets are shared
    found = _cells(queries, np.arange(qid.shape[0], dtype=float), 2**16)
    for query in range(sizes.shape[0]):
        assert found[query] == np.flatnonzero(qid == query).tolist()


@pytest.mark.parametrize(
    "qid",
    [
        QID,
        np.array(["b", "a", "b", "c"], dtype=object),
        np.repeat([3, 1, 2], 4),  # contiguous runs, ids unsorted
        np.repeat([1, 2, 3], 4),  # the dense layout
        np.random.default_rng(0).integers(0, 50, 3000),  # interleaved
    ],
)
def test_codes_are_numpy_uniques_inverse(qid):
    # reference: numpy's unique, whose inverse indexes the sorted ids
    ids, inverse = np.unique(qid, return_inverse=True)
    queries = Queries.of(qid)
    np.testing.assert_array_equal(queries.ids, ids)
    np.testing.assert_array_equal(queries.codes(), inverse.reshape(-1))
