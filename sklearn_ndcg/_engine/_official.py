"""The kernels of trec_eval's official measures beside the cutoff families: the counts
(``num_ret``, ``num_rel``, ``num_rel_ret``), R-precision, bpref, interpolated precision
at recall levels, the geometric mean's log of average precision and rank-biased
precision, each summed from the one order of a block's rows (:func:`._rank._block_sums`).

Each follows its trec_eval 10.0 source (``m_<name>.c``) term by term, in the order of
its loop, so that the values print as the binary prints them. A query's relevant (``R``)
and judged non-relevant (``N``) documents and its largest level are counted among its
judged documents (the pool's, else the ranked ones: :class:`QueryCounts`).

With ``ties="average"`` a value is its expected value over the orders of the tied
documents where it has one in closed form: the counts do not depend on the order;
R-precision and rank-biased precision are linear in each rank's relevance or gain (a
tied document's expected value is its group's mean); bpref's term of a relevant
document reads the judged non-relevant documents above it, of which a tie group's are
above it in a uniformly random number from 0 to their count. Interpolated precision and
the log of average precision have no closed form: where a tie group mixes relevant and
other documents they are refused, naming the tie rules that order them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

RANK_MEASURES = (
    "recip_rank", "map", "P", "recall", "success",  # _rank.py's
    "num_ret", "num_rel", "num_rel_ret", "Rprec", "bpref", "gm_map", "iprec_at_recall", "rbp",
)  # fmt: skip
"""The engine's measures beside NDCG and DCG (its requests of ``query_values(...,
measures=)``, ``RankingOptions.metric``): the kernels of ``_rank.py`` and these. The
vocabulary (:mod:`sklearn_ndcg._vocabulary`) names each measure's request among them."""

IPREC_TREC_EVAL_9 = "iprec_at_recall (trec_eval 9)"
"""The request of interpolated precision as trec_eval 9 (pytrec_eval's) computes it: the
cutoff of a recall level is ``fraction * R + 0.9`` rounded down (trec_eval 10.0's
m_iprec_at_recall.c: rounded to the nearest, C's ``lround``)."""

AT_LEVELS = ("iprec_at_recall", IPREC_TREC_EVAL_9)
"""The requests whose parameters are recall levels, a column each."""

OFFICIAL = ("num_ret", "num_rel", "num_rel_ret", "Rprec", "bpref", *AT_LEVELS, "rbp")
"""The requests these kernels compute (``gm_map`` is average precision's sums, finished
by :func:`log_average_precision`)."""

ORDER_DEPENDENT = (*AT_LEVELS, "gm_map")
"""The measures without a closed-form expected value over the orders of tied
documents."""

with np.errstate(invalid="ignore"):
    _ZERO_BY_ZERO = np.float64(0.0) / np.float64(0.0)  # the processor's NaN, as C's

MIN_GEO_MEAN = 0.00001
"""trec_eval's floor of average precision before its log (``MIN_GEO_MEAN``)."""


class QueryCounts(NamedTuple):
    """Per row of a block: its ranked documents (``-J`` removes the unjudged ones), its
    judged relevant (``R``) and judged non-relevant (``N``) documents, and its largest
    judged level (at least 0)."""

    n_ret: np.ndarray
    n_rel: np.ndarray
    n_nonrel: np.ndarray
    max_level: np.ndarray


class TieGroups(NamedTuple):
    """The tie groups of a block's ordered rows, laid flat: each cell's group (from 0),
    each group's first cell and its size."""

    number: np.ndarray
    start: np.ndarray
    size: np.ndarray


class Ordered(NamedTuple):
    """A block's rows in the tie rule's order: relevance (0/1), levels (NaN unjudged or
    padding), its tie groups (None: every document a group of its own) and the rows'
    counts."""

    rel: np.ndarray
    level: np.ndarray
    groups: TieGroups | None
    counts: QueryCounts


