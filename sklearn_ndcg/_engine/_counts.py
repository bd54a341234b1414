"""Each query's counts for the measures of binary relevance (:class:`QueryCounts`): its
ranked documents (``-J``: the judged ones), its judged relevant (``R``) and judged
non-relevant (``N``) documents and its largest level, counted among the pool's judgments
where there is a pool (trec_eval's ``num_rel``), else among the ranked documents; and
the values of the pool's queries that retrieved nothing (:func:`fill_unretrieved`)."""

from __future__ import annotations

import numpy as np

from ._official import AT_LEVELS, QueryCounts, unretrieved_levels
from ._pool import PoolStaged
from ._queries import Queries, rows_by_query


def ranked_counts(level: np.ndarray, rel: np.ndarray, sizes: np.ndarray) -> QueryCounts:
    """The counts of a block's rows among their ranked documents (no pool): each is
    judged by its label."""
    with np.errstate(invalid="ignore"):
        nonrel = (level >= 0) & (rel == 0)
        top = np.where(level >= 0, level, 0.0).max(axis=1, initial=0.0)
    return QueryCounts(
        sizes.astype(np.float64), rel.sum(axis=1), nonrel.sum(axis=1).astype(np.float64), top
    )


def pool_counts(
    staged: PoolStaged, pool_rel: np.ndarray, n_relevant: np.ndarray, judged_only: bool
) -> QueryCounts:
    """Each ranked query's :class:`QueryCounts` from its pool (0 for a query the pool
    lacks, which is not scored): its judged relevant and non-relevant documents and its
    largest level; its ranked documents, the judged ones only with ``judged_only``."""
    level = staged.pool.y_true
    with np.errstate(invalid="ignore"):
        judged = level >= 0
    n_nonrel = per_query_sum((judged & (pool_rel == 0)).astype(np.float64), staged.pooled)
    grouped = np.where(judged, level, 0.0)[rows_by_query(staged.pooled)]
    starts = np.cumsum(staged.pooled.sizes) - staged.pooled.sizes
    top = np.maximum.reduceat(grouped, starts) if grouped.shape[0] else grouped
    n_ranking = staged.queries.ids.shape[0]
    result = np.arange(staged.from_ranking.shape[0])
    if not isinstance(staged.to_result, slice):
        result = staged.to_result
    of_result = staged.from_pool
    if isinstance(of_result, slice):  # the pool's queries are the results
        of_result = np.arange(staged.ids.shape[0])
    pool = of_result[result]
    counts = []
    for column in (n_relevant, n_nonrel, np.maximum(top, 0.0)):
        values = np.zeros(n_ranking)
        values[staged.from_ranking] = column[pool]
        counts.append(values)
    with np.errstate(invalid="ignore"):
        ranked = staged.y_true >= 0 if judged_only else np.ones(staged.y_true.shape, bool)
    n_ret = per_query_sum(ranked.astype(np.float64), staged.queries)
    return QueryCounts(n_ret, *counts)


def per_query_sum(values: np.ndarray, queries: Queries) -> np.ndarray:
    """Sum of ``values`` (one per input row) per query, in the order of ``queries.ids``."""
    grouped = values[rows_by_query(queries)]
    return np.add.reduceat(grouped, np.cumsum(queries.sizes) - queries.sizes)


def fill_unretrieved(
    sums: np.ndarray, requests, widths: list[int], to_result, n_relevant: np.ndarray
) -> None:
    """Interpolated precision of the pool's queries the ranking lacks: none retrieved,
    trec_eval's 0 / 0 where a recall level's cutoff is 0 documents, as pytrec_eval scores
    an empty ranking and trec_eval's ``-c -J`` a query the run lacks
    (:func:`._official.unretrieved_levels`); ``widths``: each request's columns."""
    missing = np.ones(sums.shape[0], dtype=bool)
    missing[to_result] = False
    start = 0
    for (name, ks), width in zip(requests, widths):
        stop = start + width
        if name in AT_LEVELS and missing.any():
            sums[missing, start:stop] = unretrieved_levels(
                ks, n_relevant[missing], name != AT_LEVELS[0]
            )
        start = stop
