"""The paired tests of the method table, each against scipy, enumeration or by hand."""

import itertools

import numpy as np
import pytest
from _stats_data import WILCOXON_AS_SCIPY
from _stats_data import pair as _pair
from numpy.testing import assert_allclose
from scipy import stats

from sklearn_ndcg._stats._methods import MIN_INTERVAL_QUERIES
from sklearn_ndcg._stats._paired import paired_test

# below MIN_INTERVAL_QUERIES queries paired_test reports no interval, with this warning
# (tested in test_paired_calibration.py); these tests are about the rest of the result
pytestmark = pytest.mark.filterwarnings(
    "ignore:too few queries. no confidence interval:UserWarning"
)


ALTERNATIVES = ["two-sided", "greater", "less"]


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("seed, n", [(0, 3), (1, 5), (2, 8), (3, 10), (4, 10)])
def test_randomization_equals_enumeration_of_sign_flips(seed, n, alternative):
    a, b = _pair(seed, n, shift=3)
    d = a - b
    # exact enumeration: every one of the 2**n sign flips of the differences
    flips = np.array(list(itertools.product([1, -1], repeat=n)))
    null = (flips * d).mean(axis=1)
    observed = d.mean()
    tol = 1e-9  # differences lie on a grid of 0.01 / n: far apart or equal
    expected = {
        "two-sided": np.mean(np.abs(null) >= abs(observed) - tol),
        "greater": np.mean(null >= observed - tol),
        "less": np.mean(null <= observed + tol),
    }[alternative]
    result = paired_test(a, b, alternative=alternative, random_state=0)
    assert result.method == "randomization"
    assert result.pvalue == pytest.approx(expected, rel=1e-12)
    assert result.statistic == pytest.approx(observed)
    assert result.n_queries == n


def test_randomization_samples_when_flips_outnumber_resamples():
    # 2**12 = 4096 sign flips > 999 resamples: a Monte Carlo estimate of the exact p-value
    a, b = _pair(5, 12, shift=2)
    d = a - b
    flips = np.array(list(itertools.product([1, -1], repeat=12)))
    exact = np.mean(np.abs((flips * d).mean(axis=1)) >= abs(d.mean()) - 1e-9)
    result = paired_test(a, b, n_resamples=999, random_state=0)
    # scipy counts the observed statistic as one resample: (k + 1) / (999 + 1)
    tolerance = 4 * np.sqrt(exact * (1 - exact) / 999) + 1 / 1000
    assert abs(result.pvalue - exact) < tolerance
    assert 0 < result.pvalue != exact


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("confidence_level", [0.9, 0.95])
@pytest.mark.parametrize("seed, n", [(0, 6), (1, 30)])
def test_t_equals_scipy_ttest_rel(seed, n, alternative, confidence_level):
    a, b = _pair(seed, n)
    result = paired_test(
        a, b, method="t", alternative=alternative, confidence_level=confidence_level
    )
    reference = stats.ttest_rel(a, b, alternative=alternative)
    assert result.statistic == pytest.approx(reference[0], rel=1e-12)
    assert result.pvalue == pytest.approx(reference[1], rel=1e-12)
    # the two-sided t interval: mean +- t quantile * sd / sqrt(n)
    d = a - b
    half = stats.t.ppf(1 - (1 - confidence_level) / 2, n - 1) * d.std(ddof=1) / np.sqrt(n)
    if n >= MIN_INTERVAL_QUERIES:
        expected = (d.mean() - half, d.mean() + half)
        assert_allclose(result.confidence_interval, expected, rtol=1e-12)
    else:  # too few queries for an interval (issue 34)
        assert np.isnan(result.confidence_interval).all()
    # Cohen's d_z by hand
    assert result.effect_size == pytest.approx(d.mean() / d.std(ddof=1))


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("seed, n", [(0, 7), (1, 25), (2, 60)])
@WILCOXON_AS_SCIPY
def test_wilcoxon_equals_scipy(seed, n, alternative):
    a, b = _pair(seed, n)
    result = paired_test(a, b, method="wilcoxon", alternative=alternative, random_state=0)
    reference = stats.wilcoxon(a, b, alternative=alternative)
    assert result.statistic == reference[0]
    assert result.pvalue == pytest.approx(reference[1], rel=1e-12)


@pytest.mark.filterwarnings("ignore:Exact p-value calculation:UserWarning")  # scipy < 1.13
def test_wilcoxon_with_zero_differences_equals_scipy():
    a, b = _pair(3, 30)
    a[::4] = b[::4]  # the models agree on some queries, as they often do on NDCG
    result = paired_test(a, b, method="wilcoxon", random_state=0)
    reference = stats.wilcoxon(a, b)
    assert (result.statistic, result.pvalue) == pytest.approx(tuple(reference[:2]), rel=1e-12)


def test_bootstrap_test_pvalues():
    # a clear improvement on 40 queries: every resampled mean difference is positive
    a, b = _pair(1, 40, shift=30)
    d = a - b
    assert (d > 0).mean() > 0.9
    results = {
        alternative: paired_test(a, b, method="bootstrap", alternative=alternative, random_state=0)
        for alternative in ALTERNATIVES
    }
    assert 0 < results["two-sided"].pvalue < 0.01  # (count + 1) / (B + 1): never 0
    assert results["greater"].pvalue < 0.01
    assert results["less"].pvalue > 0.99
    assert results["two-sided"].mean_difference == pytest.approx(d.mean())
    low, high = results["two-sided"].confidence_interval
    assert 0 < low < d.mean() < high
    # no difference on average (a mirror image): p-value far from 0
    c = np.concatenate([d, -d])
    assert paired_test(c, np.zeros_like(c), method="bootstrap", random_state=0).pvalue > 0.5
