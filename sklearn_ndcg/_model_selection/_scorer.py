"""make_ndcg_scorer and make_dcg_scorer: NDCG@k and DCG@k for model selection."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from numbers import Integral

import numpy as np
from numpy.typing import ArrayLike
from sklearn import config_context, get_config

from .._compat import _Scorer
from .._engine import weighted_mean
from .._metrics import at_cutoffs, dcg_score, ndcg_score
from .._options import (
    COMMON_PARAMS,
    DEFAULT_TIES,
    NDCG_PARAMS,
    QID_COLUMN,
    REPLACE_UNDEFINED,
    UNJUDGED_QUERIES,
    ZERO_DIVISION,
    check_cutoffs,
    resolve_zero_division,
)
from .._validate_params import StrOptions, validate_params
from ._qid_column import split_qid_column
from ._response import RESPONSE_METHODS, check_response_method, ranking_scores

_OPTIONS = {name: COMMON_PARAMS[name] for name in ("gain", "discount", "ties")}
_OPTIONS["k"] = [*COMMON_PARAMS["k"], list, tuple, np.ndarray]  # several cutoffs: a dict
_RESPONSE_METHOD = [StrOptions({"auto", *RESPONSE_METHODS}), tuple, list]


class _RankingScorer(_Scorer):
    """A scikit-learn scorer that ranks by :func:`ranking_scores`.

    Called directly, ``scorer(estimator, X, y, qid=qid)`` works with metadata
    routing on or off: routing is how a search passes ``qid``, not a
    condition for passing it by hand. With ``qid_column``, the query ids are
    read from that column of X instead (X reaches the estimator whole).
    """

    def __init__(self, score_func, kwargs, response_method, qid_column=None):
        check_response_method(response_method)
        self._ranking_response = response_method
        self._qid_column = qid_column
        # scikit-learn reads _response_method (multi-metric caching): a real method
        auto = isinstance(response_method, str) and response_method == "auto"
        super().__init__(score_func, 1, kwargs, RESPONSE_METHODS if auto else response_method)

    def __repr__(self) -> str:
        text = (
            super()
            .__repr__()
            .replace(
                f"response_method={self._response_method!r}",
                f"response_method={self._ranking_response!r}",
            )
        )
        if self._qid_column is None:
            return text
        return f"{text[:-1]}, qid={self._qid_column!r})"

    def __call__(
        self, estimator, X, y_true, sample_weight=None, *, qid=None, document_weight=None, pool=None
    ):
        metadata = {"qid": qid, "sample_weight": sample_weight}
        for name, value in (("document_weight", document_weight), ("pool", pool)):
            if value is not None:
                metadata[name] = value
        return self._score(None, estimator, X, y_true, **metadata)

    def _score(self, method_caller, estimator, X, y_true, **kwargs):
        if self._qid_column is not None:
            if kwargs.get("qid") is not None:
                raise ValueError(
                    f"This scorer reads the query ids from the column qid="
                    f"{self._qid_column!r} of X, and got qid=... as well; give one of "
                    "the two (make the scorer without qid= to take routed query ids)."
                )
            kwargs["qid"] = split_qid_column(X, self._qid_column)[1]
        y_score = ranking_scores(estimator, X, np.ndim(y_true), self._ranking_response)
        return self._score_func(y_true, y_score, **{**self._kwargs, **kwargs})


def _ndcg_score(y_true, y_score, *, qid=None, sample_weight=None, **options) -> float:
    """:func:`ndcg_score`, refusing 1-D targets that come without query ids."""
    _check_scorer_input(y_true, y_score, qid, "NDCG")
    return ndcg_score(y_true, y_score, qid=qid, sample_weight=sample_weight, **options)


def _dcg_score(y_true, y_score, *, qid=None, sample_weight=None, **options) -> float:
    """:func:`dcg_score`, refusing 1-D targets that come without query ids."""
    _check_scorer_input(y_true, y_score, qid, "DCG")
    return dcg_score(y_true, y_score, qid=qid, sample_weight=sample_weight, **options)


def _at_cutoffs(y_true, y_score, *, ks, metric, qid=None, sample_weight=None, **options) -> dict:
    """``{"ndcg@k": value}`` for every k in ``ks``, from one ranking of each query."""
    _check_scorer_input(y_true, y_score, qid, metric.upper())
    values, weight = at_cutoffs(
        y_true, y_score, ks, metric=metric, qid=qid, sample_weight=sample_weight, **options
    )
    return {f"{metric}@{k}": weighted_mean(values[:, i], weight) for i, k in enumerate(ks)}


def _check_scorer_input(y_true, y_score, qid, metric: str) -> None:
    """Catch what goes wrong between a search and a ranking scorer.

    2-D targets hold one query per row and need no qid. 1-D targets need the
    query ids of the fold; without them the whole fold would be one query.
    """
    if np.ndim(y_true) != 1:
        return
    if qid is None:
        if get_config()["enable_metadata_routing"]:
            how = (
                "Pass qid with the data, e.g. search.fit(X, y, groups=qid, qid=qid) "
                "or cross_validate(..., params={'groups': qid, 'qid': qid}), or call "
                "scorer.set_score_request(qid='groups') to use the groups as query ids."
            )
        else:
            how = (
                "Metadata routing is disabled, so qid cannot reach the scorer: call "
                "sklearn.set_config(enable_metadata_routing=True) and pass qid with the "
                "data, e.g. search.fit(X, y, groups=qid, qid=qid) or "
                "cross_validate(..., params={'groups': qid, 'qid': qid})."
            )
        raise ValueError(
            f"The {metric} scorer got 1-D y (one row per document) but no qid, so it "
            f"cannot tell the queries apart; scoring the whole fold as one query would "
            f"be wrong. {how}"
        )
    if np.ndim(qid) == 1 and np.shape(qid)[0] != np.shape(y_true)[0]:
        raise ValueError(
            f"The {metric} scorer got qid with {np.shape(qid)[0]} entries for "
            f"{np.shape(y_true)[0]} documents. Pass one query id per row of X, so "
            "that qid is split with the folds."
        )


def _make_ranking_scorer(
    score_func: Callable, response_method, options: dict, metric: str, qid=None
) -> _RankingScorer:
    k = options["k"]
    ks = None if k is None or isinstance(k, Integral) else check_cutoffs(k, name="k")
    if ks is not None:  # several cutoffs: one scorer returning a dict
        options = {**options, "ks": ks, "metric": metric}
        del options["k"]
        score_func = _at_cutoffs
    scorer = _RankingScorer(score_func, options, response_method, qid)
    # Request qid and sample_weight by default, so that with routing enabled
    # search.fit(X, y, qid=qid) needs no further call. set_score_request only
    # works while routing is enabled; the context enables it for this call
    # alone (the setting is thread-local and restored on exit).
    with config_context(enable_metadata_routing=True):
        scorer.set_score_request(qid=True, sample_weight=True, document_weight=True, pool=True)
    return scorer


@validate_params(
    {
        **_OPTIONS,
        **NDCG_PARAMS,
        **REPLACE_UNDEFINED,
        **UNJUDGED_QUERIES,
        "response_method": _RESPONSE_METHOD,
        "qid": QID_COLUMN,
    },
    prefer_skip_nested_validation=True,
)
def make_ndcg_scorer(
    k: int | Sequence[int] | np.ndarray | None = None,
    *,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    zero_division: float = ZERO_DIVISION,
    response_method: str | tuple[str, ...] = "auto",
    normalize: str = "ideal",
    qid: str | int | None = None,
    replace_undefined_by: float | None = None,
    unjudged_queries: str = "drop",
):
    """NDCG@k as the ``scoring`` of a scikit-learn search or cross-validation.

    Split by query first: give the search ``cv=GroupKFold(5)`` and ``groups=qid``.
    scikit-learn's default ``cv`` (``KFold``) cuts queries between training and test,
    and a scorer, which sees only the test fold, cannot tell: the scores come out too
    high without a word (:class:`RankingEvaluator` warns of it).

    A scorer from :func:`sklearn.metrics.make_scorer` that computes
    :func:`ndcg_score` on each test fold. For long-format data (one row per
    document) it needs the query id of each row: it requests ``qid`` (and
    ``sample_weight`` and ``document_weight``, see :func:`ndcg_score`) through
    metadata routing by default, so with
    ``sklearn.set_config(enable_metadata_routing=True)`` passing ``qid`` to
    ``fit`` (or in ``params=``) is enough; each fold is scored with its own
    rows' query ids. 2-D targets (one query per row, e.g. multilabel
    indicators) need no ``qid``.

    Read more in the :ref:`User Guide <scorers>`.

    Parameters
    ----------
    k : int or list of int, default=None
        Only the top ``k`` documents of each query count (the cutoff of NDCG@k and DCG@k),
        in the DCG and in the ideal DCG. None means all documents. A list of cutoffs, e.g.
        ``[1, 5, 10]``, makes a multi-metric scorer: it returns a dict with the keys
        ``"ndcg@1"``, ``"ndcg@5"`` and ``"ndcg@10"``, from one ranking of each query; give
        ``refit`` the key to select with.
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
    response_method : "auto", {"decision_function", "predict_proba", "predict"} \
            or tuple of them, default="auto"
        How the estimator scores documents. "auto" is the rule shared with
        :class:`RankingEvaluator` and :class:`NDCGCurveDisplay`:

        - regressors and rankers: ``predict``;
        - binary classifiers: the decision function, else the probability of
          the greater class;
        - classifiers of graded labels (more than two classes): the expected
          label, ``predict_proba(X) @ classes_``;
        - multilabel classifiers on 2-D indicator targets: one score per
          label, as :func:`sklearn.metrics.ndcg_score` expects.

        A method name, or a tuple of them tried in order, calls that method
        instead (``predict_proba`` still gives the expected label).
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
        NDCG), or the range between the worst and the ideal DCG ("minmax"); see
        :func:`~sklearn_ndcg.ndcg_score`.
    qid : str, int or None, default=None
        The column of ``X`` that holds the query ids, for tools that do not
        route metadata (Optuna's ``OptunaSearchCV``, scikit-learn's searches
        with routing off, ``permutation_importance``): a DataFrame column
        name, or a column position. The scorer reads each fold's query ids
        from it and hands ``X`` to the estimator whole, so the estimator must
        drop the column itself (a pipeline whose first step drops it, or
        ``RankingEvaluator(..., qid=<column>)``). None takes ``qid`` from
        routing or the call.
    replace_undefined_by : {0.0, 1.0, np.nan}, default=None
        Another name for ``zero_division`` (the one scikit-learn is adopting), with the same
        values; give one of the two, not both. None means ``zero_division`` decides; see
        :func:`~sklearn_ndcg.ndcg_score`.
    unjudged_queries : {"drop", "zero"}, default="drop"
        With ``pool``: queries of ``qid`` that the pool lacks are left out ("drop", as
        trec_eval leaves out queries without qrels) or score 0 ("zero", as Spark scores a
        query with an empty set of relevant ids): such a query is judged to have no
        relevant document, so its ideal DCG is 0, its NDCG ``zero_division`` and a
        positive label in its ranking is refused. ``CONVENTIONS["spark"]`` sets "zero".
        Without a pool every query is judged by its own labels and it changes nothing.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y, qid=qid)``, greater is better; called
        directly it takes ``qid`` whether or not routing is enabled. In a
        search it requests ``qid``, ``sample_weight`` and ``document_weight``
        through routing; ``scorer.set_score_request(qid="groups")`` takes the query ids from
        ``groups`` instead, so ``fit(X, y, groups=qid)`` is enough.

    See Also
    --------
    ndcg_score : The metric itself.
    make_dcg_scorer : The same for DCG@k.

    Notes
    -----
    **Turn metadata routing on first**: ``sklearn.set_config(enable_metadata_routing=True)``.
    Without it a search hands ``qid`` to the model's ``fit``, and every fit
    fails with ``TypeError: Ridge.fit() got an unexpected keyword argument
    'qid'`` ("All the 15 fits failed"); the routing line is the fix.

    1-D targets without query ids raise a ``ValueError`` saying how to pass
    them, since one query per fold would give a wrong score silently. Inside a
    search with the default ``error_score=np.nan``, scikit-learn turns the
    error into a "Scoring failed" ``UserWarning`` per fold (with that message)
    and a warning about non-finite test scores; ``error_score="raise"`` stops
    at the first fold.

    ``set_score_request`` replaces all the requests of a scorer: to keep the
    weights, write ``set_score_request(qid="groups", sample_weight=True)``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn import config_context
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.model_selection import PredefinedSplit, cross_val_score
    >>> from sklearn_ndcg import make_ndcg_scorer
    >>> rng = np.random.default_rng(0)
    >>> qid = np.repeat(np.arange(30), 8)
    >>> X = rng.normal(size=(240, 3))
    >>> y = np.clip(np.round(X[:, 0] + rng.normal(size=240)), 0, 3)
    >>> # 3 folds that keep queries whole; GroupKFold(3) with groups=qid does the
    >>> # same, but which query lands in which fold varies across scikit-learn versions
    >>> cv = PredefinedSplit(qid % 3)
    >>> with config_context(enable_metadata_routing=True):
    ...     scores = cross_val_score(Ridge(), X, y, cv=cv,
    ...                              scoring=make_ndcg_scorer(k=5),
    ...                              params={"qid": qid})
    >>> scores.round(4)
    array([0.7541, 0.8595, 0.8235])

    The query ids from ``groups`` alone:

    >>> with config_context(enable_metadata_routing=True):
    ...     scorer = make_ndcg_scorer(k=5).set_score_request(qid="groups")
    ...     scores = cross_val_score(Ridge(), X, y, cv=cv,
    ...                              scoring=scorer, params={"groups": qid})
    >>> scores.round(4)
    array([0.7541, 0.8595, 0.8235])
    """
    options = dict(k=k, gain=gain, discount=discount, ties=ties)
    zero_division = resolve_zero_division(zero_division, replace_undefined_by)
    options.update(zero_division=zero_division, normalize=normalize)
    if unjudged_queries != "drop":  # with a routed pool (the scorer's repr keeps to the rest)
        options.update(unjudged_queries=unjudged_queries)
    return _make_ranking_scorer(_ndcg_score, response_method, options, "ndcg", qid)


@validate_params(
    {**_OPTIONS, "response_method": _RESPONSE_METHOD, "qid": QID_COLUMN},
    prefer_skip_nested_validation=True,
)
def make_dcg_scorer(
    k: int | Sequence[int] | np.ndarray | None = None,
    *,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    response_method: str | tuple[str, ...] = "auto",
    qid: str | int | None = None,
):
    """DCG@k as the ``scoring`` of a scikit-learn search or cross-validation.

    A scorer from :func:`sklearn.metrics.make_scorer` that computes
    :func:`dcg_score` on each test fold, requesting ``qid``,
    ``sample_weight`` and ``document_weight`` through metadata routing by
    default; see
    :func:`make_ndcg_scorer`, which is usually preferred since DCG grows with
    the number and grade of relevant documents.

    Read more in the :ref:`User Guide <scorers>`.

    Parameters
    ----------
    k : int or list of int, default=None
        Only the top ``k`` documents of each query count (the cutoff of NDCG@k and DCG@k),
        in the DCG and in the ideal DCG. None means all documents. A list of cutoffs makes a
        multi-metric scorer with the keys ``"dcg@k"``; see :func:`make_ndcg_scorer`.
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
    response_method : "auto", {"decision_function", "predict_proba", "predict"} \
            or tuple of them, default="auto"
        How the estimator scores documents; see :func:`make_ndcg_scorer`.
    qid : str, int or None, default=None
        The column of ``X`` that holds the query ids, for tools that do not route metadata
        (Optuna's ``OptunaSearchCV``, scikit-learn's searches with routing off,
        ``permutation_importance``): a DataFrame column name, or a column position. The
        scorer reads each fold's query ids from it and hands ``X`` to the estimator whole,
        so the estimator must drop the column itself (a pipeline whose first step drops it,
        or ``RankingEvaluator(..., qid=<column>)``). None takes ``qid`` from routing or the
        call.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, y, qid=qid)``, greater is better, requesting
        ``qid`` and ``sample_weight``.

    See Also
    --------
    dcg_score : The metric itself.
    make_ndcg_scorer : The same for NDCG@k, with the details.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn import config_context
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.model_selection import PredefinedSplit, cross_val_score
    >>> from sklearn_ndcg import make_dcg_scorer
    >>> rng = np.random.default_rng(0)
    >>> qid = np.repeat(np.arange(30), 8)
    >>> X = rng.normal(size=(240, 3))
    >>> y = np.clip(np.round(X[:, 0] + rng.normal(size=240)), 0, 3)
    >>> # 3 folds that keep queries whole; GroupKFold(3) with groups=qid does the
    >>> # same, but which query lands in which fold varies across scikit-learn versions
    >>> cv = PredefinedSplit(qid % 3)
    >>> with config_context(enable_metadata_routing=True):
    ...     scores = cross_val_score(Ridge(), X, y, cv=cv,
    ...                              scoring=make_dcg_scorer(k=5, gain="exponential"),
    ...                              params={"qid": qid})
    >>> scores.round(4)
    array([2.627 , 4.1325, 3.9429])
    """
    options = dict(k=k, gain=gain, discount=discount, ties=ties)
    return _make_ranking_scorer(_dcg_score, response_method, options, "dcg", qid)
