"""NDCG and DCG of a long-format :class:`dask.dataframe.DataFrame`, without collecting it.

Needs the ``dask`` extra (``pip install "sklearn-ndcg[dask]"``, or
``pip install ".[dask]"`` from a checkout). Dask is imported
when a function of this module is called, so that importing the module (and
``sklearn_ndcg`` itself) never imports dask.

Read more in the :ref:`User Guide <dask>`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping

import numpy as np
from numpy.typing import ArrayLike

from ._compat import INSTALL_HINT, StrOptions, validate_params
from ._engine import RankingOptions, WeightedSums
from ._metrics._ndcg import query_scores
from ._options import COMMON_PARAMS, LOG_BASE, NDCG_PARAMS

__all__ = ["dcg_score", "ndcg_score"]

_ROW_KEY = "_sklearn_ndcg_row"
_PARTITION_BITS = 40  # rows per input partition < 2**40, partitions < 2**23
_SUMS = ("weighted_sum", "kept_weight", "total_weight", "n_kept", "n_queries", "scale")

_OPTIONS = {
    "frame": "no_validation",  # checked by _check_frame, with a dask-specific message
    "qid": "no_validation",  # column names: checked against frame.columns
    "y_true": "no_validation",
    "y_score": "no_validation",
    "sample_weight": "no_validation",
    **{name: COMMON_PARAMS[name] for name in ("k", "gain", "discount", "ties")},
    "per_query": ["boolean"],
    "shuffle_method": [StrOptions({"tasks", "p2p", "disk"}), None],
}


@validate_params(
    {**_OPTIONS, **NDCG_PARAMS},
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
    ties: str = "average",
    zero_division: float = 0.0,
    per_query: bool = False,
    shuffle_method: str | None = None,
    normalize: str = "ideal",
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
    return _evaluate(
        frame,
        metric="ndcg",
        qid=qid,
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        options={
            "k": k,
            "gain": gain,
            "discount": discount,
            "ties": ties,
            "zero_division": zero_division,
            "normalize": normalize,
        },
        per_query=per_query,
        shuffle_method=shuffle_method,
    )


@validate_params(
    {**_OPTIONS, "log_base": LOG_BASE},
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
    ties: str = "average",
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
    return _evaluate(
        frame,
        metric="dcg",
        qid=qid,
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        options={
            "k": k,
            "gain": gain,
            "discount": discount,
            "ties": ties,
            "log_base": log_base,
        },
        per_query=per_query,
        shuffle_method=shuffle_method,
    )


def _evaluate(
    frame,
    *,
    metric,
    qid,
    y_true,
    y_score,
    sample_weight,
    options,
    per_query,
    shuffle_method,
):
    """Shuffle by query (unless partitions hold whole queries), score each partition,
    and reduce the partial sums."""
    dd = _import_dask_dataframe()
    _check_frame(frame, dd)
    columns = {"qid": qid, "y_true": y_true, "y_score": y_score}
    if sample_weight is not None:
        columns["sample_weight"] = sample_weight
    _check_columns(frame, columns)
    _check_qid_types(_source_qid_types(frame, qid))
    RankingOptions.check_log_base(options.get("log_base"), options["discount"])

    names = list(dict.fromkeys(columns.values()))  # y_true may be y_score
    rows = frame[names]
    if not _holds_whole_queries(frame, qid):
        if options["ties"] == "first":
            # Shuffling loses the input order; carry each row's position along.
            rows = rows.map_partitions(_add_row_key, meta={**rows.dtypes, _ROW_KEY: np.int64})
        rows = rows.shuffle(on=qid, shuffle_method=shuffle_method)

    qid_dtype = frame.dtypes[qid]
    meta = _empty_scores(qid, qid_dtype, metric)
    scores = rows.map_partitions(
        _partition_scores,
        meta=meta,
        columns=columns,
        metric=metric,
        options=options,
        qid_dtype=qid_dtype,
    )
    if per_query:
        scores = scores.persist()
    partials = scores.map_partitions(
        _partial_sums,
        metric=metric,
        meta={**{name: np.float64 for name in _SUMS}, "qid_types": object},
    ).compute()  # one small row per partition
    score = _weighted_mean(partials)
    if per_query:
        return score, scores[metric]
    return score


def _source_qid_types(frame, qid) -> list[str]:
    """Types of the query ids in the pandas frames that ``frame`` was made from.

    Dask converts object columns to strings by default (``dataframe.convert-string``),
    which turns ``5`` and ``"5"`` into one id before any partition is scored, so
    the in-memory check cannot see them; the pandas frames given to
    ``dd.from_pandas`` still can. Best effort: other sources give no types.
    """
    types = set()
    try:
        nodes = list(frame.expr.walk())
    except AttributeError:  # pragma: no cover - a dask without expressions
        return []
    for node in nodes:
        if type(node).__name__ != "FromPandas":
            continue
        source = getattr(node.frame, "_data", node.frame)  # the pandas frame itself
        try:
            column = source[qid]
        except Exception:  # a source without the column (renamed or computed later)
            continue
        if getattr(getattr(column, "dtype", None), "kind", None) == "O":
            types |= {type(v).__name__ for v in column.dropna()}
    return sorted(types)


def _check_qid_types(types) -> None:
    """Refuse query ids that mix strings with other types, as the in-memory engine does."""
    if "str" in types and len(types) > 1:
        raise TypeError(
            f"qid mixes values that cannot be compared with each other (types "
            f"{', '.join(types)}); give query ids of one sortable type."
        )


def _holds_whole_queries(frame, qid) -> bool:
    """Whether each query's rows are all in one partition already.

    True when the partitions' ranges of query ids are disjoint (a frame sorted
    by query id, or partitioned by query); then each partition is scored where
    it is, without a shuffle. A cheap pass over the qid column finds out.
    """
    if frame.npartitions == 1:
        return True
    meta = {"low": object, "high": object}
    ranges = frame[qid].map_partitions(_id_range, meta=meta).compute()
    try:
        ranges = sorted(zip(ranges["low"], ranges["high"]), key=lambda pair: pair[0])
        return all(high < low for (_, high), (low, _) in zip(ranges, ranges[1:]))
    except TypeError:  # ids that cannot be compared: the shuffle path says so
        return False


def _id_range(ids):
    """The smallest and largest query id of a partition (no row if it is empty)."""
    import pandas as pd

    ids = ids.dropna()
    if len(ids) == 0:
        return pd.DataFrame({"low": [], "high": []}, dtype=object)
    try:
        low, high = ids.min(), ids.max()
    except TypeError:  # ids of types that cannot be compared: no range
        low = high = object()  # compares with nothing, so the frame is shuffled
    return pd.DataFrame({"low": [low], "high": [high]}, dtype=object)


def _import_dask_dataframe():
    try:
        import dask.dataframe as dd
    except ImportError as exc:
        raise ImportError(
            "sklearn_ndcg.dask needs dask.dataframe; install it with "
            f"{INSTALL_HINT.format(extra='dask')}."
        ) from exc
    return dd


def _check_frame(frame, dd) -> None:
    if isinstance(frame, dd.DataFrame):
        return
    if isinstance(frame, dd.Series):
        hint = "a dask Series; give the whole DataFrame with the query id, label and score columns"
    elif type(frame).__module__.split(".")[0] == "pandas":
        hint = (
            "an in-memory pandas object; use sklearn_ndcg.ndcg_score, or "
            "dask.dataframe.from_pandas(frame, npartitions=...) to distribute it"
        )
    else:
        hint = f"a {type(frame).__name__}"
    raise TypeError(f"frame must be a dask.dataframe.DataFrame in long format; got {hint}.")


def _check_columns(frame, columns: dict) -> None:
    """Each named column exists; labels, scores and weights are numeric."""
    from pandas.api.types import is_numeric_dtype

    available = list(frame.columns)
    for argument, name in columns.items():
        try:
            found = name in frame.columns
        except TypeError:
            found = False
        if not found:
            raise ValueError(
                f"{argument}={name!r} is not a column of frame; its columns are "
                f"{available}. Name the column that holds the {_ROLE[argument]}."
            )
        dtype = frame.dtypes[name]
        if argument != "qid" and not is_numeric_dtype(dtype):
            raise TypeError(
                f"{argument}={name!r} names a column of dtype {dtype}; the "
                f"{_ROLE[argument]} must be numbers."
            )


_ROLE = {
    "qid": "query id of each document",
    "y_true": "relevance labels",
    "y_score": "predicted scores",
    "sample_weight": "query weights",
}


def _add_row_key(part, partition_info=None):
    """Add each row's position in the whole frame: (partition, row) in one int64."""
    number = 0 if partition_info is None else partition_info["number"]
    key = (np.int64(number) << _PARTITION_BITS) + np.arange(len(part), dtype=np.int64)
    return part.assign(**{_ROW_KEY: key})


