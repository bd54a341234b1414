"""search_query_scores: out-of-fold per-query values of the best candidates of a finished
search, and the helpers that name and rank a search's candidates."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import clone

from .._metrics import QueryScores
from .._model_selection._evaluator import RankingEvaluator
from ._cross_val import cross_val_query_scores


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
