"""pytrec_eval's dicts joined without numpy strings: the qrels converted once into a
dict of levels per query, each run entry's level found by one dict lookup, and the
document ids of tied scores ordered only where scores tie.

:func:`qrels_levels` converts ``{qid: {docno: relevance}}`` (once, when the evaluator
is made); :func:`join_dicts` joins a run ``{qid: {docno: score}}`` with it into the
:class:`._join.Joined` rows that :func:`._report.joined_scores` evaluates, with the
permutation of trec_eval's order of tied scores (:func:`._join.trec_order`'s, from
the ids of the tied documents alone). Both return None where ids are not all
``str``; the caller then converts the dicts as tables (:func:`._pytrec.tables_of`),
which also gives the errors of bad input.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain, repeat
from typing import NamedTuple

import numpy as np

from ._join import Joined, _candidates, id_bytes, tie_candidates, trec_order

_NAN = float("nan")
_NO_DOCNO = np.empty(0, dtype="S1")  # the document ids are not needed as bytes here


class QrelsLevels(NamedTuple):
    """Qrels as dicts: a copy of each query's ``{docno: level}``, and the levels as
    float64 (``np.fromiter``'s conversion, which the run's lookups share)."""

    qids: list[str]  # in the order of the qrels
    levels: dict[str, dict]
    sizes: np.ndarray  # judged documents per query, in the order of ``qids``
    level: np.ndarray  # every level, query by query


def _all_str(ids) -> bool:
    """Whether every id is a ``str`` (a join fails on anything else)."""
    try:
        "".join(ids)
    except TypeError:
        return False
    return True


def _numbers(nested: list, n: int) -> np.ndarray | None:
    """The numbers of the inner dicts, float64 as ``np.fromiter`` converts them; None
    if one is not a number or not finite (the tables give the error)."""
    try:
        numbers = np.fromiter(chain.from_iterable(docs.values() for docs in nested), float, n)
    except (TypeError, ValueError):
        return None
    return numbers if np.isfinite(numbers).all() else None


def _inner(nested) -> list | None:
    """The inner dicts of a dict of dicts, or None if it is not one."""
    if not isinstance(nested, Mapping):
        return None
    inner = list(nested.values())
    if not all(type(docs) is dict or isinstance(docs, Mapping) for docs in inner):
        return None
    return inner


def qrels_levels(nested) -> QrelsLevels | None:
    """The qrels ``{qid: {docno: relevance}}`` as :class:`QrelsLevels`, or None where
    they are not a dict of dicts of numbers with ``str`` ids."""
    inner = _inner(nested)
    if inner is None or not _all_str(nested) or not _all_str(chain.from_iterable(inner)):
        return None
    sizes = np.fromiter(map(len, inner), np.intp, len(inner))
    level = _numbers(inner, int(sizes.sum()))
    if level is None:
        return None
    levels = {qid: dict(docs) for qid, docs in zip(nested, inner)}  # a copy, as pytrec_eval
    return QrelsLevels(list(nested), levels, sizes, level)


def float32_scores(score: np.ndarray) -> np.ndarray:
    """Scores rounded to float32, as pytrec_eval stores them (its ``RelevanceEvaluator``
    keeps them as C floats; beyond float32's range they become infinite), as float64."""
    with np.errstate(over="ignore"):
        return score.astype(np.float32).astype(np.float64)


def join_dicts(
    qrels: QrelsLevels, run, docno_ties: bool, *, float32: bool = False
) -> tuple[Joined, np.ndarray, np.ndarray | None] | None:
    """The run ``{qid: {docno: score}}`` joined with ``qrels``: the rows (documents in
    the order of the run), their scores and, with ``docno_ties``, the permutation of
    trec_eval's order of tied scores (None without ties). None where the run is not a
    dict of dicts of finite numbers with ``str`` ids. ``float32``: the scores rounded
    to float32 first (pytrec_eval's ranking).

    Query ids are coded in their sorted order over both (``str`` order, which is the
    byte order of their UTF-8 encoding), as :func:`._join.join_run` codes them.
    """
    inner = _inner(run)
    if inner is None or not _all_str(run):
        return None
    docnos = list(chain.from_iterable(inner))
    if not _all_str(docnos):
        return None
    score = _numbers(inner, len(docnos))
    if score is None:
        return None
    if float32:  # before the order of tied scores is found: float32 creates ties
        score = float32_scores(score)
    qids = _byte_sorted(set(qrels.qids).union(run))
    code = {qid: i for i, qid in enumerate(qids)}
    sizes = np.fromiter(map(len, inner), np.intp, len(inner))
    run_qid = np.repeat(np.fromiter(map(code.__getitem__, run), np.intp, len(inner)), sizes)
    qrels_codes = np.fromiter(map(code.__getitem__, qrels.qids), np.intp, len(qrels.qids))
    none: dict[str, float] = {}
    looked_up = (
        map(qrels.levels.get(qid, none).get, docs, repeat(_NAN)) for qid, docs in zip(run, inner)
    )
    label = np.fromiter(chain.from_iterable(looked_up), float, len(docnos))
    joined = Joined(
        np.array(qids, dtype=object),
        run_qid,
        np.repeat(qrels_codes, qrels.sizes),
        _NO_DOCNO,
        label,
    )
    permutation = None
    if docno_ties and docnos:
        tie_free = _tie_free(docnos, run_qid, score)
        if tie_free is None:  # the rows reordered instead
            permutation = trec_order(joined._replace(docno=id_bytes(np.array(docnos))), score)
        else:
            score = tie_free
    return joined, score, permutation


def _tie_free(docnos: list[str], run_qid: np.ndarray, score: np.ndarray) -> np.ndarray | None:
    """A score without ties that ranks each query as trec_eval does (:func:`._join.trec_order`:
    by decreasing score, tied scores by decreasing document id), or None where it would
    not be exact in float64.

    Each score becomes its rank among the run's distinct scores, times the number of
    distinct ids of the tied documents, plus the number of the document's id among them
    in byte order of their UTF-8 encoding (only the tied documents' ids are sorted).
    """
    # -0.0 and 0.0 are one value, as trec_eval compares them; rank from the same sort
    values, rank = np.unique(score, return_inverse=True)
    rows = _tied_rows(run_qid, rank, values.shape[0], score)
    if not rows.shape[0]:
        return rank.astype(np.float64)
    tied = np.array(docnos, dtype=object)[rows].tolist()
    number = {docno: i for i, docno in enumerate(_byte_sorted(set(tied)))}
    if values.shape[0] * len(number) > 2**53:
        return None
    tie_free = rank.astype(np.float64)
    tie_free *= len(number)
    tie_free[rows] += np.fromiter(map(number.__getitem__, tied), np.float64, len(tied))
    return tie_free


def _tied_rows(run_qid: np.ndarray, rank: np.ndarray, n_values: int, score) -> np.ndarray:
    """The rows whose query and score (``rank`` among ``n_values``) another row shares,
    in input order, from one sort of the pairs packed with the row numbers (the hashed
    candidates of :func:`._join.tie_candidates` where they do not fit 64 bits)."""
    n_rows = rank.shape[0]
    row_bits = max(1, (n_rows - 1).bit_length())
    if ((int(run_qid.max()) + 1) * n_values) << row_bits > 2**64:
        return tie_candidates(run_qid, score)
    packed = run_qid.astype(np.uint64) * np.uint64(n_values) + rank.astype(np.uint64)
    packed <<= np.uint64(row_bits)
    packed |= np.arange(n_rows, dtype=np.uint64)
    packed.sort()
    rows = (packed & np.uint64((1 << row_bits) - 1)).astype(np.intp)
    return _candidates(packed >> np.uint64(row_bits), rows)


def _byte_sorted(ids: set[str]) -> list[str]:
    """Ids sorted as C's ``strcmp`` sorts their UTF-8 bytes (surrogate escapes back to
    the bytes they stood for), as :func:`._join.join_run` compares them."""
    if "".join(ids).isascii():  # str order is byte order
        return sorted(ids)
    return sorted(ids, key=lambda text: text.encode("utf-8", "surrogateescape"))
