"""Order documents by score with a tie rule, and the ideal order."""

from __future__ import annotations

import numpy as np

from ._ranking_options import ARGSORT_TIES, DOCNO_TIES


def rank_block(
    score: np.ndarray, gain: np.ndarray, sizes: np.ndarray, ties: str, k: int | None
) -> np.ndarray:
    """Gains of each row of a block by decreasing score, the first ``k`` positions.

    Parameters
    ----------
    score, gain : ndarray of shape (n_queries, width)
        One query per row; cells beyond a query's size are padding, with score
        ``-inf`` so that they sort last: the documents' scores must be above it.
    sizes : ndarray of shape (n_queries,)
        Documents in each query.
    ties : {"average", "first", "optimistic", "pessimistic", "argsort", "docno"}
        How documents with equal scores are ordered.

        - "average": each tied document gets the mean gain of its group, which
          gives the expected DCG over all orderings of the group (McSherry and
          Najork, 2008), also when ``k`` cuts through the group.
        - "first": tied documents keep their input order (the order of the row).
        - "optimistic": tied documents by decreasing gain (an upper bound).
        - "pessimistic": tied documents by increasing gain (a lower bound).
        - "argsort": as "first"; the validation has laid out 2-D input in
          scikit-learn's order (:data:`ARGSORT_TIES`).
        - "docno": as "first", refusing tied documents of different gains
          (:data:`DOCNO_TIES`).
    k : int or None
        The cutoff; None means the whole row.

    Returns
    -------
    ndarray of shape (n_queries, min(k, width))
        Ranked gains, 0 in padding cells.
    """
    width = score.shape[1]
    k = width if k is None else min(k, width)
    n_top = min(k + 1, width)  # one more than k: is a tie group cut at k?
    # wide rows: the top found from the n_top + 1 largest scores of each row
    largest = _largest(score, n_top + 1) if _SELECT_RATIO * n_top < width else None
    if ties == "average" and largest is not None and _tied(largest[:, :n_top]):
        return _average_by_threshold(score, gain, largest, k)
    order = order_rows(score, gain, ties, n_top, largest)
    return ordered_gains(order, score, gain, sizes, ties, k)


def ordered_gains(
    order: np.ndarray, score: np.ndarray, gain: np.ndarray, sizes: np.ndarray, ties: str, k: int
) -> np.ndarray:
    """:func:`rank_block` from ``order`` (:func:`order_rows` of its first ``k`` or
    ``k + 1`` columns, or of the whole row): the gains in that order, the first ``k``,
    tie groups averaged for ``ties="average"``."""
    width, n_top = score.shape[1], order.shape[1]
    flat = order + (np.arange(score.shape[0]) * width)[:, np.newaxis]  # as _take_along_rows
    top_score = np.take(score.reshape(-1), flat)
    top_gain = np.take(gain.reshape(-1), flat)
    real = np.arange(n_top) < sizes[:, np.newaxis]
    if sizes.min() < n_top:  # padding among the top: it ranks no gain
        top_gain = np.where(real, top_gain, 0.0)
    tied = (top_score[:, 1:] == top_score[:, :-1]) & real[:, 1:]
    if ties == DOCNO_TIES:
        _refuse_ties_without_docno(tied, top_gain, score, gain, sizes, k, top_score)
    if ties != "average" or not tied.any():
        return top_gain[:, :k]
    new_group = np.ones(top_gain.shape, dtype=bool)
    new_group[:, 1:] = ~tied
    averaged = _average_over_groups(top_gain.ravel(), new_group.ravel()).reshape(top_gain.shape)
    if n_top > k:  # a tie group cut at k: the mean gain of all its documents
        cut = np.flatnonzero(tied[:, k - 1])
        if cut.shape[0]:
            rows = _rows_to_read(cut, score.shape[0])
            threshold = top_score[rows, k - 1, np.newaxis]
            member = score[rows] == threshold
            if sizes.min() < score.shape[1]:  # padding (-inf) is never a member
                member &= np.arange(score.shape[1]) < sizes[rows, np.newaxis]
            group_mean = np.where(member, gain[rows], 0.0).sum(axis=1)
            group_mean /= np.maximum(np.count_nonzero(member, axis=1), 1)  # 0: not cut
            if isinstance(rows, slice):
                threshold, group_mean = threshold[cut], group_mean[cut]
            in_group = top_score[cut, :k] == threshold
            averaged[cut, :k] = np.where(in_group, group_mean[:, np.newaxis], averaged[cut, :k])
    return averaged[:, :k]


