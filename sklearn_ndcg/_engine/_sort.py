"""Sort rows by an integer key, input order kept among equal keys.

The grouping of shuffled rows into queries (``_queries``) sorts them by their ids'
integer key: a least-significant-digit radix sort whose passes are scipy's counting sort
(private to scipy: probed on first use, see CONTRIBUTING's "Private dependencies"), or
without it numpy's sort of each key packed with its row number into one 64-bit word;
many compact keys are first split into parts by their top bits, wide keys sorted by
their top bits first.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable

import numpy as np


def _span(qid: np.ndarray) -> tuple[int, int]:
    """The smallest integer id, and the number of bits the ids span above it."""
    low = int(qid.min())
    return low, (int(qid.max()) - low).bit_length()


def _offsets(
    qid: np.ndarray, span: tuple[int, int] | None = None, out: np.ndarray | None = None
) -> tuple[np.ndarray, int]:
    """Integer ids less the smallest, in the narrowest unsigned type that holds
    them, and the number of bits they span (``span``: :func:`_span`, if known).

    The subtraction is done in the ids' own width, unsigned (it wraps, so negative
    ids and any integer dtype work, and the ids are never widened); the ids are in
    this machine's byte order (``_queries._integer_key``). ``out``: an array to write
    them into (of any integer type that holds them) instead of a new one.
    """
    low, n_bits = _span(qid) if span is None else span
    unsigned = np.dtype(f"u{qid.dtype.itemsize}")
    if out is None:
        out = np.empty(qid.shape[0], dtype=np.min_scalar_type((1 << n_bits) - 1))
    low_id = unsigned.type(low % 2 ** (8 * unsigned.itemsize))
    np.subtract(qid.view(unsigned), low_id, out=out)
    return out, n_bits


def sort_into_queries(key: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows ordered by an integer ``key`` (``_queries._integer_key``, or codes), input
    order kept among equal keys: ``(order, sizes, starts)`` of the runs of equal keys.

    Many compact keys (at most 4 bytes each, e.g. int32 ids) spanning many bits are
    first split into parts by their top bits (:func:`_split_by_top_bits`), and each
    part is sorted on its own (:func:`_stable_order`): the sort's scratch arrays are
    then those of one part, so the grouping takes little more memory than the int32
    order it returns. Wider keys are sorted whole: each part would read them again.
    """
    span = _span(key)
    n_rows, n_bits = key.shape[0], span[1]
    split = key.dtype.itemsize <= 4 and n_rows >= _SPLIT_ROWS and n_bits > _SPLIT_BITS + 8
    counting_sort = _counting_sort(n_rows)
    if not split or counting_sort is None:
        order, sorted_key = _stable_order(*_offsets(key, span))
        starts = _run_starts(sorted_key)
    else:
        order, bounds = _split_by_top_bits(key, span, counting_sort)
        part_starts = []
        for first, stop in zip(bounds[:-1].tolist(), bounds[1:].tolist()):
            if first == stop:
                continue
            rows = order[first:stop]  # a view: sorted in place
            part_order, part_key = _stable_order(*_offsets(np.take(key, rows)), rows)
            if part_order is not rows:
                rows[...] = part_order
            part_starts.append(_run_starts(part_key) + first)
        starts = np.concatenate(part_starts)
    sizes = np.empty(starts.shape[0], dtype=np.intp)
    np.subtract(starts[1:], starts[:-1], out=sizes[:-1])
    sizes[-1] = n_rows - starts[-1]
    return order, sizes, starts


def _run_starts(sorted_key: np.ndarray) -> np.ndarray:
    """Where each run of equal values of ``sorted_key`` starts."""
    new = np.empty_like(sorted_key, dtype=bool)
    new[0] = True
    np.not_equal(sorted_key[1:], sorted_key[:-1], out=new[1:])
    return np.flatnonzero(new)


_SPLIT_ROWS = 2**18
"""From this many rows, keys of 4 bytes or fewer spanning more than ``_SPLIT_BITS + 8``
bits are split into parts before they are sorted (:func:`sort_into_queries`)."""

_SPLIT_BITS = 4
"""The top bits that split the rows: 16 parts, each with a sixteenth of the scratch."""

_SPLIT_CHUNK = 2**16
"""Rows split per pass of :func:`_split_by_top_bits`."""


