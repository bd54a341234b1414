"""Documents found by id: pytrec_eval's dicts (``{qid: {docno: number}}``) as columns
(:func:`tables_of`), ranked documents found among judged ones by (query id, document
id) (:func:`match_ids`, also behind infNDCG), and a run's dict with its qrels' dict as
the rows that :func:`query_scores` ranks (:func:`dict_rows`). Numpy only."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import chain
from typing import NamedTuple

import numpy as np

from .._engine import JudgmentPool


def tables_of(nested: Mapping, name: str, value: str) -> tuple[np.ndarray, ...]:
    """``{qid: {docno: number}}`` as three columns: query ids, document ids (numpy
    bytes, UTF-8) and the numbers (float64). ``name`` and ``value`` name the argument
    and its numbers in errors."""
    if not isinstance(nested, Mapping) or not all(
        isinstance(docs, Mapping) for docs in nested.values()
    ):
        raise TypeError(
            f"{name} must be a dict of dicts, {{qid: {{docno: {value}}}}}, as pytrec_eval "
            f"takes; got {type(nested).__name__}."
        )
    sizes = np.fromiter((len(docs) for docs in nested.values()), np.intp, len(nested))
    n = int(sizes.sum())
    qid = np.repeat(_bytes_of(list(nested)), sizes)
    docno = _bytes_of(list(chain.from_iterable(nested.values())))
    try:
        numbers = np.fromiter(
            chain.from_iterable(docs.values() for docs in nested.values()), np.float64, n
        )
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} holds a {value} that is not a number; give {{qid: {{docno: {value}}}}} "
            f"with numeric {value}s."
        ) from None
    if not np.isfinite(numbers).all():
        raise ValueError(f"{name} holds a {value} that is not finite (NaN or infinite).")
    return qid, docno, numbers


def without_own_documents(run: Mapping) -> Mapping:
    """``{qid: {docno: score}}`` without the documents whose id is their query's
    (``ignore_identical_ids``): a copy of each query that holds one, the others shared
    (the input is not changed). Ids are compared as the dicts hold them; the tables
    compare them as text (``own_documents``)."""
    own = [qid for qid, docs in run.items() if qid in docs]
    if not own:
        return run
    copied = dict(run)
    for qid in own:
        copied[qid] = {docno: score for docno, score in run[qid].items() if docno != qid}
    return copied


def own_documents(qid: np.ndarray, docno: np.ndarray) -> np.ndarray:
    """Which rows rank the document whose id is their query's (ids compared as text:
    both str, or both bytes)."""
    return np.asarray(qid == docno, dtype=bool)


def query_bytes(nested: Mapping) -> np.ndarray:
    """The query ids of ``{qid: {...}}`` (every key, empty or not) as :func:`tables_of`
    gives them."""
    return _bytes_of(list(nested))


def empty_rankings(run: Mapping) -> list:
    """The queries of ``{qid: {docno: score}}`` that rank no document."""
    return [qid for qid, docs in run.items() if not docs]


def _bytes_of(ids: list) -> np.ndarray:
    """Ids (str, or anything ``str`` turns into one) as numpy bytes (``S``, UTF-8), from
    one encoding of their concatenation (numpy's own conversions of str take a Python
    call per id)."""
    try:
        text = "".join(ids)
    except TypeError:
        ids = [str(value) for value in ids]
        text = "".join(ids)
    lengths = np.fromiter(map(len, ids), np.intp, len(ids))
    encoded = text.encode("utf-8", "surrogateescape")
    if len(encoded) != len(text):  # not ASCII: lengths in bytes differ, one by one
        encoded_ids = [value.encode("utf-8", "surrogateescape") for value in ids]
        return np.array(encoded_ids, dtype=f"S{max(map(len, encoded_ids), default=1) or 1}")
    width = max(int(lengths.max(initial=1)), 1)
    column = np.arange(width)
    inside = column < lengths[:, np.newaxis]
    matrix = np.zeros((len(ids), width), dtype=np.uint8)
    starts = np.cumsum(lengths) - lengths
    matrix[inside] = np.frombuffer(encoded, np.uint8)[(starts[:, np.newaxis] + column)[inside]]
    return matrix.view(f"S{width}").reshape(len(ids))


class Matched(NamedTuple):
    """Ranked documents found among the judged ones by (query id, document id).

    Queries and documents are numbered over both tables in the sorted order of their
    ids (``qids[code]`` gives an id back).
    """

    qids: np.ndarray  # every query id of both tables, sorted
    ranked_query: np.ndarray  # code of each ranked document's query
    pool_query: np.ndarray  # code of each judged document's query
    ranked_docno: np.ndarray  # code of each ranked document's id (orders like the ids)
    row: np.ndarray  # row of each ranked document among the judged ones, -1 if none


def match_ids(ranked_q, ranked_d, pool_q, pool_d, ranked_name: str, pool_name: str) -> Matched:
    """Find each ranked document among the judged ones (1-D id arrays of one kind: str
    or bytes, compared as they are); refuses a (query, document) pair listed twice in
    either table, naming it ``ranked_name`` or ``pool_name``."""
    n_ranked = ranked_q.shape[0]
    qids, q_code = np.unique(np.concatenate([ranked_q, pool_q]), return_inverse=True)
    _, d_code = np.unique(np.concatenate([ranked_d, pool_d]), return_inverse=True)
    q_code, d_code = q_code.reshape(-1), d_code.reshape(-1)
    n_docs = int(d_code.max(initial=0)) + 1
    key = q_code.astype(np.int64) * n_docs + d_code
    ranked_key, pool_key = key[:n_ranked], key[n_ranked:]
    _refuse_repeated(ranked_key, ranked_q, ranked_d, ranked_name)
    _refuse_repeated(pool_key, pool_q, pool_d, pool_name)
    by_key = np.argsort(pool_key)
    at = np.minimum(np.searchsorted(pool_key[by_key], ranked_key), pool_key.shape[0] - 1)
    row = np.where(pool_key[by_key][at] == ranked_key, by_key[at], -1)
    return Matched(qids, q_code[:n_ranked], q_code[n_ranked:], d_code[:n_ranked], row)


def _text(value) -> str:
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else str(value)


def _refuse_repeated(key: np.ndarray, qid: np.ndarray, docno: np.ndarray, name: str) -> None:
    """Refuse a (query, document) pair listed twice."""
    _, first, count = np.unique(key, return_index=True, return_counts=True)
    repeated = first[count > 1]
    if repeated.shape[0]:
        i = int(repeated.min())
        raise ValueError(
            f"{name} lists document {_text(docno[i])!r} of query {_text(qid[i])!r} more than "
            "once; each (qid, docno) pair may appear once."
        )


def trec_labels(label: np.ndarray, unjudged: str, bounds: bool) -> np.ndarray:
    """The qrels levels of ranked documents (NaN: unjudged) as trec_eval reads them: with
    ``-J`` (``unjudged="drop"``) or the bounds, a negative level is a document in the
    pool but not judged, so unjudged."""
    if unjudged == "drop" or bounds:
        return np.where(label < 0, np.nan, label)
    return label


class DictRows(NamedTuple):
    """A run's dict and its qrels' dict as the rows of :func:`query_scores`: the label
    of each ranked document (NaN where the qrels lack it), its score and query code,
    the qrels as a pool by query code, and the caller's query id of each code."""

    label: np.ndarray
    score: np.ndarray
    qid: np.ndarray
    pool: JudgmentPool
    ids: np.ndarray
    ranked: np.ndarray  # the code of each query of the run, its ranking empty or not
    empty: bool  # whether a query of the qrels has an empty ranking in the run

    def of_ranked(self, result):
        """A result (or a dict of them) without the queries the run lacks."""
        if isinstance(result, dict):
            return {name: self.of_ranked(values) for name, values in result.items()}
        keep = np.isin(result.qid, self.ranked)
        return result._make(field[keep] for field in result)

    def named(self, result):
        """A result of query_scores (or a dict of them) with the caller's query ids,
        queries sorted by them."""
        if isinstance(result, dict):
            return {name: self.named(values) for name, values in result.items()}
        ids = np.array(self.ids[result.qid].tolist())
        order = np.argsort(ids, kind="stable")
        return result._make(field[order] for field in result._replace(qid=ids))


