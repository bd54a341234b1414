"""Group rows into queries, and lay the queries out in 2-D blocks bucketed by size.

Every input becomes the same thing: blocks of queries, one query per row of a
block, its documents along the row (padded to the block's width). A 2-D input is
one block of equal-size queries; long-format queries are bucketed by size.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from ._sort import sort_into_queries

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
    # (n_queries, n_documents) whenever the rows are one dense matrix in the order of ids:
    # 2-D input, or contiguous sorted queries of one size (fixed-length candidate lists)
    layout: tuple[int, int] | None = None

    @classmethod
    def of(cls, qid: np.ndarray) -> Queries:
        """The queries of long-format rows, one query id per row (:func:`group_queries`)."""
        return group_queries(qid, None)

    def rows(self) -> np.ndarray:
        """Input rows grouped by query (:func:`rows_by_query`)."""
        return rows_by_query(self)

    def codes(self) -> np.ndarray:
        """Each input row's query, as its index into ``ids`` (``np.unique``'s inverse)."""
        codes = np.empty(int(self.sizes.sum()), dtype=np.intp)
        codes[rows_by_query(self)] = np.repeat(np.arange(self.ids.shape[0]), self.sizes)
        return codes

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
    # the input row of each cell when the queries have an ``order`` (shuffled rows)
    rows: np.ndarray | None = None

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
        n_queries, n_documents = shape  # type: ignore[misc]  # given where qid is None
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
            order, sizes, starts = sort_into_queries(key)
            return Queries(qid[order[starts]], sizes, starts, order, None)
        ids, codes = _unique(qid)
    # codes below the number of ids: in the narrowest type that holds them
    order, sizes, starts = sort_into_queries(codes.astype(np.min_scalar_type(ids.shape[0])))
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


_BYTE_ROWS = 2**16
"""From this many rows, labels that are the integers 0 to 255 are read as bytes
(:func:`block_columns`)."""


def block_columns(queries: Queries, *arrays: np.ndarray | None) -> tuple:
    """``queries`` and ``arrays`` (one value per input row, or None) ready for
    :func:`blocks` and :func:`take`.

    Rows grouped already are made contiguous, for the windows of :func:`take`.
    Of shuffled rows, float64 values that are the integers 0 to 255 (relevance
    labels, their linear gains) are kept as one byte each: random reads of bytes
    stay in cache, those of 8-byte floats do not (exact: the bytes convert back
    unchanged). Then, if every array is narrower than 8 bytes (compact input,
    e.g. float32 scores), they are read through ``order`` one block at a time:
    no copy of them is made. Otherwise each is gathered once into the grouped
    layout (``order`` None): in alternated runs of the benchmark's shuffled rows
    (float64 scores), calls that gathered took 1.43-1.63 times the C kernel's
    time, calls that read them block by block 1.53-1.81 times.
    """
    if queries.order is None:
        return (queries, *(None if a is None else np.ascontiguousarray(a) for a in arrays))
    columns = [None if a is None else _as_bytes(a) for a in arrays]
    if all(c is None or c.dtype.itemsize < 8 for c in columns):
        return (queries, *columns)
    order = queries.order
    grouped = [None if c is None else gather(c, order) for c in columns]
    return (queries._replace(order=None), *grouped)


def _as_bytes(values: np.ndarray) -> np.ndarray:
    """``values`` as uint8 if they are float64 integers 0 to 255 (and many), else as
    they are: :func:`take` converts the bytes back to float64."""
    if values.dtype == np.float64 and values.shape[0] >= _BYTE_ROWS:
        low, high = values.min(), values.max()
        if 0 <= low and high <= 255:
            small = values.astype(np.uint8)  # in range: no cast is undefined
            if np.equal(small, values).all():  # integers
                return small
    return values


_GATHER_ROWS = 2**16
"""Rows gathered per ``np.take`` call by :func:`gather`."""


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
    """The queries in blocks of equal width, at most ``max_cells`` documents each.

    For shuffled rows read through their ``order`` (:func:`block_columns`), each
    block carries the input row of each of its cells (:attr:`Block.rows`), and
    holds a quarter as many documents: these blocks are what the call takes
    beyond its input and the order."""
    if queries.order is not None:
        max_cells //= 4
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
            starts = queries.starts[chosen]
            rows = None
            if queries.order is not None:
                rows = _windows(queries.order, starts, width).astype(np.intp)
            yield Block(chosen, starts, queries.sizes[chosen], width, rows)


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
    """``values`` (one per input row, or per position of the grouped layout, as
    :func:`block_columns` returns them) laid out as ``block``; ``fill`` in the
    ``padding`` cells (:meth:`Block.padding`). Bytes come back as float64."""
    if block.starts is None:
        return values.reshape(shape)[block.queries]
    if block.rows is None:
        taken = _windows(values, block.starts, block.width)
    else:
        taken = np.take(values, block.rows, mode="clip")  # the rows are valid
    if taken.dtype == np.uint8:
        taken = taken.astype(np.float64)
    if padding is not None:
        np.putmask(taken, padding, fill)
    return taken


def _windows(values: np.ndarray, starts: np.ndarray, width: int) -> np.ndarray:
    """The ``width`` consecutive values from each of ``starts``, one row each.

    Fancy indexing of a strided view of all windows copies them row by row, many
    times faster than np.take of a 2-D index. Windows that read past the end (the
    last queries) are clipped to the last value.
    """
    last = values.shape[0] - width  # the last window's start
    step = values.strides[0]
    windows = np.ndarray((last + 1, width), values.dtype, values, 0, (step, step))
    taken = windows[np.minimum(starts, last)]
    beyond = np.flatnonzero(starts > last)  # windows past the end: the last queries
    if beyond.shape[0]:
        rows = starts[beyond, np.newaxis] + np.arange(width)
        taken[beyond] = np.take(values, rows, mode="clip")
    return taken
