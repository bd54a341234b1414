"""Order documents by score with a tie rule, and the ideal order."""

from __future__ import annotations

import numpy as np

from ._queries import Queries, sort_within_queries

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


def rank_gains(gain: np.ndarray, score: np.ndarray, queries: Queries, ties: str) -> np.ndarray:
    """Gains laid out query by query, each query by decreasing score.

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

    Returns
    -------
    ndarray
        Gains in the sorted layout of ``queries``.
    """
    if ties == "optimistic":
        return gain[sort_within_queries(queries, (-gain, -score))]
    if ties == "pessimistic":
        return gain[sort_within_queries(queries, (gain, -score))]
    order = sort_within_queries(queries, (-score,))
    ranked = gain[order]
    if ties == "first":
        return ranked
    return _average_over_ties(ranked, score[order], queries)


def ideal_gains(gain: np.ndarray, queries: Queries) -> np.ndarray:
    """Gains laid out query by query, each query by decreasing gain."""
    return gain[sort_within_queries(queries, (-gain,))]


def _average_over_ties(gain: np.ndarray, score: np.ndarray, queries: Queries) -> np.ndarray:
    """Replace each gain by the mean gain of its tie group.

    Rows are sorted by query, then by descending score.
    """
    # A tie group starts at a new query or where the score changes.
    new_group = np.zeros(gain.shape[0], dtype=bool)
    new_group[queries.starts] = True
    new_group[1:] |= score[1:] != score[:-1]
    starts = np.flatnonzero(new_group)
    counts = np.diff(np.append(starts, gain.shape[0]))
    return np.repeat(np.add.reduceat(gain, starts) / counts, counts)
