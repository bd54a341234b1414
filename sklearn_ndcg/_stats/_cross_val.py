"""cross_val_query_scores: out-of-fold per-query NDCG, each query scored in the test fold
that holds it.

Under a splitter that keeps queries whole (``GroupKFold`` with ``groups=qid``)
every query is tested exactly once, so two candidates can be compared query by
query: hundreds of paired observations instead of a handful of folds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import is_classifier
from sklearn.model_selection import GroupKFold, check_cv, cross_validate
from sklearn.utils.metadata_routing import get_routing_for_object
from sklearn.utils.validation import has_fit_parameter

from .._compat import _num_samples, _routing_enabled, _safe_indexing
from .._engine import check_qid
from .._metrics import QueryBounds, QueryScores, query_scores
from .._model_selection._response import ranking_scores
from .._model_selection._scorer import _RESPONSE_METHOD
from .._options import COMMON_PARAMS, DEFAULT_TIES, NDCG_PARAMS, UNJUDGED_QUERIES
from .._validate_params import HasMethods, StrOptions, validate_params

_METRIC_OPTIONS = {
    "metric": [StrOptions({"ndcg", "dcg"})],
    **{name: COMMON_PARAMS[name] for name in ("k", "gain", "discount", "ties")},
    **NDCG_PARAMS,
    **UNJUDGED_QUERIES,
    "response_method": _RESPONSE_METHOD,
}


def _no_score(estimator, X, y) -> float:
    """cross_validate's scoring when only the fitted estimators are wanted."""
    return 0.0


def _consumes(obj, method: str, param: str) -> bool:
    """Whether ``obj`` requests ``param`` in ``method`` through metadata routing."""
    return param in get_routing_for_object(obj).consumes(method=method, params={param})


_PARAMS = {
    "estimator": [HasMethods(["fit"])],
    "X": ["array-like", "sparse matrix"],
    "y": ["array-like"],
    "qid": ["array-like"],
    "cv": ["cv_object"],
    "params": [dict, None],
    "n_jobs": [Integral, None],
    **_METRIC_OPTIONS,
}


