"""The in-memory errors for bad values of a partitioned frame (Dask and Spark), located
in the whole frame: :func:`refused_rows` summarises what one partition holds of the
values the in-memory checks refuse, :func:`raise_for_frame` raises the in-memory
function's error from the partitions' summaries, rows numbered through the frame."""

from __future__ import annotations

import numpy as np

from .._engine import RankingOptions, as_float_array, check_weight, stage

# a partition's error that names a row: found again over the whole frame
LOCATED = "position(s) of the flattened input"
# the columns whose values are checked, in the order the in-memory functions check them
# ("gain": the labels again, as the options' gain takes them)
CHECKED_COLUMNS = ("y_true", "y_score", "sample_weight", "document_weight", "gain")


def _check_column(role: str, values, ids, options: RankingOptions, **where) -> None:
    """The in-memory check of one column in ``role`` (of :data:`CHECKED_COLUMNS`),
    with neutral values in the other roles: raises its error for bad values. ``where``
    (``rows``, ``n_bad``) places them in the whole frame."""
    if role in ("y_true", "y_score"):
        as_float_array(values, role, qid=ids, **where)
    elif role == "sample_weight":
        check_weight(values, values.shape[0], "one per document", qid=ids, **where)
    else:
        zeros = np.zeros(values.shape[0])
        plain = options.replace(ties="average", pool=None)  # no refusal of tied scores
        if role == "document_weight":
            stage(zeros, zeros, plain, qid=ids, document_weight=values, **where)
        else:
            stage(values, zeros, plain, qid=ids, **where)


def checked_columns(columns: dict) -> dict:
    """The roles of :data:`CHECKED_COLUMNS` that ``columns`` (argument -> column name)
    has, in their order, with their column names."""
    found = {role: columns.get("y_true" if role == "gain" else role) for role in CHECKED_COLUMNS}
    return {role: name for role, name in found.items() if name is not None}


def refused_rows(values: dict, ids, options: RankingOptions) -> dict:
    """What one partition holds of the values that the checks refuse, per role.

    ``values`` maps roles (of :data:`CHECKED_COLUMNS`) to float64 columns (NaN where
    missing), ``ids`` are the query ids. For each role: ``(rows, count, picked, their
    ids, their values)``: the partition's number of rows, of refused values, and the
    positions of the first five refused values and of the first of each distinct
    refused value (so that the values an error message shows, e.g. the smallest label,
    are among them), with the query ids and values at those positions, as lists.
    """
    ids = np.asarray(ids)
    return {role: _refused(role, column, ids, options) for role, column in values.items()}


def _refused(role: str, values: np.ndarray, ids: np.ndarray, options: RankingOptions) -> tuple:
    nothing: tuple = (values.shape[0], 0, [], [], [])
    try:
        _check_column(role, values, ids, options)
        return nothing
    except ValueError as error:
        bad = getattr(error, "bad_values", None)
    if bad is None:  # an error of another kind (e.g. of the query ids): not this pass's
        return nothing
    positions = np.flatnonzero(bad)
    _, first = np.unique(values[positions], return_index=True)  # one NaN (numpy >= 1.21)
    picked = np.union1d(positions[:5], positions[first])
    return (
        values.shape[0],
        positions.shape[0],
        picked.tolist(),
        ids[picked].tolist(),
        values[picked].tolist(),
    )


def raise_for_frame(summaries: list, options: RankingOptions) -> None:
    """Raise the in-memory error for the refused values of a whole frame, from the
    :func:`refused_rows` of its partitions in the frame's order (rows numbered through
    the partitions), the roles in the order the in-memory function checks them; return
    if they hold none.

    The partitions' values are checked together first: the kind of refusal the
    in-memory function meets first (e.g. missing weights before negative ones) is the
    one of some partition, and the partitions of that kind count its values.
    """
    for role in CHECKED_COLUMNS:
        if summaries and role in summaries[0]:
            _raise_for_role(role, [summary[role] for summary in summaries], options)


def _raise_for_role(role: str, summaries: list, options: RankingOptions) -> None:
    offset, n_by_part, found = 0, [], []
    for part, (size, count, picked, ids, values) in enumerate(summaries):
        found += [(offset + p, q, v, part) for p, q, v in zip(picked, ids, values)]
        offset += size
        n_by_part.append(count)
    if not found:
        return
    rows, ids, values, parts = (np.asarray(column) for column in zip(*found))
    try:
        _check_column(role, values, ids, options)
        return  # pragma: no cover - the partitions refused them
    except ValueError as error:
        bad = getattr(error, "bad_values", None)
        if bad is None:  # pragma: no cover
            raise
    n_bad = int(sum(n_by_part[part] for part in np.unique(parts[bad])))
    _check_column(role, values[bad], ids[bad], options, rows=rows[bad], n_bad=n_bad)
