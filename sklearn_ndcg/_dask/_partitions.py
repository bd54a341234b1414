"""The data path over a dask DataFrame: shuffle each query into one partition, score
the partitions with the in-memory engine, and reduce their sums to the weighted mean."""

from __future__ import annotations

import numpy as np

from .._engine import RankingOptions, WeightedSums
from .._metrics import (
    LOCATED,
    checked_columns,
    raise_for_frame,
    refused_rows,
)
from .._metrics import per_query as scores_per_query
from ._checks import (
    check_columns,
    check_frame,
    check_qid_types,
    holds_whole_queries,
    import_dask_dataframe,
    source_qid_types,
)

_ROW_KEY = "_sklearn_ndcg_row"
_PARTITION_BITS = 40  # rows per input partition < 2**40, partitions < 2**23
_SUMS = ("weighted_sum", "kept_weight", "total_weight", "n_kept", "n_queries", "scale")


def evaluate(
    frame,
    *,
    qid,
    y_true,
    y_score,
    sample_weight,
    options: RankingOptions,
    per_query,
    shuffle_method,
):
    """Shuffle by query (unless partitions hold whole queries), score each partition,
    and reduce the partial sums.

    ``options`` were resolved once by the public function; the partitions get them
    as they are (a frozen dataclass, pickled to the workers).
    """
    metric = options.metric
    dd = import_dask_dataframe()
    check_frame(frame, dd)
    columns = {"qid": qid, "y_true": y_true, "y_score": y_score}
    if sample_weight is not None:
        columns["sample_weight"] = sample_weight
    check_columns(frame, columns)
    check_qid_types(source_qid_types(frame, qid))

    names = list(dict.fromkeys(columns.values()))  # y_true may be y_score
    rows = frame[names]
    if not holds_whole_queries(frame, qid):
        if options.ties == "first":
            # Shuffling loses the input order; carry each row's position along.
            rows = rows.map_partitions(_add_row_key, meta={**rows.dtypes, _ROW_KEY: np.int64})
        rows = rows.shuffle(on=qid, shuffle_method=shuffle_method)

    qid_dtype = frame.dtypes[qid]
    meta = _empty_scores(qid, qid_dtype, metric)
    scores = rows.map_partitions(
        _partition_scores,
        meta=meta,
        columns=columns,
        options=options,
        qid_dtype=qid_dtype,
    )
    try:
        if per_query:
            scores = scores.persist()
        partials = scores.map_partitions(
            _partial_sums,
            metric=metric,
            meta={**{name: np.float64 for name in _SUMS}, "qid_types": object},
        ).compute()  # one small row per partition
    except ValueError as error:
        _raise_located(error, frame, columns, options)
        raise
    score = _weighted_mean(partials)
    if per_query:
        return score, scores[metric]
    return score


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


def _partition_scores(part, *, columns, options: RankingOptions, qid_dtype):
    """Per-query scores of one partition, which holds whole queries."""
    import pandas as pd

    metric = options.metric
    if len(part) == 0:
        return _empty_scores(columns["qid"], qid_dtype, metric)
    if _ROW_KEY in part.columns:  # ties="first": back to the input order
        part = part.iloc[np.argsort(part[_ROW_KEY].to_numpy(), kind="stable")]
    weight = columns.get("sample_weight")
    ids, score, weight = scores_per_query(
        part[columns["y_true"]].to_numpy(),
        part[columns["y_score"]].to_numpy(),
        options,
        qid=part[columns["qid"]].to_numpy(),
        sample_weight=None if weight is None else part[weight].to_numpy(),
        document_weight=None,
    )
    weight = np.ones(ids.shape[0]) if weight is None else weight
    index = pd.Index(ids, name=columns["qid"]).astype(qid_dtype)
    return pd.DataFrame({metric: score, "weight": weight}, index=index)


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
    check_qid_types(sorted({t for names in partials["qid_types"] for t in names.split(",") if t}))
    # each partition's sums in units of the largest weight of all partitions
    factor = partials["scale"].to_numpy() / max(partials["scale"].max(), np.finfo(float).tiny)
    scaled = {"weighted_sum", "kept_weight", "total_weight"}
    sums = {
        name: float((partials[name].to_numpy() * (factor if name in scaled else 1.0)).sum())
        for name in WeightedSums._fields
    }
    n_kept = int(sums.pop("n_kept"))
    return WeightedSums(**sums, n_kept=n_kept).mean()


def _raise_located(error: ValueError, frame, columns: dict, options: RankingOptions) -> None:
    """A partition's error for bad values (missing, infinite, negative weights, labels
    the gain refuses) counts and numbers that partition's rows only: find them in the
    whole frame (one more pass over its checked columns, on this error path only) and
    raise the in-memory function's error for the same rows."""
    if LOCATED not in str(error):
        return
    import dask

    checked = checked_columns(columns)
    names = list(dict.fromkeys([columns["qid"], *checked.values()]))
    summaries = dask.compute(
        *[
            dask.delayed(_refused_rows)(part, columns["qid"], checked, options)
            for part in frame[names].to_delayed()
        ]
    )
    raise_for_frame(list(summaries), options)


def _refused_rows(part, qid: str, checked: dict, options: RankingOptions) -> dict:
    """:func:`refused_rows` of one partition."""
    values = {
        role: part[name].to_numpy(dtype=np.float64, na_value=np.nan)
        for role, name in checked.items()
    }
    return refused_rows(values, part[qid].to_numpy(), options)
