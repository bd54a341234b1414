"""JudgmentPool: every judged document of each query, retrieved or not; and its DCG."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ._aggregate import QueryDCG, check_overflow, dcg_at_cutoffs, dcg_by_query
from ._discount import discount_weights
from ._gain import compute_gain
from ._queries import Queries, group_queries, query_weights
from ._validation import as_float_array, check_qid, check_ranking_input


class JudgmentPool:
    """The judged documents of each query (the qrels), retrieved or not.

    NDCG divides by the ideal DCG of the documents it is given, so a system
    that misses relevant documents is not penalised. Information retrieval
    evaluates against the *judgment pool* instead (trec_eval, ranx,
    Elasticsearch's ``_rank_eval``, recommender toolkits): the ideal DCG of a
    query comes from all its judged documents. Pass a pool as ``pool=`` to
    :func:`ndcg_score`, :func:`dcg_score`, :func:`query_scores` or a scorer
    (through metadata routing, where it reaches every fold whole and is
    looked up by the fold's query ids).

    Query ids are matched by exact value, also between integer types of
    different width or signedness. Each relevant ranked document must be one
    of the pool's: a query whose ranking holds a positive label more often than
    its pool does is refused, naming the query and the row.

    Read more in the :ref:`User Guide <judgment_pools>`.

    Parameters
    ----------
    qid : array-like of shape (n_judgments,)
        Query id of each judged document.
    y_true : array-like of shape (n_judgments,)
        Its relevance label (graded or binary; negative labels mean judged
        non-relevant where the gain allows them, e.g. with ``positive_part_gain``).

    Attributes
    ----------
    qid : ndarray of shape (n_judgments,)
        The query ids, read-only.
    y_true : ndarray of shape (n_judgments,)
        The labels as float64, read-only.

    See Also
    --------
    evaluate_run : NDCG of a TREC run against qrels, joined on document ids.

    Examples
    --------
    One query with three relevant documents, of which the system retrieved
    one (and an irrelevant one above it):

    >>> from sklearn_ndcg import JudgmentPool, ndcg_score
    >>> pool = JudgmentPool(qid=[1, 1, 1], y_true=[1, 1, 1])
    >>> round(ndcg_score([0, 1], [2, 1], qid=[1, 1]), 4)  # ideal from the list
    0.6309
    >>> round(ndcg_score([0, 1], [2, 1], qid=[1, 1], pool=pool), 4)  # from the pool
    0.2961
    """

    def __init__(self, qid: ArrayLike, y_true: ArrayLike):
        y_true = as_float_array(y_true, "the pool's y_true")
        if y_true.ndim != 1 or y_true.shape[0] == 0:
            raise ValueError(
                "the pool's y_true must be 1-D with one label per judged document; got "
                f"shape {y_true.shape}."
            )
        qid = check_qid(qid, y_true.shape[0], "the pool's y_true")
        self.qid = _read_only(qid)
        self.y_true = _read_only(y_true)

    def __repr__(self) -> str:
        n_queries = np.unique(self.qid).shape[0]
        return f"JudgmentPool(n_queries={n_queries}, n_judgments={self.y_true.shape[0]})"


def _read_only(array: np.ndarray) -> np.ndarray:
    array = np.array(array, copy=True)
    array.flags.writeable = False
    return array


class PoolStaged(NamedTuple):
    """A ranking and its pool through validation and grouping, before the gains."""

    y_true: np.ndarray  # NaN for unjudged documents
    score: np.ndarray  # below every judged one for unjudged documents, unjudged="drop"
    document_weight: np.ndarray | None
    queries: Queries  # of the ranking
    pool: JudgmentPool
    pooled: Queries  # of the pool
    ids: np.ndarray  # the queries scored, sorted
    from_ranking: np.ndarray  # positions in ``queries`` of the ranked queries scored
    to_result: np.ndarray | slice  # and their positions among ``ids``
    from_pool: np.ndarray | slice  # positions in ``pooled`` of ``ids``
    weight: np.ndarray | None


def stage_pool(
    y_true,
    y_score,
    pool: JudgmentPool,
    *,
    qid,
    sample_weight,
    document_weight,
    unjudged,
    missing_queries,
) -> PoolStaged:
    """Validate a ranking, group it and its pool into queries and match the two.

    Unjudged documents (missing labels) gain 0; ``unjudged="drop"`` also ranks
    them below every judged one, which equals removing them from the ranking.
    Queries of the ranking that the pool lacks are not judged and left out;
    queries of the pool that the ranking lacks score a DCG of 0 with
    ``missing_queries="zero"`` and are left out with ``"drop"``.
    """
    if qid is None or np.ndim(y_true) != 1:
        raise ValueError(
            "pool needs long-format input: 1-D y_true and y_score with qid, so that the "
            "documents can be matched with the pool's queries."
        )
    data = check_ranking_input(
        y_true, y_score, qid, sample_weight, document_weight, unjudged_ok=True
    )
    if missing_queries == "zero" and data.sample_weight is not None:
        raise ValueError(
            "sample_weight cannot weigh the queries that missing_queries='zero' adds from "
            "the pool (they have no documents to carry a weight); drop one of them."
        )
    score = data.y_score
    judged = ~np.isnan(data.y_true)
    if unjudged == "drop" and not judged.all():
        score = np.where(judged, score, _below_judged(score, judged))
    queries = group_queries(data.qid, None)
    pooled = group_queries(pool.qid, None)
    try:
        _, in_ranking, in_pool = np.intersect1d(
            *_exact_ids(queries.ids, pooled.ids), assume_unique=True, return_indices=True
        )
    except TypeError:
        raise TypeError(
            "qid and the pool's query ids cannot be compared (e.g. numbers and strings); "
            "give both the same type."
        ) from None
    ids = queries.ids[in_ranking]  # the ranking's ids, in their own dtype
    _refuse_labels_beyond_pool(data.y_true, queries, pool.y_true, pooled, in_ranking, in_pool)
    weight = query_weights(data.sample_weight, queries)
    if missing_queries == "zero":  # every query of the pool, a DCG of 0 where not ranked
        ids, to_result, from_pool = pooled.ids, in_pool, slice(None)
        # weight is None (checked above)
    else:  # the queries of both, sorted by id like their intersection
        to_result, from_pool = slice(None), in_pool
        weight = None if weight is None else weight[in_ranking]
    if ids.shape[0] == 0:
        raise ValueError(
            "no query of the ranking is in the pool; the pool must hold the judged "
            "documents of the queries in qid."
        )
    return PoolStaged(
        data.y_true,
        score,
        data.document_weight,
        queries,
        pool,
        pooled,
        ids,
        in_ranking,
        to_result,
        from_pool,
        weight,
    )


def _below_judged(score: np.ndarray, judged: np.ndarray) -> float:
    """A finite score below every judged document's, for the unjudged ones to drop.

    Not -inf: the blocks pad their rows with scores of -inf, which must sort after
    every document (``_ties.rank_block``); a dropped document tied with the padding
    could sort after a padding cell, whose gain (-inf) then counted in its place.
    """
    with np.errstate(over="ignore"):
        below = np.nextafter(score.min(where=judged, initial=np.inf), -np.inf)
    if below == -np.inf:
        raise ValueError(
            "y_score holds the lowest float64 value, so no score ranks the unjudged "
            "documents below it with unjudged='drop'; rescale y_score."
        )
    return float(below)


def _exact_ids(first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two arrays of sorted unique query ids in forms that compare by exact value.

    numpy compares an int64 with a uint64 (and an integer with a float) through
    float64, which merges distinct ids above 2**53; ids of two numeric dtypes are
    compared as Python numbers instead (only the unique ids, one per query).
    """
    kinds = first.dtype.kind, second.dtype.kind
    if kinds[0] == kinds[1] or not set(kinds) <= set("biuf"):
        return first, second  # one kind: numpy widens exactly (or cannot compare)
    as_python = [np.empty(ids.shape[0], dtype=object) for ids in (first, second)]
    as_python[0][:], as_python[1][:] = first.tolist(), second.tolist()
    return as_python[0], as_python[1]


def _query_of_row(queries: Queries, n_rows: int) -> np.ndarray:
    """The position in ``queries.ids`` of each row's query."""
    by_start = np.argsort(queries.starts, kind="stable")
    at_position = np.repeat(by_start, queries.sizes[by_start])
    if queries.order is None:
        return at_position
    of_row = np.empty(n_rows, dtype=at_position.dtype)
    of_row[queries.order] = at_position
    return of_row


def _positive_label_codes(y: np.ndarray, queries: Queries) -> np.ndarray | None:
    """Each positive label as an int in the grouped layout (0 for the others, NaN
    included), or None unless every positive label is an integer below 2**20."""
    labels = y if queries.order is None else y[queries.order]  # the grouped layout
    positive = np.where(labels > 0, labels, 0.0)
    code = positive.astype(np.intp) if positive.max() < 2**20 else None
    return code if code is not None and (code == positive).all() else None


def _label_counts(code: np.ndarray, queries: Queries, width: int) -> np.ndarray:
    """Counts of each label code 1 .. width - 1 per query, shape (n_queries, width)."""
    by_start = np.argsort(queries.starts, kind="stable")
    key = np.repeat(by_start, queries.sizes[by_start])
    key *= width
    key += code
    counts = np.bincount(key, minlength=queries.ids.shape[0] * width).reshape(-1, width)
    counts[:, 0] = 0
    return counts


def _labels_within_pool(y_true, queries, pool_y_true, pooled, in_ranking, in_pool) -> bool:
    """Whether the ranking's positive labels are within the pool's, when the labels are
    small integers (the usual case, counted in one pass); False to look closer."""
    ranked = _positive_label_codes(y_true, queries)
    held = _positive_label_codes(pool_y_true, pooled)
    if ranked is None or held is None:
        return False
    width = int(max(ranked.max(), held.max())) + 1
    if max(queries.ids.shape[0], pooled.ids.shape[0]) * width > 4 * (ranked.size + held.size):
        return False
    held = _label_counts(held, pooled, width)[in_pool]
    return bool((_label_counts(ranked, queries, width)[in_ranking] <= held).all())


def _refuse_labels_beyond_pool(
    y_true: np.ndarray,
    queries: Queries,
    pool_y_true: np.ndarray,
    pooled: Queries,
    in_ranking: np.ndarray,
    in_pool: np.ndarray,
) -> None:
    """Refuse positive labels of the ranking that its pool does not hold.

    Each relevant ranked document is one of the pool's judged documents, so, query
    by query, the ranking may hold each positive label at most as often as the pool
    does; more (e.g. three relevant ranked documents against a pool holding one)
    would give an NDCG above 1. Labels of 0 and below need no counterpart: such a
    document gains nothing, like an unjudged one (the recommender convention labels
    the recommended items outside the pool 0).
    """
    judged = np.flatnonzero(y_true > 0)  # NaN (unjudged) compares False
    if judged.shape[0] == 0 or _labels_within_pool(
        y_true, queries, pool_y_true, pooled, in_ranking, in_pool
    ):
        return
    # common query codes: the position in the intersection, -1 for the others
    ranked_code = np.full(queries.ids.shape[0], -1, dtype=np.intp)
    ranked_code[in_ranking] = np.arange(in_ranking.shape[0])
    pooled_code = np.full(pooled.ids.shape[0], -1, dtype=np.intp)
    pooled_code[in_pool] = np.arange(in_pool.shape[0])
    row_code = ranked_code[_query_of_row(queries, y_true.shape[0])[judged]]
    pool_code = pooled_code[_query_of_row(pooled, pool_y_true.shape[0])]
    kept, pool_kept = row_code >= 0, pool_code >= 0
    both = np.concatenate([y_true[judged][kept], pool_y_true[pool_kept]])
    levels, level_code = np.unique(both, return_inverse=True)
    level_code = level_code.reshape(-1)
    key = np.concatenate([row_code[kept], pool_code[pool_kept]]) * levels.shape[0] + level_code
    keys, key_code = np.unique(key, return_inverse=True)
    n_ranked = int(np.count_nonzero(kept))
    sign = np.ones(key.shape[0])
    sign[n_ranked:] = -1.0
    excess = np.bincount(key_code.reshape(-1), weights=sign, minlength=keys.shape[0])
    if (excess <= 0).all():
        return
    worst = int(np.argmax(excess > 0))
    rows = judged[kept][key_code.reshape(-1)[:n_ranked] == worst]
    query = queries.ids[in_ranking[keys[worst] // levels.shape[0]]]
    query = query.item() if isinstance(query, np.generic) else query
    level = levels[keys[worst] % levels.shape[0]]
    n_pool = rows.shape[0] - int(excess[worst])
    raise ValueError(
        f"y_true contradicts the pool: query {query!r} has {rows.shape[0]} ranked documents "
        f"labelled {level:g} (e.g. the document at row {rows[-1]}) but the pool holds "
        f"{n_pool} judged document(s) with that label; each judged ranked document must "
        "be one of the pool's, with its label (give unjudged documents a NaN label)."
    )


def pool_sums(
    staged: PoolStaged,
    *,
    gain,
    discount,
    ties: str,
    normalize: str | None,
    k: int | None = None,
    log_base: float | None = None,
    ks: np.ndarray | None = None,
) -> QueryDCG:
    """Gains, the order with the tie rule, discounts and the sums of a staged pool.

    The DCG of the ranking, and the ideal (and, for ``normalize="minmax"``,
    worst) DCG of the pool, in the order of ``staged.ids``: at cutoff ``k``, or
    for every cutoff in ``ks`` (arrays of shape (n_queries, n_cutoffs)).
    """
    negative = normalize == "minmax"
    judged = ~np.isnan(staged.y_true)
    gains = np.zeros(judged.shape[0])
    gains[judged] = compute_gain(staged.y_true[judged], gain, negative_labels=negative)
    pool_gains = compute_gain(staged.pool.y_true, gain, negative_labels=negative)
    longest = int(max(staged.queries.sizes.max(), staged.pooled.sizes.max()))
    discounts = discount_weights(discount, longest, None if ks is not None else k, log_base)
    # a system need not retrieve the pool's documents of negative gain: they never
    # lower the ideal DCG (they do set the worst one)
    best = np.maximum(pool_gains, 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        if ks is None:
            dcg = dcg_by_query(
                gains,
                staged.score,
                staged.queries,
                ties,
                discounts,
                document_weight=staged.document_weight,
            ).dcg
            ideal = dcg_by_query(best, None, staged.pooled, ties, discounts, ideal=True).ideal
            worst = (
                dcg_by_query(pool_gains, None, staged.pooled, ties, discounts, worst=True).worst
                if negative
                else None
            )
        else:
            dcg = dcg_at_cutoffs(
                gains,
                staged.score,
                staged.queries,
                ties,
                discounts,
                ks,
                document_weight=staged.document_weight,
            ).dcg
            ideal = dcg_at_cutoffs(best, best, staged.pooled, ties, discounts, ks).ideal
            worst = (
                dcg_at_cutoffs(
                    pool_gains, pool_gains, staged.pooled, ties, discounts, ks, worst=True
                ).worst
                if negative
                else None
            )
    check_overflow(dcg, gains, staged.document_weight)
    ranked = dcg[staged.from_ranking]
    if isinstance(staged.to_result, slice):
        dcg = ranked
    else:  # missing_queries="zero": a DCG of 0 for the pool's queries not ranked
        # min-max NDCG: the worst DCG, so that such a query scores 0 there too
        dcg = np.zeros((staged.ids.shape[0], *ranked.shape[1:]))
        if worst is not None:
            dcg[...] = worst[staged.from_pool]
        dcg[staged.to_result] = ranked
    worst = None if worst is None else worst[staged.from_pool]
    return QueryDCG(dcg, ideal[staged.from_pool], worst)


def pool_query_dcg(
    y_true,
    y_score,
    pool: JudgmentPool,
    *,
    qid,
    sample_weight,
    document_weight,
    unjudged,
    missing_queries,
    **options,
) -> tuple[np.ndarray, QueryDCG, np.ndarray | None]:
    """The data path with the ideal (and worst) DCG of each query from the pool:
    :func:`stage_pool`, then :func:`pool_sums` (``options``: gain, discount, ties,
    normalize, k, log_base). Returns the query ids, their sums and weights."""
    staged = stage_pool(
        y_true,
        y_score,
        pool,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
        unjudged=unjudged,
        missing_queries=missing_queries,
    )
    return staged.ids, pool_sums(staged, **options), staged.weight


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
    """
    ranked_index, pooled_index = _result_index(staged)
    n_result = staged.ids.shape[0]
    code = ranked_index[_query_of_row(staged.queries, staged.y_true.shape[0])]
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
    pool_code = pooled_index[_query_of_row(staged.pooled, pool_gain.shape[0])]
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
            upper[queries] = np.fmax.reduce(extremes[0], axis=1)
            lower[queries] = np.fmin.reduce(extremes[1], axis=1)
    return PoolBounds(judged_at_k, lower, upper)


def pool_query_bounds(
    y_true,
    y_score,
    pool: JudgmentPool,
    *,
    qid,
    sample_weight,
    missing_queries,
    levels,
    zero_division: float,
    **options,
) -> tuple[np.ndarray, QueryDCG, np.ndarray | None, PoolBounds]:
    """:func:`pool_query_dcg` and :func:`pool_bounds` from one staging (``options``:
    gain, discount, ties, k). ``levels`` None means the distinct labels of the pool."""
    staged = stage_pool(
        y_true,
        y_score,
        pool,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=None,
        unjudged="zero",
        missing_queries=missing_queries,
    )
    levels = np.unique(pool.y_true) if levels is None else levels
    sums = pool_sums(staged, normalize="ideal", **options)
    bounds = pool_bounds(
        staged,
        gain=options["gain"],
        discount=options["discount"],
        ties=options["ties"],
        k=options.get("k"),
        levels=levels,
        zero_division=zero_division,
    )
    return staged.ids, sums, staged.weight, bounds
