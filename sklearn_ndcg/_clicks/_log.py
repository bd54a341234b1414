"""A click log checked and laid out: rows grouped into logged rankings, the new ranker's ranks.

The checks of :func:`counterfactual_dcg`'s input (each error names its argument), and
where the new ranker puts each logged row: the tie group of its score within its logged
ranking, from which the expected discount of the row and the probability that the new
ranker puts it at a given position follow (tied rows in random order, as
``ties="average"`` of :func:`~sklearn_ndcg.dcg_score`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class ClickLog(NamedTuple):
    """The checked log: flat float64 copies, queries coded 0..n_queries-1."""

    click: np.ndarray
    y_score: np.ndarray
    ids: np.ndarray  # the query ids, sorted
    codes: np.ndarray  # each row's query, as an index into ids
    logged_rank: np.ndarray  # int, from 1
    propensity: np.ndarray  # of each row: the propensity of its logged rank
    logging_probability: np.ndarray | None
    reward_model: np.ndarray | None


def _column(value, name: str, n_rows: int | None) -> np.ndarray:
    array = np.asarray(value)
    if array.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D, one entry per logged document; got shape {array.shape}."
        )
    if n_rows is not None and array.shape[0] != n_rows:
        raise ValueError(
            f"{name} has {array.shape[0]} entries but click has {n_rows}; give one entry "
            "per logged document (row of the log)."
        )
    return array


def _real(value, name: str, n_rows: int | None) -> np.ndarray:
    array = _column(value, name, n_rows)
    if array.dtype.kind not in "biuf":
        raise ValueError(f"{name} must hold numbers; got dtype {array.dtype}.")
    array = array.astype(np.float64)  # a copy: the input is never changed
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} holds NaN or infinite values; give finite numbers.")
    return array


def _query_codes(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The sorted query ids and each row's index into them; without a sort when the rows
    come with numeric ids in increasing order, as logs usually do."""
    if qid.dtype.kind in "biuf" and np.all(qid[1:] >= qid[:-1]):
        new = np.ones(qid.shape[0], dtype=bool)
        new[1:] = qid[1:] != qid[:-1]
        return qid[new], np.cumsum(new) - 1
    ids, codes = np.unique(qid, return_inverse=True)
    return ids, codes.reshape(-1)


def check_propensity(propensity) -> np.ndarray:
    """The propensity of each rank (index rank - 1): an array or an object holding one."""
    curve = getattr(propensity, "propensity", propensity)
    curve = np.asarray(curve)
    if curve.ndim != 1 or curve.shape[0] == 0 or curve.dtype.kind not in "biuf":
        raise ValueError(
            "propensity must be a 1-D array of numbers indexed by rank - 1 (or an object "
            f"with such a .propensity, e.g. a PositionBias); got {curve!r}."
        )
    curve = curve.astype(np.float64)
    bad = ~((curve > 0) & (curve <= 1))
    if bad.any():
        rank = int(np.flatnonzero(bad)[0]) + 1
        raise ValueError(
            f"propensity must lie in (0, 1] at every rank (the probability that a user "
            f"examines it); got {float(curve[rank - 1])!r} at rank {rank}."
        )
    return curve


def check_log(
    click, y_score, qid, logged_rank, propensity, logging_probability, reward_model
) -> ClickLog:
    """Check a click log and the new ranker's scores of its rows."""
    click = _real(click, "click", None)
    n_rows = click.shape[0]
    if n_rows == 0:
        raise ValueError("click is empty; the log needs at least one row.")
    if not np.all((click == 0) | (click == 1)):
        bad = float(click[(click != 0) & (click != 1)][0])
        raise ValueError(f"click must hold 0 (no click) or 1 (click); got {bad!r}.")
    y_score = _real(y_score, "y_score", n_rows)
    qid = _column(qid, "qid", n_rows)
    ids, codes = _query_codes(qid)
    rank = _real(logged_rank, "logged_rank", n_rows)
    if np.any(rank < 1) or np.any(rank != np.round(rank)):
        bad = float(rank[(rank < 1) | (rank != np.round(rank))][0])
        raise ValueError(
            f"logged_rank must hold whole ranks from 1 (the position at which the log "
            f"showed each document); got {bad!r}."
        )
    rank = rank.astype(np.intp)
    curve = check_propensity(propensity)
    if rank.max() > curve.shape[0]:
        raise ValueError(
            f"logged_rank reaches {int(rank.max())}, but propensity covers ranks 1 to "
            f"{curve.shape[0]}: rows at ranks without a propensity count as documents the "
            "log never showed; drop them from the log (and from y_score)."
        )
    # one integer key per (query, rank): a repeated key is a repeated position
    key = codes.astype(np.int64) * curve.shape[0] + (rank - 1)
    if ids.shape[0] * curve.shape[0] <= 4 * n_rows:  # few keys: count them
        repeated_key = np.bincount(key) > 1
        repeated = repeated_key.any()
        row = np.flatnonzero(repeated_key[key])[-1] if repeated else None
    else:
        order = np.argsort(key, kind="stable")
        same = key[order][1:] == key[order][:-1]
        repeated = same.any()
        row = order[1:][same][0] if repeated else None
    if repeated:
        raise ValueError(
            f"logged_rank repeats rank {int(rank[row])} in query {ids[codes[row]].item()!r}: "
            "each row is one document shown at one position of one logged ranking; give "
            "every logged ranking its own qid."
        )
    if logging_probability is not None:
        logging_probability = _real(logging_probability, "logging_probability", n_rows)
        if np.any((logging_probability <= 0) | (logging_probability > 1)):
            raise ValueError(
                "logging_probability must lie in (0, 1]: the probability that the logger "
                "put each document at its logged position."
            )
    if reward_model is not None:
        reward_model = _real(reward_model, "reward_model", n_rows)
    return ClickLog(
        click, y_score, ids, codes, rank, curve[rank - 1], logging_probability, reward_model
    )


