"""JudgmentPool: every judged document of each query, retrieved or not; and its DCG.

:func:`stage_pool` matches a ranking with the pool once; :func:`pool_sums` sums the
DCG of the ranking and the ideal (and worst) DCG of the pool. The bounds over the
unjudged documents' levels are in :mod:`._pool_bounds`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ._aggregate import QueryDCG, check_overflow, dcg_at_cutoffs, dcg_by_query
from ._discount import discount_weights
from ._gain import compute_gain
from ._pool_strata import check_strata
from ._queries import Queries, group_queries, query_weights
from ._validation import as_float_array, check_qid, check_ranking_input, missing_rows


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
    stratum : array-like of shape (n_judgments,), default=None
        For a pool judged by stratified sampling (TREC's sampled pools, read by
        :func:`read_sampled_qrels`): the stratum of each pooled document, compared
        as strings; a missing value (None, NaN) puts the document outside the
        pool. Only infNDCG reads it (:func:`evaluate_run` and :func:`query_scores`
        with ``metric="infNDCG"``).
    sampled : array-like of bool of shape (n_judgments,), default=None
        Which pooled documents were sampled and judged; None means those whose
        level is not negative (``sample_eval.pl``'s ``-1``: pooled, not sampled).
        Needs ``stratum``.
    docno : array-like of shape (n_judgments,), default=None
        The document id of each judged document, by which :func:`query_scores`
        with ``metric="infNDCG"`` finds the ranked documents in the pool (its
        ``docno=``); compared as text. Other uses of the pool ignore it.

    Attributes
    ----------
    qid : ndarray of shape (n_judgments,)
        The query ids, read-only.
    y_true : ndarray of shape (n_judgments,)
        The labels as float64, read-only.
    stratum : ndarray of shape (n_judgments,) or None
        The strata as str (None outside the pool), read-only; None without strata.
    sampled : ndarray of shape (n_judgments,) or None
        The sampled flags, read-only; None without strata.
    docno : ndarray of shape (n_judgments,) or None
        The document ids as given (object array), read-only; None without them.

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

    A pool judged by stratified sampling (TREC's sampled pools): each pooled
    document's stratum; level -1 marks a pooled document that was not sampled.
    :func:`evaluate_run` with ``metric="infNDCG"`` estimates NDCG from it, and so
    does :func:`query_scores` with ``metric="infNDCG"`` given the documents' ids
    (``docno=``):

    >>> pool = JudgmentPool(qid=[1, 1, 1], y_true=[2, -1, 0], stratum=["top", "top", "deep"])
    >>> pool.sampled.tolist()
    [True, False, True]
    """

    def __init__(
        self,
        qid: ArrayLike,
        y_true: ArrayLike,
        *,
        stratum: ArrayLike | None = None,
        sampled: ArrayLike | None = None,
        docno: ArrayLike | None = None,
    ):
        y_true = as_float_array(y_true, "the pool's y_true")
        if y_true.ndim != 1 or y_true.shape[0] == 0:
            raise ValueError(
                "the pool's y_true must be 1-D with one label per judged document; got "
                f"shape {y_true.shape}."
            )
        qid = check_qid(qid, y_true.shape[0], "the pool's y_true")
        stratum, sampled = check_strata(qid, y_true, stratum, sampled)
        self.qid = _read_only(qid)
        self.y_true = _read_only(y_true)
        self.stratum = None if stratum is None else _read_only(stratum)
        self.sampled = None if sampled is None else _read_only(sampled)
        self.docno = None if docno is None else _read_only(_document_ids(docno, y_true.shape[0]))

    def default_levels(self) -> np.ndarray:
        """The levels an unjudged document may take, by default: 0 and the pool's own.

        The distinct levels of the pool that are not negative, and 0. Level 0 is always
        in: an unjudged document can always be non-relevant, also where the qrels list
        relevant documents only (MS MARCO). A negative level marks a document in the pool
        but not judged (trec_eval's reading, that of ``-J``): it is no level an unjudged
        document takes.

        Returns
        -------
        ndarray
            The sorted distinct levels.
        """
        levels = np.asarray(self.y_true, dtype=np.float64)
        return np.unique(np.append(levels[levels >= 0], 0.0))

    def __repr__(self) -> str:
        n_queries = np.unique(self.qid).shape[0]
        return f"JudgmentPool(n_queries={n_queries}, n_judgments={self.y_true.shape[0]})"


