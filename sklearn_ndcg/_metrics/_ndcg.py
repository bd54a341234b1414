"""ndcg_score and dcg_score, the public metric functions, and NDCG at several cutoffs.

Their per-query values come from :func:`._query_scores.per_query`; ``query_scores`` and
its result types (``QueryScores``, ``QueryBounds``) are re-exported here for the
modules that import them from this one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import ArrayLike

from .._engine import JudgmentPool, RankingOptions, query_values, stage, weighted_mean
from .._options import (
    COMMON_PARAMS,
    DEFAULT_MISSING_QUERIES,
    DEFAULT_TIES,
    DEFAULT_UNJUDGED,
    DEFAULT_UNJUDGED_QUERIES,
    DOCUMENT_WEIGHT,
    IGNORE_TIES,
    LOG_BASE,
    NDCG_PARAMS,
    POOL,
    REPLACE_UNDEFINED,
    ZERO_DIVISION,
    ranking_options,
)
from .._validate_params import StrOptions, validate_params
from ._query_scores import per_query, query_scores
from ._results import QueryBounds, QueryScores

__all__ = ["QueryBounds", "QueryScores", "at_cutoffs", "dcg_score", "ndcg_score", "query_scores"]


@validate_params(
    {
        **{
            name: COMMON_PARAMS[name]
            for name in ("y_true", "y_score", "gain", "discount", "ties", "qid", "sample_weight")
        },
        **NDCG_PARAMS,
        **DOCUMENT_WEIGHT,
        "ks": ["array-like"],
        "metric": [StrOptions({"ndcg", "dcg"})],
        "pool": POOL["pool"],
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
    ties: str = DEFAULT_TIES,
    zero_division: float = 0.0,
    normalize: str = "ideal",
    pool: JudgmentPool | None = None,
) -> tuple[np.ndarray, np.ndarray | None]:
    """NDCG@k (or DCG@k) of each query for every cutoff in ``ks``, from one ranking.

    The options are those of :func:`query_scores` (a ``pool`` with the default
    ``unjudged`` and ``missing_queries``, as the scorers take it); ``ks`` holds
    positive integers, checked by the caller. Returns the per-query values,
    shape (n_queries, n_cutoffs), and the query weights (None without
    ``sample_weight``).
    """
    options = RankingOptions(
        metric=metric,
        gain=gain,
        discount=discount,
        ties=ties,
        zero_division=zero_division,
        normalize=normalize,
        pool=pool,
    )
    staged = stage(
        y_true,
        y_score,
        options,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
    )
    _, values, weight, _ = query_values(staged, options, ks=np.asarray(ks))
    return values, weight


@validate_params(
    {
        **COMMON_PARAMS,
        **IGNORE_TIES,
        **NDCG_PARAMS,
        **DOCUMENT_WEIGHT,
        **POOL,
        **REPLACE_UNDEFINED,
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
    unjudged: str = DEFAULT_UNJUDGED,
    missing_queries: str = DEFAULT_MISSING_QUERIES,
    unjudged_queries: str = DEFAULT_UNJUDGED_QUERIES,
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
        Only the top ``k`` documents of each query count (the cutoff of NDCG@k and DCG@k),
        in the DCG and in the ideal DCG. None means all documents.
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
    ties : {"average", "first", "optimistic", "pessimistic", "docno"}, default="average"
        How documents with equal scores are ordered.

        - "average": each tied document gets the mean gain of its group: the
          expected DCG over all orderings of the tied documents (McSherry and
          Najork), as scikit-learn does, also when ``k`` cuts through a group.
        - "first": tied documents keep their input order.
        - "optimistic": tied documents by decreasing gain (an upper bound).
        - "pessimistic": tied documents by increasing gain (a lower bound).
        - "docno": trec_eval's order, by decreasing document id. Without document
          ids (here) tied documents of different labels raise a ValueError: make the
          scores tie-free (see the user guide on judgment pools) or use
          :func:`evaluate_run`, which knows the ids. Used by ``CONVENTIONS["trec_eval"]``.
    qid : array-like of shape (n_samples,), default=None
        Query id of each document, for 1-D (long format) input, where it is required:
        without it, 1-D input raises a ValueError rather than score all rows as one query
        (give a single query as one 2-D row). Ids may be of any sortable type, in any order,
        and queries of any length.
    sample_weight : array-like, default=None
        Weight of each query in the mean: one per row for 2-D input; for long format one per
        document, equal within a query.
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
        With ``pool`` only (refused without one): unjudged ranked documents gain 0 ("zero"),
        or are removed from the ranking ("drop", trec_eval's ``-J``).
    missing_queries : {"drop", "zero"}, default="drop"
        With ``pool`` only (refused without one): queries of the pool that the ranking lacks
        are left out ("drop", as trec_eval by default) or score 0 ("zero", trec_eval's
        ``-c``).
    unjudged_queries : {"drop", "zero"}, default="drop"
        With ``pool``: queries of ``qid`` that the pool lacks are left out ("drop", as
        trec_eval leaves out queries without qrels) or score 0 ("zero", as Spark scores a
        query with an empty set of relevant ids): such a query is judged to have no
        relevant document, so its ideal DCG is 0, its NDCG ``zero_division`` and a
        positive label in its ranking is refused. ``CONVENTIONS["spark"]`` sets "zero".
        Without a pool every query is judged by its own labels and it changes nothing.
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
    options = ranking_options(
        "ndcg",
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        ignore_ties=ignore_ties,
        zero_division=zero_division,
        replace_undefined_by=replace_undefined_by,
        normalize=normalize,
        pool=pool,
        unjudged=unjudged,
        missing_queries=missing_queries,
        unjudged_queries=unjudged_queries,
    )
    _, score, weight = per_query(
        y_true,
        y_score,
        options,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
    )
    return weighted_mean(score, weight)


@validate_params(
    {**COMMON_PARAMS, **IGNORE_TIES, **DOCUMENT_WEIGHT, **POOL, "log_base": LOG_BASE},
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
    unjudged: str = DEFAULT_UNJUDGED,
    missing_queries: str = DEFAULT_MISSING_QUERIES,
    unjudged_queries: str = DEFAULT_UNJUDGED_QUERIES,
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
        Only the top ``k`` documents of each query count (the cutoff of NDCG@k and DCG@k),
        in the DCG and in the ideal DCG. None means all documents.
    gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
        Gain of a document from its relevance label: "linear" (the label, as scikit-learn),
        "exponential" (``2**label - 1``, as LightGBM and XGBoost), a mapping from label to
        gain, a sequence indexed by label (LightGBM's ``label_gain``) or a callable; see
        :func:`~sklearn_ndcg.ndcg_score`.
    discount : {"log2", "reciprocal", "none"} or callable, default="log2"
        Weight of the document at rank ``r`` (from 1): "log2" (``1 / log2(r + 1)``),
        "reciprocal" (``1 / r``), "none" (1) or a callable; see
        :func:`~sklearn_ndcg.ndcg_score`.
    ties : {"average", "first", "optimistic", "pessimistic", "docno"}, default="average"
        How documents with equal scores are ordered: "average" (the mean DCG over all their
        orders, as scikit-learn), "first" (input order), "optimistic" (by decreasing gain),
        "pessimistic" (by increasing gain) or "docno" (trec_eval's order by document id,
        which needs tie-free scores where document ids are unknown); see
        :func:`~sklearn_ndcg.ndcg_score`.
    qid : array-like of shape (n_samples,), default=None
        Query id of each document, for 1-D (long format) input, where it is required:
        without it, 1-D input raises a ValueError rather than score all rows as one query
        (give a single query as one 2-D row). Ids may be of any sortable type, in any order,
        and queries of any length.
    sample_weight : array-like, default=None
        Weight of each query in the mean: one per row for 2-D input; for long format one per
        document, equal within a query.
    log_base : float > 1, default=None
        The keyword of scikit-learn: the discount is ``1 / log_base(r + 1)``. Only with
        ``discount="log2"``; None means base 2.
    ignore_ties : bool, default=None
        The keyword of scikit-learn: True orders tied documents as scikit-learn
        does, by ``np.argsort(y_score)[:, ::-1]`` on 2-D input (an order of
        numpy's sort; on long-format input, input order as ``"first"``); False
        means ``"average"``. Give ``ties`` or ``ignore_ties``, not both.
    document_weight : array-like of the shape of y_true, default=None
        A weight per document that multiplies its gain in the DCG (not in the ideal DCG),
        e.g. an inverse propensity for unbiased (IPS) DCG; see
        :func:`~sklearn_ndcg.ndcg_score`.
    pool : JudgmentPool, default=None
        Every judged document of each query (the qrels): the ideal DCG comes from the pool
        instead of the ranked documents, so relevant documents the system missed count
        against it. Needs long-format input; see :func:`~sklearn_ndcg.ndcg_score` and
        :class:`~sklearn_ndcg.JudgmentPool`. Here it decides which documents are judged and
        which queries count.
    unjudged : {"zero", "drop"}, default="zero"
        With ``pool`` only (refused without one): unjudged ranked documents gain 0 ("zero"),
        or are removed from the ranking ("drop", trec_eval's ``-J``).
    missing_queries : {"drop", "zero"}, default="drop"
        With ``pool`` only (refused without one): queries of the pool that the ranking lacks
        are left out ("drop", as trec_eval by default) or score 0 ("zero", trec_eval's
        ``-c``).
    unjudged_queries : {"drop", "zero"}, default="drop"
        With ``pool``: queries of ``qid`` that the pool lacks are left out ("drop", as
        trec_eval leaves out queries without qrels) or score 0 ("zero", as Spark scores a
        query with an empty set of relevant ids): such a query is judged to have no
        relevant document, so its ideal DCG is 0, its NDCG ``zero_division`` and a
        positive label in its ranking is refused. ``CONVENTIONS["spark"]`` sets "zero".
        Without a pool every query is judged by its own labels and it changes nothing.

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
    options = ranking_options(
        "dcg",
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        ignore_ties=ignore_ties,
        log_base=log_base,
        pool=pool,
        unjudged=unjudged,
        missing_queries=missing_queries,
        unjudged_queries=unjudged_queries,
    )
    _, score, weight = per_query(
        y_true,
        y_score,
        options,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
    )
    return weighted_mean(score, weight)
