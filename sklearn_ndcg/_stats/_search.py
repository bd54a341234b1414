"""Out-of-fold per-query NDCG, and model selection that knows when candidates are tied.

Under a splitter that keeps queries whole (``GroupKFold`` with ``groups=qid``)
every query is tested exactly once, so two candidates can be compared query by
query: hundreds of paired observations instead of a handful of folds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import clone, is_classifier
from sklearn.model_selection import GroupKFold, check_cv, cross_validate
from sklearn.utils.metadata_routing import get_routing_for_object
from sklearn.utils.validation import has_fit_parameter

from .._compat import (
    HasMethods,
    StrOptions,
    _num_samples,
    _routing_enabled,
    _safe_indexing,
    validate_params,
)
from .._engine import check_qid
from .._metrics._ndcg import QueryScores, query_scores
from .._model_selection._evaluator import RankingEvaluator
from .._model_selection._response import ranking_scores
from .._model_selection._scorer import _RESPONSE_METHOD
from .._options import COMMON_PARAMS, NDCG_PARAMS
from ._compare import compare_models

_METRIC_OPTIONS = {
    "metric": [StrOptions({"ndcg", "dcg"})],
    **{name: COMMON_PARAMS[name] for name in ("k", "gain", "discount", "ties")},
    **NDCG_PARAMS,
    "response_method": _RESPONSE_METHOD,
}


def _no_score(estimator, X, y) -> float:
    """cross_validate's scoring when only the fitted estimators are wanted."""
    return 0.0


def _consumes(obj, method: str, param: str) -> bool:
    """Whether ``obj`` requests ``param`` in ``method`` through metadata routing."""
    return param in get_routing_for_object(obj).consumes(method=method, params={param})


