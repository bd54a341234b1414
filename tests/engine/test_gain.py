"""Tests of relevance -> gain in _gain.py."""

import numpy as np
import pytest

from sklearn_ndcg import dcg_score, ndcg_score
from sklearn_ndcg._engine._gain import compute_gain

LABELS = np.array([0.0, 1.0, 2.0, 3.0, 1.0])


@pytest.mark.parametrize(
    "gain, expected",
    [
        ("linear", [0, 1, 2, 3, 1]),
        ("exponential", [0, 1, 3, 7, 1]),  # hand: 2**rel - 1
        ({0: -1.0, 1: 0.0, 2: 1.0, 3: 10.0}, [-1, 0, 1, 10, 0]),
        ({3.0: 1.0, 2: 2.0, 1: 3.0, 0: 4.0, 9: 0.0}, [4, 3, 2, 1, 3]),  # unsorted, unused key
        ([0.0, 2.0, 1.0, 5.0], [0, 2, 1, 5, 2]),  # LightGBM's label_gain
        ((0, 1, 3, 7, 15), [0, 1, 3, 7, 1]),
        (np.array([10.0, 20.0, 30.0, 40.0]), [10, 20, 30, 40, 20]),
        (lambda rel: (rel - 1.5) ** 2, [2.25, 0.25, 0.25, 2.25, 0.25]),
        (lambda rel: [7.0] * len(rel), [7, 7, 7, 7, 7]),
    ],
)
def test_compute_gain(gain, expected):
    labels = LABELS.copy()
    result = compute_gain(labels, gain)
    assert result.dtype == np.float64
    np.testing.assert_array_equal(result, expected)
    np.testing.assert_array_equal(labels, LABELS)  # not modified
    assert result is not labels or gain == "linear"  # linear: the labels themselves


def test_exponential_gain_largest_finite_label():
    result = compute_gain(np.array([1023.0]), "exponential")
    assert result[0] == 2.0**1023 - 1  # hand: still finite in float64


def test_exponential_gain_fractional_labels():
    result = compute_gain(np.array([0.5, 2.5]), "exponential")
    np.testing.assert_allclose(result, [np.sqrt(2) - 1, 4 * np.sqrt(2) - 1], rtol=1e-15)


@pytest.mark.parametrize(
    "labels, gain, match",
    [
        ([-1.0], "linear", "negative relevance labels"),
        ([-0.5], "exponential", "negative relevance labels"),
        ([1024.0], "exponential", "overflows"),
        ([4.0], {1: 1.0}, r"no entry for the relevance labels \[4\]"),
        ([1.5], [0, 1, 2], "non-negative integers"),
        ([3.0], [0, 1, 2], "has 3 entries"),
    ],
)
def test_compute_gain_errors(labels, gain, match):
    with pytest.raises(ValueError, match=match):
        compute_gain(np.array(labels), gain)


def test_missing_labels_listed_and_counted():
    labels = np.arange(20.0)
    with pytest.raises(ValueError, match=r"\[0, 1, .*, 9 and 10 more\]"):
        compute_gain(labels, {100: 1.0})


def test_missing_labels_all_listed_up_to_ten():
    """Ten missing labels are all listed, with no "and 0 more" (mutation testing)."""
    with pytest.raises(ValueError, match=r"labels \[0, 1, 2, 3, 4, 5, 6, 7, 8, 9\]; the"):
        compute_gain(np.arange(10.0), {100: 1.0})


def test_negative_labels_accepted_by_mapping_and_callable():
    """Only the built-in gains reject negative labels."""
    y_true, y_score = [[1, 0, -1]], [[3, 2, 1]]
    ndcg_score(y_true, y_score, gain={1: 1.0, 0: 0.0, -1: -1.0})
    ndcg_score(y_true, y_score, gain=lambda r: r)
    dcg_score(y_true, y_score, gain=lambda r: r + 1)
