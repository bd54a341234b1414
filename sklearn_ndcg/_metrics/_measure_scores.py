""":func:`query_scores` of metrics named as trec_eval writes them (``P_10``, ``map``,
``recip_rank``, ``ndcg_cut_10``...), one name or several: the measures of binary
relevance staged once and summed from one order (the engine's ``measures=``), NDCG and
DCG staged once and summed at all their cutoffs."""

from __future__ import annotations

import numpy as np

from .._engine import RankingOptions, query_values, stage
from .._options import RANK_MEASURES, MetricName
from ._results import QueryScores

# options of NDCG and DCG that the measures of binary relevance do not read
_GAIN_OPTIONS = {"gain": "linear", "discount": "log2", "normalize": "ideal", "log_base": None}


def measure_scores(
    y_true,
    y_score,
    names: tuple[MetricName, ...],
    options: RankingOptions,
    *,
    qid,
    sample_weight,
    document_weight,
) -> dict[str, QueryScores]:
    """Each named metric's :class:`QueryScores`, by name (in the order given).

    ``options`` are the call's, with ``metric`` and ``k`` unset (each name has its
    own); refuses NDCG's options changed for a measure of binary relevance, which
    would ignore them.
    """
    rank = [name for name in names if name.metric in RANK_MEASURES]
    other = [name for name in names if name.metric not in RANK_MEASURES]
    results: dict[str, QueryScores] = {}
    if rank:
        changed = [
            key for key, default in _GAIN_OPTIONS.items() if getattr(options, key) != default
        ]
        if changed or document_weight is not None:
            given = changed + (["document_weight"] if document_weight is not None else [])
            raise ValueError(
                f"{', '.join(given)} shape(s) NDCG and DCG; {rank[0].name} counts relevant "
                "documents (a label at least relevance_level) and reads none of them. "
                "Leave them at their defaults, or ask for the measures in separate calls."
            )
        ranked = options.replace(metric=rank[0].metric, k=None)
        # NDCG's options at their defaults: one staging (labels as gains) and one order
        # for every name, NDCG and DCG included; a pool's NDCG is the pool's own sum
        # (its ideal DCG from the pool's judgments), staged apart below
        staged = stage(
            y_true, y_score, options.replace(k=None), qid=qid, sample_weight=sample_weight
        )
        together = rank if options.pool is not None else list(names)
        other = [name for name in other if name not in together]
        requests = tuple((n.metric, None if n.k is None else (n.k,)) for n in together)
        values = query_values(staged, ranked, measures=requests)
        weight = _weights(values)
        for i, name in enumerate(together):
            results[name.name] = QueryScores(values.ids, values.values[:, i], weight)
    for metric in {name.metric for name in other}:  # ndcg, dcg: one staging each
        family = [name for name in other if name.metric == metric]
        cutoffs = sorted({name.k for name in family if name.k is not None})
        # one cutoff alone: staged at it, as ndcg_score(k=) is (the top k selected, not
        # whole queries sorted)
        alone = len(family) == 1 and len(cutoffs) == 1
        summed = options.replace(metric=metric, k=cutoffs[0] if alone else None)
        staged = stage(
            y_true,
            y_score,
            summed,
            qid=qid,
            sample_weight=sample_weight,
            document_weight=document_weight,
        )
        if alone:
            values = query_values(staged, summed)
            results[family[0].name] = QueryScores(values.ids, values.values, _weights(values))
        elif cutoffs:
            at_cutoffs = query_values(staged, summed, ks=np.asarray(cutoffs))
            weight = _weights(at_cutoffs)
            for name in family:
                if name.k is not None:
                    column = at_cutoffs.values[:, cutoffs.index(name.k)]
                    results[name.name] = QueryScores(at_cutoffs.ids, column, weight)
        if any(name.k is None for name in family):
            whole = query_values(staged, summed)
            results[metric] = QueryScores(whole.ids, whole.values, _weights(whole))
    return {name.name: results[name.name] for name in names}


def _weights(values) -> np.ndarray:
    return np.ones(values.ids.shape[0]) if values.weight is None else values.weight