@validate_params(
    {
        "estimator": [HasMethods(["fit"])],
        "X": ["array-like", "sparse matrix"],
        "y": ["array-like"],
        "qid": ["array-like"],
        "cv": ["cv_object"],
        "params": [dict, None],
        "n_jobs": [Integral, None],
        **_METRIC_OPTIONS,
    },
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
    ties: str = "average",
    zero_division: float = 0.0,
    normalize: str = "ideal",
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
    return QueryScores(ids, score, weight)


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


def _describe(params: dict) -> str:
    return ", ".join(f"{name}={value!r}" for name, value in sorted(params.items())) or "default"


def _candidate(estimator, params: dict):
    """A fresh copy of ``estimator`` with ``params``; estimators among the values are cloned
    too (as GridSearchCV does), so that the user's ``param_grid`` is never modified."""
    return clone(estimator).set_params(
        **{name: clone(value, safe=False) for name, value in params.items()}
    )


def _names(cv_results: dict, indices: list[int], describe: Callable[[dict], str]) -> dict:
    """``{name: index}``; names that collide get the candidate's index in ``cv_results``."""
    names = [describe(cv_results["params"][i]) for i in indices]
    repeated = {name for name in names if names.count(name) > 1}
    return {
        (f"{name} (candidate {i})" if name in repeated else name): i
        for name, i in zip(names, indices)
    }


def _ranked_candidates(cv_results: dict, scoring: str | None, n_candidates: int) -> list[int]:
    """Indices of the best ``n_candidates`` of a search, best first."""
    ranks = [key for key in cv_results if key.startswith("rank_test_")]
    key = "rank_test_score" if scoring is None else f"rank_test_{scoring}"
    if key not in cv_results:
        if scoring is None and len(ranks) == 1:
            key = ranks[0]
        else:
            names = [rank.removeprefix("rank_test_") for rank in ranks]
            raise ValueError(
                f"the search's results have no {key!r}; name the metric to rank the "
                f"candidates by with scoring= (one of {names})."
            )
    mean = np.asarray(cv_results[key.replace("rank_", "mean_")], dtype=float)
    order = np.argsort(-np.nan_to_num(mean, nan=-np.inf), kind="stable")  # ties: first
    return order[:n_candidates].tolist()


def search_query_scores(
    search,
    X,
    y: ArrayLike,
    *,
    qid: ArrayLike,
    n_candidates: int = 5,
    scoring: str | None = None,
    params: dict | None = None,
    n_jobs: int | None = None,
    describe: Callable[[dict], str] | None = None,
    **options,
) -> dict[str, QueryScores]:
    """Out-of-fold per-query values of the best candidates of a finished search.

    Refits each of the ``n_candidates`` best candidates of ``search``
    (a fitted :class:`~sklearn.model_selection.GridSearchCV` or
    :class:`~sklearn.model_selection.RandomizedSearchCV`) on the search's
    own folds with :func:`cross_val_query_scores`, so that they can be
    compared query by query with :func:`compare_models`. The folds are the
    same as the search's when its ``cv`` is deterministic (``GroupKFold``,
    or a shuffling splitter with a fixed ``random_state``).

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    search : fitted GridSearchCV, RandomizedSearchCV or similar
        Needs ``cv_results_``, ``estimator`` and ``cv``.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        The documents the search was fitted on.
    y : array-like of shape (n_samples,)
        Their relevance labels.
    qid : array-like of shape (n_samples,)
        Their query ids.
    n_candidates : int, default=5
        How many candidates, best first.
    scoring : str, default=None
        For a multi-metric search, the metric that ranks the candidates (a
        key of its ``scoring``, e.g. ``"ndcg@10"``); None means the search's
        only metric.
    params : dict, default=None
        Parameters for ``fit`` and the splitter; see :func:`cross_val_query_scores`.
    n_jobs : int, default=None
        Folds fitted in parallel.
    describe : callable, default=None
        ``describe(params) -> str``, the name of a candidate from its
        parameter dict; None means ``"name=value, ..."``.
    **options : dict
        The metric options of :func:`cross_val_query_scores` (``k``, ``gain``,
        ...). When the search scored with this package's scorer and none is
        given, the scorer's own options are used (for a multi-cutoff scorer,
        those of the cutoff named by ``scoring``).

    Returns
    -------
    scores : dict
        ``{description of the candidate's parameters: QueryScores}``, best
        candidate first. Candidates whose descriptions collide keep their
        own entries, named ``"<description> (candidate <i>)"`` with their
        index ``i`` in ``cv_results_``. The search's estimator and the
        estimators in its parameter grid are cloned, never modified.

    Examples
    --------
    >>> import sklearn
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.model_selection import GridSearchCV, PredefinedSplit
    >>> from sklearn_ndcg import (compare_models, make_ndcg_scorer, make_ranking,
    ...                           search_query_scores)
    >>> X, y, qid = make_ranking(n_queries=60, random_state=0)
    >>> cv = PredefinedSplit(qid % 3)
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     search = GridSearchCV(Ridge(), {"alpha": [0.1, 10.0, 1e4]}, cv=cv,
    ...                           scoring=make_ndcg_scorer(k=5)).fit(X, y, qid=qid)
    ...     scores = search_query_scores(search, X, y, qid=qid, n_candidates=3)
    >>> list(scores)
    ['alpha=0.1', 'alpha=10.0', 'alpha=10000.0']
    >>> comparison = compare_models(scores, random_state=0)
    >>> comparison.not_shown_different  # alpha=1e4 is worse (Holm-adjusted p 0.03)
    ['alpha=0.1', 'alpha=10.0']
    """
    describe = _describe if describe is None else describe
    scores = {}
    ranked = _ranked_candidates(search.cv_results_, scoring, n_candidates)
    for name, i in _names(search.cv_results_, ranked, describe).items():
        candidate = _candidate(search.estimator, search.cv_results_["params"][i])
        scores[name] = cross_val_query_scores(
            candidate,
            X,
            y,
            qid=qid,
            cv=search.cv,
            params=params,
            n_jobs=n_jobs,
            **{**_scorer_options(search.scoring, scoring, candidate), **options},
        )
    return scores


def _scorer_options(scoring, key: str | None, estimator) -> dict:
    """The metric options of this package's scorer (or, scoring by the estimator's
    own ``score``, of a :class:`RankingEvaluator`), else none."""
    if scoring is None and isinstance(estimator, RankingEvaluator):
        names = ("k", "gain", "discount", "ties", "zero_division", "normalize")
        return {name: getattr(estimator, name) for name in names}
    kwargs = dict(getattr(scoring, "_kwargs", None) or {})
    if isinstance(scoring, Mapping) and key is not None:
        kwargs = dict(getattr(scoring.get(key), "_kwargs", None) or {})
    if "ks" in kwargs:  # a multi-cutoff scorer: the cutoff named by key
        ks, metric = kwargs.pop("ks"), kwargs.pop("metric")
        kwargs["metric"] = metric
        kwargs["k"] = int(key.split("@")[1]) if key and "@" in key else int(ks[-1])
    kwargs.pop("response_method", None)
    return kwargs


class SimplestTiedRefit:
    """A ``refit`` rule: the simplest candidate shown equivalent to the best (or not shown worse).

    The ranking analogue of the one-standard-error rule. Given as
    ``refit=`` to :class:`~sklearn.model_selection.GridSearchCV`, it takes the
    ``n_candidates`` best candidates of the search, computes their
    out-of-fold NDCG per query (:func:`cross_val_query_scores`, on the same
    folds), compares each with the best one query by query
    (:func:`compare_models`), and picks the one that ``key`` ranks simplest
    (smallest) among

    - with a ``margin``: the candidates *shown equivalent* to the best, whose
      mean NDCG is shown within ``margin`` of the best's (the best itself
      when none is);
    - without: the candidates *not shown different* from the best, whose
      difference is not significant. With few queries this includes
      candidates that are really worse; give a margin to rule them out.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    estimator : estimator object
        The search's estimator; cloned, never modified.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        The documents the search is fitted on.
    y : array-like of shape (n_samples,)
        Their relevance labels.
    qid : array-like of shape (n_samples,)
        Their query ids.
    key : callable
        ``key(params)`` for a candidate's parameter dict; smaller is simpler
        (e.g. ``lambda p: p["max_depth"]``, or ``lambda p: -p["alpha"]`` for
        stronger regularisation). Ties in ``key`` go to the better candidate.
    cv : int, cross-validation generator or iterable, default=None
        The search's ``cv``; see :func:`cross_val_query_scores`.
    n_candidates : int, default=5
        How many of the best candidates are compared.
    scoring : str, default=None
        For a multi-metric search, the metric that ranks the candidates.
    params : dict, default=None
        Parameters for ``fit`` and the splitter.
    method : {"randomization", "t", "wilcoxon", "bootstrap"}, default="randomization"
        The paired test; see :func:`paired_test`.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        The adjustment for several comparisons; see :func:`compare_models`.
    confidence_level : float, default=0.95
        One minus the significance level of the tests.
    n_resamples : int, default=9999
        Resamples of the randomization and bootstrap methods.
    margin : float > 0, default=None
        The equivalence margin of NDCG (e.g. 0.01); see :func:`compare_models`.
    random_state : int, numpy.random.Generator or None, default=None
        Seed of the resampling.
    **options : dict
        Metric options of :func:`cross_val_query_scores` (``k``, ``gain``,
        ...); use the same as the search's scorer.

    Attributes
    ----------
    comparison_ : ModelComparison
        The comparison of the last call.
    best_index_ : int
        The index (into ``cv_results_``) it chose.
    reason_ : str
        Why, in one sentence.

    Notes
    -----
    It fits each compared candidate once more per fold. "Not shown different"
    is not "equal": with few queries a real difference goes undetected, and
    the best candidate's cross-validated score is optimistic (the winner's
    curse), which makes the others look slightly worse than they are.

    Examples
    --------
    >>> import sklearn
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.model_selection import GridSearchCV, PredefinedSplit
    >>> from sklearn_ndcg import SimplestTiedRefit, make_ndcg_scorer, make_ranking
    >>> X, y, qid = make_ranking(n_queries=60, random_state=0)
    >>> cv = PredefinedSplit(qid % 3)
    >>> refit = SimplestTiedRefit(Ridge(), X, y, qid=qid, cv=cv, k=5,
    ...                           key=lambda p: -p["alpha"], random_state=0)
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     search = GridSearchCV(Ridge(), {"alpha": [0.1, 10.0, 1e4]}, cv=cv,
    ...                           scoring=make_ndcg_scorer(k=5), refit=refit)
    ...     search = search.fit(X, y, qid=qid)
    >>> search.best_params_  # not shown different from the best, and more regularised
    {'alpha': 10.0}

    With a margin of 0.01, alpha=10 must be shown within 0.01 of the best:

    >>> refit.margin = 0.01
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     search = search.fit(X, y, qid=qid)
    >>> print(refit.reason_)  # doctest: +NORMALIZE_WHITESPACE
    alpha=10.0: the simplest candidate shown within 0.01 of the best (alpha=0.1)
    on 60 queries (1 of the 2 others are).
    """

    def __init__(
        self,
        estimator,
        X,
        y,
        *,
        qid,
        key: Callable[[dict], object],
        cv=None,
        n_candidates: int = 5,
        scoring: str | None = None,
        params: dict | None = None,
        method: str = "randomization",
        correction: str | None = "holm",
        confidence_level: float = 0.95,
        n_resamples: int = 9999,
        margin: float | None = None,
        random_state=None,
        **options,
    ):
        self.estimator = estimator
        self.X, self.y, self.qid = X, y, qid
        self.key = key
        self.cv = cv
        self.n_candidates = n_candidates
        self.scoring = scoring
        self.params = params
        self.method = method
        self.correction = correction
        self.confidence_level = confidence_level
        self.n_resamples = n_resamples
        self.margin = margin
        self.random_state = random_state
        self.options = options

    def __call__(self, cv_results: dict) -> int:
        """The index of the chosen candidate in ``cv_results``."""
        ranked = _ranked_candidates(cv_results, self.scoring, self.n_candidates)
        names = _names(cv_results, ranked, _describe)
        scores = {
            name: cross_val_query_scores(
                _candidate(self.estimator, cv_results["params"][i]),
                self.X,
                self.y,
                qid=self.qid,
                cv=self.cv,
                params=self.params,
                **self.options,
            )
            for name, i in names.items()
        }
        self.comparison_ = compare_models(
            scores,
            baseline=next(iter(names)),
            method=self.method,
            correction=self.correction,
            confidence_level=self.confidence_level,
            n_resamples=self.n_resamples,
            margin=self.margin,
            random_state=self.random_state,
        )
        if self.margin is None:
            eligible = self.comparison_.not_shown_different
            kind = "not shown different from"
        else:
            eligible = self.comparison_.equivalent
            kind = f"shown within {self.margin:g} of"
        self.best_index_ = min(
            (names[name] for name in eligible),
            key=lambda i: (self.key(cv_results["params"][i]), ranked.index(i)),
        )
        chosen = next(name for name, i in names.items() if i == self.best_index_)
        best = self.comparison_.reference
        if chosen == best:
            self.reason_ = (
                f"{chosen}: the best candidate; no simpler one of the {len(names)} compared "
                f"is {kind} it on {_n_queries(scores[best])} queries."
            )
        else:
            self.reason_ = (
                f"{chosen}: the simplest candidate {kind} the best ({best}) on "
                f"{_n_queries(scores[best])} queries ({len(eligible) - 1} of the "
                f"{len(names) - 1} others are)."
            )
        return self.best_index_


def _n_queries(values: QueryScores) -> int:
    return int(np.count_nonzero(~np.isnan(np.asarray(values.score, dtype=float))))
