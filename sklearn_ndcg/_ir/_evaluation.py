""":func:`evaluate_run`'s evaluation: a run joined with its qrels and scored per query,
as whole tables or, from a run file, block by block as the ``trec-eval`` command
streams it (:mod:`._stream`: the same readers, the same join, one block of whole
queries at a time).

Per query, the values do not depend on the other queries, so a block's values are those
of the whole run; the queries of the qrels that the run lacks (``missing_queries="zero"``)
are evaluated with the last block, by the engine itself.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._engine import JudgmentPool
from .._metrics import QueryBounds, QueryScores, own_documents, scores_of_arrays, trec_labels
from ._join import Joined, id_bytes, id_runs, join_run, refuse_duplicate_pairs, trec_order
from ._read import decoded
from ._stream import QrelsIndex
from ._tables import TrecQrels, TrecRun


class Settings(NamedTuple):
    """evaluate_run's options, validated and resolved (``unjudged`` from its alias)."""

    metric: str | list[str] | tuple[str, ...]
    k: int | None
    gain: str | Mapping | Callable | ArrayLike
    discount: str | Callable
    ties: str
    zero_division: float
    normalize: str
    unjudged: str
    missing_queries: str
    bounds: bool
    levels: ArrayLike | None
    relevance_level: float = 1


def score_joined(joined: Joined, score: np.ndarray, relevance: np.ndarray, settings: Settings):
    """The per-query values (:class:`QueryScores`, :class:`QueryBounds` with bounds; a
    dict of them by name for a list of metrics, all from one staging) of a joined run,
    its queries named by their ids (str) and sorted by them, saying the tie rule."""
    label = trec_labels(joined.label, settings.unjudged, settings.bounds)
    run_qid, ties = joined.run_qid, settings.ties
    if ties == "docno":
        permutation, ties = trec_order(joined, score), "first"
        if permutation is not None:
            label, score, run_qid = label[permutation], score[permutation], run_qid[permutation]
    # the engine gets the query codes (in the order of the ids), not the strings
    per_query = scores_of_arrays(
        label,
        score,
        metric=settings.metric,
        k=settings.k,
        gain=settings.gain,
        discount=settings.discount,
        ties=ties,
        zero_division=settings.zero_division,
        normalize=settings.normalize,
        pool=JudgmentPool(joined.qrels_qid, relevance),
        unjudged=settings.unjudged,
        missing_queries=settings.missing_queries,
        relevance_level=settings.relevance_level,
        bounds=settings.bounds,
        levels=settings.levels if settings.bounds else None,
        qid=run_qid,
        sample_weight=None,
        log_base=None,
        document_weight=None,
        unjudged_queries="drop",
    )
    if isinstance(per_query, dict):
        return {name: _named(values, joined, settings) for name, values in per_query.items()}
    return _named(per_query, joined, settings)


def _named(per_query, joined: Joined, settings: Settings):
    """Values with the queries' ids, saying the tie rule asked for ("docno" is applied
    here, by the document ids, then kept as "first")."""
    return per_query._replace(qid=joined.qids[per_query.qid], ties=str(settings.ties))


class Streamed(NamedTuple):
    """What :func:`score_blocks` found: the values, whether any ranked document is
    judged, the run's first query id and its number of lines."""

    # None when no query was evaluated; a dict by name for a list of metrics
    per_query: QueryScores | QueryBounds | dict[str, QueryScores] | None
    matched: bool
    first_qid: bytes | None
    n_rows: int


def _refuse_not_finite(run: TrecRun, path) -> None:
    bad = np.flatnonzero(~np.isfinite(run.score))
    if bad.shape[0]:
        raise ValueError(
            f"{os.fspath(path)}: the score of document {_text(run.docno[bad[0]])!r} of "
            f"query {_text(run.qid[bad[0]])!r} is {run.score[bad[0]]}; every score must "
            "be finite."
        )


def _text(value: bytes) -> str:
    return value.decode("utf-8", "surrogateescape")


def score_blocks(
    blocks: Iterable[TrecRun], qrels: TrecQrels, settings: Settings, run_path
) -> Streamed:
    """:func:`score_joined` of a run in blocks of whole queries (bytes ids): those of
    :func:`.query_blocks` or the whole run as one.

    ``qrels`` holds bytes ids and no (qid, docno) pair twice (checked by the caller);
    ``run_path`` names the file in messages.
    """
    index = QrelsIndex(qrels)
    parts, ranked_ids, matched, first_qid, n_rows = [], [], False, None, 0
    pending = None  # the last block, evaluated with the queries the run lacks

    def evaluate(run: TrecRun, block_qrels: TrecQrels | None) -> None:
        nonlocal matched
        if block_qrels is None or not block_qrels.qid.shape[0]:
            refuse_duplicate_pairs(run.qid, run.docno, "run")  # join_run's check
            return
        joined = join_run(run.qid, run.docno, block_qrels)
        matched = matched or not np.isnan(joined.label).all()
        parts.append(score_joined(joined, run.score, block_qrels.relevance, settings))

    for run in blocks:
        if not run.qid.shape[0]:
            continue
        _refuse_not_finite(run, run_path)
        first_qid = run.qid[0] if first_qid is None else first_qid
        n_rows += run.qid.shape[0]
        ranked_ids.append(run.qid[id_runs(run.qid)])
        if pending is not None:
            evaluate(*pending)
        pending = (run, index.of(run.qid))
    if pending is not None:
        run, block_qrels = pending
        if settings.missing_queries == "zero":
            missing = index.without(np.concatenate(ranked_ids))
            block_qrels = missing if block_qrels is None else _joined_tables(block_qrels, missing)
        evaluate(run, block_qrels)
    return Streamed(_concatenated(parts), matched, first_qid, n_rows)


def _joined_tables(first: TrecQrels, second: TrecQrels) -> TrecQrels:
    return TrecQrels(*(np.concatenate(pair) for pair in zip(first, second)))


def _concatenated(parts: list):
    """The blocks' per-query values as one (a dict of them by name for a list of
    metrics), queries sorted by id (byte-wise)."""
    if not parts:
        return None
    if isinstance(parts[0], dict):
        return {name: _concatenated([part[name] for part in parts]) for name in parts[0]}
    first = parts[0]
    joined = type(first)._make((np.concatenate(field) for field in zip(*parts)), ties=first.ties)
    order = np.argsort(id_bytes(joined.qid), kind="stable")
    return joined._make((field[order] for field in joined), ties=first.ties)


def qrels_bytes(qid: np.ndarray, docno: np.ndarray, relevance: np.ndarray) -> TrecQrels:
    """Qrels with bytes ids (numpy ``S``), as the streaming reads them."""
    return TrecQrels(id_bytes(qid), id_bytes(docno), relevance)


def first_query_text(qid: bytes | str | None) -> str | None:
    """A query id as text, for messages."""
    return _text(qid) if isinstance(qid, bytes) else qid


def without_own_documents(qid, docno, score, queries):
    """``ignore_identical_ids``: the rows without those whose document id is their
    query's, and the run's queries (those emptied too)."""
    own = own_documents(qid, docno)
    if queries is None:
        queries = np.unique(decoded(qid) if qid.dtype.kind == "S" else qid)
    if own.all():
        raise ValueError(
            "run ranks only the queries' own documents, which ignore_identical_ids=True "
            "drops; no document is left to evaluate."
        )
    return qid[~own], docno[~own], score[~own], queries
