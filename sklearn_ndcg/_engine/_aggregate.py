"""Per-query DCG, ideal DCG and NDCG, and their weighted mean."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._queries import Queries, block_columns, blocks, take
from ._ties import ideal_block, rank_block, tie_cut_block, tie_ranks_block, worst_block
from ._warnings import warn_undefined


class QueryDCG(NamedTuple):
    """DCG of each query, and of the best and worst orderings of its documents."""

    dcg: np.ndarray
    ideal: np.ndarray | None  # None unless asked for
    worst: np.ndarray | None


def dcg_by_query(
    gain: np.ndarray,
    score: np.ndarray | None,
    queries: Queries,
    ties: str,
    discounts: np.ndarray,
    *,
    ideal: bool = False,
    worst: bool = False,
    document_weight: np.ndarray | None = None,
) -> QueryDCG:
    """DCG of each query (and its ideal and worst DCG), block by block.

    ``discounts`` are the weights of ranks ``1 .. len(discounts)``; ranks after
    ``len(discounts)`` (the cutoff k) do not count. ``document_weight``
    multiplies each document's gain in the DCG, not in the ideal or worst DCG.
    ``score`` None computes the ideal and worst DCG only (of a judgment pool).
    Returns arrays in the order of ``queries.ids``.
    """
    n_queries = queries.ids.shape[0]
    result = QueryDCG(
        # None without scores (a pool's ideal or worst DCG alone), which no caller reads
        np.empty(n_queries) if score is not None else None,  # type: ignore[arg-type]
        np.empty(n_queries) if ideal else None,
        np.empty(n_queries) if worst else None,
    )
    k = discounts.shape[0]
    queries, gain, score, document_weight = block_columns(queries, gain, score, document_weight)
    for block in blocks(queries):
        ordered = _ordered_gains(
            gain, score, queries, block, ties, k, ideal, worst, document_weight
        )
        for name, gains in ordered.items():
            getattr(result, name)[block.queries] = gains @ discounts[: gains.shape[1]]
    return result


def dcg_at_cutoffs(
    gain: np.ndarray,
    score: np.ndarray | None,
    queries: Queries,
    ties: str,
    discounts: np.ndarray,
    ks: np.ndarray,
    *,
    worst: bool = False,
    document_weight: np.ndarray | None = None,
) -> QueryDCG:
    """DCG@k, ideal DCG@k (and worst DCG@k) of each query for every cutoff in ``ks``.

    Arrays of shape (n_queries, n_cutoffs). The tie rules give the same order
    (and averaged gains) at every cutoff, and the ideal and worst orders of the
    first ``k`` documents are prefixes of those of all documents, so one
    ranking of whole rows serves every cutoff: DCG@k is the sum of its first
    ``k`` terms. ``discounts`` covers the longest query. ``document_weight``
    is as in :func:`dcg_by_query`; ``score`` None sums the ideal (and worst) DCG
    alone, as there.
    """
    shape = (queries.ids.shape[0], ks.shape[0])
    result = QueryDCG(np.empty(shape), np.empty(shape), np.empty(shape) if worst else None)
    queries, gain, score, document_weight = block_columns(queries, gain, score, document_weight)
    for block in blocks(queries):
        ordered = _ordered_gains(
            gain, score, queries, block, ties, None, True, worst, document_weight
        )
        for name, gains in ordered.items():
            width = gains.shape[1]
            sums = np.cumsum(gains * discounts[:width], axis=1)
            getattr(result, name)[block.queries] = sums[:, np.minimum(ks, width) - 1]
    return result


def _ordered_gains(
    gain, score, queries: Queries, block, ties: str, k, ideal: bool, worst: bool, document_weight
) -> dict[str, np.ndarray]:
    """The gains of one block's queries, first ``k`` positions, in each order asked
    for: by score with the tie rule ("dcg", unless ``score`` is None), by
    decreasing gain ("ideal") and by increasing gain ("worst")."""
    padding = block.padding()
    block_gain = take(gain, block, queries.layout, -np.inf, padding)
    ordered = {}
    if score is not None:
        block_score = take(score, block, queries.layout, -np.inf, padding)
        dcg_gain = block_gain
        if document_weight is not None:
            dcg_gain = block_gain * take(document_weight, block, queries.layout, 1.0, padding)
        ordered["dcg"] = rank_block(block_score, dcg_gain, block.sizes, ties, k)
    if ideal:
        ordered["ideal"] = ideal_block(block_gain, k)
    if worst:
        ordered["worst"] = worst_block(block_gain, k)
    return ordered


def tie_cut_by_query(score: np.ndarray, queries: Queries, k: int) -> np.ndarray:
    """Whether the top ``k`` of each query ends inside a group of tied scores."""
    cut = np.empty(queries.ids.shape[0], dtype=bool)
    queries, score = block_columns(queries, score)
    for block in blocks(queries):
        padding = block.padding()
        block_score = take(score, block, queries.layout, -np.inf, padding)
        cut[block.queries] = tie_cut_block(block_score, block.sizes, k)
    return cut


def tie_groups_by_query(score: np.ndarray, queries: Queries) -> tuple[np.ndarray, np.ndarray]:
    """The first and last rank (from 1) of each input row's group of tied scores within
    its query, ranked by decreasing score: where a ranking by ``score`` may put the row
    (any of these ranks, with equal probability, under ``ties="average"``)."""
    n_rows = score.shape[0]
    first, last = np.empty(n_rows, dtype=np.intp), np.empty(n_rows, dtype=np.intp)
    for block in blocks(queries):
        padding = block.padding()
        block_score = take(score, block, queries.layout, -np.inf, padding)
        block_first, block_last = tie_ranks_block(block_score)
        rows = _input_rows(block, queries)
        real = np.arange(block.width) < block.sizes[:, np.newaxis]
        first[rows[real]] = block_first[real]
        last[rows[real]] = block_last[real]
    return first, last


def _input_rows(block, queries: Queries) -> np.ndarray:
    """The input row of each cell of ``block`` (of queries whose ``order`` was not
    replaced by :func:`block_columns`); padding cells hold any row."""
    if block.rows is not None:
        return block.rows
    columns = np.arange(block.width)
    if block.starts is None:  # a slice of the dense layout, query by query
        query = np.arange(queries.ids.shape[0])[block.queries]
        return (query * block.width)[:, np.newaxis] + columns
    return block.starts[:, np.newaxis] + columns


def check_overflow(dcg: np.ndarray, gains: np.ndarray, document_weight=None) -> None:
    """Refuse DCGs that overflowed float64 (huge labels with an exponential gain, or
    huge document weights)."""
    if not np.isfinite(dcg).all():
        with np.errstate(over="ignore"):
            gains_fit = np.isfinite(np.abs(gains).sum())
        if document_weight is not None and gains_fit:
            raise ValueError(
                "the DCG of some queries overflows float64: document_weight (up to "
                f"{np.abs(document_weight).max():g}) times the gains (up to "
                f"{np.abs(gains).max():g}) is too large; use smaller document weights."
            )
        raise ValueError(
            "the DCG of some queries overflows float64 (gains up to "
            f"{np.abs(gains).max():g}); use smaller labels or gain='linear'."
        )


def ndcg_from_dcg(
    dcg: np.ndarray,
    ideal_dcg: np.ndarray,
    zero_division: float,
    worst_dcg: np.ndarray | None = None,
) -> np.ndarray:
    """DCG / ideal DCG per query, or (DCG - worst) / (ideal - worst) given ``worst_dcg``.

    ``zero_division`` where the denominator is <= 0. For DCG / ideal DCG, an
    ideal DCG of 0 means no document of the query is relevant; a negative one
    (possible with negative gains) means none is better than neutral. For the
    min-max form, the best and worst orderings are worth the same (e.g. every
    document has the same gain). NDCG is undefined for these.
    """
    numerator, denominator = dcg, ideal_dcg
    if worst_dcg is not None:
        numerator, denominator = dcg - worst_dcg, ideal_dcg - worst_dcg
    defined = denominator > 0
    ndcg = np.full(dcg.shape[0], float(zero_division))
    np.divide(numerator, denominator, out=ndcg, where=defined)
    return ndcg


class WeightedSums(NamedTuple):
    """The sums behind a weighted mean over queries; they add up across chunks."""

    weighted_sum: float  # sum of weight * value over the defined (non-NaN) values
    kept_weight: float  # sum of their weights
    total_weight: float  # sum of all weights
    n_kept: int  # number of defined values

    @classmethod
    def of(cls, values: np.ndarray, weight: np.ndarray | None) -> WeightedSums:
        """The sums of per-query ``values`` (:func:`weighted_sums`)."""
        return weighted_sums(values, weight)

    def mean(self) -> float:
        """The weighted mean (:func:`mean_from_sums`)."""
        return mean_from_sums(self)


def weighted_sums(values: np.ndarray, weight: np.ndarray | None) -> WeightedSums:
    """The :class:`WeightedSums` of per-query ``values``, NaN meaning undefined."""
    weight = np.ones(values.shape[0]) if weight is None else weight
    kept = ~np.isnan(values)
    return WeightedSums(
        float((weight[kept] * values[kept]).sum()),
        float(weight[kept].sum()),
        float(weight.sum()),
        int(kept.sum()),
    )


def mean_from_sums(sums: WeightedSums) -> float:
    """The weighted mean, or NaN with a warning when nothing defined is left.

    Returns NaN with an :class:`~sklearn.exceptions.UndefinedMetricWarning` when
    every value is undefined, or when the defined ones weigh 0.
    """
    if sums.total_weight == 0:
        raise ValueError("sample_weight sums to zero; at least one query needs a positive weight.")
    if sums.kept_weight == 0:
        what = "every query was left out" if sums.n_kept == 0 else "the queries left weigh 0"
        warn_undefined(
            f"NDCG is undefined: {what} (undefined queries, e.g. without any relevant "
            "document, and zero_division=np.nan); returning NaN."
        )
        return float("nan")
    return float(sums.weighted_sum / sums.kept_weight)


def weighted_mean(values: np.ndarray, sample_weight: np.ndarray | None) -> float:
    """Weighted mean over queries, leaving out NaN (undefined) values."""
    if sample_weight is not None:  # scaled so that huge weights cannot overflow their sum
        sample_weight = sample_weight / max(sample_weight.max(), np.finfo(float).tiny)
    return mean_from_sums(weighted_sums(values, sample_weight))
