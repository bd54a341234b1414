"""RankingEvaluator: any estimator, fitted with query ids and scored by NDCG."""

from __future__ import annotations

import copy
from numbers import Real

import numpy as np
from numpy.typing import ArrayLike
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone
from sklearn.exceptions import NotFittedError
from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping, process_routing
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from .._compat import _fit_context, _routing_enabled, _safe_tags, get_tags
from .._engine import RankingOptions, check_qid
from .._metrics import ndcg_score
from .._options import (
    COMMON_PARAMS,
    NDCG_PARAMS,
    QID_COLUMN,
    UNJUDGED_QUERIES,
    ranking_options,
)
from .._validate_params import HasMethods, Integers, Interval, StrOptions, sklearn_constraints
from ._cut_queries import CUT_QUERIES, check_one_query, query_rows, warn_cut_queries
from ._early_stopping import hold_out_queries, stop_early
from ._fitting import check_fit_input, final_step, fit_estimator
from ._learners import adapter_for
from ._qid_column import split_qid_column
from ._response import ranking_scores


def _estimator_has(attr: str):
    """Check the fitted estimator if there is one, else the unfitted one."""

    def check(self) -> bool:
        estimator = getattr(self, "estimator_", self.estimator)
        getattr(estimator, attr)  # raises AttributeError with a clear message
        return True

    return check


