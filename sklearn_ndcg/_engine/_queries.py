"""Group rows into queries, and lay the queries out in 2-D blocks bucketed by size.

Every input becomes the same thing: blocks of queries, one query per row of a
block, its documents along the row (padded to the block's width). A 2-D input is
one block of equal-size queries; long-format queries are bucketed by size.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

MAX_CELLS = 2**17
"""Cells per block: blocks are cut into chunks of at most this many documents, so
that the memory of the stages stays small whatever the size of the input."""

_EXACT_WIDTHS = 32
"""Up to this many distinct query sizes, each size is a bucket of its own; beyond,
sizes share buckets whose widths grow by 25% (at most 25% padding)."""


class Queries(NamedTuple):
    """How the documents are grouped into queries.

    The *grouped layout* puts the documents of each query next to each other;
    query ``i`` (the ``i``-th of the sorted ``ids``) occupies positions
    ``starts[i]`` to ``starts[i] + sizes[i] - 1`` of it, documents in input
    order. ``order`` gives the input row at each position, or is None when the
    input already is the grouped layout (2-D input, or long format whose
    queries are contiguous).
    """

    ids: np.ndarray
    sizes: np.ndarray
    starts: np.ndarray
    order: np.ndarray | None
    shape: tuple[int, int] | None  # (n_queries, n_documents) for 2-D input
    # (n_queries, n_documents) whenever the rows are one dense matrix, query by
    # query in the order of ids: 2-D input, or long format whose queries are
    # contiguous, of one size and sorted (e.g. fixed-length candidate lists)
    layout: tuple[int, int] | None = None

    @classmethod
    def of(cls, qid: np.ndarray) -> Queries:
        """The queries of long-format rows, one query id per row (:func:`group_queries`)."""
        return group_queries(qid, None)

    def rows(self) -> np.ndarray:
        """Input rows grouped by query (:func:`rows_by_query`)."""
        return rows_by_query(self)

    def weights(self, sample_weight: np.ndarray | None) -> np.ndarray | None:
        """One weight per query from one per document (:func:`query_weights`)."""
        return query_weights(sample_weight, self)


class Block(NamedTuple):
    """Some queries of equal (padded) width: one query per row.

    Defined on the grouped layout: row ``i`` holds the documents at positions
    ``starts[i]`` to ``starts[i] + sizes[i] - 1``; cells beyond a query's size are
    padding (:func:`take` fills them). For 2-D input ``starts`` is None and
    ``queries`` a slice of the input's rows.
    """

    queries: np.ndarray | slice
    starts: np.ndarray | None
    sizes: np.ndarray
    width: int

    def padding(self) -> np.ndarray | None:
        """Where the cells are padding (beyond the query's size), or None if nowhere."""
        if self.sizes.min() >= self.width:
            return None
        return np.arange(self.width) >= self.sizes[:, np.newaxis]


def group_queries(qid: np.ndarray | None, shape: tuple[int, int] | None) -> Queries:
    """Group rows by query id, or by row of a ``(n_queries, n_documents)`` layout.

    Queries whose rows are contiguous (the usual layout of ranking files) are
    found in one pass, without sorting the rows; otherwise the rows are sorted
    by query with a radix sort, which keeps the input order within each query.
    """
    if qid is None:
        n_queries, n_documents = shape
        ids = np.arange(n_queries)
        sizes = np.full(n_queries, n_documents, dtype=np.intp)
        return Queries(ids, sizes, ids * n_documents, None, shape, shape)
    n_rows = qid.shape[0]
    new_run = np.empty(n_rows, dtype=bool)
    new_run[0] = True
    if qid.dtype.kind in "US":  # numpy < 2 has no not_equal loop for strings
        new_run[1:] = qid[1:] != qid[:-1]
    else:
        np.not_equal(qid[1:], qid[:-1], out=new_run[1:])
    if 4 * np.count_nonzero(new_run) <= n_rows:  # long runs: maybe already grouped
        heads = np.flatnonzero(new_run)
        del new_run
        grouped = _sorted_runs(qid, heads)
        if grouped is not None:
            return grouped
        run_lengths = np.diff(np.append(heads, n_rows))
        ids, run_query = _unique(qid[heads])  # every id starts at least one run
        if ids.shape[0] == heads.shape[0]:  # each query is one run: already grouped
            sizes = np.empty(ids.shape[0], dtype=np.intp)
            starts = np.empty(ids.shape[0], dtype=np.intp)
            sizes[run_query] = run_lengths
            starts[run_query] = heads
            size = int(sizes[0])
            dense = (sizes == size).all() and (starts == np.arange(ids.shape[0]) * size).all()
            return Queries(ids, sizes, starts, None, None, (ids.shape[0], size) if dense else None)
        codes = np.repeat(run_query, run_lengths)
    else:  # rows interleaved
        del new_run
        packed = _group_by_radix_sort(qid)
        if packed is None:
            packed = _group_by_packed_sort(qid)
        if packed is not None:
            ids, order, sizes, starts = packed
            return Queries(ids, sizes, starts, order, None)
        ids, codes = _unique(qid)
    order = _stable_argsort(codes, ids.shape[0])
    sizes = np.bincount(codes, minlength=ids.shape[0])
    starts = np.concatenate(([0], np.cumsum(sizes[:-1])))
    return Queries(ids, sizes, starts, order, None)


def _sorted_runs(qid: np.ndarray, heads: np.ndarray) -> Queries | None:
    """The queries of rows grouped by number ids in increasing order (the common
    layout of ranking files and folds), or None: then each run's id is a distinct
    query, the ids are sorted already, and no lookup of the ids is needed."""
    head_ids = qid[heads]
    if qid.dtype.kind not in "iuf" or not (head_ids[1:] > head_ids[:-1]).all():
        return None  # NaN ids compare False: the general path
    sizes = np.empty(heads.shape[0], dtype=np.intp)
    np.subtract(heads[1:], heads[:-1], out=sizes[:-1])
    sizes[-1] = qid.shape[0] - heads[-1]
    size = int(sizes[0])
    # equal sizes of contiguous queries in id order: one dense matrix
    dense = int(sizes.min()) == int(sizes.max())
    return Queries(head_ids, sizes, heads, None, None, (heads.shape[0], size) if dense else None)


_RADIX_PASSES = 2
"""Integer ids spanning at most ``16 * _RADIX_PASSES`` bits are grouped by radix sort;
wider ones by one sort of packed 64-bit keys, while the keys fit."""


def _group_by_radix_sort(qid: np.ndarray):
    """Integer ids grouped by a least-significant-digit radix sort, in O(n).

    The ids less the smallest, in their own width (unsigned arithmetic wraps, so
    negative ids and any integer dtype work; the ids are never widened; ids of the
    other byte order are first copied into this machine's), are sorted
    16 bits at a time by numpy's stable radix sort of 16-bit integers, low digits
    first. The result is the stable order of the ids: the sorted ids, and the rows
    of each query in input order. Returns ``(ids, order, sizes, starts)`` as
    :func:`_group_by_packed_sort`, or None for ids that are not integers, span more
    than ``16 * _RADIX_PASSES`` bits, or inputs of ``2**31`` rows or more.
    """
    n_rows = qid.shape[0]
    if qid.dtype.kind not in "iu" or n_rows >= 2**31:
        return None
    low = int(qid.min())
    span_bits = (int(qid.max()) - low).bit_length()
    if span_bits > 16 * _RADIX_PASSES:
        return None
    unsigned = np.dtype(f"u{qid.dtype.itemsize}")
    native = qid if qid.dtype.isnative else qid.astype(qid.dtype.newbyteorder("="))
    # the ids less the smallest, straight into the narrowest type that holds them
    narrow = np.uint16 if span_bits <= 16 else np.uint32
    offset = np.empty(n_rows, dtype=narrow if unsigned.itemsize > 2 else unsigned)
    low_id = unsigned.type(low % 2 ** (8 * unsigned.itemsize))
    np.subtract(native.view(unsigned), low_id, out=offset, casting="unsafe")
    digits = [offset if offset.itemsize == 2 else offset.astype(np.uint16)]  # low 16 bits
    if span_bits > 16:
        high = np.empty(n_rows, dtype=np.uint16)
        np.right_shift(offset, offset.dtype.type(16), out=high, casting="unsafe")
        digits.append(high)
    del offset
    order = np.argsort(digits[0], kind="stable").astype(np.int32)
    if len(digits) == 2:
        order = gather(order, np.argsort(gather(digits[1], order), kind="stable"))
    sorted_digits = [gather(digit, order) for digit in digits]
    new = np.empty(n_rows, dtype=bool)
    new[0] = True
    np.not_equal(sorted_digits[0][1:], sorted_digits[0][:-1], out=new[1:])
    for digit in sorted_digits[1:]:
        new[1:] |= digit[1:] != digit[:-1]
    del sorted_digits
    starts = np.flatnonzero(new)
    sizes = np.diff(np.append(starts, n_rows))
    return qid[order[starts]], order, sizes, starts


def _group_by_packed_sort(qid: np.ndarray):
    """Integer ids grouped by one sort of 64-bit keys ``(id - min) * 2**b + row``.

    The keys are distinct, so numpy's fast (unstable, vectorized) sort orders
    them like a stable sort of the ids: it gives the sorted ids, and the rows of
    each query in input order. Returns ``(ids, order, sizes, starts)``, or None
    when the keys do not fit in 64 bits (or the ids are not integers).
    """
    if qid.dtype.kind not in "iu":
        return None
    n_rows = qid.shape[0]
    low = int(qid.min())
    row_bits = max(1, (n_rows - 1).bit_length())
    if (int(qid.max()) - low).bit_length() + row_bits > 64:
        return None
    key = qid.astype(np.uint64)  # a copy; negative ids wrap, and so does the subtraction
    key -= np.uint64(low % 2**64)
    key <<= np.uint64(row_bits)
    key |= np.arange(n_rows, dtype=np.uint64)
    key.sort()
    order = (key & np.uint64((1 << row_bits) - 1)).astype(np.int32 if row_bits < 32 else np.intp)
    key >>= np.uint64(row_bits)  # the sorted ids, less the smallest
    new = np.empty(n_rows, dtype=bool)
    new[0] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    del key
    starts = np.flatnonzero(new)
    sizes = np.diff(np.append(starts, n_rows))
    return qid[order[starts]], order, sizes, starts


def _stable_argsort(codes: np.ndarray, n_codes: int) -> np.ndarray:
    """``np.argsort(codes, kind="stable")`` for codes in ``[0, n_codes)``, in O(n).

    numpy sorts 16-bit integers stably by radix sort, several times faster than
    its sorts of wider integers: one pass of 16 bits, or two (low bits first).
    """
    if n_codes <= 2**16:
        return np.argsort(codes.astype(np.uint16), kind="stable")
    if n_codes <= 2**32:
        by_low = np.argsort((codes & 0xFFFF).astype(np.uint16), kind="stable")
        if codes.shape[0] < 2**31:  # 4-byte positions: the memory of this step halves
            by_low = by_low.astype(np.int32)
        high = (codes[by_low] >> 16).astype(np.uint16)
        return by_low[np.argsort(high, kind="stable")]
    return np.argsort(codes, kind="stable")  # pragma: no cover - over 4 billion queries


def _unique(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted unique ids and the index of each entry's id among them."""
    if qid.dtype.kind in "iu":
        low, high = int(qid.min()), int(qid.max())
        if high - low <= 4 * qid.shape[0] + 1024:  # a lookup table is cheaper than a sort
            # Subtract in 64 bits, never in the ids' own (maybe 8-bit) dtype; each
            # difference is in [0, high - low], so it cannot wrap.
            wide = np.dtype(np.int64 if qid.dtype.kind == "i" else np.uint64)
            offset = qid.astype(wide)  # a copy, subtracted from in place
            offset -= wide.type(low)
            offset = offset.view(np.int64)  # in [0, high - low]: fits
            present = np.zeros(high - low + 1, dtype=bool)
            present[offset] = True
            ids = (np.flatnonzero(present).astype(wide) + wide.type(low)).astype(qid.dtype)
            return ids, (np.cumsum(present) - 1)[offset]
    if qid.dtype.kind in "iufbmM":  # lean: one sort, codes of 4 bytes, no np.unique copies
        return _unique_by_sort(qid)
    try:
        ids, codes = np.unique(qid, return_inverse=True)
    except TypeError:
        types = sorted({type(v).__name__ for v in qid})
        raise TypeError(
            f"qid mixes values that cannot be compared with each other "
            f"(types {', '.join(types)}); give query ids of one sortable type."
        ) from None
    return ids, codes.reshape(-1)


def _unique_by_sort(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_unique` of numbers with little memory: about 2 bytes per row beyond
    the sort's own permutation, instead of the copies of ``np.unique``."""
    perm = np.argsort(qid)
    ordered = qid[perm]
    new = np.empty(qid.shape[0], dtype=bool)
    new[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=new[1:])
    ids = ordered[new]
    del ordered
    code_type = np.int32 if ids.shape[0] < 2**31 else np.int64
    sorted_codes = np.cumsum(new, dtype=code_type)
    del new
    sorted_codes -= 1
    codes = np.empty(qid.shape[0], dtype=code_type)
    codes[perm] = sorted_codes
    return ids, codes


def rows_by_query(queries: Queries) -> np.ndarray:
    """Input rows grouped by query, queries in the order of ``ids``, input order within."""
    if queries.order is not None:
        return queries.order
    n_rows = int(queries.sizes.sum())
    target = np.cumsum(queries.sizes) - queries.sizes  # start of each query in the result
    return np.arange(n_rows) + np.repeat(queries.starts - target, queries.sizes)


_GATHER_ROWS = 2**16
"""Rows gathered per ``np.take`` call by :func:`gather`."""


def grouped_layout(queries: Queries, *arrays: np.ndarray | None) -> tuple:
    """``queries`` and ``arrays`` (one value per input row, or None) in the grouped
    layout: the queries with ``order`` None, each array permuted to match.

    Each array is gathered once through ``order`` (:func:`gather`). Reading the
    rows through ``order`` block by block instead costs a cache miss per row of
    shuffled input and a 2-D index per block.
    """
    if queries.order is None:  # contiguous, for the windows of take
        return (queries, *(None if a is None else np.ascontiguousarray(a) for a in arrays))
    order = queries.order
    grouped = [None if values is None else _gather_exact(values, order) for values in arrays]
    return (queries._replace(order=None), *grouped)


def _gather_exact(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """:func:`gather`, through a byte per value when the values are the integers 0 to
    255 (relevance labels, their linear gains): random reads of the bytes stay in
    cache, those of 8-byte floats do not. Exact: the bytes convert back unchanged."""
    if values.dtype == np.float64 and values.shape[0] >= _GATHER_ROWS:
        low, high = values.min(), values.max()
        if 0 <= low and high <= 255:
            small = values.astype(np.uint8)  # in range: no cast is undefined
            if np.equal(small, values).all():  # integers
                return gather(small, index).astype(np.float64)
    return gather(values, index)


def gather(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``values[index]`` for a valid 1-D ``index``, in slices of ``_GATHER_ROWS``.

    ``np.take`` makes an intp copy of the indices it is given (here of one slice at
    a time, which stays in cache), and into ``out`` it is fast only when told the
    indices need no check (``mode="clip"``).
    """
    result = np.empty(index.shape[0], dtype=values.dtype)
    for start in range(0, index.shape[0], _GATHER_ROWS):
        stop = start + _GATHER_ROWS
        np.take(values, index[start:stop], out=result[start:stop], mode="clip")
    return result


def query_weights(sample_weight: np.ndarray | None, queries: Queries) -> np.ndarray | None:
    """One weight per query from one weight per document (long format).

    2-D input already has one weight per query. In long format every document
    of a query must carry the same weight.
    """
    if sample_weight is None or queries.shape is not None:
        return sample_weight
    grouped = sample_weight[rows_by_query(queries)]
    first = np.cumsum(queries.sizes) - queries.sizes
    weights = grouped[first]
    differs = grouped != np.repeat(weights, queries.sizes)
    if differs.any():
        query = np.repeat(np.arange(queries.ids.shape[0]), queries.sizes)[differs]
        bad = queries.ids[np.unique(query)][:5]
        raise ValueError(
            "sample_weight must be the same for every document of a query (one "
            f"weight per query); it varies within the queries {bad.tolist()}."
        )
    return weights


def blocks(queries: Queries, max_cells: int = MAX_CELLS) -> Iterator[Block]:
    """The queries of the grouped layout (``order`` None: :func:`grouped_layout`) in
    blocks of equal width, at most ``max_cells`` documents each."""
    if queries.order is not None:
        raise ValueError("blocks need the grouped layout; see grouped_layout")
    if queries.layout is not None:  # one block of equal-size queries, in chunks
        n_queries, n_documents = queries.layout
        step = max(1, max_cells // max(n_documents, 1))
        for start in range(0, n_queries, step):
            part = slice(start, min(start + step, n_queries))
            yield Block(part, None, queries.sizes[part], n_documents)
        return
    widths = _bucket_widths(queries.sizes)
    if int(queries.sizes.max()) < 2**16:  # numpy's stable sort of 16-bit integers: radix
        widths = widths.astype(np.uint16)
    by_width = np.argsort(widths, kind="stable")
    bounds = np.flatnonzero(np.diff(widths[by_width])) + 1
    for members in np.split(by_width, bounds):
        width = int(widths[members[0]])
        step = max(1, max_cells // width)
        for start in range(0, members.shape[0], step):
            chosen = members[start : start + step]
            yield Block(chosen, queries.starts[chosen], queries.sizes[chosen], width)


def _bucket_widths(sizes: np.ndarray) -> np.ndarray:
    """The width of the block of each query: its size, or a bucket of similar sizes."""
    largest = int(sizes.max())
    table = largest <= 4 * sizes.shape[0] + 1024  # a table by size: cheaper than sorts
    if table:
        n_distinct = np.count_nonzero(np.bincount(sizes))
    else:
        n_distinct = np.unique(sizes).shape[0]
    if n_distinct <= _EXACT_WIDTHS:
        return sizes
    grid = np.unique(np.ceil(1.25 ** np.arange(np.log(largest) / np.log(1.25) + 2)))
    grid = grid[grid >= 1].astype(np.intp)
    if table:
        return np.minimum(grid[np.searchsorted(grid, np.arange(largest + 1))], largest)[sizes]
    return np.minimum(grid[np.searchsorted(grid, sizes)], largest)


def take(
    values: np.ndarray,
    block: Block,
    shape: tuple[int, int] | None,
    fill: float,
    padding: np.ndarray | None = None,
) -> np.ndarray:
    """``values`` (one per position of the grouped layout, contiguous as
    :func:`grouped_layout` returns them) laid out as ``block``; ``fill`` in the
    ``padding`` cells (:meth:`Block.padding`)."""
    if block.starts is None:
        return values.reshape(shape)[block.queries]
    # Each row is a window of `width` consecutive values: fancy indexing of a strided
    # view of all windows copies them row by row, many times faster than np.take of
    # a 2-D index. Padding cells read on into the next queries, and are then filled.
    width, starts = block.width, block.starts
    last = values.shape[0] - width  # the last window's start
    step = values.strides[0]
    windows = np.ndarray((last + 1, width), values.dtype, values, 0, (step, step))
    taken = windows[np.minimum(starts, last)]
    beyond = np.flatnonzero(starts > last)  # windows past the end: the last queries
    if beyond.shape[0]:
        rows = starts[beyond, np.newaxis] + np.arange(width)
        taken[beyond] = np.take(values, rows, mode="clip")
    if padding is not None:
        np.putmask(taken, padding, fill)
    return taken
