"""What query_scores returns: the per-query values, and with them the bounds."""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from .._engine import weighted_mean


class _SaysTies:
    """A named tuple of per-query values that also says the tie rule it was computed
    with (``ties``: "average", "docno"...; None where unknown, e.g. values built by
    hand). The rule is an attribute beside the fields, not a field: unpacking and
    ``len`` stay those of the tuple, and equality compares the values only."""

    ties: str | None

    def __new__(cls, *args, ties: str | None = None, **kwargs):
        self = super().__new__(cls, *args, **kwargs)
        self.ties = None if ties is None else str(ties)
        return self

    @classmethod
    def _make(cls, iterable, *, ties: str | None = None):
        """A new instance from a sequence of fields (and a tie rule)."""
        return cls(*iterable, ties=ties)

    def _replace(self, **changes):
        """A copy with some fields (or ``ties``) changed."""
        ties = changes.pop("ties", self.ties)
        fields = [changes.pop(name, value) for name, value in zip(self._fields, self)]
        if changes:
            raise ValueError(f"got unexpected field names: {list(changes)!r}")
        return type(self)(*fields, ties=ties)

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self))  # type: ignore[attr-defined, call-overload]  # a tuple
        ties = "" if self.ties is None else f", ties={self.ties!r}"
        return f"{type(self).__name__}({fields}{ties})"


class _QueryScoresFields(NamedTuple):
    qid: np.ndarray
    score: np.ndarray
    weight: np.ndarray


class QueryScores(_SaysTies, _QueryScoresFields):  # type: ignore[misc]  # _make takes ties
    """Per-query values of a ranking metric, returned by :func:`query_scores`.

    A named tuple ``(qid, score, weight)``; ``ties`` says the tie rule the values were
    computed with (``query_scores`` and ``evaluate_run`` default to "average", the
    ``trec-eval`` command and :class:`RelevanceEvaluator` to trec_eval's "docno").
    """

    def __new__(cls, qid: Any, score: Any, weight: Any, *, ties: str | None = None):
        return super().__new__(cls, qid, score, weight, ties=ties)

    def to_frame(self):
        """The per-query values as a pandas DataFrame.

        Returns
        -------
        frame : pandas.DataFrame
            One row per query, with the columns ``qid``, ``score`` and
            ``weight``; needs pandas.

        Examples
        --------
        >>> from sklearn_ndcg import query_scores
        >>> query_scores([1, 0, 0, 1], [2, 1, 2, 1], qid=[1, 1, 2, 2]).to_frame().round(4)
           qid   score  weight
        0    1  1.0000     1.0
        1    2  0.6309     1.0
        """
        try:
            import pandas as pd
        except ImportError as error:
            raise ImportError(
                "QueryScores.to_frame needs pandas; install it (pip install pandas) "
                "or use the arrays qid, score and weight."
            ) from error
        return pd.DataFrame({"qid": self.qid, "score": self.score, "weight": self.weight})


# the fields' own docstrings (namedtuple gives them "Alias for field number 0")
QueryScores.qid.__doc__ = "Query ids, sorted; ``arange(n_queries)`` for 2-D input."
QueryScores.score.__doc__ = (
    "The metric of each query; NaN where NDCG is undefined and ``zero_division=np.nan``."
)
QueryScores.weight.__doc__ = "Weight of each query (ones without ``sample_weight``)."


def query_score_arrays(values: QueryScores, name: str) -> tuple[np.ndarray, ...]:
    """The ``qid``, ``score`` and ``weight`` of ``values`` as arrays (the values and
    weights float64), checked to hold one of each per query; ``name`` names it in the
    error."""
    qid = np.asarray(values.qid)
    score = np.asarray(values.score, dtype=np.float64)
    weight = np.asarray(values.weight, dtype=np.float64)
    if not qid.shape == score.shape == weight.shape or score.ndim != 1:
        raise ValueError(
            f"{name} is a QueryScores whose qid, score and weight have the shapes "
            f"{qid.shape}, {score.shape} and {weight.shape}; give one of each per query."
        )
    return qid, score, weight


class _QueryBoundsFields(NamedTuple):
    qid: np.ndarray
    score: np.ndarray
    weight: np.ndarray
    judged: np.ndarray
    lower: np.ndarray
    upper: np.ndarray


class QueryBounds(_SaysTies, _QueryBoundsFields):  # type: ignore[misc]  # _make takes ties
    """Per-query NDCG, Judged@k and the NDCG bounds, returned with ``bounds=True``.

    Returned by :func:`query_scores` and :func:`evaluate_run`: the bounds are the
    extremes of NDCG over every assignment of the judgment scale's levels to the
    unjudged documents of the ranking. ``ties`` says the tie rule, as for
    :class:`QueryScores`.
    """

    def __new__(
        cls,
        qid: Any,
        score: Any,
        weight: Any,
        judged: Any,
        lower: Any,
        upper: Any,
        *,
        ties: str | None = None,
    ):
        return super().__new__(cls, qid, score, weight, judged, lower, upper, ties=ties)

    def mean(self) -> dict[str, float]:
        """The weighted means of ``score``, ``judged``, ``lower`` and ``upper``.

        Each query's unjudged documents take their levels independently of the other
        queries', so the mean of the per-query bounds bounds the mean NDCG.

        Returns
        -------
        means : dict
            ``{"score": ..., "judged": ..., "lower": ..., "upper": ...}``; NaN values
            are left out, as in :func:`ndcg_score`.

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_ndcg import JudgmentPool, query_scores
        >>> pool = JudgmentPool(qid=[1, 1], y_true=[1, 0])
        >>> y, s = [1, 0, np.nan], [3, 2, 1]  # the third document is unjudged
        >>> result = query_scores(y, s, qid=[1, 1, 1], pool=pool, bounds=True)
        >>> {name: round(value, 4) for name, value in result.mean().items()}
        {'score': 1.0, 'judged': 0.6667, 'lower': 0.9197, 'upper': 1.0}

        Labelled 0, the unjudged document leaves NDCG at 1; labelled 1, it adds
        ``1 / log2(4) = 0.5`` to the DCG but ``1 / log2(3)`` to the ideal DCG:
        ``1.5 / 1.6309 = 0.9197``.
        """
        return {
            name: weighted_mean(getattr(self, name), self.weight)
            for name in ("score", "judged", "lower", "upper")
        }


QueryBounds.qid.__doc__ = "Query ids, sorted."
QueryBounds.score.__doc__ = "The NDCG of each query, unjudged documents gaining 0."
QueryBounds.weight.__doc__ = "Weight of each query (ones without ``sample_weight``)."
QueryBounds.judged.__doc__ = (
    "Judged documents in the top ``k`` over ``k``, or over the number ranked if fewer "
    "(ir_measures' ``Judged@k``); over all ranked documents without ``k``."
)
QueryBounds.lower.__doc__ = (
    "The smallest NDCG over every assignment of the levels to the unjudged documents."
)
QueryBounds.upper.__doc__ = "The largest NDCG over those assignments."
