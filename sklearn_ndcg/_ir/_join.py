"""A run joined with its qrels by (qid, docno), and trec_eval's order of tied scores.

Ids are compared as bytes: hashed to 64 bits to find candidates, every match and
duplicate then checked byte for byte. Numpy only.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._read import decoded, runs
from ._tables import TrecQrels


class Joined(NamedTuple):
    """A run joined with its qrels.

    Query ids are numbered in their sorted order over both tables (byte-wise, as
    C's ``strcmp``), so the codes order like the ids and ``qids[code]`` gives an id
    back. ``docno`` holds the run's document ids as bytes (for trec_eval's tie
    order, :func:`trec_order`). ``label`` is the qrels relevance of each ranked
    document, NaN where the qrels do not list it.
    """

    qids: np.ndarray  # every query id of run and qrels, sorted (object array of str)
    run_qid: np.ndarray  # code of each ranked document's query
    qrels_qid: np.ndarray  # code of each judged document's query
    docno: np.ndarray  # each ranked document's id, as bytes (numpy S)
    label: np.ndarray


def id_bytes(ids: np.ndarray) -> np.ndarray:
    """Ids as numpy bytes (``S``): bytes as they are, str encoded as UTF-8 (surrogate
    escapes back to the bytes they stood for)."""
    if ids.dtype.kind == "S":
        return ids
    try:  # ASCII text (most ids), encoded by numpy in C: bytes equal to UTF-8's
        return ids.astype("S")
    except UnicodeEncodeError:
        pass
    starts, lengths = runs(ids)  # each run of equal ids encoded once
    encoded = [value.encode("utf-8", "surrogateescape") for value in ids[starts].tolist()]
    array = np.array(encoded, dtype=f"S{max(map(len, encoded), default=1) or 1}")
    return array if starts.shape[0] == ids.shape[0] else np.repeat(array, lengths)


def _text(value: bytes) -> str:
    return value.decode("utf-8", "surrogateescape")


def _words(ids: np.ndarray) -> np.ndarray:
    """Bytes ids as rows of big-endian uint64 words, zero-padded: equal rows are equal
    ids, and rows compare (word by word) as the ids compare byte-wise."""
    width = -(-ids.dtype.itemsize // 8) * 8
    words = np.ascontiguousarray(ids, dtype=f"S{width}").view(">u8")
    return words.reshape(ids.shape[0], width // 8)


def id_runs(ids: np.ndarray) -> np.ndarray:
    """Where each run of equal ids starts (bytes ids)."""
    words = _words(ids)
    return np.flatnonzero(np.r_[True, (words[1:] != words[:-1]).any(axis=1)][: ids.shape[0]])


def refuse_duplicate_pairs(qid: np.ndarray, docno: np.ndarray, name: str) -> None:
    """Refuse a (qid, docno) pair listed twice (bytes ids)."""
    code = _query_codes(qid, qid[:0])[0]
    words = _words(docno)
    _refuse_duplicates(*_sorted_keys(_hash(code, words)), code, words, qid, docno, name)


def _query_codes(run_qid: np.ndarray, qrels_qid: np.ndarray):
    """Codes of the query ids of both tables, numbered in byte-wise order, and the ids.

    Only the ids at the starts of runs of equal ids are sorted: few, where a file is
    grouped by query.
    """
    starts = [id_runs(ids) for ids in (run_qid, qrels_qid)]
    uniques = [ids[start] for ids, start in zip((run_qid, qrels_qid), starts)]
    vocabulary, codes = np.unique(np.concatenate(uniques), return_inverse=True)
    codes = codes.reshape(-1)
    cut = starts[0].shape[0]
    run_codes = np.repeat(codes[:cut], np.diff(np.r_[starts[0], run_qid.shape[0]]))
    qrels_codes = np.repeat(codes[cut:], np.diff(np.r_[starts[1], qrels_qid.shape[0]]))
    return run_codes, qrels_codes, decoded(vocabulary)


_MIX = (np.uint64(0x9E3779B97F4A7C15), np.uint64(0xBF58476D1CE4E5B9), np.uint64(31))


def _hash(code: np.ndarray, words: np.ndarray) -> np.ndarray:
    """A 64-bit hash of (query code, words of a row); equal pairs hash equal."""
    key = code.astype(np.uint64) * _MIX[0]
    for i in range(words.shape[1]):
        key ^= words[:, i]
        key *= _MIX[1]
        key ^= key >> _MIX[2]
    return key


def _sorted_keys(key: np.ndarray, n_rows: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The keys (their high bits) sorted, and the row of each: one sort of the keys
    with the row number packed into their low bits (several times faster than an
    argsort); ``n_rows`` rows at most, to compare with another table's. Keys equal in
    their high bits are candidates, to be checked."""
    n_rows = key.shape[0] if n_rows is None else n_rows
    bits = np.uint64(max(1, (n_rows - 1).bit_length()))
    packed = (key >> bits) << bits
    packed |= np.arange(key.shape[0], dtype=np.uint64)
    packed.sort()
    rows = (packed & ((np.uint64(1) << bits) - np.uint64(1))).astype(np.intp)
    return packed >> bits, rows


def _candidates(high: np.ndarray, rows: np.ndarray) -> np.ndarray:
    """Rows whose key (high bits) another row shares, in input order."""
    repeated = high[1:] == high[:-1]
    shared = np.zeros(high.shape[0], dtype=bool)
    shared[1:] |= repeated
    shared[:-1] |= repeated
    return np.sort(rows[shared])


