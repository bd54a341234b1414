"""Tests of the grouping of rows into queries and the blocks in _queries.py."""

import numpy as np
import pytest

from sklearn_ndcg._engine._queries import (
    Queries,
    _bucket_widths,
    _integer_key,
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