def dict_rows(
    qrels: Mapping, run: Mapping, *, docno_ties: bool, ignore_identical_ids: bool = False
) -> DictRows:
    """pytrec_eval's qrels (``y_true``) and run (``y_score``) dicts as rows, joined by
    (qid, docno) compared as text; with ``docno_ties`` the rows are ordered by query,
    decreasing score and, among tied scores, decreasing document id (trec_eval's
    order, which ``ties="first"`` then keeps). ``ignore_identical_ids`` drops the
    ranked documents whose id is their query's; a query of the run whose ranking is
    (then) empty stays one of the run's (``ranked``)."""
    run_q, run_d, score = tables_of(run, "y_score", "score")
    keep = ~own_documents(run_q, run_d) if ignore_identical_ids else None
    if keep is not None:
        run_q, run_d, score = run_q[keep], run_d[keep], score[keep]
    pool_q, pool_d, relevance = tables_of(qrels, "y_true", "relevance")
    for table, name in ((score, "y_score"), (relevance, "y_true")):
        if not table.shape[0]:
            raise ValueError(f"{name} holds no document; give at least one.")
    matched = match_ids(run_q, run_d, pool_q, pool_d, "y_score", "y_true")
    label = np.where(matched.row >= 0, relevance[matched.row], np.nan)
    ids = np.empty(matched.qids.shape[0], dtype=object)
    for nested, codes, rows in (
        (qrels, matched.pool_query, None),
        (run, matched.ranked_query, keep),
    ):
        sizes = np.fromiter((len(docs) for docs in nested.values()), np.intp, len(nested))
        keys = np.empty(len(nested), dtype=object)
        keys[:] = list(nested)
        repeated = np.repeat(keys, sizes)
        ids[codes] = repeated if rows is None else repeated[rows]  # the run's id if both have one
    query = matched.ranked_query
    if docno_ties:
        order = np.lexsort((-matched.ranked_docno, -score, query))
        label, score, query = label[order], score[order], query[order]
    pool = JudgmentPool(matched.pool_query, relevance)
    queries = query_bytes(run)  # every query of the run, empty rankings too
    at = np.minimum(np.searchsorted(matched.qids, queries), matched.qids.shape[0] - 1)
    ranked = np.unique(at[matched.qids[at] == queries])  # of the queries coded here
    empty = np.setdiff1d(ranked, matched.ranked_query).shape[0] > 0  # so in the qrels
    return DictRows(label, score, query, pool, ids, ranked, empty)
