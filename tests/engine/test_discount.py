"""Tests of rank -> discount weight in _discount.py."""

import numpy as np
import pytest

from sklearn_ndcg._engine._discount import discount_weights

RANKS = np.arange(1, 5)


@pytest.mark.parametrize(
    "discount, k, log_base, expected",
    [
        # hand: 1 / log2(r + 1)
        ("log2", None, None, [1, 1 / np.log2(3), 1 / 2, 1 / np.log2(5)]),
        ("log2", 2, None, [1, 1 / np.log2(3)]),
        ("log2", 1, None, [1]),
        # hand: 1 / log10(r + 1)
        ("log2", None, 10, [1 / np.log10(r + 1) for r in RANKS]),
        ("reciprocal", None, None, [1, 1 / 2, 1 / 3, 1 / 4]),
        ("reciprocal", 3, None, [1, 1 / 2, 1 / 3]),
        ("none", None, None, [1, 1, 1, 1]),
        ("none", 100, None, [1, 1, 1, 1]),  # only ranks that exist
        (lambda r: 1.0 / r**2, None, None, [1, 1 / 4, 1 / 9, 1 / 16]),
        (lambda r: 1.0 / r**2, 2, None, [1, 1 / 4]),
    ],
)
def test_discount_weights(discount, k, log_base, expected):
    # the longest query has 4 documents
    result = discount_weights(discount, 4, k, log_base)
    np.testing.assert_allclose(result, expected, rtol=1e-15)


def test_log2_discount_matches_scikit_learn_expression():
    # scikit-learn's dcg: 1 / (log(r + 1) / log(2)), bit for bit
    expected = 1 / (np.log(np.arange(49) + 2) / np.log(2))
    np.testing.assert_array_equal(discount_weights("log2", 49, None), expected)


def test_callable_discount_sees_ranks_up_to_k():
    seen = []

    def record(rank):
        seen.append(rank.copy())
        return np.ones(rank.shape)

    discount_weights(record, 4, 3)
    discount_weights(record, 4, 100)
    np.testing.assert_array_equal(seen[0], [1, 2, 3])
    np.testing.assert_array_equal(seen[1], [1, 2, 3, 4])  # only positions that exist


def test_increasing_callable_discount_is_refused():
    with pytest.raises(ValueError, match="must not increase with rank"):
        discount_weights(lambda r: np.where(r == 3, 2.0, 1.0 / r), 4, None)


def test_named_tables_are_kept_read_only_and_per_parameters():
    """The tables of named discounts are computed once per (discount, ranks, base),
    shared read-only, and equal a fresh computation (hand: 1 / log_b(r + 1))."""
    first = discount_weights("log2", 30, 10)
    assert discount_weights("log2", 40, 10) is first  # the same 10 ranks
    assert not first.flags.writeable
    with pytest.raises(ValueError):
        first[0] = 2.0
    np.testing.assert_allclose(first, 1 / np.log2(np.arange(2, 12)), rtol=1e-15)
    base10 = discount_weights("log2", 30, 10, log_base=10)
    np.testing.assert_allclose(base10, 1 / np.log10(np.arange(2, 12)), rtol=1e-15)
    np.testing.assert_array_equal(discount_weights("reciprocal", 3, None), [1, 1 / 2, 1 / 3])
    long = discount_weights("log2", 5000, None)  # beyond the kept sizes: a fresh table
    assert long.flags.writeable
    np.testing.assert_allclose(long[:10], first, rtol=1e-15)
