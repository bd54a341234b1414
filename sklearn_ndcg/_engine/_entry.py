"""The engine's one way in: stage the input once, then sum it per query.

:func:`stage` validates and groups a ranking (with a judgment pool when the options
hold one: :func:`._pool.stage_pool`; else :func:`._pipeline.stage`, which also
computes the gains and discounts). :func:`query_values` orders the staged rows with
the tie rule and sums them: NDCG or DCG of each query, at the cutoff ``k`` of the
options or at every cutoff of ``ks``, and with ``levels`` the bounds of NDCG over the
unjudged documents' levels. A caller that needs several tie rules, cutoffs or gains
stages once and sums as often as it needs, with variants of its options
(:meth:`RankingOptions.replace`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._aggregate import QueryDCG
from ._pipeline import Staged, ndcg_per_query, order_and_sum, sums_at_cutoffs
from ._pipeline import stage as stage_ranking
from ._pool import PoolStaged, pool_sums, stage_pool
from ._pool_bounds import PoolBounds, pool_bounds
from ._rank import Requests, rank_values
from ._ranking_options import RANK_MEASURES, RankingOptions


class QueryValues(NamedTuple):
    """Per-query values: the query ids, the metric, the weights (None without
    ``sample_weight``) and, when asked for, the bounds over the unjudged documents."""

    ids: np.ndarray
    values: np.ndarray  # shape (n_queries,), or (n_queries, n_cutoffs) for ks
    weight: np.ndarray | None
    bounds: PoolBounds | None = None


def stage(
    y_true,
    y_score,
    options: RankingOptions,
    *,
    qid=None,
    sample_weight=None,
    document_weight=None,
    rows: np.ndarray | None = None,
    n_bad: int | None = None,
) -> Staged | PoolStaged:
    """Validate the input, group it into queries and match it with the pool.

    Without a pool the gains and discounts are staged too (at ``options.k``: give
    options with ``k=None`` to sum at several cutoffs later); with one they are
    computed when summing, so that one staging serves several gains.

    Parameters
    ----------
    y_true, y_score : array-like
        The labels (NaN for unjudged documents with a pool) and the scores.
    options : RankingOptions
        The resolved options.
    qid, sample_weight, document_weight : array-like or None
        The query ids and the weights, as the public functions take them.
    rows, n_bad : ndarray of int and int, default=None
        For Dask and Spark, which give the bad values of a whole frame: the rows'
        numbers in the frame and how many bad values it holds, named by the error
        for bad labels or weights (see :func:`._validation.as_float_array`). Without
        a pool only.

    Returns
    -------
    Staged or PoolStaged
        The staged input, for :func:`query_values`.
    """
    if options.pool is not None:
        return stage_pool(
            y_true,
            y_score,
            options.pool,
            qid=qid,
            sample_weight=sample_weight,
            document_weight=document_weight,
            unjudged=options.unjudged,
            missing_queries=options.missing_queries,
            unjudged_queries=options.unjudged_queries,
        )
    # the measures of binary relevance read the labels as they are (the linear gain),
    # negative ones too (not relevant, as trec_eval reads them): staged as minmax
    # NDCG's, which keeps their sign
    rank = options.metric in RANK_MEASURES
    return stage_ranking(
        y_true,
        y_score,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
        k=options.k,
        gain="linear" if rank else options.gain,
        discount=options.discount,
        log_base=options.dcg_log_base,
        normalize="minmax" if rank else options.normalization,
        ties=options.ties,
        rows=rows,
        n_bad=n_bad,
    )


def query_values(
    staged: Staged | PoolStaged,
    options: RankingOptions,
    *,
    ks: np.ndarray | None = None,
    levels: np.ndarray | None = None,
    measures: Requests | None = None,
) -> QueryValues:
    """NDCG (or DCG) of each staged query, ordered with the tie rule of ``options``.

    With ``options.metric`` one of ``RANK_MEASURES`` (or ``measures``), the measures of
    binary relevance instead (:mod:`._rank`), from one order of the staged rows.

    Parameters
    ----------
    staged : Staged or PoolStaged
        What :func:`stage` returned.
    options : RankingOptions
        The options: those of the staging but the tie rule, the cutoff and, with a
        pool, the gain, which may differ.
    ks : ndarray of int, default=None
        Sorted cutoffs: the values at each of them, shape (n_queries, n_cutoffs).
    levels : ndarray, default=None
        With a pool: also the judged share and the bounds of NDCG at ``options.k``
        over every assignment of these levels to the unjudged documents.
    measures : tuple of (str, tuple of int or None), default=None
        Several measures of ``RANK_MEASURES`` with their cutoffs (None: the whole
        ranking), from one order: values of shape (n_queries, n_columns), a column per
        cutoff. Stage with ``options.metric`` one of them (labels staged as they are).

    Returns
    -------
    QueryValues
        The query ids, the values, the query weights and the bounds (or None).
    """
    if measures is not None or options.metric in RANK_MEASURES:
        return _rank_query_values(staged, options, ks, measures)
    if isinstance(staged, PoolStaged):
        ids, document_weight = staged.ids, staged.document_weight
        result = pool_sums(
            staged,
            gain=options.gain,
            discount=options.discount,
            ties=options.ties,
            normalize=options.normalization,
            k=options.k,
            log_base=options.dcg_log_base,
            ks=ks,
        )
    else:
        ids, document_weight = staged.queries.ids, staged.document_weight
        if ks is not None:
            result = sums_at_cutoffs(
                staged, ks, ties=options.ties, metric=options.metric, normalize=options.normalize
            )
        else:
            result = order_and_sum(staged, options.ties, options.normalization)
    values = _values(result, options, document_weight)
    bounds = None
    if levels is not None:
        if not isinstance(staged, PoolStaged):
            raise TypeError("levels= needs the staged rows of a judgment pool (stage_pool).")
        bounds = pool_bounds(
            staged,
            gain=options.gain,
            discount=options.discount,
            ties=options.ties,
            k=options.k,
            levels=levels,
            zero_division=options.zero_division,
        )
    return QueryValues(ids, values, staged.weight, bounds)


def _rank_query_values(staged, options: RankingOptions, ks, measures) -> QueryValues:
    """The measures of binary relevance (:func:`._rank.rank_values`)."""
    if staged.document_weight is not None:
        raise ValueError(
            f"document_weight weighs gains; {options.metric} counts relevant documents "
            "and takes none. Leave document_weight None."
        )
    squeeze = measures is None and ks is None
    if measures is None:
        cutoffs = tuple(int(k) for k in ks) if ks is not None else None
        if cutoffs is None and options.k is not None:
            cutoffs = (options.k,)
        measures = ((options.metric, cutoffs),)
    values = rank_values(
        staged,
        measures,
        ties=options.ties,
        relevance_level=options.relevance_level,
        zero_division=float(options.zero_division),
        judged_only=options.pool is not None and options.unjudged == "drop",
    )
    ids = staged.ids if isinstance(staged, PoolStaged) else staged.queries.ids
    return QueryValues(ids, values[:, 0] if squeeze else values, staged.weight)


def _values(result: QueryDCG, options: RankingOptions, document_weight) -> np.ndarray:
    """The metric from the sums per query (of shape (n_queries,) or (n_queries, n_ks))."""
    if options.metric == "dcg":
        return result.dcg
    if result.dcg.ndim == 1:
        return ndcg_per_query(result, options.zero_division, document_weight)
    ideal, worst = (None if a is None else a.ravel() for a in (result.ideal, result.worst))
    flat = QueryDCG(result.dcg.ravel(), ideal, worst)
    return ndcg_per_query(flat, options.zero_division, document_weight).reshape(result.dcg.shape)
