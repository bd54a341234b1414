"""paired_test and bootstrap_ci (and the result types) against scipy, enumeration and by hand."""

import itertools

import numpy as np
import pytest
from _stats_data import scores as _scores
from numpy.testing import assert_allclose, assert_equal
from scipy import stats

from sklearn_ndcg._stats._compare import compare_models
from sklearn_ndcg._stats._paired import BootstrapResult, PairedTestResult, bootstrap_ci, paired_test

ALTERNATIVES = ["two-sided", "greater", "less"]


def _pair(seed, n, shift=5):
    """Two models' per-query NDCG on a grid of 0.01; ``a - b`` is never 0.

    The differences are ``shift`` hundredths on average, with a spread of 10.
    """
    rng = np.random.default_rng(seed)
    b = rng.integers(0, 80, size=n)
    d = rng.integers(1, 20, size=n) * rng.choice([-1, 1], size=n) + shift
    d[d == 0] = 1
    return (b + d) / 100, b / 100


# --- randomization -----------------------------------------------------------


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


# --- t and wilcoxon ------------------------------------------------------------


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
    assert_allclose(result.confidence_interval, (d.mean() - half, d.mean() + half), rtol=1e-12)
    # Cohen's d_z by hand
    assert result.effect_size == pytest.approx(d.mean() / d.std(ddof=1))


@pytest.mark.parametrize("alternative", ALTERNATIVES)
@pytest.mark.parametrize("seed, n", [(0, 7), (1, 25), (2, 60)])
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


@pytest.mark.parametrize("method", ["randomization", "t", "wilcoxon", "bootstrap"])
def test_all_differences_zero(method):
    # the two models agree on every query: nothing to tell them apart (and no warning)
    a = np.array([0.5, 1.0, 0.25, 0.0, 0.75])
    result = paired_test(a, a.copy(), method=method, random_state=0)
    assert (result.statistic, result.pvalue) == (0.0, 1.0)
    assert result.mean_difference == 0.0
    assert result.effect_size == 0.0
    assert result.confidence_interval == (0.0, 0.0)


@pytest.mark.parametrize("shift, expected", [(0.25, np.inf), (-0.25, -np.inf)])
def test_effect_size_of_equal_differences_is_infinite(shift, expected):
    # hand computation: standard deviation 0, mean not 0 (exact in binary)
    b = np.array([0.5, 0.25, 0.0, 0.5])
    result = paired_test(b + shift, b, random_state=0)
    assert result.effect_size == expected
    assert result.confidence_interval == pytest.approx((shift, shift))  # percentile fallback


# --- bootstrap -------------------------------------------------------------------


@pytest.mark.slow
def test_bootstrap_ci_coverage():
    # 400 samples of 200 queries from Beta(0.5, 2): skewed, in [0, 1], mean 0.5 / 2.5 = 0.2
    rng = np.random.default_rng(20240601)
    samples = rng.beta(0.5, 2.0, size=(400, 200))
    covered = [
        low <= 0.2 <= high
        for low, high in (
            bootstrap_ci(sample, n_resamples=999, random_state=i).confidence_interval
            for i, sample in enumerate(samples)
        )
    ]
    coverage = np.mean(covered)
    print(f"\n95% BCa coverage over {len(covered)} samples of 200: {coverage:.4f}")
    # binomial: sd sqrt(0.95 * 0.05 / 400) = 0.011, so +-0.03 is about 2.75 sd
    assert 0.92 <= coverage <= 0.98


def test_bootstrap_ci_values():
    values = np.array([0.2, 0.9, np.nan, 0.4, 1.0, 0.7, 0.0, 0.55])
    result = bootstrap_ci(values, random_state=0)
    kept = values[~np.isnan(values)]
    assert isinstance(result, BootstrapResult)
    assert result.mean == pytest.approx(kept.mean())
    assert result.n_queries == 7
    low, high = result.confidence_interval
    assert low < result.mean < high
    # theory: the bootstrap standard error of a mean estimates the plug-in
    # sd (ddof=0) / sqrt(n), within Monte Carlo error of 9999 resamples
    assert result.standard_error == pytest.approx(kept.std() / np.sqrt(7), rel=0.05)
    # normal theory: a 95% interval spans about 2 * 1.96 standard errors (loosely:
    # 7 values, and BCa is not symmetric)
    assert high - low == pytest.approx(2 * 1.96 * result.standard_error, rel=0.3)


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_bootstrap_ci_methods_and_constant_values(method):
    # all values equal: every interval is the value itself (BCa falls back to percentile)
    result = bootstrap_ci([0.5, 0.5, 0.5, 0.5], method=method, random_state=0)
    assert result.mean == 0.5
    assert result.confidence_interval == pytest.approx((0.5, 0.5))


