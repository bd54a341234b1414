"""bootstrap_ci and the bootstrap of a mean over queries, against scipy and np.average."""

import numpy as np
import pytest
from _stats_data import scores as _scores

from sklearn_ndcg._stats import _bootstrap
from sklearn_ndcg._stats._bootstrap import BootstrapResult, bootstrap_ci
from sklearn_ndcg._stats._paired import paired_test

# below MIN_INTERVAL_QUERIES queries paired_test reports no interval, with this warning
# (tested in test_paired_calibration.py); these tests are about the rest of the result
pytestmark = pytest.mark.filterwarnings(
    "ignore:too few queries. no confidence interval:UserWarning",
    # 25 to 39 queries: the interval may cover less (tested in test_bootstrap_warns_below_40)
    "ignore:too few queries. the bootstrap interval .* may cover less:UserWarning",
)


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
    # 28 queries that are not NaN: enough for the bootstrap (below 25, the t interval)
    values = np.tile([0.2, 0.9, np.nan, 0.4, 1.0, 0.7, 0.0, 0.55], 4)
    result = bootstrap_ci(values, random_state=0)
    kept = values[~np.isnan(values)]
    assert isinstance(result, BootstrapResult)
    assert result.mean == pytest.approx(kept.mean())
    assert result.n_queries == 28
    low, high = result.confidence_interval
    assert low < result.mean < high
    # theory: the bootstrap standard error of a mean estimates the plug-in
    # sd (ddof=0) / sqrt(n), within Monte Carlo error of 9999 resamples
    assert result.standard_error == pytest.approx(kept.std() / np.sqrt(28), rel=0.05)
    # normal theory: a 95% interval spans about 2 * 1.96 standard errors (loosely:
    # 28 values, and BCa is not symmetric)
    assert high - low == pytest.approx(2 * 1.96 * result.standard_error, rel=0.3)


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_bootstrap_ci_methods_and_constant_values(method):
    # all values equal: every interval is the value itself (BCa falls back to percentile)
    result = bootstrap_ci([0.5] * 25, method=method, random_state=0)
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
    with pytest.warns(UserWarning, match="too few queries: the bootstrap test"):
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


@pytest.mark.parametrize("n", [2, 3, 4])
def test_no_interval_of_the_mean_below_five_queries(n):
    # Student's t interval covers 0.928 at 3 light-tailed queries (bench_calibration.py)
    values = np.linspace(0.2, 0.9, n)
    with pytest.warns(UserWarning, match=f"too few queries: no confidence interval .* on {n} "):
        result = bootstrap_ci(values, random_state=0)
    assert np.isnan(result.confidence_interval).all()
    assert result.mean == pytest.approx(values.mean(), rel=1e-15)
    assert result.n_queries == n


def test_from_five_queries_the_interval_is_students_t():
    from scipy import stats

    values = np.array([0.2, 0.35, 0.5, 0.8, 0.9])
    with pytest.warns(UserWarning, match="too few queries: the bootstrap interval"):
        result = bootstrap_ci(values, random_state=0)
    # the reference: scipy's t interval of the mean
    expected = stats.t.interval(0.95, 4, loc=values.mean(), scale=stats.sem(values))
    np.testing.assert_allclose(result.confidence_interval, expected, rtol=1e-12)


def test_the_t_interval_prints_as_plain_numbers():
    """Issue 50: below 25 queries the interval printed as (np.float64(...), ...)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = bootstrap_ci(np.linspace(0.2, 0.9, 12))
    assert all(type(bound) is float for bound in result.confidence_interval)
    assert "np.float64" not in repr(result)


@pytest.mark.filterwarnings("error")
def test_bootstrap_warns_below_40_queries_as_the_switch_table_says():
    """benchmarks/bench_bootstrap_switch.py (RESULTS.md, issue 50): on skewed and
    left-tailed per-query NDCG, 95 % BCa covers 0.919-0.928 at 25-30 queries and at least
    0.935 from 40 on, and covers at least as much as Student's t from 20 to 200 on all
    four populations; so t below 25, BCa from 25, and a warning below 40."""
    assert _bootstrap.MIN_BOOTSTRAP_QUERIES == 25
    assert _bootstrap.MIN_COVERING_QUERIES == 40
    values = np.random.default_rng(0).beta(0.6, 2.5, 40)
    bootstrap_ci(values, n_resamples=99, random_state=0)  # 40 queries: silent
    for n, match in (
        (39, r"may cover less than its level below 40 queries \(39 here\)"),
        (24, r"below 25 queries \(24 here\); the interval is Student's t"),
    ):
        with pytest.warns(UserWarning, match=match) as caught:
            bootstrap_ci(values[:n], n_resamples=99, random_state=0)
        assert len(caught) == 1 and "Score 40 or more queries" in str(caught[0].message)