def _empty_scores(qid, qid_dtype, metric):
    import pandas as pd

    index = pd.Index([], dtype=qid_dtype, name=qid)
    return pd.DataFrame(
        {metric: np.array([], dtype=np.float64), "weight": np.array([], dtype=np.float64)},
        index=index,
    )


def _partition_scores(part, *, columns, metric, options, qid_dtype):
    """Per-query scores of one partition, which holds whole queries."""
    import pandas as pd

    if len(part) == 0:
        return _empty_scores(columns["qid"], qid_dtype, metric)
    if _ROW_KEY in part.columns:  # ties="first": back to the input order
        part = part.iloc[np.argsort(part[_ROW_KEY].to_numpy(), kind="stable")]
    weight = columns.get("sample_weight")
    result = query_scores(
        part[columns["y_true"]].to_numpy(),
        part[columns["y_score"]].to_numpy(),
        metric=metric,
        qid=part[columns["qid"]].to_numpy(),
        sample_weight=None if weight is None else part[weight].to_numpy(),
        **options,
    )
    index = pd.Index(result.qid, name=columns["qid"]).astype(qid_dtype)
    return pd.DataFrame({metric: result.score, "weight": result.weight}, index=index)


def _partial_sums(scores, *, metric):
    """One row of the sums behind the weighted mean over the queries of a partition.

    The weights are divided by their largest (``scale``), as in memory, so that
    huge weights cannot overflow the sums; :func:`_weighted_mean` rescales.
    """
    import pandas as pd

    weight = scores["weight"].to_numpy()
    scale = float(weight.max()) if weight.size else 0.0
    sums = WeightedSums.of(scores[metric].to_numpy(), weight / max(scale, np.finfo(float).tiny))
    row = {name: float(value) for name, value in sums._asdict().items()}
    row.update(n_queries=float(len(scores)), scale=scale)
    # object ids: their types, so that ids in different partitions are checked
    # against each other as in memory (1 and "1" cannot be compared there)
    ids = scores.index
    row["qid_types"] = (
        ",".join(sorted({type(v).__name__ for v in ids})) if ids.dtype == object else ""
    )
    return pd.DataFrame({name: [value] for name, value in row.items()})


def _weighted_mean(partials) -> float:
    """The weighted mean from the partitions' sums, as the in-memory engine takes it."""
    if partials["n_queries"].sum() == 0:
        raise ValueError("frame has no rows; at least one query with one document is needed.")
    _check_qid_types(sorted({t for names in partials["qid_types"] for t in names.split(",") if t}))
    # each partition's sums in units of the largest weight of all partitions
    factor = partials["scale"].to_numpy() / max(partials["scale"].max(), np.finfo(float).tiny)
    scaled = {"weighted_sum", "kept_weight", "total_weight"}
    sums = [
        float((partials[name].to_numpy() * (factor if name in scaled else 1.0)).sum())
        for name in WeightedSums._fields
    ]
    return WeightedSums(*sums).mean()
