"""Bounds of NDCG@k over the levels the unjudged documents of a pool might take."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from ._discount import discount_weights
from ._gain import compute_gain
from ._pool import PoolStaged, query_of_row
from ._ranking_options import DOCNO_TIES
from ._ties import refuse_ties_without_docno


class PoolBounds(NamedTuple):
    """Judged@k and the extremes of NDCG@k over the unjudged documents' levels."""

    judged: np.ndarray  # judged documents in the top k over min(k, ranked), per query
    lower: np.ndarray  # smallest NDCG@k over every assignment of levels
    upper: np.ndarray  # largest


# the enumeration of level multisets is refused beyond this many (query, multiset) cells
MAX_BOUND_CELLS = 2_000_000


def _result_index(staged: PoolStaged) -> tuple[np.ndarray, np.ndarray]:
    """The position in ``staged.ids`` of each ranked query (-1: not scored) and of
    each pool query (-1: not scored)."""
    n_result = staged.ids.shape[0]
    ranked = np.full(staged.queries.ids.shape[0], -1, dtype=np.intp)
    to_result = np.arange(n_result) if isinstance(staged.to_result, slice) else staged.to_result
    ranked[staged.from_ranking] = to_result
    pooled = np.full(staged.pooled.ids.shape[0], -1, dtype=np.intp)
    from_pool = np.arange(n_result) if isinstance(staged.from_pool, slice) else staged.from_pool
    pooled[from_pool] = np.arange(n_result)
    return ranked, pooled


def _effective_discounts(staged, code, discount, ties, k):
    """Discount of each row at its rank (0 beyond ``k``) and whether it is in the top
    ``k``; with ``ties="average"`` both are the means over the row's tie group, so that
    the DCG, linear in the gains, is ``sum(gain * discount)`` for any gains."""
    n = code.shape[0]
    order = np.lexsort((np.arange(n), -staged.score, code))
    sorted_code, sorted_score = code[order], staged.score[order]
    new_query = np.ones(n, dtype=bool)
    new_query[1:] = sorted_code[1:] != sorted_code[:-1]
    starts = np.flatnonzero(new_query)
    position = np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n)))
    longest = int(position.max()) + 1
    weights = discount_weights(discount, longest, k)
    at_rank = np.zeros(longest)
    at_rank[: weights.shape[0]] = weights
    effective = at_rank[position]
    in_top = (position < (longest if k is None else k)).astype(np.float64)
    if ties == "average":
        new_group = new_query.copy()
        new_group[1:] |= sorted_score[1:] != sorted_score[:-1]
        group = np.flatnonzero(new_group)
        size = np.diff(np.append(group, n))
        effective = np.repeat(np.add.reduceat(effective, group) / size, size)
        in_top = np.repeat(np.add.reduceat(in_top, group) / size, size)
    out_discount, out_top = np.empty(n), np.empty(n)
    out_discount[order], out_top[order] = effective, in_top
    return out_discount, out_top


def _refuse_unjudged_tied_with_judged(staged, code, judged, k) -> None:
    """``ties="docno"`` without document ids: refuse a tie group that reaches the top
    ``k`` and holds judged and unjudged documents, whose order (unknown without the ids)
    changes Judged@k and the bounds (the unjudged documents may take other levels than
    the judged ones; a tie of different judged labels is refused by the sums)."""
    scored = np.flatnonzero(code >= 0)
    order = scored[np.lexsort((-staged.score[scored], code[scored]))]
    sorted_code, sorted_score = code[order], staged.score[order]
    n = order.shape[0]
    if n == 0:
        return
    new_query = np.ones(n, dtype=bool)
    new_query[1:] = sorted_code[1:] != sorted_code[:-1]
    new_group = new_query.copy()
    new_group[1:] |= sorted_score[1:] != sorted_score[:-1]
    starts = np.flatnonzero(new_query)
    position = np.arange(n) - np.repeat(starts, np.diff(np.append(starts, n)))
    group = np.flatnonzero(new_group)
    n_judged = np.add.reduceat(judged[order].astype(np.intp), group)
    size = np.diff(np.append(group, n))
    reaches_top = position[group] < (n if k is None else k)  # its first member ranks
    if (reaches_top & (n_judged > 0) & (n_judged < size)).any():
        refuse_ties_without_docno()


