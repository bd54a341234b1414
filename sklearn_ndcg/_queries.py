"""Group rows into queries: query ids, sizes, offsets and sorting within queries."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Queries(NamedTuple):
    """How the documents are grouped into queries.

    After :func:`sort_within_queries`, the documents of each query are
    contiguous, queries in the order of ``ids``; ``starts`` and ``sizes`` give
    each query's slice of that order.
    """

    ids: np.ndarray
    sizes: np.ndarray
    starts: np.ndarray
    codes: np.ndarray | None  # query index of each input row; None for 2-D input
    shape: tuple[int, int] | None  # (n_queries, n_documents) for 2-D input


def group_queries(qid: np.ndarray | None, shape: tuple[int, int] | None) -> Queries:
    """Group rows by query id, or by row of a ``(n_queries, n_documents)`` layout."""
    if qid is None:
        n_queries, n_documents = shape
        ids = np.arange(n_queries)
        sizes = np.full(n_queries, n_documents, dtype=np.intp)
        return Queries(ids, sizes, ids * n_documents, None, shape)
    try:
        ids, codes = np.unique(qid, return_inverse=True)
    except TypeError:
        types = sorted({type(v).__name__ for v in qid})
        raise TypeError(
            f"qid mixes values that cannot be compared with each other "
            f"(types {', '.join(types)}); give query ids of one sortable type."
        ) from None
    codes = codes.reshape(-1)
    sizes = np.bincount(codes, minlength=ids.shape[0])
    starts = np.concatenate(([0], np.cumsum(sizes[:-1])))
    return Queries(ids, sizes, starts, codes, None)


def sort_within_queries(queries: Queries, keys: tuple[np.ndarray, ...]) -> np.ndarray:
    """Flat indices that lay documents out query by query, each sorted by ``keys``.

    As in :func:`numpy.lexsort`, the last key is the primary one. The sort is
    stable: documents equal on every key keep their input order.
    """
    if queries.codes is None:
        shape = queries.shape
        if len(keys) == 1:
            order = np.argsort(keys[0].reshape(shape), axis=1, kind="stable")
        else:
            order = np.lexsort([key.reshape(shape) for key in keys], axis=1)
        order += (np.arange(shape[0]) * shape[1])[:, np.newaxis]
        return order.ravel()
    return np.lexsort((*keys, queries.codes))


def positions(queries: Queries) -> np.ndarray:
    """1-based position of each document of the sorted layout within its query."""
    if queries.codes is None:
        n_queries, n_documents = queries.shape
        return np.tile(np.arange(1, n_documents + 1), n_queries)
    n_rows = int(queries.sizes.sum())
    return np.arange(1, n_rows + 1) - np.repeat(queries.starts, queries.sizes)


def query_sums(values: np.ndarray, queries: Queries) -> np.ndarray:
    """Sum ``values`` (in the sorted layout) over each query."""
    if queries.codes is None:
        return values.reshape(queries.shape).sum(axis=1)
    return np.add.reduceat(values, queries.starts)



def query_weights(sample_weight: np.ndarray | None, queries: Queries) -> np.ndarray | None:
    """One weight per query from one weight per document (long format).

    2-D input already has one weight per query. In long format every document
    of a query must carry the same weight.
    """
    if sample_weight is None or queries.codes is None:
        return sample_weight
    weights = np.empty(queries.ids.shape[0])
    weights[queries.codes] = sample_weight
    differs = sample_weight != weights[queries.codes]
    if differs.any():
        bad = queries.ids[np.unique(queries.codes[differs])][:5]
        raise ValueError(
            "sample_weight must be the same for every document of a query (one "
            f"weight per query); it varies within the queries {bad.tolist()}."
        )
    return weights
