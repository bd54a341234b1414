"""Queries cut between training and scoring, seen by a RankingEvaluator.

A splitter that ignores queries (scikit-learn's default ``cv``, ``KFold``) puts some
rows of a query in the training fold and the others in the test fold: the query is then
scored on part of its documents by a model that saw the rest, and the search's scores
look ordinary. :meth:`RankingEvaluator.fit` keeps, per query id, the number of its rows
and the sums of a few of its feature columns (:func:`query_rows`);
:meth:`RankingEvaluator.score` compares the scored queries with them
(:func:`warn_cut_queries`). A scored query id that had rows in training is silent when
it has as many rows and most of those column sums are its training ones (its training
rows: ``return_train_score=True``; them with one feature permuted, as
``permutation_importance`` scores), or when every scored query is a training query with
as many rows; it is warned of otherwise.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import scipy.sparse as sp

from .._compat import _routing_enabled
from .._warn import warn

CUT_QUERIES = ("warn", "ignore")
_COLUMNS = 8  # columns summed per query: one permuted leaves the others equal


class QueryRows(NamedTuple):
    """The sorted query ids, the number of rows of each, and the sums of a few feature
    columns over each query's rows (None when the features are not numbers)."""

    ids: np.ndarray
    n_rows: np.ndarray
    sums: np.ndarray | None


def _column_sums(X, inverse: np.ndarray, n_ids: int) -> np.ndarray | None:
    """Sums over each query's rows of up to 8 columns of X, spread over its width."""
    try:
        width = X.shape[1]
        columns = np.unique(np.linspace(0, width - 1, min(_COLUMNS, width)).astype(int))
        if sp.issparse(X):
            values = X.tocsc()[:, columns].toarray()
        elif hasattr(X, "iloc"):
            values = np.asarray(X.iloc[:, columns], dtype=float)
        else:
            values = np.asarray(np.asarray(X)[:, columns], dtype=float)
    except (AttributeError, IndexError, TypeError, ValueError):  # text, objects: counts only
        return None
    values = np.nan_to_num(values, nan=0.0, posinf=0.0, neginf=0.0)
    return np.stack([np.bincount(inverse, column, n_ids) for column in values.T], axis=1)


def query_rows(X, qid) -> QueryRows | None:
    """The :class:`QueryRows` of ``X`` grouped by ``qid`` (None without query ids)."""
    if qid is None:
        return None
    ids, inverse, count = np.unique(np.asarray(qid), return_inverse=True, return_counts=True)
    return QueryRows(ids, count, _column_sums(X, inverse.reshape(-1), ids.shape[0]))


def cut_query_ids(training: QueryRows, scored: QueryRows) -> np.ndarray:
    """The scored query ids that had other rows in training: another number of rows, or
    as many with most of the summed columns different; none when every scored query is
    a training query with as many rows (training rows, perhaps a column permuted, even
    the query ids' column, as ``permutation_importance`` does)."""
    kinds = {training.ids.dtype.kind, scored.ids.dtype.kind}
    if len(kinds) > 1 and not kinds <= set("iuf"):  # ids of other types never match
        return scored.ids[:0]
    common, in_training, in_scored = np.intersect1d(
        training.ids, scored.ids, assume_unique=True, return_indices=True
    )
    same = training.n_rows[in_training] == scored.n_rows[in_scored]
    if common.shape[0] == scored.ids.shape[0] and same.all():
        return common[:0]  # training queries, as many rows: them, a column permuted
    if training.sums is not None and scored.sums is not None:
        a, b = training.sums[in_training], scored.sums[in_scored]
        if a.shape[1] == b.shape[1]:
            scale = np.abs(a).max(initial=1.0)
            equal = np.isclose(a, b, rtol=1e-9, atol=1e-12 * scale)
            same &= equal.mean(axis=1) >= 0.5
    return common[~same]


def warn_cut_queries(owner: str, training: QueryRows | None, scored: QueryRows | None) -> None:
    """Warn when a scored query had rows in training and is scored on other rows."""
    if training is None or scored is None:
        return
    cut = cut_query_ids(training, scored)
    if cut.shape[0] == 0:
        return
    warn(
        f"{owner}.score: {cut.shape[0]} of the {scored.ids.shape[0]} scored queries (e.g. "
        f"{cut[:5].tolist()}) also had other rows in fit: the splitter "
        "cut them between training and test (scikit-learn's default cv, KFold, does), so "
        "each is scored on part of its documents by a model that saw the rest, and the "
        "score is too optimistic. Split by query: cv=GroupKFold(5) with groups=qid, e.g. "
        "search.fit(X, y, groups=qid, qid=qid). If these are other queries whose ids "
        "restart at 0 (a separate test set), give them ids the training did not use, or "
        f"pass {owner}(..., cut_queries='ignore').",
        UserWarning,
    )


def check_one_query(name: str, y, sample_weight, fitted_with_qid: bool) -> None:
    """``RankingEvaluator.score`` without qid: refuse if fitted on queries, else warn."""
    fix = (
        "In a search or cross-validation, call "
        "sklearn.set_config(enable_metadata_routing=True) and pass qid to fit, so "
        "that each test fold gets its query ids."
    )
    if _routing_enabled():
        # a search with routing on that was given no qid (fit(X, y, groups=qid)):
        # as the scorer, refuse rather than score each test fold as one query
        raise ValueError(
            f"{name}.score got 1-D y (one row per document) but no qid, "
            f"so it cannot tell the queries apart; scoring all {len(y)} rows as one "
            "query would pick models by a wrong NDCG. Metadata routing is enabled: pass "
            "qid with the data, e.g. search.fit(X, y, groups=qid, qid=qid) or "
            "cross_validate(..., params={'groups': qid, 'qid': qid}), or score(X, y, "
            "qid=...) (qid=np.zeros(len(y)) for one query)."
        )
    if fitted_with_qid:
        raise ValueError(
            f"{name} was fitted with qid, but score got no qid: "
            f"scoring all {len(y)} rows as one query would pick models by a wrong "
            f"NDCG. Pass qid=... to score. {fix}"
        )
    if sample_weight is not None and np.ptp(np.asarray(sample_weight, float)) > 0:
        raise ValueError(
            "score got no qid, so all rows are one query, which has one weight; "
            f"sample_weight varies. Pass qid=... with the weights. {fix}"
        )
    warn(
        f"{name}.score got no qid, so all {len(y)} rows are scored "
        f"as one query. Pass qid=...; {fix}",
        UserWarning,
    )
