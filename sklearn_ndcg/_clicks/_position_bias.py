"""estimate_position_bias: the examination probability of each rank, from a click log."""

from __future__ import annotations

from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats
from sklearn.exceptions import ConvergenceWarning

from .._validate_params import Integers, Interval, StrOptions, validate_params
from .._warn import warn
from ._bias_log import BiasLog, cells, check_bias_log, pair_features
from ._em import em_examination
from ._harvesting import Interventions, all_pairs_examination
from ._swaps import swap_examination, swap_experiments

METHODS = ("em", "harvesting", "swap")
FEW_IMPRESSIONS = 20  # EM with a free relevance per pair is biased below this many per pair


class PositionBias(NamedTuple):
    """Result of :func:`estimate_position_bias`: the propensity of each rank.

    ``propensity[r - 1]`` is the probability that a user examines the document at rank
    ``r``, relative to rank 1 (``propensity[0] == 1``); pass the result, or its
    ``propensity``, wherever the package takes propensities indexed by rank - 1.
    """

    propensity: np.ndarray
    confidence_interval: np.ndarray
    method: str
    n_queries: int
    confidence_level: float
    n_bootstrap: int
    impressions: np.ndarray | None = None
    clicks: np.ndarray | None = None
    replicates: np.ndarray | None = None

    def unidentified(self, ranks: np.ndarray) -> str | None:
        """A message naming the first of ``ranks`` (from 1) whose propensity the log could
        not estimate, with its counts; None when all of them have one."""
        n_ranks = self.propensity.shape[0]
        logged = np.bincount(ranks[(ranks >= 1) & (ranks <= n_ranks)] - 1, minlength=n_ranks)
        missing = np.flatnonzero((logged > 0) & np.isnan(self.propensity))
        if missing.size == 0:
            return None
        r = int(missing[0]) + 1
        counts = ""
        if self.impressions is not None and self.clicks is not None:
            counts = (
                f" (shown {int(self.impressions[r - 1])} times, clicked "
                f"{int(self.clicks[r - 1])} times in the log it was estimated from)"
            )
        return (
            f"the propensity of rank {r}{counts} is not identified: its log fits any value "
            f"down to 0 equally well. Drop the rows logged at rank {r} (and at any other "
            "rank whose propensity is NaN), or estimate the propensities from a log with "
            "clicks at that rank."
        )


PositionBias.propensity.__doc__ = (
    "ndarray of shape (max_rank,): examination probability of rank r at index r - 1, "
    "rank 1 scaled to 1; NaN at ranks the log cannot estimate."
)
PositionBias.confidence_interval.__doc__ = (
    "ndarray of shape (2, max_rank): lower and upper edge of the interval of each rank's "
    "propensity: Student's t on the log scale with the bootstrap's standard error and "
    "bias correction (queries resampled); NaN with n_bootstrap=0."
)
PositionBias.method.__doc__ = "The estimator: 'em', 'harvesting' or 'swap'."
PositionBias.n_queries.__doc__ = "Number of distinct query ids in the log."
PositionBias.confidence_level.__doc__ = "Level of the confidence intervals."
PositionBias.n_bootstrap.__doc__ = "Number of bootstrap resamples of the queries."
PositionBias.impressions.__doc__ = "ndarray of shape (max_rank,): rows of the log at each rank."
PositionBias.clicks.__doc__ = "ndarray of shape (max_rank,): clicks of the log at each rank."
PositionBias.replicates.__doc__ = (
    "ndarray of shape (n_bootstrap, max_rank): the propensities of each bootstrap resample "
    "of the queries; counterfactual_dcg adds their spread to its interval."
)


