"""The relevance levels of a call, checked once at its door (:func:`query_scores` of
arrays or dicts, :func:`evaluate_run` of tables, dicts or files), with the one message
and the one warning of every door.

- Negative levels (trec_eval's "in the pool, not judged"): the measures of binary
  relevance read them as not relevant, as trec_eval does; NDCG and DCG follow the gain
  rule, under which a named gain (``gain="linear"``, ``"exponential"``) refuses them and
  :func:`~sklearn_ndcg.positive_part_gain` counts them 0 (trec_eval's own gain). The
  message is the engine's (that of :func:`ndcg_score`), naming the first one's query
  as the user wrote it.
- A ``relevance_level`` that no judgment reaches makes every measure of binary relevance
  0 beside a non-zero NDCG: warned.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .._engine import negative_labels_error
from .._options import RANK_MEASURES, MetricName
from .._warn import warn


def check_levels(
    levels: np.ndarray,
    names: tuple[MetricName, ...],
    *,
    gain,
    normalize: str,
    relevance_level: float,
    what: str,
    qid: Callable[[], np.ndarray] | None = None,
) -> None:
    """Refuse negative ``levels`` where NDCG or DCG of a named gain would read them, and
    warn when the measures of binary relevance are asked for and no level reaches
    ``relevance_level``.

    Parameters
    ----------
    levels : ndarray
        Float64 relevance levels (the judgments: the pool's, else the labels), 1-D, or
        2-D for a query per row; NaN (unjudged) is skipped.
    names : tuple of MetricName
        The metrics of the call.
    gain, normalize : str, mapping, sequence or callable
        The call's gain and normalization of NDCG.
    relevance_level : float
        The call's relevance level.
    what : str
        The argument that holds the levels, for messages ("qrels", "y_true"...).
    qid : callable, default=None
        Returns the query id of each level as the user wrote it (called on the error
        path only); None for 2-D levels.
    """
    if not levels.size:
        return
    by_gain = any(
        name.metric == "dcg" or (name.metric == "ndcg" and normalize != "minmax") for name in names
    )
    if by_gain and isinstance(gain, str) and np.fmin.reduce(levels, axis=None) < 0:
        raise negative_labels_error(what, levels, gain, qid=None if qid is None else _text(qid()))
    if any(name.metric in RANK_MEASURES for name in names):
        highest = np.fmax.reduce(levels, axis=None)
        if highest < relevance_level:
            from sklearn.exceptions import UndefinedMetricWarning

            warn(
                f"relevance_level={relevance_level:g} is above every relevance level of "
                f"{what} (the largest is {highest:g}): no document is relevant, so every "
                "measure of binary relevance (average precision, precision, recall...) is 0. "
                "Give the level from which a judgment counts as relevant, e.g. "
                f"relevance_level={highest:g}.",
                UndefinedMetricWarning,
            )


def _text(ids: np.ndarray) -> np.ndarray:
    """Query ids read as bytes (a file's, a dict's) as text, for the message."""
    ids = np.asarray(ids)
    if ids.dtype.kind == "S":
        return np.array([value.decode("utf-8", "surrogateescape") for value in ids], dtype=object)
    return ids


def check_array_levels(y_true, qid, pool, names, gain, normalize: str, relevance_level) -> None:
    """:func:`check_levels` of the judgments of an array call: the pool's levels (by
    the pool's query ids), else the labels (by ``qid``; 2-D input, by row)."""
    ids: Callable[[], np.ndarray] | None
    if pool is not None:
        levels, ids, what = pool.y_true, (lambda: pool.qid), "the pool's y_true"
    else:
        try:
            levels = np.asarray(y_true, dtype=np.float64)
        except (TypeError, ValueError):  # labels the engine refuses with its own message
            return
        given = None if qid is None or levels.ndim != 1 else qid
        ids, what = (None if given is None else (lambda: np.asarray(given))), "y_true"
    check_levels(
        levels,
        names,
        gain=gain,
        normalize=normalize,
        relevance_level=relevance_level,
        what=what,
        qid=ids,
    )
