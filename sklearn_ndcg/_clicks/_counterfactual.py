"""counterfactual_dcg: a new ranker's DCG@k estimated from a click log."""

from __future__ import annotations

from numbers import Real

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._engine import Queries, check_qid
from .._metrics import QueryScores
from .._validate_params import Integers, Interval, StrOptions, validate_params
from .._warn import warn
from ._counterfactual_results import CounterfactualResult
from ._estimators import ESTIMATORS, check_estimator_input, normaliser
from ._log import check_log, ideal_dcg, log2_discount, new_ranks

#: Under stochastic logging the intervals of fewer queries cover less than they say
#: (benchmarks/bench_click_calibration.py, section 3: 0.85-0.92 at 200 and 1,000 queries,
#: 0.94-0.98 at 5,000); counterfactual_dcg warns below.
MIN_STOCHASTIC_QUERIES = 5000
SMALL_STOCHASTIC_LOG = "queries under stochastic logging"

PARAMS = {
    "k": [Integers(1, None), None],
    "estimator": [StrOptions(set(ESTIMATORS))],  # the registry of _estimators.py
    "clip": [Interval(Real, 0, 1, closed="right"), None],
}


@validate_params(
    {
        "click": ["array-like"],
        "y_score": ["array-like"],
        "qid": ["array-like"],
        "logged_rank": ["array-like"],
        "propensity": "no_validation",  # an array, or an object with .propensity
        "impression": ["array-like", None],
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
    impression: ArrayLike | None = None,
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
        The query of each row, as in :func:`estimate_position_bias`: ``per_query`` has
        one value per query (the mean over its impressions), and the interval treats
        queries as the unit. Without ``impression`` (deprecated), ``qid`` is the logged
        ranking of each row, as before 0.3, with a FutureWarning.
    logged_rank : array-like of shape (n_samples,)
        The position (from 1) at which the log showed each row; each position once per
        logged ranking.
    propensity : array-like of shape (max_rank,) or PositionBias
        The examination probability of each rank, indexed by rank - 1, each in (0, 1];
        or the result of ``estimate_position_bias``, whose bootstrap replicates then
        widen the interval by the propensities' own uncertainty, and whose unidentified
        ranks (NaN) are refused by name where the log has rows.
    impression : array-like of shape (n_samples,), default=None
        The logged ranking (impression, session) of each row: the rows one user was
        shown at once. Every impression belongs to one query. Give the same ids as
        ``qid`` when each query was logged once. None (deprecated until 0.4) takes
        ``qid`` as the logged ranking, as before 0.3.
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
        Under stochastic logging the capped weight is the whole ``pi / (p * propensity)``
        (epsilon-greedy logging with ``p = 0.03`` at most positions makes most weights
        exceed 10, and ``clip=0.1`` removes about half of the DCG):
        ``result.clipped_fraction`` says how much of the estimate the clip removed.
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
        ``estimate`` (the mean over queries, each counted once, of the mean over its
        impressions), ``confidence_interval`` (Student's t over queries, widened by the
        propensities' bootstrap spread when ``propensity`` is a ``PositionBias``),
        ``per_query`` (a :class:`~sklearn_ndcg.QueryScores`, one value per query),
        ``effective_sample_size`` and ``max_weight``.

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
    ...     qid=[1, 1, 1, 2, 2, 2], impression=[1, 1, 1, 2, 2, 2],
    ...     logged_rank=[1, 2, 3, 1, 2, 3], propensity=[1.0, 0.5, 0.25])
    >>> round(result.estimate, 4)
    2.8809
    >>> result.per_query.score.round(4)
    array([4.5   , 1.2619])

    Query 1: the click at logged rank 3 counts ``1 / 0.25 = 4`` at new rank 1, the one
    at logged rank 1 counts 1 at new rank 3 (``1 / log2(4) = 0.5``).
    """
    ranking_name = "impression"
    if impression is None:
        warn(
            "counterfactual_dcg(qid=...) without impression= takes qid as the logged "
            "ranking of each row, as before 0.3. From 0.4 qid is the query and impression= "
            "the logged ranking (queries become the unit of per_query and of the interval): "
            "pass impression= (the same ids as qid when each query was logged once).",
            FutureWarning,
        )
        impression, ranking_name = qid, "qid"
    curve = identified_curve(propensity, logged_rank)
    log = check_log(
        click,
        y_score,
        impression,
        logged_rank,
        curve,
        logging_probability,
        reward_model,
        ranking_name=ranking_name,
    )
    entry = check_estimator_input(estimator, log.logging_probability, log.reward_model)
    query_of, query_ids = _query_of_impressions(qid, log)
    ranks = new_ranks(log)
    new_discount = ranks.expected_discount(k)
    if log.logging_probability is None:
        ratio = np.ones_like(log.click)
        discount = new_discount
    else:  # item-position IPS: only where the new ranker may put the row where the log did
        ratio = ranks.probability_at(log.logged_rank) / log.logging_probability
        discount = log2_discount(log.logged_rank.astype(np.float64), k)

    def per_query_of(row_propensity: np.ndarray, cap=clip) -> tuple[np.ndarray, np.ndarray]:
        """Each query's estimate with these propensities of the rows, and the weights."""
        weight = ratio / row_propensity
        if cap is not None:
            weight = np.minimum(weight, 1.0 / cap)
        value = entry.row_values(
            log.click, weight, discount, new_discount, row_propensity, log.reward_model
        )
        per_impression = np.bincount(
            log.codes, weights=value, minlength=log.ids.shape[0]
        ) / normaliser(entry, ratio)
        if normalize:
            ideal = ideal_dcg(log.click / row_propensity, log.codes, k)
            per_impression = np.divide(
                per_impression, ideal, out=np.zeros_like(ideal), where=ideal > 0
            )
        return _mean_by(query_of, per_impression, query_ids.shape[0]), weight

    per_query, weight = per_query_of(log.propensity)
    spread = _propensity_spread(propensity, log, per_query_of)
    counted = weight[(discount > 0) & (weight > 0)]
    clipped = 0.0
    if clip is not None:
        unclipped = per_query_of(log.propensity, None)[0].mean()
        clipped = float(1.0 - per_query.mean() / unclipped) if unclipped != 0 else 0.0
    if log.logging_probability is not None and query_ids.shape[0] < MIN_STOCHASTIC_QUERIES:
        warn(
            f"{query_ids.shape[0]} {SMALL_STOCHASTIC_LOG} (logging_probability): "
            "the importance weights are heavy-tailed, and below "
            f"{MIN_STOCHASTIC_QUERIES} queries the 95 % interval covered 85-92 % of the time "
            "on simulated logs (benchmarks/bench_click_calibration.py), and a gap of 0.035 "
            f"DCG@5 between two rankers was found in 1-6 % of the logs (effective sample "
            f"size here {_kish(counted):.0f} rows). Log more queries before deciding between "
            "rankers on this estimate.",
            UserWarning,
        )
    return CounterfactualResult(
        estimate=float(per_query.mean()),
        confidence_interval=_t_interval(per_query, confidence_level, spread),
        per_query=QueryScores(query_ids, per_query, np.ones(query_ids.shape[0])),
        effective_sample_size=_kish(counted),
        max_weight=float(counted.max()) if counted.size else 0.0,
        estimator=estimator,
        confidence_level=confidence_level,
        clipped_fraction=clipped,
    )


def identified_curve(propensity, logged_rank):
    """``propensity``, or for a ``PositionBias`` its curve with the unidentified ranks
    (NaN) where the log has no row set to 1 (never read). Raises a ValueError naming a
    logged rank whose propensity is NaN, with its counts."""
    unidentified = getattr(propensity, "unidentified", None)
    if unidentified is None:
        return propensity
    ranks = np.asarray(logged_rank)
    if ranks.ndim != 1 or ranks.dtype.kind not in "iuf" or not np.isfinite(ranks).all():
        return propensity  # check_log names what is wrong with logged_rank
    message = unidentified(ranks.astype(np.int64))
    if message is not None:
        raise ValueError(f"propensity: {message}")
    curve = np.asarray(propensity.propensity, dtype=np.float64)
    return np.where(np.isnan(curve), 1.0, curve)


def _query_of_impressions(qid, log) -> tuple[np.ndarray, np.ndarray]:
    """The query (an index into the sorted query ids) of each impression, and the ids.

    Raises ValueError when an impression's rows name two queries.
    """
    qid = check_qid(qid, log.click.shape[0], target="click")
    queries = Queries.of(qid)
    code = queries.codes()
    query_of = np.zeros(log.ids.shape[0], dtype=np.intp)
    query_of[log.codes] = code
    mixed = query_of[log.codes] != code
    if mixed.any():
        row = int(np.flatnonzero(mixed)[0])
        raise ValueError(
            f"impression {log.ids[log.codes[row]].item()!r} holds rows of two queries "
            f"(qid {queries.ids[code[row]].item()!r} and "
            f"{queries.ids[query_of[log.codes[row]]].item()!r}); an impression is the "
            "ranking one user was shown for one query."
        )
    return query_of, queries.ids


def _mean_by(group: np.ndarray, values: np.ndarray, n_groups: int) -> np.ndarray:
    """The mean of ``values`` in each group."""
    return np.bincount(group, weights=values, minlength=n_groups) / np.bincount(
        group, minlength=n_groups
    )


def _propensity_spread(propensity, log, per_query_of) -> float:
    """The variance of the estimate over the bootstrap replicates of ``propensity`` (a
    ``PositionBias``); 0 without replicates. Replicates without a propensity at a logged
    rank (a resample that never clicked there) are left out."""
    replicates = getattr(propensity, "replicates", None)
    if replicates is None or replicates.shape[0] < 2:
        return 0.0
    logged = np.bincount(log.logged_rank - 1, minlength=replicates.shape[1]) > 0
    at_logged = replicates[:, logged]
    usable = np.isfinite(at_logged).all(axis=1) & (at_logged > 0).all(axis=1)
    if usable.sum() < 2:
        return 0.0
    # one replicate curve at a time: a (replicates x rows) matrix would not fit big logs
    estimates = [
        per_query_of(np.minimum(curve, 1.0)[log.logged_rank - 1])[0].mean()
        for curve in replicates[usable]
    ]
    return float(np.var(estimates, ddof=1))


def _t_interval(
    values: np.ndarray, confidence_level: float, spread: float = 0.0
) -> tuple[float, float]:
    """Student's t interval of the mean of ``values`` (NaN with fewer than 2), its
    variance widened by ``spread`` (the propensities' share)."""
    n = values.shape[0]
    if n < 2:
        return (float("nan"), float("nan"))
    mean = values.mean()
    se = np.sqrt(values.var(ddof=1) / n + spread)
    half = stats.t.ppf(0.5 + confidence_level / 2, n - 1) * se
    return (float(mean - half), float(mean + half))


def _kish(weight: np.ndarray) -> float:
    """Kish's effective sample size of ``weight``; 0 for no weights."""
    if weight.size == 0:
        return 0.0
    top = weight.max()
    if not 1e-150 < top < 1e150:  # squares would overflow or vanish: the ratio is scale-free
        weight = weight / top
    return float(weight.sum() ** 2 / np.square(weight).sum())