def _check_method_input(log: BiasLog, method: str, features):
    """What a method needs of the log; returns what it prepares once from the log (the
    swap experiments, the interventions of harvesting)."""
    if features is not None and method != "em":
        raise ValueError(
            f"features is a relevance model of method='em' only; method={method!r} uses none."
        )
    if method == "swap" and log.logger is None:
        raise ValueError(
            "method='swap' needs logger=, the randomized pair (1, k) of each row, as its "
            "rank k (0 outside)."
        )
    if log.click.max() == 0:
        raise ValueError(
            "click is 0 on every row: a log without a click fits every propensity curve "
            "equally well, so none can be estimated."
        )
    labels = log.logger_labels
    if method == "harvesting" and labels is not None and labels.shape[0] < 2:
        raise ValueError(
            "method='harvesting' needs logs of at least two logging rankers; logger has the "
            f"single label {labels[0].item()!r}. Intervention harvesting compares the "
            "ranks that different rankers gave the same document."
        )
    if method == "swap":
        return swap_experiments(log)
    if not (log.rank == 0).any():
        raise ValueError(
            "logged_rank never is 1: the propensities are scaled to rank 1, which needs "
            "impressions at rank 1."
        )
    prepared = Interventions.of(log) if method == "harvesting" else None
    if features is None:
        if prepared is not None:  # the pairs shown at two ranks or more, found once
            moved = prepared.seen.shape[0] > 0
        else:
            moved = ((cells(log, np.ones(log.rank.shape[0]))[0] > 0).sum(axis=1) > 1).any()
        if not moved:
            raise ValueError(
                f"method={method!r}: the log never shows a (query, document) pair at two "
                "different ranks, so examination and relevance cannot be told apart (every "
                "propensity fits it equally well). Give a log where the rank of a document "
                "varies between impressions of its query (several rankers, randomized "
                "swaps: method='swap'), or relevance features (features=, method='em')."
            )
        if method == "em" and log.rank.shape[0] / log.n_pairs < FEW_IMPRESSIONS:
            warn(
                f"method='em' without features gives each (query, document) pair its own "
                f"relevance; with {log.rank.shape[0] / log.n_pairs:.1f} impressions per pair "
                f"(fewer than {FEW_IMPRESSIONS}) its estimate is biased (too flat: "
                "benchmarks/bench_click_calibration.py) and its intervals miss. Use "
                "method='harvesting' (the default), which holds at one to a few sessions "
                "per query.",
                UserWarning,
            )
    return prepared


def bootstrap_log_interval(
    propensity: np.ndarray, replicates: np.ndarray, confidence_level: float
) -> np.ndarray:
    """``exp(c -+ t * s)`` per rank: ``s`` the standard deviation of the log of the
    bootstrap replicates, ``c = 2 * log(propensity) - mean(log(replicates))`` the log of
    the estimate with the bootstrap's estimate of its bias removed, ``t`` Student's
    quantile with one degree of freedom fewer than the finite replicates. Ranks without
    two finite positive replicates get NaN; shape (2, max_rank)."""
    interval = np.full((2, propensity.shape[0]), np.nan)
    with np.errstate(divide="ignore", invalid="ignore"):
        logs = np.log(np.where(replicates > 0, replicates, np.nan))
    drawn = (~np.isnan(logs)).sum(axis=0)
    usable = ~np.isnan(propensity) & (propensity > 0) & (drawn > 1)
    spread = np.nanstd(logs[:, usable], axis=0, ddof=1)
    half = stats.t.ppf(0.5 + confidence_level / 2, drawn[usable] - 1) * spread
    center = 2 * np.log(propensity[usable]) - np.nanmean(logs[:, usable], axis=0)
    interval[:, usable] = np.exp(center + np.array([-half, half]))
    return interval


def _fit(log, method, weight, prepared, max_iter, tol, features=None, start=None):
    """The propensities (theta / theta[rank 1]) of one weighting of the log's rows.

    Also returns, for EM, its parameters (to warm-start the resamples) and whether it
    converged.
    """
    if method == "em":
        theta, params, converged = em_examination(
            log, weight, max_iter=max_iter, tol=tol, features=features, start=start
        )
        return theta / theta[0], (theta, params), converged
    if method == "harvesting":
        propensity, params = all_pairs_examination(*prepared.counts(weight), start)
        return propensity, params, True
    return swap_examination(log, prepared, weight), None, True


