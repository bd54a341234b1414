"""The strata of a judgment pool judged by stratified sampling (TREC's sampled pools).

Each pooled document belongs to a stratum, and only a sample of each stratum is judged;
:func:`check_strata` checks the strata and the sampled flags of a :class:`JudgmentPool`
(``stratum=``, ``sampled=``). The inferred NDCG that reads them is in ``sklearn_ndcg._ir``.
"""

from __future__ import annotations

import numpy as np

from ._validation import missing_rows


def check_strata(qid: np.ndarray, y_true: np.ndarray, stratum, sampled) -> tuple:
    """The strata (object array of str; None outside the pool) and the sampled flags
    (bool) of a pool, checked.

    A document with a missing stratum (None, NaN) is outside the stratified pool and
    must not be sampled. By default a document is sampled when its level is not
    negative (``sample_eval.pl``'s ``-1``: pooled, not judged). Raises ValueError for a
    stratum of a query with no sampled document (nothing to estimate it from), a
    sampled document outside the pool, a sampled document with a negative level, and
    arrays of the wrong shape.
    """
    n = y_true.shape[0]
    if stratum is None:
        if sampled is not None:
            raise ValueError(
                "the pool's sampled flags need its strata: give stratum= (one stratum per "
                "judged document) with sampled=."
            )
        return None, None
    stratum = np.asarray(stratum, dtype=object)
    if stratum.ndim != 1 or stratum.shape[0] != n:
        raise ValueError(
            f"the pool's stratum must be 1-D with one stratum per judged document "
            f"({n}); got shape {stratum.shape}."
        )
    outside = np.zeros(n, dtype=bool)
    outside[missing_rows(stratum)] = True
    strata = np.empty(n, dtype=object)
    strata[~outside] = [str(value) for value in stratum[~outside].tolist()]
    if sampled is None:
        flags = y_true >= 0
        how = "its level is not negative"
    else:
        flags = np.asarray(sampled)
        if flags.shape != (n,) or flags.dtype.kind != "b":
            raise ValueError(
                f"the pool's sampled must be a 1-D boolean array with one flag per judged "
                f"document ({n}); got dtype {flags.dtype} and shape {flags.shape}."
            )
        how = "sampled=True"
        negative = np.flatnonzero(flags & (y_true < 0))
        if negative.shape[0]:
            i = int(negative[0])
            raise ValueError(
                f"the pool's sampled flags mark document {i} (query {_shown(qid[i])!r}) as "
                f"sampled, but its level {y_true[i]:g} is negative (pooled, not judged); a sampled "
                "document needs its judgment."
            )
    bad = np.flatnonzero(flags & outside)
    if bad.shape[0]:
        i = int(bad[0])
        raise ValueError(
            f"the pool's document {i} (query {_shown(qid[i])!r}) is sampled ({how}) but "
            "outside the pool: its stratum is missing. Give every sampled document its stratum."
        )
    _refuse_unsampled_strata(qid[~outside], strata[~outside], flags[~outside])
    return strata, np.array(flags, dtype=bool)


def _refuse_unsampled_strata(qid: np.ndarray, strata: np.ndarray, sampled: np.ndarray) -> None:
    """Every (query, stratum) needs a sampled document: its sampling rate divides."""
    if not qid.shape[0]:
        return
    _, query = np.unique(qid.astype(str), return_inverse=True)
    _, code = np.unique(strata.astype(str), return_inverse=True)
    cell = query.reshape(-1).astype(np.int64) * (int(code.max()) + 1) + code.reshape(-1)
    cells, first, inverse = np.unique(cell, return_index=True, return_inverse=True)
    n_sampled = np.bincount(inverse.reshape(-1), weights=sampled, minlength=cells.shape[0])
    empty = np.flatnonzero(n_sampled == 0)
    if empty.shape[0]:
        i = int(first[empty[0]])
        n_docs = int(np.count_nonzero(inverse == empty[0]))
        raise ValueError(
            f"stratum {strata[i]!r} of query {_shown(qid[i])!r} has no sampled document (its "
            f"{n_docs} documents are all unjudged); its relevant documents cannot be "
            "estimated. Judge a sample of every stratum, or merge the stratum into another."
        )


def _shown(value):
    """A numpy scalar as its Python value, for messages."""
    return value.item() if isinstance(value, np.generic) else value