def _refuse_ties_without_docno(tied, top_gain, score, gain, sizes, k: int, top_score) -> None:
    """Refuse tied scores whose order changes the value, for ``ties="docno"``: a tie
    group in the top ``k`` holding different gains (also members beyond the top)."""
    differ = (tied & (top_gain[:, 1:] != top_gain[:, :-1])).any()
    if not differ and k < score.shape[1] and tied.shape[1] >= k:
        cut = np.flatnonzero(tied[:, k - 1])  # a tie group straddles k: all its members
        if cut.shape[0]:
            threshold = top_score[cut, k - 1, np.newaxis]
            member = (score[cut] == threshold) & (np.arange(score.shape[1]) < sizes[cut, None])
            high = np.where(member, gain[cut], -np.inf).max(axis=1)
            low = np.where(member, gain[cut], np.inf).min(axis=1)
            differ = (high != low).any()
    if differ:
        refuse_ties_without_docno()


def refuse_ties_without_docno() -> None:
    """The refusal of tied documents of different labels under ``ties="docno"``, where
    the document ids that would order them are unknown."""
    raise ValueError(
        "ties='docno' (trec_eval's order of tied scores by decreasing document id) "
        "needs document ids, which this function does not have, and y_score has tied "
        "documents of different labels. Use evaluate_run or the trec-eval command "
        "(they know the ids), or break the ties by document id first (see the user "
        "guide on judgment pools) and pass ties='first'."
    )


def _tied(largest: np.ndarray) -> bool:
    """Whether any row of decreasing scores holds equal ones (padding aside)."""
    return bool(((largest[:, 1:] == largest[:, :-1]) & (largest[:, 1:] > -np.inf)).any())


def _average_by_threshold(
    score: np.ndarray, gain: np.ndarray, largest: np.ndarray, k: int
) -> np.ndarray:
    """:func:`rank_block` with ``ties="average"``, from the ``k``-th largest score of
    each row (its threshold), for rows wider than ``k`` holding ties.

    The tie group at the threshold holds the positions of ``largest`` equal to it:
    each gets the mean gain of all the group's documents, found in the block (flat
    indices, summed by row). The documents above it (fewer than ``k``) are found in
    the block once; each tie group among them, a run of equal values in
    ``largest``, gets its mean gain. No row is sorted but the ``largest`` scores
    given (in decreasing order); no sum runs along the block's short rows.
    """
    n_rows, width = score.shape
    top = largest[:, :k]
    threshold = largest[:, k - 1, np.newaxis]
    flat_score, flat_gain = score.reshape(-1), gain.reshape(-1)
    # the group at the threshold, with its members beyond k (padding, -inf, only
    # where a row has under k documents: its mean is then 0)
    members = np.flatnonzero(score == threshold)
    member_row = members // width
    group_sum = np.bincount(member_row, weights=np.take(flat_gain, members), minlength=n_rows)
    count = np.bincount(member_row, minlength=n_rows)
    real = threshold[:, 0] > -np.inf
    mean = np.divide(group_sum, count, out=np.zeros(n_rows), where=real)
    at_threshold = (top == threshold).reshape(-1)
    cells = np.flatnonzero(score > threshold)
    if not cells.shape[0]:
        return np.where(at_threshold, np.repeat(mean, k), 0.0).reshape(n_rows, k)
    # each position's group starts where its value first appears in the row: flat
    # positions carried forward over the flat rows (each row starts a group)
    new_group = np.ones((n_rows, k), dtype=bool)
    new_group[:, 1:] = top[:, 1:] != top[:, :-1]
    positions = np.arange(n_rows * k).reshape(n_rows, k)
    group_start = np.maximum.accumulate(np.where(new_group, positions, 0).reshape(-1))
    row = cells // width
    above = np.take(flat_score, cells)
    # each document's group starts at the count of larger scores in its row,
    # counted a column of `largest` at a time (faster than along short rows)
    start = row * k
    for column in np.ascontiguousarray(top.T):
        start += np.take(column, row) > above
    sums = np.bincount(start, weights=np.take(flat_gain, cells), minlength=n_rows * k)
    counts = np.bincount(start, minlength=n_rows * k)
    means = np.divide(sums, counts, out=sums, where=counts > 0)
    ranked = np.take(means, group_start)
    ranked[at_threshold] = np.repeat(mean, k)[at_threshold]
    return ranked.reshape(n_rows, k)


