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
from .._metrics import DEPTH, inferred_values
from ._join import join_run, trec_order
from ._reported import Reported
from ._tables import TrecQrels


class Inferred(NamedTuple):
    """infNDCG per evaluated query: the query ids (str, sorted byte-wise) and values."""

    qid: np.ndarray
    value: np.ndarray


class InfNdcg(Reported):
    """infNDCG: the registry's entry for the ``trec-eval`` command (:mod:`._measures`).

    It reads qrels with strata, so :func:`._report.evaluate_files` evaluates it apart
    from the other measures (:func:`inferred_ndcg`); it is not among the default
    measures and takes no parameters."""

    @property
    def usage(self) -> str:
        return f"{self.name} (qrels 'qid iter docno stratum rel', as sample_eval.pl reads them)"

    def check(self, params: str) -> None:
        raise ValueError(f"{self.name} takes no parameters; got {self.name}.{params}.")

    def names(self, params: str | None) -> list[str]:
        return [self.name]

    def columns(self, staged, options, params, bound_levels):
        raise ValueError(f"{self.name} is evaluated from sampled qrels, not from a staged run.")


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
    Refuses a (qid, docno) pair listed twice in the run or in the qrels. The run's
    topics lose their leading zeros, as the script strips them (``01`` is ``1``).
    """
    if pool.stratum is None:
        raise ValueError(
            "infNDCG needs the pool's strata: qrels with a stratum column "
            "('qid iter docno stratum rel', as sample_eval.pl reads them)."
        )
    run_qid = _strip_leading_zeros(run_qid, qrels.qid)
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


def _as_text(ids: np.ndarray) -> np.ndarray:
    """Ids (str or bytes, in any array) as a fixed-width array of their kind."""
    is_bytes = ids.dtype.kind == "S" or (ids.size and isinstance(ids.flat[0], bytes))
    return ids.astype(bytes if is_bytes else str)


def _strip_leading_zeros(run_qid: np.ndarray, qrels_qid: np.ndarray) -> np.ndarray:
    """The run's topics as sample_eval.pl matches them: without leading zeros (``01`` is
    ``1``; ``0`` stays ``0``). The script strips the run's topics only, so a qrels topic
    written with a leading zero would never be evaluated: refused, named."""
    topics = _as_text(np.unique(qrels_qid))
    zero = b"0" if topics.dtype.kind == "S" else "0"
    padded = topics[np.char.startswith(topics, zero) & (np.char.str_len(topics) > 1)]
    if padded.shape[0]:
        names = [t.decode(errors="replace") if isinstance(t, bytes) else str(t) for t in padded]
        raise ValueError(
            f"the qrels write topics with a leading zero ({names[:5]}); sample_eval.pl "
            "strips leading zeros from the run's topics only, so it never evaluates these. "
            f"Write them without ({names[0].lstrip('0') or '0'!r})."
        )
    ids, inverse = np.unique(run_qid, return_inverse=True)
    text = _as_text(ids)
    zero = b"0" if text.dtype.kind == "S" else "0"
    if not np.char.startswith(text, zero).any():
        return run_qid
    stripped = np.char.lstrip(text, zero)
    stripped = np.where(np.char.str_len(stripped) == 0, zero, stripped)
    return stripped.astype(run_qid.dtype if run_qid.dtype.kind in "SO" else object)[
        inverse.reshape(-1)
    ]
