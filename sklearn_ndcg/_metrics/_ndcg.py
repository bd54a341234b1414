"""ndcg_score, dcg_score and query_scores: the public metric functions."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._compat import Integers, Interval, Options, StrOptions, validate_params
from .._engine._aggregate import (
    QueryDCG,
    dcg_at_cutoffs,
    dcg_by_query,
    ndcg_from_dcg,
    weighted_mean,
)
from .._engine._discount import DISCOUNTS, discount_weights
from .._engine._gain import GAINS, compute_gain
from .._engine._pool import JudgmentPool
from .._engine._queries import Queries, group_queries, query_weights
from .._engine._ties import ARGSORT_TIES, DEFAULT_TIES, TIE_RULES, resolve_ties
from .._engine._validation import check_log_base, check_ranking_input

_COMMON_PARAMS = {
    "y_true": ["array-like"],
    "y_score": ["array-like"],
    "k": [Integers(1), None],
    "gain": [StrOptions(set(GAINS)), Mapping, callable, "array-like"],
    "discount": [StrOptions(set(DISCOUNTS)), callable],
    "ties": [StrOptions(set(TIE_RULES))],
    "qid": ["array-like", None],
    "sample_weight": ["array-like", None],
}
_IGNORE_TIES = {"ignore_ties": ["boolean", None]}  # scikit-learn's keyword
_ZERO_DIVISION = [Options(Real, {0.0, 1.0}), "nan"]
_LOG_BASE = [Interval(Real, 1, None, closed="neither"), None]
NORMALIZE = ("ideal", "minmax")
_NDCG_PARAMS = {"zero_division": _ZERO_DIVISION, "normalize": [StrOptions(set(NORMALIZE))]}
_REPLACE_UNDEFINED = {"replace_undefined_by": [*_ZERO_DIVISION, None]}


class _Default(float):
    """A default value that tells itself apart from the same value given explicitly."""


ZERO_DIVISION = _Default(0.0)
"""The default of ``zero_division``: 0.0, unless ``replace_undefined_by`` is given."""


def resolve_zero_division(zero_division: float, replace_undefined_by: float | None) -> float:
    """``zero_division`` under either of its names; refuse both at once."""
    if replace_undefined_by is None:
        return zero_division
    if zero_division is not ZERO_DIVISION:
        raise ValueError(
            "zero_division and replace_undefined_by are two names for the same option "
            f"(the NDCG of a query without relevant document); got zero_division="
            f"{zero_division!r} and replace_undefined_by={replace_undefined_by!r}. Give "
            "one of the two."
        )
    return replace_undefined_by


_DOCUMENT_WEIGHT = {"document_weight": ["array-like", None]}
_POOL = {
    "pool": [JudgmentPool, None],
    "unjudged": [StrOptions({"zero", "drop"})],
    "missing_queries": [StrOptions({"drop", "zero"})],
}


class QueryScores(NamedTuple):
    """Per-query values of a ranking metric, returned by :func:`query_scores`."""

    qid: np.ndarray
    score: np.ndarray
    weight: np.ndarray


# the fields' own docstrings (namedtuple gives them "Alias for field number 0")
QueryScores.qid.__doc__ = "Query ids, sorted; ``arange(n_queries)`` for 2-D input."
QueryScores.score.__doc__ = (
    "The metric of each query; NaN where NDCG is undefined and ``zero_division=np.nan``."
)
QueryScores.weight.__doc__ = "Weight of each query (ones without ``sample_weight``)."


class _Staged(NamedTuple):
    """Input through the stages before ordering: queries, gains and discounts."""

    score: np.ndarray
    queries: Queries
    weight: np.ndarray | None
    gains: np.ndarray
    discounts: np.ndarray
    document_weight: np.ndarray | None


def _stage(
    y_true,
    y_score,
    *,
    qid,
    sample_weight,
    document_weight,
    k,
    gain,
    discount,
    log_base,
    normalize,
    ties=None,
) -> _Staged:
    """Validate, group into queries, gains, discounts.

    ``ties`` matters only for scikit-learn's order of tied documents
    (``ARGSORT_TIES``), which the validation lays out.
    """
    data = check_ranking_input(
        y_true, y_score, qid, sample_weight, document_weight, argsort_ties=ties == ARGSORT_TIES
    )
    queries = group_queries(data.qid, data.shape)
    weight = query_weights(data.sample_weight, queries)
    gains = compute_gain(data.y_true, gain, negative_labels=normalize == "minmax")
    discounts = discount_weights(discount, int(queries.sizes.max()), k, log_base)
    return _Staged(data.y_score, queries, weight, gains, discounts, data.document_weight)


def _order_and_sum(staged: _Staged, ties: str, normalize: str | None) -> QueryDCG:
    """Order with the tie rule, discount and sum per query.

    ``normalize`` None computes the DCG alone; "ideal" adds the ideal DCG and
    "minmax" the ideal and the worst DCG.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        result = dcg_by_query(
            staged.gains,
            staged.score,
            staged.queries,
            ties,
            staged.discounts,
            ideal=normalize is not None,
            worst=normalize == "minmax",
            document_weight=staged.document_weight,
        )
    _check_overflow(result.dcg, staged.gains)
    return result


