"""The arithmetic of PPI and PPI++ by hand (the comparison with ppi_py is in
test_ppi_reference.py)."""

import numpy as np
import pytest

from sklearn_ndcg._judgments._estimate import estimate_and_error, tuned_lambda

Y = np.array([0.8, 0.55, 0.5, 0.7])  # human values of the labelled queries
F = np.array([0.9, 0.7, 0.6, 0.75])  # model values of the same queries
G = np.array([0.8, 0.95, 0.85, 0.9])  # model values of the other queries


def test_classical_estimate_and_error_by_hand():
    # hand computation: mean(G) = 0.875; errors Y - F = -0.1, -0.15, -0.1, -0.05 (mean -0.1)
    estimate, error = estimate_and_error(Y, F, G, 1.0)
    assert estimate == pytest.approx(0.775, abs=1e-15)
    # variances over n: var(G) = 0.003125, var(Y - F) = 0.00125
    assert error == pytest.approx(np.sqrt(0.003125 / 4 + 0.00125 / 4), abs=1e-15)


def test_lambda_zero_is_the_human_mean():
    estimate, error = estimate_and_error(Y, F, G, 0.0)
    assert estimate == pytest.approx(Y.mean(), abs=1e-15)
    assert error == pytest.approx(Y.std() / 2, abs=1e-15)  # sqrt(var_n(Y) / 4)


def test_tuned_lambda_by_hand():
    # hand computation: cov_n(Y, F) = 0.049375 / 4; sample variance of the 8 model values
    # 0.0971875 / 7; n / N = 1
    expected = (0.049375 / 4) / (2 * 0.0971875 / 7)
    assert tuned_lambda(Y, F, G) == pytest.approx(expected, rel=1e-13)


@pytest.mark.parametrize(
    "f, expected",
    [
        (1 - Y, 0.0),  # negative covariance: clipped to 0
        (np.full(4, 0.5), 0.0),  # constant model values: no information, 0 (not NaN)
        (0.1 * Y, 1.0),  # cov / var = 10 / (1 + n / N) before the clip: clipped to 1
    ],
)
def test_tuned_lambda_is_clipped(f, expected):
    g = f.mean() + np.zeros(3) if np.ptp(f) == 0 else 0.1 * np.array([0.6, 0.65, 0.7])
    assert tuned_lambda(Y, f, g) == expected


def test_constant_model_values_leave_the_human_mean():
    # 0.5 is exact in binary: the variance is exactly 0 (0 / 0 without the guard)
    f, g = np.full(4, 0.5), np.full(5, 0.5)
    lam = tuned_lambda(Y, f, g)
    assert lam == 0.0
    estimate, _ = estimate_and_error(Y, f, g, lam)
    assert estimate == pytest.approx(Y.mean(), abs=1e-15)