@validate_params(
    {
        "qid": ["array-like"],
        "doc": ["array-like"],
        "logged_rank": ["array-like"],
        "click": ["array-like"],
        "logger": ["array-like", None],
        "features": ["array-like", None],
        "method": [StrOptions(set(METHODS)), None],
        "max_rank": [Integers(1), None],
        "confidence_level": [Interval(Real, 0, 1, closed="neither")],
        "n_bootstrap": [Integers(0)],
        "random_state": [None, Integers(0), np.random.Generator],
        "max_iter": [Integers(1)],
        "tol": [Interval(Real, 0, None, closed="neither")],
    },
    prefer_skip_nested_validation=True,
)
def estimate_position_bias(
    qid: ArrayLike,
    doc: ArrayLike,
    logged_rank: ArrayLike,
    click: ArrayLike,
    *,
    logger: ArrayLike | None = None,
    features: ArrayLike | None = None,
    method: str | None = None,
    max_rank: int | None = None,
    confidence_level: float = 0.95,
    n_bootstrap: int = 200,
    random_state: int | np.random.Generator | None = None,
    max_iter: int = 1000,
    tol: float = 1e-6,
) -> PositionBias:
    """Estimate the examination probability of each rank from a click log.

    Under the position-based click model a user clicks a document when they examine
    it, with a probability that depends on its rank only (the propensity), and find
    it relevant. The propensities are what inverse propensity scoring divides the
    clicks by. Three estimators: EM on the log as it is, intervention harvesting from
    the logs of several rankers, and randomized swaps. The interval of each rank comes
    from a bootstrap over queries, on the log scale.

    Read more in the :ref:`User Guide <position_bias>`.

    Parameters
    ----------
    qid : array-like of shape (n_samples,)
        Query id of each row (one impression of one document). Rows of the same query
        id are the impressions of that query in every session; the bootstrap resamples
        whole queries.
    doc : array-like of shape (n_samples,)
        Document id of each row; a (query, document) pair is one document of one query.
    logged_rank : array-like of shape (n_samples,)
        The rank (from 1, the top) at which the document was shown.
    click : array-like of shape (n_samples,)
        1 if the document was clicked, 0 if not.
    logger : array-like of shape (n_samples,), default=None
        Which logging policy produced each row. For "swap" (required): the rank ``k``
        of the randomized pair (1, k) that the row belongs to (its two rows, at ranks 1
        and ``k``, whether exchanged or not), and 0 for rows in no randomized pair. For
        "harvesting" (optional): the label of the logging ranker, at least two; the
        estimate reads the ranks each document was shown at, with or without it. Not
        used by "em".
    features : array-like of shape (n_samples, n_features), default=None
        Relevance features of each row's (query, document) pair (equal on the rows of a
        pair), for "em" only: the relevance becomes a logistic regression on them (the
        regression EM of Wang et al. 2018) instead of one free relevance per pair. This
        identifies the propensities where each document always sits at one rank (one
        deterministic ranking per query), as long as similar documents appear at
        different ranks across queries.
    method : {"harvesting", "em", "swap"}, default=None
        The estimator; None means "harvesting", or "em" when ``features`` are given.

        - "harvesting": intervention harvesting (Agarwal et al. 2019), the AllPairs
          maximum-likelihood estimator over the pairs of ranks at which the same
          (query, document) was shown in different impressions (by different rankers,
          or one ranker whose order varies). Each pair counts once per rank, through
          its click-through rate there, so that it holds with one to a few sessions
          per query (Zipfian logs): see Notes.
        - "em": expectation-maximisation of the position-based model (Wang et al.
          2018), with one relevance per (query, document) pair, or with a logistic
          regression on ``features``. Without features it needs many impressions per
          pair (it warns below 20: one relevance parameter per pair biases it).
        - "swap": RandPair (Joachims et al. 2017): the click-through rate at rank
          ``k`` over that at rank 1 in the sessions whose documents at ranks 1 and
          ``k`` were shown in a random order.
    max_rank : int, default=None
        Number of ranks estimated; None means the largest logged rank. Ranks without
        impressions get NaN.
    confidence_level : float, default=0.95
        Level of the intervals: Student's t on the log scale,
        ``exp(c -+ t * s)``, with ``s`` the standard deviation of the log of the
        bootstrap estimates, ``c`` the log of the propensity less the bootstrap's
        estimate of its bias, and ``t`` Student's quantile of the level with
        ``n_bootstrap - 1`` degrees of freedom (see Notes).
    n_bootstrap : int, default=200
        Number of bootstrap resamples of the queries; 0 skips the intervals (NaN).
    random_state : int, numpy Generator or None, default=None
        Seed of the bootstrap.
    max_iter : int, default=1000
        Most EM iterations per fit (resamples included), each three EM steps and an
        extrapolation (SQUAREM); a ConvergenceWarning says when the fit on the whole
        log ran out of them. Not used by other methods.
    tol : float, default=1e-6
        EM stops when no propensity (relative to rank 1) moves by more than ``tol``
        in an iteration. Not used by other methods.

    Returns
    -------
    result : PositionBias
        ``propensity`` of shape (max_rank,), indexed by rank - 1 and 1 at rank 1 (NaN at
        ranks the log cannot estimate: never shown, never clicked, or linked to rank 1
        by no intervention), ``confidence_interval`` of shape (2, max_rank), the counts
        of each rank and the bootstrap replicates.

    Raises
    ------
    ValueError
        A log without a click, or one that never shows a (query, document) pair at two
        ranks (unless ``features`` or randomized swaps identify the propensities).

    See Also
    --------
    PositionBiasDisplay : Plot the propensities and their intervals.

    Notes
    -----
    Why ``logger`` marks the swaps: the estimate of rank ``k`` needs the rows of the
    randomized pair (1, k) at both ranks, including the sessions where the random order
    left them in place, which no rank or click reveals; one label per row names the
    experiment, as it names the ranker for harvesting.

    Why harvesting is the default: on logs shaped like real ones (most queries seen
    once, a few dozens of times) its estimate is unbiased within Monte Carlo error and
    its intervals cover, where EM with a free relevance per pair is biased by up to
    30 % (``benchmarks/bench_click_calibration.py``). A query seen once contributes
    nothing (its documents sit at one rank each); the curve is identified by the
    queries seen more often. A rank never clicked gets NaN, not a value near 0: every
    propensity down to 0 fits it, and dividing by a clamp value would blow up an
    estimate downstream (:func:`counterfactual_dcg` refuses such ranks by name).

    EM without ``features`` has a free relevance per (query, document) pair. It is
    identified only where the same document appears at several ranks for its query
    (sessions of a query ranked differently: rankers retrained over time, candidate
    sets that change); on a log where every document always sits at one rank it raises
    a ValueError rather than return an arbitrary curve. Its maximum likelihood is
    biased where pairs have few clicks (one nuisance parameter per pair): the
    benchmark shows the bias shrinking with the impressions per pair. With
    ``features`` the relevance is one logistic regression for all pairs (Wang et al.
    fit gradient-boosted trees there), which needs the model to fit the relevance.
    Intervention harvesting weighs each (query, document) pair once per rank (its
    click-through rate there); the ranks at which a pair is shown should depend on the
    loggers, not on the clicks.

    The intervals resample whole queries (``n_bootstrap`` times) and put a Student t
    interval on ``log(propensity)`` with the standard deviation of the resamples' logs,
    centred on the log of the estimate less the bootstrap's estimate of its bias [4]_:
    a propensity is a ratio, whose log is closer to normal, and the interval stays
    positive. A standard deviation of 200 resamples is steadier than their 2.5 and
    97.5 % quantiles. On 200 logs of 1,000 queries x 5 sessions from
    :func:`~sklearn_ndcg.make_click_log` (examination ``1 / sqrt(r)``), the uncorrected
    normal interval covered 0.943 of ranks 2-10, its worst rank 0.915; this one 0.948,
    its worst rank 0.930. They do not see the bias of EM with a free relevance per pair
    on logs with few sessions per query.

    References
    ----------
    .. [1] T. Joachims, A. Swaminathan and T. Schnabel, "Unbiased Learning-to-Rank with
       Biased Feedback", WSDM 2017.
    .. [2] X. Wang, N. Golbandi, M. Bendersky, D. Metzler and M. Najork, "Position Bias
       Estimation for Unbiased Learning to Rank in Personal Search", WSDM 2018.
    .. [3] A. Agarwal, I. Zaitsev, X. Wang, C. Li, M. Najork and T. Joachims,
       "Estimating Position Bias without Intrusive Interventions", WSDM 2019.
    .. [4] B. Efron and R. J. Tibshirani, "An Introduction to the Bootstrap", Chapman &
       Hall, 1993, ch. 10 (the bootstrap estimate of bias).

    Examples
    --------
    Two rankers show the documents of one query in opposite orders:

    >>> import numpy as np
    >>> from sklearn_ndcg import estimate_position_bias
    >>> qid = np.zeros(8, dtype=int)
    >>> doc = [0, 1, 0, 1, 0, 1, 0, 1]
    >>> logged_rank = [1, 2, 2, 1, 1, 2, 2, 1]
    >>> click = [1, 0, 1, 1, 1, 1, 0, 1]
    >>> logger = ["A", "A", "B", "B", "A", "A", "B", "B"]
    >>> bias = estimate_position_bias(
    ...     qid, doc, logged_rank, click, logger=logger, method="harvesting", n_bootstrap=0)
    >>> bias.propensity.round(3)
    array([1. , 0.5])

    The default, harvesting, needs no logger: it reads the ranks at which each
    document of a query was shown in different impressions.

    >>> estimate_position_bias(qid, doc, logged_rank, click, n_bootstrap=0).propensity.round(3)
    array([1. , 0.5])
    """
    args = qid, doc, logged_rank, click, logger, features, method, max_rank
    return estimate_with_replicates(
        *args, confidence_level, n_bootstrap, random_state, max_iter, tol
    )[0]