def _multisets(size: int, n_levels: int) -> np.ndarray:
    """Every multiset of ``size`` levels out of ``n_levels``, as counts per level."""
    from itertools import combinations_with_replacement

    if size == 0:
        return np.zeros((1, n_levels), dtype=np.intp)
    combos = np.array(
        list(combinations_with_replacement(range(n_levels), size)), dtype=np.intp
    ).reshape(-1, size)
    counts = np.zeros((combos.shape[0], n_levels), dtype=np.intp)
    for column in range(size):  # at most k columns: the positions, not the queries
        np.add.at(counts, (np.arange(combos.shape[0]), combos[:, column]), 1)
    return counts


def _sum_by_counts(values: np.ndarray, counts: np.ndarray, prefix: np.ndarray) -> np.ndarray:
    """``sum_v values[v] * (prefix[C_v] - prefix[C_{v-1}])`` with ``C`` the running sum
    of ``counts`` over its last axis: sorted gains laid along sorted discounts.

    ``prefix`` holds cumulative discounts, shape (..., length) broadcasting with counts.
    """
    ends = np.cumsum(counts, axis=-1)
    begins = ends - counts
    take = lambda index: np.take_along_axis(prefix, index, axis=-1)  # noqa: E731
    return ((take(ends) - take(begins)) * values).sum(axis=-1)


