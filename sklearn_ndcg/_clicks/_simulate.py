"""Click logs with a known truth: graded relevance, a logger, and a click model.

Private: the tests, the benchmark and the gallery use it to check the estimators of
:func:`~sklearn_ndcg.counterfactual_dcg` against the exact DCG of a ranker.

The estimand is the DCG@k of a ranking under the relevance the estimators target: the
probability that a user who examines a document clicks it, ``attractiveness[grade]``.
For a ranker that orders each query's documents by ``y_score``, the true DCG@k is
``mean over queries of sum_d attractiveness(d) / log2(1 + rank(d))`` over its top k
(tied documents taking the mean discount of their ranks), computed exactly from the
simulated grades, with no clicks involved.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .._metrics import query_scores

#: click probability of an examined document of each grade 0..4 (the relevance)
ATTRACTIVENESS = np.array([0.05, 0.2, 0.4, 0.7, 0.95])


def power_propensity(n_ranks: int, eta: float = 1.0) -> np.ndarray:
    """The examination probability ``(1 / rank) ** eta`` of ranks 1 to ``n_ranks``."""
    return (1.0 / np.arange(1, n_ranks + 1)) ** eta


@dataclass(frozen=True)
class LoggedClicks:
    """One simulated log: the rows of every query, where they were shown, and the clicks."""

    qid: np.ndarray
    logged_rank: np.ndarray
    click: np.ndarray
    logging_probability: np.ndarray | None


@dataclass(frozen=True)
class ClickSimulation:
    """Fixed queries (grades, features, the logger's scores) from which logs are drawn.

    Rows are query by query, ``n_documents`` each. ``X`` has three features: the
    logger's score, a noisy grade (a better ranker's score) and pure noise.
    """

    qid: np.ndarray
    grade: np.ndarray
    X: np.ndarray
    propensity: np.ndarray
    click_model: str = "position"
    epsilon: float = 0.0

    @property
    def relevance(self) -> np.ndarray:
        """The click probability of each row once examined: the estimand's relevance."""
        return ATTRACTIVENESS[self.grade]

    @property
    def base_rank(self) -> np.ndarray:
        """The deterministic logger's rank of each row: by decreasing ``X[:, 0]``."""
        return _ranks(self.X[:, 0], self.qid)

    def true_dcg(self, y_score, k: int | None = None) -> float:
        """The exact DCG@k of the ranker with scores ``y_score`` (see the module's note)."""
        return float(self.true_per_query(y_score, k).mean())

    def true_per_query(self, y_score, k: int | None = None) -> np.ndarray:
        """The exact DCG@k of each query."""
        return query_scores(self.relevance, y_score, qid=self.qid, metric="dcg", k=k).score

    def log(self, random_state=None) -> LoggedClicks:
        """Draw one log: positions (random with ``epsilon``) and clicks.

        An int ``random_state`` seeds a stream apart from the one
        :func:`simulate_clicks` drew the queries from with the same int: the same
        uniforms would tie the clicks to the grades.
        """
        if isinstance(random_state, (int, np.integer)):
            rng = np.random.default_rng([int(random_state), 35])
        else:
            rng = np.random.default_rng(random_state)
        n_queries = int(self.qid.max()) + 1
        n_documents = self.qid.shape[0] // n_queries
        rank = self.base_rank.copy()
        probability = None
        if self.epsilon > 0:  # with probability epsilon, a uniformly random order
            shuffled = rng.random(n_queries) < self.epsilon
            keys = rng.random((n_queries, n_documents)).argsort(axis=1).argsort(axis=1) + 1
            rank = np.where(np.repeat(shuffled, n_documents), keys.reshape(-1), rank)
            at_base = rank == self.base_rank
            probability = self.epsilon / n_documents + (1 - self.epsilon) * at_base
        if self.click_model == "position":
            seen = rng.random(rank.shape[0]) < self.propensity[rank - 1]
            click = seen & (rng.random(rank.shape[0]) < self.relevance)
        else:  # cascade: top down, each examined document clicked with its relevance; stop
            click = _cascade(rank, self.relevance, n_queries, n_documents, rng)
        return LoggedClicks(self.qid, rank, click.astype(np.float64), probability)


def _ranks(score: np.ndarray, qid: np.ndarray) -> np.ndarray:
    """Rank (from 1) of each row by decreasing score within its query; ties by row."""
    order = np.lexsort((-score, qid))
    n_queries = int(qid.max()) + 1
    n_documents = qid.shape[0] // n_queries
    rank = np.empty(qid.shape[0], dtype=np.intp)
    rank[order] = np.tile(np.arange(1, n_documents + 1), n_queries)
    return rank


def _cascade(rank, relevance, n_queries, n_documents, rng) -> np.ndarray:
    """Cascade clicks: the first attractive document in the shown order is clicked."""
    attracted = rng.random(rank.shape[0]) < relevance
    by_position = np.zeros((n_queries, n_documents), dtype=bool)
    row = np.arange(rank.shape[0])
    by_position[row // n_documents, rank - 1] = attracted
    first = np.where(by_position.any(axis=1), by_position.argmax(axis=1) + 1, 0)
    return rank == np.repeat(first, n_documents)


def simulate_clicks(
    n_queries: int = 1000,
    n_documents: int = 10,
    *,
    eta: float = 1.0,
    logger_noise: float = 1.0,
    ranker_noise: float = 0.5,
    click_model: str = "position",
    epsilon: float = 0.0,
    random_state=None,
) -> ClickSimulation:
    """Queries with graded documents 0..4, a logger that ranks by a noisy grade, and
    examination ``(1 / rank) ** eta``; draw logs with :meth:`ClickSimulation.log`.

    ``X[:, 0]`` is the logger's score (grade plus ``logger_noise``), ``X[:, 1]`` a
    better ranker's (grade plus ``ranker_noise``), ``X[:, 2]`` noise.
    """
    if click_model not in ("position", "cascade"):
        raise ValueError(f'click_model must be "position" or "cascade"; got {click_model!r}.')
    rng = np.random.default_rng(random_state)
    n = n_queries * n_documents
    qid = np.repeat(np.arange(n_queries), n_documents)
    grade = rng.choice(5, size=n, p=[0.5, 0.2, 0.15, 0.1, 0.05])
    X = np.column_stack(
        [
            grade + logger_noise * rng.normal(size=n),
            grade + ranker_noise * rng.normal(size=n),
            rng.normal(size=n),
        ]
    )
    propensity = power_propensity(n_documents, eta)
    return ClickSimulation(qid, grade, X, propensity, click_model, epsilon)


__all__ = [
    "ATTRACTIVENESS",
    "ClickSimulation",
    "LoggedClicks",
    "power_propensity",
    "simulate_clicks",
]
