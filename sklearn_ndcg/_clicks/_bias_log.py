"""The click log of estimate_position_bias, checked and coded as integer arrays."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._engine import Queries


class BiasLog(NamedTuple):
    """A checked click log, one entry per row (an impression of a document).

    ``query`` and ``pair`` are codes 0.. of the query and of the (query, document)
    pair, ``rank`` the logged rank - 1, ``click`` 0.0 or 1.0, ``logger`` codes 0.. of
    the logger labels (None without ``logger``), ``logger_labels`` the labels.
    """

    query: np.ndarray
    pair: np.ndarray
    rank: np.ndarray
    click: np.ndarray
    logger: np.ndarray | None
    logger_labels: np.ndarray | None
    n_queries: int
    n_pairs: int
    max_rank: int


def _column(values, name: str) -> np.ndarray:
    """A 1-D copy of one column of the log, without NaN."""
    array = np.array(values, copy=True)
    if array.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D, one entry per row of the log; got shape {array.shape}."
        )
    if array.dtype.kind == "f" and np.isnan(array).any():
        raise ValueError(
            f"{name} has NaN at row {int(np.flatnonzero(np.isnan(array))[0])}; every row of the "
            "log needs a value."
        )
    if array.dtype.kind == "O":
        nan = np.array([isinstance(v, float) and v != v for v in array.tolist()], dtype=bool)
        if nan.any():
            raise ValueError(
                f"{name} has NaN at row {int(np.flatnonzero(nan)[0])}; every row of the log "
                "needs a value."
            )
    return array


def _codes(array: np.ndarray, name: str) -> tuple[np.ndarray, np.ndarray]:
    """The sorted distinct values of ``array`` and each row's index into them (the
    engine's grouping)."""
    try:
        groups = Queries.of(array)
    except TypeError:
        raise TypeError(
            f"{name} must hold values of one sortable type (numbers or strings); got "
            f"{sorted({type(v).__name__ for v in array.tolist()})}."
        ) from None
    return groups.ids, groups.codes()


def check_bias_log(qid, doc, logged_rank, click, logger=None, max_rank=None) -> BiasLog:
    """Check the columns of a click log and code them as integers.

    Raises ValueError naming the column: lengths that differ, NaN, ranks that are not
    whole numbers >= 1, clicks outside {0, 1}, ``max_rank`` below the largest rank.
    """
    columns = {"qid": qid, "doc": doc, "logged_rank": logged_rank, "click": click}
    if logger is not None:
        columns["logger"] = logger
    arrays = {name: _column(values, name) for name, values in columns.items()}
    n_rows = arrays["qid"].shape[0]
    for name, array in arrays.items():
        if array.shape[0] != n_rows:
            raise ValueError(
                f"{name} has {array.shape[0]} entries but qid has {n_rows}; give one entry "
                "per row of the log."
            )
    if n_rows == 0:
        raise ValueError("qid is empty: the click log has no rows.")

    rank = arrays["logged_rank"]
    if rank.dtype.kind not in "iuf":
        raise TypeError(f"logged_rank must be numbers (ranks from 1); got dtype {rank.dtype}.")
    whole = np.floor(rank) == rank if rank.dtype.kind == "f" else np.ones(n_rows, dtype=bool)
    if not whole.all() or rank.min() < 1:
        bad = int(np.flatnonzero(~whole | (rank < 1))[0])
        raise ValueError(
            f"logged_rank must hold whole numbers >= 1 (rank 1 is the top); row {bad} has "
            f"{rank[bad].item()!r}."
        )
    largest = int(rank.max())
    if max_rank is None:
        max_rank = largest
    elif max_rank < largest:
        raise ValueError(
            f"max_rank={max_rank} is below the largest logged_rank, {largest}; give "
            f"max_rank >= {largest} or None."
        )

    click = arrays["click"]
    if click.dtype.kind not in "biuf":
        raise TypeError(f"click must be 0 or 1 per row; got dtype {click.dtype}.")
    outside = (click != 0) & (click != 1)
    if outside.any():
        bad = int(np.flatnonzero(outside)[0])
        raise ValueError(f"click must be 0 or 1 per row; row {bad} has {click[bad].item()!r}.")

    _, query = _codes(arrays["qid"], "qid")
    _, doc_code = _codes(arrays["doc"], "doc")
    # a (query, document) pair: one code per distinct (query code, document code)
    _, pair = _codes(query.astype(np.int64) * (int(doc_code.max()) + 1) + doc_code, "doc")
    logger_labels = logger_code = None
    if logger is not None:
        logger_labels, logger_code = _codes(arrays["logger"], "logger")
    return BiasLog(
        query=query,
        pair=pair,
        rank=rank.astype(np.intp) - 1,
        click=click.astype(np.float64),
        logger=logger_code,
        logger_labels=logger_labels,
        n_queries=int(query.max()) + 1,
        n_pairs=int(pair.max()) + 1,
        max_rank=int(max_rank),
    )


def cells(log: BiasLog, weight: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Impressions and clicks per (pair, rank), as dense (n_pairs, max_rank) arrays.

    ``weight`` is the weight of each row (1 for the log, a query's bootstrap count in a
    resample). Returns the weighted impressions, the weighted clicks, and their ratio,
    the click-through rate (0 where the pair was not shown at the rank).
    """
    index = log.pair * log.max_rank + log.rank
    size = log.n_pairs * log.max_rank
    shown = np.bincount(index, weights=weight, minlength=size).reshape(log.n_pairs, log.max_rank)
    clicked = np.bincount(index, weights=weight * log.click, minlength=size).reshape(shown.shape)
    rate = np.divide(clicked, shown, out=np.zeros_like(clicked), where=shown > 0)
    return shown, clicked, rate


def pair_features(log: BiasLog, features) -> np.ndarray:
    """The features of each (query, document) pair, shape (n_pairs, n_features).

    Raises ValueError unless ``features`` is a finite 2-D array with one row per row of
    the log, equal on the rows of each pair.
    """
    try:
        features = np.array(features, dtype=np.float64, copy=True)
    except (TypeError, ValueError):
        raise TypeError(
            "features must be numbers, one row of features per row of the log."
        ) from None
    if features.ndim != 2 or features.shape[0] != log.rank.shape[0]:
        raise ValueError(
            f"features must have shape (n_samples, n_features) with n_samples = "
            f"{log.rank.shape[0]}, one row per row of the log; got shape {features.shape}."
        )
    if not np.isfinite(features).all():
        raise ValueError("features has NaN or infinite values; every row needs finite features.")
    first = np.zeros(log.n_pairs, dtype=np.intp)
    first[log.pair[::-1]] = np.arange(log.rank.shape[0])[::-1]  # first row of each pair
    per_pair = features[first]
    differs = (per_pair[log.pair] != features).any(axis=1)
    if differs.any():
        row = int(np.flatnonzero(differs)[0])
        raise ValueError(
            f"features of row {row} differ from those of an earlier row of the same "
            "(query, document) pair; the relevance model needs one feature vector per pair."
        )
    return per_pair
