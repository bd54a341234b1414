"""SimplestCompetitiveRefit: a ``refit=`` rule that picks the simplest candidate shown
equivalent to the best within a margin (without one, the best)."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np

from .._metrics import QueryScores
from .._validate_params import check_parameters
from .._warn import warn
from ._compare import compare_models
from ._cross_val import _PARAMS, _out_of_fold
from ._search import _candidate, _describe, _names, _ranked_candidates


class SimplestCompetitiveRefit:
    """A ``refit`` rule: the simplest candidate shown equivalent to the best within a margin.

    The ranking analogue of the one-standard-error rule. Given as
    ``refit=`` to :class:`~sklearn.model_selection.GridSearchCV`, it takes the
    ``n_candidates`` best candidates of the search, computes their
    out-of-fold NDCG per query (:func:`cross_val_query_scores`, on the same
    folds), compares each with the best one query by query
    (:func:`compare_models`), and picks the one that ``key`` ranks simplest
    (smallest) among the candidates *shown equivalent* to the best, whose
    mean NDCG is shown within ``margin`` of the best's (the best itself when
    none is).

    Simplicity needs a margin: without one (the default) the rule refits the
    best mean, as ``refit=True`` does, and ``reason_`` says so. Candidates
    merely *not shown different* from the best include, with few queries,
    candidates that are really worse (in simulations, worse by more than 0.01
    NDCG@10 in 16 % of searches at 50 queries), so they are never traded for
    simplicity; the comparison is still made and kept in ``comparison_``.

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
        None: no simpler candidate can be shown good enough, and the rule
        refits the best mean.
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
        Why, in one sentence; without a margin, that simplicity needs one.

    Notes
    -----
    It fits each compared candidate once more per fold. "Not shown different"
    is not "equal": with few queries a real difference goes undetected, which
    is why the rule needs a margin to pick a simpler candidate. The best
    candidate's cross-validated score is optimistic (the winner's curse),
    which makes the others look slightly worse than they are.

    Examples
    --------
    >>> import sklearn
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.model_selection import GridSearchCV, PredefinedSplit
    >>> from sklearn_ndcg import SimplestCompetitiveRefit, make_ndcg_scorer, make_ranking
    >>> X, y, qid = make_ranking(n_queries=60, random_state=0)
    >>> cv = PredefinedSplit(qid % 3)
    >>> refit = SimplestCompetitiveRefit(Ridge(), X, y, qid=qid, cv=cv, k=5, margin=0.01,
    ...                                  key=lambda p: -p["alpha"], random_state=0)
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     search = GridSearchCV(Ridge(), {"alpha": [0.1, 10.0, 1e4]}, cv=cv,
    ...                           scoring=make_ndcg_scorer(k=5), refit=refit)
    ...     search = search.fit(X, y, qid=qid)
    >>> search.best_params_  # shown within 0.01 of the best, and more regularised
    {'alpha': 10.0}
    >>> print(refit.reason_)  # doctest: +NORMALIZE_WHITESPACE
    alpha=10.0: the simplest candidate shown within 0.01 of the best (alpha=0.1)
    on 60 queries (1 of the 2 others is).

    Without a margin the rule refits the best mean:

    >>> refit.margin = None
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     search = search.fit(X, y, qid=qid)
    >>> search.best_params_
    {'alpha': 0.1}
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
        given = {"cv": self.cv, "params": self.params, **self.options}
        unknown = sorted(set(given) - set(_PARAMS))
        if unknown:
            raise TypeError(
                f"SimplestCompetitiveRefit got unknown options {unknown}; the options are "
                f"the metric's of cross_val_query_scores: {sorted(set(_PARAMS) - _DATA)}."
            )
        check_parameters({name: _PARAMS[name] for name in given}, given, "SimplestCompetitiveRefit")
        runs = {
            name: _out_of_fold(
                _candidate(self.estimator, cv_results["params"][i]),
                self.X,
                self.y,
                qid=self.qid,
                **given,
            )
            for name, i in names.items()
        }
        scores = {name: run[0] for name, run in runs.items()}
        _warn_unlike_the_search(cv_results, self.scoring, names, runs)
        self.comparison_ = compare_models(
            scores,
            reference=next(iter(names)),
            method=self.method,
            correction=self.correction,
            confidence_level=self.confidence_level,
            n_resamples=self.n_resamples,
            margin=self.margin,
            random_state=self.random_state,
        )
        best = self.comparison_.reference
        n_queries = _n_queries(scores[best])
        if self.margin is None:
            self.best_index_ = names[best]
            others = len(self.comparison_.not_shown_different) - 1
            self.reason_ = (
                f"{best}: the best candidate; simplicity needs a margin (margin=None), so no "
                f"simpler candidate is refitted ({others} of the {len(names) - 1} others "
                f"{_is_are(others)} not shown different from it on {n_queries} queries, "
                "which does not show them as good)."
            )
            return self.best_index_
        eligible = self.comparison_.equivalent
        kind = f"shown within {self.margin:g} of"
        self.best_index_ = min(
            (names[name] for name in eligible),
            key=lambda i: (self.key(cv_results["params"][i]), ranked.index(i)),
        )
        chosen = next(name for name, i in names.items() if i == self.best_index_)
        if chosen == best:
            self.reason_ = (
                f"{chosen}: the best candidate; no simpler one of the {len(names)} compared "
                f"is {kind} it on {n_queries} queries."
            )
        else:
            self.reason_ = (
                f"{chosen}: the simplest candidate {kind} the best ({best}) on "
                f"{n_queries} queries ({len(eligible) - 1} of the "
                f"{len(names) - 1} others {_is_are(len(eligible) - 1)})."
            )
        return self.best_index_


