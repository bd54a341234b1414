"""evaluate_run of Spark DataFrames: a run and its qrels, joined on document ids in Spark."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._engine import negative_labels_error
from .._options import (
    COMMON_PARAMS,
    DEFAULT_TIES,
    DEFAULT_UNJUDGED,
    MISSING_QUERIES,
    NDCG_PARAMS,
    TIES,
    UNJUDGED,
    ranking_options,
    refuse_measures_beside_ndcg,
)
from .._validate_params import StrOptions, validate_params
from ._frames import (
    check_columns,
    check_frame,
    mean_of_frame,
    raise_located,
    score_frame,
    staged_rows,
)


class SparkRunEvaluation(NamedTuple):
    """NDCG (or DCG) of a run against qrels, returned by :func:`evaluate_run`."""

    score: float
    per_query: object  # a pyspark.sql.DataFrame (qid, score, weight), not collected


@validate_params(
    {
        "run": "no_validation",  # checked by check_frame
        "qrels": "no_validation",
        "metric": [str],
        **{name: COMMON_PARAMS[name] for name in ("k", "gain", "discount")},
        "ties": TIES,
        **NDCG_PARAMS,
        "unjudged": [StrOptions(set(UNJUDGED))],
        "missing_queries": [StrOptions(set(MISSING_QUERIES))],
        "qid": [str],
        "docno": [str],
        "y_score": [str],
        "y_true": [str],
        "bounds": ["boolean"],
        "levels": ["array-like", None],
    },
    prefer_skip_nested_validation=True,
)
def evaluate_run(
    run,
    qrels,
    *,
    metric: str = "ndcg",
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    zero_division: float = 0.0,
    normalize: str = "ideal",
    unjudged: str = DEFAULT_UNJUDGED,
    missing_queries: str = "drop",
    qid: str = "qid",
    docno: str = "docno",
    y_score: str = "score",
    y_true: str = "relevance",
    bounds: bool = False,
    levels: ArrayLike | None = None,
) -> SparkRunEvaluation:
    """NDCG of a run against relevance judgments (qrels), both Spark DataFrames.

    The value of :func:`sklearn_ndcg.evaluate_run` (and of the ``trec-eval``
    command) on the same rows, computed in Spark: the run's and the qrels' rows
    travel in one exchange by query id and are joined on (query id, document id)
    inside each partition; a ranked document the qrels do not list is unjudged,
    and the ideal DCG of a query comes from all its judged documents. Query and
    document ids are compared as strings, as in memory.

    Read more in the :ref:`User Guide <spark>`.

    Parameters
    ----------
    run : pyspark.sql.DataFrame
        The ranked documents: columns ``qid``, ``docno`` and ``y_score``.
    qrels : pyspark.sql.DataFrame
        The judged documents: columns ``qid``, ``docno`` and ``y_true``.
    metric : {"ndcg", "dcg"}, default="ndcg"
        Which metric to compute per query. The measures beside NDCG (``recip_rank``,
        ``map``, ``P_10``...) are refused: they are computed in memory, by
        :func:`sklearn_ndcg.evaluate_run` and :func:`sklearn_ndcg.query_scores`.
    k : int, default=None
        Only the top ``k`` documents of each query count (the cutoff of NDCG@k and DCG@k),
        in the DCG and in the ideal DCG. None means all documents.
    gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
        Gain of a document from its relevance label: "linear" (the label, as scikit-learn),
        "exponential" (``2**label - 1``, as LightGBM and XGBoost), a mapping from label to
        gain, a sequence indexed by label (LightGBM's ``label_gain``) or a callable; see
        :func:`~sklearn_ndcg.ndcg_score`. The built-in gains refuse negative levels;
        :func:`~sklearn_ndcg.positive_part_gain` counts them as 0, as trec_eval does.
    discount : {"log2", "reciprocal", "none"} or callable, default="log2"
        Weight of the document at rank ``r`` (from 1): "log2" (``1 / log2(r + 1)``),
        "reciprocal" (``1 / r``), "none" (1) or a callable; see
        :func:`~sklearn_ndcg.ndcg_score`.
    ties : {"average", "first", "optimistic", "pessimistic", "docno"}, default="average"
        How documents with equal scores are ordered: "average" (the mean DCG over all their
        orders, as scikit-learn), "first" (input order), "optimistic" (by decreasing gain),
        "pessimistic" (by increasing gain) or "docno" (trec_eval's order by document id,
        which needs tie-free scores where document ids are unknown); see
        :func:`~sklearn_ndcg.ndcg_score`. Here, where document ids are known, "docno" orders
        tied scores by decreasing document id (byte-wise string order), as trec_eval and
        pytrec_eval do.
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        NDCG of a query whose ideal DCG is not positive (no relevant document): 0.0 as in
        scikit-learn, 1.0 as in LightGBM and XGBoost, or ``np.nan`` to leave such queries
        out of the mean; see :func:`~sklearn_ndcg.ndcg_score`.
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
        NDCG), or the range between the worst and the ideal DCG ("minmax"); see
        :func:`~sklearn_ndcg.ndcg_score`.
    unjudged : {"zero", "drop"}, default="zero"
        Ranked documents the qrels do not list gain 0 ("zero"), or are removed
        from the ranking before ranks are assigned ("drop", trec_eval's ``-J``).
    missing_queries : {"drop", "zero"}, default="drop"
        Queries of the qrels that the run lacks are left out ("drop", as
        trec_eval by default) or score 0 ("zero", trec_eval's ``-c``).
    qid : str, default="qid"
        Name of the query id column of ``run`` and ``qrels``.
    docno : str, default="docno"
        Name of the document id column of ``run`` and ``qrels``.
    y_score : str, default="score"
        Name of the score column of ``run``.
    y_true : str, default="relevance"
        Name of the relevance column of ``qrels``.
    bounds : bool, default=False
        Also give, per query, ``judged``, ``lower`` and ``upper`` as columns of
        ``per_query``: the values of :func:`sklearn_ndcg.evaluate_run` with
        ``bounds=True`` and of the ``trec-eval -B`` command (a document the qrels list
        with a negative level is in the pool but not judged). Read more in the
        :ref:`User Guide <unjudged_bounds>`.
    levels : array-like, default=None
        With ``bounds=True``: the judgment scale, the levels an unjudged document may
        take. None means 0 and the distinct levels of the qrels that are not negative
        (an unjudged document can always be non-relevant).

    Returns
    -------
    result : SparkRunEvaluation
        Named tuple ``(score, per_query)``: the mean over the evaluated queries, and
        their values as a Spark DataFrame ``(qid, score, weight)`` (query ids as
        strings), not collected; with ``bounds=True`` also ``judged``, ``lower`` and
        ``upper``.

    See Also
    --------
    sklearn_ndcg.evaluate_run : The in-memory function.
    ndcg_score : NDCG of a Spark DataFrame, with the pool as a DataFrame.

    Examples
    --------
    >>> from sklearn_ndcg.spark import evaluate_run  # doctest: +SKIP
    >>> run = spark.createDataFrame(
    ...     [("q1", "d1", 2.0), ("q1", "d2", 1.0), ("q2", "d3", 5.0)],
    ...     "qid string, docno string, score double")  # doctest: +SKIP
    >>> qrels = spark.createDataFrame(
    ...     [("q1", "d1", 0), ("q1", "d2", 1), ("q1", "d4", 2), ("q2", "d3", 1)],
    ...     "qid string, docno string, relevance int")  # doctest: +SKIP
    >>> round(evaluate_run(run, qrels).score, 4)  # doctest: +SKIP
    0.6199
    """
    from pyspark.sql import functions as F

    refuse_measures_beside_ndcg(metric, "sklearn_ndcg.spark.evaluate_run")
    check_frame(run, "run")
    check_frame(qrels, "qrels")
    check_columns(run, {"qid": qid, "docno": docno, "y_score": y_score}, name="run")
    check_columns(qrels, {"qid": qid, "docno": docno, "y_true": y_true}, name="qrels")
    as_str = [F.col(qid).cast("string").alias(qid), F.col(docno).cast("string").alias(docno)]
    run = run.select(*as_str, F.col(y_score))
    qrels = qrels.select(*as_str, F.col(y_true))
    if isinstance(gain, str) and normalize != "minmax":
        negative = qrels.filter(F.col(y_true) < 0)
        n_rows, lowest, query = negative.agg(F.count("*"), F.min(y_true), F.min(qid)).first()
        if n_rows:  # a frame's rows have no order: the smallest query id stands for them
            raise negative_labels_error("qrels", np.array([lowest]), gain, _Rows(n_rows, query))
    # resolved once on the driver; the qrels are matched on the executors (no pool here)
    options = ranking_options(
        metric,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        zero_division=zero_division,
        normalize=normalize,
    ).replace(unjudged=unjudged, missing_queries=missing_queries)
    columns = {"qid": qid, "docno": docno, "y_score": y_score}
    rows, spec = staged_rows(
        run,
        columns=columns,
        ties="average" if ties == "docno" else ties,  # docno orders ties without input order
        pool=qrels,
        pool_columns={"qid": qid, "docno": docno, "y_true": y_true},
    )
    spec["run"] = True
    if levels is not None and not bounds:
        raise ValueError("levels is the judgment scale of bounds=True; give bounds=True too.")
    if bounds:
        spec["levels"] = _bound_levels(qrels, y_true, levels, options)
    try:
        score = mean_of_frame(rows, spec, options=options)
    except ValueError as error:
        raise_located(error, run, {"qid": qid, "y_score": y_score}, options)
        if "frame has no rows" not in str(error):
            raise
        raise ValueError("no query of the run is in the qrels; do the query ids match?") from None
    qid_field = next(field for field in run.schema.fields if field.name == qid)
    per_query = score_frame(rows, spec, options=options, qid_field=qid_field)
    return SparkRunEvaluation(score, per_query)


def _bound_levels(qrels, y_true: str, levels, options) -> np.ndarray:
    """The levels of ``bounds=True``, checked as in memory: given, or 0 and the qrels'
    levels that are not negative (one small Spark job)."""
    from pyspark.sql import functions as F

    from .._metrics import _check_bounds_request

    _check_bounds_request(
        pool=True,
        metric=options.metric,
        normalize=options.normalize,
        unjudged=options.unjudged,
        document_weight=None,
        ties=options.ties,
        log_base=None,
    )
    if levels is not None:
        levels = np.asarray(levels, dtype=np.float64)
        if levels.ndim != 1 or levels.shape[0] == 0 or not np.isfinite(levels).all():
            raise ValueError("levels must be a non-empty 1-D array of finite labels.")
        return np.unique(levels)
    found = qrels.where(F.col(y_true) >= 0).select(y_true).distinct().collect()
    return np.unique(np.append(np.array([row[0] for row in found], dtype=np.float64), 0.0))


class _Rows:
    """Where a frame's refused values are, for the engine's one message: their count and
    the smallest query id holding one (a frame's rows have no order)."""

    def __init__(self, n_rows: int, query) -> None:
        self.n_rows, self.query = n_rows, query

    def error(self, head: str, bad, tail: str) -> ValueError:
        return ValueError(f"{head} in {self.n_rows} row(s), e.g. of query {self.query!r}{tail}")