class RankingEvaluator(MetaEstimatorMixin, BaseEstimator):
    """Fit any estimator on query-grouped data and score it by NDCG@k.

    Wraps a regressor, a classifier or a learning-to-rank model so that
    scikit-learn's model selection tools (:class:`~sklearn.model_selection.GridSearchCV`,
    :func:`~sklearn.model_selection.cross_validate`, ...) rank its candidates
    by NDCG with their default ``scoring=None``: :meth:`score` returns NDCG@k
    of the wrapped estimator's scores, averaged over the queries given by
    ``qid``.

    Learning-to-rank models get the query information in the form they need:
    an estimator whose ``fit`` takes ``qid`` (such as ``xgboost.XGBRanker``)
    or ``group_id`` (``catboost.CatBoostRanker``) gets integer query ids, one
    whose ``fit`` takes ``group`` (such as ``lightgbm.LGBMRanker``) gets the
    size of each query; for all of them the rows are first stably sorted by
    query, as these libraries require. Predictions are made row by row, so
    they always come back in the caller's row order. Other estimators are
    fitted on the rows as given, without ``qid``.

    The query ids come as metadata (``fit(X, y, qid=...)``, routed by
    scikit-learn's searches), or, for tuners and tools that cannot route
    metadata (Optuna's ``OptunaSearchCV``, ``permutation_importance``), in a
    column of ``X`` named by ``qid=``. With ``early_stopping``, boosted models
    stop training on the NDCG of validation queries split off the training
    rows.

    Read more in the :ref:`User Guide <evaluator>`.

    Parameters
    ----------
    estimator : estimator object
        The model to fit and score; it must have ``fit`` and ``predict``. It
        is cloned in :meth:`fit`.
    qid : str, int or None, default=None
        The column of ``X`` that holds the query id of each row: a column
        name of a pandas or polars DataFrame, or a column position (negative
        counts from the end) of any ``X``. The column is removed before the
        estimator sees ``X``, in :meth:`fit`, :meth:`predict` and
        :meth:`score`, and gives the queries of :meth:`fit` and
        :meth:`score`; ``X`` then carries its query ids through any tool that
        splits rows. None means the query ids come as the ``qid`` argument of
        :meth:`fit` and :meth:`score`.
    k : int, default=10
        Only the top ``k`` documents of each query count (the cutoff of NDCG@k and DCG@k),
        in the DCG and in the ideal DCG. None means all documents. The default is 10, not
        None as elsewhere: the evaluator is the score a search selects models with, and an
        NDCG without cutoff over long queries is dominated by the order of the tail, which a
        ranked list's user never sees; NDCG@10 is also what LightGBM, XGBoost and CatBoost
        rankers report for model selection.
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
    early_stopping : int or None, default=None
        Stop boosting when the NDCG\\@k of the validation queries (with the
        options above, as :meth:`score` computes it, weighted by ``sample_weight``)
        has not improved for this many rounds. LightGBM, XGBoost and CatBoost
        models then keep the model of the best round; scikit-learn's
        HistGradientBoosting keeps its last round, ``early_stopping`` rounds after
        the best (its own early stopping does so; ``validation_scores_`` shows
        both). The validation queries are a random ``validation_fraction`` of the
        training queries, whole queries, left out of training. For LightGBM,
        XGBoost and CatBoost models and scikit-learn's HistGradientBoosting
        (scikit-learn >= 1.7); each gets the validation rows in its own form (see
        Notes). None trains every round the estimator is configured for.
    validation_fraction : float, default=0.1
        Share of the training queries held out for ``early_stopping``, in
        (0, 1); at least one query.
    random_state : int, RandomState instance or None, default=None
        Which queries ``early_stopping`` holds out. Pass an int for the same
        split on every call, e.g. to compare searches on identical folds.
    early_stopping_scoring : scorer or None, default=None
        What ``early_stopping`` watches: None for the NDCG\\@k above of the held-out
        labels; a scorer of :func:`~sklearn_ndcg.make_counterfactual_dcg_scorer` (any
        of its estimators, clipped or not) for its counterfactual DCG of the held-out
        queries, from their clicks (``y``) and their ``logged_rank``, which :meth:`fit`
        then needs, with ``logging_probability`` under stochastic logging (required
        by "snips") and ``reward_model`` for "dr"; with ``sample_weight``, the
        weighted mean over the logged rankings. Use it when ``y`` are logged clicks:
        their NDCG rewards agreeing with the logger.
    cut_queries : {"warn", "ignore"}, default="warn"
        What :meth:`score` does when a scored query id also had rows in :meth:`fit` and
        is scored on other rows: "warn" (a splitter
        such as ``KFold`` cut the query between training and test; use ``GroupKFold``
        with ``groups=qid``), or "ignore" (a separate test set whose query ids restart
        at 0 names other queries by the training's ids). Scoring the training rows
        themselves (``return_train_score=True``) is silent.

    Attributes
    ----------
    estimator_ : estimator object
        The fitted clone of ``estimator``.
    n_features_in_ : int
        Number of features seen during :meth:`fit`, the ``qid`` column
        included.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of the features seen during :meth:`fit`, if ``X`` had them.
    validation_scores_ : ndarray of shape (n_evaluations,)
        With ``early_stopping``: the NDCG\\@k of the validation queries after
        each round the model was evaluated (the first value may come before
        the first round); their counterfactual DCG with ``early_stopping_scoring``.

    See Also
    --------
    make_ndcg_scorer : A scorer for the same metric, for any estimator.
    ndcg_score : The metric behind :meth:`score`.

    Notes
    -----
    ``fit`` and ``score`` request ``qid`` and ``sample_weight`` by default,
    ``fit`` also ``logged_rank``, ``logging_probability`` and ``reward_model``, and
    ``score`` also ``document_weight``.
    With metadata routing enabled (``sklearn.set_config(enable_metadata_routing=True)``),
    ``GridSearchCV(...).fit(X, y, groups=qid, qid=qid)`` passes each fold's
    query ids to both. **Turn routing on first**: without it, scikit-learn's
    searches pass ``qid`` to ``fit`` only, and :meth:`score` of an evaluator
    fitted with ``qid`` then raises rather than score a whole test fold as one
    query (the search shows NaN scores and this message). With routing enabled,
    :meth:`score` without ``qid`` raises as well (a search given ``groups=qid``
    but no ``qid``), as the NDCG scorer does. Otherwise an evaluator fitted
    without ``qid`` scores rows without ``qid`` as one query, with a warning.

    :meth:`score` ranks the documents as the scorers do (``response_method="auto"``
    of :func:`make_ndcg_scorer`): a regressor or ranker by ``predict``, a binary
    classifier by its decision function (else the probability of the greater
    class), a classifier of graded labels by its expected label,
    ``predict_proba(X) @ classes_``.

    If ``estimator`` is a :class:`~sklearn.pipeline.Pipeline`, the query
    information and the weights go to its last step.

    CatBoost 1.2.10 models given ``cat_features`` fail scikit-learn's
    ``clone`` (catboost issue #3078); the evaluator clones them itself, so
    ``RankingEvaluator(CatBoostRanker(cat_features=[...]))`` works in any
    search, with its parameters searched as ``estimator__depth`` etc. A search
    also clones the *values* of its grid, beyond the evaluator's reach: such a
    model as a value of ``{"estimator": [...]}`` still fails there.

    Tuners without metadata routing, such as Optuna's ``OptunaSearchCV``,
    pass ``fit`` parameters to ``fit`` but nothing to ``score``: give the query
    ids as a column of ``X`` with ``qid=<column>`` and ``groups=`` for the
    splitter, and every fold is scored by its own queries. ``qid=<column>``
    and a ``qid`` argument are exclusive.

    With ``early_stopping``, LightGBM gets ``eval_set`` (and ``eval_group``),
    this package's NDCG as its only ``eval_metric`` and the
    ``lightgbm.early_stopping`` callback; XGBoost a training callback that
    scores the validation rows after each round and keeps the trees of the
    best round; CatBoost ``eval_set`` as a ``Pool`` with ``group_id``, the NDCG
    as its ``eval_metric``, ``early_stopping_rounds`` and
    ``use_best_model=True``; HistGradientBoosting ``X_val``, ``y_val``, the
    NDCG as its ``scoring`` and ``n_iter_no_change``, and keeps its last round
    (scikit-learn has no option to keep the best). The validation split is
    made inside :meth:`fit`, from the rows it gets, so in a search it comes
    out of each training fold and never sees the test fold.

    Examples
    --------
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn_ndcg import RankingEvaluator, make_ranking
    >>> X, y, qid = make_ranking(n_queries=20, random_state=0)
    >>> model = RankingEvaluator(Ridge(), k=5).fit(X, y, qid=qid)
    >>> round(model.score(X, y, qid=qid), 3)
    0.829
    >>> model.get_params()["estimator__alpha"]
    1.0

    The same with the query ids in a column of X (here the last), as tuners that
    route no metadata need; the score is the one above:

    >>> import numpy as np
    >>> X_qid = np.column_stack([X, qid])
    >>> model = RankingEvaluator(Ridge(), k=5, qid=-1).fit(X_qid, y)
    >>> round(model.score(X_qid, y), 3)
    0.829

    Tuned by NDCG\\@10 in a grid search, folds split by query:

    >>> import sklearn
    >>> from sklearn.dummy import DummyRegressor
    >>> from sklearn.model_selection import GridSearchCV, GroupKFold
    >>> with sklearn.config_context(enable_metadata_routing=True):
    ...     search = GridSearchCV(RankingEvaluator(Ridge()),
    ...                           {"estimator": [DummyRegressor(), Ridge()]},
    ...                           cv=GroupKFold(3))
    ...     search = search.fit(X, y, groups=qid, qid=qid)
    >>> search.best_params_
    {'estimator': Ridge()}
    >>> search.cv_results_["mean_test_score"].round(1)
    array([0.4, 0.9])
    """

    # scikit-learn's objects: BaseEstimator._validate_params checks with its own function
    _parameter_constraints: dict = sklearn_constraints(
        {
            "estimator": [HasMethods(["fit", "predict"])],
            "qid": QID_COLUMN,
            "k": COMMON_PARAMS["k"],
            "gain": COMMON_PARAMS["gain"],
            "discount": COMMON_PARAMS["discount"],
            "ties": COMMON_PARAMS["ties"],
            **NDCG_PARAMS,
            **UNJUDGED_QUERIES,
            "early_stopping": [Integers(1), None],
            "early_stopping_scoring": "no_validation",  # checked in fit
            "validation_fraction": [Interval(Real, 0, 1, closed="neither")],
            "random_state": ["random_state"],
            "cut_queries": [StrOptions(set(CUT_QUERIES))],
        }
    )

    # Requested by default, so that routing passes them without set_*_request.
    __metadata_request__fit = {
        "qid": True,
        "sample_weight": True,
        "logged_rank": True,
        "logging_probability": True,
        "reward_model": True,
    }
    __metadata_request__score = {"qid": True, "sample_weight": True, "document_weight": True}

    def __init__(
        self,
        estimator,
        *,
        qid: str | int | None = None,
        k: int | None = 10,
        gain="linear",
        discount="log2",
        ties: str = "average",
        zero_division: float = 0.0,
        normalize: str = "ideal",
        unjudged_queries: str = "drop",
        early_stopping: int | None = None,
        validation_fraction: float = 0.1,
        random_state=None,
        early_stopping_scoring=None,
        cut_queries: str = "warn",
    ):
        self.estimator = estimator
        self.qid = qid
        self.k = k
        self.gain = gain
        self.discount = discount
        self.ties = ties
        self.zero_division = zero_division
        self.normalize = normalize
        self.unjudged_queries = unjudged_queries
        self.early_stopping = early_stopping
        self.validation_fraction = validation_fraction
        self.random_state = random_state
        self.early_stopping_scoring = early_stopping_scoring
        self.cut_queries = cut_queries

    @_fit_context(prefer_skip_nested_validation=False)  # estimator not validated
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        qid: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        logged_rank: ArrayLike | None = None,
        logging_probability: ArrayLike | None = None,
        reward_model: ArrayLike | None = None,
        **fit_params,
    ) -> RankingEvaluator:
        """Fit a clone of the estimator, giving it the query ids it needs.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Features of each document, in any format the estimator accepts.
        y : array-like of shape (n_samples,)
            Relevance label of each document.
        qid : array-like of shape (n_samples,), default=None
            Query id of each document, in any order. Passed on (rows sorted
            by query) to learning-to-rank estimators, which require it, and
            used to hold out validation queries for ``early_stopping``;
            ignored otherwise. Not with the evaluator's ``qid`` column.
        sample_weight : array-like of shape (n_samples,), default=None
            Weight of each document, passed to the estimator's ``fit``. For
            ``XGBRanker``, which weighs queries, it must be equal within each
            query.
        logged_rank : array-like of shape (n_samples,), default=None
            The rank at which each document was logged, for ``early_stopping`` on
            the counterfactual DCG of ``early_stopping_scoring`` (requested by
            default); ignored otherwise.
        logging_probability : array-like of shape (n_samples,), default=None
            For ``early_stopping_scoring`` under stochastic logging (needed by its
            ``estimator="snips"``): the probability that the logger put each document
            at its logged rank (requested by default); ignored otherwise.
        reward_model : array-like of shape (n_samples,), default=None
            For ``early_stopping_scoring`` with ``estimator="dr"`` (needed there): the
            predicted relevance of each document (requested by default); ignored
            otherwise.
        **fit_params : dict
            Further parameters for the estimator's ``fit``; with metadata
            routing enabled, those the estimator requested.

        Returns
        -------
        self : RankingEvaluator
            The fitted evaluator.
        """
        X_in = X
        X, qid = self._query_ids(X, qid, "fit")
        for attribute in ("feature_names_in_", "validation_scores_"):  # of a previous fit
            self.__dict__.pop(attribute, None)
        qid, sample_weight = check_fit_input(type(self).__name__, y, qid, sample_weight)
        self._training_queries = query_rows(X, qid)
        params = self._route_fit_params(fit_params)
        self.estimator_ = adapter_for(self.estimator).clone()
        prefix, learner = final_step(self.estimator_)
        adapter = adapter_for(learner)
        validation = None
        rounds = self.early_stopping
        if rounds is not None:
            rows, validation = hold_out_queries(
                X,
                y,
                qid,
                sample_weight,
                self.validation_fraction,
                self.random_state,
                type(self).__name__,
                prefix=prefix,
                scoring=self.early_stopping_scoring,
                log_columns=dict(
                    logged_rank=logged_rank,
                    logging_probability=logging_probability,
                    reward_model=reward_model,
                ),
            )
            X, y, qid, sample_weight = rows[:4]
        training = adapter.fit_input(X, y, qid, sample_weight)
        monitor, stopping = None, {}
        if rounds is not None and validation is not None:  # held out above
            monitor, stopping = stop_early(
                adapter,
                training,
                validation,
                rounds,
                self._ranking_options(),
                self.early_stopping_scoring,
                rows,
            )
        fit_estimator(
            self.estimator_, adapter, training, params, stopping, prefix, type(self).__name__
        )
        if monitor is not None:
            adapter.finish_early_stopping()
            self.validation_scores_ = np.asarray(monitor.history)
        self._fitted_with_qid = qid is not None
        self._set_feature_names(X_in)
        return self

    def _set_feature_names(self, X_in) -> None:
        """``feature_names_in_``: of X (its ``qid`` column included), else the estimator's."""
        if self.qid is not None and hasattr(X_in, "columns"):
            self.feature_names_in_ = np.asarray([str(c) for c in X_in.columns], dtype=object)
        elif hasattr(self.estimator_, "feature_names_in_"):
            self.feature_names_in_ = self.estimator_.feature_names_in_

    def _query_ids(self, X, qid, method: str):
        """X without the ``qid`` column, and the query ids (column or argument)."""
        if self.qid is None:
            return X, qid
        if qid is not None:
            raise ValueError(
                f"{type(self).__name__}(qid={self.qid!r}) reads the query ids from that "
                f"column of X, and {method} got qid=... as well; give one of the two."
            )
        return split_qid_column(X, self.qid)

    def _features(self, X):
        """The columns of X the estimator sees: all but the ``qid`` column."""
        return X if self.qid is None else split_qid_column(X, self.qid)[0]

    def _route_fit_params(self, fit_params) -> dict:
        """Parameters for the estimator's ``fit``, other than qid and sample_weight."""
        if not _routing_enabled():
            return dict(fit_params)
        # qid and sample_weight are the evaluator's own: it hands them on itself,
        # in the form the estimator needs, whatever the estimator's requests say.
        return dict(process_routing(self, "fit", **fit_params).estimator.fit)

    def _metric_options(self) -> dict:
        """The ``ndcg_score`` keywords of :meth:`score`."""
        return dict(
            k=self.k,
            gain=self.gain,
            discount=self.discount,
            ties=self.ties,
            zero_division=self.zero_division,
            normalize=self.normalize,
            unjudged_queries=self.unjudged_queries,
        )

    def _ranking_options(self) -> RankingOptions:
        """The options of :meth:`score`, for the NDCG that early stopping watches."""
        return ranking_options(**self._metric_options())

    @available_if(_estimator_has("predict"))
    def predict(self, X: ArrayLike) -> np.ndarray:
        """Predict with the fitted estimator, in the order of the rows of ``X``.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Documents to score.

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
            The estimator's predictions.
        """
        check_is_fitted(self)
        return self.estimator_.predict(self._features(X))

    @available_if(_estimator_has("decision_function"))
    def decision_function(self, X: ArrayLike) -> np.ndarray:
        """Call ``decision_function`` of the fitted estimator.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Documents to score.

        Returns
        -------
        scores : ndarray
            The estimator's decision function.
        """
        check_is_fitted(self)
        return self.estimator_.decision_function(self._features(X))

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X: ArrayLike) -> np.ndarray:
        """Call ``predict_proba`` of the fitted estimator.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Documents to score.

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            The estimator's class probabilities.
        """
        check_is_fitted(self)
        return self.estimator_.predict_proba(self._features(X))

    def score(
        self,
        X: ArrayLike,
        y: ArrayLike,
        qid: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
        document_weight: ArrayLike | None = None,
    ) -> float:
        """NDCG@k of the estimator's scores, averaged over queries.

        Parameters
        ----------
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            Documents to rank.
        y : array-like of shape (n_samples,)
            True relevance label of each document.
        qid : array-like of shape (n_samples,), default=None
            Query id of each document. None means all rows are one query, with
            a warning (a search without metadata routing passes no qid), unless
            the evaluator's ``qid`` names the column of ``X`` that holds them;
            refused with metadata routing enabled or after a fit with ``qid``.
        sample_weight : array-like of shape (n_samples,), default=None
            Weight of each query in the mean, given per document (equal within
            a query).
        document_weight : array-like of shape (n_samples,), default=None
            Weight of each document's gain in the DCG (e.g. an inverse
            propensity); see :func:`ndcg_score`.

        Returns
        -------
        score : float
            The mean NDCG@k over queries, as :func:`ndcg_score` computes it.
        """
        check_is_fitted(self)
        X, qid = self._query_ids(X, qid, "score")
        if qid is None and np.ndim(y) == 1:
            check_one_query(
                type(self).__name__, y, sample_weight, getattr(self, "_fitted_with_qid", False)
            )
            qid = np.zeros(np.shape(y)[0], dtype=np.intp)  # the one query it warned of
        score = ndcg_score(
            y,
            ranking_scores(self.estimator_, X, np.ndim(y)),
            qid=qid,
            sample_weight=sample_weight,
            document_weight=document_weight,
            **self._metric_options(),
        )
        if self.cut_queries == "warn" and np.ndim(y) == 1:  # qid checked by ndcg_score
            scored = query_rows(X, check_qid(qid, np.shape(y)[0], target="y"))
            warn_cut_queries(type(self).__name__, getattr(self, "_training_queries", None), scored)
        return score

    def __sklearn_clone__(self):
        # as BaseEstimator's, but each library clones its models (CatBoost's own way)
        params = self.get_params(deep=False)
        estimator = adapter_for(params.pop("estimator")).clone()
        new = type(self)(estimator, **{key: clone(v, safe=False) for key, v in params.items()})
        if hasattr(self, "_metadata_request"):  # set_fit_request / set_score_request
            new._metadata_request = copy.deepcopy(self._metadata_request)
        return new

    @property
    def n_features_in_(self) -> int:
        """Number of features seen during :meth:`fit`."""
        try:
            check_is_fitted(self)
        except NotFittedError as error:
            raise AttributeError(
                f"{type(self).__name__} object has no n_features_in_ attribute."
            ) from error
        return self.estimator_.n_features_in_ + (self.qid is not None)  # the qid column

    def get_metadata_routing(self) -> MetadataRouter:
        """Get the metadata routing of this object.

        ``qid`` and ``sample_weight`` (and ``document_weight`` in ``score``) are
        consumed by the evaluator itself
        (requested by default); other ``fit`` metadata goes to the estimator's
        ``fit`` if it requests it.

        Returns
        -------
        routing : MetadataRouter
            The routing information.
        """
        return (
            MetadataRouter(owner=self)
            .add_self_request(self)
            .add(
                estimator=self.estimator,
                method_mapping=MethodMapping().add(caller="fit", callee="fit"),
            )
        )

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self.estimator)
        tags.input_tags.sparse = inner.input_tags.sparse
        tags.input_tags.allow_nan = inner.input_tags.allow_nan
        tags.input_tags.categorical = inner.input_tags.categorical
        tags.input_tags.string = inner.input_tags.string
        tags.target_tags.required = True
        tags.non_deterministic = inner.non_deterministic
        return tags

    def _more_tags(self) -> dict:  # scikit-learn < 1.6
        return {
            "allow_nan": _safe_tags(self.estimator, key="allow_nan"),
            "X_types": _safe_tags(self.estimator, key="X_types"),
            "non_deterministic": _safe_tags(self.estimator, key="non_deterministic"),
            "requires_y": True,
        }
