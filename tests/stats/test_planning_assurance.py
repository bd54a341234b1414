"""Planning with the pilot's uncertainty: ``assurance=`` (issue 34, problem 6).

Reference: simulation. Pilots of 10 queries with normal per-query differences of
known standard deviation; each plan's true power is the exact power at the true
standard deviation. The chi-square bound at level 0.8 covers the true standard
deviation in 80 % of pilots (the plan then has at least the power asked), and the
pilot's own standard deviation is below the true one in about 56 % of pilots
(P(chi2(9) < 9)), where the plan falls short.
"""

import numpy as np
import pytest
from scipy import stats

from sklearn_ndcg import detectable_difference, required_queries
from sklearn_ndcg._stats._power import t_test_power

SIGMA, DELTA, POWER, PILOT = 0.05, 0.02, 0.8, 10


def _share_reaching_the_power(assurance, n_pilots=300, seed=0):
    rng = np.random.default_rng(seed)
    reached = []
    for _ in range(n_pilots):
        b = rng.uniform(0.3, 0.7, PILOT)
        a = b + rng.normal(DELTA, SIGMA, PILOT)
        n = required_queries(a, b, delta=DELTA, power=POWER, assurance=assurance)
        reached.append(t_test_power(n, DELTA / SIGMA, 0.975) >= POWER)
    return float(np.mean(reached))


def test_assurance_reaches_the_power_in_that_share_of_pilots():
    plain = _share_reaching_the_power(None)
    assured = _share_reaching_the_power(0.8)
    # Monte Carlo error of a share of 300 pilots: about 0.025 (seed 0: 0.437 and 0.797)
    assert 0.35 <= plain <= 0.6
    assert assured >= 0.75


def test_assurance_is_the_chi_square_upper_bound_of_the_pilot():
    rng = np.random.default_rng(1)
    b = rng.uniform(0.3, 0.7, PILOT)
    a = b + rng.normal(DELTA, SIGMA, PILOT)
    sd = np.std(a - b, ddof=1)
    # hand computation: the 90 % upper bound of sigma from 9 degrees of freedom
    bound = sd * np.sqrt((PILOT - 1) / stats.chi2.ppf(0.1, PILOT - 1))
    assert required_queries(a, b, delta=DELTA, assurance=0.9) == required_queries(
        a, b * 0 + a - (a - b) * bound / sd, delta=DELTA
    )
    np.testing.assert_allclose(
        detectable_difference(a, b, n_queries=60, assurance=0.9),
        detectable_difference(a, b, n_queries=60) * bound / sd,
        rtol=1e-12,
    )


def test_assurance_default_changes_nothing_and_grows_with_the_level():
    rng = np.random.default_rng(2)
    b = rng.uniform(0.3, 0.7, 25)
    a = b + rng.normal(DELTA, SIGMA, 25)
    plans = [required_queries(a, b, delta=DELTA, assurance=s) for s in (0.5, 0.8, 0.95)]
    assert required_queries(a, b, delta=DELTA, assurance=None) == required_queries(
        a, b, delta=DELTA
    )
    assert plans == sorted(plans) and plans[0] < plans[-1]


@pytest.mark.parametrize("assurance", [0, 1, 1.5, "high"])
def test_assurance_outside_zero_one_is_refused(assurance):
    with pytest.raises((ValueError, TypeError), match="'assurance' parameter"):
        required_queries([0.1, 0.3, 0.2], [0.2, 0.1, 0.2], delta=0.01, assurance=assurance)
    with pytest.raises((ValueError, TypeError), match="'assurance' parameter"):
        detectable_difference([0.1, 0.3, 0.2], [0.2, 0.1, 0.2], n_queries=9, assurance=assurance)
