"""JudgmentPool: every judged document of each query, retrieved or not."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validation import as_float_array, check_qid


class JudgmentPool:
    """The judged documents of each query (the qrels), retrieved or not.

    NDCG divides by the ideal DCG of the documents it is given, so a system
    that misses relevant documents is not penalised. Information retrieval
    evaluates against the *judgment pool* instead (trec_eval, ranx,
    Elasticsearch's ``_rank_eval``, recommender toolkits): the ideal DCG of a
    query comes from all its judged documents. Pass a pool as ``pool=`` to
    :func:`ndcg_score`, :func:`dcg_score`, :func:`query_scores` or a scorer
    (through metadata routing, where it reaches every fold whole and is
    looked up by the fold's query ids).

    Read more in the :ref:`User Guide <judgment_pools>`.

    Parameters
    ----------
    qid : array-like of shape (n_judgments,)
        Query id of each judged document.
    y_true : array-like of shape (n_judgments,)
        Its relevance label (graded or binary; negative labels mean judged
        non-relevant where the gain allows them, e.g. with ``positive_part_gain``).

    Attributes
    ----------
    qid : ndarray of shape (n_judgments,)
        The query ids, read-only.
    y_true : ndarray of shape (n_judgments,)
        The labels as float64, read-only.

    See Also
    --------
    evaluate_run : NDCG of a TREC run against qrels, joined on document ids.

    Examples
    --------
    One query with three relevant documents, of which the system retrieved
    one (and an irrelevant one above it):

    >>> from sklearn_ndcg import JudgmentPool, ndcg_score
    >>> pool = JudgmentPool(qid=[1, 1, 1], y_true=[1, 1, 1])
    >>> round(ndcg_score([0, 1], [2, 1], qid=[1, 1]), 4)  # ideal from the list
    0.6309
    >>> round(ndcg_score([0, 1], [2, 1], qid=[1, 1], pool=pool), 4)  # from the pool
    0.2961
    """

    def __init__(self, qid: ArrayLike, y_true: ArrayLike):
        y_true = as_float_array(y_true, "the pool's y_true")
        if y_true.ndim != 1 or y_true.shape[0] == 0:
            raise ValueError(
                "the pool's y_true must be 1-D with one label per judged document; got "
                f"shape {y_true.shape}."
            )
        qid = check_qid(qid, y_true.shape[0], "the pool's y_true")
        self.qid = _read_only(qid)
        self.y_true = _read_only(y_true)

    def __repr__(self) -> str:
        n_queries = np.unique(self.qid).shape[0]
        return f"JudgmentPool(n_queries={n_queries}, n_judgments={self.y_true.shape[0]})"


def _read_only(array: np.ndarray) -> np.ndarray:
    array = np.array(array, copy=True)
    array.flags.writeable = False
    return array
