"""make_click_log: click logs simulated with a known truth, shaped like real logs.

Each query has ``n_documents`` candidates with graded relevance; every impression (a
session of the query) shows all of them in an order the logging policy chooses, and the
user clicks under the position-based model (examination ``propensity[rank - 1]`` times
the document's relevance) or the cascade model. The truth is known: the propensities,
each row's relevance, and the exact DCG@k of any ranker, so that the estimators of
:func:`~sklearn_ndcg.estimate_position_bias` and :func:`~sklearn_ndcg.counterfactual_dcg`
can be checked against it.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Real

import numpy as np
from numpy.typing import ArrayLike
from sklearn.utils import check_random_state

from .._metrics import query_scores
from .._validate_params import Integers, Interval, StrOptions, validate_params

#: click probability of an examined document of each grade 0..4 (the relevance)
ATTRACTIVENESS = np.array([0.05, 0.2, 0.4, 0.7, 0.95])
GRADE_SHARE = np.array([0.5, 0.2, 0.15, 0.1, 0.05])
LOGGING = ("deterministic", "noisy", "stochastic", "swap", "loggers")
ZIPF_EXPONENT, ZIPF_CAP = 2.0, 100


@dataclass(frozen=True)
class SimulatedClickLog:
    """A simulated click log, one row per document of each impression, and its truth.

    Columns of the log: ``qid`` (the query), ``impression`` (the logged ranking),
    ``doc``, ``logged_rank``, ``click``, ``logging_probability`` (``logging=
    "stochastic"`` only, else None), ``logger`` (``"swap"``: the rank ``k`` of the
    randomized pair (1, k) of the row, 0 outside it; ``"loggers"``: the logger's number;
    else None) and ``X``, three features of each row's (query, document): the logger's
    score, a better ranker's score (the grade plus less noise) and pure noise. The
    truth: ``relevance`` (the click probability of each row once examined),
    ``propensity`` (the examination probability of each rank) and :meth:`true_dcg`.
    """

    qid: np.ndarray
    impression: np.ndarray
    doc: np.ndarray
    logged_rank: np.ndarray
    click: np.ndarray
    logging_probability: np.ndarray | None
    logger: np.ndarray | None
    X: np.ndarray
    relevance: np.ndarray
    propensity: np.ndarray

    def true_dcg(self, y_score: ArrayLike, k: int | None = None) -> float:
        """The exact DCG@k of a ranker, from the simulated relevance.

        The mean over queries, each counted once, of ``sum relevance / log2(1 + rank)``
        over the ranker's top ``k`` of the query's candidates (tied candidates taking the
        mean discount of their ranks). No click is involved.

        Parameters
        ----------
        y_score : array-like of shape (n_samples,)
            The ranker's score of each row of the log (equal on the rows of one
            (query, document) pair: a score of its features).
        k : int, default=None
            Only the top ``k`` count; None means all.

        Returns
        -------
        dcg : float
            The true DCG@k, the estimand of :func:`~sklearn_ndcg.counterfactual_dcg`.
        """
        return float(self.true_per_query(y_score, k).score.mean())

    def true_per_query(self, y_score: ArrayLike, k: int | None = None):
        """The exact DCG@k of each query.

        Parameters
        ----------
        y_score : array-like of shape (n_samples,)
            The ranker's score of each row of the log.
        k : int, default=None
            Only the top ``k`` count; None means all.

        Returns
        -------
        per_query : QueryScores
            The query ids and the true DCG@k of each.
        """
        y_score = np.asarray(y_score, dtype=np.float64)
        first = self.impression == self.impression[np.searchsorted(self.qid, self.qid)]
        return query_scores(
            self.relevance[first], y_score[first], qid=self.qid[first], metric="dcg", k=k
        )


def _sessions(sessions, n_queries: int, rng) -> np.ndarray:
    if isinstance(sessions, str):  # "zipf": most queries seen once, a few very often
        return np.minimum(rng.zipf(ZIPF_EXPONENT, size=n_queries), ZIPF_CAP)
    return np.full(n_queries, int(sessions))


def _orders(base: np.ndarray, logging: str, noise, rng):
    """The order (candidate at each position) of every impression, shape
    (n_impressions, n_documents), and the logger label of each impression's rows."""
    n_imp, n_docs = base.shape
    logger = None
    if logging == "noisy":
        return np.argsort(-(base + noise * rng.normal(size=base.shape)), axis=1), None
    order = np.argsort(-base, axis=1)
    if logging == "stochastic":
        shuffled = rng.random(n_imp) < noise
        random = rng.random((n_imp, n_docs)).argsort(axis=1)
        order = np.where(shuffled[:, None], random, order)
    elif logging == "swap":  # RandPair: ranks 1 and k exchanged with probability 1/2
        k = rng.integers(2, n_docs + 1, size=n_imp)
        swap = rng.random(n_imp) < 0.5
        rows = np.flatnonzero(swap)
        top = order[rows, 0].copy()
        order[rows, 0] = order[rows, k[rows] - 1]
        order[rows, k[rows] - 1] = top
        position = np.arange(1, n_docs + 1)
        logger = np.where((position == 1) | (position == k[:, None]), k[:, None], 0)
    return order, logger


