"""ndcg_score and dcg_score of a dask DataFrame: the parameters checked and the
options resolved once, then the frame evaluated (:func:`._partitions.evaluate`)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

from numpy.typing import ArrayLike

from .._options import (
    COMMON_PARAMS,
    DEFAULT_TIES,
    LOG_BASE,
    NDCG_PARAMS,
    UNJUDGED_QUERIES,
    ranking_options,
)
from .._validate_params import StrOptions, validate_params
from ._partitions import evaluate

_PARAMS = {
    "frame": "no_validation",  # checked by check_frame, with a dask-specific message
    "qid": "no_validation",  # column names: checked against frame.columns
    "y_true": "no_validation",
    "y_score": "no_validation",
    "sample_weight": "no_validation",
    **{name: COMMON_PARAMS[name] for name in ("k", "gain", "discount", "ties")},
    "per_query": ["boolean"],
    "shuffle_method": [StrOptions({"tasks", "p2p", "disk"}), None],
}


@validate_params(
    {**_PARAMS, **NDCG_PARAMS, **UNJUDGED_QUERIES},
    prefer_skip_nested_validation=True,
)
def ndcg_score(
    frame,
    *,
    qid: Hashable = "qid",
    y_true: Hashable = "label",
    y_score: Hashable = "score",
    sample_weight: Hashable | None = None,
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    zero_division: float = 0.0,
    per_query: bool = False,
    shuffle_method: str | None = None,
    normalize: str = "ideal",
    unjudged_queries: str = "drop",
):
    """NDCG of a long-format dask DataFrame, averaged over queries.

    The same value as :func:`sklearn_ndcg.ndcg_score` on the same rows, computed
    where the data lives: the rows are shuffled so that each query lands in one
    partition, every partition is scored by the vectorized in-memory engine, and
    only per-partition sums come back to the client. The rows of one query may
    start out in any partitions, in any order.

    Read more in the :ref:`User Guide <dask>`.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        Long format: one row per document, with a query id column, a relevance
        label column and a score column.
    qid : hashable, default="qid"
        Name of the query id column. Ids may be of any sortable type.
    y_true : hashable, default="label"
        Name of the column of relevance labels (numbers).
    y_score : hashable, default="score"
        Name of the column of predicted scores; higher ranks first.
    sample_weight : hashable, default=None
        Name of a column of query weights, one per document and equal within a
        query. None weighs every query 1.
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
        out of the mean; see :func:`~sklearn_ndcg.ndcg_score`. If every query is left out
        the result is NaN, with an :class:`~sklearn.exceptions.UndefinedMetricWarning`.
    per_query : bool, default=False
        Also return the NDCG of each query, as a dask Series.
    shuffle_method : {"tasks", "p2p", "disk"}, default=None
        How dask moves the rows of each query into one partition; None lets
        dask choose (``"p2p"`` on a distributed cluster, which streams
        through disk and keeps worker memory bounded).
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
        NDCG), or the range between the worst and the ideal DCG ("minmax"); see
        :func:`~sklearn_ndcg.ndcg_score`.
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
    per_query_scores : dask.dataframe.Series
        Only with ``per_query=True``: the NDCG of each query, named ``"ndcg"``
        and indexed by query id; NaN for a query without any relevant
        document when ``zero_division=np.nan``. The queries come in no
        particular order (``.compute().sort_index()`` sorts them). It is
        persisted, so computing it does not shuffle the data again.

    See Also
    --------
    sklearn_ndcg.ndcg_score : The in-memory metric, with the same options.
    dcg_score : Discounted cumulative gain of a dask DataFrame.

    Notes
    -----
    One shuffle by query id moves the four (at most) columns that are needed;
    with ``ties="first"`` a fifth column carries each row's position in
    ``frame`` so that ties are broken in the input order after the shuffle.
    Each shuffled partition is scored with :func:`sklearn_ndcg.query_scores`;
    the partial sums of the weighted mean are added up in a tree reduction.
    No partition ever holds more than its own queries, so the memory needed
    per worker is that of a few partitions, whatever the size of ``frame``.

    Examples
    --------
    >>> import pandas as pd
    >>> import dask.dataframe as dd
    >>> from sklearn_ndcg.dask import ndcg_score
    >>> rows = pd.DataFrame({"qid": [1, 1, 1, 2, 2, 2],
    ...                      "label": [3, 2, 0, 0, 1, 0],
    ...                      "score": [0.9, 0.1, 0.5, 0.4, 0.4, 0.3]})
    >>> frame = dd.from_pandas(rows, npartitions=3)  # queries split over partitions
    >>> round(ndcg_score(frame), 6)
    0.877011
    >>> round(ndcg_score(frame, k=1, gain="exponential"), 6)
    0.75

    The same as the in-memory metric on the same rows:

    >>> import sklearn_ndcg
    >>> round(sklearn_ndcg.ndcg_score(rows["label"], rows["score"], qid=rows["qid"]), 6)
    0.877011

    Ties in input order, and the NDCG of each query:

    >>> round(ndcg_score(frame, ties="first"), 6)
    0.784744
    >>> score, by_query = ndcg_score(frame, per_query=True)
    >>> by_query.compute().sort_index().round(6)
    qid
    1    0.938557
    2    0.815465
    Name: ndcg, dtype: float64
    """
    return evaluate(
        frame,
        qid=qid,
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        options=ranking_options(
            "ndcg",
            k=k,
            gain=gain,
            discount=discount,
            ties=ties,
            zero_division=zero_division,
            normalize=normalize,
            unjudged_queries=unjudged_queries,
        ),
        per_query=per_query,
        shuffle_method=shuffle_method,
    )


@validate_params(
    {**_PARAMS, "log_base": LOG_BASE},
    prefer_skip_nested_validation=True,
)
def dcg_score(
    frame,
    *,
    qid: Hashable = "qid",
    y_true: Hashable = "label",
    y_score: Hashable = "score",
    sample_weight: Hashable | None = None,
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    log_base: float | None = None,
    per_query: bool = False,
    shuffle_method: str | None = None,
):
    """DCG of a long-format dask DataFrame, averaged over queries.

    The same value as :func:`sklearn_ndcg.dcg_score` on the same rows; see
    :func:`ndcg_score` for how it is computed.

    Read more in the :ref:`User Guide <dask>`.

    Parameters
    ----------
    frame : dask.dataframe.DataFrame
        Long format: one row per document.
    qid : hashable, default="qid"
        Name of the query id column. Ids may be of any sortable type.
    y_true : hashable, default="label"
        Name of the column of relevance labels.
    y_score : hashable, default="score"
        Name of the column of predicted scores.
    sample_weight : hashable, default=None
        Name of a column of query weights, one per document and equal within a query. None
        weighs every query 1.
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
    per_query : bool, default=False
        Also return the DCG of each query, as a dask Series named ``"dcg"``.
    shuffle_method : {"tasks", "p2p", "disk"}, default=None
        How dask moves the rows of each query into one partition.

    Returns
    -------
    score : float
        The weighted mean DCG over queries.
    per_query_scores : dask.dataframe.Series
        Only with ``per_query=True``: the DCG of each query, indexed by query id.

    See Also
    --------
    sklearn_ndcg.dcg_score : The in-memory metric, with the same options.
    ndcg_score : NDCG of a dask DataFrame.

    Examples
    --------
    >>> import pandas as pd
    >>> import dask.dataframe as dd
    >>> from sklearn_ndcg.dask import dcg_score
    >>> rows = pd.DataFrame({"qid": [1, 1, 1, 2, 2, 2],
    ...                      "label": [3, 2, 0, 0, 1, 0],
    ...                      "score": [0.9, 0.1, 0.5, 0.4, 0.4, 0.3]})
    >>> round(dcg_score(dd.from_pandas(rows, npartitions=3), k=2), 6)
    1.907732
    """
    return evaluate(
        frame,
        qid=qid,
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        options=ranking_options(
            "dcg", k=k, gain=gain, discount=discount, ties=ties, log_base=log_base
        ),
        per_query=per_query,
        shuffle_method=shuffle_method,
    )
