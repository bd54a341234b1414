"""query_scores: NDCG or DCG per query, with the bounds over the unjudged documents;
:func:`per_query`, the one way from the public metric functions to the data path."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from numbers import Real
from typing import Literal, overload

import numpy as np
from numpy.typing import ArrayLike

from .._engine import (
    JudgmentPool,
    RankingOptions,
    query_values,
    stage,
)
from .._options import (
    COMMON_PARAMS,
    DEFAULT_MISSING_QUERIES,
    DEFAULT_TIES,
    DEFAULT_UNJUDGED,
    DEFAULT_UNJUDGED_QUERIES,
    DOCUMENT_WEIGHT,
    LOG_BASE,
    NDCG_PARAMS,
    POOL,
    REPLACE_UNDEFINED,
    ZERO_DIVISION,
    metric_names,
    ranking_options,
    resolve_zero_division,
)
from .._validate_params import validate_params
from ._ids import dict_rows, trec_labels
from ._inferred import INFNDCG, inferred_query_scores, refuse_changed_rules
from ._levels import check_array_levels, check_levels
from ._measure_scores import measure_scores
from ._results import QueryBounds, QueryScores

# query_scores' options that infNDCG fixes (sample_eval.pl's rules), with their defaults
_FIXED_BY_INFNDCG = {
    "k": None,
    "gain": "linear",
    "discount": "log2",
    "ties": DEFAULT_TIES,
    "sample_weight": None,
    "zero_division": ZERO_DIVISION,
    "log_base": None,
    "normalize": "ideal",
    "document_weight": None,
    "unjudged": DEFAULT_UNJUDGED,
    "unjudged_queries": DEFAULT_UNJUDGED_QUERIES,
    "replace_undefined_by": None,
    "bounds": False,
    "levels": None,
    "relevance_level": 1,
}


def _check_bounds_request(*, pool, metric, normalize, unjudged, document_weight, ties, log_base):
    """Refuse ``bounds=True`` where the bounds are not defined, before any other check."""
    problems = [
        (pool is None, "a pool (the unjudged documents are those it lacks)"),
        (metric != "ndcg", 'metric="ndcg"'),
        (normalize != "ideal", 'normalize="ideal"'),
        (unjudged == "drop", 'unjudged="zero" (with "drop" none is ranked)'),
        (document_weight is not None, "no document_weight"),
        (
            ties not in ("average", "first", "docno"),
            'ties "average", "first" or "docno" (the others order by the very gains being bounded)',
        ),
        (log_base is not None, "no log_base"),
    ]
    for problem, need in problems:
        if problem:
            raise ValueError(f"bounds=True needs {need}.")


def _bounded_query_scores(y_true, y_score, options: RankingOptions, *, qid, sample_weight, levels):
    """:func:`query_scores` with ``bounds=True`` (checked): one staging, then the sums
    and the bounds."""
    if levels is not None:
        levels = np.asarray(levels, dtype=np.float64)
        if levels.ndim != 1 or levels.shape[0] == 0 or not np.isfinite(levels).all():
            raise ValueError("levels must be a non-empty 1-D array of finite labels.")
        levels = np.unique(levels)
    # the bounds stage without unjudged="drop" (refused above)
    staged = stage(
        y_true, y_score, options.replace(unjudged="zero"), qid=qid, sample_weight=sample_weight
    )
    levels = options.pool.default_levels() if levels is None else levels
    result = query_values(staged, options, levels=levels)
    weight = np.ones(result.ids.shape[0]) if result.weight is None else result.weight
    bounds = result.bounds  # set: levels are given
    return QueryBounds(result.ids, result.values, weight, *bounds)  # type: ignore[misc]


def _inferred(y_true, y_score, qid, docno, pool, missing_queries, given: dict) -> QueryScores:
    """``query_scores(..., metric="infNDCG")``: the options it fixes must keep their
    defaults (as ``evaluate_run``'s)."""
    refuse_changed_rules(_FIXED_BY_INFNDCG, given)
    result = inferred_query_scores(
        y_true, y_score, qid=qid, docno=docno, pool=pool, missing_queries=missing_queries
    )
    return result._replace(ties=INFNDCG_TIES)


# sample_eval.pl's order of tied scores: by decreasing document id, trec_eval's
INFNDCG_TIES = "docno"


def per_query(
    y_true, y_score, options: RankingOptions, *, qid, sample_weight, document_weight
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """The one way from the public functions to the data path: ids, values, weights."""
    staged = stage(
        y_true,
        y_score,
        options,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
    )
    return query_values(staged, options)[:3]


# query_scores' arguments that pytrec_eval's dicts hold (ids, pool) or that need rows
_READ_FROM_DICTS = ("qid", "pool", "docno", "sample_weight", "document_weight")


def _of_dicts(y_true, y_score, given: dict):
    """``query_scores`` of pytrec_eval's dicts: the qrels ``{qid: {docno: relevance}}``
    as ``y_true`` (the pool too) and the run ``{qid: {docno: score}}`` as ``y_score``,
    joined as :func:`evaluate_run` joins them; results by the dicts' query ids."""
    if not (isinstance(y_true, Mapping) and isinstance(y_score, Mapping)):
        raise TypeError(
            "y_true and y_score take pytrec_eval's dicts together: the qrels {qid: {docno: "
            f"relevance}} and the run {{qid: {{docno: score}}}}; got {type(y_true).__name__} "
            f"and {type(y_score).__name__}."
        )
    for name in _READ_FROM_DICTS:
        if given[name] is not None:
            raise ValueError(
                f"{name} is not read with pytrec_eval's dicts (their keys give the query and "
                f"document ids, the qrels the pool); leave {name} None, or pass arrays."
            )
    if given["metric"] == INFNDCG:
        raise ValueError(
            f'metric="{INFNDCG}" needs qrels with strata; pass them to evaluate_run (a '
            "SampledQrels) or as arrays with a JudgmentPool."
        )
    ties = given["ties"]
    rows = dict_rows(
        y_true,
        y_score,
        docno_ties=ties == "docno",
        ignore_identical_ids=given["ignore_identical_ids"],
    )
    check_levels(
        rows.pool.y_true,
        metric_names(given["metric"], given["k"]),
        gain=given["gain"],
        normalize=given["normalize"],
        relevance_level=given["relevance_level"],
        what="y_true",
        qid=lambda: rows.ids[rows.pool.qid],
    )
    options = {key: value for key, value in given.items() if key not in _NOT_OPTIONS}
    options.update(qid=rows.qid, pool=rows.pool, ties="first" if ties == "docno" else ties)
    options["zero_division"] = resolve_zero_division(
        given["zero_division"], given["replace_undefined_by"]
    )
    # a judged query with an empty ranking scores as trec_eval -c scores a judged query
    # the run lacks (pytrec_eval's value); the queries the run lacks stay left out
    only_ranked = rows.empty and given["missing_queries"] == "drop"
    if only_ranked:
        options["missing_queries"] = "zero"
    label = trec_labels(rows.label, given["unjudged"], given["bounds"])
    result = scores_of_arrays(label, rows.score, **options)
    result = rows.named(rows.of_ranked(result) if only_ranked else result)
    if isinstance(result, dict):
        return {name: values._replace(ties=str(ties)) for name, values in result.items()}
    return result._replace(ties=str(ties))


# query_scores' arguments that are no option of scores_of_arrays
_NOT_OPTIONS = ("y_true", "y_score", "docno", "replace_undefined_by", "ignore_identical_ids")


# The types of a call (the implementation's are their union): a list of metrics gives a
# dict, one metric its QueryScores, with bounds=True its QueryBounds.
# fmt: off
@overload
def query_scores(
    y_true: ArrayLike | Mapping | None, y_score: ArrayLike | Mapping, *,
    metric: list[str] | tuple[str, ...],
    k: int | None = ..., gain: str | Mapping | Callable | ArrayLike = ...,
    discount: str | Callable = ..., ties: str = ..., qid: ArrayLike | None = ...,
    sample_weight: ArrayLike | None = ..., zero_division: float = ...,
    log_base: float | None = ..., normalize: str = ..., document_weight: ArrayLike | None = ...,
    pool: JudgmentPool | None = ..., unjudged: str = ..., missing_queries: str = ...,
    replace_undefined_by: float | None = ...,
    bounds: bool = ...,
    levels: ArrayLike | None = ..., docno: ArrayLike | None = ..., relevance_level: float = ...,
    ignore_identical_ids: bool = ...,
) -> dict[str, QueryScores]: ...
@overload
def query_scores(
    y_true: ArrayLike | Mapping | None, y_score: ArrayLike | Mapping, *, metric: str = ...,
    k: int | None = ..., gain: str | Mapping | Callable | ArrayLike = ...,
    discount: str | Callable = ..., ties: str = ..., qid: ArrayLike | None = ...,
    sample_weight: ArrayLike | None = ..., zero_division: float = ...,
    log_base: float | None = ..., normalize: str = ..., document_weight: ArrayLike | None = ...,
    pool: JudgmentPool | None = ..., unjudged: str = ..., missing_queries: str = ...,
    replace_undefined_by: float | None = ...,
    bounds: Literal[False] = ...,
    levels: ArrayLike | None = ..., docno: ArrayLike | None = ..., relevance_level: float = ...,
    ignore_identical_ids: bool = ...,
) -> QueryScores: ...
@overload
def query_scores(
    y_true: ArrayLike | Mapping | None, y_score: ArrayLike | Mapping, *, metric: str = ...,
    k: int | None = ..., gain: str | Mapping | Callable | ArrayLike = ...,
    discount: str | Callable = ..., ties: str = ..., qid: ArrayLike | None = ...,
    sample_weight: ArrayLike | None = ..., zero_division: float = ...,
    log_base: float | None = ..., normalize: str = ..., document_weight: ArrayLike | None = ...,
    pool: JudgmentPool | None = ..., unjudged: str = ..., missing_queries: str = ...,
    replace_undefined_by: float | None = ...,
    bounds: Literal[True],
    levels: ArrayLike | None = ..., docno: ArrayLike | None = ..., relevance_level: float = ...,
    ignore_identical_ids: bool = ...,
) -> QueryBounds: ...
@overload
def query_scores(
    y_true: ArrayLike | Mapping | None, y_score: ArrayLike | Mapping, *, metric: str = ...,
    k: int | None = ..., gain: str | Mapping | Callable | ArrayLike = ...,
    discount: str | Callable = ..., ties: str = ..., qid: ArrayLike | None = ...,
    sample_weight: ArrayLike | None = ..., zero_division: float = ...,
    log_base: float | None = ..., normalize: str = ..., document_weight: ArrayLike | None = ...,
    pool: JudgmentPool | None = ..., unjudged: str = ..., missing_queries: str = ...,
    replace_undefined_by: float | None = ...,
    bounds: bool = ...,
    levels: ArrayLike | None = ..., docno: ArrayLike | None = ..., relevance_level: float = ...,
    ignore_identical_ids: bool = ...,
) -> QueryScores | QueryBounds: ...
# fmt: on


@validate_params(
    {
        **COMMON_PARAMS,
        **NDCG_PARAMS,
        **DOCUMENT_WEIGHT,
        **POOL,
        **REPLACE_UNDEFINED,
        "y_true": ["array-like", None],  # None with metric="infNDCG" (levels from the pool)
        "metric": [str, list, tuple],
        "relevance_level": [Real],
        "log_base": LOG_BASE,
        "bounds": ["boolean"],
        "levels": ["array-like", None],
        "docno": ["array-like", None],
        "ignore_identical_ids": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def query_scores(
    y_true: ArrayLike | Mapping | None,
    y_score: ArrayLike | Mapping,
    *,
    metric: str | list[str] | tuple[str, ...] = "ndcg",
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    qid: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    zero_division: float = ZERO_DIVISION,
    log_base: float | None = None,
    normalize: str = "ideal",
    document_weight: ArrayLike | None = None,
    pool: JudgmentPool | None = None,
    unjudged: str = DEFAULT_UNJUDGED,
    missing_queries: str = DEFAULT_MISSING_QUERIES,
    unjudged_queries: str = DEFAULT_UNJUDGED_QUERIES,
    replace_undefined_by: float | None = None,
    bounds: bool = False,
    levels: ArrayLike | None = None,
    docno: ArrayLike | None = None,
    relevance_level: float = 1,
    ignore_identical_ids: bool = False,
) -> QueryScores | QueryBounds | dict[str, QueryScores]:
    """NDCG, DCG or the measures beside them (MAP, MRR, P@k...) of each query.

    The per-query values behind :func:`ndcg_score` and :func:`dcg_score`, for
    confidence intervals, paired tests between models, or finding the queries
    a model gets wrong. ``np.average(result.score, weights=result.weight)``
    equals the score of the matching function (ignoring NaN values).

    Read more in the :ref:`User Guide <per_query>`.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_documents) or (n_samples,), dict, or None
        Relevance labels; see :func:`ndcg_score`. None with ``metric="infNDCG"``,
        which reads them from the pool. Or pytrec_eval's qrels, ``{qid: {docno:
        relevance}}`` (int or float levels), with the run's dict as ``y_score``: the
        run is joined with them by (qid, docno) as :func:`evaluate_run` joins it (ids
        compared as text; a ranked document they lack is unjudged), they are the pool
        (``qid``, ``pool``, ``docno``, ``sample_weight``, ``document_weight`` are not
        read, so refused), and ``ties="docno"`` orders tied scores by decreasing
        document id, as trec_eval and pytrec_eval do. Queries are named by the dicts'
        keys. Queries without judgments are left out; a judged query whose ranking is
        empty (``{qid: {}}``) scores as a query that retrieved nothing, as pytrec_eval
        scores it: 0, but ``num_rel`` (its relevant documents), ``gm_map`` (the log of
        the floor, 1e-5) and ``iprec_at_recall`` (0 / 0, NaN, where a level asks for no
        document).
    y_score : array-like of the same shape as y_true, or dict
        Predicted scores; higher ranks first. Or pytrec_eval's run, ``{qid: {docno:
        score}}``, with the qrels' dict as ``y_true``.
    metric : str or list of str, default="ndcg"
        Which metric to compute per query: "ndcg", "dcg", "infNDCG", or a name as
        trec_eval writes it in its ``-q`` lines: "ndcg_cut_10" (NDCG@10), "map"
        (average precision), "map_cut_10", "recip_rank" (reciprocal rank; "recip_rank_10"
        at 10), "P_10" (precision at 10), "recall_100", "recall", "success_1"; a name
        without its cutoff takes ``k``. A list of names returns a dict of results by
        name, computed from one staging (the measures of binary relevance from one
        order). The measures of binary relevance count a document relevant when its
        label is at least ``relevance_level``; with a pool, average precision and recall
        divide by the pool's relevant documents (0 without any, or ``zero_division``).
        With ``ties="average"`` each is its exact expected value over the orders of the
        tied documents; "docno" is trec_eval's order. They ignore NDCG's ``gain``,
        ``discount``, ``normalize`` and ``log_base`` (so a preset combines with them),
        refuse ``document_weight``, and read a negative label as not relevant.
        Read more in the :ref:`User Guide <trec_measures>`. "infNDCG" is the inferred NDCG of a pool
        judged by stratified sampling, as NIST's ``sample_eval.pl`` computes it (as
        :func:`evaluate_run` with ``metric="infNDCG"``): ``y_true`` is None, ``pool`` a
        :class:`JudgmentPool` with ``stratum`` and ``docno``, ``qid`` and ``docno`` give
        each ranked document's query and document id (long format), by which its level,
        stratum and sampled flag are found in the pool (ids compared as text, as the
        script reads them). The script's rules are fixed (linear gain, log2 discount,
        the first 1000 documents, tied scores by decreasing document id), so every other
        option but ``missing_queries`` keeps its default. Read more in the
        :ref:`User Guide <sampled_pools>`.
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
        document, equal within a query. Returned as ``weight``.
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        NDCG of a query whose ideal DCG is not positive (no relevant document): 0.0 as in
        scikit-learn, 1.0 as in LightGBM and XGBoost, or ``np.nan`` to leave such queries
        out of the mean; see :func:`~sklearn_ndcg.ndcg_score`. Ignored for DCG.
    log_base : float > 1, default=None
        The keyword of scikit-learn: the discount is ``1 / log_base(r + 1)``. Only with
        ``discount="log2"``; None means base 2. NDCG does not depend on it.
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
        NDCG), or the range between the worst and the ideal DCG ("minmax"); see
        :func:`~sklearn_ndcg.ndcg_score`. Ignored for DCG.
    document_weight : array-like of the shape of y_true, default=None
        A weight per document that multiplies its gain in the DCG (not in the ideal DCG),
        e.g. an inverse propensity for unbiased (IPS) DCG; see
        :func:`~sklearn_ndcg.ndcg_score`.
    pool : JudgmentPool, default=None
        Every judged document of each query (the qrels): the ideal DCG comes from the pool
        instead of the ranked documents, so relevant documents the system missed count
        against it. Needs long-format input; see :func:`~sklearn_ndcg.ndcg_score` and
        :class:`~sklearn_ndcg.JudgmentPool`.
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
        Another name for ``zero_division`` (the one scikit-learn is adopting), with the same
        values; give one of the two, not both. None means ``zero_division`` decides; see
        :func:`~sklearn_ndcg.ndcg_score`.
    bounds : bool, default=False
        With ``pool`` (and NDCG): also return, per query, ``judged`` (the judged documents
        in the top ``k`` over ``k``, or over the number ranked if fewer: ir_measures'
        ``Judged@k``) and ``lower`` and ``upper``, the smallest and largest NDCG over
        every assignment of ``levels`` to the unjudged ranked documents, the ideal DCG
        changing with each assignment. With ``zero_division=np.nan`` an assignment
        that leaves no positive ideal DCG is left out of the extremes, and both are NaN
        when no assignment has one. ``ties="docno"`` refuses an unjudged document
        tied with a judged one within the cutoff (their order, by document id, is
        unknown here).
        Needs ``unjudged="zero"``, ``normalize="ideal"``, gains that are not negative
        and ties "average", "first" or "docno". Read more in the :ref:`User Guide
        <unjudged_bounds>`.
    levels : array-like, default=None
        With ``bounds=True``: the judgment scale, the levels an unjudged document may
        take. None means 0 and the distinct labels of the pool that are not negative
        (an unjudged document can always be non-relevant).
    docno : array-like of shape (n_samples,), default=None
        With ``metric="infNDCG"`` only (refused otherwise): the document id of each
        ranked document, looked up in the pool's ``docno``.
    relevance_level : float, default=1
        The measures of binary relevance (``map``, ``P_10``...): a document is relevant
        when its label is at least this (trec_eval's ``-l``, pytrec_eval's
        ``relevance_level``). NDCG and DCG do not read it.
    ignore_identical_ids : bool, default=False
        With pytrec_eval's dicts only (refused with arrays): drop every ranked document
        whose id is its query's id (compared as text) before scoring, the qrels
        untouched (BEIR's and MTEB's name). BEIR's ``EvaluateRetrieval.evaluate`` does
        it by default, since in ArguAna, Quora and CQADupStack the query is itself a
        document of the corpus, which a retriever finds first; on MIRACL dropping them
        loses score (mteb PRs #642 and #833), so it is a choice per call. A query whose
        ranking is then empty scores as an empty ranking does (see ``y_true``).

    Returns
    -------
    result : QueryScores, QueryBounds or dict
        Named tuple ``(qid, score, weight)`` of arrays of shape (n_queries,),
        queries sorted by id; with ``bounds=True`` a :class:`QueryBounds`, which adds
        ``judged``, ``lower`` and ``upper``; for a list of metrics, a dict of
        :class:`QueryScores` by name.

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

    Several measures from one call, named as trec_eval names them; with
    ``ties="average"`` the tied documents of query ``a`` count half relevant each:

    >>> results = query_scores([1, 0, 0, 1, 0], [0.9, 0.1, 0.5, 0.4, 0.4],
    ...                        qid=["b", "b", "b", "a", "a"], metric=["recip_rank", "P_1"])
    >>> results["recip_rank"].score.tolist(), results["P_1"].score.tolist()
    ([0.75, 1.0], [0.5, 1.0])

    pytrec_eval's dicts, the qrels and the run: ``d3``, ranked first, is not judged,
    ``d2``, which the run lacks, counts in recall; the tied ``d4`` and ``d5`` rank as in
    trec_eval, by decreasing document id (``d5`` first):

    >>> qrels = {"q1": {"d1": 1, "d2": 2}, "q2": {"d4": 1}}
    >>> run = {"q1": {"d1": 0.4, "d3": 0.9}, "q2": {"d4": 0.1, "d5": 0.1}}
    >>> results = query_scores(qrels, run, metric=["recall_2", "recip_rank"], ties="docno")
    >>> results["recall_2"].qid.tolist(), results["recall_2"].score.tolist()
    (['q1', 'q2'], [0.5, 1.0])
    >>> results["recip_rank"].score.tolist()
    [0.5, 0.5]

    infNDCG of a pool judged by stratified sampling: of stratum "top", ``a`` (level 2)
    was sampled and ``b`` not (level -1); ``c``, stratum "deep", was sampled. Half of
    "top" was sampled, so each of its documents stands for two: the estimated DCG is
    ``2 * 2 / log2(3)`` (``a`` at rank 2) and the ideal DCG ``2 + 2 / log2(3)``:

    >>> from sklearn_ndcg import JudgmentPool
    >>> pool = JudgmentPool(["q"] * 3, [2, -1, 0], stratum=["top", "top", "deep"],
    ...                     docno=["a", "b", "c"])
    >>> result = query_scores(None, [0.9, 0.8, 0.1], qid=["q"] * 3, docno=["b", "a", "c"],
    ...                       pool=pool, metric="infNDCG")
    >>> result.qid.tolist(), result.score.round(4).tolist()
    (['q'], [0.7737])
    """
    if isinstance(y_true, Mapping) or isinstance(y_score, Mapping):  # pytrec_eval's dicts
        return _of_dicts(y_true, y_score, locals())
    if ignore_identical_ids:
        raise ValueError(
            "ignore_identical_ids compares document ids with query ids, which arrays do "
            "not hold; pass pytrec_eval's dicts (y_true the qrels, y_score the run)."
        )
    if isinstance(metric, str) and metric == INFNDCG:
        return _inferred(y_true, y_score, qid, docno, pool, missing_queries, locals())
    names = metric_names(metric, k)  # an unknown name first: it may be infNDCG misspelled
    if docno is not None:
        raise ValueError(
            f'docno is read only with metric="{INFNDCG}" (the pool\'s documents found by '
            "id); leave it None."
        )
    if y_true is None:
        raise ValueError(
            f'y_true is None; only metric="{INFNDCG}" reads the labels from the pool. Give '
            "the relevance label of each document."
        )
    check_array_levels(y_true, qid, pool, names, gain, normalize, relevance_level)
    return scores_of_arrays(
        y_true,
        y_score,
        metric=metric,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        qid=qid,
        sample_weight=sample_weight,
        zero_division=resolve_zero_division(zero_division, replace_undefined_by),
        log_base=log_base,
        normalize=normalize,
        document_weight=document_weight,
        pool=pool,
        unjudged=unjudged,
        missing_queries=missing_queries,
        unjudged_queries=unjudged_queries,
        bounds=bounds,
        levels=levels,
        relevance_level=relevance_level,
    )


def scores_of_arrays(
    y_true,
    y_score,
    *,
    metric,
    k,
    gain,
    discount,
    ties: str,
    qid,
    sample_weight,
    zero_division: float,
    log_base,
    normalize: str,
    document_weight,
    pool,
    unjudged: str,
    missing_queries: str,
    unjudged_queries: str,
    bounds: bool,
    levels,
    relevance_level: float,
) -> QueryScores | QueryBounds | dict[str, QueryScores]:
    """:func:`query_scores` of arrays, its options validated and its levels checked
    (:func:`check_levels`) by the door it came through (``query_scores`` itself, its
    dicts, ``evaluate_run``); each result says its tie rule (``ties``)."""
    names = metric_names(metric, k)
    single = isinstance(metric, str)
    said = str(ties)
    if not (single and metric in ("ndcg", "dcg")) and not bounds:
        options = ranking_options(
            "ndcg",
            gain=gain,
            discount=discount,
            ties=ties,
            zero_division=zero_division,
            normalize=normalize,
            log_base=log_base,
            pool=pool,
            unjudged=unjudged,
            missing_queries=missing_queries,
            unjudged_queries=unjudged_queries,
        ).replace(relevance_level=float(relevance_level))
        if levels is not None:
            raise ValueError("levels is the judgment scale of bounds=True; give bounds=True too.")
        results = measure_scores(
            y_true,
            y_score,
            names,
            options,
            qid=qid,
            sample_weight=sample_weight,
            document_weight=document_weight,
        )
        results = {name: values._replace(ties=said) for name, values in results.items()}
        return results[names[0].name] if single else results
    if bounds:
        _check_bounds_request(
            pool=pool,
            metric=metric,
            normalize=normalize,
            unjudged=unjudged,
            document_weight=document_weight,
            ties=ties,
            log_base=log_base,
        )
    elif levels is not None:
        raise ValueError("levels is the judgment scale of bounds=True; give bounds=True too.")
    options = ranking_options(
        names[0].metric,  # "ndcg" or "dcg" (one name: a list went to measure_scores)
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        zero_division=zero_division,
        normalize=normalize,
        log_base=log_base,
        pool=pool,
        unjudged=unjudged,
        missing_queries=missing_queries,
        unjudged_queries=unjudged_queries,
    )
    if bounds:
        return _bounded_query_scores(
            y_true, y_score, options, qid=qid, sample_weight=sample_weight, levels=levels
        )._replace(ties=said)
    ids, score, weight = per_query(
        y_true,
        y_score,
        options,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
    )
    weight = np.ones(ids.shape[0]) if weight is None else weight
    return QueryScores(ids, score, weight, ties=said)
