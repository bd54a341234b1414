"""paired_test with a margin (TOST verdicts), and no verdict the data cannot carry (issue 23).

References: statsmodels' ``ttost_paired`` and ``DescrStatsW.tconfint_mean`` (the two
one-sided tests and their interval), exact enumeration of the 2**n sign flips written
here, and hand computation.
"""

import itertools
import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_ndcg import compare_models, paired_test
from sklearn_ndcg._stats._methods import FULL_TOST_QUERIES

# below MIN_INTERVAL_QUERIES queries paired_test reports no interval, with this warning
# (tested in test_paired_calibration.py); these tests are about the rest of the result
pytestmark = pytest.mark.filterwarnings(
    "ignore:too few queries. no confidence interval:UserWarning"
)


ALPHA = 0.05


def _enumerated_pvalue(d, alternative="two-sided"):
    """Exact sign-flip p-value by listing every flip; sums compared in exact fractions.

    The differences are rationals with denominator 100 (they are built that way), so
    rounding them to integers of hundredths makes the enumeration exact.
    """
    cents = np.rint(np.asarray(d) * 100).astype(int)
    observed = cents.sum()
    null = [np.dot(signs, cents) for signs in itertools.product([1, -1], repeat=len(cents))]
    if alternative == "two-sided":
        hits = sum(abs(s) >= abs(observed) for s in null)
    elif alternative == "greater":
        hits = sum(s >= observed for s in null)
    else:
        hits = sum(s <= observed for s in null)
    return hits / len(null)


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("margin", [0.005, 0.02, 0.05])
@pytest.mark.parametrize("n", [40, FULL_TOST_QUERIES - 1, FULL_TOST_QUERIES])
def test_equivalence_is_statsmodels_ttost_paired(seed, margin, n):
    sm = pytest.importorskip("statsmodels.stats.weightstats", reason="needs statsmodels (test)")
    rng = np.random.default_rng(seed)
    b = rng.uniform(0.3, 0.9, n)
    a = b + rng.normal(rng.uniform(-0.02, 0.02), 0.03 * np.sqrt(n / 40), n)
    result = paired_test(a, b, method="t", margin=margin)
    # statsmodels: equivalence when the larger of the two one-sided p-values is below the
    # level of each one-sided test: alpha from FULL_TOST_QUERIES queries on, alpha / 2
    # below (issue 34: the 1 - 2 alpha TOST is liberal there on heavy-tailed differences)
    level = ALPHA if n >= FULL_TOST_QUERIES else ALPHA / 2
    tost_p = sm.ttost_paired(a, b, -margin, margin)[0]
    assert (result.verdict == "equivalent") == (tost_p < level)
    low, high = sm.DescrStatsW(a - b).tconfint_mean(alpha=2 * level)
    np.testing.assert_allclose(result.equivalence_interval, (low, high), rtol=1e-12)


def test_verdicts_on_hand_made_differences():
    base = np.linspace(0.3, 0.9, 30)
    wiggle = np.tile([0.01, -0.01], 15)
    cases = {
        # mean 0.1 >> margin: shown better, never equivalent
        "better": base + 0.1 + wiggle,
        "worse": base - 0.1 + wiggle,
        # mean 0, spread 0.01: the 90 % t interval is +-0.0031, inside +-0.02
        "equivalent": base + wiggle,
        # 3 of 30 queries differ by +-0.2: neither shown different nor within 0.02
        "inconclusive": base + np.r_[0.2, -0.2, 0.2, np.zeros(27)],
    }
    for expected, a in cases.items():
        assert paired_test(a, base, method="t", margin=0.02).verdict == expected, expected
        assert paired_test(a, base, method="t").verdict is None


@pytest.mark.parametrize("method", ["randomization", "wilcoxon", "bootstrap"])
def test_equivalence_interval_of_resampling_methods_is_the_t_interval(method):
    # every method's TOST is on Student's t interval (issue 34): on 50 queries, below
    # FULL_TOST_QUERIES, the 1 - alpha one; by hand: mean +- t quantile * sd / sqrt(n)
    rng = np.random.default_rng(0)
    b = rng.uniform(0.3, 0.9, 50)
    a = b + rng.normal(0.0, 0.01, 50)
    result = paired_test(a, b, method=method, margin=0.01, random_state=0)
    d = a - b
    half = stats.t.ppf(1 - ALPHA / 2, 49) * d.std(ddof=1) / np.sqrt(50)
    expected = (d.mean() - half, d.mean() + half)
    np.testing.assert_allclose(result.equivalence_interval, expected, rtol=1e-12)
    assert result.verdict == "equivalent"


def test_margin_needs_a_two_sided_test():
    with pytest.raises(ValueError, match="margin=0.01 needs alternative='two-sided'"):
        paired_test([0.1, 0.2, 0.3], [0.2, 0.2, 0.2], margin=0.01, alternative="less")
    with pytest.raises(ValueError, match="'margin' parameter"):
        paired_test([0.1, 0.2, 0.3], [0.2, 0.2, 0.2], margin=0.0)