def official_columns(name: str, params, o: Ordered) -> list[np.ndarray]:
    """The values of ``name`` for each row of the block (one column per recall level of
    ``iprec_at_recall``; ``rbp``'s parameter is its persistence)."""
    c = o.counts
    if name == "num_ret":
        return [c.n_ret]
    if name == "num_rel":
        return [c.n_rel]
    if name == "num_rel_ret":
        return [_expected(o.rel, o.groups).sum(axis=1)]
    if name == "Rprec":
        return [_r_precision(o)]
    if name == "bpref":
        return [_bpref(o)]
    if not params and name in (*AT_LEVELS, "rbp"):  # their defaults: the vocabulary's
        raise ValueError(f"{name} needs its parameters (recall levels, persistence).")
    if name in AT_LEVELS:
        refuse_mixed_ties(AT_LEVELS[0], o.rel, o.groups)
        return _interpolated_precision(o, params, name == IPREC_TREC_EVAL_9)
    if name == "rbp":
        return [_rank_biased_precision(o, params[0])]
    raise ValueError(f"unknown measure {name!r}; these kernels compute {OFFICIAL}.")


def refuse_mixed_ties(name: str, rel: np.ndarray, groups: TieGroups | None) -> None:
    """Refuse a measure of :data:`ORDER_DEPENDENT` where a tie group holds relevant and
    other documents (its value would depend on their order)."""
    if groups is None:
        return
    mean = _group_means(rel, groups)
    if ((mean > 0) & (mean < 1)).any():
        raise ValueError(
            f"{name} has no closed-form mean over the orders of tied documents, and some "
            "query ranks relevant and other documents with the same score; pass "
            "ties='docno' (trec_eval's order, by document id, where ids are known) or "
            "ties='first' (the input order) to order them."
        )


def log_average_precision(ap: np.ndarray) -> np.ndarray:
    """``gm_map``'s value per query: the log of average precision floored at
    :data:`MIN_GEO_MEAN`, as trec_eval's m_gm_map.c (its mean, exponentiated, is the
    geometric mean)."""
    return np.log(np.maximum(ap, MIN_GEO_MEAN))


def _expected(values: np.ndarray, groups: TieGroups | None) -> np.ndarray:
    """Each cell's expected value over the orders of its tie group: its group's mean."""
    if groups is None:
        return values
    return np.take(_group_means(values, groups), groups.number).reshape(values.shape)


def _group_means(values: np.ndarray, groups: TieGroups) -> np.ndarray:
    """Each tie group's mean of ``values`` (the groups fill the block's cells)."""
    return np.add.reduceat(values.reshape(-1), groups.start) / groups.size


def _r_precision(o: Ordered) -> np.ndarray:
    """m_Rprec.c: relevant documents in the top min(num_ret, R), over R; 0 where that
    is 0 documents."""
    rel = _expected(o.rel, o.groups)
    look = np.minimum(o.counts.n_ret, o.counts.n_rel)
    top = np.arange(rel.shape[1]) < look[:, np.newaxis]
    found = np.cumsum(np.where(top, rel, 0.0), axis=1)[:, -1] if rel.shape[1] else look * 0
    values = np.zeros(rel.shape[0])
    np.divide(found, o.counts.n_rel, out=values, where=look > 0)
    return values


def _bpref(o: Ordered) -> np.ndarray:
    """m_bpref.c: over the judged documents in rank order, each relevant one adds
    ``1 - min(n, R) / min(N, R)`` for the ``n`` judged non-relevant ones above it (1
    where none is); the sum over R."""
    c = o.counts
    with np.errstate(invalid="ignore"):
        nonrel = ((o.level >= 0) & (o.rel == 0)).astype(np.float64)
    n_rows, width = nonrel.shape
    r_cap = c.n_rel[:, np.newaxis]
    denominator = np.minimum(c.n_nonrel, c.n_rel)[:, np.newaxis]

    def term(n_above: np.ndarray) -> np.ndarray:
        with np.errstate(divide="ignore", invalid="ignore"):
            value = 1.0 - np.minimum(n_above, r_cap) / denominator
        return np.where(n_above > 0, value, 1.0)

    above = np.cumsum(nonrel, axis=1) - nonrel  # judged non-relevant above each cell
    g = o.groups
    if g is None:
        terms = np.where(o.rel > 0, term(above), 0.0)
    else:  # a relevant document sees c + X of them, X uniform on 0..n of its group
        first = np.take(above.reshape(-1)[g.start], g.number).reshape(above.shape)
        n_group = _expected(nonrel, g) * np.take(g.size, g.number).reshape(above.shape)
        # the sum of term(m) for m below each count: prefix sums along m = 0..width
        m = np.arange(width + 1, dtype=np.float64)[np.newaxis, :]
        prefix = np.zeros((n_rows, width + 2))
        prefix[:, 1:] = np.cumsum(term(np.broadcast_to(m, (n_rows, width + 1))), axis=1)
        rows = np.arange(n_rows)[:, np.newaxis]
        lo, hi = first.astype(np.intp), (first + n_group + 1).astype(np.intp)
        mean_term = (prefix[rows, hi] - prefix[rows, lo]) / (n_group + 1)
        terms = _expected(o.rel, g) * mean_term
    total = np.cumsum(terms, axis=1)[:, -1] if width else np.zeros(n_rows)
    values = np.zeros(n_rows)
    np.divide(total, c.n_rel, out=values, where=c.n_rel > 0)
    return values