def _refuse_duplicates(high, rows, code, words, qid, docno, name: str) -> None:
    """Refuse a (qid, docno) pair listed twice, checked exactly among the candidates."""
    candidates = _candidates(high, rows)
    if not candidates.shape[0]:
        return
    exact = np.column_stack([code[candidates].astype(np.uint64), words[candidates]])
    _, first, inverse = np.unique(exact, axis=0, return_index=True, return_inverse=True)
    again = np.flatnonzero(first[inverse.reshape(-1)] != np.arange(candidates.shape[0]))
    if again.shape[0]:
        row = candidates[again[0]]
        raise ValueError(
            f"{name} lists document {_text(docno[row])!r} of query {_text(qid[row])!r} "
            "more than once; each (qid, docno) pair may appear once."
        )


def join_run(run_qid: np.ndarray, run_docno: np.ndarray, qrels: TrecQrels) -> Joined:
    """Look up the relevance of each ranked document in the qrels, by (qid, docno).

    Ids are 1-D arrays of str (object) or bytes (numpy ``S``); bytes and their UTF-8
    text match. Refuses a (qid, docno) pair listed twice in the run or in the qrels.
    (qid, docno) pairs are hashed to 64 bits to find candidates; every match and
    every duplicate is then checked byte for byte.
    """
    run_qid, run_docno = id_bytes(run_qid), id_bytes(run_docno)
    qrels_qid, qrels_docno = id_bytes(qrels.qid), id_bytes(qrels.docno)
    run_q, qrels_q, qids = _query_codes(run_qid, qrels_qid)
    width = max(run_docno.dtype.itemsize, qrels_docno.dtype.itemsize)
    run_words = _words(run_docno.astype(f"S{width}", copy=False))
    qrels_words = _words(qrels_docno.astype(f"S{width}", copy=False))
    n_rows = max(run_q.shape[0], qrels_q.shape[0])  # one packing for both tables
    tables = []
    for code, words, qid, docno, name in (
        (run_q, run_words, run_qid, run_docno, "run"),
        (qrels_q, qrels_words, qrels_qid, qrels_docno, "qrels"),
    ):
        high, rows = _sorted_keys(_hash(code, words), n_rows)
        _refuse_duplicates(high, rows, code, words, qid, docno, name)
        tables.append((high, rows))
    # each qrels pair among the sorted run pairs (few searches in many), then checked
    (run_high, run_rows), (qrels_high, qrels_rows) = tables
    start = np.searchsorted(run_high, qrels_high, side="left")
    count = np.searchsorted(run_high, qrels_high, side="right") - start
    pair = np.repeat(np.arange(qrels_high.shape[0]), count)
    offset = np.arange(pair.shape[0]) - np.repeat(np.cumsum(count) - count, count)
    run_row, qrels_row = run_rows[start[pair] + offset], qrels_rows[pair]
    same = (run_q[run_row] == qrels_q[qrels_row]) & (
        run_words[run_row] == qrels_words[qrels_row]
    ).all(axis=1)
    label = np.full(run_q.shape[0], np.nan)
    label[run_row[same]] = qrels.relevance[qrels_row[same]]
    return Joined(qids, run_q, qrels_q, run_docno, label)


def trec_order(joined: Joined, score: np.ndarray) -> np.ndarray | None:
    """Rows reordered so that, ranked by score with ties in input order, each query
    ranks as trec_eval ranks it: tied scores by decreasing document id (byte-wise).

    Returns None when no query has tied scores (the rows already rank so), else a
    permutation of the rows that moves only tied documents (and, rarely, other rows
    whose hash they share), among themselves.
    """
    rows = tie_candidates(joined.run_qid, score)
    if not rows.shape[0]:
        return None
    words = _words(joined.docno[rows])
    inverted = [~words[:, i] for i in range(words.shape[1] - 1, -1, -1)]
    within = np.lexsort((*inverted, score[rows], joined.run_qid[rows]))
    permutation = np.arange(score.shape[0])
    permutation[rows] = rows[within]
    return permutation


def tie_candidates(run_qid: np.ndarray, score: np.ndarray) -> np.ndarray:
    """The rows whose (query code, score) another row may share, in input order: every
    tied row, and rarely a row whose hash a tied one shares."""
    bits = np.ascontiguousarray(score, dtype=np.float64).view(np.uint64)
    bits = np.where(score == 0, np.uint64(0), bits)  # -0.0 ties with 0.0
    return _candidates(*_sorted_keys(_hash(run_qid, bits[:, None])))


def refuse_unjudged_run(joined: Joined) -> None:
    """No query of the run is in the qrels: say so, with an example of each."""
    if not np.isin(joined.run_qid, joined.qrels_qid).any():
        raise ValueError(
            "no query of the run is in the qrels (the run has queries such as "
            f"{joined.qids[joined.run_qid[0]]!r}, the qrels "
            f"{joined.qids[joined.qrels_qid[0]]!r}); do the query ids match?"
        )


def trec_order_score(score: np.ndarray, docno_code: np.ndarray) -> np.ndarray:
    """A tie-free score that ranks as trec_eval does: by decreasing score, tied
    scores by decreasing document id.

    ``docno_code`` orders like the document ids. The result is the position of
    each document in one sort of all rows (float64, higher first), which orders
    every query correctly.
    """
    order = np.lexsort((docno_code, score))
    tie_free = np.empty(score.shape[0])
    tie_free[order] = np.arange(score.shape[0])
    return tie_free
