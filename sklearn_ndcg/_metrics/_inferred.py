"""Inferred NDCG (infNDCG) against a pool judged by stratified sampling: the estimate
of each query from its ranked documents (:func:`inferred_values`), and
``query_scores(..., metric="infNDCG")``'s way to it from arrays with document ids.

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
run lacks (unless ``complete``: they score 0). The TREC files' side (ids as bytes,
joined by hashing) is ``sklearn_ndcg._ir._infndcg``. Numpy only.
"""

from __future__ import annotations

import numpy as np

from .._engine import JudgmentPool, as_score_array, missing_rows
from ._ids import match_ids
from ._results import QueryScores

DEPTH = 1000  # sample_eval.pl's $maxResultSize
INFNDCG = "infNDCG"


def refuse_changed_rules(fixed: dict, given: dict) -> None:
    """Refuse an option of ``fixed`` (name -> default) whose ``given`` value is not its
    default: infNDCG follows sample_eval.pl's rules, which no option changes."""
    for name, default in fixed.items():
        value = given[name]
        plain = isinstance(value, (str, int, float)) and default is not None
        if value is not default and not (plain and value == default):
            raise ValueError(
                f'metric="{INFNDCG}" follows sample_eval.pl\'s rules (linear gain, log2 '
                "discount, the first 1000 documents, tied scores by decreasing document id, "
                f"queries weighted equally); {name}={value!r} cannot change them. Leave "
                f"{name} at its default."
            )


def perl_text(level: float) -> str:
    """A level as Perl prints a number (``%.15g``): the text its hash keys sort by."""
    return f"{level:.15g}"


def inferred_values(
    query: np.ndarray,
    row: np.ndarray,
    pooled_query: np.ndarray,
    n_queries: int,
    pool: JudgmentPool,
    *,
    complete: bool = False,
    depth: int = DEPTH,
) -> tuple[np.ndarray, np.ndarray]:
    """infNDCG of each query: the query codes evaluated (sorted) and their values.

    ``query`` is the code (``0 <= code < n_queries``) of each ranked document, the
    rows of a query together and in rank order; ``row`` its row in the pool (-1
    outside it); ``pooled_query`` the code of each row of the pool, which has strata.
    """
    start = np.ones(query.shape[0], dtype=bool)
    start[1:] = query[1:] != query[:-1]
    position = np.arange(query.shape[0])
    rank = position - np.maximum.accumulate(np.where(start, position, 0)) + 1
    keep = rank <= depth
    query, row, rank = query[keep], row[keep], rank[keep]

    pool_stratum, sampled = pool.stratum, pool.sampled
    if pool_stratum is None or sampled is None:  # inferred_query_scores refuses such pools
        raise ValueError("infNDCG needs a judgment pool with strata.")
    in_pool = pool_stratum != None  # noqa: E711 (object array: None outside the pool)
    level = pool.y_true
    relevant = sampled & (level > 0)
    strata, stratum = np.unique(
        np.where(in_pool, pool_stratum, "").astype(str), return_inverse=True
    )
    n_strata = strata.shape[0]
    # one cell per (query, stratum) of the pool, numbered by query, then stratum
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
    found = row >= 0
    found[found] = in_pool[row[found]]
    ranked_row = row[found]
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
    codes = np.flatnonzero(evaluated)
    return codes, value[codes]


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


def _text_ids(values, name: str) -> np.ndarray:
    """Ids as a 1-D array of str (numbers converted with ``str``), none missing."""
    array = np.asarray(values, dtype=object)
    if array.ndim != 1:
        raise ValueError(f"{name} must be 1-D, one id per document; got shape {array.shape}.")
    missing = missing_rows(array)
    if missing.shape[0]:
        raise ValueError(
            f"{name} has missing values (None, NaN or NA), e.g. at row {missing[0]}; every "
            "document needs an id."
        )
    return array.astype(str)


def inferred_query_scores(
    y_true, y_score, *, qid, docno, pool: JudgmentPool | None, missing_queries: str
) -> QueryScores:
    """``query_scores(None, y_score, qid=, docno=, pool=, metric="infNDCG")``: the
    ranked documents found in the pool by (query, document id), compared as text as
    sample_eval.pl reads them; queries sorted by id."""
    if y_true is not None:
        raise ValueError(
            f'metric="{INFNDCG}" reads the levels, strata and sampled flags of the ranked '
            "documents from the pool, by document id; pass None as y_true."
        )
    if pool is None or pool.stratum is None or pool.docno is None:
        got = (
            "no pool"
            if pool is None
            else "a pool without " + ("strata" if pool.stratum is None else "document ids")
        )
        raise ValueError(
            f'metric="{INFNDCG}" needs a pool judged by stratified sampling, with document '
            f"ids: JudgmentPool(qid, y_true, stratum=..., docno=...); got {got}."
        )
    if qid is None or docno is None:
        missing = "qid" if qid is None else "docno"
        raise ValueError(
            f'metric="{INFNDCG}" needs the query id (qid=) and the document id (docno=) of '
            f"each ranked document; {missing} is None."
        )
    score = as_score_array(y_score, "y_score")
    if score.ndim != 1:
        raise ValueError(
            f'metric="{INFNDCG}" takes long-format input: y_score must be 1-D, one score '
            f"per ranked document; got shape {score.shape}."
        )
    ranked_q, ranked_d = _text_ids(qid, "qid"), _text_ids(docno, "docno")
    if not ranked_q.shape[0] == ranked_d.shape[0] == score.shape[0]:
        raise ValueError(
            f"qid has {ranked_q.shape[0]} entries, docno {ranked_d.shape[0]} and y_score "
            f"{score.shape[0]}; give one query id and one document id per ranked document."
        )
    if not score.shape[0]:
        raise ValueError(
            f'y_score is empty; metric="{INFNDCG}" needs at least one ranked document.'
        )
    pool_q = _text_ids(pool.qid, "the pool's qid")
    pool_d = _text_ids(pool.docno, "the pool's docno")
    matched = match_ids(ranked_q, ranked_d, pool_q, pool_d, "the ranking (qid, docno)", "the pool")
    # by query, decreasing score, tied scores by decreasing document id
    score_rank = np.unique(score, return_inverse=True)[1].reshape(-1)
    ranked_code = matched.ranked_query
    order = np.lexsort((-matched.ranked_docno, -score_rank, ranked_code))
    codes, values = inferred_values(
        ranked_code[order],
        matched.row[order],
        matched.pool_query,
        matched.qids.shape[0],
        pool,
        complete=missing_queries == "zero",
    )
    if not codes.shape[0]:
        raise ValueError(
            f"no query of the ranking is in the pool (the ranking has queries such as "
            f"{str(ranked_q[0])!r}, the pool {str(pool_q[0])!r}); do the query ids match?"
        )
    # the caller's ids (the ranking's, the pool's for queries the ranking lacks)
    original = np.empty(matched.qids.shape[0], dtype=object)
    original[matched.pool_query] = np.asarray(pool.qid, dtype=object)
    original[ranked_code] = np.asarray(qid, dtype=object)
    ids = np.array(original[codes].tolist())
    by_id = np.argsort(ids, kind="stable")
    return QueryScores(ids[by_id], values[by_id], np.ones(codes.shape[0]))
