"""The checks of a dask DataFrame before it is scored: dask itself, the frame, its
columns and the types of its query ids; and whether its partitions hold whole queries."""

from __future__ import annotations

from .._compat import INSTALL_HINT


def source_qid_types(frame, qid) -> list[str]:
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


def check_qid_types(types) -> None:
    """Refuse query ids that mix strings with other types, as the in-memory engine does."""
    if "str" in types and len(types) > 1:
        raise TypeError(
            f"qid mixes values that cannot be compared with each other (types "
            f"{', '.join(types)}); give query ids of one sortable type."
        )


def holds_whole_queries(frame, qid) -> bool:
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


def import_dask_dataframe():
    try:
        import dask.dataframe as dd
    except ImportError as exc:
        raise ImportError(
            "sklearn_ndcg.dask needs dask.dataframe; install it with "
            f"{INSTALL_HINT.format(extra='dask')}."
        ) from exc
    return dd


def check_frame(frame, dd) -> None:
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


def check_columns(frame, columns: dict) -> None:
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
