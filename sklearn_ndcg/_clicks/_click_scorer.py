"""make_counterfactual_dcg_scorer: the counterfactual DCG@k of a click log as a scorer."""

from __future__ import annotations

import warnings
from contextlib import contextmanager

import numpy as np
from sklearn import config_context, get_config

from .._engine import Queries, weighted_mean
from .._model_selection._response import ranking_scores
from .._model_selection._scorer import _RankingScorer
from .._validate_params import validate_params
from ._counterfactual import PARAMS, SMALL_STOCHASTIC_LOG, counterfactual_dcg, identified_curve
from ._estimators import ESTIMATORS
from ._log import check_propensity


class _ClickScorer(_RankingScorer):
    """A ranking scorer whose metadata are the log's: ``qid``, ``impression`` and
    ``logged_rank`` per row (with ``logging_probability`` for stochastic logging and
    ``reward_model`` for the doubly robust estimator)."""

    def __call__(
        self,
        estimator,
        X,
        y_true,
        *,
        qid=None,
        logged_rank=None,
        impression=None,
        logging_probability=None,
        reward_model=None,
    ):
        metadata = {"qid": qid, "logged_rank": logged_rank}
        for name, value in (
            ("impression", impression),
            ("logging_probability", logging_probability),
            ("reward_model", reward_model),
        ):
            if value is not None:
                metadata[name] = value
        return self._score(None, estimator, X, y_true, **metadata)

    def _score(self, method_caller, estimator, X, y_true, **kwargs):
        y_score = ranking_scores(estimator, X, 1, self._ranking_response)
        return self._score_func(y_true, y_score, **{**self._kwargs, **kwargs})

    def _rows_metric(self, click, qid, columns: dict, sample_weight=None):
        """The estimate on fixed rows as a function of their scores, and its name: what
        ``RankingEvaluator(early_stopping_scoring=...)`` monitors on its validation rows.

        ``columns`` holds the log's columns of these rows by name (``logged_rank``, and
        ``logging_probability`` and ``reward_model`` when :meth:`fit` got them), as the
        scorer would get them by routing; ``reward_model`` is used by the doubly robust
        estimator only, as the scorer requests it only there. With ``sample_weight``
        (equal within each logged ranking), the weighted mean of the per-ranking
        estimates, as the NDCG is weighted.
        """
        options = self._kwargs
        entry = ESTIMATORS[options["estimator"]]
        needed = entry.needs
        if needed is not None and needed not in columns:
            raise ValueError(
                f"early_stopping_scoring: estimator={entry.name!r} needs {needed} for every "
                f"row ({entry.why}); pass {needed}=... to RankingEvaluator.fit (with "
                "metadata routing enabled, to the search's fit) with the clicks and "
                "logged_rank, so that early stopping splits it with the validation rows."
            )
        used = ("logged_rank", "logging_probability") + (
            ("reward_model",) if needed == "reward_model" else ()
        )
        metadata = {name: columns[name] for name in used if name in columns}
        weight = None
        if sample_weight is not None:
            weight = Queries.of(np.asarray(qid)).weights(np.asarray(sample_weight, float))

        impression = columns.get("impression", qid)  # each qid one ranking without it

        def score(y_score) -> float:
            with _estimate_only():
                result = counterfactual_dcg(
                    click, y_score, qid=qid, impression=impression, **metadata, **options
                )
            if weight is None:
                return result.estimate
            return weighted_mean(result.per_query.score, weight)

        return score, f"counterfactual_dcg@{options['k']}"


def _click_score(
    click, y_score, *, qid=None, logged_rank=None, propensity=None, **options
) -> float:
    """:func:`counterfactual_dcg`'s estimate, saying how to route what is missing.

    A ``PositionBias`` is read as its curve (a search needs the estimate, not its
    interval), its unidentified ranks refused where the fold has rows."""
    missing = [
        name for name, value in (("qid", qid), ("logged_rank", logged_rank)) if value is None
    ]
    if missing:
        if get_config()["enable_metadata_routing"]:
            how = (
                "Pass them with the data, e.g. search.fit(X, click, groups=qid, qid=qid, "
                "logged_rank=logged_rank) or cross_validate(..., params={'groups': qid, "
                "'qid': qid, 'logged_rank': logged_rank})."
            )
        else:
            how = (
                "Metadata routing is disabled, so they cannot reach the scorer: call "
                "sklearn.set_config(enable_metadata_routing=True) and pass them with the data."
            )
        raise ValueError(
            f"The counterfactual DCG scorer needs {' and '.join(missing)} for every row of "
            f"the click log (its logged ranking and the position it was shown at). {how}"
        )
    propensity = identified_curve(propensity, logged_rank)
    with _estimate_only():
        return counterfactual_dcg(
            click, y_score, qid=qid, logged_rank=logged_rank, propensity=propensity, **options
        ).estimate


