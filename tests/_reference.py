"""A slow, obvious reference for DCG and NDCG, to check the engine against.

Everything here follows the definitions literally, one query and one document
at a time, in plain Python:

- gain: ``rel`` (linear), ``2**rel - 1`` (exponential), ``mapping[rel]``,
  ``sequence[int(rel)]`` or ``callable(rel)`` evaluated one label at a time;
- discount at 1-based rank ``r``: ``1 / log2(r + 1)`` (or ``1 / log_b(r + 1)``),
  ``1 / r``, ``1``, or ``callable(r)`` one rank at a time; 0 after ``k``;
- ties: "first" keeps input order, "optimistic" / "pessimistic" put tied
  documents by decreasing / increasing gain, and "average" is the mean DCG over
  *every permutation* of each tie group, enumerated with ``itertools`` for
  groups of up to ``ENUMERATE_UP_TO`` documents; a larger group takes its mean
  gain at each of its ranks, the closed form of that mean (McSherry & Najork,
  "Computing information retrieval performance measures efficiently in the
  presence of tied scores", ECIR 2008, eq. 3: by linearity of expectation each
  document of a group is equally likely at each of the group's ranks);
- document weights multiply each document's gain in the DCG only, not in the
  ideal or worst DCG (the docs of ``document_weight``);
- min-max NDCG: (DCG - worst DCG) / (ideal DCG - worst DCG), the worst DCG that of
  the documents by increasing gain (Gienapp et al., "The impact of negative
  relevance judgments on NDCG", CIKM 2020), kept in [0, 1] without document
  weights as documented;
- a judgment pool: the ideal DCG from the gains of every judged document of the
  query (negative gains count as 0 there: a system need not retrieve them), the
  worst DCG from the pool's gains by increasing gain; unjudged ranked documents
  (label None or NaN) gain 0 ("zero") or are removed ("drop"); queries of the
  ranking without judgments are left out, queries of the pool without a ranking
  are left out ("drop") or have a DCG of 0 (of the worst order under min-max).

It does not import the library, so it can fail where the library is wrong.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping

import numpy as np

ENUMERATE_UP_TO = 6
"""Tie groups up to this size are averaged over every permutation, larger ones by the
closed form (McSherry & Najork, 2008)."""


def gain_of(label: float, gain, negative_ok: bool = False) -> float:
    """The gain of one relevance label, from the definition of each option.

    Built-in gains refuse negative labels unless ``negative_ok`` (min-max NDCG)."""
    if isinstance(gain, str):
        if label < 0 and not negative_ok:
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
    labels,
    scores,
    *,
    gain="linear",
    discount="log2",
    ties="average",
    k=None,
    log_base=None,
    document_weight=None,
    negative_ok=False,
) -> float:
    """DCG of one query; ``labels`` and ``scores`` in input order.

    A label None is an unjudged document: it gains 0. ``document_weight`` (one per
    document) multiplies each gain."""
    weights = [1.0] * len(labels) if document_weight is None else list(document_weight)
    gains = [
        0.0 if _missing(label) else gain_of(label, gain, negative_ok) * w
        for label, w in zip(labels, weights)
    ]
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
        if len(group) <= ENUMERATE_UP_TO:
            perms = list(itertools.permutations(group))
            total += sum(_dcg_of_order(p, discount, k, log_base, first_rank) for p in perms) / len(
                perms
            )
        else:  # McSherry & Najork (2008): the mean gain at each of the group's ranks
            mean_gain = sum(group) / len(group)
            total += mean_gain * sum(
                discount_of(first_rank + i, discount, k, log_base) for i in range(len(group))
            )
        first_rank += len(group)
    return total


def _missing(label) -> bool:
    return label is None or (isinstance(label, float) and math.isnan(label))


def query_ideal_dcg(
    labels, *, gain="linear", discount="log2", k=None, log_base=None, negative_ok=False
) -> float:
    """DCG of the documents in the order of decreasing *gain*."""
    gains = sorted((gain_of(label, gain, negative_ok) for label in labels), reverse=True)
    return _dcg_of_order(gains, discount, k, log_base)


def query_worst_dcg(
    labels, *, gain="linear", discount="log2", k=None, log_base=None, negative_ok=False
) -> float:
    """DCG of the documents in the order of increasing gain (Gienapp et al., 2020)."""
    gains = sorted(gain_of(label, gain, negative_ok) for label in labels)
    return _dcg_of_order(gains, discount, k, log_base)


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


def query_value(
    labels,
    scores,
    *,
    metric="ndcg",
    normalize="ideal",
    pool_labels=None,
    document_weight=None,
    unjudged="zero",
    zero_division=0.0,
    gain="linear",
    discount="log2",
    ties="average",
    k=None,
    log_base=None,
) -> float:
    """NDCG (or DCG) of one query under every option of the public functions.

    ``labels`` None: a query of the pool that was not ranked (DCG 0, or the worst
    DCG under min-max, so that it scores 0). A label None or NaN is an unjudged
    document; ``pool_labels`` are the query's judgments (the ideal and worst DCG
    come from them instead of ``labels``).
    """
    minmax = metric == "ndcg" and normalize == "minmax"
    options = dict(gain=gain, discount=discount, k=k, log_base=log_base, negative_ok=minmax)
    if labels is not None and unjudged == "drop":  # trec_eval's -J: unjudged removed
        kept = [i for i, label in enumerate(labels) if not _missing(label)]
        labels, scores = [labels[i] for i in kept], [scores[i] for i in kept]
        if document_weight is not None:
            document_weight = [document_weight[i] for i in kept]
    judged = labels if pool_labels is None else pool_labels
    worst = query_worst_dcg(judged, **options) if minmax else 0.0
    if labels is None:
        dcg = worst
    elif labels:
        dcg = query_dcg(labels, scores, ties=ties, document_weight=document_weight, **options)
    else:
        dcg = 0.0
    if metric == "dcg":
        return dcg
    if pool_labels is None:
        ideal = query_ideal_dcg(labels, **options)
    else:  # a pool's documents of negative gain need not be retrieved: they gain 0 there
        best = sorted((max(gain_of(g, gain, minmax), 0.0) for g in pool_labels), reverse=True)
        ideal = _dcg_of_order(best, discount, k, log_base)
    if ideal - worst <= 0:
        return zero_division
    value = (dcg - worst) / (ideal - worst)
    if minmax and document_weight is None:  # documented: min-max NDCG is in [0, 1]
        value = min(max(value, 0.0), 1.0)
    return value


def evaluate(
    y_true,
    y_score,
    *,
    qid=None,
    sample_weight=None,
    document_weight=None,
    pool=None,
    missing_queries="drop",
    **options,
) -> dict:
    """``{query id: (value, weight)}`` of :func:`query_value`, documents in input order.

    2-D input (nested rows, ``qid`` None) is one query per row, ``sample_weight``
    one per row; long format takes one weight per document (that of the query's
    first document). ``pool`` is ``(pool_qid, pool_labels)``: only the queries it
    judges are scored, and with ``missing_queries="zero"`` also those it judges
    that the ranking lacks (weight 1).
    """
    if qid is None:  # 2-D
        qid = [i for i, row in enumerate(y_true) for _ in row]
        sample_weight = (
            None
            if sample_weight is None
            else [w for w, row in zip(sample_weight, y_true) for _ in row]
        )
        document_weight = (
            None if document_weight is None else [w for row in document_weight for w in row]
        )
        y_true = [label for row in y_true for label in row]
        y_score = [score for row in y_score for score in row]
    queries = {}
    for i, q in enumerate(qid):
        query = queries.setdefault(q, {"labels": [], "scores": [], "dw": [], "w": 1.0})
        if not query["labels"] and sample_weight is not None:
            query["w"] = float(sample_weight[i])
        query["labels"].append(None if _missing(y_true[i]) else float(y_true[i]))
        query["scores"].append(y_score[i])
        query["dw"].append(1.0 if document_weight is None else float(document_weight[i]))
    judgments = None
    if pool is not None:
        judgments = {}
        for q, label in zip(*pool):
            judgments.setdefault(q, []).append(float(label))
        queries = {q: v for q, v in queries.items() if q in judgments}
        if missing_queries == "zero":
            for q in judgments:
                queries.setdefault(q, None)
    result = {}
    for q, query in queries.items():
        pool_labels = None if judgments is None else judgments[q]
        if query is None:
            result[q] = (query_value(None, None, pool_labels=pool_labels, **options), 1.0)
            continue
        weights = None if document_weight is None else query["dw"]
        value = query_value(
            query["labels"], query["scores"], pool_labels=pool_labels,
            document_weight=weights, **options,
        )  # fmt: skip
        result[q] = (value, query["w"])
    return result


def mean(per_query: dict) -> float:
    """The weighted mean of :func:`evaluate`'s values, NaN values left out."""
    return _weighted_mean(per_query.values())