@validate_params(
    _PARAMS,
    prefer_skip_nested_validation=False,  # the estimator is validated when it is fitted
)
def cross_val_query_scores(
    estimator,
    X,
    y: ArrayLike,
    *,
    qid: ArrayLike,
    cv=None,
    params: dict | None = None,
    n_jobs: int | None = None,
    metric: str = "ndcg",
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    zero_division: float = 0.0,
    normalize: str = "ideal",
    unjudged_queries: str = "drop",
    response_method: str | tuple[str, ...] = "auto",
) -> QueryScores:
    """Out-of-fold NDCG (or DCG) of every query, each scored in the test fold that holds it.

    The ranking analogue of :func:`sklearn.model_selection.cross_val_predict`:
    the estimator is fitted on each training fold and ranks the documents of
    the test fold; every query gets the value of its own test fold. The
    result pairs two models query by query (:func:`paired_test`,
    :func:`compare_models`) when they are cross-validated on the same folds.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    estimator : estimator object
        A regressor, classifier, ranker or :class:`RankingEvaluator`; cloned
        for each fold.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        One row per document.
    y : array-like of shape (n_samples,)
        Relevance labels.
    qid : array-like of shape (n_samples,)
        Query id of each document. It is the splitter's ``groups`` unless
        ``params`` holds ``groups``, and it reaches the estimator's ``fit``
        when the estimator takes it (with metadata routing on: when it
        requests ``qid``; e.g. :class:`RankingEvaluator`).
    cv : int, cross-validation generator or iterable, default=None
        None or an int means :class:`~sklearn.model_selection.GroupKFold`
        with that many folds (5 by default), grouped by ``qid``. A splitter
        must test each query whole, and every query equally often: once,
        or once per repetition of a repeated splitter such as
        :class:`RepeatedGroupKFold`, whose values of a query are averaged
        over its repetitions. One that splits a query between training and
        test, or tests some queries more often than others, is refused.
        Queries it never tests are left out of the result.
    params : dict, default=None
        Parameters for the estimator's ``fit`` and the splitter, as in
        :func:`~sklearn.model_selection.cross_validate` (routed when metadata
        routing is on). ``sample_weight`` in it also weighs the queries of
        the result.
    n_jobs : int, default=None
        Folds fitted in parallel; see :func:`~sklearn.model_selection.cross_validate`.
    metric : {"ndcg", "dcg"}, default="ndcg"
        Which metric each query gets.
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
    ties : {"average", "first", "optimistic", "pessimistic", "docno"}, default="average"
        How documents with equal scores are ordered: "average" (the mean DCG over all their
        orders, as scikit-learn), "first" (input order), "optimistic" (by decreasing gain),
        "pessimistic" (by increasing gain) or "docno" (trec_eval's order by document id,
        which needs tie-free scores where document ids are unknown); see
        :func:`~sklearn_ndcg.ndcg_score`.
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        NDCG of a query whose ideal DCG is not positive (no relevant document): 0.0 as in
        scikit-learn, 1.0 as in LightGBM and XGBoost, or ``np.nan`` to leave such queries
        out of the mean; see :func:`~sklearn_ndcg.ndcg_score`.
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
        NDCG), or the range between the worst and the ideal DCG ("minmax"); see
        :func:`~sklearn_ndcg.ndcg_score`.
    unjudged_queries : {"drop", "zero"}, default="drop"
        With ``pool``: queries of ``qid`` that the pool lacks are left out ("drop", as
        trec_eval leaves out queries without qrels) or score 0 ("zero", as Spark scores a
        query with an empty set of relevant ids): such a query is judged to have no
        relevant document, so its ideal DCG is 0, its NDCG ``zero_division`` and a
        positive label in its ranking is refused. ``CONVENTIONS["spark"]`` sets "zero".
        Without a pool every query is judged by its own labels and it changes nothing.
    response_method : "auto", {"decision_function", "predict_proba", \
            "predict"} or tuple of them, default="auto"
        How the fitted estimator scores documents; see :func:`make_ndcg_scorer`.

    Returns
    -------
    result : QueryScores
        ``(qid, score, weight)``: the tested queries, sorted by id; with a
        repeated splitter, each query's mean over the repetitions.

    See Also
    --------
    search_query_scores : The same for the best candidates of a finished search.
    compare_models : Which candidates are tied with the best.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.model_selection import PredefinedSplit
    >>> from sklearn_ndcg import cross_val_query_scores, make_ranking
    >>> X, y, qid = make_ranking(n_queries=60, random_state=0)
    >>> cv = PredefinedSplit(qid % 3)  # 3 folds that keep queries whole
    >>> result = cross_val_query_scores(Ridge(), X, y, qid=qid, cv=cv, k=5)
    >>> result.qid.shape, float(result.score.mean().round(4))
    ((60,), 0.8805)
    """
    scores, _ = _out_of_fold(
        estimator,
        X,
        y,
        qid=qid,
        cv=cv,
        params=params,
        n_jobs=n_jobs,
        metric=metric,
        k=k,
        gain=gain,
        discount=discount,
        ties=ties,
        zero_division=zero_division,
        normalize=normalize,
        response_method=response_method,
    )
    return scores