def estimate_with_replicates(
    qid,
    doc,
    logged_rank,
    click,
    logger,
    features,
    method,
    max_rank,
    confidence_level,
    n_bootstrap,
    random_state,
    max_iter,
    tol,
) -> tuple[PositionBias, np.ndarray]:
    """:func:`estimate_position_bias` (its parameters validated), and its bootstrap
    replicates, shape (n_bootstrap, max_rank): the benchmark compares intervals on them."""
    log = check_bias_log(qid, doc, logged_rank, click, logger, max_rank)
    if method is None:
        method = "harvesting" if features is None else "em"
    prepared = _check_method_input(log, method, features)
    if features is not None:
        features = pair_features(log, features)
    ones = np.ones(log.rank.shape[0])
    propensity, start, converged = _fit(log, method, ones, prepared, max_iter, tol, features)
    if not converged:
        warn(
            f"EM did not converge in max_iter={max_iter} iterations (tol={tol}); the "
            "propensities may move with more: raise max_iter.",
            ConvergenceWarning,
        )
    impressions = np.bincount(log.rank, minlength=log.max_rank)
    clicks = np.bincount(log.rank, weights=log.click, minlength=log.max_rank).astype(np.intp)
    # a rank never clicked: every propensity down to 0 fits it (no clamp value)
    propensity[clicks == 0] = np.nan
    replicates = np.empty((n_bootstrap, log.max_rank))
    rng = np.random.default_rng(random_state)
    uniform = np.full(log.n_queries, 1.0 / log.n_queries)
    for b in range(n_bootstrap):  # a loop over resamples; each is one array pass
        weight = rng.multinomial(log.n_queries, uniform)[log.query].astype(np.float64)
        replicates[b] = _fit(log, method, weight, prepared, max_iter, tol, features, start)[0]
        drawn_clicks = np.bincount(log.rank, weights=weight * log.click, minlength=log.max_rank)
        replicates[b, drawn_clicks == 0] = np.nan
    interval = bootstrap_log_interval(propensity, replicates, confidence_level)
    return PositionBias(
        propensity=propensity,
        confidence_interval=interval,
        method=method,
        n_queries=log.n_queries,
        confidence_level=float(confidence_level),
        n_bootstrap=int(n_bootstrap),
        impressions=impressions,
        clicks=clicks,
        replicates=replicates,
    ), replicates