@validate_params(
    {
        "n_queries": [Integers(1)],
        "n_documents": [Integers(2)],
        "sessions": [Integers(1), StrOptions({"zipf"})],
        "logging": [StrOptions(set(LOGGING))],
        "logger_noise": [Interval(Real, 0, None, closed="left")],
        "epsilon": [Interval(Real, 0, 1, closed="neither")],
        "n_loggers": [Integers(2)],
        "eta": [Interval(Real, 0, None, closed="left")],
        "click_model": [StrOptions({"position", "cascade"})],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_click_log(
    n_queries: int = 1000,
    n_documents: int = 10,
    *,
    sessions: int | str = 1,
    logging: str = "noisy",
    logger_noise: float = 1.0,
    epsilon: float = 0.3,
    n_loggers: int = 3,
    eta: float = 1.0,
    click_model: str = "position",
    random_state=None,
) -> SimulatedClickLog:
    """Simulate a click log with a known truth.

    Every query has ``n_documents`` candidates with relevance grades 0 to 4 (half of
    them 0, 5 % of them 4); each impression of the query shows all of them, in the
    order of the logging policy, and the user examines rank ``r`` with probability
    ``(1 / r) ** eta`` and clicks an examined document with its relevance,
    ``[0.05, 0.2, 0.4, 0.7, 0.95]`` by grade (the position-based model), or clicks the
    first attractive document in the shown order (the cascade model, on which the
    position-based estimators are misspecified).

    Read more in the :ref:`User Guide <clicks>`.

    Parameters
    ----------
    n_queries : int, default=1000
        Number of distinct queries.
    n_documents : int, default=10
        Candidates of each query, all shown in every impression (ranks 1 to
        ``n_documents``).
    sessions : int or "zipf", default=1
        Impressions of each query: the same number for every query, or "zipf" for
        the skew of real search logs: Zipf's law with exponent 2, capped at 100 (about
        61 % of the queries seen once, 15 % twice, a few dozens of times).
    logging : {"noisy", "deterministic", "stochastic", "swap", "loggers"}, default="noisy"
        The logging policy. The logger ranks by the grade plus noise of standard
        deviation ``logger_noise`` drawn once per (query, document)
        (``X[:, 0]``), and:

        - "noisy": fresh noise of the same size in every impression, so that a
          document's rank varies between impressions of its query;
        - "deterministic": the same ranking in every impression;
        - "stochastic": with probability ``epsilon`` a uniformly random order, else the
          deterministic one; ``logging_probability`` is the probability of each row's
          position (``epsilon / n_documents``, plus ``1 - epsilon`` at the logger's own
          position);
        - "swap": the deterministic ranking with ranks 1 and ``k`` exchanged with
          probability 1/2, ``k`` uniform in 2 to ``n_documents`` (RandPair);
          ``logger`` marks the pair, as :func:`~sklearn_ndcg.estimate_position_bias`
          reads it;
        - "loggers": ``n_loggers`` deterministic rankers (each with its own noise), one
          drawn per impression; ``logger`` is its number.
    logger_noise : float, default=1.0
        Standard deviation of the logger's noise on the grade.
    epsilon : float in (0, 1), default=0.3
        For "stochastic": the probability of a random order.
    n_loggers : int, default=3
        For "loggers": the number of rankers.
    eta : float, default=1.0
        Examination ``(1 / r) ** eta``: 1 gives ``1 / r``, 0.5 gives ``1 / sqrt(r)``.
    click_model : {"position", "cascade"}, default="position"
        The user's click model.
    random_state : int, RandomState instance or None, default=None
        Seed of the simulation.

    Returns
    -------
    log : SimulatedClickLog
        The rows of every impression, query by query (``qid`` sorted), with their
        features, the truth and :meth:`~SimulatedClickLog.true_dcg`.

    See Also
    --------
    estimate_position_bias : The propensities from the log.
    counterfactual_dcg : A new ranker's DCG@k from the log.

    Examples
    --------
    >>> from sklearn_ndcg import make_click_log
    >>> log = make_click_log(200, 5, sessions="zipf", random_state=0)
    >>> log.propensity.round(2)
    array([1.  , 0.5 , 0.33, 0.25, 0.2 ])
    >>> round(log.true_dcg(log.X[:, 1], k=3), 4)
    0.8302
    """
    rng = check_random_state(random_state)
    if not isinstance(rng, np.random.Generator):  # one stream of the modern generator
        rng = np.random.default_rng(rng.randint(np.iinfo(np.int32).max))
    grade = rng.choice(5, size=(n_queries, n_documents), p=GRADE_SHARE)
    noisy = grade + logger_noise * rng.normal(size=grade.shape)
    X = np.stack(
        [noisy, grade + 0.5 * rng.normal(size=grade.shape), rng.normal(size=grade.shape)],
        axis=-1,
    )
    n_sessions = _sessions(sessions, n_queries, rng)
    query = np.repeat(np.arange(n_queries), n_sessions)
    base = noisy[query]
    label = None
    if logging == "loggers":
        label = rng.integers(n_loggers, size=query.shape[0])
        own = logger_noise * rng.normal(size=(n_loggers, n_queries, n_documents))
        base = grade[query] + own[label, query]
    spread = epsilon if logging == "stochastic" else logger_noise
    order, pair_label = _orders(base, logging, spread, rng)
    n_imp = query.shape[0]
    rank = np.broadcast_to(np.arange(1, n_documents + 1), order.shape)
    propensity = (1.0 / np.arange(1, n_documents + 1)) ** eta
    relevance = ATTRACTIVENESS[grade[query[:, None], order]]
    if click_model == "position":
        click = (rng.random(order.shape) < propensity) & (rng.random(order.shape) < relevance)
    else:  # cascade: examined top down until the first attractive document, clicked
        attracted = rng.random(order.shape) < relevance
        first = np.where(attracted.any(axis=1), attracted.argmax(axis=1), n_documents)
        click = np.arange(n_documents) == first[:, None]
    probability = None
    if logging == "stochastic":
        at_base = order == np.argsort(-base, axis=1)
        probability = (epsilon / n_documents + (1 - epsilon) * at_base).reshape(-1)
    logger = None
    if pair_label is not None:
        logger = pair_label.reshape(-1)
    elif label is not None:
        logger = np.repeat(label, n_documents)
    return SimulatedClickLog(
        qid=np.repeat(query, n_documents),
        impression=np.repeat(np.arange(n_imp), n_documents),
        doc=order.reshape(-1),
        logged_rank=np.ascontiguousarray(rank).reshape(-1),
        click=click.reshape(-1).astype(np.float64),
        logging_probability=probability,
        logger=logger,
        X=X[query[:, None], order].reshape(-1, 3),
        relevance=relevance.reshape(-1),
        propensity=propensity,
    )
