"""required_queries and detectable_difference at every edge (issue 34, problem 6).

References: the power in mpmath (``tests/_power_reference.py``) for a few plans, and
brute force over the grid with the package's power (itself checked against mpmath in
``test_power.py``): the answer n reaches the power asked, n - 1 does not.
"""

import numpy as np
import pytest
from _power_reference import t_test_power as reference_power

from sklearn_ndcg import detectable_difference, required_queries
from sklearn_ndcg._stats._power import t_test_power

pytest.importorskip("mpmath", reason="needs mpmath (test)")

# a pilot of 12 queries; its differences have standard deviation SD
B = np.linspace(0.3, 0.8, 12)
A = B + np.array([0.05, -0.02, 0.03, 0.0, 0.07, -0.04, 0.02, 0.01, 0.06, -0.01, 0.03, 0.04])
SD = float(np.std(A - B, ddof=1))


def _plan(effect, power, alpha):
    return required_queries(A, B, delta=effect * SD, power=power, confidence_level=1 - alpha)


@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.05, 0.2, 0.3])
@pytest.mark.parametrize("effect", [0.1, 0.5, 1.2, 3.0, 8.0, 20.0])
def test_required_queries_is_the_smallest_n(effect, alpha):
    upper = 1 - alpha / 2
    for power in (0.01, 0.1, 0.5, 0.8, 0.95, 0.999):
        n = _plan(effect, power, alpha)
        assert isinstance(n, int) and n >= 2
        assert t_test_power(n, effect, upper) >= power - 1e-12, (n, power)
        if n > 2:
            assert t_test_power(n - 1, effect, upper) < power, (n, power)
        if power <= alpha:  # the test has that power with no difference at all
            assert n == 2


@pytest.mark.parametrize(
    "effect, power, alpha",
    [
        (8.0, 0.8, 0.001),  # scipy's noncentral t gives NaN: too few queries before
        (20.0, 0.999, 0.01),
        (3.0, 0.99, 0.001),
        (0.5, 0.8, 0.2),  # alpha 0.2: the search started above the answer
        (0.3, 0.1, 0.2),  # power below alpha: 2 queries
    ],
)
def test_required_queries_against_mpmath(effect, power, alpha):
    n = _plan(effect, power, alpha)
    assert reference_power(n, effect, alpha) >= power
    if n > 2:
        assert reference_power(n - 1, effect, alpha) < power


@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.05, 0.3])
@pytest.mark.parametrize("n_queries", [2, 3, 10, 40])
def test_detectable_difference_never_stops_in_the_solver(n_queries, alpha):
    previous = 0.0
    for power in (0.2, 0.5, 0.8, 0.99, 0.999):
        delta = detectable_difference(
            A, B, n_queries=n_queries, power=power, confidence_level=1 - alpha
        )
        if power <= alpha:
            assert delta == 0.0
            continue
        reached = t_test_power(n_queries, delta / SD, 1 - alpha / 2)
        assert reached == pytest.approx(power, abs=1e-9)
        assert delta > previous  # monotone in the power asked
        previous = delta


def test_detectable_difference_where_scipy_stopped():
    # the setting of the issue: 10 queries at alpha 0.01 ended in "solver cannot continue"
    delta = detectable_difference(A, B, n_queries=10, confidence_level=0.99)
    assert reference_power(10, delta / SD, 0.01) == pytest.approx(0.8, abs=1e-9)
    assert required_queries(A, B, delta=delta * (1 + 1e-9), confidence_level=0.99) == 10


def test_detectable_difference_below_the_level_is_zero():
    # power 0.03 at level 0.05: the test rejects that often when nothing differs
    assert detectable_difference(A, B, n_queries=10, power=0.03) == 0.0
    assert required_queries(A, B, delta=0.01, power=0.03) == 2
