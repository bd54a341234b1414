"""paired_test and bootstrap_ci (and the result types) against scipy, enumeration and by hand."""

import warnings

import numpy as np
import pytest
from _stats_data import pair as _pair
from _stats_data import scores as _scores
from numpy.testing import assert_equal

from sklearn_ndcg._stats._bootstrap import bootstrap_ci
from sklearn_ndcg._stats._compare import compare_models
from sklearn_ndcg._stats._paired import PairedTestResult, paired_test

# below MIN_INTERVAL_QUERIES queries paired_test reports no interval, with this warning
# (tested in test_paired_calibration.py); these tests are about the rest of the result
pytestmark = pytest.mark.filterwarnings(
    "ignore:too few queries. no confidence interval:UserWarning"
)


ALTERNATIVES = ["two-sided", "greater", "less"]


# --- randomization -----------------------------------------------------------


# --- t and wilcoxon ------------------------------------------------------------


@pytest.mark.parametrize("method", ["randomization", "t", "wilcoxon", "bootstrap"])
def test_all_differences_zero(method):
    # the two models agree on every query: nothing to tell them apart (and no warning
    # from MIN_INTERVAL_QUERIES queries on; below, no interval: the warning says why)
    a = np.tile([0.5, 1.0, 0.25, 0.0, 0.75], 6)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = paired_test(a, a.copy(), method=method, random_state=0)
    assert (result.statistic, result.pvalue) == (0.0, 1.0)
    assert result.mean_difference == 0.0
    assert result.effect_size == 0.0
    assert result.confidence_interval == (0.0, 0.0)
    with pytest.warns(UserWarning, match="too few queries: no confidence interval"):
        result = paired_test(a[:5], a[:5].copy(), method=method, random_state=0)
    assert (result.statistic, result.pvalue, result.effect_size) == (0.0, 1.0, 0.0)
    assert np.isnan(result.confidence_interval).all()


@pytest.mark.parametrize("shift, expected", [(0.25, np.inf), (-0.25, -np.inf)])
def test_effect_size_of_equal_differences_is_infinite(shift, expected):
    # hand computation: standard deviation 0, mean not 0 (exact in binary)
    b = np.array([0.5, 0.25, 0.0, 0.5])
    result = paired_test(b + shift, b, random_state=0)
    assert result.effect_size == expected
    assert np.isnan(result.confidence_interval).all()  # 4 queries: no interval
    b = np.tile(b, 8)  # 32 queries: the zero-width t interval
    result = paired_test(b + shift, b, random_state=0)
    assert result.effect_size == expected
    assert result.confidence_interval == pytest.approx((shift, shift))


# --- bootstrap -------------------------------------------------------------------


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


# --- query ids, NaN ----------------------------------------------------------------


# --- multiple comparisons ---------------------------------------------------------


@pytest.mark.filterwarnings("ignore:too few queries:UserWarning")  # bootstrap: < 40 queries
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