def pool_bounds(
    staged: PoolStaged,
    *,
    gain,
    discount,
    ties: str,
    k: int | None,
    levels: np.ndarray,
    zero_division: float,
) -> PoolBounds:
    """Judged@k and exact bounds of NDCG@k over the levels of the unjudged documents.

    Every unjudged ranked document may take any of ``levels``, joining the pool
    (the ideal DCG changes with each assignment). For a given multiset of levels, the
    largest DCG lays the highest gains on the highest discounts among the unjudged
    positions and the smallest the reverse (rearrangement inequality); unjudged
    documents beyond the cutoff only enter the ideal DCG, which grows with their
    gains, so they take the lowest level for the upper bound and the highest for the
    lower one (gains are not negative). Enumerating the multisets of the unjudged
    documents within the cutoff is exact, one vectorised pass per number of such
    documents (not per query).

    An assignment without a positive ideal DCG scores ``zero_division``; NaN leaves
    it out of the extremes (NaN for both when every assignment is undefined). Such an
    assignment has every gain 0, the DCG too, so raising an unjudged document beyond
    the cutoff to a positive level defines NDCG at 0: the upper bound is then at
    least 0. ``ties="docno"`` refuses a tie group within the cutoff holding judged
    and unjudged documents, whose order (by document id) is unknown here.
    """
    ranked_index, pooled_index = _result_index(staged)
    n_result = staged.ids.shape[0]
    code = ranked_index[query_of_row(staged.queries, staged.y_true.shape[0])]
    judged = ~np.isnan(staged.y_true)
    level_gain = compute_gain(levels, gain)
    row_gain = np.zeros(judged.shape[0])
    row_gain[judged] = compute_gain(staged.y_true[judged], gain)
    pool_gain = compute_gain(staged.pool.y_true, gain)
    for what, values in (("levels", level_gain), ("pool", pool_gain), ("y_true", row_gain)):
        if (values < 0).any():
            raise ValueError(
                f"bounds=True needs gains that are not negative; the gain of some {what} "
                "label is negative (pass gain=positive_part_gain for TREC levels)."
            )
    if ties == DOCNO_TIES:
        _refuse_unjudged_tied_with_judged(staged, code, judged, k)
    scored = code >= 0
    effective, in_top = _effective_discounts(staged, code, discount, ties, k)
    counted = scored & judged
    judged_dcg = np.bincount(code[counted], row_gain[counted] * effective[counted], n_result)
    top_judged = np.bincount(code[counted], in_top[counted], n_result)
    n_ranked = np.bincount(code[scored], minlength=n_result)
    per = n_ranked if k is None else np.minimum(n_ranked, k)  # as ir_measures divides
    with np.errstate(invalid="ignore", divide="ignore"):
        judged_at_k = np.where(per > 0, top_judged / np.maximum(per, 1), 0.0)

    # the value set: every gain of the pool and of the levels, decreasing
    values = np.unique(np.concatenate([pool_gain, level_gain]))[::-1]
    where = lambda gains: values.shape[0] - 1 - np.searchsorted(values[::-1], gains)  # noqa: E731
    pool_code = pooled_index[query_of_row(staged.pooled, pool_gain.shape[0])]
    kept = pool_code >= 0
    pool_counts = np.bincount(
        pool_code[kept] * values.shape[0] + where(pool_gain[kept]),
        minlength=n_result * values.shape[0],
    ).reshape(n_result, values.shape[0])
    level_order = np.argsort(-level_gain, kind="stable")
    level_sorted = level_gain[level_order]  # decreasing
    level_slot = where(level_sorted)

    # the unjudged rows: within the cutoff (positive discount) or beyond
    unjudged = scored & ~judged
    top = unjudged & (effective > 0)
    rest = np.bincount(code[unjudged & ~top], minlength=n_result)
    n_top = np.bincount(code[top], minlength=n_result)
    widest = int(n_top.max()) if n_result else 0
    # each query's unjudged discounts within the cutoff, decreasing, as prefix sums
    rows = np.flatnonzero(top)
    by = np.lexsort((-effective[rows], code[rows]))
    rows = rows[by]
    slot = np.arange(rows.shape[0]) - np.repeat(
        np.cumsum(n_top) - n_top, n_top
    )  # position among the query's unjudged
    prefix = np.zeros((n_result, widest + 1))
    prefix[code[rows], slot + 1] = effective[rows]
    prefix = np.cumsum(prefix, axis=1)
    longest = int((pool_counts.sum(axis=1) + n_top + rest).max()) if n_result else 1
    ideal_discount = discount_weights(discount, max(longest, 1), k)
    ideal_prefix = np.zeros(max(longest, 1) + 1)
    ideal_prefix[1 : ideal_discount.shape[0] + 1] = np.cumsum(ideal_discount)
    ideal_prefix[ideal_discount.shape[0] + 1 :] = ideal_prefix[ideal_discount.shape[0]]

    lower, upper = np.empty(n_result), np.empty(n_result)
    for size in np.unique(n_top):  # one pass per number of unjudged documents in the top
        n_sets = math.comb(int(size) + level_sorted.shape[0] - 1, int(size))
        if n_sets > MAX_BOUND_CELLS:
            raise ValueError(
                f"bounds=True: some query has {size} unjudged documents within the cutoff, "
                f"{n_sets} multisets of the {level_sorted.shape[0]} levels to try; pass a "
                "smaller k or fewer levels."
            )
        counts = _multisets(int(size), level_sorted.shape[0])  # (n_sets, n_levels)
        in_values = np.zeros((counts.shape[0], values.shape[0]), dtype=np.intp)
        np.add.at(in_values.T, level_slot, counts.T)  # the multisets over the value set
        group = np.flatnonzero(n_top == size)
        step = max(1, MAX_BOUND_CELLS // (counts.shape[0] * values.shape[0]))
        for first in range(0, group.shape[0], step):  # chunks of queries bound the memory
            queries = group[first : first + step]
            own = prefix[queries, : size + 1][:, np.newaxis, :]  # (n_q, 1, size + 1)
            best = judged_dcg[queries, None] + _sum_by_counts(level_sorted, counts[None], own)
            worst = judged_dcg[queries, None] + _sum_by_counts(
                level_sorted[::-1], counts[None, :, ::-1], own
            )
            base = pool_counts[queries][:, None, :] + in_values[None]  # (n_q, n_sets, n_v)
            extremes = []
            for dcg, rest_slot in ((best, level_slot[-1]), (worst, level_slot[0])):
                total = base.copy()
                total[:, :, rest_slot] += rest[queries][:, None]
                ideal = _sum_by_counts(values, total, ideal_prefix[None, None, :])
                with np.errstate(invalid="ignore", divide="ignore"):
                    positive = np.where(ideal > 0, ideal, 1.0)
                    extremes.append(np.where(ideal > 0, dcg / positive, zero_division))
            # no positive ideal with the rest at the lowest level: every gain is 0, the
            # DCG too; a document beyond the cutoff at a positive level defines NDCG, 0
            # (what zero_division=nan leaves as the only defined value)
            defined = (rest[queries] > 0) & (level_sorted[0] > 0)
            extremes[0] = np.fmax(extremes[0], np.where(defined, 0.0, np.nan)[:, None])
            upper[queries] = np.fmax.reduce(extremes[0], axis=1)
            lower[queries] = np.fmin.reduce(extremes[1], axis=1)
    return PoolBounds(judged_at_k, lower, upper)
