"""Tests of position -> discount weight in _discount.py."""

import numpy as np
import pytest

from sklearn_ndcg._discount import discount_weights
from sklearn_ndcg._queries import group_queries

POSITIONS = np.array([1, 2, 3, 4, 1, 2])
# long format: query 7 has four documents, query 8 two, so the sorted layout
# has the positions POSITIONS
LONG = group_queries(np.array([7, 8, 7, 7, 8, 7]), None)


@pytest.mark.parametrize(
    "discount, k, log_base, expected",
    [
        # hand: 1 / log2(r + 1)
        ("log2", None, None, [1, 1 / np.log2(3), 1 / 2, 1 / np.log2(5), 1, 1 / np.log2(3)]),
        ("log2", 2, None, [1, 1 / np.log2(3), 0, 0, 1, 1 / np.log2(3)]),
        ("log2", 1, None, [1, 0, 0, 0, 1, 0]),
        # hand: 1 / log10(r + 1)
        ("log2", None, 10, [1 / np.log10(r + 1) for r in POSITIONS]),
        ("reciprocal", None, None, [1, 1 / 2, 1 / 3, 1 / 4, 1, 1 / 2]),
        ("reciprocal", 3, None, [1, 1 / 2, 1 / 3, 0, 1, 1 / 2]),
        ("none", None, None, [1, 1, 1, 1, 1, 1]),
        ("none", 100, None, [1, 1, 1, 1, 1, 1]),
        (lambda r: 1.0 / r**2, None, None, [1, 1 / 4, 1 / 9, 1 / 16, 1, 1 / 4]),
        (lambda r: 1.0 / r**2, 2, None, [1, 1 / 4, 0, 0, 1, 1 / 4]),
    ],
)
def test_discount_weights(discount, k, log_base, expected):
    result = discount_weights(LONG, discount, k, log_base)
    np.testing.assert_allclose(result, expected, rtol=1e-15)
    # 2-D input: the weights of the positions up to k, shared by every query
    dense = discount_weights(group_queries(None, (2, 4)), discount, k, log_base)
    n_weighted = 4 if k is None else min(k, 4)
    np.testing.assert_allclose(dense, expected[:n_weighted], rtol=1e-15)


def test_log2_discount_matches_scikit_learn_expression():
    # scikit-learn's dcg: 1 / (log(r + 1) / log(2)), bit for bit
    expected = 1 / (np.log(np.arange(49) + 2) / np.log(2))
    weights = discount_weights(group_queries(None, (1, 49)), "log2", None)
    np.testing.assert_array_equal(weights, expected)


def test_callable_discount_sees_ranks_up_to_k():
    seen = []

    def record(rank):
        seen.append(rank.copy())
        return np.ones(rank.shape)

    discount_weights(LONG, record, 3)
    discount_weights(LONG, record, 100)
    np.testing.assert_array_equal(seen[0], [1, 2, 3])
    np.testing.assert_array_equal(seen[1], [1, 2, 3, 4])  # only positions that exist
