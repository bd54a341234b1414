"""Inferred NDCG (infNDCG) of a run against a pool judged by stratified sampling.

Yilmaz, Kanoulas and Aslam (SIGIR 2008), as NIST's ``sample_eval.pl`` computes it
(the script TREC's sampled tracks report): each pooled document of a query is in a
stratum of which only a sample was judged. Per query, with ``depth`` 1000:

- the run is ranked by decreasing score, tied scores by decreasing document id
  (byte-wise), and cut at ``depth``;
- within each stratum ``c``, among the ranked documents: ``n_c`` pooled, ``s_c``
  sampled, and ``G_c``, the DCG (gain the level, discount ``log2(rank + 1)``) of the
  sampled relevant ones; the estimated DCG is ``sum_c n_c G_c / s_c``;
- the ideal DCG: per level ``g > 0``, the estimated number of documents of that level,
  ``sum_c (sampled of level g in c) * (pooled in c) / (sampled in c)`` over the whole
  pool, rounded half up; the levels in decreasing order of their text, as Perl's
  ``reverse sort`` orders them (so a level 10 comes after a level 2), each filling its
  rounded count of ranks with discount ``log2(rank + 1)``; ranks stop at ``depth``,
  except that each later level still adds one rank past it, as the script's loop does;
- infNDCG is their ratio, 0 where the ideal DCG is 0.

Queries of the run without a pool are left out, and so are queries of the pool that the
run lacks (unless ``complete``: they score 0). Numpy only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._engine import JudgmentPool
from ._join import join_run, trec_order
from ._tables import TrecQrels

DEPTH = 1000  # sample_eval.pl's $maxResultSize


class Inferred(NamedTuple):
    """infNDCG per evaluated query: the query ids (str, sorted byte-wise) and values."""

    qid: np.ndarray
    value: np.ndarray


class InfNdcg:
    """``infNDCG``: the registry's entry for the ``trec-eval`` command (:mod:`._measures`).

    It reads qrels with strata, so :func:`._report.evaluate_files` evaluates it apart
    from the other measures (:func:`inferred_ndcg`); it is not among the default
    measures and takes no parameters."""

    usage = "infNDCG (qrels 'qid iter docno stratum rel', as sample_eval.pl reads them)"
    sampled_pool = True  # needs sampled qrels; not a default measure

    def check(self, params: str) -> None:
        raise ValueError(f"infNDCG takes no parameters; got infNDCG.{params}.")

    def names(self, params: str | None) -> list[str]:
        return ["infNDCG"]

    def columns(self, staged, options, params, bound_levels):
        raise ValueError("infNDCG is evaluated from sampled qrels, not from a staged run.")


def perl_text(level: float) -> str:
    """A level as Perl prints a number (``%.15g``): the text its hash keys sort by."""
    return f"{level:.15g}"


def inferred_ndcg(
    run_qid: np.ndarray,
    run_docno: np.ndarray,
    run_score: np.ndarray,
    qrels: TrecQrels,
    pool: JudgmentPool,
    *,
    complete: bool = False,
    depth: int = DEPTH,
) -> Inferred:
    """infNDCG of each query of the run that has a pool, as ``sample_eval.pl`` computes it.

    ``qrels`` lists the pooled documents (ids as str or bytes) and ``pool`` holds the
    same rows with their strata and sampled flags (:class:`JudgmentPool` with
    ``stratum=``). ``complete``: queries of the pool that the run lacks score 0.
    Refuses a (qid, docno) pair listed twice in the run or in the qrels.
    """
    if pool.stratum is None:
        raise ValueError(
            "infNDCG needs the pool's strata: qrels with a stratum column "
            "('qid iter docno stratum rel', as sample_eval.pl reads them)."
        )
    n_pool = qrels.qid.shape[0]
    # the row of each ranked document in the qrels (NaN: not in them), by (qid, docno)
    rows = TrecQrels(qrels.qid, qrels.docno, np.arange(n_pool, dtype=np.float64))
    joined = join_run(run_qid, run_docno, rows)
    score, query, row = run_score, joined.run_qid, joined.label
    permutation = trec_order(joined, score)  # tied scores by decreasing docno
    if permutation is not None:
        score, query, row = score[permutation], query[permutation], row[permutation]
    order = np.lexsort((-score, query))  # stable: ties keep the docno order
    query, row = query[order], row[order]
    start = np.ones(query.shape[0], dtype=bool)
    start[1:] = query[1:] != query[:-1]
    position = np.arange(query.shape[0])
    rank = position - np.maximum.accumulate(np.where(start, position, 0)) + 1
    keep = rank <= depth
    query, row, rank = query[keep], row[keep], rank[keep]

    in_pool = pool.stratum != None  # noqa: E711 (object array: None outside the pool)
    level, sampled = pool.y_true, pool.sampled
    relevant = sampled & (level > 0)
    pooled_query = joined.qrels_qid
    strata, stratum = np.unique(
        np.where(in_pool, pool.stratum, "").astype(str), return_inverse=True
    )
    n_strata = strata.shape[0]
    n_queries = joined.qids.shape[0]
    # one cell per (query, stratum) of the qrels, numbered by query, then stratum
    cells, cell = np.unique(
        pooled_query.astype(np.int64) * n_strata + stratum.reshape(-1), return_inverse=True
    )
    cell, n_cells, cell_query = cell.reshape(-1), cells.shape[0], cells // n_strata
    pooled = np.bincount(cell[in_pool], minlength=n_cells).astype(np.float64)
    judged = np.bincount(cell[in_pool & sampled], minlength=n_cells).astype(np.float64)
    ideal = _ideal_dcg(
        pooled_query[relevant], cell[relevant], level[relevant], pooled, judged, n_queries, depth
    )

    # the ranked documents of the pool, in rank order within each query
    found = ~np.isnan(row)
    found[found] = in_pool[row[found].astype(np.intp)]
    ranked_row = row[found].astype(np.intp)
    ranked_cell = cell[ranked_row]
    n_docs = np.bincount(ranked_cell, minlength=n_cells).astype(np.float64)
    n_sampled = np.bincount(ranked_cell[sampled[ranked_row]], minlength=n_cells).astype(np.float64)
    gain = np.zeros(n_cells)
    hits = relevant[ranked_row]
    discount = np.log(rank[found][hits] + 1.0) / np.log(2.0)
    np.add.at(gain, ranked_cell[hits], level[ranked_row[hits]] / discount)  # in rank order
    depth_pooled = np.bincount(cell_query, weights=n_docs, minlength=n_queries)
    with np.errstate(divide="ignore", invalid="ignore"):
        term = np.where(n_sampled > 0, (n_docs / depth_pooled[cell_query]) * gain / n_sampled, 0.0)
    dcg = np.zeros(n_queries)
    np.add.at(dcg, cell_query, term)  # strata in order, as the script sums them
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.where(ideal != 0, depth_pooled * dcg / ideal, 0.0)

    has_pool = np.zeros(n_queries, dtype=bool)
    has_pool[pooled_query] = True
    evaluated = np.zeros(n_queries, dtype=bool)
    evaluated[query] = True
    evaluated &= has_pool
    if complete:
        value = np.where(evaluated, value, 0.0)
        evaluated = has_pool
    codes = np.flatnonzero(evaluated)  # codes order as the ids do, byte-wise
    return Inferred(joined.qids[codes], value[codes])


def _ideal_dcg(query, cell, level, pooled, judged, n_queries: int, depth: int) -> np.ndarray:
    """sample_eval.pl's ideal DCG of each query from its sampled relevant documents
    (``query``, ``cell`` and ``level`` of each), ``pooled`` and ``judged`` per cell."""
    ideal = np.zeros(n_queries)
    if not level.shape[0]:
        return ideal
    texts = np.array([perl_text(value) for value in np.unique(level).tolist()])
    # levels by decreasing text (Perl's reverse sort of the hash keys)
    by_text = np.argsort(texts)[::-1]
    grade_rank = np.empty(by_text.shape[0], dtype=np.int64)
    grade_rank[by_text] = np.arange(by_text.shape[0])
    grade = grade_rank[np.searchsorted(np.unique(level), level)]
    # count per (query, level, stratum), then estimated counts summed over strata in order
    key = np.stack([query, grade, cell])
    triples, count = np.unique(key, axis=1, return_counts=True)
    q, g, c = triples
    estimate = count * pooled[c] / judged[c]
    pairs, pair = np.unique(np.stack([q, g]), axis=1, return_inverse=True)
    estimated = np.zeros(pairs.shape[1])
    np.add.at(estimated, pair.reshape(-1), estimate)
    gain = np.unique(level)[by_text][pairs[1]]
    rounded = np.floor(estimated + 0.5).astype(np.int64)  # Perl's int(x + 0.5), x >= 0
    discount = np.log(np.arange(2, depth + 2, dtype=np.float64)) / np.log(2.0)
    filled = 0
    for i in range(pairs.shape[1]):  # few: one per (query, level)
        if i and pairs[0, i] != pairs[0, i - 1]:
            filled = 0
        n = int(rounded[i])
        if n > 0:
            if filled + 1 >= depth:  # the script adds one rank past the depth, then stops
                ideal[pairs[0, i]] += gain[i] / (np.log(filled + 2.0) / np.log(2.0))
            else:
                end = min(filled + n, depth)
                ideal[pairs[0, i]] += np.sum(gain[i] / discount[filled:end])
        filled += n
    return ideal
