"""Tests of the sorting of rows by an integer key in _sort.py (the grouping of shuffled
rows: scipy's counting sort, numpy's radix fallback, the split by top bits)."""

import sys

import numpy as np
import pytest

from sklearn_ndcg._engine import _sort
from sklearn_ndcg._engine._queries import _integer_key, group_queries


@pytest.mark.parametrize("n_bits", [0, 1, 8, 9, 16, 20, 32, 33, 64])
@pytest.mark.parametrize("counting", [True, False])
def test_stable_order_is_numpys_stable_argsort(n_bits, counting, monkeypatch):
    # a byte per pass of scipy's counting sort, or numpy's argsort without it: the
    # same order, whatever the width of the keys and however many bytes they span
    if counting and _sort._scipy_counting_sort() is None:
        pytest.skip("this scipy has no counting sort the engine can use")
    if not counting:
        monkeypatch.setattr(_sort, "_scipy_counting_sort", lambda: None)
    rng = np.random.default_rng(n_bits)
    n_values = 1 << min(n_bits, 12)
    values = rng.integers(0, 2**n_bits, n_values, dtype=np.uint64, endpoint=False)
    values[:1] = 2**n_bits - 1 if n_bits else 0  # the largest key is present
    key = values[rng.integers(0, n_values, 3 * _sort._COUNTING_SORT_ROWS)]
    key = key.astype(
        next(
            t
            for t in (np.uint8, np.uint16, np.uint32, np.uint64)
            if 8 * np.dtype(t).itemsize >= n_bits
        )
    )
    expected = np.argsort(key, kind="stable")
    order, sorted_key = _sort._stable_order(key.copy(), n_bits)
    np.testing.assert_array_equal(order, expected)
    np.testing.assert_array_equal(sorted_key, key[expected])


@pytest.mark.parametrize("layout", ["distinct", "some shared", "edges shared", "packed"])
def test_wide_keys_sorted_by_top_bits_are_numpys_stable_argsort(layout, monkeypatch):
    # keys wider than 32 bits: one pass by their top bits, then the rows of the digits
    # holding several keys sorted a byte per pass (all rows, for keys packed in their
    # low bits under equal top bits); the order is numpy's stable argsort either way
    if _sort._scipy_counting_sort() is None:
        pytest.skip("this scipy has no counting sort the engine can use")
    n_rows = 3 * _sort._COUNTING_SORT_ROWS  # a top digit of 15 bits (the row count's)
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
    by_bytes = _sort._by_bytes
    monkeypatch.setattr(
        _sort,
        "_by_bytes",
        lambda key, *rest: sorted_rows.append(key.shape[0]) or by_bytes(key, *rest),
    )
    expected = np.argsort(key, kind="stable")
    order, sorted_key = _sort._stable_order(key.copy(), 63)
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
    if _sort._scipy_counting_sort() is None:
        pytest.skip("this scipy has no counting sort the engine can use")
    monkeypatch.setattr(_sort, "_SPLIT_ROWS", 2**14)
    monkeypatch.setattr(_sort, "_SPLIT_CHUNK", 2**12 + 3)  # chunks cut anywhere
    split = _sort._split_by_top_bits
    calls = []
    monkeypatch.setattr(_sort, "_split_by_top_bits", lambda *a: calls.append(1) or split(*a))
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
    monkeypatch.setattr(_sort, "_SPLIT_CHUNK", 1000)  # chunks cut anywhere
    rng = np.random.default_rng(12)
    qid = rng.integers(-5000, 2**20 - 5000, 20_000).astype(np.int32)  # 20 bits
    qid[:2] = [-5000, 2**20 - 5001]
    top_bits = (qid.astype(np.int64) + 5000) >> 16  # by hand: 20 - 4 bits shifted out
    counting_sort = _sort._scipy_counting_sort()
    order, bounds = _sort._split_by_top_bits(qid, (-5000, 20), counting_sort)
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
    monkeypatch.setattr(_sort, "_SPLIT_ROWS", 2**14)
    calls = []
    real = _sort._split_by_top_bits
    monkeypatch.setattr(_sort, "_split_by_top_bits", lambda *a: calls.append(1) or real(*a))
    qid = np.random.default_rng(n_bits).integers(0, 2**n_bits, n_rows).astype(np.int32)
    qid[:2] = [0, 2**n_bits - 1]
    queries = group_queries(qid, None)
    assert calls == ([1] if split else [])
    np.testing.assert_array_equal(queries.order, np.argsort(qid, kind="stable"))


def test_wide_ids_are_not_split(monkeypatch):
    # 8-byte ids are sorted whole: each of the 16 parts would read them again
    monkeypatch.setattr(_sort, "_SPLIT_ROWS", 2**14)
    calls = []
    monkeypatch.setattr(_sort, "_split_by_top_bits", lambda *a: calls.append(1))
    qid = np.random.default_rng(0).integers(0, 2**31 - 1, 2**15)
    queries = group_queries(qid, None)
    assert calls == []
    np.testing.assert_array_equal(queries.order, np.argsort(qid, kind="stable"))


def test_counting_sort_is_taken_from_this_scipy():
    # the engine probes scipy's private counting sort on first use; if a scipy release
    # moves or changes it, the engine falls back on numpy's sort, and this test says so
    assert _sort._scipy_counting_sort() is not None


def test_counting_sort_only_where_scipy_is_loaded(monkeypatch):
    # importing scipy's sparse module for the sort costs more than the sort saves: a
    # caller that has not loaded it (the trec-eval command) gets the numpy radix sort
    pytest.importorskip("scipy.sparse")
    n_rows = _sort._COUNTING_SORT_ROWS
    assert _sort._counting_sort(n_rows) is _sort._scipy_counting_sort()
    assert _sort._counting_sort(n_rows - 1) is None  # numpy's argsort is faster
    monkeypatch.delitem(sys.modules, "scipy.sparse")
    assert _sort._counting_sort(n_rows) is None


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
    elif kind == "uint64, hashed, pairs differing in their low bits":
        ids = rng.integers(0, 2**64 - 1, n_ids, dtype=np.uint64, endpoint=True)
        pairs = rng.choice(n_ids, 2 * (n_ids // 50), replace=False).reshape(2, -1)
        # the second sort's rows: the packed sort keeps the top bits only
        low = rng.integers(1, 2**8, pairs.shape[1]).astype(np.uint64)
        ids[pairs[1]] = ids[pairs[0]] ^ low
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
        "uint64, hashed, pairs differing in their low bits",
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
    qid = _radix_keys(kind, rng, 3 * _sort._COUNTING_SORT_ROWS)
    expected = np.argsort(qid, kind="stable")
    key, n_bits = _sort._offsets(_integer_key(qid))
    assert n_bits > _sort._RADIX_BITS
    np.testing.assert_array_equal(_sort._radix_order(key.copy(), n_bits), expected)
    with_counting_sort = group_queries(qid, None)
    monkeypatch.setattr(_sort, "_counting_sort", lambda n_rows: None)
    calls = []
    radix = _sort._radix_order
    monkeypatch.setattr(_sort, "_radix_order", lambda *a: calls.append(1) or radix(*a))
    queries = group_queries(qid, None)
    assert calls == [1]
    np.testing.assert_array_equal(queries.order, expected)
    for field in ("ids", "sizes", "starts", "order"):
        np.testing.assert_array_equal(getattr(queries, field), getattr(with_counting_sort, field))
