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
sums. Values are raw sums here; :func:`rank_values` divides them (by the cutoff for
precision, by the number of relevant documents for recall and average precision).
"""

from __future__ import annotations

from functools import partial
from typing import NamedTuple

import numpy as np

from ._aggregate import QueryDCG, check_overflow
from ._pipeline import Staged, ndcg_per_query
from ._pool import PoolStaged
from ._queries import Queries, block_columns, blocks, rows_by_query, take
from ._ranking_options import DOCNO_TIES, RANK_MEASURES
from ._ties import ideal_block, order_rows, ordered_gains, refuse_ties_without_docno

BY_RELEVANT = ("map", "recall")
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


def _n_sums(name: str, ks: tuple[int, ...] | None) -> int:
    """The raw columns of one request: one per cutoff, two for NDCG and DCG."""
    return (1 if ks is None else len(ks)) * (2 if name in DCG_MEASURES else 1)


def rank_sums(
    rel: np.ndarray,
    score: np.ndarray,
    queries: Queries,
    ties: str,
    requests: tuple[tuple[str, tuple[int, ...] | None], ...],
    gains: np.ndarray | None = None,
    discounts: np.ndarray | None = None,
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
    """
    n_columns = sum(_n_sums(name, ks) for name, ks in requests)
    result = np.empty((queries.ids.shape[0], n_columns))
    n_relevant = np.empty(queries.ids.shape[0])
    queries, rel, score, gains = block_columns(queries, rel, score, gains)
    for block in blocks(queries):
        padding = block.padding()
        block_rel = take(rel, block, queries.layout, 0.0, padding)
        block_score = take(score, block, queries.layout, -np.inf, padding)
        dcg = None
        if gains is not None:  # padding -inf: last in the ideal order, ranked as 0
            block_gain = take(gains, block, queries.layout, -np.inf, padding)
            dcg = _DcgInput(block_gain, block.sizes, discounts)  # type: ignore[arg-type]
        result[block.queries] = _block_sums(block_rel, block_score, ties, requests, dcg)
        n_relevant[block.queries] = block_rel.sum(axis=1)
    return result, n_relevant


class _DcgInput(NamedTuple):
    """The gains of a block (padding -inf), its queries' sizes and the discounts."""

    gain: np.ndarray
    sizes: np.ndarray
    discounts: np.ndarray


def _block_sums(
    rel: np.ndarray, score: np.ndarray, ties: str, requests, dcg: _DcgInput | None = None
) -> np.ndarray:
    """:func:`rank_sums` of one block (padding: score -inf, relevance 0)."""
    n_rows, width = rel.shape
    if dcg is None:
        order = order_rows(score, rel, "average" if ties == DOCNO_TIES else ties, width)
    else:  # NDCG's order; tied documents of equal gain have equal relevance
        order = order_rows(score, dcg.gain, ties, width)
    flat = order + (np.arange(n_rows) * width)[:, np.newaxis]
    ranked_rel = np.take(rel.reshape(-1), flat)
    ranked_score = np.take(score.reshape(-1), flat)
    tied = None
    if ties in ("average", DOCNO_TIES):
        tied = (ranked_score[:, 1:] == ranked_score[:, :-1]) & (ranked_score[:, 1:] > -np.inf)
        if ties == DOCNO_TIES:  # tied documents of different relevance: order unknown
            if (tied & (ranked_rel[:, 1:] != ranked_rel[:, :-1])).any():
                refuse_ties_without_docno()
            tied = None
        elif not tied.any():
            tied = None
    rank = np.arange(1, width + 1, dtype=np.float64)
    if tied is None:  # every document a group of its own
        running = partial(_running_in_order, rel=ranked_rel, rank=rank)
    else:
        new_group = np.ones((n_rows, width), dtype=bool)
        new_group[:, 1:] = ~tied
        running = partial(_running, g=_groups(ranked_rel, new_group), rank=rank)
    columns: list[np.ndarray] = []
    cache: dict[str, np.ndarray] = {}
    for name, ks in requests:
        if name in DCG_MEASURES:
            columns.extend(_dcg_columns(order, score, ties, ks, dcg, cache))  # type: ignore[arg-type]
            continue
        kind = "count" if name in ("P", "recall") else name
        if kind not in cache:
            cache[kind] = running(kind)
        at = [width] if ks is None else [min(k, width) for k in ks]
        columns.extend(cache[kind][:, k - 1] for k in at)
    return np.column_stack(columns) if columns else np.empty((n_rows, 0))


def _dcg_columns(order, score, ties: str, ks, dcg: _DcgInput, cache: dict) -> list[np.ndarray]:
    """The DCG and ideal DCG of a block's rows at each cutoff of ``ks`` (None: the whole
    row), as :func:`._aggregate.dcg_at_cutoffs` and :func:`._aggregate.dcg_by_query`
    sum them, from ``order`` (the whole rows ordered with the tie rule)."""
    width = order.shape[1]
    if "gains" not in cache:
        cache["gains"] = ordered_gains(order, score, dcg.gain, dcg.sizes, ties, width)
        cache["ideal"] = ideal_block(dcg.gain, None)
    discounts = dcg.discounts[:width]
    with np.errstate(over="ignore", invalid="ignore"):  # refused after (check_overflow)
        if ks is None:
            return [cache["gains"] @ discounts, cache["ideal"] @ discounts]
        if "dcg_sums" not in cache:
            cache["dcg_sums"] = np.cumsum(cache["gains"] * discounts, axis=1)
            cache["ideal_sums"] = np.cumsum(cache["ideal"] * discounts, axis=1)
    columns: list[np.ndarray] = []
    for k in ks:
        at = min(k, width) - 1
        columns.extend((cache["dcg_sums"][:, at], cache["ideal_sums"][:, at]))
    return columns


