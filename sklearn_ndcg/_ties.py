"""Order documents by score with a tie rule, and the ideal order."""

from __future__ import annotations

import numpy as np

from ._queries import Queries, is_query_start, sort_within_queries

TIE_RULES = ("average", "first", "optimistic", "pessimistic")


class _DefaultTies(str):
    """The default of ``ties``, told apart from an explicit ``ties="average"``."""


DEFAULT_TIES = _DefaultTies("average")


def resolve_ties(ties: str, ignore_ties: bool | None) -> str:
    """The tie rule, from ``ties`` or scikit-learn's ``ignore_ties``, not both."""
    if ignore_ties is None:
        return str(ties)
    if ties is not DEFAULT_TIES:
        raise ValueError(
            f"give either ties (got {str(ties)!r}) or scikit-learn's ignore_ties (got "
            f"{ignore_ties!r}), not both; ignore_ties=True is ties='first' and "
            "ignore_ties=False is ties='average'."
        )
    return "first" if ignore_ties else "average"


def rank_gains(
    gain: np.ndarray, score: np.ndarray, queries: Queries, ties: str, k: int | None = None
) -> np.ndarray:
    """Gains in the sorted layout, each query by decreasing score.

    Parameters
    ----------
    gain, score : ndarray
        Flat float64 arrays, one entry per input row.
    queries : Queries
        The grouping of the rows.
    ties : {"average", "first", "optimistic", "pessimistic"}
        How documents with equal scores are ordered.

        - "average": each tied document gets the mean gain of its group, which
          gives the expected DCG over all orderings of the group (McSherry and
          Najork, 2008).
        - "first": tied documents keep their input order.
        - "optimistic": tied documents by decreasing gain (an upper bound).
        - "pessimistic": tied documents by increasing gain (a lower bound).
    k : int or None
        The cutoff. For 2-D input the result is 2-D and may hold only the
        first ``k`` positions of each query.

    Returns
    -------
    ndarray
        Gains in the sorted layout of ``queries``.
    """
    if queries.codes is None:
        top = _rank_top_gains_2d(gain, score, queries.shape, ties, k)
        if top is not None:
            return top
    order = sort_within_queries(queries, score)
    sorted_score = score[order]
    # A tie group starts at a new query or where the score changes.
    new_group = is_query_start(queries)
    new_group[1:] |= sorted_score[1:] != sorted_score[:-1]
    if new_group.all():  # no ties: every rule gives this order
        return gain[order]
    if ties == "average":
        return _average_over_groups(gain[order], new_group)
    # Order each tie group by the rule's secondary key.
    if ties == "first":
        secondary = order  # input order
    else:
        secondary = -gain[order] if ties == "optimistic" else gain[order]
    return gain[order[np.lexsort((secondary, np.cumsum(new_group)))]]


def _rank_top_gains_2d(
    gain: np.ndarray, score: np.ndarray, shape: tuple[int, int], ties: str, k: int | None
) -> np.ndarray | None:
    """:func:`rank_gains` of the first ``k`` positions of each row of 2-D input.

    Gathers ``k + 1`` documents per row only, to see whether a tie group is
    cut at ``k``. Returns None for tied scores under a rule other than
    "average", which then orders whole rows.
    """
    n_queries, n_documents = shape
    k = n_documents if k is None else min(k, n_documents)
    n_top = min(k + 1, n_documents)
    order = np.argsort(score.reshape(shape), axis=1)[:, : -n_top - 1 : -1]
    rows = np.arange(n_queries)[:, np.newaxis]
    flat = (order + rows * n_documents).ravel()
    top_score = score[flat].reshape(n_queries, n_top)
    top_gain = gain[flat].reshape(n_queries, n_top)
    tied = top_score[:, 1:] == top_score[:, :-1]
    if not tied.any():
        return top_gain[:, :k]
    if ties != "average":
        return None
    new_group = np.ones((n_queries, n_top), dtype=bool)
    new_group[:, 1:] = ~tied
    averaged = _average_over_groups(top_gain.ravel(), new_group.ravel())
    averaged = averaged.reshape(n_queries, n_top)[:, :k]
    if n_top == k:  # whole rows: no tie group is cut
        return averaged
    # A tie group cut at k: the mean gain of all its documents, not only the top ones.
    cut = tied[:, k - 1]
    if cut.any():
        threshold = top_score[:, k - 1, np.newaxis]
        member = score.reshape(shape) == threshold
        group_mean = np.einsum("ij,ij->i", gain.reshape(shape), member.astype(float))
        group_mean /= np.count_nonzero(member, axis=1)
        in_group = cut[:, np.newaxis] & (top_score[:, :k] == threshold)
        averaged = np.where(in_group, group_mean[:, np.newaxis], averaged)
    return averaged


def ideal_gains(gain: np.ndarray, label: np.ndarray, queries: Queries) -> np.ndarray:
    """Gains in the sorted layout, each query by decreasing gain.

    For 2-D input the result is 2-D, one query per row.
    """
    if queries.codes is None:  # values alone: a sort without indices is faster
        return np.sort(gain.reshape(queries.shape), axis=1)[:, ::-1]
    counted = _ideal_gains_by_counting(gain, label, queries)
    if counted is not None:
        return counted
    return gain[sort_within_queries(queries, gain)]


def _ideal_gains_by_counting(
    gain: np.ndarray, label: np.ndarray, queries: Queries
) -> np.ndarray | None:
    """:func:`ideal_gains` without sorting, for few integer labels.

    Counts the documents of each label in each query and lays the labels out
    by decreasing gain. Returns None where that does not apply: labels that
    are not integers in a small range, or a gain that is not a function of
    the label.
    """
    low, high = label.min(), label.max()
    n_levels = int(high - low) + 1
    n_queries = queries.ids.shape[0]
    if n_levels * n_queries > 2 * label.shape[0] + 1024 or (label % 1 != 0).any():
        return None
    level = (label - low).astype(np.intp)
    level_gain = np.zeros(n_levels)
    level_gain[level] = gain
    if (level_gain[level] != gain).any():
        return None
    by_gain = np.argsort(-level_gain)  # a handful of levels
    rank = np.empty(n_levels, dtype=np.intp)
    rank[by_gain] = np.arange(n_levels)
    counts = np.bincount(queries.codes * n_levels + rank[level], minlength=n_queries * n_levels)
    return np.repeat(np.tile(level_gain[by_gain], n_queries), counts)


def _average_over_groups(gain: np.ndarray, new_group: np.ndarray) -> np.ndarray:
    """Replace each gain by the mean gain of its group of consecutive documents."""
    starts = np.flatnonzero(new_group)
    counts = np.diff(np.append(starts, gain.shape[0]))
    return np.repeat(np.add.reduceat(gain, starts) / counts, counts)