def _query_dcg(
    y_true,
    y_score,
    *,
    ties,
    normalize,
    pool=None,
    unjudged="zero",
    missing_queries="drop",
    **options,
) -> tuple[np.ndarray, QueryDCG, np.ndarray | None]:
    """The stages from validation to the sums per query: ids, DCGs and weights."""
    if pool is None:
        staged = _stage(y_true, y_score, normalize=normalize, ties=ties, **options)
        return staged.queries.ids, _order_and_sum(staged, ties, normalize), staged.weight
    return _pool_query_dcg(
        y_true,
        y_score,
        pool,
        ties=ties,
        normalize=normalize,
        unjudged=unjudged,
        missing_queries=missing_queries,
        **options,
    )


def _pool_query_dcg(
    y_true,
    y_score,
    pool: JudgmentPool,
    *,
    qid,
    sample_weight,
    document_weight,
    k,
    gain,
    discount,
    ties,
    log_base,
    normalize,
    unjudged,
    missing_queries,
) -> tuple[np.ndarray, QueryDCG, np.ndarray | None]:
    """:func:`_query_dcg` with the ideal (and worst) DCG of each query from the pool.

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
    negative = normalize == "minmax"
    judged = ~np.isnan(data.y_true)
    gains = np.zeros(judged.shape[0])
    gains[judged] = compute_gain(data.y_true[judged], gain, negative_labels=negative)
    score = data.y_score
    if unjudged == "drop" and not judged.all():
        score = np.where(judged, score, -np.inf)  # below every judged document
    queries = group_queries(data.qid, None)
    pooled = group_queries(pool.qid, None)
    pool_gains = compute_gain(pool.y_true, gain, negative_labels=negative)
    longest = int(max(queries.sizes.max(), pooled.sizes.max()))
    discounts = discount_weights(discount, longest, k, log_base)
    staged = _Staged(score, queries, None, gains, discounts, data.document_weight)
    dcg = _order_and_sum(staged, ties, None).dcg
    # a system need not retrieve the pool's documents of negative gain: they never
    # lower the ideal DCG (they do set the worst one)
    ideal = dcg_by_query(np.maximum(pool_gains, 0.0), None, pooled, ties, discounts, ideal=True)
    worst = (
        dcg_by_query(pool_gains, None, pooled, ties, discounts, worst=True) if negative else None
    )
    try:
        ids, in_ranking, in_pool = np.intersect1d(
            queries.ids, pooled.ids, assume_unique=True, return_indices=True
        )
    except TypeError:
        raise TypeError(
            "qid and the pool's query ids cannot be compared (e.g. numbers and strings); "
            "give both the same type."
        ) from None
    weight = query_weights(data.sample_weight, queries)
    if missing_queries == "zero":  # every query of the pool, a DCG of 0 where not ranked
        ranked_dcg, dcg = dcg, np.zeros(pooled.ids.shape[0])
        dcg[in_pool] = ranked_dcg[in_ranking]
        ids, in_pool = pooled.ids, slice(None)  # weight is None (checked above)
    else:  # the queries of both, sorted by id like their intersection
        dcg = dcg[in_ranking]
        weight = None if weight is None else weight[in_ranking]
    if ids.shape[0] == 0:
        raise ValueError(
            "no query of the ranking is in the pool; the pool must hold the judged "
            "documents of the queries in qid."
        )
    worst_dcg = None if worst is None else worst.worst[in_pool]
    return ids, QueryDCG(dcg, ideal.ideal[in_pool], worst_dcg), weight


def _ndcg(result: QueryDCG, zero_division: float, document_weight=None) -> np.ndarray:
    """NDCG per query; min-max NDCG without document weights is kept in [0, 1]
    (tie averaging can round it an ulp beyond)."""
    ndcg = ndcg_from_dcg(result.dcg, result.ideal, zero_division, result.worst)
    if result.worst is not None and document_weight is None:
        np.clip(ndcg, 0.0, 1.0, out=ndcg)
    return ndcg


def _check_overflow(dcg: np.ndarray, gains: np.ndarray) -> None:
    if not np.isfinite(dcg).all():
        raise ValueError(
            "the DCG of some queries overflows float64 (gains up to "
            f"{np.abs(gains).max():g}); use smaller labels or gain='linear'."
        )


@validate_params(
    {
        **{
            name: _COMMON_PARAMS[name]
            for name in ("y_true", "y_score", "gain", "discount", "ties", "qid", "sample_weight")
        },
        **_NDCG_PARAMS,
        **_DOCUMENT_WEIGHT,
        "ks": ["array-like"],
        "metric": [StrOptions({"ndcg", "dcg"})],
    },
    prefer_skip_nested_validation=True,
)
def at_cutoffs(
    y_true,
    y_score,
    ks: np.ndarray,
    *,
    metric: str = "ndcg",
    qid=None,
    sample_weight=None,
    document_weight=None,
    gain="linear",
    discount="log2",
    ties: str = "average",
    zero_division: float = 0.0,
    normalize: str = "ideal",
) -> tuple[np.ndarray, np.ndarray | None]:
    """NDCG@k (or DCG@k) of each query for every cutoff in ``ks``, from one ranking.

    The options are those of :func:`query_scores`; ``ks`` holds positive
    integers, checked by the caller. Returns the per-query values,
    shape (n_queries, n_cutoffs), and the query weights (None without
    ``sample_weight``).
    """
    staged = _stage(
        y_true,
        y_score,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
        k=None,
        gain=gain,
        discount=discount,
        log_base=None,
        normalize=normalize if metric == "ndcg" else None,
    )
    with np.errstate(over="ignore", invalid="ignore"):
        result = dcg_at_cutoffs(
            staged.gains,
            staged.score,
            staged.queries,
            ties,
            staged.discounts,
            np.asarray(ks),
            worst=metric == "ndcg" and normalize == "minmax",
            document_weight=staged.document_weight,
        )
    _check_overflow(result.dcg, staged.gains)
    if metric == "dcg":
        return result.dcg, staged.weight
    flat = QueryDCG(*(None if a is None else a.ravel() for a in result))
    ndcg = _ndcg(flat, zero_division, staged.document_weight)
    return ndcg.reshape(result.dcg.shape), staged.weight


@validate_params(
    {
        **_COMMON_PARAMS,
        **_NDCG_PARAMS,
        **_DOCUMENT_WEIGHT,
        **_POOL,
        **_REPLACE_UNDEFINED,
        "metric": [StrOptions({"ndcg", "dcg"})],
        "log_base": _LOG_BASE,
    },
    prefer_skip_nested_validation=True,
)
def query_scores(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    metric: str = "ndcg",
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = "average",
    qid: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    zero_division: float = ZERO_DIVISION,
    log_base: float | None = None,
    normalize: str = "ideal",
    document_weight: ArrayLike | None = None,
    pool: JudgmentPool | None = None,
    unjudged: str = "zero",
    missing_queries: str = "drop",
    replace_undefined_by: float | None = None,
) -> QueryScores:
    """NDCG or DCG of each query, with the query ids they belong to.

    The per-query values behind :func:`ndcg_score` and :func:`dcg_score`, for
    confidence intervals, paired tests between models, or finding the queries
    a model gets wrong. ``np.average(result.score, weights=result.weight)``
    equals the score of the matching function (ignoring NaN values).

    Read more in the :ref:`User Guide <per_query>`.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_documents) or (n_samples,)
        Relevance labels; see :func:`ndcg_score`.
    y_score : array-like of the same shape as y_true
        Predicted scores; higher ranks first.
    metric : {"ndcg", "dcg"}, default="ndcg"
        Which metric to compute per query.
    k : int, default=None
        Only the top ``k`` documents of each query count. None means all.
    gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
        See :func:`ndcg_score`.
    discount : {"log2", "reciprocal", "none"} or callable, default="log2"
        See :func:`ndcg_score`.
    ties : {"average", "first", "optimistic", "pessimistic"}, default="average"
        See :func:`ndcg_score`.
    qid : array-like of shape (n_samples,), default=None
        Query id of each document. Required with 1-D (long format) input, which
        raises a ValueError without it rather than score all rows as one
        query; give a single query as one 2-D row instead.
    sample_weight : array-like, default=None
        One weight per query (2-D input) or per document (long format, equal
        within a query); returned as ``weight``.
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        NDCG of a query with no relevant document. Ignored for DCG.
    log_base : float > 1, default=None
        Base of the logarithmic discount for DCG (NDCG does not depend on it).
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by; see :func:`ndcg_score`.
        Ignored for DCG.
    document_weight : array-like of the shape of y_true, default=None
        A weight per document that multiplies its gain in the DCG (not in the
        ideal DCG); see :func:`ndcg_score`.
    pool : JudgmentPool, default=None
        Every judged document of each query: the ideal DCG comes from it; see
        :func:`ndcg_score`.
    unjudged : {"zero", "drop"}, default="zero"
        With ``pool``: unjudged documents gain 0, or are removed from the ranking.
    missing_queries : {"drop", "zero"}, default="drop"
        With ``pool``: queries of the pool that the ranking lacks are left out, or score 0.
    replace_undefined_by : {0.0, 1.0, np.nan}, default=None
        Another name for ``zero_division``; see :func:`ndcg_score`.

    Returns
    -------
    result : QueryScores
        Named tuple ``(qid, score, weight)`` of arrays of shape (n_queries,),
        queries sorted by id.

    See Also
    --------
    ndcg_score : The weighted mean of the per-query NDCG.
    dcg_score : The weighted mean of the per-query DCG.

    Examples
    --------
    >>> from sklearn_ndcg import query_scores
    >>> result = query_scores([3, 2, 0, 1, 0], [0.9, 0.1, 0.5, 0.4, 0.3],
    ...                       qid=["b", "b", "b", "a", "a"])
    >>> result.qid.tolist()
    ['a', 'b']
    >>> result.score.round(4)
    array([1.    , 0.9386])
    """
    ties = resolve_ties(ties, None)
    zero_division = resolve_zero_division(zero_division, replace_undefined_by)
    check_log_base(log_base, discount)
    if metric == "ndcg":
        log_base = None  # the base cancels in NDCG
    ids, result, weight = _query_dcg(
        y_true,
        y_score,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
        pool=pool,
        unjudged=unjudged,
        missing_queries=missing_queries,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        log_base=log_base,
        normalize=normalize if metric == "ndcg" else None,
    )
    score = result.dcg if metric == "dcg" else _ndcg(result, zero_division, document_weight)
    weight = np.ones(ids.shape[0]) if weight is None else weight
    return QueryScores(ids, score, weight)


@validate_params(
    {
        **_COMMON_PARAMS,
        **_IGNORE_TIES,
        **_NDCG_PARAMS,
        **_DOCUMENT_WEIGHT,
        **_POOL,
        **_REPLACE_UNDEFINED,
    },
    prefer_skip_nested_validation=True,
)
def ndcg_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    qid: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    zero_division: float = ZERO_DIVISION,
    ignore_ties: bool | None = None,
    normalize: str = "ideal",
    document_weight: ArrayLike | None = None,
    pool: JudgmentPool | None = None,
    unjudged: str = "zero",
    missing_queries: str = "drop",
    replace_undefined_by: float | None = None,
) -> float:
    """Normalized Discounted Cumulative Gain, averaged over queries.

    The DCG of the ranking induced by ``y_score``, divided by the DCG of the
    ideal ranking (by decreasing gain), per query; then the (weighted) mean
    over queries. With default arguments it equals
    :func:`sklearn.metrics.ndcg_score`, and it also takes long-format input
    grouped by ``qid``, other gains, discounts and tie rules, and a policy for
    queries without any relevant document.

    Read more in the :ref:`User Guide <ndcg>`.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_documents) or (n_samples,)
        Relevance labels (graded or binary). 2-D input holds one query per row,
        as in scikit-learn, with at least 2 documents per query; 1-D input is
        long format, one row per document, grouped into queries by ``qid``,
        which it requires.
    y_score : array-like of the same shape as y_true
        Predicted scores; documents are ranked by decreasing score.
    k : int, default=None
        Only the top ``k`` documents of each query count, in the DCG and in the
        ideal DCG. None means all documents. A ``k`` larger than a query is fine.
    gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
        Gain of a document from its relevance label.

        - "linear": the label itself (scikit-learn's choice).
        - "exponential": ``2**label - 1`` (Burges et al.; LightGBM, XGBoost).
        - mapping ``{label: gain}``: every label in ``y_true`` must be a key;
          gains may be negative (e.g. ``{1: 1, 0: 0, -1: -1}``).
        - sequence: gains indexed by non-negative integer label, like
          LightGBM's ``label_gain``.
        - callable: takes the float64 array of labels and returns gains of the
          same shape.

        The built-in gains reject negative labels, as scikit-learn does,
        except with ``normalize="minmax"``. The ideal ranking sorts gains, so
        a non-monotone gain stays correct.
    discount : {"log2", "reciprocal", "none"} or callable, default="log2"
        Weight of the document at rank ``r`` (ranks start at 1).

        - "log2": ``1 / log2(r + 1)``.
        - "reciprocal": ``1 / r``.
        - "none": 1, i.e. plain cumulative gain.
        - callable: takes an int array of ranks and returns finite,
          non-negative weights of the same shape.
    ties : {"average", "first", "optimistic", "pessimistic"}, default="average"
        How documents with equal scores are ordered.

        - "average": each tied document gets the mean gain of its group: the
          expected DCG over all orderings of the tied documents (McSherry and
          Najork), as scikit-learn does, also when ``k`` cuts through a group.
        - "first": tied documents keep their input order.
        - "optimistic": tied documents by decreasing gain (an upper bound).
        - "pessimistic": tied documents by increasing gain (a lower bound).
    qid : array-like of shape (n_samples,), default=None
        Query id of each document. Required with 1-D (long format) input, which
        raises a ValueError without it rather than score all rows as one
        query; give a single query as one 2-D row instead. Ids may be of
        any sortable type, in any order, and queries of any length.
    sample_weight : array-like, default=None
        Weight of each query in the mean: one per row for 2-D input; for long
        format one per document, equal within a query.
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        NDCG of a query whose ideal DCG is not positive (no relevant document):
        0.0 as in scikit-learn, 1.0 as in LightGBM and XGBoost, or ``np.nan``
        to leave such queries out of the mean. If every query is left out the
        result is NaN, with an :class:`~sklearn.exceptions.UndefinedMetricWarning`.
    ignore_ties : bool, default=None
        The keyword of scikit-learn: True orders tied documents as scikit-learn
        does, by ``np.argsort(y_score)[:, ::-1]`` on 2-D input (an order of
        numpy's sort; on long-format input, input order as ``"first"``); False
        means ``"average"``. Give ``ties`` or ``ignore_ties``, not both.
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by.

        - "ideal": the ideal DCG, DCG / ideal DCG (scikit-learn's NDCG).
        - "minmax": (DCG - worst DCG) / (ideal DCG - worst DCG), the worst DCG
          being that of the documents by increasing gain, under the same
          ``k`` and discount (Gienapp et al., 2020). 1 for the best ordering,
          0 for the worst, in [0, 1] also with negative gains; the built-in
          gains then accept negative labels (e.g. good 1, fair 0, bad -1). A
          query whose orderings are all worth the same (one document, or equal
          gains) is undefined and scores ``zero_division``.
    document_weight : array-like of the shape of y_true, default=None
        A weight per document that multiplies its gain in the DCG, e.g. an
        inverse propensity for unbiased (IPS) DCG; not in the ideal (or worst)
        DCG, so NDCG may exceed 1 with weights above 1. Finite and >= 0.
        Distinct from ``sample_weight``, which weighs whole queries in the mean.
    pool : JudgmentPool, default=None
        Every judged document of each query, retrieved or not (the qrels):
        the ideal DCG comes from the pool instead of the ranked documents, so
        relevant documents the system missed count against it, at any ``k``.
        Needs long-format input. Documents with a missing label (NaN, None,
        ``pd.NA``) in ``y_true`` are then unjudged; queries of ``qid`` the
        pool lacks are not judged and left out. See :class:`JudgmentPool`.
    unjudged : {"zero", "drop"}, default="zero"
        With ``pool``: unjudged ranked documents gain 0 ("zero"), or are
        removed from the ranking ("drop", trec_eval's ``-J``).
    missing_queries : {"drop", "zero"}, default="drop"
        With ``pool``: queries of the pool that the ranking lacks (an empty
        ranking) are left out ("drop", as trec_eval by default) or score 0
        ("zero", trec_eval's ``-c``).
    replace_undefined_by : {0.0, 1.0, np.nan}, default=None
        Another name for ``zero_division``, the one scikit-learn is adopting
        for scores that can be undefined (scikit-learn 1.9 uses it in
        ``cohen_kappa_score`` and ``class_likelihood_ratios``; PR #34244
        proposes it for its ``ndcg_score``), with the same values. Give one of the two; passing
        both raises a ``ValueError``. None means ``zero_division`` decides.

    Returns
    -------
    score : float
        The weighted mean NDCG over queries; in [0, 1] for non-negative gains,
        and always with ``normalize="minmax"`` (without ``document_weight``).

    See Also
    --------
    dcg_score : Discounted cumulative gain, not normalized.
    query_scores : NDCG or DCG of each query, with the query ids.
    make_ndcg_scorer : NDCG@k as the ``scoring`` of a scikit-learn search.

    Notes
    -----
    Per query, with ranks ``r`` in the order of decreasing score, gains ``g``
    and discount ``d``::

        DCG@k  = sum over r <= k of g(r) * d(r)
        NDCG@k = DCG@k / (DCG@k of the ranking by decreasing gain)

    The whole computation is vectorized, with no Python loop per query: the
    queries are laid out in 2-D blocks of similar size (rows already grouped
    by query are used as they are; otherwise one radix sort groups them), each
    block is sorted row by row, only as far as ``k``, and tie groups come from
    boundary masks.

    References
    ----------
    Jarvelin, K., & Kekalainen, J. (2002). Cumulated gain-based evaluation of
    IR techniques. ACM Transactions on Information Systems, 20(4), 422-446.

    McSherry, F., & Najork, M. (2008). Computing information retrieval
    performance measures efficiently in the presence of tied scores. ECIR.

    Examples
    --------
    >>> from sklearn_ndcg import ndcg_score
    >>> y_true = [[10, 0, 0, 1, 5]]
    >>> round(ndcg_score(y_true, [[0.1, 0.2, 0.3, 4, 70]]), 6)
    0.695694
    >>> round(ndcg_score(y_true, [[0.1, 0.2, 0.3, 4, 70]], k=2), 6)
    0.428056

    Ties in the scores: averaged by default, or bounded from above and below.

    >>> tied = [[1, 0, 0, 0, 1]]
    >>> round(ndcg_score(y_true, tied, k=1), 6)
    0.75
    >>> ndcg_score(y_true, tied, k=1, ties="optimistic")
    1.0
    >>> ndcg_score(y_true, tied, k=1, ties="pessimistic")
    0.5

    Long format: one row per document, grouped by query id.

    >>> round(ndcg_score([3, 2, 0, 1, 0], [0.9, 0.1, 0.5, 0.4, 0.3],
    ...                  qid=[7, 7, 7, 8, 8], gain="exponential"), 6)
    0.977915
    """
    ties = resolve_ties(ties, ignore_ties)
    zero_division = resolve_zero_division(zero_division, replace_undefined_by)
    _, result, weight = _query_dcg(
        y_true,
        y_score,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
        pool=pool,
        unjudged=unjudged,
        missing_queries=missing_queries,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        log_base=None,
        normalize=normalize,
    )
    return weighted_mean(_ndcg(result, zero_division, document_weight), weight)


@validate_params(
    {**_COMMON_PARAMS, **_IGNORE_TIES, **_DOCUMENT_WEIGHT, **_POOL, "log_base": _LOG_BASE},
    prefer_skip_nested_validation=True,
)
def dcg_score(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    qid: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    log_base: float | None = None,
    ignore_ties: bool | None = None,
    document_weight: ArrayLike | None = None,
    pool: JudgmentPool | None = None,
    unjudged: str = "zero",
    missing_queries: str = "drop",
) -> float:
    """Discounted Cumulative Gain, averaged over queries.

    The sum of the gains of the documents in the order of decreasing
    ``y_score``, each times the discount of its rank; then the (weighted) mean
    over queries. With default arguments it equals
    :func:`sklearn.metrics.dcg_score`. Usually :func:`ndcg_score` is preferred,
    since DCG grows with the number and grade of relevant documents.

    Read more in the :ref:`User Guide <ndcg>`.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_documents) or (n_samples,)
        Relevance labels; see :func:`ndcg_score`.
    y_score : array-like of the same shape as y_true
        Predicted scores; documents are ranked by decreasing score.
    k : int, default=None
        Only the top ``k`` documents of each query count. None means all.
    gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
        Gain of a document from its relevance label; see :func:`ndcg_score`.
    discount : {"log2", "reciprocal", "none"} or callable, default="log2"
        Weight of each rank; see :func:`ndcg_score`.
    ties : {"average", "first", "optimistic", "pessimistic"}, default="average"
        How documents with equal scores are ordered; see :func:`ndcg_score`.
    qid : array-like of shape (n_samples,), default=None
        Query id of each document. Required with 1-D (long format) input, which
        raises a ValueError without it rather than score all rows as one
        query; give a single query as one 2-D row instead.
    sample_weight : array-like, default=None
        Weight of each query in the mean: one per row for 2-D input; for long
        format one per document, equal within a query.
    log_base : float > 1, default=None
        The keyword of scikit-learn: the discount is ``1 / log_base(r + 1)``. Only
        with ``discount="log2"``; None means base 2.
    ignore_ties : bool, default=None
        The keyword of scikit-learn: True orders tied documents as scikit-learn
        does (see :func:`ndcg_score`), False means ``ties="average"``. Give
        ``ties`` or ``ignore_ties``, not both.
    document_weight : array-like of the shape of y_true, default=None
        A weight per document that multiplies its gain, e.g. an inverse
        propensity for unbiased (IPS) DCG; see :func:`ndcg_score`.
    pool : JudgmentPool, default=None
        Every judged document of each query; see :func:`ndcg_score`. Here it
        decides which documents are judged and which queries count.
    unjudged : {"zero", "drop"}, default="zero"
        With ``pool``: see :func:`ndcg_score`.
    missing_queries : {"drop", "zero"}, default="drop"
        With ``pool``: see :func:`ndcg_score`.

    Returns
    -------
    score : float
        The weighted mean DCG over queries.

    See Also
    --------
    ndcg_score : DCG divided by the DCG of the ideal ranking.
    query_scores : DCG or NDCG of each query, with the query ids.
    make_dcg_scorer : DCG@k as the ``scoring`` of a scikit-learn search.

    Examples
    --------
    >>> from sklearn_ndcg import dcg_score
    >>> round(dcg_score([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]]), 6)
    4.670624
    >>> round(dcg_score([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]], ties="first"), 6)
    4.692536
    >>> round(dcg_score([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]], k=2), 6)
    4.26186
    >>> round(dcg_score([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]], discount="reciprocal"), 6)
    4.225
    """
    ties = resolve_ties(ties, ignore_ties)
    check_log_base(log_base, discount)
    _, result, weight = _query_dcg(
        y_true,
        y_score,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
        pool=pool,
        unjudged=unjudged,
        missing_queries=missing_queries,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        log_base=log_base,
        normalize=None,
    )
    return weighted_mean(result.dcg, weight)
