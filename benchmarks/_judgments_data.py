"""Simulated relevance labels from people and from a biased language model.

Each query has ``n_docs`` documents with true grades 0..3 (a query-level share of
relevant documents, drawn from a beta distribution, so that queries differ in
difficulty). Two rankers score them: ``a`` by the true grade with noise, ``b`` by a
weaker signal of the grade plus a "style" feature (uniform on [0, 1]) that has nothing
to do with relevance: ``a`` is truly better, by about 0.03 of mean NDCG@10. The model
labeller is lenient (it raises a grade by one with probability ``lenience``), confuses
grades (a random grade with probability ``confusion``) and favours stylish documents (a
grade up with probability ``style_bias`` when the style feature is above 0.7), as a
language model can favour text that resembles its own: under its labels the mean
NDCG@10 of ``a`` is about 0.04 too low, and ``a`` and ``b`` look alike. The per-query
NDCG@10 of each ranker under the true and the model's labels comes from
:func:`sklearn_ndcg.query_scores`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from sklearn_ndcg import query_scores


class Judged(NamedTuple):
    """Per-query NDCG@10 of rankers a and b under true and model labels; query ids."""

    qid: np.ndarray
    true_a: np.ndarray
    true_b: np.ndarray
    model_a: np.ndarray
    model_b: np.ndarray


def simulate(
    rng: np.random.Generator,
    n_queries: int,
    n_docs: int = 20,
    *,
    lenience: float = 0.35,
    confusion: float = 0.15,
    style_bias: float = 0.8,
) -> Judged:
    """One collection of ``n_queries`` queries, judged by people and by the model."""
    shape = (n_queries, n_docs)
    share = rng.beta(1.2, 2.5, size=(n_queries, 1))
    grade = rng.binomial(3, share * np.ones(shape)).astype(float)
    style = rng.random(shape)
    score_a = grade + rng.normal(0, 1.0, shape)
    score_b = 0.9 * grade + style + rng.normal(0, 1.0, shape)
    up = (rng.random(shape) < lenience) | ((style > 0.7) & (rng.random(shape) < style_bias))
    model = np.minimum(grade + up, 3)
    confused = rng.random(shape) < confusion
    model[confused] = rng.integers(0, 4, size=int(confused.sum()))
    values = {
        name: query_scores(labels, scores, k=10).score
        for name, labels, scores in [
            ("true_a", grade, score_a),
            ("true_b", grade, score_b),
            ("model_a", model, score_a),
            ("model_b", model, score_b),
        ]
    }
    return Judged(qid=np.arange(n_queries), **values)


def human_sample(rng: np.random.Generator, n_queries: int, n_labelled: int) -> np.ndarray:
    """A simple random sample of the queries to be judged by people, sorted."""
    return np.sort(rng.choice(n_queries, size=n_labelled, replace=False))
