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

from .._engine import Queries, RankingOptions, check_qid, query_values, stage


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


def _plain(value):
    """A query id as Python prints it: ``1`` and ``'a'``, not ``np.int64(1)``."""
    return value.item() if isinstance(value, np.generic) else value


def _word(ranking_name: str) -> str:
    """What a message calls one logged ranking: "query 7" while its ids are ``qid``."""
    return "query" if ranking_name == "qid" else ranking_name


def _group(qid: np.ndarray, ranking_name: str) -> Queries:
    """The logged rankings (the engine's grouping), refusing ids that do not compare."""
    try:
        return Queries.of(qid)
    except TypeError:
        types = sorted({type(v).__name__ for v in qid.tolist()})
        raise TypeError(
            f"{ranking_name} mixes ids that cannot be compared with each other (types "
            f"{', '.join(types)}); give every logged ranking an id of one sortable type, "
            "e.g. all numbers or all strings."
        ) from None


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
    click,
    y_score,
    qid,
    logged_rank,
    propensity,
    logging_probability,
    reward_model,
    *,
    ranking_name: str = "qid",
) -> ClickLog:
    """Check a click log and the new ranker's scores of its rows.

    ``qid`` holds the logged ranking of each row, and ``ranking_name`` is the name
    of that argument in the messages.
    """
    click = _real(click, "click", None)
    n_rows = click.shape[0]
    if n_rows == 0:
        raise ValueError("click is empty; the log needs at least one row.")
    if not np.all((click == 0) | (click == 1)):
        bad = float(click[(click != 0) & (click != 1)][0])
        raise ValueError(f"click must hold 0 (no click) or 1 (click); got {bad!r}.")
    y_score = _real(y_score, "y_score", n_rows)
    qid = check_qid(qid, n_rows, target="click", name=ranking_name)
    rankings = _group(qid, ranking_name)
    ids, codes = rankings.ids, rankings.codes()
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
    _refuse_repeated_ranks(codes, rank, curve.shape[0], ids, ranking_name)
    if logging_probability is not None:
        logging_probability = _real(logging_probability, "logging_probability", n_rows)
        if np.any((logging_probability <= 0) | (logging_probability > 1)):
            raise ValueError(
                "logging_probability must lie in (0, 1]: the probability that the logger "
                "put each document at its logged position."
            )
        _refuse_ranks_beyond_the_ranking(rank, codes, rankings, ranking_name)
    if reward_model is not None:
        reward_model = _real(reward_model, "reward_model", n_rows)
    return ClickLog(
        click, y_score, ids, codes, rank, curve[rank - 1], logging_probability, reward_model
    )


def _refuse_repeated_ranks(codes, rank, max_rank: int, ids, ranking_name: str) -> None:
    """Refuse a rank shown twice in one logged ranking. One integer key per (logged
    ranking, rank): increasing keys (rows grouped, ranks in order, as logs usually
    come) repeat none; others are grouped by the engine, and a group of two is a
    repeated position."""
    key = codes.astype(np.int64) * max_rank + (rank - 1)
    if np.all(key[1:] > key[:-1]):
        return
    keys = Queries.of(key)
    repeated = np.flatnonzero(keys.sizes > 1)
    if repeated.shape[0]:
        code, at = divmod(int(keys.ids[repeated[0]]), max_rank)
        raise ValueError(
            f"logged_rank repeats rank {at + 1} in {_word(ranking_name)} {_plain(ids[code])!r}: "
            "each row is one document shown at one position of one logged ranking; give "
            f"every logged ranking its own {ranking_name}."
        )


def _refuse_ranks_beyond_the_ranking(rank, codes, rankings: Queries, ranking_name: str) -> None:
    """Under stochastic logging the new ranker puts a logged ranking's rows at ranks 1 to
    its length: a row logged beyond it could never count, so it is refused."""
    length = rankings.sizes[codes]
    beyond = np.flatnonzero(rank > length)
    if beyond.shape[0]:
        row = int(beyond[0])
        raise ValueError(
            f"logged_rank {int(rank[row])} of row {row} lies beyond its logged ranking "
            f"({_word(ranking_name)} {_plain(rankings.ids[codes[row]])!r}), which has "
            f"{int(length[row])} rows: with logging_probability each logged ranking must "
            "hold every document its logger ranked (ranks 1 to its length), else the row "
            "can never be put where it was logged and never counts. Give the whole logged "
            "rankings, or drop logging_probability for deterministic logging."
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


_DCG = RankingOptions(metric="dcg")


def new_ranks(log: ClickLog) -> NewRanks:
    """The new ranker's tie groups, by decreasing ``y_score`` within each logged ranking
    (the engine's grouping and order)."""
    staged = stage(log.click, log.y_score, _DCG, qid=log.codes)
    first, last = staged.tie_groups()  # type: ignore[union-attr]  # _DCG has no pool: a Staged
    return NewRanks(first, last)


def log2_discount(rank: np.ndarray, k: int | None) -> np.ndarray:
    """``1 / log2(1 + rank)``, 0 beyond ``k``."""
    discount = 1.0 / np.log2(1.0 + rank)
    if k is not None:
        discount = np.where(rank > k, 0.0, discount)
    return discount


def ideal_dcg(relevance: np.ndarray, codes: np.ndarray, k: int | None) -> np.ndarray:
    """Per query, the DCG@k of the rows sorted by decreasing ``relevance``: the engine's
    DCG@k of ``relevance`` ranked by itself (tied rows hold equal gains, in any order)."""
    options = _DCG.replace(k=k, ties="first")
    return query_values(stage(relevance, relevance, options, qid=codes), options).values