def _split_by_top_bits(
    key: np.ndarray, span: tuple[int, int], counting_sort: Callable
) -> tuple[np.ndarray, np.ndarray]:
    """The rows grouped by the top ``_SPLIT_BITS`` bits of their offset key (see
    :func:`_offsets`; ``span``: :func:`_span`), input order within each part:
    ``(order, bounds)``, part ``p`` at ``order[bounds[p]:bounds[p + 1]]``. The
    parts are in key order.

    Chunk by chunk, so that no array of all rows but the int32 order is made: a
    first pass counts the rows of each part; a second sorts each chunk's rows by
    part (scipy's counting sort) and copies each part's run to its place.
    """
    n_rows, n_parts = key.shape[0], 1 << _SPLIT_BITS
    offset = np.empty(_SPLIT_CHUNK, dtype=np.min_scalar_type((1 << span[1]) - 1))
    shift = offset.dtype.type(span[1] - _SPLIT_BITS)
    label = np.empty(_SPLIT_CHUNK, dtype=np.int32)
    chunks = [slice(start, start + _SPLIT_CHUNK) for start in range(0, n_rows, _SPLIT_CHUNK)]

    def parts_of(chunk: slice) -> np.ndarray:
        """The part of each row of ``chunk``: the top bits of its offset key."""
        size = key[chunk].shape[0]
        _offsets(key[chunk], span, out=offset[:size])
        np.right_shift(offset[:size], shift, out=label[:size])
        return label[:size]

    counts = [np.bincount(parts_of(chunk), minlength=n_parts) for chunk in chunks]
    bounds = np.zeros(n_parts + 1, dtype=np.intp)
    np.cumsum(np.sum(counts, axis=0), out=bounds[1:])
    order = np.empty(n_rows, dtype=np.int32)
    at = bounds[:-1].tolist()  # where the next rows of each part go
    rows = np.arange(_SPLIT_CHUNK, dtype=np.int32)
    by_part = np.empty_like(rows)
    unused_in, unused_out = np.zeros(_SPLIT_CHUNK, np.int8), np.empty(_SPLIT_CHUNK, np.int8)
    heads = np.empty(n_parts + 1, dtype=np.int32)
    for chunk, count in zip(chunks, counts):
        part = parts_of(chunk)
        size = part.shape[0]
        counting_sort(
            n_parts, size, size, part, rows[:size], unused_in[:size],
            heads, by_part[:size], unused_out[:size],
        )  # fmt: skip
        by_part[:size] += np.int32(chunk.start)
        for p in np.flatnonzero(count).tolist():
            order[at[p] : at[p] + count[p]] = by_part[heads[p] : heads[p + 1]]
            at[p] += int(count[p])
    return order, bounds


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
"""From this many rows scipy's counting sort (a byte per pass) beats numpy's argsort."""


def _counting_sort(n_rows: int) -> Callable | None:
    """scipy's counting sort for ``n_rows`` rows, or None: too few rows (numpy's
    ``argsort`` is faster), too many for its int32 indices, no scipy, or scipy not loaded
    yet (the import costs more than the sort saves over :func:`_radix_order`)."""
    if not _COUNTING_SORT_ROWS <= n_rows < 2**31 or "scipy.sparse" not in sys.modules:
        return None
    return _scipy_counting_sort()


_RADIX_BITS = 16  # numpy's stable sort of 16-bit keys is a radix sort, of wider a merge


def _radix_order(key: np.ndarray, n_bits: int) -> np.ndarray:
    """``np.argsort(key, kind="stable")`` of unsigned keys below ``2**n_bits``, numpy
    only (CONTRIBUTING, "Private dependencies", has its time against scipy's counting
    sort's): keys that fit 64 bits beside their row numbers by one sort of the two
    packed together (:func:`_packed_order`); wider keys that mostly differ in their top
    bits (hashed ids) likewise by their top bits, then the rows whose top bits tie
    sorted again; other keys by a radix sort, each pass numpy's stable sort of the next
    16 bits."""
    row_bits = _row_bits(key.shape[0])
    if n_bits + row_bits <= 64 or _top_bits_tell_apart(key, n_bits):
        return _packed_order(key, n_bits, row_bits)
    order = np.argsort(key.astype(np.uint16), kind="stable")  # by the low 16 bits
    for shift in range(_RADIX_BITS, n_bits, _RADIX_BITS):
        digit = (key >> key.dtype.type(shift)).astype(np.uint16)[order]
        order = order[np.argsort(digit, kind="stable")]
    return order


def _row_bits(n_rows: int) -> int:
    return max(1, (n_rows - 1).bit_length())


