"""Inferred NDCG (infNDCG) of a TREC run against a pool judged by stratified sampling,
as NIST's ``sample_eval.pl`` computes it: the run joined with its qrels by (qid, docno)
as bytes and ranked as the script ranks it (tied scores by decreasing document id),
then the estimate of :func:`sklearn_ndcg._metrics._inferred.inferred_values`, whose
docstring states the script's rules. Numpy only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from .._engine import JudgmentPool
from .._metrics._inferred import DEPTH, inferred_values
from ._join import join_run, trec_order
from ._tables import TrecQrels


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
    sampled_pool = True  # needs sampled qrels
    in_default = False

    def check(self, params: str) -> None:
        raise ValueError(f"infNDCG takes no parameters; got infNDCG.{params}.")

    def names(self, params: str | None) -> list[str]:
        return ["infNDCG"]

    def columns(self, staged, options, params, bound_levels):
        raise ValueError("infNDCG is evaluated from sampled qrels, not from a staged run.")


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
    row = np.where(np.isnan(row), -1, row).astype(np.intp)
    codes, value = inferred_values(
        query, row, joined.qrels_qid, joined.qids.shape[0], pool, complete=complete, depth=depth
    )
    return Inferred(joined.qids[codes], value)  # codes order as the ids do, byte-wise
