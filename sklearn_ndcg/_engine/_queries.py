"""Group rows into queries, and lay the queries out in 2-D blocks bucketed by size.

Every input becomes the same thing: blocks of queries, one query per row of a
block, its documents along the row (padded to the block's width). A 2-D input is
one block of equal-size queries; long-format queries are bucketed by size.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
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
        key = _integer_key(qid)
        if key is not None:
            order, sizes, starts = _sort_into_queries(*_offsets(key))
            return Queries(qid[order[starts]], sizes, starts, order, None)
        ids, codes = _unique(qid)
    n_ids = ids.shape[0]  # the codes are below it
    order, sizes, starts = _sort_into_queries(
        codes.astype(np.min_scalar_type(n_ids)), n_ids.bit_length()
    )
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
    sizes[-1] = qid.size - heads[-1]
    size = int(sizes[0])
    # equal sizes of contiguous queries in id order: one dense matrix
    dense = int(sizes.min()) == int(sizes.max())
    return Queries(head_ids, sizes, heads, None, None, (heads.shape[0], size) if dense else None)


def _integer_key(qid: np.ndarray) -> np.ndarray | None:
    """Integers in the order of the ids (equal for equal ids), in this machine's
    byte order, or None for ids that are not numbers, booleans or timestamps. The
    ids are finite and never missing (:func:`check_qid`): a timestamp is its count
    of units, and a float's bits are flipped to sort as unsigned integers (all bits
    when negative, else the sign bit), after ``-0.0`` is made ``0.0``."""
    kind = qid.dtype.kind
    if kind == "b":
        return qid.view(np.uint8)
    native = qid if qid.dtype.isnative else qid.astype(qid.dtype.newbyteorder("="))
    if kind in "iu":
        return native
    if kind in "mM":
        return native.view(np.int64)
    if kind != "f" or qid.dtype.itemsize > 8:
        return None
    bits = (native + native.dtype.type(0)).view(f"u{qid.dtype.itemsize}")
    sign = bits.dtype.type(1 << (8 * qid.dtype.itemsize - 1))
    negative = bits >= sign
    np.invert(bits, out=bits, where=negative)
    np.bitwise_or(bits, sign, out=bits, where=~negative)
    return bits


def _offsets(qid: np.ndarray) -> tuple[np.ndarray, int]:
    """Integer ids less the smallest, in the narrowest unsigned type that holds
    them, and the number of bits they span.

    The subtraction is done in the ids' own width, unsigned (it wraps, so negative
    ids and any integer dtype work, and the ids are never widened); the ids are in
    this machine's byte order (:func:`_integer_key`).
    """
    low = int(qid.min())
    n_bits = (int(qid.max()) - low).bit_length()
    unsigned = np.dtype(f"u{qid.dtype.itemsize}")
    offset = np.empty(qid.shape[0], dtype=np.min_scalar_type((1 << n_bits) - 1))
    low_id = unsigned.type(low % 2 ** (8 * unsigned.itemsize))
    np.subtract(qid.view(unsigned), low_id, out=offset, casting="unsafe")
    return offset, n_bits


def _sort_into_queries(key: np.ndarray, n_bits: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows ordered by an unsigned key below ``2**n_bits``, input order kept among
    equal keys: ``(order, sizes, starts)`` of the runs of equal keys. ``key`` is
    the caller's own scratch array: it may be overwritten."""
    order, key = _stable_order(key, n_bits)
    new = np.empty_like(key, dtype=bool)
    new[0] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    del key
    starts = np.flatnonzero(new)
    sizes = np.empty(starts.shape[0], dtype=np.intp)
    np.subtract(starts[1:], starts[:-1], out=sizes[:-1])
    sizes[-1] = order.shape[0] - starts[-1]
    return order, sizes, starts


@functools.cache
def _scipy_counting_sort() -> Callable | None:
    """scipy's counting sort: ``coo_tocsr`` of its sparse module, which converts
    COO entries to CSR in one stable pass over the entries, carrying two arrays
    with them. It is private to scipy, so it is taken only if it imports and sorts
    a probe; None otherwise (numpy's sort is used instead). Imported on first use,
    not with the engine, whose light entrance imports no scipy."""
    try:
        from scipy.sparse._sparsetools import coo_tocsr

        key = np.array([1, 0, 1], dtype=np.int32)
        rows, keys = np.empty(3, dtype=np.int32), np.empty(3, dtype=np.int32)
        heads = np.empty(3, dtype=np.int32)
        coo_tocsr(2, 3, 3, key, np.arange(3, dtype=np.int32), key, heads, rows, keys)
    except Exception:  # whatever a private function does: numpy's sort instead
        return None
    return coo_tocsr if rows.tolist() == [1, 0, 2] and keys.tolist() == [0, 1, 1] else None


_COUNTING_SORT_ROWS = 2**13
"""From this many rows, keys are sorted by scipy's counting sort, a byte per pass;
below it numpy's ``argsort`` is faster than the passes' fixed costs."""