def order_rows(
    score: np.ndarray, gain: np.ndarray, ties: str, n_top: int, largest: np.ndarray | None = None
) -> np.ndarray:
    """Column indices of the first ``n_top`` documents of each row, by decreasing
    score, tied documents in the order of the rule (any order for "average").
    ``largest``: the ``n_top + 1`` largest scores of each row, given for rows wide
    enough to select their top first.

    The rules that keep tied documents in input order ("first", "argsort",
    "docno") sort rows wider than ``_STABLE_WIDTH`` like "average", with numpy's
    fast unstable sorts, and sort again stably only the rows where ties make the
    order matter.
    """
    if ties == "optimistic" or ties == "pessimistic":
        secondary = -gain if ties == "optimistic" else gain
        return np.lexsort((secondary, -score), axis=-1)[:, :n_top]
    in_order = ties == "first" or ties == ARGSORT_TIES or ties == DOCNO_TIES
    if largest is not None:  # select the top first, then sort it
        top = _top_columns(score, n_top, largest)
        top_score = _take_along_rows(score, top)
        # the top columns are in column order: a stable sort keeps tied ones in it
        by_score = np.argsort(-top_score, axis=1, kind="stable" if in_order else None)
        return _take_along_rows(top, by_score)
    if in_order and score.shape[1] <= _STABLE_WIDTH:
        return np.argsort(-score, axis=1, kind="stable")[:, :n_top]
    order = np.argsort(-score, axis=1)
    if in_order:
        _tied_in_column_order(score, order)
    return order[:, :n_top]


_SELECT_RATIO = 3
"""Rows wider than this many times the top (``k + 1`` documents) have their top
selected before it is sorted; narrower rows are sorted whole. At 3 rather than 4,
rows of 34 to 44 documents at ``k=10`` are selected too, which took 1-4 % less
time per call on the benchmark's queries of 1 to 99 documents (ties or not)."""

_STABLE_WIDTH = 24
"""Up to this width numpy's stable sort of rows is faster than its fast sort followed
by :func:`_tied_in_column_order`."""


def _tied_in_column_order(score: np.ndarray, order: np.ndarray) -> None:
    """Put the tied scores of each row of ``order`` (columns by decreasing score, from
    an unstable sort) in column order, in place.

    Only rows with ties are touched: their tie groups numbered along the row,
    the columns sorted by ``group * width + column`` (distinct integers, so
    numpy's fast sort does it; in 16 bits, its fastest, while they fit).
    """
    sorted_score = _take_along_rows(score, order)
    same = sorted_score[:, 1:] == sorted_score[:, :-1]
    # padding (-inf, sorted last) ties with itself but is never ranked
    rows = np.flatnonzero((same & (sorted_score[:, 1:] > -np.inf)).any(axis=1))
    if rows.shape[0]:
        width = order.shape[1]
        key_type = np.dtype(np.int16 if width * width < 2**15 else order.dtype)
        key = np.zeros((rows.shape[0], width), dtype=key_type)
        key[:, 1:] = _running_count(~same[rows])  # the tie group of each column
        key *= key_type.type(width)
        key += order[rows].astype(key_type, copy=False)
        key.sort(axis=1)
        order[rows] = key % width


