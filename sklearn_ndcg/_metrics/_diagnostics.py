"""tie_diagnostics: how much of a ranking's NDCG is decided by the order of ties."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._engine import RankingOptions, query_values, stage, weighted_mean
from .._options import COMMON_PARAMS, NDCG_PARAMS
from .._validate_params import validate_params


class TieDiagnostics(NamedTuple):
    """Per-query NDCG under the two extreme tie rules, returned by :func:`tie_diagnostics`."""

    qid: np.ndarray
    cut: np.ndarray
    pessimistic: np.ndarray
    optimistic: np.ndarray
    weight: np.ndarray

    @property
    def spread(self) -> np.ndarray:
        """``optimistic - pessimistic`` per query: what tie-breaking alone can move."""
        return self.optimistic - self.pessimistic

    @property
    def cut_share(self) -> float:
        """The (weighted) share of queries whose top ``k`` is cut through a tie group."""
        return weighted_mean(self.cut.astype(np.float64), self.weight)

    @property
    def mean_spread(self) -> float:
        """The (weighted) mean of ``spread``, leaving out undefined (NaN) queries."""
        return weighted_mean(self.spread, self.weight)


TieDiagnostics.qid.__doc__ = "Query ids, sorted; ``arange(n_queries)`` for 2-D input."
TieDiagnostics.cut.__doc__ = (
    "Whether the top ``k`` of the query ends inside a group of tied scores (always "
    "False with ``k=None``)."
)
TieDiagnostics.pessimistic.__doc__ = "NDCG with tied documents by increasing gain (a lower bound)."
TieDiagnostics.optimistic.__doc__ = "NDCG with tied documents by decreasing gain (an upper bound)."
TieDiagnostics.weight.__doc__ = "Weight of each query (ones without ``sample_weight``)."


@validate_params(
    {
        **{
            name: COMMON_PARAMS[name]
            for name in ("y_true", "y_score", "k", "gain", "discount", "qid", "sample_weight")
        },
        **NDCG_PARAMS,
    },
    prefer_skip_nested_validation=True,
)
def tie_diagnostics(
    y_true: ArrayLike,
    y_score: ArrayLike,
    *,
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    qid: ArrayLike | None = None,
    sample_weight: ArrayLike | None = None,
    zero_division: float = 0.0,
    normalize: str = "ideal",
) -> TieDiagnostics:
    """How far the order of tied scores alone can move each query's NDCG.

    A model with constant or coarse scores (few distinct values) leaves many
    documents tied, and its NDCG then depends on how ties are broken, where
    the libraries disagree: scikit-learn averages over all orders, LightGBM
    and XGBoost keep the input order, CatBoost is pessimistic, trec_eval
    orders by document id. This gives, per query, the NDCG with tied
    documents ordered worst first (``ties="pessimistic"``) and best first
    (``"optimistic"``): every tie rule lies between the two. It also tells
    whether the top ``k`` is cut through a tie group, the case where even
    which documents are counted depends on the tie order.

    Read more in the :ref:`User Guide <tie_diagnostics>`.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_documents) or (n_samples,)
        Relevance labels; see :func:`ndcg_score`.
    y_score : array-like of the same shape as y_true
        Predicted scores; documents are ranked by decreasing score.
    k : int, default=None
        Only the top ``k`` documents of each query count (the cutoff of NDCG@k and DCG@k),
        in the DCG and in the ideal DCG. None means all documents.
    gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
        Gain of a document from its relevance label: "linear" (the label, as scikit-learn),
        "exponential" (``2**label - 1``, as LightGBM and XGBoost), a mapping from label to
        gain, a sequence indexed by label (LightGBM's ``label_gain``) or a callable; see
        :func:`~sklearn_ndcg.ndcg_score`.
    discount : {"log2", "reciprocal", "none"} or callable, default="log2"
        Weight of the document at rank ``r`` (from 1): "log2" (``1 / log2(r + 1)``),
        "reciprocal" (``1 / r``), "none" (1) or a callable; see
        :func:`~sklearn_ndcg.ndcg_score`.
    qid : array-like of shape (n_samples,), default=None
        Query id of each document, for 1-D (long format) input, where it is required:
        without it, 1-D input raises a ValueError rather than score all rows as one query
        (give a single query as one 2-D row). Ids may be of any sortable type, in any order,
        and queries of any length.
    sample_weight : array-like, default=None
        Weight of each query in the mean: one per row for 2-D input; for long format one per
        document, equal within a query. Used by the summaries ``cut_share`` and
        ``mean_spread``.
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        NDCG of a query whose ideal DCG is not positive (no relevant document): 0.0 as in
        scikit-learn, 1.0 as in LightGBM and XGBoost, or ``np.nan`` to leave such queries
        out of the mean; see :func:`~sklearn_ndcg.ndcg_score`.
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
        NDCG), or the range between the worst and the ideal DCG ("minmax"); see
        :func:`~sklearn_ndcg.ndcg_score`.

    Returns
    -------
    result : TieDiagnostics
        Named tuple ``(qid, cut, pessimistic, optimistic, weight)`` of arrays of
        shape (n_queries,), queries sorted by id, with the properties
        ``spread`` (per query), ``cut_share`` and ``mean_spread``.

    See Also
    --------
    ndcg_score : NDCG with one tie rule.
    NDCGCurveDisplay : Draws the tie range of NDCG@k with ``show_tie_range=True``.

    Examples
    --------
    Two queries; the second model's scores tie the relevant document of the
    first query with two others:

    >>> from sklearn_ndcg import tie_diagnostics
    >>> y_true = [1, 0, 0, 0, 2, 1, 0, 0]
    >>> y_score = [1, 1, 1, 0, 4, 3, 2, 1]
    >>> qid = [1, 1, 1, 1, 2, 2, 2, 2]
    >>> result = tie_diagnostics(y_true, y_score, qid=qid, k=2)
    >>> result.cut.tolist()  # query 1: three documents tied at ranks 1-3, cut at 2
    [True, False]
    >>> result.pessimistic.round(4), result.optimistic.round(4)
    (array([0., 1.]), array([1., 1.]))
    >>> float(result.spread.mean()), result.cut_share
    (0.5, 0.5)
    """
    options = RankingOptions(
        k=k, gain=gain, discount=discount, zero_division=zero_division, normalize=normalize
    )
    staged = stage(y_true, y_score, options, qid=qid, sample_weight=sample_weight)
    low, high = (
        query_values(staged, options.replace(ties=rule)).values
        for rule in ("pessimistic", "optimistic")
    )
    queries = staged.queries
    if k is None:
        cut = np.zeros(queries.ids.shape[0], dtype=bool)
    else:
        cut = staged.tie_cut(k)  # type: ignore[union-attr]  # no pool: a Staged
    weight = np.ones(queries.ids.shape[0]) if staged.weight is None else staged.weight
    return TieDiagnostics(queries.ids, cut, low, high, weight)
