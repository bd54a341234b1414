"""Friedman's test and its post-hoc pairs (_stats/_friedman.py), against scipy's
friedmanchisquare, scikit-posthocs' posthoc_nemenyi_friedman, Demsar's (2006) table of
critical values and Holm's procedure written out by hand."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_equal
from scipy import stats

from sklearn_ndcg._stats._friedman import (
    average_ranks,
    critical_difference,
    friedman,
    posthoc_pvalues,
)


def _matrices():
    rng = np.random.default_rng(0)
    yield rng.uniform(size=(5, 3))
    yield rng.uniform(size=(30, 12)) + np.linspace(0, 0.3, 12)
    yield rng.integers(0, 4, size=(8, 6)).astype(float)  # many ties within datasets
    yield np.array([[0.5, 0.5, 0.4], [0.7, 0.6, 0.6], [0.3, 0.2, 0.1], [0.9, 0.9, 0.9]])


@pytest.mark.parametrize("means", list(_matrices()))
def test_friedman_equals_scipy(means):
    # reference: scipy.stats.friedmanchisquare, one sample per model (ties corrected)
    expected = stats.friedmanchisquare(*means.T)
    result = friedman(means)
    assert_allclose(result.statistic, expected.statistic, rtol=1e-12)
    assert_allclose(result.pvalue, expected.pvalue, rtol=1e-12)


def test_friedman_every_dataset_tied_is_nan():
    result = friedman(np.ones((4, 3)))
    assert np.isnan(result.statistic) and np.isnan(result.pvalue)


def test_average_ranks_best_first_ties_averaged():
    # hand ranks: 1 = the highest mean; the two 0.5 share ranks 2 and 3
    assert_equal(average_ranks(np.array([[0.9, 0.5, 0.5, 0.1]])), [[1, 2.5, 2.5, 4]])


@pytest.mark.parametrize("means", list(_matrices()))
def test_nemenyi_equals_scikit_posthocs(means):
    sp = pytest.importorskip("scikit_posthocs")
    expected = sp.posthoc_nemenyi_friedman(means).to_numpy()
    assert_allclose(posthoc_pvalues(means, "nemenyi"), expected, rtol=1e-10, atol=1e-14)


def test_holm_by_hand():
    means = next(iter(_matrices()))
    n, k = means.shape
    ranks = np.array([stats.rankdata(-row) for row in means]).mean(axis=0)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    z = [abs(ranks[i] - ranks[j]) / np.sqrt(k * (k + 1) / (6 * n)) for i, j in pairs]
    raw = [2 * stats.norm.sf(v) for v in z]
    # Holm written out: the m-th smallest p times (pairs - m + 1), made monotone
    order = np.argsort(raw)
    adjusted, running = np.empty(len(raw)), 0.0
    for step, index in enumerate(order):
        running = max(running, min(1.0, raw[index] * (len(raw) - step)))
        adjusted[index] = running
    matrix = posthoc_pvalues(means, "holm")
    assert_allclose([matrix[i, j] for i, j in pairs], adjusted, rtol=1e-12)
    assert_equal(matrix, matrix.T)
    assert_equal(np.diag(matrix), 1.0)


@pytest.mark.parametrize(
    ("k", "q"),
    # Demsar (2006), Table 5(a): two-tailed Nemenyi critical values at alpha = 0.05
    [(2, 1.960), (3, 2.343), (4, 2.569), (5, 2.728), (10, 3.164)],
)
def test_critical_difference_demsar_table(k, q):
    n = 14
    expected = q * np.sqrt(k * (k + 1) / (6 * n))
    assert critical_difference(n, k, 0.05) == pytest.approx(expected, rel=5e-4)
