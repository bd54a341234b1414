"""TREC runs and qrels as arrays: the named tuples, and the readers of the ``trec-eval``
command (ids as numpy bytes), which import numpy only."""

from __future__ import annotations

import os
import weakref
from typing import NamedTuple

import numpy as np

from ._read import QRELS, RUN, SAMPLED_QRELS, read_columns


class TrecRun(NamedTuple):
    """A TREC run, one entry per ranked document, read by :func:`read_trec_run`."""

    qid: np.ndarray
    docno: np.ndarray
    score: np.ndarray
    run_id: np.ndarray | None  # None where not read (the trec-eval command's runs)


TrecRun.qid.__doc__ = "Query id of each ranked document, as str (object array)."
TrecRun.docno.__doc__ = "Its document id, as str (object array)."
TrecRun.score.__doc__ = "Its score (float64); higher ranks first."
TrecRun.run_id.__doc__ = "The run's name on each line, as str (object array)."


class TrecQrels(NamedTuple):
    """TREC relevance judgments (qrels), read by :func:`read_trec_qrels`."""

    qid: np.ndarray
    docno: np.ndarray
    relevance: np.ndarray


TrecQrels.qid.__doc__ = "Query id of each judged document, as str (object array)."
TrecQrels.docno.__doc__ = "Its document id, as str (object array)."
TrecQrels.relevance.__doc__ = (
    "Its relevance level, an integer stored as float64 (negative levels are unjudged "
    "for trec_eval)."
)


class SampledQrels(NamedTuple):
    """Qrels of a pool judged by stratified sampling, read by :func:`read_sampled_qrels`."""

    qid: np.ndarray
    docno: np.ndarray
    stratum: np.ndarray
    relevance: np.ndarray


SampledQrels.qid.__doc__ = "Query id of each pooled document, as str (object array)."
SampledQrels.docno.__doc__ = "Its document id, as str (object array)."
SampledQrels.stratum.__doc__ = "Its stratum, as str (object array)."
SampledQrels.relevance.__doc__ = (
    "Its relevance level, an integer stored as float64; -1 (any negative level) for a "
    "pooled document that was not sampled."
)


def read_run_bytes(path: str | os.PathLike) -> TrecRun:
    """:func:`read_trec_run` with ids as numpy bytes (``S``) and no run ids: what the
    ``trec-eval`` command needs, without a Python object per line."""
    (qid, docno), score = read_columns(path, RUN._replace(ids=(0, 2)))
    return TrecRun(qid, docno, score, None)


def read_qrels_bytes(path: str | os.PathLike) -> TrecQrels:
    """:func:`read_trec_qrels` with ids as numpy bytes (``S``)."""
    (qid, docno), relevance = read_columns(path, QRELS)
    return TrecQrels(qid, docno, relevance)


def read_sampled_qrels_bytes(path: str | os.PathLike) -> SampledQrels:
    """:func:`read_sampled_qrels` with ids and strata as numpy bytes (``S``)."""
    (qid, docno, stratum), relevance = read_columns(path, SAMPLED_QRELS)
    return SampledQrels(qid, docno, stratum, relevance)


# The bytes each id column of read_trec_run and read_trec_qrels was decoded from, by the
# column's identity: evaluate_run of the readers' tables takes them instead of checking
# and encoding a str per line again. A snapshot of the column's objects (the same str,
# one pointer a line) tells whether it was changed in place since.
_READ_BYTES: dict[int, tuple[weakref.ref, np.ndarray, np.ndarray]] = {}


def remember_bytes(objects: np.ndarray, raw: np.ndarray) -> np.ndarray:
    """``objects`` (an object array of str decoded from ``raw``, numpy bytes), returned,
    remembered with ``raw`` for as long as it lives (see :func:`read_bytes`)."""
    key = id(objects)
    forget = lambda _: _READ_BYTES.pop(key, None)  # noqa: E731
    _READ_BYTES[key] = (weakref.ref(objects, forget), objects.copy(), raw)
    return objects


def read_bytes(objects: np.ndarray) -> np.ndarray | None:
    """The bytes ``objects`` was decoded from by a reader, or None: not a reader's
    column, or one changed in place since (an element replaced)."""
    entry = _READ_BYTES.get(id(objects))
    if entry is None or entry[0]() is not objects:
        return None
    _, snapshot, raw = entry
    if objects.shape != snapshot.shape or not np.equal(objects, snapshot).all():
        return None  # identical objects compare equal at once: one pass of pointers
    return raw