def test_weighted_bootstrap_mean_equals_np_average():
    rng = np.random.default_rng(0)
    score = rng.uniform(size=30)
    weight = rng.uniform(0.5, 3, size=30)
    score[3] = np.nan
    result = bootstrap_ci(_scores(score, np.arange(30), weight), random_state=0)
    keep = ~np.isnan(score)
    assert result.mean == pytest.approx(np.average(score[keep], weights=weight[keep]))
    assert result.n_queries == 29
    low, high = result.confidence_interval
    assert low < result.mean < high

    other = rng.uniform(size=30)
    test = paired_test(
        _scores(score, np.arange(30), weight),
        _scores(other, np.arange(30), weight),
        method="bootstrap",
        random_state=0,
    )
    d = (score - other)[keep]
    assert test.mean_difference == pytest.approx(np.average(d, weights=weight[keep]))
    assert test.statistic == test.mean_difference
    assert test.n_queries == 29


@pytest.mark.parametrize("method", ["randomization", "t", "wilcoxon"])
def test_non_uniform_weights_need_the_bootstrap(method):
    a, b = _pair(0, 10)
    weight = np.arange(1.0, 11.0)
    with pytest.raises(ValueError, match=f"method='{method}' does not take query weights"):
        paired_test(
            _scores(a, np.arange(10), weight), _scores(b, np.arange(10), weight), method=method
        )
    # equal weights are no weights
    uniform = np.full(10, 2.0)
    assert paired_test(
        _scores(a, np.arange(10), uniform),
        _scores(b, np.arange(10), uniform),
        method=method,
        random_state=0,
    ) == paired_test(a, b, method=method, random_state=0)


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


# --- query ids, NaN ----------------------------------------------------------------


@pytest.mark.parametrize("method", ["randomization", "t", "wilcoxon", "bootstrap"])
def test_query_scores_are_aligned_by_qid(method):
    a, b = _pair(3, 12)
    qid = np.arange(100, 112)
    by_position = paired_test(a, b, method=method, random_state=0)
    order = np.random.default_rng(0).permutation(12)
    shuffled = paired_test(
        _scores(a, qid), _scores(b[order], qid[order]), method=method, random_state=0
    )
    assert shuffled == by_position


def test_query_scores_with_different_ids_raise():
    a, b = _pair(0, 4)
    with pytest.raises(ValueError, match=r"in only one of them: \[3, 9\]"):
        paired_test(_scores(a, [0, 1, 2, 3]), _scores(b, [0, 1, 2, 9]))
    with pytest.raises(ValueError, match="weigh some queries differently"):
        paired_test(_scores(a, [0, 1, 2, 3]), _scores(b, [0, 1, 2, 3], [1, 1, 1, 2]))
    with pytest.raises(ValueError, match="query ids more than once"):
        paired_test(_scores(a, [0, 1, 1, 3]), _scores(b, [0, 1, 1, 3]))
    with pytest.raises(TypeError, match="both be QueryScores"):
        paired_test(_scores(a, [0, 1, 2, 3]), b)


@pytest.mark.parametrize("method", ["randomization", "t", "wilcoxon", "bootstrap"])
def test_nan_pairs_are_dropped(method):
    a, b = _pair(4, 10)
    expected = paired_test(a[2:], b[2:], method=method, random_state=0)
    a_nan, b_nan = a.copy(), b.copy()
    a_nan[0], b_nan[1] = np.nan, np.nan
    result = paired_test(a_nan, b_nan, method=method, random_state=0)
    assert result == expected
    assert result.n_queries == 8


