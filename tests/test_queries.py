"""Tests of the grouping of rows into queries in _queries.py."""

import numpy as np
import pytest

from sklearn_ndcg._queries import (
    group_queries,
    is_query_start,
    positions,
    query_weights,
    sort_within_queries,
)

QID = np.array([30, 10, 30, 20, 10, 30])


def test_group_queries_long_format():
    queries = group_queries(QID, None)
    np.testing.assert_array_equal(queries.ids, [10, 20, 30])
    np.testing.assert_array_equal(queries.sizes, [2, 1, 3])
    np.testing.assert_array_equal(queries.starts, [0, 2, 3])
    np.testing.assert_array_equal(queries.codes, [2, 0, 2, 1, 0, 2])


def test_group_queries_2d():
    queries = group_queries(None, (3, 4))
    np.testing.assert_array_equal(queries.ids, [0, 1, 2])
    np.testing.assert_array_equal(queries.sizes, [4, 4, 4])
    np.testing.assert_array_equal(queries.starts, [0, 4, 8])
    assert queries.codes is None


def test_group_queries_mixed_types():
    with pytest.raises(TypeError, match="qid mixes values"):
        group_queries(np.array([1, "a"], dtype=object), None)


def test_sort_within_queries_long_format():
    queries = group_queries(QID, None)
    score = np.array([1.0, 5.0, 1.5, 0.0, 4.0, 2.0])
    # hand: query 10 rows 1 (5.0), 4 (4.0); 20 row 3; 30 rows 5 (2.0), 2 (1.5), 0 (1.0)
    np.testing.assert_array_equal(sort_within_queries(queries, score), [1, 4, 3, 5, 2, 0])


def test_sort_within_queries_long_format_ties_stay_in_their_query():
    queries = group_queries(QID, None)
    score = np.array([1.0, 5.0, 1.0, 0.0, 5.0, 2.0])
    order = sort_within_queries(queries, score)
    # hand: query 10 rows {1, 4} (tied); 20 row 3; 30 row 5, then rows {0, 2} (tied)
    assert set(order[:2]) == {1, 4}
    assert order[2] == 3 and order[3] == 5
    assert set(order[4:]) == {0, 2}


def test_sort_within_queries_2d():
    queries = group_queries(None, (2, 3))
    score = np.array([1.0, 3.0, 2.0, 0.0, 0.5, 9.0])
    np.testing.assert_array_equal(sort_within_queries(queries, score), [1, 2, 0, 5, 4, 3])


@pytest.mark.parametrize(
    "qid",
    [
        np.array([30, 10, 30, 20, 10, 30]),  # small range: lookup table
        np.array([3 * 10**12, 10, 3 * 10**12, -(10**15), 10, 3 * 10**12]),  # wide: sort
        np.array([30, 10, 30, 20, 10, 30], dtype=np.uint64),
        np.array([-3, -10, -3, -5, -10, -3], dtype=np.int8),
    ],
)
def test_group_queries_integer_ids(qid):
    queries = group_queries(qid, None)
    # hand: ids in increasing order, codes index them
    expected_ids = np.array(sorted(set(qid.tolist())))
    np.testing.assert_array_equal(queries.ids, expected_ids)
    assert queries.ids.dtype == qid.dtype
    np.testing.assert_array_equal(queries.ids[queries.codes], qid)
    np.testing.assert_array_equal(queries.sizes, [qid.tolist().count(i) for i in expected_ids])


def test_is_query_start():
    queries = group_queries(QID, None)
    np.testing.assert_array_equal(is_query_start(queries), [True, False, True, True, False, False])


def test_positions():
    queries = group_queries(QID, None)
    np.testing.assert_array_equal(positions(queries), [1, 2, 1, 1, 2, 3])
    queries_2d = group_queries(None, (2, 3))
    np.testing.assert_array_equal(positions(queries_2d), [1, 2, 3, 1, 2, 3])


def test_query_weights():
    queries = group_queries(QID, None)
    weight = np.array([3.0, 1.0, 3.0, 2.0, 1.0, 3.0])
    np.testing.assert_array_equal(query_weights(weight, queries), [1, 2, 3])
    assert query_weights(None, queries) is None
    with pytest.raises(ValueError, match=r"varies within the queries \[10\]"):
        query_weights(np.array([3.0, 1.0, 3.0, 2.0, 1.5, 3.0]), queries)


def _brute_force_order(codes, values):
    """Queries in code order, each by decreasing value; ties in row order."""
    return [
        row
        for code in sorted(set(codes.tolist()))
        for row in sorted(np.flatnonzero(codes == code), key=lambda r: -values[r])
    ]


@pytest.mark.parametrize("seed", range(5))
def test_sort_within_queries_lexsort_fallback(seed, monkeypatch):
    """With too many queries for int64 keys, np.lexsort sorts: the same layout.

    The packed keys need bit_length(n_queries - 1) + bit_length(n_rows - 1) bits;
    a Queries whose ids array is a zero-copy view of 2**58 entries makes that more
    than 62, so the fallback runs on a small input. Equal values may come in any
    order within their query, so the layouts are compared by (query, value) of
    each position and checked to hold every row once.
    """
    rng = np.random.default_rng(seed)
    qid = rng.integers(0, 6, size=40)
    values = rng.integers(-2, 3, size=40).astype(float)  # many ties
    main = group_queries(qid, None)
    huge = main._replace(ids=np.broadcast_to(np.int64(0), (2**58,)))
    lexsort, calls = np.lexsort, []

    def spy(keys, *args, **kwargs):
        calls.append(len(keys))
        return lexsort(keys, *args, **kwargs)

    monkeypatch.setattr(np, "lexsort", spy)
    order_main = sort_within_queries(main, values)
    assert calls == []  # few queries: the packed keys
    order_fallback = sort_within_queries(huge, values)
    assert calls == [2]  # the fallback ran
    # each position holds the same (query, value) as in the brute-force order, and
    # every row once: the same rows in each tie group, in any order
    expected = _brute_force_order(main.codes, values)
    for order in (order_main, order_fallback):
        np.testing.assert_array_equal(np.sort(order), np.arange(40))
        np.testing.assert_array_equal(main.codes[order], main.codes[expected])
        np.testing.assert_array_equal(values[order], values[expected])
