"""ndcg_score, dcg_score and query_scores of a long-format Spark DataFrame."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from numpy.typing import ArrayLike

from .._engine import RankingOptions
from .._options import (
    COMMON_PARAMS,
    DEFAULT_MISSING_QUERIES,
    DEFAULT_TIES,
    DEFAULT_UNJUDGED,
    DEFAULT_UNJUDGED_QUERIES,
    LOG_BASE,
    NDCG_PARAMS,
    POOL,
    UNJUDGED_QUERIES,
    ranking_options,
    refuse_measures_beside_ndcg,
)
from .._validate_params import validate_params
from ._frames import (
    check_columns,
    check_frame,
    mean_of_frame,
    raise_located,
    score_frame,
    staged_rows,
)

_OPTIONS = {
    "frame": "no_validation",  # checked by check_frame, with a Spark-specific message
    "qid": [str],  # column names: checked against the frame's columns
    "y_true": [str],
    "y_score": [str],
    "sample_weight": [str, None],
    "document_weight": [str, None],
    **{name: COMMON_PARAMS[name] for name in ("k", "gain", "discount", "ties")},
    "pool": "no_validation",  # a Spark DataFrame or None, checked by check_frame
    "docno": [str],
    "unjudged": POOL["unjudged"],
    "missing_queries": POOL["missing_queries"],
    **UNJUDGED_QUERIES,
}


def _prepare(
    frame,
    *,
    qid,
    y_true,
    y_score,
    sample_weight,
    document_weight,
    pool,
    docno,
    options: RankingOptions,
):
    """Check the frame (and pool) on the driver; stage the rows to score."""
    check_frame(frame)
    columns = {"qid": qid, "y_score": y_score}
    if pool is None:
        columns["y_true"] = y_true
    else:
        columns["docno"] = docno
    if sample_weight is not None:
        columns["sample_weight"] = sample_weight
    if document_weight is not None:
        columns["document_weight"] = document_weight
    check_columns(frame, columns)
    pool_columns = None
    if pool is not None:
        check_frame(pool, "pool")
        pool_columns = {"qid": qid, "docno": docno, "y_true": y_true}
        check_columns(pool, pool_columns, name="pool")
        if options.missing_queries == "zero" and sample_weight is not None:
            raise ValueError(
                "sample_weight cannot weigh the queries that missing_queries='zero' adds from "
                "the pool (they have no documents to carry a weight); drop one of them."
            )
    rows, spec = staged_rows(
        frame, columns=columns, ties=options.ties, pool=pool, pool_columns=pool_columns
    )
    qid_field = next(field for field in frame.schema.fields if field.name == qid)
    return rows, spec, qid_field, columns


def _mean(rows, spec, options: RankingOptions, pool, frame, columns) -> float:
    """The weighted mean over queries; with a pool, say so if no query is judged; a
    missing or infinite value is located in the whole frame."""
    try:
        return mean_of_frame(rows, spec, options=options)
    except ValueError as error:
        raise_located(error, frame, columns, options)
        if pool is None or "frame has no rows" not in str(error):
            raise
        raise ValueError(
            "no query of frame is in the pool; the pool must hold the judged documents of "
            "the queries in frame (do the query ids match?)."
        ) from None


@validate_params({**_OPTIONS, **NDCG_PARAMS}, prefer_skip_nested_validation=True)
def ndcg_score(
    frame,
    *,
    qid: str = "qid",
    y_true: str = "label",
    y_score: str = "score",
    sample_weight: str | None = None,
    document_weight: str | None = None,
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    zero_division: float = 0.0,
    normalize: str = "ideal",
    pool=None,
    docno: str = "docno",
    unjudged: str = DEFAULT_UNJUDGED,
    missing_queries: str = DEFAULT_MISSING_QUERIES,
    unjudged_queries: str = DEFAULT_UNJUDGED_QUERIES,
) -> float:
    """NDCG of a long-format Spark DataFrame, averaged over queries.

    The same value as :func:`sklearn_ndcg.ndcg_score` on the same rows, computed
    where the data lives: one exchange by query id moves each query into one
    partition (none if the frame is hash-partitioned by the query id already),
    each partition is scored by the vectorized in-memory engine on its Arrow
    batches, and only one row of partial sums per partition comes back to the
    driver. The rows of one query may start out in any partitions, in any order.

    Read more in the :ref:`User Guide <spark>`.

    Parameters
    ----------
    frame : pyspark.sql.DataFrame
        Long format: one row per document, with a query id column, a relevance
        label column (unless ``pool`` gives the labels) and a score column.
    qid : str, default="qid"
        Name of the query id column (of ``frame``, and of ``pool``). Ids may be
        strings or numbers.
    y_true : str, default="label"
        Name of the column of relevance labels (numbers): of ``frame``, or of
        ``pool`` when a pool is given.
    y_score : str, default="score"
        Name of the column of predicted scores; higher ranks first.
    sample_weight : str, default=None
        Name of a column of query weights, one per document and equal within a
        query. None weighs every query 1.
    document_weight : str, default=None
        Name of a column of document weights, each multiplying its document's gain
        in the DCG (not in the ideal DCG), e.g. inverse propensities; see
        :func:`~sklearn_ndcg.ndcg_score`.
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
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        NDCG of a query whose ideal DCG is not positive (no relevant document): 0.0 as in
        scikit-learn, 1.0 as in LightGBM and XGBoost, or ``np.nan`` to leave such queries
        out of the mean; see :func:`~sklearn_ndcg.ndcg_score`.
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
        NDCG), or the range between the worst and the ideal DCG ("minmax"); see
        :func:`~sklearn_ndcg.ndcg_score`.
    pool : pyspark.sql.DataFrame, default=None
        The judgment pool as a Spark DataFrame of qrels, one row per judged document
        with the columns ``qid``, ``docno`` and ``y_true``: the labels of the ranked
        documents come from it (joined on query and document id inside Spark; a ranked
        document it lacks is unjudged), and the ideal DCG of each query from all its
        judged documents, retrieved or not; see :class:`~sklearn_ndcg.JudgmentPool`.
    docno : str, default="docno"
        Name of the document id column of ``frame`` and ``pool``; read only with a pool.
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
        The weighted mean NDCG over queries.

    See Also
    --------
    sklearn_ndcg.ndcg_score : The in-memory metric, with the same options.
    query_scores : The NDCG of each query, as a Spark DataFrame.

    Notes
    -----
    The exchange moves the needed columns only; with ``ties="first"`` one more
    column carries each row's position in ``frame``
    (``monotonically_increasing_id``) so that ties are broken in the input order
    after the exchange. With a pool, its rows join the same exchange and are
    matched to the ranked rows inside each partition (an Arrow join), so a pool
    adds no second exchange. Each partition holds whole queries, and the memory
    needed per task is that of one partition.

    Examples
    --------
    >>> from pyspark.sql import SparkSession  # doctest: +SKIP
    >>> from sklearn_ndcg.spark import ndcg_score  # doctest: +SKIP
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
    >>> frame = spark.createDataFrame(
    ...     [(1, 3, 0.9), (1, 2, 0.1), (1, 0, 0.5), (2, 0, 0.4), (2, 1, 0.4), (2, 0, 0.3)],
    ...     "qid long, label int, score double")  # doctest: +SKIP
    >>> round(ndcg_score(frame), 6)  # doctest: +SKIP
    0.877011
    >>> round(ndcg_score(frame, k=1, gain="exponential"), 6)  # doctest: +SKIP
    0.75
    """
    # resolved once on the driver; the pool, a Spark DataFrame, is matched on the
    # executors, so the options that travel there hold none
    options = ranking_options(
        "ndcg",
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        zero_division=zero_division,
        normalize=normalize,
        unjudged=unjudged,
        missing_queries=missing_queries,
        unjudged_queries=unjudged_queries,
        pool=pool,
    ).replace(pool=None)
    rows, spec, _, columns = _prepare(
        frame,
        qid=qid,
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        document_weight=document_weight,
        pool=pool,
        docno=docno,
        options=options,
    )
    return _mean(rows, spec, options, pool, frame, columns)


@validate_params({**_OPTIONS, "log_base": LOG_BASE}, prefer_skip_nested_validation=True)
def dcg_score(
    frame,
    *,
    qid: str = "qid",
    y_true: str = "label",
    y_score: str = "score",
    sample_weight: str | None = None,
    document_weight: str | None = None,
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    log_base: float | None = None,
    pool=None,
    docno: str = "docno",
    unjudged: str = DEFAULT_UNJUDGED,
    missing_queries: str = DEFAULT_MISSING_QUERIES,
    unjudged_queries: str = DEFAULT_UNJUDGED_QUERIES,
) -> float:
    """DCG of a long-format Spark DataFrame, averaged over queries.

    The same value as :func:`sklearn_ndcg.dcg_score` on the same rows; see
    :func:`ndcg_score` for how it is computed.

    Read more in the :ref:`User Guide <spark>`.

    Parameters
    ----------
    frame : pyspark.sql.DataFrame
        Long format: one row per document, with a query id column, a relevance
        label column (unless ``pool`` gives the labels) and a score column.
    qid : str, default="qid"
        Name of the query id column (of ``frame``, and of ``pool``). Ids may be
        strings or numbers.
    y_true : str, default="label"
        Name of the column of relevance labels (numbers): of ``frame``, or of
        ``pool`` when a pool is given.
    y_score : str, default="score"
        Name of the column of predicted scores; higher ranks first.
    sample_weight : str, default=None
        Name of a column of query weights, one per document and equal within a
        query. None weighs every query 1.
    document_weight : str, default=None
        Name of a column of document weights, each multiplying its document's gain
        in the DCG (not in the ideal DCG), e.g. inverse propensities; see
        :func:`~sklearn_ndcg.ndcg_score`.
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
    log_base : float > 1, default=None
        The keyword of scikit-learn: the discount is ``1 / log_base(r + 1)``. Only with
        ``discount="log2"``; None means base 2.
    pool : pyspark.sql.DataFrame, default=None
        The judgment pool as a Spark DataFrame of qrels, one row per judged document
        with the columns ``qid``, ``docno`` and ``y_true``: the labels of the ranked
        documents come from it (joined on query and document id inside Spark; a ranked
        document it lacks is unjudged), and the ideal DCG of each query from all its
        judged documents, retrieved or not; see :class:`~sklearn_ndcg.JudgmentPool`.
    docno : str, default="docno"
        Name of the document id column of ``frame`` and ``pool``; read only with a pool.
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
    sklearn_ndcg.dcg_score : The in-memory metric, with the same options.
    ndcg_score : NDCG of a Spark DataFrame.

    Examples
    --------
    >>> from pyspark.sql import SparkSession  # doctest: +SKIP
    >>> from sklearn_ndcg.spark import dcg_score  # doctest: +SKIP
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
    >>> frame = spark.createDataFrame(
    ...     [(1, 3, 0.9), (1, 2, 0.1), (1, 0, 0.5), (2, 0, 0.4), (2, 1, 0.4), (2, 0, 0.3)],
    ...     "qid long, label int, score double")  # doctest: +SKIP
    >>> round(dcg_score(frame, k=2), 6)  # doctest: +SKIP
    1.907732
    """
    # resolved once on the driver; the pool, a Spark DataFrame, is matched on the
    # executors, so the options that travel there hold none
    options = ranking_options(
        "dcg",
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        log_base=log_base,
        unjudged=unjudged,
        missing_queries=missing_queries,
        unjudged_queries=unjudged_queries,
        pool=pool,
    ).replace(pool=None)
    rows, spec, _, columns = _prepare(
        frame,
        qid=qid,
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        document_weight=document_weight,
        pool=pool,
        docno=docno,
        options=options,
    )
    return _mean(rows, spec, options, pool, frame, columns)


@validate_params(
    {**_OPTIONS, **NDCG_PARAMS, "log_base": LOG_BASE, "metric": [str]},
    prefer_skip_nested_validation=True,
)
def query_scores(
    frame,
    *,
    metric: str = "ndcg",
    qid: str = "qid",
    y_true: str = "label",
    y_score: str = "score",
    sample_weight: str | None = None,
    document_weight: str | None = None,
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    zero_division: float = 0.0,
    log_base: float | None = None,
    normalize: str = "ideal",
    pool=None,
    docno: str = "docno",
    unjudged: str = DEFAULT_UNJUDGED,
    missing_queries: str = DEFAULT_MISSING_QUERIES,
    unjudged_queries: str = DEFAULT_UNJUDGED_QUERIES,
):
    """NDCG or DCG of each query of a long-format Spark DataFrame, as a Spark DataFrame.

    The per-query values of :func:`sklearn_ndcg.query_scores` on the same rows,
    left in Spark (nothing is collected): for paired tests between models,
    confidence intervals, or finding the queries a model gets wrong with Spark
    SQL. See :func:`ndcg_score` for how they are computed.

    Read more in the :ref:`User Guide <spark>`.

    Parameters
    ----------
    frame : pyspark.sql.DataFrame
        Long format: one row per document, with a query id column, a relevance
        label column (unless ``pool`` gives the labels) and a score column.
    metric : {"ndcg", "dcg"}, default="ndcg"
        Which metric to compute per query. The measures beside NDCG (``recip_rank``,
        ``map``, ``P_10``...) are refused: they are computed in memory, by
        :func:`sklearn_ndcg.evaluate_run` and :func:`sklearn_ndcg.query_scores`.
    qid : str, default="qid"
        Name of the query id column (of ``frame``, and of ``pool``). Ids may be
        strings or numbers.
    y_true : str, default="label"
        Name of the column of relevance labels (numbers): of ``frame``, or of
        ``pool`` when a pool is given.
    y_score : str, default="score"
        Name of the column of predicted scores; higher ranks first.
    sample_weight : str, default=None
        Name of a column of query weights, one per document and equal within a
        query. None weighs every query 1.
    document_weight : str, default=None
        Name of a column of document weights, each multiplying its document's gain
        in the DCG (not in the ideal DCG), e.g. inverse propensities; see
        :func:`~sklearn_ndcg.ndcg_score`.
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
    pool : pyspark.sql.DataFrame, default=None
        The judgment pool as a Spark DataFrame of qrels, one row per judged document
        with the columns ``qid``, ``docno`` and ``y_true``: the labels of the ranked
        documents come from it (joined on query and document id inside Spark; a ranked
        document it lacks is unjudged), and the ideal DCG of each query from all its
        judged documents, retrieved or not; see :class:`~sklearn_ndcg.JudgmentPool`.
    docno : str, default="docno"
        Name of the document id column of ``frame`` and ``pool``; read only with a pool.
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
    scores : pyspark.sql.DataFrame
        One row per query, in no particular order, with the columns ``qid`` (the
        query id column, named and typed as in ``frame``), ``score`` (NaN where NDCG
        is undefined and ``zero_division=np.nan``) and ``weight``.

    See Also
    --------
    sklearn_ndcg.query_scores : The in-memory per-query values.
    ndcg_score : Their weighted mean, computed in Spark.

    Examples
    --------
    >>> from pyspark.sql import SparkSession  # doctest: +SKIP
    >>> from sklearn_ndcg.spark import query_scores  # doctest: +SKIP
    >>> spark = SparkSession.builder.master("local[2]").getOrCreate()  # doctest: +SKIP
    >>> frame = spark.createDataFrame(
    ...     [("b", 3, 0.9), ("b", 2, 0.1), ("b", 0, 0.5), ("a", 1, 0.4), ("a", 0, 0.3)],
    ...     "qid string, label int, score double")  # doctest: +SKIP
    >>> query_scores(frame).orderBy("qid").show()  # doctest: +SKIP
    +---+------------------+------+
    |qid|             score|weight|
    +---+------------------+------+
    |  a|               1.0|   1.0|
    |  b|0.9385574520455131|   1.0|
    +---+------------------+------+
    """
    refuse_measures_beside_ndcg(metric, "sklearn_ndcg.spark.query_scores")
    # resolved once on the driver; the pool, a Spark DataFrame, is matched on the
    # executors, so the options that travel there hold none
    options = ranking_options(
        metric,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        zero_division=zero_division,
        log_base=log_base,
        normalize=normalize,
        unjudged=unjudged,
        missing_queries=missing_queries,
        unjudged_queries=unjudged_queries,
        pool=pool,
    ).replace(pool=None)
    rows, spec, qid_field, _ = _prepare(
        frame,
        qid=qid,
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        document_weight=document_weight,
        pool=pool,
        docno=docno,
        options=options,
    )
    return score_frame(rows, spec, options=options, qid_field=qid_field)