# --- no verdict the data cannot carry ---------------------------------------------------


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_exact_randomization_is_exact_when_differences_are_equal_up_to_rounding(alternative):
    # the case: differences equal in exact arithmetic (0.1 each, or -0.1), but
    # a - b rounds differently, so a tolerance-free comparison miscounts the flips
    a = np.array([0.8, 0.7, 0.3, 0.9, 0.6, 0.4, 0.2, 0.5, 1.0, 0.7, 0.4])
    d = np.array([0.1, 0.1, -0.1, 0.1, 0.1, 0.1, -0.1, 0.1, 0.1, -0.1, 0.1])
    b = a - d
    assert np.ptp(np.abs(a - b)) > 0  # equal only up to rounding
    got = paired_test(a, b, alternative=alternative).pvalue
    assert got == _enumerated_pvalue(d, alternative)


@pytest.mark.parametrize("seed", range(5))
def test_exact_randomization_equals_enumeration_on_random_small_cases(seed):
    rng = np.random.default_rng(seed)
    d = rng.integers(-5, 6, size=10) / 100  # many equal magnitudes: ties in the null
    b = rng.uniform(0.2, 0.8, 10)
    a = b + d
    assert paired_test(a, b).pvalue == _enumerated_pvalue(d)


def test_bootstrap_on_two_queries_is_floored_and_warns():
    # the case: 2 queries gave p = 0.0001; exact sign flips give 0.5 (below 40
    # queries the bootstrap test gives way to the randomization test, issue 34)
    with pytest.warns(UserWarning, match=r"too few queries: the bootstrap test .*\(2 here\)"):
        result = paired_test([0.9, 0.8], [0.5, 0.3], method="bootstrap", random_state=0)
    assert result.pvalue == 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.filterwarnings("ignore", "too few queries: no confidence interval")
        assert paired_test([0.9, 0.8], [0.5, 0.3]).pvalue == 0.5  # exact: 2 of 4 flips


def test_compare_models_bootstrap_on_three_queries_is_not_significant():
    scores = {"a": [0.9, 0.8, 0.85], "b": [0.5, 0.3, 0.4], "c": [0.6, 0.5, 0.55]}
    with pytest.warns(UserWarning, match="too few queries: the bootstrap test"):
        comparison = compare_models(scores, method="bootstrap", random_state=0)
    table = comparison.to_dict()
    # 3 queries: the smallest two-sided sign-flip p-value is 2 / 8; Holm over 2: 0.5
    assert table["pvalue"][1:] == [0.25, 0.25]
    assert comparison.not_shown_different == ["a", "b", "c"] or set(
        comparison.not_shown_different
    ) == {"a", "b", "c"}


@pytest.mark.parametrize("shift", [0.1, -0.3])
def test_constant_differences_up_to_rounding(shift):
    a = np.array([0.7, 0.3, 0.9])
    b = a - shift  # a - b == shift up to rounding
    assert np.ptp(a - b) > 0
    # effect size: documented as infinite for equal non-zero differences
    result = paired_test(a, b)
    assert result.effect_size == np.copysign(np.inf, shift)
    assert result.pvalue == 0.25  # exact: 2 of the 8 sign flips are as extreme
    with pytest.warns(UserWarning, match="t-test is undefined"):
        t = paired_test(a, b, method="t")
    assert t.pvalue == 0.25  # not 1e-31
    assert t.effect_size == np.copysign(np.inf, shift)
    with pytest.warns(UserWarning, match="t-test is undefined"):
        one_sided = paired_test(a, b, method="t", alternative="greater").pvalue
    assert one_sided == (0.125 if shift > 0 else 1.0)  # 1 of 8 flips, or all of them
    assert paired_test(a, b, method="wilcoxon").pvalue == 0.25  # scipy's exact, no warning


def test_zero_differences_up_to_rounding_are_zero():
    a = np.array([0.1 + 0.2, 0.7, 0.4])
    b = np.array([0.3, 0.7, 0.4])
    assert (a - b).any()  # 0.1 + 0.2 != 0.3 in floating point
    for method in ("randomization", "t", "wilcoxon", "bootstrap"):
        result = paired_test(a, b, method=method, random_state=0)
        assert (result.pvalue, result.effect_size, result.mean_difference) == (1.0, 0.0, 0.0)


def test_renamed_outputs_warn():
    scores = {"a": [0.9, 0.8, 0.7, 0.6], "b": [0.5, 0.45, 0.3, 0.1]}
    comparison = compare_models(scores, method="t")
    with pytest.warns(FutureWarning, match="not_shown_different"):
        assert comparison.tied == comparison.not_shown_different
    with pytest.warns(FutureWarning, match="'tied_with_reference' is now"):
        old = comparison.to_dict()["tied_with_reference"]
    assert old == comparison.to_dict()["not_shown_different"]
