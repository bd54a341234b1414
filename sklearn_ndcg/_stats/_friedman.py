"""Friedman's test on the ranks of models within datasets, and its post-hoc tests of every
pair: Nemenyi's (the studentized range) and Holm's (normal z on the average ranks).

Demšar (2006) ranks the models within each dataset (1 = best, ties as average ranks),
tests with Friedman's chi-square that the average ranks differ, and compares the pairs by
the difference of their average ranks over ``sqrt(k (k + 1) / (6 N))``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._corrections import _adjust

POSTHOC_METHODS = ("nemenyi", "holm")


@dataclass(frozen=True)
class FriedmanResult:
    """Friedman's test that the models' average ranks over the datasets differ.

    Attributes
    ----------
    statistic : float
        Friedman's chi-square, corrected for ties as
        :func:`scipy.stats.friedmanchisquare` does.
    pvalue : float
        Its p-value, from the chi-square distribution with ``k - 1`` degrees of
        freedom (``k`` models).
    """

    statistic: float
    pvalue: float


def average_ranks(means: np.ndarray) -> np.ndarray:
    """Each model's rank in each dataset (rows), 1 = highest mean, ties as average ranks."""
    return stats.rankdata(-means, axis=1, method="average")


def friedman(means: np.ndarray) -> FriedmanResult:
    """Friedman's chi-square of a (datasets x models) matrix, with the tie correction."""
    n, k = means.shape
    ranks = average_ranks(means)
    # each tie group of t models in a dataset adds t (t^2 - 1) to the correction
    ties = 0.0
    for row in ranks:  # one row per dataset: a few dozen at most
        _, counts = np.unique(row, return_counts=True)
        ties += float(np.sum(counts * (counts**2 - 1.0)))
    correction = 1.0 - ties / (k * (k * k - 1.0) * n)
    if correction <= 0:  # every dataset ties every model: no ranking to test
        return FriedmanResult(float("nan"), float("nan"))
    sums = ranks.sum(axis=0)
    statistic = (12.0 / (k * n * (k + 1.0)) * np.sum(sums**2) - 3.0 * n * (k + 1.0)) / correction
    return FriedmanResult(float(statistic), float(stats.chi2.sf(statistic, k - 1)))


def rank_standard_error(n_datasets: int, n_models: int) -> float:
    """Standard error of the difference of two average ranks: sqrt(k (k + 1) / (6 N))."""
    return float(np.sqrt(n_models * (n_models + 1.0) / (6.0 * n_datasets)))


def posthoc_pvalues(means: np.ndarray, method: str) -> np.ndarray:
    """The (models x models) p-values of every pair, 1 on the diagonal.

    - "nemenyi": ``P(Q > sqrt(2) |R_i - R_j| / se)`` for the studentized range Q of ``k``
      means with infinite degrees of freedom, as scikit-posthocs'
      ``posthoc_nemenyi_friedman`` computes it.
    - "holm": the two-sided normal p-value of ``|R_i - R_j| / se``, adjusted by Holm's
      step-down over the ``k (k - 1) / 2`` pairs (Demšar 2006, section 3.2.2).
    """
    n, k = means.shape
    mean_ranks = average_ranks(means).mean(axis=0)
    upper = np.triu_indices(k, 1)
    z = np.abs(mean_ranks[upper[0]] - mean_ranks[upper[1]]) / rank_standard_error(n, k)
    if method == "nemenyi":
        pvalues = stats.studentized_range.sf(z * np.sqrt(2.0), k, np.inf)
    else:
        pvalues = _adjust(2.0 * stats.norm.sf(z), "holm")
    matrix = np.ones((k, k))
    matrix[upper] = pvalues
    matrix.T[upper] = pvalues
    return matrix


def critical_difference(n_datasets: int, n_models: int, alpha: float) -> float:
    """Nemenyi's critical difference of average ranks: ``q_alpha * se`` with ``q_alpha`` the
    studentized range's ``1 - alpha`` quantile over sqrt(2) (Demšar 2006, eq. 4)."""
    q = stats.studentized_range.ppf(1.0 - alpha, n_models, np.inf) / np.sqrt(2.0)
    return float(q * rank_standard_error(n_datasets, n_models))