def _rows_to_read(cut: np.ndarray, n_rows: int) -> np.ndarray | slice:
    """The rows ``cut`` of a block, or all its rows (a view, no copy) when they are most
    of them, as with heavy ties."""
    return slice(None) if 2 * cut.shape[0] > n_rows else cut


def _running_count(mask: np.ndarray) -> np.ndarray:
    """``np.cumsum(mask, axis=1)`` of a 2-D boolean mask, by one cumulative sum of the
    flat mask less each row's start (numpy's sums along short rows are several
    times slower)."""
    flat = np.cumsum(mask.reshape(-1), dtype=np.int32 if mask.size < 2**31 else np.intp)
    count: np.ndarray = flat.reshape(mask.shape)
    count -= (count[:, 0] - mask[:, 0])[:, np.newaxis]
    return count


def _top_columns(score: np.ndarray, n_top: int, largest: np.ndarray) -> np.ndarray:
    """The columns of the ``n_top`` largest scores of each row (fewer than the row's
    width), in column order; of a tie group cut by the top, its first members (as
    the rule "first" needs).

    The ``n_top + 1`` ``largest`` scores of each row (:func:`_largest`, faster than
    ``np.argpartition``) give the threshold, the ``n_top``-th of them: the columns
    at or above it are the top, in column order, unless the next score ties with
    it (a tie group cut by the top). In those rows the top takes the columns above
    the threshold and the first tied ones that fit.
    """
    width = score.shape[1]
    threshold = largest[:, n_top - 1, np.newaxis]
    top = score >= threshold
    cut = np.flatnonzero(largest[:, n_top] == threshold[:, 0])
    if cut.shape[0]:
        rows = _rows_to_read(cut, score.shape[0])  # uncut rows: all their tied columns fit
        part, at_cut = score[rows], threshold[rows]
        tied = part == at_cut
        room = n_top - np.count_nonzero(largest[:, :n_top] > threshold, axis=1)[rows]
        top[rows] = (part > at_cut) | (tied & (_running_count(tied) <= room[:, np.newaxis]))
    flat = np.flatnonzero(top).reshape(score.shape[0], n_top)
    return flat - (np.arange(score.shape[0]) * width)[:, np.newaxis]