def _document_ids(docno, n: int) -> np.ndarray:
    """The pool's document ids: 1-D, one per judged document, none missing."""
    array = np.asarray(docno, dtype=object)
    if array.shape != (n,):
        raise ValueError(
            f"the pool's docno must be 1-D with one document id per judged document ({n}); "
            f"got shape {array.shape}."
        )
    missing = missing_rows(array)
    if missing.shape[0]:
        raise ValueError(
            f"the pool's docno has missing values (None, NaN or NA), e.g. at row {missing[0]}; "
            "every judged document needs an id."
        )
    return array


def _read_only(array: ArrayLike) -> np.ndarray:
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
    unjudged_queries="drop",
) -> PoolStaged:
    """Validate a ranking, group it and its pool into queries and match the two.

    Unjudged documents (missing labels) gain 0; ``unjudged="drop"`` also ranks
    them below every judged one, which equals removing them from the ranking.
    Queries of the ranking that the pool lacks are not judged and left out with
    ``unjudged_queries="drop"``; with ``"zero"`` the pool holds each of them as one
    document of level 0 (no relevant document: an ideal DCG of 0). Queries of the
    pool that the ranking lacks score a DCG of 0 with ``missing_queries="zero"``
    and are left out with ``"drop"``.
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
    in_ranking, in_pool = _common_queries(queries, pooled)
    if unjudged_queries == "zero" and in_ranking.shape[0] < queries.ids.shape[0]:
        pool = _with_unjudged_queries(pool, np.delete(queries.ids, in_ranking))
        pooled = group_queries(pool.qid, None)
        in_ranking, in_pool = _common_queries(queries, pooled)
    ids = queries.ids[in_ranking]  # the ranking's ids, in their own dtype
    _refuse_labels_beyond_pool(data.y_true, queries, pool.y_true, pooled, in_ranking, in_pool)
    weight = query_weights(data.sample_weight, queries)
    to_result: np.ndarray | slice
    from_pool: np.ndarray | slice
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


def _common_queries(queries: Queries, pooled: Queries) -> tuple[np.ndarray, np.ndarray]:
    """The positions in ``queries.ids`` and in ``pooled.ids`` of the queries of both."""
    try:
        _, in_ranking, in_pool = np.intersect1d(
            *_exact_ids(queries.ids, pooled.ids), assume_unique=True, return_indices=True
        )
    except TypeError:
        raise TypeError(
            "qid and the pool's query ids cannot be compared (e.g. numbers and strings); "
            "give both the same type."
        ) from None
    return in_ranking, in_pool


def _with_unjudged_queries(pool: JudgmentPool, ids: np.ndarray) -> JudgmentPool:
    """The pool with one document of level 0 for each query of ``ids`` (which it lacks).

    Such a query has no relevant document: an ideal DCG of 0, so its NDCG is
    ``zero_division`` and each positive label of its ranking is refused, as for any
    query whose pool holds no relevant document (``unjudged_queries="zero"``).
    """
    if ids.dtype == pool.qid.dtype:
        qid = np.concatenate([pool.qid, ids])
    else:  # ids of two types: Python values, which compare by exact value
        qid = np.empty(pool.qid.shape[0] + ids.shape[0], dtype=object)
        qid[:] = pool.qid.tolist() + ids.tolist()
    return JudgmentPool(qid, np.concatenate([pool.y_true, np.zeros(ids.shape[0])]))


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


def query_of_row(queries: Queries, n_rows: int) -> np.ndarray:
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
    row_code = ranked_code[query_of_row(queries, y_true.shape[0])[judged]]
    pool_code = pooled_code[query_of_row(pooled, pool_y_true.shape[0])]
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
    gains[judged] = compute_gain(
        staged.y_true[judged],
        gain,
        negative_labels=negative,
        qid=lambda: staged.queries.ids[query_of_row(staged.queries, judged.shape[0])][judged],
        rows=np.flatnonzero(judged),
    )
    pool_gains = compute_gain(
        staged.pool.y_true, gain, negative_labels=negative, qid=staged.pool.qid
    )
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
            ideal = dcg_at_cutoffs(best, None, staged.pooled, ties, discounts, ks).ideal
            worst = (
                dcg_at_cutoffs(
                    pool_gains, None, staged.pooled, ties, discounts, ks, worst=True
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
    ideal = None if ideal is None else ideal[staged.from_pool]
    return QueryDCG(dcg, ideal, worst)
