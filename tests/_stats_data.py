"""Per-query scores built by hand, for the tests of the statistics (tests/stats/)."""

import numpy as np

from sklearn_ndcg import QueryScores


def scores(model, qid, weight=None) -> QueryScores:
    """A QueryScores of the given per-query values (weights 1 unless given)."""
    qid = np.asarray(qid)
    return QueryScores(
        qid,
        np.asarray(model, dtype=float),
        np.ones(qid.shape[0]) if weight is None else np.asarray(weight, dtype=float),
    )
