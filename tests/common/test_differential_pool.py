"""Differential test of the pool path: query ids of the ranking and of the pool in
every pair of integer widths and signedness (issue 25's hidden variant).

The ids sit at the top of the range both dtypes hold, beyond 2**53 where both are 64
bits wide, and the pool also holds the neighbour id of each ranked query (a decoy
with other labels), which float64 would merge with it. The expected values come from
the exact reference ``tests/_reference.py`` (plain Python), the ideal DCG from the
query's pool labels; the ids come back exactly, in the ranking's dtype. A second test
does the same at a realistic size, with every pool option.
"""

import itertools

import _reference as ref
import numpy as np
import pytest

from sklearn_ndcg import JudgmentPool, query_scores

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
PAIRS = list(itertools.product(INTS, INTS))


def _base(first: str, second: str, n_ids: int) -> int:
    top = min(np.iinfo(first).max, np.iinfo(second).max)
    return top - n_ids if top < 2**60 else 2**53  # beyond float64's integers


@pytest.mark.parametrize("ranking_dtype, pool_dtype", PAIRS)
@pytest.mark.parametrize("missing_queries", ["drop", "zero"])
def test_pool_ids_of_every_integer_pair(ranking_dtype, pool_dtype, missing_queries):
    rng = np.random.default_rng(PAIRS.index((ranking_dtype, pool_dtype)))
    n_queries = 4
    base = _base(ranking_dtype, pool_dtype, 2 * n_queries + 2)
    qid, y, score, pool_qid, pool_y, expected = [], [], [], [], [], {}
    for i in range(n_queries):
        ranked_id, decoy_id = base + 2 * i, base + 2 * i + 1
        labels = rng.integers(0, 4, int(rng.integers(1, 5))).tolist()
        scores = rng.integers(0, 3, len(labels)).tolist()  # ties: the mean over orders
        extra = rng.integers(0, 4, int(rng.integers(0, 3))).tolist()  # judged, not ranked
        qid += [ranked_id] * len(labels)
        y += labels
        score += scores
        pool_qid += [ranked_id] * (len(labels) + len(extra)) + [decoy_id] * 2
        pool_y += labels + extra + [3, 3]
        ideal = ref.query_ideal_dcg(labels + extra)
        dcg = ref.query_dcg(labels, scores)
        expected[ranked_id] = dcg / ideal if ideal > 0 else 0.0
        if missing_queries == "zero":
            expected[decoy_id] = 0.0  # judged, never ranked
    result = query_scores(
        np.array(y, dtype=float),
        np.array(score, dtype=float),
        qid=np.array(qid, dtype=ranking_dtype),
        pool=JudgmentPool(np.array(pool_qid, dtype=pool_dtype), pool_y),
        missing_queries=missing_queries,
    )
    assert result.qid.tolist() == sorted(expected)  # exact Python ints
    if missing_queries == "drop":
        assert result.qid.dtype == np.dtype(ranking_dtype)
    want = [expected[q] for q in sorted(expected)]
    np.testing.assert_allclose(result.score, want, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("normalize", ["ideal", "minmax"])
@pytest.mark.parametrize("unjudged, missing_queries", [("zero", "drop"), ("drop", "zero")])
@pytest.mark.parametrize("ranking_dtype, pool_dtype", [("int64", "uint64"), ("uint64", "int64")])
def test_pool_of_realistic_size(ranking_dtype, pool_dtype, unjudged, missing_queries, normalize):
    """40 queries of 40 distinct lengths (up to 120 ranked documents; beyond 32 sizes
    ranking and pool share padded blocks), ids consecutive above 2**53, unjudged
    documents, judged documents not ranked (negative ones under min-max), queries of
    the pool not ranked, document weights; the reference is ``tests/_reference.py``."""
    rng = np.random.default_rng([ranking_dtype == "int64", unjudged == "zero", len(normalize)])
    low = -1 if normalize == "minmax" else 0
    sizes = rng.choice(np.arange(1, 121), 40, replace=False)
    ids = [2**53 + j for j in range(sizes.size + 3)]  # the last 3 only in the pool
    codes = rng.permutation(np.repeat(np.arange(sizes.size), sizes))
    qid = [ids[c] for c in codes]
    labels = rng.choice([low, 0, 0, 1, 2, 3], codes.size).astype(float).tolist()
    scores = rng.integers(0, 8, codes.size).tolist()  # ties
    document_weight = rng.choice([0.0, 0.5, 1.0, 2.0], codes.size).tolist()
    pool_qid, pool_y = list(qid), list(labels)
    for q in ids:  # judged, not ranked: every query's pool is longer than its ranking
        extra = rng.choice([low, 0, 1, 3], int(rng.integers(1, 30))).astype(float).tolist()
        pool_qid += [q] * len(extra)
        pool_y += extra
    y = [None if rng.random() < 0.2 and v <= 0 else v for v in labels]
    options = dict(normalize=normalize, unjudged=unjudged, missing_queries=missing_queries)
    expected = ref.evaluate(
        y, scores, qid=qid, document_weight=document_weight, pool=(pool_qid, pool_y), **options
    )
    result = query_scores(
        np.array([np.nan if v is None else v for v in y]),
        np.array(scores, dtype=float),
        qid=np.array(qid, dtype=ranking_dtype),
        document_weight=np.array(document_weight),
        pool=JudgmentPool(np.array(pool_qid, dtype=pool_dtype), pool_y),
        **options,
    )
    assert result.qid.tolist() == sorted(expected)
    want = [expected[q][0] for q in sorted(expected)]
    np.testing.assert_allclose(result.score, want, rtol=1e-12, atol=1e-13)
