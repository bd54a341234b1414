"""counterfactual_dcg: a new ranker's DCG@k estimated from a click log."""

from __future__ import annotations

from numbers import Real

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._compat import Integers, Interval, StrOptions, validate_params
from .._metrics._ndcg import QueryScores
from ._counterfactual_results import CounterfactualResult
from ._log import ClickLog, check_log, ideal_dcg, log2_discount, new_ranks

ESTIMATORS = ("ips", "snips", "dr")

PARAMS = {
    "k": [Integers(1, None), None],
    "estimator": [StrOptions(set(ESTIMATORS))],
    "clip": [Interval(Real, 0, 1, closed="right"), None],
}


@validate_params(
    {
        "click": ["array-like"],
        "y_score": ["array-like"],
        "qid": ["array-like"],
        "logged_rank": ["array-like"],
        "propensity": "no_validation",  # an array, or an object with .propensity
        **PARAMS,
        "reward_model": ["array-like", None],
        "logging_probability": ["array-like", None],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "normalize": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def counterfactual_dcg(
    click: ArrayLike,
    y_score: ArrayLike,
    *,
    qid: ArrayLike,
    logged_rank: ArrayLike,
    propensity,
    k: int | None = None,
    estimator: str = "ips",
    clip: float | None = None,
    reward_model: ArrayLike | None = None,
    logging_probability: ArrayLike | None = None,
    confidence_level: float = 0.95,
    normalize: bool = False,
) -> CounterfactualResult:
    """Estimate a new ranker's DCG@k from the clicks an old ranker logged.

    A click says "examined and relevant", and what is examined depends on the position
    the logging ranker gave the document. Under the position-based model a document at
    rank ``r`` is examined with probability ``propensity[r - 1]``, independently of its
    relevance, so a click divided by that propensity is an unbiased estimate of the
    document's relevance (its click probability once examined), and the DCG of any new
    ranking of the logged documents follows: inverse propensity scoring (IPS). The
    estimand is ``mean over queries of sum_d relevance(d) / log2(1 + rank_new(d))``
    over the new ranker's top ``k``.

    Read more in the :ref:`User Guide <clicks>`.

    Parameters
    ----------
    click : array-like of shape (n_samples,)
        One row per document shown: 1 if it was clicked, 0 if not.
    y_score : array-like of shape (n_samples,)
        The new ranker's score of each logged row; it ranks each logged ranking's rows by
        decreasing score (tied rows in random order). Its rows are exactly the logged rows:
        a document the log never showed has no click to learn from and cannot be scored.
    qid : array-like of shape (n_samples,)
        The logged ranking (impression) of each row; two impressions of the same query
        need two ids.
    logged_rank : array-like of shape (n_samples,)
        The position (from 1) at which the log showed each row; each position once per
        logged ranking.
    propensity : array-like of shape (max_rank,) or PositionBias
        The examination probability of each rank, indexed by rank - 1, each in (0, 1];
        or any object with such a ``propensity`` attribute (the result of
        ``estimate_position_bias``).
    k : int, default=None
        Only the new ranker's top ``k`` documents count (DCG@k). None means all.
    estimator : {"ips", "snips", "dr"}, default="ips"
        - "ips": inverse propensity scoring (Joachims, Swaminathan & Schnabel 2017);
          with ``logging_probability``, item-position IPS (Li et al. 2018).
        - "snips": self-normalised IPS (Swaminathan & Joachims 2015): the IPS estimate
          divided by the mean importance weight of the log, whose expectation is 1. It
          needs ``logging_probability``: under deterministic logging the weights
          ``1 / propensity`` are constants and there is nothing to normalise by.
        - "dr": doubly robust (Oosterhuis 2023): the DCG of ``reward_model``'s predicted
          relevance plus the IPS estimate of its error. Under deterministic logging
          without ``clip`` it equals IPS row by row (the prediction cancels out); it
          lowers the variance under stochastic logging and the bias of clipping.
    clip : float in (0, 1], default=None
        Propensity clipping (Joachims et al. 2017, ``1 / max(propensity, clip)``): every
        importance weight is capped at ``1 / clip``, trading bias for variance. The clip
        is on the propensity, as in the literature; the cap on the weight is its inverse.
        None does not clip.
    reward_model : array-like of shape (n_samples,), default=None
        For ``estimator="dr"`` (required there, refused otherwise): the predicted
        relevance of each row (probability of a click once examined), e.g. a regressor's
        ``predict`` fitted on other logs.
    logging_probability : array-like of shape (n_samples,), default=None
        For stochastic logging: the probability that the logger put each row at its logged
        position. The estimate then only uses rows the new ranker puts where the log did,
        weighted by the new ranker's probability of that position over this one (Li et
        al. 2018); each logged ranking must hold all of its query's candidates. None
        means deterministic logging.
    confidence_level : float in (0, 1), default=0.95
        Level of the confidence interval.
    normalize : bool, default=False
        Divide each query's estimate by the ideal DCG@k of the estimated relevances
        ``click / propensity``. Off by default: the ratio of two estimates is biased, and
        normalising can invert the order of two rankers (Jeunen, Potapov & Ustimenko 2024).

    Returns
    -------
    result : CounterfactualResult
        ``estimate``, ``confidence_interval`` (Student's t over queries),
        ``per_query`` (a :class:`~sklearn_ndcg.QueryScores`), ``effective_sample_size``
        and ``max_weight``.

    See Also
    --------
    make_counterfactual_dcg_scorer : The estimate as the scoring of a search.
    paired_test : Compare two rankers' ``per_query`` on the same log.

    Notes
    -----
    With propensity ``a``, importance weight ``w = 1 / a(logged rank)`` (deterministic
    logging) or ``w = pi / (p * a)`` (stochastic: ``pi`` the new ranker's probability
    of the logged position, ``p`` the logger's), capped at ``1 / clip``, and new
    discount ``d`` (0 beyond ``k``), each query's estimate is ``sum(w * d * click)``
    (IPS), ``sum(d_new * r + w * d * (click - a * r))`` with ``r`` the reward model (DR),
    or the IPS value over the log's mean of ``pi / p`` (SNIPS). Unbiased when examination
    follows the position-based model with the given propensities and every document the
    new ranker puts in its top ``k`` has a nonzero logging probability there.

    References
    ----------
    .. [1] T. Joachims, A. Swaminathan, T. Schnabel, "Unbiased Learning-to-Rank with
       Biased Feedback", WSDM 2017.
    .. [2] A. Swaminathan, T. Joachims, "The Self-Normalized Estimator for
       Counterfactual Learning", NeurIPS 2015.
    .. [3] S. Li et al., "Offline Evaluation of Ranking Policies with Click Models",
       KDD 2018.
    .. [4] H. Oosterhuis, "Doubly Robust Estimation for Correcting Position Bias in
       Click Feedback for Unbiased Learning to Rank", ACM TOIS 2023.
    .. [5] O. Jeunen, I. Potapov, A. Ustimenko, "On (Normalised) Discounted Cumulative
       Gain as an Off-Policy Evaluation Metric for Top-n Recommendation", KDD 2024.

    Examples
    --------
    Two logged rankings of three documents; the new ranker reverses the first:

    >>> from sklearn_ndcg import counterfactual_dcg
    >>> result = counterfactual_dcg(
    ...     click=[1, 0, 1, 0, 1, 0], y_score=[1, 2, 3, 3, 2, 1],
    ...     qid=[1, 1, 1, 2, 2, 2], logged_rank=[1, 2, 3, 1, 2, 3],
    ...     propensity=[1.0, 0.5, 0.25])
    >>> round(result.estimate, 4)
    2.8809
    >>> result.per_query.score.round(4)
    array([4.5   , 1.2619])

    Query 1: the click at logged rank 3 counts ``1 / 0.25 = 4`` at new rank 1, the one
    at logged rank 1 counts 1 at new rank 3 (``1 / log2(4) = 0.5``).
    """
    log = check_log(click, y_score, qid, logged_rank, propensity, logging_probability, reward_model)
    _check_options(log, estimator)
    ranks = new_ranks(log)
    new_discount = ranks.expected_discount(k)
    if log.logging_probability is None:
        ratio = np.ones_like(log.click)
        weight, discount = 1.0 / log.propensity, new_discount
    else:  # item-position IPS: only where the new ranker may put the row where the log did
        ratio = ranks.probability_at(log.logged_rank) / log.logging_probability
        weight = ratio / log.propensity
        discount = log2_discount(log.logged_rank.astype(np.float64), k)
    if clip is not None:
        weight = np.minimum(weight, 1.0 / clip)
    value = weight * discount * log.click
    if estimator == "dr":
        r = log.reward_model
        value = new_discount * r + weight * discount * (log.click - log.propensity * r)
    n_queries = log.ids.shape[0]
    per_query = np.bincount(log.codes, weights=value, minlength=n_queries)
    if estimator == "snips":
        per_query = per_query / ratio.mean()
    if normalize:
        ideal = ideal_dcg(log.click / log.propensity, log.codes, k)
        per_query = np.divide(per_query, ideal, out=np.zeros(n_queries), where=ideal > 0)
    counted = weight[(discount > 0) & (weight > 0)]
    return CounterfactualResult(
        estimate=float(per_query.mean()),
        confidence_interval=_t_interval(per_query, confidence_level),
        per_query=QueryScores(log.ids, per_query, np.ones(n_queries)),
        effective_sample_size=_kish(counted),
        max_weight=float(counted.max()) if counted.size else 0.0,
        estimator=estimator,
        confidence_level=confidence_level,
    )


def _check_options(log: ClickLog, estimator: str) -> None:
    if estimator == "dr" and log.reward_model is None:
        raise ValueError(
            'estimator="dr" needs reward_model: the predicted relevance of each row, e.g. '
            "a fitted regressor's predict on the log's features."
        )
    if estimator != "dr" and log.reward_model is not None:
        raise ValueError(
            f'reward_model is only used by estimator="dr"; got estimator={estimator!r}. '
            "Drop reward_model or use the doubly robust estimator."
        )
    if estimator == "snips" and log.logging_probability is None:
        raise ValueError(
            'estimator="snips" needs logging_probability (stochastic logging): it divides '
            "by the mean importance weight, whose expectation is 1; under deterministic "
            'logging the weights are constants. Use estimator="ips" (with clip) instead.'
        )


def _t_interval(values: np.ndarray, confidence_level: float) -> tuple[float, float]:
    """Student's t interval of the mean of ``values`` (NaN with fewer than 2)."""
    n = values.shape[0]
    if n < 2:
        return (float("nan"), float("nan"))
    mean = values.mean()
    half = stats.t.ppf(0.5 + confidence_level / 2, n - 1) * values.std(ddof=1) / np.sqrt(n)
    return (float(mean - half), float(mean + half))


def _kish(weight: np.ndarray) -> float:
    """Kish's effective sample size of ``weight``; 0 for no weights."""
    if weight.size == 0:
        return 0.0
    top = weight.max()
    if not 1e-150 < top < 1e150:  # squares would overflow or vanish: the ratio is scale-free
        weight = weight / top
    return float(weight.sum() ** 2 / np.square(weight).sum())