def _running_in_order(kind: str, rel: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """:func:`_running` where no documents tie: trec_eval's sums."""
    found = np.cumsum(rel, axis=1)  # relevant documents in the top i
    if kind == "count":
        return found
    if kind == "map":
        return np.cumsum(rel * found / rank, axis=1)
    if kind == "success":
        return (found > 0).astype(np.float64)
    first = rel * (found == 1)  # the first relevant document
    return np.cumsum(first / rank, axis=1)  # recip_rank


class _Groups(NamedTuple):
    """Per position of a block's ordered rows: its group's size ``m`` and relevant
    count ``r``, its place ``j`` in the group (from 1) and the relevant documents
    above the group ``c``."""

    m: np.ndarray
    r: np.ndarray
    j: np.ndarray
    c: np.ndarray


def _groups(rel: np.ndarray, new_group: np.ndarray) -> _Groups:
    """The :class:`_Groups` of ordered rows whose groups start at ``new_group``.

    Each position finds its group's first and last position by a running maximum
    (and, from the right, minimum) of the group starts and ends along the flat
    block, whose rows start groups; the relevant counts are differences of one
    running count of relevant documents.
    """
    shape, size = rel.shape, rel.size
    position = np.arange(size)
    starts = new_group.reshape(-1)
    ends = np.empty(size, dtype=bool)
    ends[:-1], ends[-1] = starts[1:], True
    first = np.maximum.accumulate(np.where(starts, position, 0))
    last = np.minimum.accumulate(np.where(ends, position, size)[::-1])[::-1]
    found = np.cumsum(rel, axis=1).reshape(-1)  # relevant documents in the top i
    above = found - rel.reshape(-1)  # relevant documents above each position
    c = np.take(above, first)
    return _Groups(
        (last - first + 1).astype(np.float64).reshape(shape),
        (np.take(found, last) - c).reshape(shape),
        (position - first + 1).astype(np.float64).reshape(shape),
        c.reshape(shape),
    )


def _running(kind: str, g: _Groups, rank: np.ndarray) -> np.ndarray:
    """The raw sum of ``kind`` ("count" of relevant documents, "map", "success",
    "recip_rank") over the top i, for every i (expected values over the orders of
    each group)."""
    if kind == "count":
        return np.cumsum(g.r / g.m, axis=1)
    if kind == "map":
        within = np.divide((g.j - 1) * (g.r - 1), g.m - 1, out=np.zeros_like(g.m), where=g.m > 1)
        return np.cumsum(g.r / g.m * (g.c + 1 + within) / rank, axis=1)
    # q(i): probability that none of the top i is relevant
    factor = np.maximum(g.m - g.r - g.j + 1, 0.0) / (g.m - g.j + 1)
    none = np.cumprod(factor, axis=1)
    if kind == "success":
        return 1.0 - none
    before = np.ones_like(none)
    before[:, 1:] = none[:, :-1]
    return np.cumsum((before - none) / rank, axis=1)  # recip_rank


def finish(
    name: str,
    sums: np.ndarray,
    ks: tuple[int, ...] | None,
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
    if name in BY_RELEVANT:
        defined = n_relevant > 0
        values = np.full(sums.shape, float(zero_division))
        np.divide(sums, n_relevant[:, np.newaxis], out=values, where=defined[:, np.newaxis])
        return values
    return sums


Requests = tuple[tuple[str, "tuple[int, ...] | None"], ...]


def rank_values(
    staged: Staged | PoolStaged,
    requests: Requests,
    *,
    ties: str,
    relevance_level: float,
    zero_division: float,
) -> np.ndarray:
    """Every measure of ``requests`` (``(measure, cutoffs)`` pairs) for each staged
    query, shape (n_queries, n_columns), queries in the order of the staging's ids.

    Without a pool the relevant documents are counted among the ranked ones (staged
    with the linear gain: the labels); with one, among the pool's (trec_eval's
    ``num_rel``), and a query of the pool that the ranking lacks
    (``missing_queries="zero"``) scores 0 everywhere, as in trec_eval's ``-c``.
    Without a pool, requests of :data:`DCG_MEASURES` sum the staged gains from the same
    order (NDCG: DCG over ideal DCG, ``zero_division`` where undefined).
    """
    known = RANK_MEASURES if isinstance(staged, PoolStaged) else RANK_MEASURES + DCG_MEASURES
    for name, _ in requests:
        if name not in known:
            raise ValueError(f"unknown measure {name!r}; the measures are {known}.")
    if isinstance(staged, PoolStaged):
        rel = relevant(staged.y_true, relevance_level)
        sums, _ = rank_sums(rel, staged.score, staged.queries, ties, requests)
        pool_rel = relevant(staged.pool.y_true, relevance_level)
        n_relevant = _per_query_sum(pool_rel, staged.pooled)
        ranked = sums[staged.from_ranking]
        if isinstance(staged.to_result, slice):
            sums = ranked
        else:
            sums = np.zeros((staged.ids.shape[0], ranked.shape[1]))
            sums[staged.to_result] = ranked
        n_relevant = n_relevant[staged.from_pool]
    else:
        rel = relevant(staged.gains, relevance_level)
        dcg = any(name in DCG_MEASURES for name, _ in requests)
        gains, discounts = (staged.gains, staged.discounts) if dcg else (None, None)
        sums, n_relevant = rank_sums(
            rel, staged.score, staged.queries, ties, requests, gains, discounts
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


def _per_query_sum(values: np.ndarray, queries: Queries) -> np.ndarray:
    """Sum of ``values`` (one per input row) per query, in the order of ``queries.ids``."""
    grouped = values[rows_by_query(queries)]
    return np.add.reduceat(grouped, np.cumsum(queries.sizes) - queries.sizes)