class NewRanks(NamedTuple):
    """Where the new ranker puts each row: the first and last rank of its tie group."""

    first: np.ndarray
    last: np.ndarray

    def expected_discount(self, k: int | None) -> np.ndarray:
        """The mean of ``1 / log2(1 + r)`` (0 beyond ``k``) over the ranks of the tie group."""
        top = int(self.last.max())
        rank = np.arange(1, top + 1)
        discount = 1.0 / np.log2(1.0 + rank)
        if k is not None:
            discount[rank > k] = 0.0
        cumulative = np.concatenate(([0.0], np.cumsum(discount)))
        size = self.last - self.first + 1
        return (cumulative[self.last] - cumulative[self.first - 1]) / size

    def probability_at(self, position: np.ndarray) -> np.ndarray:
        """The probability that the new ranker puts each row at ``position``."""
        inside = (position >= self.first) & (position <= self.last)
        return inside / (self.last - self.first + 1)


def by_query_and_decreasing(codes: np.ndarray, value: np.ndarray) -> np.ndarray:
    """The order of the rows by query, then by decreasing ``value`` (equal values in any
    order). Queries of equal size are sorted together, as rows of one 2-D block: sorting
    short rows is cache-friendly, and there is one sort per distinct query size."""
    by_query = np.argsort(codes, kind="stable")  # linear when the rows come grouped
    sizes = np.bincount(codes)
    start = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    order = np.empty(codes.shape[0], dtype=np.intp)
    for size in np.unique(sizes):
        queries = np.flatnonzero(sizes == size)
        slots = start[queries][:, None] + np.arange(size)  # the block's places in the order
        rows = by_query[slots]
        within = np.argsort(-value[rows], axis=1)
        order[slots] = np.take_along_axis(rows, within, axis=1)
    return order


def new_ranks(log: ClickLog) -> NewRanks:
    """The new ranker's tie groups, by decreasing ``y_score`` within each logged ranking."""
    order = by_query_and_decreasing(log.codes, log.y_score)
    codes, score = log.codes[order], log.y_score[order]
    n_rows = codes.shape[0]
    query_start = np.ones(n_rows, dtype=bool)
    query_start[1:] = codes[1:] != codes[:-1]
    start_row = np.flatnonzero(query_start)
    position = np.arange(n_rows) - np.repeat(start_row, np.diff(np.append(start_row, n_rows)))
    group_start = query_start.copy()
    group_start[1:] |= score[1:] != score[:-1]
    starts = np.flatnonzero(group_start)
    sizes = np.diff(np.append(starts, n_rows))
    first_sorted = np.repeat(position[starts] + 1, sizes)
    first = np.empty(n_rows, dtype=np.intp)
    last = np.empty(n_rows, dtype=np.intp)
    first[order] = first_sorted
    last[order] = first_sorted + np.repeat(sizes, sizes) - 1
    return NewRanks(first, last)


def log2_discount(rank: np.ndarray, k: int | None) -> np.ndarray:
    """``1 / log2(1 + rank)``, 0 beyond ``k``."""
    discount = 1.0 / np.log2(1.0 + rank)
    if k is not None:
        discount = np.where(rank > k, 0.0, discount)
    return discount


def ideal_dcg(relevance: np.ndarray, codes: np.ndarray, k: int | None) -> np.ndarray:
    """Per query, the DCG@k of the rows sorted by decreasing ``relevance``."""
    order = by_query_and_decreasing(codes, relevance)
    sorted_codes = codes[order]
    n_rows = codes.shape[0]
    query_start = np.ones(n_rows, dtype=bool)
    query_start[1:] = sorted_codes[1:] != sorted_codes[:-1]
    start_row = np.flatnonzero(query_start)
    position = np.arange(n_rows) - np.repeat(start_row, np.diff(np.append(start_row, n_rows)))
    gain = relevance[order] * log2_discount(position + 1.0, k)
    return np.bincount(sorted_codes, weights=gain, minlength=int(codes.max()) + 1)
