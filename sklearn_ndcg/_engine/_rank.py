"""The measures of binary relevance beside NDCG: reciprocal rank, average precision,
precision, recall and success, from the one grouping and the one tie rule.

A document is relevant when its label is at least ``relevance_level`` (trec_eval's
``-l``). Each block of queries is ordered once (:func:`._ties.order_rows`, the tie rule's
order) and every measure asked for is summed from that order, at each of its cutoffs.
With ``ties="average"`` each value is its exact expected value over the orders of the
tied documents (each order equally likely), so it never depends on the input order:

- precision and recall are linear in the relevance at each rank: a tied document's
  expected relevance is its group's share of relevant documents;
- average precision sums ``rel(i) * (relevant in the top i) / i``: for position ``j`` of
  a group of ``m`` documents holding ``r`` relevant ones, with ``c`` relevant above the
  group, its expected value is ``r / m * (c + 1 + (j - 1) * (r - 1) / (m - 1))`` over
  ``i`` (McSherry and Najork, 2008);
- success and reciprocal rank read ``q(i)``, the probability that none of the top ``i``
  is relevant: the product, down the ranking, of ``(m - r - j + 1) / (m - j + 1)`` at
  position ``j`` of each group. Success@k is ``1 - q(k)``, reciprocal rank the sum of
  ``(q(i - 1) - q(i)) / i``.

The other tie rules order the tied documents (input order, relevant first or last) and
each document is a group of its own, where the same formulas reduce to trec_eval's
sums. Only the groups holding relevant documents add to a sum (elsewhere ``r`` is 0, and
``q(i)`` is 1 above the first such group of a row and 0 below it), so the sums are read
from them alone, term by term in the order of a running sum down the ranking: the same
values, to the last bit. Values are raw sums here; :func:`rank_values` divides them (by
the cutoff for precision, by the number of relevant documents for recall and average
precision).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._aggregate import QueryDCG, check_overflow
from ._counts import fill_unretrieved, per_query_sum, pool_counts, ranked_counts
from ._official import (
    AT_LEVELS,
    OFFICIAL,
    ORDER_DEPENDENT,
    Ordered,
    QueryCounts,
    TieGroups,
    log_average_precision,
    official_columns,
    refuse_mixed_ties,
)
from ._pipeline import Staged, ndcg_per_query
from ._pool import PoolStaged
from ._queries import Queries, block_columns, blocks, take
from ._ranking_options import DOCNO_TIES, RANK_MEASURES
from ._ties import (
    group_means,
    ideal_block,
    order_rows,
    ordered_gains,
    refuse_ties_without_docno,
)

BY_RELEVANT = ("map", "recall", "gm_map")
"""The measures divided by the number of relevant documents of the query (undefined
without any: ``zero_division``)."""


def relevant(labels: np.ndarray, level: float) -> np.ndarray:
    """1.0 where a label is at least ``level``, else 0.0 (NaN, unjudged: 0.0)."""
    with np.errstate(invalid="ignore"):
        return (labels >= level).astype(np.float64)


DCG_MEASURES = ("ndcg", "dcg")
"""Names a request may also give (the staged gains and discounts, summed from the same
order as the measures of binary relevance); each cutoff sums two columns, the DCG and
the ideal DCG."""


def _n_sums(name: str, ks: tuple[float, ...] | None) -> int:
    """The raw columns of one request: one per cutoff (per recall level of
    ``iprec_at_recall``; one for ``rbp``'s persistence), two for NDCG and DCG."""
    if name in AT_LEVELS:
        return len(ks or ())
    n_cutoffs = 1 if ks is None or name == "rbp" else len(ks)
    return n_cutoffs * (2 if name in DCG_MEASURES else 1)


def rank_sums(
    rel: np.ndarray,
    score: np.ndarray,
    queries: Queries,
    ties: str,
    requests: tuple[tuple[str, tuple[float, ...] | None], ...],
    gains: np.ndarray | None = None,
    discounts: np.ndarray | None = None,
    levels: np.ndarray | None = None,
    counts: QueryCounts | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """The raw sums of every measure of ``requests`` for each query, from one ordering.

    ``requests`` holds ``(measure, cutoffs)`` pairs, cutoffs None for the whole
    ranking. Returns shape (n_queries, n_columns), a column per cutoff (one for None),
    in the order of ``requests``: relevant documents in the top k (precision, recall),
    the sum of precisions at relevant ranks (average precision), the reciprocal rank
    and success, queries in the order of ``queries.ids``. Requests of
    :data:`DCG_MEASURES` (given ``gains`` and ``discounts``) sum the DCG and the
    ideal DCG, two columns per cutoff, from the same order. Also returns the number
    of relevant documents of each query.

    Requests of :data:`._official.OFFICIAL` read ``levels`` (one per input row, NaN for
    unjudged documents) and each query's ``counts`` (in the order of ``queries.ids``;
    None: counted among its ranked documents).
    """
    n_columns = sum(_n_sums(name, ks) for name, ks in requests)
    result = np.empty((queries.ids.shape[0], n_columns))
    n_relevant = np.empty(queries.ids.shape[0])
    queries, rel, score, gains, levels = block_columns(queries, rel, score, gains, levels)
    for block in blocks(queries, _BLOCK_CELLS):
        padding = block.padding()
        block_rel = take(rel, block, queries.layout, 0.0, padding)
        block_score = take(score, block, queries.layout, -np.inf, padding)
        dcg = None
        if gains is not None:  # padding -inf: last in the ideal order, ranked as 0
            block_gain = take(gains, block, queries.layout, -np.inf, padding)
            dcg = _DcgInput(block_gain, block.sizes, discounts)  # type: ignore[arg-type]
        official = None
        if levels is not None:
            block_level = take(levels, block, queries.layout, np.nan, padding)
            block_counts = (
                ranked_counts(block_level, block_rel, block.sizes)
                if counts is None
                else QueryCounts(*(column[block.queries] for column in counts))
            )
            official = (block_level, block_counts)
        result[block.queries] = _block_sums(block_rel, block_score, ties, requests, dcg, official)
        n_relevant[block.queries] = block_rel.sum(axis=1)
    return result, n_relevant


_BLOCK_CELLS = 2**15
"""Documents per block here, a quarter of the engine's blocks: the many passes over a
block's ordered rows stay in cache. On 2,000 queries of 100 documents the sums took
12-15 ms at 2**15 against 19-24 ms at 2**17; on 20,000 queries of 10, 21 against 33; on
200 of 1,000, 15.5 and 15.6 (minimum CPU times, 5 measures). Blocks of 2**16 took 6-12 %
less at 5,000-10,000 queries of 100 but 18.1 against 12.1 ms at 2,000 of 100 with ties,
glibc giving each block's memory back and the next faulting it in (issue 56; RESULTS.md)."""


class _DcgInput(NamedTuple):
    """The gains of a block (padding -inf), its queries' sizes and the discounts."""

    gain: np.ndarray
    sizes: np.ndarray
    discounts: np.ndarray


def _block_sums(
    rel: np.ndarray,
    score: np.ndarray,
    ties: str,
    requests,
    dcg: _DcgInput | None = None,
    official: tuple[np.ndarray, QueryCounts] | None = None,
) -> np.ndarray:
    """:func:`rank_sums` of one block (padding: score -inf, relevance 0)."""
    n_rows, width = rel.shape
    if dcg is None:
        order = order_rows(score, rel, "average" if ties == DOCNO_TIES else ties, width)
    else:  # NDCG's order; tied documents of equal gain have equal relevance
        order = order_rows(score, dcg.gain, ties, width)
    flat = order + (np.arange(n_rows) * width)[:, np.newaxis]
    ranked_rel = np.take(rel.reshape(-1), flat)
    new_group = None  # every document a group of its own
    if ties in ("average", DOCNO_TIES):
        ranked_score = np.take(score.reshape(-1), flat)
        tied = ranked_score[:, 1:] == ranked_score[:, :-1]
        if not (ranked_score[:, -1] > -np.inf).all():  # padding (-inf) last: never tied
            tied &= ranked_score[:, 1:] > -np.inf
        if ties == DOCNO_TIES:  # tied documents of different relevance: order unknown
            if (tied & (ranked_rel[:, 1:] != ranked_rel[:, :-1])).any():
                refuse_ties_without_docno()
        elif tied.any():
            new_group = np.ones((n_rows, width), dtype=bool)
            new_group[:, 1:] = ~tied
    g = _groups(ranked_rel, new_group)
    dcg_sums: dict[str, np.ndarray] = {}  # the ranked and ideal gains, their running sums
    if dcg is not None and any(name in DCG_MEASURES for name, _ in requests):
        n = _dcg_width(requests, width)
        dcg_sums["gains"], dcg_sums["ideal"] = _dcg_gains(order, flat, score, ties, dcg, g, n)
    cells: _Cells | None = None
    first: _First | None = None
    sums_cache: dict[str, np.ndarray] = {"rel": ranked_rel}  # what the measures share
    groups = None  # the tie groups as the kernels of _official read them
    if g.ties is not None:
        groups = TieGroups(*g.ties[1:], _sizes(g.ties.start, slice(None), rel.size))
    ordered: Ordered | None = None
    columns: list[np.ndarray] = []
    for name, ks in requests:
        if name in OFFICIAL:
            if ordered is None:
                if official is None:  # never: rank_values gives the levels
                    raise TypeError(f"{name} needs the levels of the ranked documents.")
                level = np.take(official[0].reshape(-1), flat)
                ordered = Ordered(ranked_rel, level, groups, official[1])
            columns.extend(official_columns(name, ks, ordered))
            continue
        at = [width] if ks is None else [min(k, width) for k in ks]
        if name in ORDER_DEPENDENT:  # gm_map: average precision's sums, one order only
            refuse_mixed_ties(name, ranked_rel, groups)
        if name in DCG_MEASURES:
            columns.extend(_dcg_columns(ks, at, dcg.discounts, dcg_sums))  # type: ignore[union-attr]
        elif name in ("recip_rank", "success"):
            first = _first_relevant(g, n_rows) if first is None else first
            columns.extend(_first_relevant_sums(name, first, at, sums_cache))
        else:
            cells = _relevant_cells(g) if cells is None else cells
            kind = {"P": "count", "recall": "count", "gm_map": "map"}.get(name, name)
            columns.extend(_cell_sums(kind, cells, g, at, n_rows, sums_cache))
    return np.column_stack(columns) if columns else np.empty((n_rows, 0))


def _dcg_width(requests, width: int) -> int:
    """The columns of the ranked gains the DCG requests read: the largest cutoff, or
    the whole row."""
    ks = [ks for name, ks in requests if name in DCG_MEASURES]
    if any(k is None for k in ks):
        return width
    return min(max((max(k) for k in ks), default=width), width)


def _dcg_gains(order, flat, score, ties: str, dcg: _DcgInput, g: _Groups, n: int):
    """The first ``n`` ranked gains of a block's rows (tie groups averaged for
    ``ties="average"``, as :func:`._ties.ordered_gains` gives them) and the first
    ``n`` ideal gains.

    Tie groups found already (``g``) are averaged from them: the gains of each group
    starting in the first ``n`` columns summed as ``ordered_gains`` sums them
    (:func:`._ties.group_means`), each cell reading its group's mean.
    """
    ideal = ideal_block(dcg.gain, n)
    if g.ties is None:
        if n < order.shape[1] and ties != DOCNO_TIES:
            # the first n + 1 columns give the same gains: a tie group cut at n is
            # averaged from the whole row either way, the others lie in the top n
            # ("docno" reads every column, refusing tied documents of different gains)
            order = order[:, : n + 1]
        return ordered_gains(order, score, dcg.gain, dcg.sizes, ties, n), ideal
    new_group, number, starts = g.ties
    n_rows, width = score.shape
    ranked = np.take(dcg.gain.reshape(-1), flat)
    if dcg.sizes.min() < width:  # padding (-inf, a group of its own) ranks no gain
        ranked = np.where(np.arange(width) < dcg.sizes[:, np.newaxis], ranked, 0.0)
    if n == width:
        mean = group_means(ranked.reshape(-1), starts, _sizes(starts, slice(None), ranked.size))
        return np.take(mean, number).reshape(n_rows, n), ideal
    starts_here = new_group[:, :n]
    chosen = number.reshape(n_rows, width)[:, :n][starts_here]
    mean = group_means(ranked.reshape(-1), starts[chosen], _sizes(starts, chosen, ranked.size))
    # the group of each of the first n cells, among those starting there
    group: np.ndarray = np.cumsum(starts_here.reshape(-1), dtype=_index_type(starts_here.size))
    group -= 1
    return np.take(mean, group).reshape(n_rows, n), ideal


def _dcg_columns(
    ks, at: list[int], discounts: np.ndarray, cache: dict[str, np.ndarray]
) -> list[np.ndarray]:
    """The DCG and ideal DCG of a block's rows at each cutoff ``at`` of ``ks`` (None:
    the whole row), as :func:`._aggregate.dcg_at_cutoffs` and
    :func:`._aggregate.dcg_by_query` sum them (DCG@k: the first k terms of their
    running sum), from the ranked and ideal gains of :func:`_dcg_gains`."""
    gains, ideal = cache["gains"], cache["ideal"]
    n = gains.shape[1]
    with np.errstate(over="ignore", invalid="ignore"):  # refused after (check_overflow)
        if ks is None:
            return [gains @ discounts[:n], ideal @ discounts[:n]]
        if "dcg_sums" not in cache:
            cache["dcg_sums"] = _running_sums(gains * discounts[:n])
            cache["ideal_sums"] = _running_sums(ideal * discounts[:n])
    columns: list[np.ndarray] = []
    for k in at:
        columns.extend((cache["dcg_sums"][:, k - 1], cache["ideal_sums"][:, k - 1]))
    return columns


def _running_sums(terms: np.ndarray, operation: np.ufunc = np.add) -> np.ndarray:
    """``np.cumsum(terms, axis=1)`` (``np.cumprod`` with ``np.multiply``), bit for bit:
    the same operations in the same order. Up to ``_COLUMN_SUMS`` columns they run
    column by column, a vector of the rows at a time (numpy's running sums along short
    rows are slower)."""
    n_rows, n = terms.shape
    if n > _COLUMN_SUMS or n == 0:
        return operation.accumulate(terms, axis=1)
    sums = np.empty((n, n_rows))
    sums[0] = terms[:, 0]
    for j in range(1, n):
        operation(sums[j - 1], terms[:, j], out=sums[j])
    return sums.T


_COLUMN_SUMS = 32
"""The longest running sums :func:`_running_sums` takes column by column (NDCG@10's
ten columns: 12 against 21 µs a block of 327 rows; six columns of 300 rows: 5.5
against 11-12 µs, sums or products)."""


class _TieGroups(NamedTuple):
    """Every tie group of a block's ordered rows: where groups start (the block's
    shape), each cell's group (flat, from 0), and each group's first flat position
    (their sizes: :func:`_sizes`)."""

    new_group: np.ndarray
    number: np.ndarray
    start: np.ndarray


class _Groups(NamedTuple):
    """The groups of a block's ordered rows, at flat positions (row after row):
    ``ties``, every tie group (None where every document is a group of its own), and
    the groups holding relevant documents, in flat order: their ``first`` position,
    ``m`` documents, ``row``, ``r`` relevant documents and ``c`` relevant documents
    above them in their row; ``width``, the rows'."""

    ties: _TieGroups | None
    first: np.ndarray
    m: np.ndarray
    row: np.ndarray
    r: np.ndarray
    c: np.ndarray
    width: int


def _groups(rel: np.ndarray, new_group: np.ndarray | None) -> _Groups:
    """The :class:`_Groups` of ordered rows whose groups start at ``new_group`` (None:
    every document a group of its own).

    The relevant cells, in flat order, are found once: the groups holding them are
    runs of equal group numbers, and the relevant documents above a group are the
    relevant cells before its first one, less those of the rows above.
    """
    n_rows, width = rel.shape
    cells = np.flatnonzero(rel.reshape(-1) > 0)
    row = cells // width
    per_row = np.bincount(row, minlength=n_rows)
    rows_above = np.cumsum(per_row) - per_row
    if new_group is None:
        c = np.arange(cells.shape[0]) - np.take(rows_above, row)
        ones = np.ones(cells.shape[0])
        return _Groups(None, cells, ones, row, ones, c.astype(np.float64), width)
    number: np.ndarray = np.cumsum(new_group.reshape(-1), dtype=_index_type(rel.size))
    number -= 1
    start = np.flatnonzero(new_group)
    group = np.take(number, cells)
    runs = np.ones(cells.shape[0], dtype=bool)  # a group's first relevant cell
    runs[1:] = group[1:] != group[:-1]
    at = np.flatnonzero(runs)
    chosen = group[at]
    row = row[at]
    r = np.empty(at.shape[0])  # relevant cells to the next group's first (np.diff's)
    np.subtract(at[1:], at[:-1], out=r[:-1])
    r[-1:] = cells.shape[0] - at[-1:]
    c = (at - np.take(rows_above, row)).astype(np.float64)
    first, m = start[chosen], _sizes(start, chosen, rel.size).astype(np.float64)
    return _Groups(_TieGroups(new_group, number, start), first, m, row, r, c, width)


def _sizes(start: np.ndarray, chosen: np.ndarray | slice, end: int) -> np.ndarray:
    """The sizes of the groups ``chosen`` among groups starting at ``start`` (increasing,
    the last running to ``end``): the next group's start less theirs."""
    chosen_start = start[chosen]
    following = np.empty_like(chosen_start)
    if isinstance(chosen, slice):  # every group
        following[:-1] = chosen_start[1:]
        following[-1:] = end
        return following - chosen_start
    last = chosen == start.shape[0] - 1
    np.take(start, chosen + 1, out=following, mode="clip")
    following[last] = end
    return following - chosen_start


def _index_type(size: int) -> type:
    """The integers that count up to ``size``: 32 bits while they fit (numpy's running
    sums of 64-bit integers take several times longer than of 32-bit ones)."""
    return np.int32 if size < 2**31 else np.intp


class _Cells(NamedTuple):
    """The cells of the groups holding relevant documents, in flat order: each one's
    group (its index among them), row, column and place in its group less one
    (``j - 1``, float64)."""

    group: np.ndarray
    row: np.ndarray
    column: np.ndarray
    j0: np.ndarray


def _relevant_cells(g: _Groups) -> _Cells:
    """The :class:`_Cells` of the groups of ``g`` holding relevant documents: the
    only ones where a sum of precision or of relevant documents grows."""
    column = g.first - g.row * g.width
    if g.ties is None:  # one cell each
        return _Cells(np.arange(g.first.shape[0]), g.row, column, np.zeros(g.first.shape[0]))
    index = _index_type(g.width * (g.row[-1] + 1) if g.row.shape[0] else 0)  # the cells
    sizes: np.ndarray = g.m.astype(index)
    group: np.ndarray = np.repeat(np.arange(sizes.shape[0], dtype=index), sizes)
    j0 = np.arange(group.shape[0], dtype=index) - np.take(
        np.cumsum(sizes, dtype=index) - sizes, group
    )
    return _Cells(group, np.take(g.row, group), np.take(column, group) + j0, j0.astype(np.float64))


def _cell_sums(
    kind: str, cells: _Cells, g: _Groups, at: list[int], n_rows: int, cache: dict[str, np.ndarray]
):
    """The raw sums of ``kind`` ("count" of relevant documents, "map") over the top
    ``k`` of each row for each ``k`` of ``at`` (expected values over the orders of each
    group), summed cell by cell down each row as a running sum would be (the other
    cells add zeros).

    ``cache`` holds the ordered relevance of the block (``"rel"``) and keeps what
    the measures of one block share (each cell's chance to be relevant, the terms of
    average precision).
    """
    if kind == "count" and g.ties is None:
        # sums of ones (each relevant cell counts 1.0; rel is 1.0 or 0.0): whole
        # numbers, exact in any order, so the rows of the ordered relevance are summed
        return [cache["rel"][:, :k].sum(axis=1) for k in at]
    if kind not in cache:
        cache[kind] = _cell_values(kind, cells, g, cache)
    values = cache[kind]
    sums = []
    for k in at:
        top = slice(None) if k >= g.width else cells.column < k
        sums.append(np.bincount(cells.row[top], weights=values[top], minlength=n_rows))
    return sums


def _cell_values(kind: str, cells: _Cells, g: _Groups, cache: dict[str, np.ndarray]):
    """What each cell of ``cells`` adds to the sums of ``kind``: its chance to be
    relevant ("count", kept in ``cache`` for "map"), times the precision at its rank
    for "map"."""
    if g.ties is None:  # map, one cell a group: its chance is r / m = 1 / 1, exactly 1.0
        return (g.c + 1) / (cells.column + 1.0)  # and c + 1 relevant at or above it
    if "share" not in cache:
        cache["share"] = np.take(g.r / g.m, cells.group)
    share = cache["share"]
    if kind == "count":
        return share
    # map; (j - 1) (r - 1) / (m - 1) is 0 but in groups of several relevant ones
    above = np.take(g.c + 1, cells.group)
    several = np.flatnonzero(np.take(g.r > 1, cells.group))
    if several.shape[0]:
        group = cells.group[several]
        above[several] += cells.j0[several] * (g.r[group] - 1) / (g.m[group] - 1)
    return share * above / (cells.column + 1.0)


class _First(NamedTuple):
    """Each row's first group holding relevant documents: its rows, the group's first
    column ``s`` and its size ``m`` and relevant count ``r`` (float64)."""

    rows: np.ndarray
    s: np.ndarray
    m: np.ndarray
    r: np.ndarray
    n_rows: int


def _first_relevant(g: _Groups, n_rows: int) -> _First:
    """The :class:`_First` of ``g``: above it no document is relevant (``q(i)`` is 1),
    and below it ``q(i)`` is 0."""
    new_row = np.ones(g.row.shape[0], dtype=bool)
    new_row[1:] = g.row[1:] != g.row[:-1]
    rows = g.row[new_row]
    s = (g.first[new_row] - rows * g.width).astype(np.float64)
    return _First(rows, s, g.m[new_row], g.r[new_row], n_rows)


def _first_relevant_sums(
    name: str, f: _First, at: list[int], cache: dict[str, np.ndarray]
) -> list[np.ndarray]:
    """Success or reciprocal rank at each cutoff of ``at`` (expected values over the
    orders of each group), from ``q(i)``, the probability that none of the top ``i`` is
    relevant: 1 above the first group holding relevant documents, the running product of
    ``(m - r - j + 1) / (m - j + 1)`` at its place ``j``, 0 from ``j = m - r + 1`` on.
    The terms are summed as a running sum down the row would sum them (above and below
    that group it adds zeros). ``cache`` keeps ``q`` for the other measure of the
    block (at the places it needs: the longest cutoff of either, or the group's end)."""
    # q at the group's places j = 1..n, a row each: running products along the rows
    # (np.cumprod multiplies in order, as a loop over j would); past a row's last step
    # the factor is 0 (the denominator held at 1 there), so q stays 0
    steps = int((f.m - f.r).max(initial=0))
    if steps == 0:  # every first group all relevant (no ties): q is 1 above it, 0 from it on
        return _first_relevant_alone(name, f, at)
    n = min(steps + 1, max(at))
    if "q" not in cache or cache["q"].shape[1] < n:
        j = np.arange(1, n + 1, dtype=np.float64)
        m, r = f.m[:, None], f.r[:, None]
        factors = np.maximum(m - r - j + 1, 0.0) / np.maximum(m - j + 1, 1.0)
        cache["q"] = _running_sums(factors, np.multiply)
        cache["rank"] = f.s[:, None] + j
    q, rank = cache["q"][:, :n], cache["rank"][:, :n]
    if name == "recip_rank":  # its terms (q(j - 1) - q(j)) / rank, each cutoff a prefix
        before = np.concatenate([np.ones((q.shape[0], 1)), q[:, :-1]], axis=1)
        terms = (before - q) / rank
    sums = []
    for k in at:
        if name == "success":  # q(k - s): 1 where the group starts below k, 0 past n
            place = (k - f.s).astype(np.intp)
            inside = (place >= 1) & (place <= n)
            value = np.where(place < 1, 1.0, 0.0)
            value[inside] = q[inside, place[inside] - 1]
        elif n:  # the terms down to k, summed in order of j (a running sum's order)
            value = _running_sums(np.where(rank <= k, terms, 0.0))[:, -1]
        else:
            value = np.zeros(q.shape[0])
        sums.append(value)
    result = []
    for value in sums:
        column = np.zeros(f.n_rows)
        column[f.rows] = 1.0 - value if name == "success" else value
        result.append(column)
    return result


def _first_relevant_alone(name: str, f: _First, at: list[int]) -> list[np.ndarray]:
    """:func:`_first_relevant_sums` where each row's first group holding relevant
    documents holds relevant ones only (``m = r``; without ties, one document), so
    ``q(1)`` is 0: success at k is 1 where that group starts above k, reciprocal rank
    its one term ``(1 - 0) / rank`` where the rank is at most k (the same values:
    ``1 - 0`` is 1, a running sum of one term is that term)."""
    rank = f.s + 1.0
    result = []
    for k in at:
        column = np.zeros(f.n_rows)
        if name == "success":
            column[f.rows] = np.where(f.s < k, 1.0, 0.0)
        else:
            column[f.rows] = np.where(rank <= k, 1.0 / rank, 0.0)
        result.append(column)
    return result


def finish(
    name: str,
    sums: np.ndarray,
    ks: tuple[float, ...] | None,
    n_relevant: np.ndarray,
    zero_division: float,
) -> np.ndarray:
    """The measure from its raw sums (shape (n_queries, n_cutoffs)): precision divides
    by the cutoff (trec_eval's, also where fewer documents are ranked), recall and
    average precision by the number of relevant documents (``zero_division`` for a
    query without any)."""
    if name == "P":
        if ks is None:
            raise ValueError("P needs a cutoff; give k (P_10 is precision at 10).")
        return sums / np.asarray(ks, dtype=np.float64)
    if name == "num_rel":  # the pool's count where there is one
        return n_relevant[:, np.newaxis].copy()
    if name in BY_RELEVANT:
        defined = n_relevant > 0
        values = np.full(sums.shape, float(zero_division))
        np.divide(sums, n_relevant[:, np.newaxis], out=values, where=defined[:, np.newaxis])
        return log_average_precision(values) if name == "gm_map" else values
    return sums


Requests = tuple[tuple[str, "tuple[float, ...] | None"], ...]


def rank_values(
    staged: Staged | PoolStaged,
    requests: Requests,
    *,
    ties: str,
    relevance_level: float,
    zero_division: float,
    judged_only: bool = False,
) -> np.ndarray:
    """Every measure of ``requests`` (``(measure, cutoffs)`` pairs) for each staged
    query, shape (n_queries, n_columns), queries in the order of the staging's ids.

    Without a pool the relevant documents are counted among the ranked ones (staged
    with the linear gain: the labels); with one, among the pool's (trec_eval's
    ``num_rel``), and a query of the pool that the ranking lacks
    (``missing_queries="zero"``) scores as one that retrieved nothing (0, but its
    ``num_rel``, ``gm_map``'s floor and interpolated precision's 0 / 0).
    Without a pool, requests of :data:`DCG_MEASURES` sum the staged gains from the same
    order (NDCG: DCG over ideal DCG, ``zero_division`` where undefined).
    ``judged_only`` (the pool's ``unjudged="drop"``, trec_eval's ``-J``): ``num_ret``
    counts the judged documents only.
    """
    known: tuple[str, ...] = (*RANK_MEASURES, *AT_LEVELS)
    if not isinstance(staged, PoolStaged):
        known = (*known, *DCG_MEASURES)
    for name, _ in requests:
        if name not in known:
            raise ValueError(f"unknown measure {name!r}; the measures are {known}.")
    if isinstance(staged, PoolStaged):
        rel = relevant(staged.y_true, relevance_level)
        pool_rel = relevant(staged.pool.y_true, relevance_level)
        n_relevant = per_query_sum(pool_rel, staged.pooled)
        levels = counts = None
        if any(name in OFFICIAL for name, _ in requests):
            levels = staged.y_true
            counts = pool_counts(staged, pool_rel, n_relevant, judged_only)
        sums, _ = rank_sums(
            rel, staged.score, staged.queries, ties, requests, levels=levels, counts=counts
        )
        ranked = sums[staged.from_ranking]
        if isinstance(staged.to_result, slice):
            sums = ranked
        else:
            sums = np.zeros((staged.ids.shape[0], ranked.shape[1]))
            sums[staged.to_result] = ranked
        n_relevant = n_relevant[staged.from_pool]
        if not isinstance(staged.to_result, slice):
            widths = [_n_sums(name, ks) for name, ks in requests]
            fill_unretrieved(sums, requests, widths, staged.to_result, n_relevant)
    else:
        rel = relevant(staged.gains, relevance_level)
        dcg = any(name in DCG_MEASURES for name, _ in requests)
        gains, discounts = (staged.gains, staged.discounts) if dcg else (None, None)
        levels = staged.gains if any(name in OFFICIAL for name, _ in requests) else None
        sums, n_relevant = rank_sums(
            rel, staged.score, staged.queries, ties, requests, gains, discounts, levels
        )
    columns, start = [], 0
    for name, ks in requests:
        stop = start + _n_sums(name, ks)
        if name in DCG_MEASURES:
            columns.append(_finish_dcg(name, sums[:, start:stop], staged, zero_division))
        else:
            columns.append(finish(name, sums[:, start:stop], ks, n_relevant, zero_division))
        start = stop
    return np.column_stack(columns) if columns else sums[:, :0]


def _finish_dcg(name: str, sums: np.ndarray, staged, zero_division: float) -> np.ndarray:
    """DCG or NDCG from the DCG and ideal DCG columns of each cutoff (alternating),
    as :func:`._entry.query_values` gives them."""
    dcg, ideal = sums[:, 0::2], sums[:, 1::2]
    check_overflow(dcg, staged.gains, staged.document_weight)
    if name == "dcg":
        return dcg
    flat = QueryDCG(dcg.ravel(), ideal.ravel(), None)
    return ndcg_per_query(flat, zero_division).reshape(dcg.shape)
