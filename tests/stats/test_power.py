"""The exact power of the paired t-test and its inverses (issue 34, problem 6).

Reference: ``tests/_power_reference.py``, the power in 30-digit mpmath by another
integral of the noncentral t. The tolerance is 1e-10 absolute: the package's adaptive
quadrature is asked for 1e-14 absolute and 1e-13 relative, and meets the reference to
about 1e-15 on this grid (worst seen 4e-16); 1e-10 leaves room for scipy's special
functions on other platforms while still telling any wrong branch apart (a
wrong tail or a lost term moves the power by far more). scipy's ``nct`` is no
reference here: it gives NaN on a part of this grid (large effects on few queries).
"""

import numpy as np
import pytest
from _power_reference import t_test_power as reference_power
from scipy import stats

from sklearn_ndcg._stats._power import (
    sd_upper_bound,
    smallest_effect,
    smallest_n_queries,
    t_test_power,
)

mp = pytest.importorskip("mpmath", reason="needs mpmath (test)")

TOLERANCE = 1e-10
EFFECTS = [0.01, 0.2, 1.0, 3.0, 20.0]
N_QUERIES = [2, 3, 10, 100, 5000]
ALPHAS = [0.001, 0.05, 0.3]


# every effect with every number of queries, the levels in turn (mpmath takes ~0.1 s a value)
GRID = [
    (n, effect, ALPHAS[(i + j) % len(ALPHAS)])
    for i, n in enumerate(N_QUERIES)
    for j, effect in enumerate(EFFECTS)
]


@pytest.mark.parametrize("n, effect, alpha", GRID)
def test_power_is_the_mpmath_reference(n, effect, alpha):
    got = t_test_power(n, effect, 1 - alpha / 2)
    assert abs(got - reference_power(n, effect, alpha)) < TOLERANCE


# cases where scipy's noncentral t gives NaN (scipy 1.17): large effects on few queries
@pytest.mark.parametrize(
    "n, effect, alpha", [(2, 8.0, 0.05), (2, 20.0, 0.001), (3, 5.0, 0.001), (2, 12.0, 0.01)]
)
def test_power_holds_where_scipy_gives_nan(n, effect, alpha):
    got = t_test_power(n, effect, 1 - alpha / 2)
    assert np.isfinite(got)
    assert abs(got - reference_power(n, effect, alpha)) < TOLERANCE


@pytest.mark.parametrize("alpha", [0.001, 0.05, 0.3])
@pytest.mark.parametrize("n", [2, 7, 1000])
def test_power_without_an_effect_is_the_level(n, alpha):
    # hand computation: with no effect the test rejects with probability alpha
    assert t_test_power(n, 0.0, 1 - alpha / 2) == pytest.approx(alpha, abs=1e-13)


def test_power_grows_with_the_effect_and_the_number_of_queries():
    upper = 1 - 0.01 / 2
    by_effect = [t_test_power(10, e, upper) for e in np.linspace(0, 30, 61)]
    by_n = [t_test_power(n, 0.3, upper) for n in range(2, 200, 7)]
    assert np.all(np.diff(by_effect) >= -1e-15) and np.all(np.diff(by_n) > 0)
    assert by_effect[-1] == pytest.approx(1.0, abs=1e-6)


POWERS = [0.01, 0.3, 0.8, 0.999]


@pytest.mark.parametrize("alpha", [0.001, 0.05, 0.2, 0.3])
@pytest.mark.parametrize("effect", [0.05, 0.4, 1.5, 6.0, 20.0])
def test_smallest_n_queries_by_brute_force(effect, alpha):
    upper = 1 - alpha / 2
    for power in POWERS:
        n = smallest_n_queries(effect, power, upper, 10**7)
        assert n >= 2
        assert t_test_power(n, effect, upper) >= power
        if n > 2:
            assert t_test_power(n - 1, effect, upper) < power
        if power <= alpha:  # the test reaches that power with no effect: the fewest queries
            assert n == 2


@pytest.mark.parametrize(
    "effect, power, alpha",
    [
        (0.4, 0.8, 0.2),
        (1.5, 0.999, 0.001),
        (6.0, 0.8, 0.001),
        (20.0, 0.999, 0.001),
        (0.3, 0.5, 0.3),
    ],
)
def test_smallest_n_queries_against_mpmath(effect, power, alpha):
    n = smallest_n_queries(effect, power, 1 - alpha / 2, 10**7)
    assert reference_power(n, effect, alpha) >= power - TOLERANCE
    if n > 2:
        assert reference_power(n - 1, effect, alpha) < power


def test_smallest_n_queries_beyond_the_largest_is_none():
    assert smallest_n_queries(1e-3, 0.8, 0.975, 1000) is None
    assert smallest_n_queries(1e-3, 0.8, 0.975, 10**7) == pytest.approx(7.85e6, rel=0.01)


@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.05, 0.3])
@pytest.mark.parametrize("n", [2, 10, 300])
def test_smallest_effect_reaches_the_power_exactly(n, alpha):
    upper = 1 - alpha / 2
    previous = 0.0
    for power in POWERS:
        effect = smallest_effect(n, power, upper)
        if power <= alpha:
            assert effect == 0.0
            continue
        assert t_test_power(n, effect, upper) == pytest.approx(power, abs=1e-10)
        assert effect > previous  # monotone in the power asked
        previous = effect
    if n == 10 and alpha == 0.01:  # the reference at one of them
        effect = smallest_effect(n, 0.8, upper)
        assert reference_power(n, effect, alpha) == pytest.approx(0.8, abs=TOLERANCE)


def test_sd_upper_bound_is_the_chi_square_bound():
    rng = np.random.default_rng(0)
    # hand computation: (m - 1) s^2 / sigma^2 ~ chi2(m - 1); bound at level 0.8
    assert sd_upper_bound(2.0, 10, 0.8) == pytest.approx(2.0 * np.sqrt(9 / stats.chi2.ppf(0.2, 9)))
    # and it covers the true standard deviation in 80 % of normal samples of 10
    sd = np.std(rng.normal(0, 1, (20000, 10)), axis=1, ddof=1)
    covered = np.mean(sd * sd_upper_bound(1.0, 10, 0.8) >= 1.0)
    assert covered == pytest.approx(0.8, abs=0.01)
