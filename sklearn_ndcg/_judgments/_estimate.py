"""The arithmetic of prediction-powered inference for a mean (PPI and PPI++).

``y``: human-labelled values of the labelled queries; ``yhat``: the model-labelled values
of the same queries; ``yhat_unlabelled``: the model-labelled values of the other queries.
The formulas are those of ``ppi_py.ppi_mean_ci`` (Angelopoulos, Duchi & Zrnic 2023),
unweighted: variances with ``n`` (not ``n - 1``) in the standard error, the sample
variance (``n - 1``) of all the model's values in the power-tuning weight, the weight
clipped to [0, 1], and normal quantiles.
"""

from __future__ import annotations

import numpy as np


def tuned_lambda(y: np.ndarray, yhat: np.ndarray, yhat_unlabelled: np.ndarray) -> float:
    """PPI++'s weight of the model's values, which minimises the estimate's variance.

    ``cov(y, yhat) / ((1 + n / N) var(yhat and yhat_unlabelled))``, clipped to [0, 1];
    0 when the model's values are all equal (they then carry no information).
    """
    n, big_n = y.shape[0], yhat_unlabelled.shape[0]
    covariance = np.mean((y - y.mean()) * (yhat - yhat.mean()))
    variance = np.var(np.concatenate([yhat, yhat_unlabelled]), ddof=1)
    if variance == 0:
        return 0.0
    return float(np.clip(covariance / ((1 + n / big_n) * variance), 0.0, 1.0))


def estimate_and_error(
    y: np.ndarray, yhat: np.ndarray, yhat_unlabelled: np.ndarray, lam: float
) -> tuple[float, float]:
    """The prediction-powered estimate of the mean and its standard error.

    ``lam * mean(yhat_unlabelled) + mean(y - lam * yhat)``: the model's mean on the
    unlabelled queries, corrected by the mean of its errors on the labelled ones (the
    rectifier). The two parts are independent, so their variances add.
    """
    imputed = lam * yhat_unlabelled
    rectifier = y - lam * yhat
    estimate = float(imputed.mean() + rectifier.mean())
    variance = imputed.var() / imputed.shape[0] + rectifier.var() / rectifier.shape[0]
    return estimate, float(np.sqrt(variance))