def _interpolated_precision(o: Ordered, fractions, trec_eval_9: bool) -> list[np.ndarray]:
    """m_iprec_at_recall.c: at each recall fraction, the cutoff ``lround(fraction * R)``
    relevant documents (``trec_eval_9``: ``fraction * R + 0.9`` rounded down); the
    largest precision at or below the rank where that many are retrieved (the first
    relevant one's for 0), 0 where fewer are retrieved."""
    c = o.counts
    n_rows, width = o.rel.shape
    found = np.cumsum(o.rel, axis=1)
    ranks = np.arange(1, width + 1, dtype=np.float64)
    ranked = np.arange(width) < c.n_ret[:, np.newaxis]
    precision = np.where(ranked, found / ranks, -np.inf)
    best_below = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]
    n_rel_ret = found[:, -1] if width else np.zeros(n_rows)
    rows = np.arange(n_rows)
    columns = []
    for fraction in fractions:
        cutoff = _level_cutoff(fraction, c.n_rel, trec_eval_9)
        reached = np.maximum(cutoff, 1.0)
        rank = np.argmax(found >= reached[:, np.newaxis], axis=1) if width else rows * 0
        value = np.where(n_rel_ret >= reached, best_below[rows, rank] if width else 0.0, 0.0)
        # a cutoff of 0 documents without any retrieved: C's precision 0 / 0, a NaN
        columns.append(np.where((cutoff == 0) & (c.n_ret == 0), _ZERO_BY_ZERO, value))
    return columns


def _level_cutoff(fraction: float, n_rel: np.ndarray, trec_eval_9: bool) -> np.ndarray:
    """The relevant documents a recall level asks for: ``lround(fraction * R)``
    (``trec_eval_9``: ``(long) (fraction * R + 0.9)``)."""
    product = fraction * n_rel
    if trec_eval_9:
        return np.floor(product + 0.9)
    whole = np.floor(product)
    return whole + (product - whole >= 0.5)  # C's lround: half away from zero


def unretrieved_levels(fractions, n_rel: np.ndarray, trec_eval_9: bool) -> np.ndarray:
    """Interpolated precision of queries that retrieved nothing: C's 0 / 0 at a recall
    level whose cutoff is 0 documents, else 0; shape (n_queries, n_levels)."""
    columns = [
        np.where(_level_cutoff(f, n_rel, trec_eval_9) == 0, _ZERO_BY_ZERO, 0.0) for f in fractions
    ]
    return np.column_stack(columns)


def _rank_biased_precision(o: Ordered, p: float) -> np.ndarray:
    """m_rbp.c: ``(1 - p)`` times the sum of each rank's gain times ``p`` to the rank
    less one; the gain of a judged level is the level, over the query's largest level
    where that exceeds 1 (trec_eval's normalization to [0, 1])."""
    c = o.counts
    n_rows, width = o.level.shape
    scale = np.where(c.max_level > 1, c.max_level, 1.0)[:, np.newaxis]
    with np.errstate(invalid="ignore"):
        gain = np.where(o.level > 0, o.level / scale, 0.0)
    ranked = np.arange(width) < c.n_ret[:, np.newaxis]
    gain = np.where(ranked, _expected(gain, o.groups), 0.0)
    weight = np.cumprod(np.concatenate([[1.0], np.full(max(width - 1, 0), p)]))[:width]
    total = np.cumsum(gain * weight, axis=1)[:, -1] if width else np.zeros(n_rows)
    return (1.0 - p) * total
