"""A run file in blocks of whole queries, and the qrels of each block: the streaming
that the ``trec-eval`` command and :func:`evaluate_run` share.

A run grouped by query (each query's lines together, as trec_eval writes them, in any
order of the queries) is read chunk by chunk (:mod:`._read`, ids as bytes); each block
holds the queries a chunk completes, so that a query's rows are never split between
blocks. A run in which a query appears in two places raises :class:`NotGrouped`, for
the caller to read the whole run instead. Numpy only.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np

from ._join import id_runs
from ._read import RUN, iter_columns
from ._tables import TrecQrels, TrecRun


class NotGrouped(Exception):
    """A query of the run appears in two places: the run cannot be read in blocks."""


def query_blocks(
    run_path: str | os.PathLike, *, chunk_size: int | None = None
) -> Iterator[TrecRun]:
    """The run's data lines in blocks of whole queries, in file order: :class:`TrecRun`
    of bytes ids (numpy ``S``), without run ids.

    Raises :class:`NotGrouped` as soon as a query appears in two places, and the
    readers' ValueError for a malformed line.
    """
    seen: set[bytes] = set()
    # the last query of the chunk before, which may go on
    carry: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
    chunks = iter_columns(run_path, RUN._replace(ids=(0, 2)), chunk_size=chunk_size)
    for part in [*chunks, None]:
        if part is None:  # the end: the last query is complete
            if carry is not None and carry[0].shape[0]:
                yield TrecRun(*carry, None)
            return
        (qid, docno), score = part.ids, part.number
        if carry is not None:
            qid, docno, score = (np.concatenate(pair) for pair in zip(carry, (qid, docno, score)))
        if not qid.shape[0]:
            continue
        starts = id_runs(qid)
        ids = qid[starts].tolist()
        if len(set(ids)) < len(ids) or not seen.isdisjoint(ids):
            raise NotGrouped
        seen.update(ids[:-1])
        cut = starts[-1]
        carry = (qid[cut:], docno[cut:], score[cut:])
        if cut:
            yield TrecRun(qid[:cut], docno[:cut], score[:cut], None)


class QrelsIndex:
    """The qrels (bytes ids) with their sorted query ids, to select a block's."""

    def __init__(self, qrels: TrecQrels) -> None:
        self.qrels = qrels
        self.ids, code = np.unique(qrels.qid, return_inverse=True)
        self.code = code.reshape(-1)

    def of(self, run_qid: np.ndarray) -> TrecQrels | None:
        """The qrels of the queries of ``run_qid`` (None: none of them is judged)."""
        if not self.ids.shape[0]:
            return None
        block = np.unique(run_qid[id_runs(run_qid)])
        found = np.searchsorted(self.ids, block).clip(max=self.ids.shape[0] - 1)
        judged = np.isin(self.code, found[self.ids[found] == block])
        if not judged.any():
            return None
        return TrecQrels(*(column[judged] for column in self.qrels))

    def without(self, ranked: np.ndarray) -> TrecQrels:
        """The qrels of the queries not among ``ranked`` (bytes ids)."""
        keep = ~np.isin(self.code, np.flatnonzero(np.isin(self.ids, ranked)))
        return TrecQrels(*(column[keep] for column in self.qrels))
