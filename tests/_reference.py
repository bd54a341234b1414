"""A slow, obvious reference for DCG and NDCG, to check the engine against.

Everything here follows the definitions literally, one query and one document
at a time, in plain Python:

- gain: ``rel`` (linear), ``2**rel - 1`` (exponential), ``mapping[rel]``,
  ``sequence[int(rel)]`` or ``callable(rel)`` evaluated one label at a time;
- discount at 1-based rank ``r``: ``1 / log2(r + 1)`` (or ``1 / log_b(r + 1)``),
  ``1 / r``, ``1``, or ``callable(r)`` one rank at a time; 0 after ``k``;
- ties: "first" keeps input order, "optimistic" / "pessimistic" put tied
  documents by decreasing / increasing gain, and "average" is the mean DCG over
  *every permutation* of each tie group, enumerated with ``itertools``.

It does not import the library, so it can fail where the library is wrong.
Only for small inputs: a tie group of n documents costs n! orderings.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np


def gain_of(label: float, gain) -> float:
    """The gain of one relevance label, from the definition of each option."""
    if isinstance(gain, str):
        if label < 0:
            raise ValueError("built-in gains take non-negative labels only")
        if gain == "linear":
            return float(label)
        if gain == "exponential":
            return 2.0**label - 1.0
        raise ValueError(gain)
    if isinstance(gain, Mapping):
        return float(gain[label])
    if callable(gain):
        return float(np.asarray(gain(np.array([float(label)])))[0])
    return float(gain[int(label)])


def discount_of(rank: int, discount, k: int | None, log_base: float | None = None) -> float:
    """The discount of one 1-based rank, 0 after the cutoff ``k``."""
    if k is not None and rank > k:
        return 0.0
    if discount == "log2":
        base = 2.0 if log_base is None else log_base
        return 1.0 / math.log(rank + 1, base)
    if discount == "reciprocal":
        return 1.0 / rank
    if discount == "none":
        return 1.0
    return float(np.asarray(discount(np.array([rank])))[0])


def _dcg_of_order(gains, discount, k, log_base, first_rank=1) -> float:
    return sum(g * discount_of(first_rank + i, discount, k, log_base) for i, g in enumerate(gains))


def query_dcg(
    labels, scores, *, gain="linear", discount="log2", ties="average", k=None, log_base=None
) -> float:
    """DCG of one query; ``labels`` and ``scores`` in input order."""
    gains = [gain_of(label, gain) for label in labels]
    docs = list(zip(scores, gains))  # input order, kept by the stable sorts
    if ties == "first":
        ranked = sorted(docs, key=lambda d: -d[0])
        return _dcg_of_order([g for _, g in ranked], discount, k, log_base)
    if ties == "optimistic":
        ranked = sorted(docs, key=lambda d: (-d[0], -d[1]))
        return _dcg_of_order([g for _, g in ranked], discount, k, log_base)
    if ties == "pessimistic":
        ranked = sorted(docs, key=lambda d: (-d[0], d[1]))
        return _dcg_of_order([g for _, g in ranked], discount, k, log_base)
    if ties != "average":
        raise ValueError(ties)
    # Tie groups, by decreasing score. Each group occupies a fixed block of
    # ranks; the DCG of the ranking is the sum over groups, so the mean over
    # all orderings of all groups is the sum of each group's mean over its own
    # permutations.
    total = 0.0
    first_rank = 1
    for score in sorted(set(scores), reverse=True):
        group = [g for s, g in docs if s == score]
        perms = list(itertools.permutations(group))
        total += sum(_dcg_of_order(p, discount, k, log_base, first_rank) for p in perms) / len(
            perms
        )
        first_rank += len(group)
    return total


def query_ideal_dcg(labels, *, gain="linear", discount="log2", k=None) -> float:
    """DCG of the documents in the order of decreasing *gain*."""
    gains = sorted((gain_of(label, gain) for label in labels), reverse=True)
    return _dcg_of_order(gains, discount, k, None)


def query_ndcg(
    labels, scores, *, zero_division=0.0, gain="linear", discount="log2", ties="average", k=None
) -> float:
    """NDCG of one query; ``zero_division`` when the ideal DCG is <= 0."""
    ideal = query_ideal_dcg(labels, gain=gain, discount=discount, k=k)
    if ideal <= 0:
        return zero_division
    dcg = query_dcg(labels, scores, gain=gain, discount=discount, ties=ties, k=k)
    return dcg / ideal


def split_queries(y_true, y_score, qid=None, sample_weight=None):
    """``{query id: (labels, scores, weight)}``, documents in input order.

    2-D input (``qid`` None and nested rows) is one query per row.
    """
    y_true = np.asarray(y_true, dtype=float)
    y_score = np.asarray(y_score, dtype=float)
    if y_true.ndim == 2:
        weights = [1.0] * len(y_true) if sample_weight is None else list(sample_weight)
        return {
            i: (list(y_true[i]), list(y_score[i]), float(weights[i])) for i in range(len(y_true))
        }
    qid = [0] * len(y_true) if qid is None else list(qid)
    weights = [1.0] * len(y_true) if sample_weight is None else list(sample_weight)
    queries = {}
    for q, t, s, w in zip(qid, y_true, y_score, weights):
        labels, scores, _ = queries.setdefault(q, ([], [], float(w)))
        labels.append(float(t))
        scores.append(float(s))
    return queries


def _weighted_mean(values_and_weights):
    kept = [(v, w) for v, w in values_and_weights if not math.isnan(v)]
    total = sum(w for _, w in kept)
    if not kept or total == 0:
        return math.nan
    return sum(v * w for v, w in kept) / total


def ndcg(y_true, y_score, *, qid=None, sample_weight=None, zero_division=0.0, **options):
    """Weighted mean NDCG over queries; NaN values are left out."""
    queries = split_queries(y_true, y_score, qid, sample_weight)
    return _weighted_mean(
        (query_ndcg(labels, scores, zero_division=zero_division, **options), w)
        for labels, scores, w in queries.values()
    )


def dcg(y_true, y_score, *, qid=None, sample_weight=None, **options):
    """Weighted mean DCG over queries."""
    queries = split_queries(y_true, y_score, qid, sample_weight)
    return _weighted_mean(
        (query_dcg(labels, scores, **options), w) for labels, scores, w in queries.values()
    )


def per_query_ndcg(y_true, y_score, *, qid=None, zero_division=0.0, **options):
    """``{query id: NDCG}``."""
    queries = split_queries(y_true, y_score, qid)
    return {
        q: query_ndcg(labels, scores, zero_division=zero_division, **options)
        for q, (labels, scores, _) in queries.items()
    }