def _out_of_fold(
    estimator,
    X,
    y,
    *,
    qid,
    cv=None,
    params=None,
    n_jobs=None,
    metric="ndcg",
    k=None,
    gain="linear",
    discount="log2",
    ties="average",
    zero_division=0.0,
    normalize="ideal",
    response_method="auto",
) -> tuple[QueryScores, list[float] | None]:
    """:func:`cross_val_query_scores` of checked parameters, and the mean of each test fold
    as a scorer gives it (the weighted mean of its defined queries; None under a
    repeated splitter)."""
    n_rows = _num_samples(X)
    qid = check_qid(qid, n_rows, "X")
    params = dict(params or {})
    splitter = GroupKFold(5 if cv is None else cv) if cv is None or isinstance(cv, Integral) else cv
    splitter = check_cv(splitter, y, classifier=is_classifier(estimator))
    fit_params = dict(params)
    groups = fit_params.pop("groups", qid)
    options = dict(cv=splitter, scoring=_no_score, n_jobs=n_jobs, error_score="raise")
    takes_groups = _consumes(splitter, "split", "groups")  # others warn that they ignore them
    if _routing_enabled():
        if "qid" not in fit_params and _consumes(estimator, "fit", "qid"):
            fit_params["qid"] = qid
        if takes_groups:
            fit_params["groups"] = groups
    else:
        if "qid" not in fit_params and has_fit_parameter(estimator, "qid"):
            fit_params["qid"] = qid
        if takes_groups:
            options["groups"] = groups
    result = cross_validate(
        estimator,
        X,
        y,
        params=fit_params,
        return_estimator=True,
        return_indices=True,
        **options,
    )
    tests = result["indices"]["test"]
    repetitions = _repetitions(qid, tests)
    weight = params.get("sample_weight")
    folds = [
        query_scores(
            _safe_indexing(y, test),
            ranking_scores(fitted, _safe_indexing(X, test), 1, response_method),
            metric=metric,
            qid=qid[test],
            sample_weight=None if weight is None else _safe_indexing(weight, test),
            k=k,
            gain=gain,
            discount=discount,
            ties=ties,
            zero_division=zero_division,
            normalize=normalize,
        )
        for fitted, test in zip(result["estimator"], tests)
    ]
    ids = np.concatenate([fold.qid for fold in folds])
    order = np.argsort(ids, kind="stable")
    ids = ids[order]
    score = np.concatenate([fold.score for fold in folds])[order]
    weight = np.concatenate([fold.weight for fold in folds])[order]
    if repetitions > 1:  # each query's mean over its test folds, one per repetition
        score = score.reshape(-1, repetitions).mean(axis=1)
        ids, weight = ids[::repetitions], weight[::repetitions]
        return QueryScores(ids, score, weight), None
    return QueryScores(ids, score, weight), [_fold_mean(fold) for fold in folds]


def _fold_mean(fold: QueryScores | QueryBounds) -> float:
    """The mean of one test fold as a scorer gives it: its defined queries, weighted."""
    kept = ~np.isnan(fold.score)
    weight = np.asarray(fold.weight, dtype=float)[kept]
    return float(np.sum(weight * fold.score[kept]) / weight.sum()) if weight.sum() else np.nan


def _repetitions(qid: np.ndarray, tests: list[np.ndarray]) -> int:
    """How many times the splitter tests each query, whole; refuse anything else.

    Every tested query must be tested whole (all its rows in the test fold) and as
    often as every other tested query: once per repetition of a repeated splitter.
    """
    fold = np.concatenate([np.full(len(test), i) for i, test in enumerate(tests)])
    rows = np.concatenate(tests)
    ids, inverse = np.unique(qid, return_inverse=True)
    inverse = inverse.reshape(-1)
    size = np.bincount(inverse, minlength=ids.shape[0])
    tested = inverse[rows]
    pairs, rows_in_pair = np.unique(np.stack([tested, fold]), axis=1, return_counts=True)
    partial = rows_in_pair != size[pairs[0]]
    if partial.any():
        bad = ids[np.unique(pairs[0][partial])[:5]].tolist()
        raise ValueError(
            f"cv splits some queries between training and test (e.g. {bad}); their "
            "NDCG would be computed on part of their documents. Use a splitter that "
            "keeps queries whole, such as GroupKFold with groups=qid (the default)."
        )
    times = np.bincount(pairs[0], minlength=ids.shape[0])
    times = times[times > 0]
    if times.min() != times.max():
        bad = ids[np.flatnonzero(np.bincount(pairs[0], minlength=ids.shape[0]) == times.max())]
        raise ValueError(
            f"cv tests some queries more often than others (e.g. {bad[:5].tolist()} "
            f"{times.max()} times, others {times.min()}); the out-of-fold value of a query "
            "averages its test folds, which needs every query tested equally often: once, "
            "or once per repetition (GroupKFold, RepeatedGroupKFold with groups=qid)."
        )
    return int(times[0])