def _stable_order(key: np.ndarray, n_bits: int) -> tuple[np.ndarray, np.ndarray]:
    """The stable sort of unsigned integer keys below ``2**n_bits``:
    ``(order, sorted keys)``, as ``np.argsort(key, kind="stable")`` and the keys
    in that order.

    A least-significant-digit radix sort, one byte per pass: each pass is scipy's
    counting sort of the rows by that byte of their key, which moves the rows'
    numbers and keys with them, so neither is gathered afterwards. In O(n) per
    byte, several times faster than numpy's sort of keys wider than 16 bits (and
    its radix sort of 16-bit keys, which reads the keys through the order). Keys
    wider than 32 bits are sorted by their top bits first (:func:`_by_top_bits`).
    The order is int32. ``key`` is the caller's own scratch array: it may be
    overwritten.
    """
    n_rows = key.shape[0]
    counting_sort = _scipy_counting_sort() if _COUNTING_SORT_ROWS <= n_rows < 2**31 else None
    if counting_sort is None:
        order = np.argsort(key, kind="stable")
        return order, key[order]
    if n_bits > 32 and _top_bits_tell_apart(key, n_bits):
        return _by_top_bits(key, n_bits, counting_sort)
    return _by_bytes(key, np.arange(n_rows, dtype=np.int32), n_bits, counting_sort)


def _by_bytes(
    key: np.ndarray, order: np.ndarray, n_bits: int, counting_sort: Callable
) -> tuple[np.ndarray, np.ndarray]:
    """The rows ``order`` with their ``key`` stably sorted by the key's low
    ``n_bits`` bits, a byte per pass of ``counting_sort``: ``(order, sorted keys)``."""
    n_rows = key.size
    digit, order_out, key_out = np.empty_like(order), np.empty_like(order), np.empty_like(key)
    heads = np.empty(257, dtype=np.int32)  # the start of each digit's rows (unused)
    for shift in range(0, n_bits, 8):
        np.right_shift(key, key.dtype.type(shift), out=digit, casting="unsafe")
        digit &= 255
        counting_sort(256, n_rows, n_rows, digit, order, key, heads, order_out, key_out)
        order, order_out = order_out, order
        key, key_out = key_out, key
    return order, key


_TOP_BITS = 20
"""The widest first digit of keys wider than 32 bits (:func:`_by_top_bits`). Of 16, 18
and 20 bits, 20 took the least time for 1M rows of hashed ids, timestamps and floats
(scipy's pass is slower for wider digits, but fewer rows share one)."""


def _top_digit(n_rows: int, n_bits: int) -> tuple[int, int]:
    """The width of the first digit of :func:`_by_top_bits` and the shift that
    takes it from a key: up to ``_TOP_BITS``, no wider than the row count's."""
    top_bits = min(_TOP_BITS, n_rows.bit_length())
    return top_bits, n_bits - top_bits


def _top_bits_tell_apart(key: np.ndarray, n_bits: int) -> bool:
    """Whether the keys mostly differ in their top bits (hashed ids, timestamps), on a
    sample of about 1,024 evenly spaced rows: at least 9 of 10 sampled keys with a
    first digit of their own. Ids that share their top bits (e.g. two ids packed into
    one) would leave every row to the second sort of :func:`_by_top_bits`."""
    _, shift = _top_digit(key.size, n_bits)
    sample = np.unique(key[:: key.size // 1024])  # key.size >= _COUNTING_SORT_ROWS
    return 10 * np.unique(sample >> key.dtype.type(shift)).size >= 9 * sample.size


def _by_top_bits(
    key: np.ndarray, n_bits: int, counting_sort: Callable
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_stable_order` of keys wider than 32 bits that mostly differ in their top
    bits (:func:`_top_bits_tell_apart`): one counting pass by their top bits (up to
    ``_TOP_BITS``), then the rows of the digits that hold several distinct keys sorted
    a byte per pass (:func:`_by_bytes`), in place.

    20,000 random 64-bit ids share a 20-bit digit 2 % of the time, so one pass and a
    short second sort replace eight passes.
    """
    n_rows = key.size
    top_bits, shift = _top_digit(n_rows, n_bits)
    shift = key.dtype.type(shift)
    order = np.arange(n_rows, dtype=np.int32)
    digit, order_out, key_out = np.empty_like(order), np.empty_like(order), np.empty_like(key)
    np.right_shift(key, shift, out=digit)
    heads = np.empty((1 << top_bits) + 1, dtype=np.int32)  # the start of each digit's rows
    counting_sort(1 << top_bits, n_rows, n_rows, digit, order, key, heads, order_out, key_out)
    del digit, order
    order, key = order_out, key_out
    # a digit holds several keys where two neighbours differ in lower bits only
    differ = key[1:] ^ key[:-1]
    changes = np.flatnonzero((differ != 0) & (differ < key.dtype.type(1) << shift))
    del differ
    if changes.size:
        mixed = np.unique(key[changes] >> shift)
        first, stop = heads[mixed], heads[mixed + 1]
        sizes = stop - first
        rows = np.arange(int(sizes.sum())) + np.repeat(first - (np.cumsum(sizes) - sizes), sizes)
        # sorted by the whole key, they stay digit by digit: back in the same places
        order[rows], key[rows] = _by_bytes(key[rows], order[rows], n_bits, counting_sort)
    return order, key


def _unique(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted unique ids and the index of each entry's id among them (the ids of
    runs of rows, or interleaved ids that have no integer key: strings, objects)."""
    try:
        ids, codes = np.unique(qid, return_inverse=True)
    except TypeError:
        types = sorted({type(v).__name__ for v in qid})
        raise TypeError(
            f"qid mixes values that cannot be compared with each other "
            f"(types {', '.join(types)}); give query ids of one sortable type."
        ) from None
    return ids, codes.reshape(-1)


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