# --- multiple comparisons ---------------------------------------------------------


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
def test_random_state(method):
    a, b = _pair(6, 30, shift=1)  # 2**30 sign flips: a sampled p-value
    first = paired_test(a, b, method=method, n_resamples=199, random_state=3)
    assert paired_test(a, b, method=method, n_resamples=199, random_state=3) == first
    other = paired_test(a, b, method=method, n_resamples=199, random_state=4)
    assert (other.pvalue, other.confidence_interval) != (first.pvalue, first.confidence_interval)
    generator = paired_test(
        a, b, method=method, n_resamples=199, random_state=np.random.default_rng(3)
    )
    assert generator == first
    assert bootstrap_ci(a, n_resamples=199, random_state=3) == bootstrap_ci(
        a, n_resamples=199, random_state=3
    )
    scores = {"a": a, "b": b, "c": (a + b) / 2}
    assert_equal(
        compare_models(scores, method=method, n_resamples=199, random_state=3).to_dict(),
        compare_models(scores, method=method, n_resamples=199, random_state=3).to_dict(),
    )


def test_result_types():
    a, b = _pair(0, 6)
    result = paired_test(a, b, random_state=0)
    assert isinstance(result, PairedTestResult)
    assert repr(result).startswith("PairedTestResult(method='randomization', statistic=")
    assert all(
        isinstance(x, float) for x in (result.statistic, result.pvalue, *result.confidence_interval)
    )
    assert isinstance(result.n_queries, int)


# --- bad input ------------------------------------------------------------------------

A, B = [0.5, 0.7, 0.2, 0.9], [0.4, 0.6, 0.3, 0.5]


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: paired_test(A, B, method="sign"), ValueError, "'method' parameter"),
        (lambda: paired_test(A, B, confidence_level=1.5), ValueError, "'confidence_level'"),
        (lambda: paired_test(A, B, confidence_level=0), ValueError, "'confidence_level'"),
        (lambda: paired_test(A, B, alternative="bigger"), ValueError, "'alternative'"),
        (lambda: paired_test(A, B, n_resamples=0), ValueError, "'n_resamples'"),
        (lambda: paired_test(A, B, random_state="x"), ValueError, "'random_state'"),
        (lambda: paired_test(A, B[:3]), ValueError, "a has 4 queries but b has 3"),
        (lambda: paired_test([A], [B]), ValueError, r"a must be 1-D.*\(1, 4\)"),
        (lambda: paired_test(A, [np.inf, 1, 1, 1]), ValueError, "infinite"),
        (
            lambda: paired_test([0.5, np.nan, 1], [np.nan, 0.2, 1]),
            ValueError,
            "1 queries where both values are defined",
        ),
        (lambda: bootstrap_ci(A, method="bca"), ValueError, "'method' parameter"),
        (lambda: bootstrap_ci(A, confidence_level=-0.1), ValueError, "'confidence_level'"),
        (lambda: bootstrap_ci([np.nan, 1.0]), ValueError, "values has 1 queries that are not NaN"),
        (lambda: bootstrap_ci([np.inf, 1.0]), ValueError, "values must not hold infinite"),
        (lambda: compare_models({"a": A}), ValueError, "holds 1 model"),
        (lambda: compare_models([A, B]), ValueError, "'scores' parameter"),
        (
            lambda: compare_models({"a": A, "b": B}, baseline="c"),
            ValueError,
            r"baseline='c' is not a model in scores; the models are \['a', 'b'\]",
        ),
        (lambda: compare_models({"a": A, "b": B}, correction="sidak"), ValueError, "'correction'"),
        (lambda: compare_models({"a": A, "b": B}, method="z"), ValueError, "'method'"),
        (
            lambda: compare_models({"a": A, "b": B[:3]}),
            ValueError,
            r"scores\['b'\] has 3 queries but scores\['a'\] has 4",
        ),
        (
            lambda: compare_models({"a": A, "b": [np.nan] * 4}),
            ValueError,
            r"scores\['b'\] has 0 queries that are not NaN",
        ),
    ],
)
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()