def tie_ranks_block(score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The first and last rank (from 1) of each cell's group of tied scores in its row,
    rows ranked by decreasing score: arrays of the block's shape.

    Padding cells hold ``-inf``, rank last and tie only with each other, so the
    documents' groups are those of their scores alone.
    """
    n_rows, width = score.shape
    order = np.argsort(-score, axis=1)  # any order within a tie group
    ranked = _take_along_rows(score, order)
    position = np.broadcast_to(np.arange(width), score.shape)
    new_group = np.ones(score.shape, dtype=bool)
    new_group[:, 1:] = ranked[:, 1:] != ranked[:, :-1]
    ends = np.ones(score.shape, dtype=bool)
    ends[:, :-1] = new_group[:, 1:]
    first = np.maximum.accumulate(np.where(new_group, position, 0), axis=1)
    last = np.minimum.accumulate(np.where(ends, position, width)[:, ::-1], axis=1)[:, ::-1]
    cells = order + (np.arange(n_rows) * width)[:, np.newaxis]  # where each rank's cell is
    first_rank = np.empty(score.size, dtype=np.intp)
    last_rank = np.empty(score.size, dtype=np.intp)
    first_rank[cells.reshape(-1)] = first.reshape(-1) + 1
    last_rank[cells.reshape(-1)] = last.reshape(-1) + 1
    return first_rank.reshape(score.shape), last_rank.reshape(score.shape)


def ideal_block(gain: np.ndarray, k: int | None) -> np.ndarray:
    """Gains of each row of a block by decreasing gain, the first ``k`` positions.

    Padding cells hold ``-inf`` and come out as 0.
    """
    width = gain.shape[1]
    top = _largest(gain, width if k is None else min(k, width))
    return np.where(top == -np.inf, 0.0, top)


def worst_block(gain: np.ndarray, k: int | None) -> np.ndarray:
    """Gains of each row of a block by increasing gain, the first ``k`` positions.

    The worst ordering of a query's documents (Gienapp et al., 2020). Padding
    cells hold ``-inf``, stay last and come out as 0.
    """
    flipped = np.negative(gain, where=gain != -np.inf, out=np.full(gain.shape, -np.inf))
    return -ideal_block(flipped, k)


def tie_cut_block(score: np.ndarray, sizes: np.ndarray, k: int) -> np.ndarray:
    """Whether each row's top ``k`` ends inside a tie group (a tie straddles k)."""
    width = score.shape[1]
    if k >= width:
        return np.zeros(score.shape[0], dtype=bool)
    top = -np.partition(-score, (k - 1, k), axis=1)[:, k - 1 : k + 1]
    return (top[:, 0] == top[:, 1]) & (sizes > k)


_SORT_WIDTH = 256
"""Up to this width, sorting whole rows (numpy's vectorized sorts) is faster than a
partition followed by a sort of the top."""


def _largest(values: np.ndarray, n: int) -> np.ndarray:
    """The ``n`` largest values of each row, in decreasing order."""
    width = values.shape[1]
    if width <= _SORT_WIDTH or 4 * n >= width:
        top = np.sort(values, axis=1)[:, width - n :]
    else:
        top = np.sort(np.partition(values, width - n, axis=1)[:, width - n :], axis=1)
    return np.ascontiguousarray(top[:, ::-1])


def _average_over_groups(gain: np.ndarray, new_group: np.ndarray) -> np.ndarray:
    """Replace each gain by the mean gain of its group of consecutive documents."""
    starts = np.flatnonzero(new_group)
    counts = np.diff(np.append(starts, gain.size))
    return np.repeat(np.add.reduceat(gain, starts) / counts, counts)


def group_means(values: np.ndarray, starts: np.ndarray, sizes: np.ndarray) -> np.ndarray:
    """The mean of each group of consecutive ``values`` (``sizes`` values from each of
    ``starts``, increasing, the groups apart), as ``np.add.reduceat(values, starts) /
    sizes`` gives them over groups that fill ``values``, bit for bit.

    Only the groups of several values are summed: pairs by one addition, larger ones
    by ``np.add.reduceat`` of pairs of bounds (their ends included); a value alone is
    its own mean.
    """
    means = np.take(values, starts).astype(np.result_type(values.dtype, sizes.dtype))
    pairs = np.flatnonzero(sizes == 2)
    if pairs.shape[0]:
        first = starts[pairs]
        means[pairs] = (np.take(values, first) + np.take(values, first + 1)) / sizes[pairs]
    several = np.flatnonzero(sizes > 2)
    if several.shape[0]:
        bounds = np.empty(2 * several.shape[0], dtype=np.intp)
        bounds[0::2] = starts[several]
        bounds[1::2] = bounds[0::2] + sizes[several]
        if bounds[-1] == values.shape[0]:  # the last group runs to the end
            bounds = bounds[:-1]
        means[several] = np.add.reduceat(values, bounds)[0::2] / sizes[several]
    return means


def _take_along_rows(values: np.ndarray, index: np.ndarray) -> np.ndarray:
    """``np.take_along_axis(values, index, axis=1)`` by ``np.take`` of flat indices,
    several times faster than numpy's 2-D fancy indexing."""
    flat = index + (np.arange(values.shape[0]) * values.shape[1])[:, np.newaxis]
    return np.take(values.reshape(-1), flat)
