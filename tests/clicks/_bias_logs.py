"""Click logs with known propensities, for the tests and benchmark of position bias.

Clicks follow the position-based model: a document at rank ``r`` is clicked with
probability ``PROPENSITY[r - 1] * relevance``, where the relevance of a (query,
document) pair is ``0.05 + 0.9 * (2**label - 1) / 15`` of a label drawn from 0..4.
Every logger is deterministic: it ranks a query's documents by its own fixed scores.

- ``em_log``: one logger; each session of a query retrieves a random subset of the
  query's candidates (an index that changes), so a document's rank varies.
- ``harvesting_log``: several loggers with different scores; each session is served
  by one of them; ``logger`` names it.
- ``swap_log``: one logger, and in every session the documents at rank 1 and at a
  random rank ``k`` are shown in a random order (RandPair); ``logger`` is ``k`` on
  those two rows, 0 on the others.
"""

from typing import NamedTuple

import numpy as np

MAX_RANK = 10
# the simulated truth: 1 / r ** 0.7, rank 1 scaled to 1
PROPENSITY = 1.0 / np.arange(1, MAX_RANK + 1) ** 0.7


class ClickLog(NamedTuple):
    qid: np.ndarray
    doc: np.ndarray
    logged_rank: np.ndarray
    click: np.ndarray
    logger: np.ndarray | None
    propensity: np.ndarray


def _relevance(rng, n_queries, n_docs):
    label = rng.integers(0, 5, (n_queries, n_docs))
    return label, 0.05 + 0.9 * (2.0**label - 1) / 15


def _clicks(rng, relevance_shown, rank, propensity):
    return (rng.random(rank.shape) < propensity[rank - 1] * relevance_shown).astype(np.int64)


def _flatten(qid, doc, rank, click, logger, propensity):
    return ClickLog(
        qid.ravel(),
        doc.ravel(),
        rank.ravel(),
        click.ravel(),
        None if logger is None else logger.ravel(),
        propensity.copy(),
    )


def em_log(n_queries, *, n_sessions=6, n_candidates=14, seed=0, propensity=PROPENSITY):
    """One deterministic ranker; each session shows the top 10 of a random subset."""
    rng = np.random.default_rng(seed)
    label, relevance = _relevance(rng, n_queries, n_candidates)
    score = label + rng.normal(0, 1.0, label.shape)  # the logger's fixed scores
    n_rank = propensity.shape[0]
    # each session: a random subset of n_rank candidates, ranked by the fixed scores
    keys = rng.random((n_queries, n_sessions, n_candidates))
    subset = np.argsort(keys, axis=2)[:, :, :n_rank]
    subset_score = np.take_along_axis(
        np.broadcast_to(score[:, None, :], keys.shape), subset, axis=2
    )
    doc = np.take_along_axis(subset, np.argsort(-subset_score, axis=2), axis=2)
    rank = np.broadcast_to(np.arange(1, n_rank + 1), doc.shape)
    shown = np.take_along_axis(np.broadcast_to(relevance[:, None, :], keys.shape), doc, axis=2)
    click = _clicks(rng, shown, rank, propensity)
    qid = np.broadcast_to(np.arange(n_queries)[:, None, None], doc.shape)
    return _flatten(qid, doc, rank, click, None, propensity)


def harvesting_log(n_queries, *, n_loggers=3, n_sessions=6, seed=0, propensity=PROPENSITY):
    """Several deterministic rankers, each with its own scores; a session picks one."""
    rng = np.random.default_rng(seed)
    n_rank = propensity.shape[0]
    label, relevance = _relevance(rng, n_queries, n_rank)
    score = label[:, None, :] + rng.normal(0, 1.5, (n_queries, n_loggers, n_rank))
    order = np.argsort(-score, axis=2)  # order[q, m]: the documents, best first
    logger = rng.integers(0, n_loggers, (n_queries, n_sessions))
    doc = order[np.arange(n_queries)[:, None], logger]  # (queries, sessions, ranks)
    rank = np.broadcast_to(np.arange(1, n_rank + 1), doc.shape)
    shown = np.take_along_axis(np.broadcast_to(relevance[:, None, :], doc.shape), doc, axis=2)
    click = _clicks(rng, shown, rank, propensity)
    qid = np.broadcast_to(np.arange(n_queries)[:, None, None], doc.shape)
    logger = np.broadcast_to(logger[:, :, None], doc.shape)
    return _flatten(qid, doc, rank, click, logger, propensity)


def swap_log(n_queries, *, n_sessions=4, seed=0, propensity=PROPENSITY):
    """One deterministic ranker; each session swaps rank 1 and a random k half the time."""
    rng = np.random.default_rng(seed)
    n_rank = propensity.shape[0]
    label, relevance = _relevance(rng, n_queries, n_rank)
    score = label + rng.normal(0, 1.0, label.shape)
    order = np.argsort(-score, axis=1)
    doc = np.repeat(order[:, None, :], n_sessions, axis=1).copy()
    partner = rng.integers(2, n_rank + 1, (n_queries, n_sessions))
    swap = rng.random((n_queries, n_sessions)) < 0.5
    q, s = np.nonzero(swap)
    k = partner[q, s] - 1
    doc[q, s, 0], doc[q, s, k] = doc[q, s, k], doc[q, s, 0].copy()
    rank = np.broadcast_to(np.arange(1, n_rank + 1), doc.shape)
    in_pair = (rank == 1) | (rank == partner[:, :, None])
    logger = np.where(in_pair, partner[:, :, None], 0)
    shown = np.take_along_axis(np.broadcast_to(relevance[:, None, :], doc.shape), doc, axis=2)
    click = _clicks(rng, shown, rank, propensity)
    qid = np.broadcast_to(np.arange(n_queries)[:, None, None], doc.shape)
    return _flatten(qid, doc, rank, click, logger, propensity)


# the relevance model of regression_log: 1 / (1 + exp(-(features @ BETA + INTERCEPT)))
BETA = np.array([1.2, -0.8, 0.5])
INTERCEPT = -1.0


def regression_log(n_queries, *, n_sessions=1, seed=0, propensity=PROPENSITY):
    """One deterministic ranker, the same ranking in every session of a query.

    Relevance is a logistic function of three features of the document (the model of
    the regression EM); the ranker scores by the same features plus fixed noise, so a
    document keeps its rank and only the features link ranks across queries.
    """
    rng = np.random.default_rng(seed)
    n_rank = propensity.shape[0]
    features = rng.normal(size=(n_queries, n_rank, BETA.shape[0]))
    relevance = 1.0 / (1.0 + np.exp(-(features @ BETA + INTERCEPT)))
    score = features @ BETA + rng.normal(0, 1.5, (n_queries, n_rank))
    order = np.argsort(-score, axis=1)
    doc = np.repeat(order[:, None, :], n_sessions, axis=1)
    rank = np.broadcast_to(np.arange(1, n_rank + 1), doc.shape)
    shown = np.take_along_axis(np.broadcast_to(relevance[:, None, :], doc.shape), doc, axis=2)
    click = _clicks(rng, shown, rank, propensity)
    qid = np.broadcast_to(np.arange(n_queries)[:, None, None], doc.shape)
    row_features = features[qid.ravel(), doc.ravel()]
    return _flatten(qid, doc, rank, click, None, propensity), row_features
