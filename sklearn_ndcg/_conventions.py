"""Keyword presets that reproduce the NDCG of other libraries.

:data:`CONVENTIONS` maps a library name to the :func:`ndcg_score` keywords that
reproduce its NDCG; spread one into the call and choose ``k`` yourself.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np


def positive_part_gain(y_true: np.ndarray) -> np.ndarray:
    """Gain of trec_eval and ranx: the label itself, with negative labels counting 0.

    trec_eval and ranx accept negative relevance labels (often used for spam or
    harmful documents) but do not penalise them: such a document gains nothing,
    like an irrelevant one. Used as ``gain`` by the ``"trec_eval"`` and
    ``"ranx"`` presets of :data:`CONVENTIONS`.

    Parameters
    ----------
    y_true : ndarray
        Float64 relevance labels.

    Returns
    -------
    gain : ndarray
        ``max(label, 0)`` for each label, same shape as ``y_true``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ndcg import positive_part_gain
    >>> positive_part_gain(np.array([2.0, 0.0, -1.0]))
    array([2., 0., 0.])
    """
    return np.maximum(y_true, 0.0)


class _Conventions(dict):
    """Keyword presets that reproduce the NDCG of other libraries.

    A dict from library name to a dict of :func:`ndcg_score` keywords (also
    accepted by :func:`make_ndcg_scorer`, :class:`RankingEvaluator` and
    :class:`NDCGCurveDisplay`). Spread one into the call and choose the cutoff
    ``k`` yourself, as each library does::

        ndcg_score(y, s, qid=q, k=10, **CONVENTIONS["lightgbm"])

    Each preset was checked against the library itself (see the test suite):

    ============  ===================  ==============  ======================
    preset        gain                 tied scores     query without relevant
    ============  ===================  ==============  ======================
    "sklearn"     label                average         0
    "lightgbm"    ``2**label - 1``     input order     1
    "xgboost"     ``2**label - 1``     input order     1
    "trec_eval"   label, negatives 0   see Notes       0
    "ranx"        label, negatives 0   see Notes       0
    ============  ===================  ==============  ======================

    All use the ``1 / log2(rank + 1)`` discount and apply ``k`` to both the DCG
    and the ideal DCG. The presets are read-only; to change one, copy it, e.g.
    ``{**CONVENTIONS["xgboost"], "zero_division": 0.0}`` for XGBoost's
    ``ndcg@k-`` metric.

    Read more in the :ref:`User Guide <conventions>`.

    Notes
    -----
    LightGBM and XGBoost order tied scores stably, keeping the input order of
    the rows, which is ``ties="first"``. XGBoost predicts in float32, so scores
    that differ only beyond float32 precision tie there.

    With query weights, LightGBM and XGBoost add 1 for each query without a
    relevant document *unweighted*, then divide by the sum of all weights; the
    presets agree when there are no such queries or all weights are 1, and the
    user guide shows the two lines that reproduce the rest with
    :func:`query_scores`. LightGBM weighs a query by the mean weight of its
    documents, XGBoost takes one weight per query; both store weights as float32.

    trec_eval (and pytrec_eval) breaks ties by document id, in decreasing string
    order; no tie rule reproduces that from the scores alone. The preset uses
    ``ties="first"``: sort the rows of each query by decreasing document id first,
    or pass the tie-breaking score shown in the user guide.

    ranx sorts each query with numba's unstable quicksort, so the order of tied
    documents is not defined (it is the input order for queries of up to about 16
    documents). With tie-free scores the preset agrees exactly.

    trec_eval and ranx compute the ideal DCG from all judged documents, also those
    the run did not retrieve; give ``ndcg_score`` every judged document.

    Examples
    --------
    >>> from sklearn_ndcg import CONVENTIONS, ndcg_score
    >>> y_true, y_score = [[0, 0, 0], [1, 0, 2]], [[3, 2, 1], [1, 2, 3]]
    >>> round(ndcg_score(y_true, y_score, k=2, **CONVENTIONS["sklearn"]), 6)
    0.380094
    >>> round(ndcg_score(y_true, y_score, k=2, **CONVENTIONS["lightgbm"]), 6)
    0.913117
    """


CONVENTIONS: dict[str, MappingProxyType] = _Conventions(
    {
        "sklearn": MappingProxyType(
            {
                "gain": "linear",
                "discount": "log2",
                "ties": "average",
                "zero_division": 0.0,
            }
        ),
        "lightgbm": MappingProxyType(
            {
                "gain": "exponential",
                "discount": "log2",
                "ties": "first",
                "zero_division": 1.0,
            }
        ),
        "xgboost": MappingProxyType(
            {
                "gain": "exponential",
                "discount": "log2",
                "ties": "first",
                "zero_division": 1.0,
            }
        ),
        "trec_eval": MappingProxyType(
            {
                "gain": positive_part_gain,
                "discount": "log2",
                "ties": "first",
                "zero_division": 0.0,
            }
        ),
        "ranx": MappingProxyType(
            {
                "gain": positive_part_gain,
                "discount": "log2",
                "ties": "first",
                "zero_division": 0.0,
            }
        ),
    }
)