def _packed_order(key: np.ndarray, n_bits: int, row_bits: int) -> np.ndarray:
    """:func:`_radix_order` by one sort of 64-bit words, each a key's top bits (all of
    them where they fit) above its row number: a unique word per row, so that numpy's
    fast unstable sort gives the stable order. Where bits were left out, the rows of a
    top that holds several distinct keys are sorted again by their whole key, in place
    (1M random 64-bit ids share their top 44 bits about never)."""
    shift = key.dtype.type(max(0, n_bits + row_bits - 64))
    packed = (key >> shift).astype(np.uint64)
    packed <<= np.uint64(row_bits)
    packed |= np.arange(key.shape[0], dtype=np.uint64)
    packed.sort()
    order = (packed & np.uint64((1 << row_bits) - 1)).astype(np.intp)
    if not shift:
        return order
    ordered = key[order]
    rows = _rows_of_mixed_digits(ordered, shift)
    if rows is not None:
        # the tops' rows, in increasing order of their tops, sorted by the whole key: they
        # stay top by top, equal keys in the order of their rows
        order[rows] = order[rows][np.argsort(ordered[rows], kind="stable")]
    return order


def _rows_of_mixed_digits(
    ordered: np.ndarray, shift, starts: np.ndarray | None = None
) -> np.ndarray | None:
    """The rows of keys sorted by their top digit (``key >> shift``) whose digit holds
    several distinct keys, digit by digit (None: no such digit). A digit holds several
    keys where two neighbours differ in lower bits only. ``starts``: each digit's first
    row (and one past the last), as the counting sort gives them; else searched."""
    differ = ordered[1:] ^ ordered[:-1]
    changes = np.flatnonzero((differ != 0) & (differ < ordered.dtype.type(1) << shift))
    del differ
    if not changes.size:
        return None
    mixed = np.unique(ordered[changes] >> shift)
    if starts is None:
        top = ordered >> shift
        first, stop = np.searchsorted(top, mixed, "left"), np.searchsorted(top, mixed, "right")
    else:
        first, stop = starts[mixed], starts[mixed + 1]
    sizes = stop - first
    return np.arange(int(sizes.sum())) + np.repeat(first - (np.cumsum(sizes) - sizes), sizes)


def _stable_order(
    key: np.ndarray, n_bits: int, rows: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The stable sort of unsigned integer keys below ``2**n_bits``:
    ``(order, sorted keys)``, as ``np.argsort(key, kind="stable")`` and the keys
    in that order.

    A least-significant-digit radix sort, one byte per pass: each pass is scipy's
    counting sort of the rows by that byte of their key, which moves the rows'
    numbers and keys with them, so neither is gathered afterwards. In O(n) per
    byte, several times faster than numpy's sort of keys wider than 16 bits (and
    its radix sort of 16-bit keys, which reads the keys through the order). Keys
    wider than 32 bits are sorted by their top bits first (:func:`_by_top_bits`).
    Without it, :func:`_radix_order` (or ``argsort``), in intp; else the order is int32.
    ``key`` is the caller's own scratch array: it may be
    overwritten. ``rows``: int32 numbers of the keys' rows, which the order gives
    instead of ``0 .. n - 1``; it may be overwritten too.
    """
    n_rows = key.shape[0]
    counting_sort = _counting_sort(n_rows)
    if counting_sort is None:
        radix = n_bits > _RADIX_BITS and _COUNTING_SORT_ROWS <= n_rows
        order = _radix_order(key, n_bits) if radix else np.argsort(key, kind="stable")
        return (order if rows is None else rows[order]), key[order]
    if rows is None:
        rows = np.arange(n_rows, dtype=np.int32)
    if n_bits > 32 and _top_bits_tell_apart(key, n_bits):
        return _by_top_bits(key, n_bits, rows, counting_sort)
    return _by_bytes(key, rows, n_bits, counting_sort)


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
    key: np.ndarray, n_bits: int, order: np.ndarray, counting_sort: Callable
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_stable_order` of keys wider than 32 bits that mostly differ in their top
    bits (:func:`_top_bits_tell_apart`), of the rows ``order``: one counting pass by
    their top bits (up to ``_TOP_BITS``), then the rows of the digits that hold
    several distinct keys sorted a byte per pass (:func:`_by_bytes`), in place.

    20,000 random 64-bit ids share a 20-bit digit 2 % of the time, so one pass and a
    short second sort replace eight passes.
    """
    n_rows = key.size
    top_bits, shift = _top_digit(n_rows, n_bits)
    shift = key.dtype.type(shift)
    digit, order_out, key_out = np.empty_like(order), np.empty_like(order), np.empty_like(key)
    np.right_shift(key, shift, out=digit)
    heads = np.empty((1 << top_bits) + 1, dtype=np.int32)  # the start of each digit's rows
    counting_sort(1 << top_bits, n_rows, n_rows, digit, order, key, heads, order_out, key_out)
    del digit, order
    order, key = order_out, key_out
    rows = _rows_of_mixed_digits(key, shift, heads)
    if rows is not None:
        # sorted by the whole key, they stay digit by digit: back in the same places
        order[rows], key[rows] = _by_bytes(key[rows], order[rows], n_bits, counting_sort)
    return order, key
