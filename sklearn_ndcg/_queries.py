"""Group rows into queries: query ids, sizes, offsets and sorting within queries."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Queries(NamedTuple):
    """How the documents are grouped into queries.

    A *sorted layout* lays the documents out query by query, queries in the
    order of ``ids``; ``starts`` and ``sizes`` give each query's slice of it.
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
    ids, codes = _encode(qid)
    sizes = np.bincount(codes, minlength=ids.shape[0])
    starts = np.concatenate(([0], np.cumsum(sizes[:-1])))
    return Queries(ids, sizes, starts, codes, None)


def _encode(qid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Sorted unique ids and the index of each row's id among them."""
    if qid.dtype.kind in "iu":
        low, high = int(qid.min()), int(qid.max())
        if high - low <= 4 * qid.shape[0] + 1024:  # a lookup table is cheaper than a sort
            # Subtract in 64 bits, never in the ids' own (maybe 8-bit) dtype; each
            # difference is in [0, high - low], so it cannot wrap.
            wide = np.dtype(np.int64 if qid.dtype.kind == "i" else np.uint64)
            offset = (qid.astype(wide) - wide.type(low)).astype(np.intp)
            present = np.zeros(high - low + 1, dtype=bool)
            present[offset] = True
            ids = (np.flatnonzero(present).astype(wide) + wide.type(low)).astype(qid.dtype)
            return ids, (np.cumsum(present) - 1)[offset]
    try:
        ids, codes = np.unique(qid, return_inverse=True)
    except TypeError:
        types = sorted({type(v).__name__ for v in qid})
        raise TypeError(
            f"qid mixes values that cannot be compared with each other "
            f"(types {', '.join(types)}); give query ids of one sortable type."
        ) from None
    return ids, codes.reshape(-1)


def sort_within_queries(queries: Queries, values: np.ndarray) -> np.ndarray:
    """Flat indices of the sorted layout, each query by decreasing ``values``.

    Equal values within a query come in no particular order: the tie rules
    decide that order.
    """
    if queries.codes is None:
        shape = queries.shape
        order = np.argsort(values.reshape(shape), axis=1)[:, ::-1]
        return (order + (np.arange(shape[0]) * shape[1])[:, np.newaxis]).ravel()
    n_rows = values.shape[0]
    bits = max(n_rows - 1, 1).bit_length()
    if max(queries.ids.shape[0] - 1, 1).bit_length() + bits > 62:  # keys would overflow
        return np.lexsort((-values, queries.codes))
    by_value = np.argsort(-values)
    # Then by query, keeping the value order: one sort of unique int64 keys,
    # the query code in the high bits and the position in by_value in the low.
    key = queries.codes[by_value].astype(np.int64) << bits
    key |= np.arange(n_rows)
    return by_value[np.argsort(key)]


def is_query_start(queries: Queries) -> np.ndarray:
    """Boolean mask over the sorted layout: True at each query's first document."""
    n_rows = int(queries.sizes.sum())
    mask = np.zeros(n_rows, dtype=bool)
    mask[queries.starts] = True
    return mask


def positions(queries: Queries) -> np.ndarray:
    """1-based position of each document of the sorted layout within its query."""
    if queries.codes is None:
        n_queries, n_documents = queries.shape
        return np.tile(np.arange(1, n_documents + 1), n_queries)
    n_rows = int(queries.sizes.sum())
    return np.arange(1, n_rows + 1) - np.repeat(queries.starts, queries.sizes)


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
