"""RankingEvaluator: any estimator, fitted with query ids and scored by NDCG."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
from numpy.typing import ArrayLike
from sklearn import config_context
from sklearn.base import BaseEstimator, MetaEstimatorMixin, clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import Pipeline
from sklearn.utils.metadata_routing import MetadataRouter, MethodMapping, process_routing
from sklearn.utils.metaestimators import available_if
from sklearn.utils.validation import check_is_fitted

from ._compat import (
    HasMethods,
    _fit_context,
    _num_samples,
    _routing_enabled,
    _safe_indexing,
    _safe_tags,
    get_tags,
)
from ._metrics import _COMMON_PARAMS, _NDCG_PARAMS, ndcg_score
from ._queries import group_queries, query_weights, rows_by_query
from ._response import ranking_scores
from ._validation import check_qid, check_weight


def _estimator_has(attr: str):
    """Check the fitted estimator if there is one, else the unfitted one."""

    def check(self) -> bool:
        estimator = getattr(self, "estimator_", self.estimator)
        getattr(estimator, attr)  # raises AttributeError with a clear message
        return True

    return check


def _query_form(estimator) -> str | None:
    """How ``estimator.fit`` takes query information: "qid", "group" or None.

    XGBoost's ``XGBRanker`` (and any estimator whose ``fit`` has a ``qid``
    parameter) takes one query id per row; LightGBM's ``LGBMRanker`` (and any
    ``fit`` with a ``group`` parameter) takes the size of each query. Both
    need the rows of a query to be contiguous.
    """
    try:
        parameters = inspect.signature(estimator.fit).parameters
    except (TypeError, ValueError):  # pragma: no cover - builtins, C extensions
        return None
    if "qid" in parameters:
        return "qid"
    if "group" in parameters:
        return "group"
    return None


def _final_step(estimator) -> tuple[str, object]:
    """The estimator that learns (the last step of nested pipelines), and the
    prefix (``"step__"``) of its fit parameters."""
    prefix = ""
    while isinstance(estimator, Pipeline):
        name, estimator = estimator.steps[-1]
        prefix += f"{name}__"
    return prefix, estimator


def _is_xgboost(estimator) -> bool:
    return type(estimator).__module__.split(".")[0] == "xgboost"


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
    gets integer query ids, one whose ``fit`` takes ``group`` (such as
    ``lightgbm.LGBMRanker``) gets the size of each query; for both the rows are
    first stably sorted by query, as these libraries require. Predictions are
    made row by row, so they always come back in the caller's row order. Other
    estimators are fitted on the rows as given, without ``qid``.

    Read more in the :ref:`User Guide <evaluator>`.

    Parameters
    ----------
    estimator : estimator object
        The model to fit and score; it must have ``fit`` and ``predict``. It
        is cloned in :meth:`fit`.
    k : int, default=10
        Only the top ``k`` documents of each query count in :meth:`score`.
        None means all documents.
    gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
        Gain of a document from its relevance label; see :func:`ndcg_score`.

        - "linear": the label itself.
        - "exponential": ``2**label - 1``.
    discount : {"log2", "reciprocal", "none"} or callable, default="log2"
        Weight of each rank; see :func:`ndcg_score`.

        - "log2": ``1 / log2(r + 1)``.
        - "reciprocal": ``1 / r``.
        - "none": 1.
    ties : {"average", "first", "optimistic", "pessimistic"}, default="average"
        How documents with equal scores are ordered; see :func:`ndcg_score`.

        - "average": the expected DCG over all orders of the tied documents.
        - "first": tied documents keep their input order.
        - "optimistic": tied documents by decreasing gain.
        - "pessimistic": tied documents by increasing gain.
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        NDCG of a query with no relevant document; ``np.nan`` leaves such
        queries out of the mean.
    normalize : {"ideal", "minmax"}, default="ideal"
        Divide the DCG by the ideal DCG, or min-max normalise it between the
        worst and the ideal DCG; see :func:`ndcg_score`.

    Attributes
    ----------
    estimator_ : estimator object
        The fitted clone of ``estimator``.
    n_features_in_ : int
        Number of features seen by ``estimator_`` during :meth:`fit`.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of the features seen during :meth:`fit`, if ``estimator_`` has
        them.

    See Also
    --------
    make_ndcg_scorer : A scorer for the same metric, for any estimator.
    ndcg_score : The metric behind :meth:`score`.

    Notes
    -----
    ``fit`` and ``score`` request ``qid`` and ``sample_weight`` by default, and
    ``score`` also ``document_weight``.
    With metadata routing enabled (``sklearn.set_config(enable_metadata_routing=True)``),
    ``GridSearchCV(...).fit(X, y, groups=qid, qid=qid)`` passes each fold's
    query ids to both. **Turn routing on first**: without it, scikit-learn's
    searches pass ``qid`` to ``fit`` only, and :meth:`score` of an evaluator
    fitted with ``qid`` then raises rather than score a whole test fold as one
    query (the search shows NaN scores and this message). An evaluator fitted
    without ``qid`` scores rows without ``qid`` as one query, with a warning.

    :meth:`score` ranks the documents as the scorers do (``response_method="auto"``
    of :func:`make_ndcg_scorer`): a regressor or ranker by ``predict``, a binary
    classifier by its decision function (else the probability of the greater
    class), a classifier of graded labels by its expected label,
    ``predict_proba(X) @ classes_``.

    If ``estimator`` is a :class:`~sklearn.pipeline.Pipeline`, the query
    information and the weights go to its last step.

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

    _parameter_constraints: dict = {
        "estimator": [HasMethods(["fit", "predict"])],
        "k": _COMMON_PARAMS["k"],
        "gain": _COMMON_PARAMS["gain"],
        "discount": _COMMON_PARAMS["discount"],
        "ties": _COMMON_PARAMS["ties"],
        **_NDCG_PARAMS,
    }

    # Requested by default, so that routing passes them without set_*_request.
    __metadata_request__fit = {"qid": True, "sample_weight": True}
    __metadata_request__score = {"qid": True, "sample_weight": True, "document_weight": True}

    def __init__(
        self,
        estimator,
        *,
        k: int | None = 10,
        gain="linear",
        discount="log2",
        ties: str = "average",
        zero_division: float = 0.0,
        normalize: str = "ideal",
    ):
        self.estimator = estimator
        self.k = k
        self.gain = gain
        self.discount = discount
        self.ties = ties
        self.zero_division = zero_division
        self.normalize = normalize

    @_fit_context(prefer_skip_nested_validation=False)  # estimator not validated
    def fit(
        self,
        X: ArrayLike,
        y: ArrayLike,
        qid: ArrayLike | None = None,
        sample_weight: ArrayLike | None = None,
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
            by query) to learning-to-rank estimators, which require it;
            ignored for other estimators.
        sample_weight : array-like of shape (n_samples,), default=None
            Weight of each document, passed to the estimator's ``fit``. For
            ``XGBRanker``, which weighs queries, it must be equal within each
            query.
        **fit_params : dict
            Further parameters for the estimator's ``fit``; with metadata
            routing enabled, those the estimator requested.

        Returns
        -------
        self : RankingEvaluator
            The fitted evaluator.
        """
        if y is None:
            raise ValueError(
                f"This {type(self).__name__} estimator requires y to be passed, but "
                "the target y is None; give one relevance label per document."
            )
        n_samples = _num_samples(y)
        if qid is not None:
            qid = check_qid(qid, n_samples, target="y")
        sample_weight = check_weight(sample_weight, n_samples, "one per document")
        if sample_weight is not None and not sample_weight.any():
            raise ValueError(
                "sample_weight sums to zero; at least one document needs a positive weight."
            )
        params = self._route_fit_params(fit_params)
        self.estimator_ = clone(self.estimator)
        prefix, learner = _final_step(self.estimator_)
        form = _query_form(learner)
        own = {}  # qid or group, and sample_weight, for the learner
        if form is not None:
            X, y, own = self._sort_by_query(X, y, qid, sample_weight, learner, form)
        elif sample_weight is not None:
            own["sample_weight"] = sample_weight
        if prefix:  # a pipeline: hand them to its last step as step__name
            if params:
                raise ValueError(
                    f"{type(self).__name__} passes qid (or group) and sample_weight to "
                    "the last step of a Pipeline; it cannot route the other fit "
                    f"parameters {sorted(params)}. Set them on the steps instead."
                )
            with config_context(enable_metadata_routing=False):
                self.estimator_.fit(X, y, **{prefix + key: v for key, v in own.items()})
        else:
            self.estimator_.fit(X, y, **params, **own)
        self._fitted_with_qid = qid is not None
        if hasattr(self.estimator_, "feature_names_in_"):
            self.feature_names_in_ = self.estimator_.feature_names_in_
        return self

    def _route_fit_params(self, fit_params) -> dict:
        """Parameters for the estimator's ``fit``, other than qid and sample_weight."""
        if not _routing_enabled():
            return dict(fit_params)
        # qid and sample_weight are the evaluator's own: it hands them on itself,
        # in the form the estimator needs, whatever the estimator's requests say.
        return dict(process_routing(self, "fit", **fit_params).estimator.fit)

    def _sort_by_query(self, X, y, qid, sample_weight, learner, form):
        """Stably sort the rows by query; the query information ``learner`` needs."""
        if qid is None:
            raise ValueError(
                f"{type(learner).__name__} learns from queries, so fit needs qid (one "
                "query id per document); got qid=None. With metadata routing enabled, "
                "pass qid=... to the search's fit."
            )
        queries = group_queries(qid, None)
        order = rows_by_query(queries)
        X = _safe_indexing(X, order)
        y = _safe_indexing(y, order)
        if form == "qid":
            own = {"qid": np.repeat(np.arange(queries.ids.shape[0]), queries.sizes)}
        else:
            own = {"group": queries.sizes}
        if sample_weight is not None:
            if _is_xgboost(learner):  # XGBRanker weighs whole queries
                own["sample_weight"] = query_weights(sample_weight, queries)
            else:
                own["sample_weight"] = sample_weight[order]
        return X, y, own

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
        return self.estimator_.predict(X)

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
        return self.estimator_.decision_function(X)

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
        return self.estimator_.predict_proba(X)

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
            a warning (a search without metadata routing passes no qid).
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
        if qid is None and np.ndim(y) == 1:
            self._check_one_query(y, sample_weight)
        return ndcg_score(
            y,
            ranking_scores(self.estimator_, X, np.ndim(y)),
            k=self.k,
            gain=self.gain,
            discount=self.discount,
            ties=self.ties,
            qid=qid,
            sample_weight=sample_weight,
            zero_division=self.zero_division,
            normalize=self.normalize,
            document_weight=document_weight,
        )

    def _check_one_query(self, y, sample_weight) -> None:
        """``score`` without qid: refuse if fitted on queries, else warn."""
        fix = (
            "In a search or cross-validation, call "
            "sklearn.set_config(enable_metadata_routing=True) and pass qid to fit, so "
            "that each test fold gets its query ids."
        )
        if getattr(self, "_fitted_with_qid", False):
            raise ValueError(
                f"{type(self).__name__} was fitted with qid, but score got no qid: "
                f"scoring all {len(y)} rows as one query would pick models by a wrong "
                f"NDCG. Pass qid=... to score. {fix}"
            )
        if sample_weight is not None and np.ptp(np.asarray(sample_weight, float)) > 0:
            raise ValueError(
                "score got no qid, so all rows are one query, which has one weight; "
                f"sample_weight varies. Pass qid=... with the weights. {fix}"
            )
        warnings.warn(
            f"{type(self).__name__}.score got no qid, so all {len(y)} rows are scored "
            f"as one query. Pass qid=...; {fix}",
            UserWarning,
            stacklevel=3,
        )

    @property
    def n_features_in_(self) -> int:
        """Number of features seen during :meth:`fit`."""
        try:
            check_is_fitted(self)
        except NotFittedError as error:
            raise AttributeError(
                f"{type(self).__name__} object has no n_features_in_ attribute."
            ) from error
        return self.estimator_.n_features_in_

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