@contextmanager
def _estimate_only():
    """A search or a monitor reads the estimate only: the warning about the interval and
    paired tests of small stochastic logs is not for it."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", f".*{SMALL_STOCHASTIC_LOG}", UserWarning)
        yield


@validate_params({"propensity": "no_validation", **PARAMS}, prefer_skip_nested_validation=True)
def make_counterfactual_dcg_scorer(
    propensity, *, k: int | None = 10, estimator: str = "ips", clip: float | None = None
):
    """The counterfactual DCG@k of a click log as the ``scoring`` of a search.

    A scikit-learn scorer that takes the clicks as ``y`` and computes
    :func:`counterfactual_dcg` of the estimator's scores on each test fold. It requests
    ``qid`` and ``logged_rank`` (and ``logging_probability``; with ``estimator="dr"``
    also ``reward_model``) per row through metadata routing, so with
    ``sklearn.set_config(enable_metadata_routing=True)`` passing them to ``fit`` (or in
    ``params=``) is enough. ``qid`` is the query and ``impression`` the logged ranking,
    as in :func:`counterfactual_dcg`; without ``impression`` (deprecated until 0.4)
    ``qid`` is the logged ranking, with a FutureWarning. Split the folds by query
    (``GroupKFold`` with ``groups=qid``), so that every query, with all of its
    impressions, stays on one side.

    Read more in the :ref:`User Guide <clicks_scorer>`.

    Parameters
    ----------
    propensity : array-like of shape (max_rank,) or PositionBias
        The examination probability of each rank, indexed by rank - 1, each in (0, 1];
        or an object with such a ``propensity`` attribute.
    k : int, default=10
        Only the new ranker's top ``k`` documents count. None means all.
    estimator : {"ips", "snips", "dr"}, default="ips"
        The estimator; see :func:`counterfactual_dcg`.
    clip : float in (0, 1], default=None
        Propensity clipping: importance weights capped at ``1 / clip``; see
        :func:`counterfactual_dcg`.

    Returns
    -------
    scorer : callable
        ``scorer(estimator, X, click, qid=qid, logged_rank=logged_rank)``, greater is
        better; called directly it takes the metadata whether or not routing is enabled.

    See Also
    --------
    counterfactual_dcg : The estimate, with its interval and per-query values.
    make_ndcg_scorer : NDCG@k of graded labels, for judged data.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn import config_context
    >>> from sklearn.linear_model import Ridge
    >>> from sklearn.model_selection import PredefinedSplit, cross_val_score
    >>> from sklearn_ndcg import make_counterfactual_dcg_scorer
    >>> rng = np.random.default_rng(0)
    >>> qid = np.repeat(np.arange(30), 5)
    >>> logged_rank = np.tile(np.arange(1, 6), 30)
    >>> X = rng.normal(size=(150, 2))
    >>> click = (rng.random(150) < 0.5 / logged_rank).astype(float)
    >>> scorer = make_counterfactual_dcg_scorer(1 / np.arange(1, 6), k=5)
    >>> with config_context(enable_metadata_routing=True):
    ...     scores = cross_val_score(Ridge(), X, click, cv=PredefinedSplit(qid % 3),
    ...                              scoring=scorer,
    ...                              params={"qid": qid, "impression": qid,
    ...                                      "logged_rank": logged_rank})
    >>> scores.round(4)
    array([1.2637, 0.9689, 0.8876])
    """
    if not hasattr(propensity, "unidentified"):  # a PositionBias is checked per fold
        propensity = check_propensity(propensity)
    options = dict(propensity=propensity, k=k, estimator=estimator, clip=clip)
    scorer = _ClickScorer(_click_score, options, "auto")
    requests = dict(qid=True, impression=True, logged_rank=True, logging_probability=True)
    if ESTIMATORS[estimator].needs == "reward_model":
        requests["reward_model"] = True
    # set_score_request works only while routing is on: enabled for this call alone
    with config_context(enable_metadata_routing=True):
        scorer.set_score_request(**requests)
    return scorer