_DATA = {"estimator", "X", "y", "qid", "n_jobs"}


def _warn_unlike_the_search(cv_results: dict, scoring, names: dict, runs: dict) -> None:
    """Warn when the rule's out-of-fold means are not the search's ``mean_test_score``.

    Each fold's mean is what the search's scorer gave on that fold if the rule was given
    the search's data, folds and metric options; the mean of the fold means is then the
    search's ``mean_test_score`` (to rounding). A repeated splitter is not compared.
    """
    key = "mean_test_score" if scoring is None else f"mean_test_{scoring}"
    if key not in cv_results:  # a single metric under its own name
        key = next(k for k in cv_results if k.startswith("mean_test_"))
    searched = np.asarray(cv_results[key], dtype=float)
    unlike = [
        (name, float(np.mean(folds)), float(searched[i]))
        for name, i in names.items()
        for folds in [runs[name][1]]
        if folds is not None
        and not np.isclose(np.mean(folds), searched[i], rtol=1e-7, atol=1e-9, equal_nan=True)
    ]
    if unlike:
        name, own, theirs = unlike[0]
        warn(
            f"SimplestCompetitiveRefit compares other scores than the search's: its "
            f"out-of-fold mean of {name} is {own:.4f}, the search's {key} {theirs:.4f} "
            f"({len(unlike)} of the {len(names)} candidates differ). Give it the search's "
            "X, y, qid, cv and params, and the metric options of the search's scorer "
            "(k=10 for make_ndcg_scorer(k=10), the same gain, ties, ...).",
            UserWarning,
        )


def _is_are(count: int) -> str:
    """The verb of "{count} of the n others": "1 of the 4 others is", "2 ... are"."""
    return "is" if count == 1 else "are"


def _n_queries(values: QueryScores) -> int:
    return int(np.count_nonzero(~np.isnan(np.asarray(values.score, dtype=float))))


class SimplestTiedRefit(SimplestCompetitiveRefit):
    """Deprecated: use :class:`SimplestCompetitiveRefit`, the same rule under a new name.

    .. deprecated:: 0.3
        The rule never picks "tied" candidates: with a margin it picks among the
        candidates shown equivalent to the best; without one it refits the best.
        ``SimplestTiedRefit`` will be removed in 0.4.

    Parameters
    ----------
    estimator : estimator object
        See :class:`SimplestCompetitiveRefit`.
    X : {array-like, sparse matrix} of shape (n_samples, n_features)
        See :class:`SimplestCompetitiveRefit`.
    y : array-like of shape (n_samples,)
        See :class:`SimplestCompetitiveRefit`.
    qid : array-like of shape (n_samples,)
        See :class:`SimplestCompetitiveRefit`.
    key : callable
        See :class:`SimplestCompetitiveRefit`.
    cv : int, cross-validation generator or iterable, default=None
        See :class:`SimplestCompetitiveRefit`.
    n_candidates : int, default=5
        See :class:`SimplestCompetitiveRefit`.
    scoring : str, default=None
        See :class:`SimplestCompetitiveRefit`.
    params : dict, default=None
        See :class:`SimplestCompetitiveRefit`.
    method : {"randomization", "t", "wilcoxon", "bootstrap"}, default="randomization"
        See :class:`SimplestCompetitiveRefit`.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        See :class:`SimplestCompetitiveRefit`.
    confidence_level : float, default=0.95
        See :class:`SimplestCompetitiveRefit`.
    n_resamples : int, default=9999
        See :class:`SimplestCompetitiveRefit`.
    margin : float > 0, default=None
        See :class:`SimplestCompetitiveRefit`.
    random_state : int, numpy.random.Generator or None, default=None
        See :class:`SimplestCompetitiveRefit`.
    **options : dict
        See :class:`SimplestCompetitiveRefit`.

    Attributes
    ----------
    comparison_ : ModelComparison
        The comparison of the last call.
    best_index_ : int
        The index (into ``cv_results_``) it chose.
    reason_ : str
        Why, in one sentence.

    See Also
    --------
    SimplestCompetitiveRefit : The same rule.

    Examples
    --------
    >>> import warnings
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn_ndcg import SimplestTiedRefit, make_ranking
    >>> X, y, qid = make_ranking(n_queries=10, random_state=0)
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     refit = SimplestTiedRefit(Ridge(), X, y, qid=qid, key=lambda p: -p["alpha"])
    >>> caught[0].category.__name__
    'FutureWarning'
    """

    # SimplestCompetitiveRefit's signature, for help(), the docs and numpydoc's checks
    __signature__ = inspect.signature(SimplestCompetitiveRefit)

    def __init__(self, *args, **kwargs):
        warn(
            "SimplestTiedRefit is now SimplestCompetitiveRefit (the same rule: with a margin "
            "it picks among candidates shown equivalent to the best, never 'tied' ones, and "
            "without one it refits the best); SimplestTiedRefit will be removed in 0.4.",
            FutureWarning,
        )
        super().__init__(*args, **kwargs)
