""":func:`query_scores` of metrics named as trec_eval writes them (``P_10``, ``map``,
``recip_rank``, ``ndcg_cut_10``...), one name or several, from one staging: the
measures of binary relevance summed together from one order (the engine's
``measures=``), NDCG and DCG from the same staged rows.

What each measure reads (one rule for :func:`query_scores` and :func:`evaluate_run`):
NDCG and DCG read every option; the measures of binary relevance read the tie rule,
``relevance_level``, ``zero_division`` and the pool's options, and ignore the options
that shape NDCG's gains and discounts (``gain``, ``discount``, ``normalize``,
``log_base``), so that a preset of :data:`CONVENTIONS` or NDCG's options combine with
them in one call. ``document_weight``, which weighs the ranked documents' gains, is
refused with them (they count documents).
"""

from __future__ import annotations

import numpy as np

from .._engine import RankingOptions, query_values, stage
from .._options import RANK_MEASURES, MetricName
from ._results import QueryScores

# options of NDCG and DCG that the measures of binary relevance do not read, with the
# values their staging takes (the labels as gains, without a pool)
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
    own). With a pool the rows are staged once for every name (the pool's staging
    does not depend on the gain or the cutoff); without one, once for the measures
    of binary relevance and NDCG at its default gain, and once for NDCG or DCG with
    other gain options.
    """
    rank = [name for name in names if name.metric in RANK_MEASURES]
    if rank and document_weight is not None:
        raise ValueError(
            f"document_weight shapes NDCG and DCG; {rank[0].name} counts relevant "
            "documents (a label at least relevance_level) and reads none of it. Leave "
            "it None, or ask for the measures in separate calls."
        )
    defaults = all(getattr(options, key) == value for key, value in _GAIN_OPTIONS.items())
    results: dict[str, QueryScores] = {}
    if options.pool is not None:  # one staging for every name
        staged = stage(
            y_true,
            y_score,
            options.replace(k=None),
            qid=qid,
            sample_weight=sample_weight,
            document_weight=document_weight,
        )
        _rank_columns(staged, rank, options, results)
        for name in names:  # NDCG and DCG: each at its cutoff, as the name alone
            if name.name not in results:
                summed = options.replace(metric=name.metric, k=name.k)
                results[name.name] = _scores(query_values(staged, summed))
        return {name.name: results[name.name] for name in names}
    # without a pool the gains are staged: the measures of binary relevance take the
    # labels as they are, with NDCG and DCG when those read them so too
    together = list(names) if rank and defaults else rank
    if together:
        labels = options.replace(metric=together[0].metric, k=None, **_GAIN_OPTIONS)
        staged = stage(y_true, y_score, labels, qid=qid, sample_weight=sample_weight)
        _rank_columns(staged, together, options, results)
    other = [name for name in names if name.name not in results]
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
            results[family[0].name] = _scores(query_values(staged, summed))
        elif cutoffs:
            at_cutoffs = query_values(staged, summed, ks=np.asarray(cutoffs))
            weight = _weights(at_cutoffs)
            for name in family:
                if name.k is not None:
                    column = at_cutoffs.values[:, cutoffs.index(name.k)]
                    results[name.name] = QueryScores(at_cutoffs.ids, column, weight)
        if any(name.k is None for name in family):
            results[metric] = _scores(query_values(staged, summed))
    return {name.name: results[name.name] for name in names}


def _rank_columns(staged, names: list[MetricName], options: RankingOptions, results) -> None:
    """The named measures summed together from one order of the staged rows (the
    engine's ``measures=``; without a pool NDCG and DCG at the linear gain too), into
    ``results`` by name."""
    if not names:
        return
    ranked = options.replace(metric=names[0].metric, k=None)
    requests = tuple((n.metric, n.params) for n in names)
    values = query_values(staged, ranked, measures=requests)
    weight = _weights(values)
    for i, name in enumerate(names):
        results[name.name] = QueryScores(values.ids, values.values[:, i], weight)


def _scores(values) -> QueryScores:
    return QueryScores(values.ids, values.values, _weights(values))


def _weights(values) -> np.ndarray:
    return np.ones(values.ids.shape[0]) if values.weight is None else values.weight
