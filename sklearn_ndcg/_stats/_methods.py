"""The paired tests, one object per method: its test, its interval and its equivalence interval.

:func:`paired_test` looks its method up in :data:`METHODS` once; adding a test means adding
one object here.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._bootstrap import (
    _ELEMENTS_PER_BATCH,
    _RNG,
    _bootstrap,
    _bootstrap_distribution,
    _bootstrap_pvalue,
)
from ._strata import stratified_bootstrap


@dataclass(frozen=True)
class Differences:
    """The per-query differences ``a - b`` of one paired test, and what every method reads.

    Attributes
    ----------
    d : ndarray
        The differences, snapped: differences equal up to rounding are equal.
    weight : ndarray or None
        Query weights, None when uniform.
    labels : ndarray or None
        The stratum of each query, None without strata.
    mean : float
        The (weighted) mean difference.
    constant : bool
        Whether every difference is the same (up to rounding).
    tolerance : float
        The rounding tolerance of the values.
    names : tuple of str
        The two models' names, for messages.
    """

    d: np.ndarray
    weight: np.ndarray | None
    labels: np.ndarray | None
    mean: float
    constant: bool
    tolerance: float
    names: tuple[str, str]

    @property
    def n(self) -> int:
        """Number of queries."""
        return self.d.shape[0]


@dataclass(frozen=True)
class Resampling:
    """The settings of one paired test that its steps share."""

    confidence_level: float
    n_resamples: int
    alternative: str
    bootstrap_seed: int
    permutation_seed: int


def _mean_difference(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


def _effect_size(d: np.ndarray, weight: np.ndarray | None, mean: float) -> float:
    """Cohen's d_z; with weights, the weighted standard deviation (n - 1 in the denominator).

    ``d`` is snapped: differences equal up to rounding are equal.
    """
    if np.ptp(d) == 0:
        return 0.0 if mean == 0 else float(np.copysign(np.inf, mean))
    if weight is None:
        sd = np.std(d, ddof=1)
    else:
        sd = np.sqrt(np.average((d - mean) ** 2, weights=weight) * d.size / (d.size - 1))
    return float(mean / sd)


def _exact_sign_flip_pvalue(d: np.ndarray, alternative: str, tolerance: float) -> float:
    """p-value of the sign-flip randomization test by enumerating all ``2**n`` flips.

    Sums that are equal up to rounding count as equal (as extreme as the
    observed one), so that equal differences give the exact p-value.
    """
    n = d.shape[0]
    observed = d.sum()
    # rounding of a sum of n terms of size <= scale; tolerance is ~16 eps * scale
    slack = n * n * tolerance
    bits = 1 << np.arange(n, dtype=np.int64)
    batch = max(1, _ELEMENTS_PER_BATCH // n)
    count = 0
    for start in range(0, 2**n, batch):
        codes = np.arange(start, min(2**n, start + batch), dtype=np.int64)
        null = np.where(codes[:, None] & bits, -1.0, 1.0) @ d
        if alternative == "two-sided":
            extreme = np.abs(null) >= abs(observed) - slack
        elif alternative == "greater":
            extreme = null >= observed - slack
        else:
            extreme = null <= observed + slack
        count += int(np.count_nonzero(extreme))
    return count / 2**n


def _smallest_sign_flip_pvalue(n: int, alternative: str) -> float:
    """The smallest p-value the exact sign-flip distribution of n queries can give."""
    return (2.0 if alternative == "two-sided" else 1.0) / 2**n


class _BootstrapInterval:
    """The intervals of the resampling methods: the bootstrap of the mean difference.

    The confidence interval is the BCa interval (the percentile interval with strata),
    the equivalence interval the percentile interval of the same resamples.
    """

    takes_weights = False

    def interval(self, x: Differences, settings: Resampling):
        """``((low, high), bootstrap result)`` of the mean difference."""
        if x.labels is not None:
            boot = stratified_bootstrap(
                x.d,
                x.weight,
                x.labels,
                confidence_level=settings.confidence_level,
                n_resamples=settings.n_resamples,
                method="percentile",
                seed=settings.bootstrap_seed,
            )
        else:
            boot = _bootstrap(
                x.d,
                x.weight,
                confidence_level=settings.confidence_level,
                n_resamples=settings.n_resamples,
                method="BCa",
                seed=settings.bootstrap_seed,
            )
        return boot.confidence_interval, boot

    def equivalence_interval(
        self, x: Differences, boot, alpha: float, settings: Resampling
    ) -> tuple[float, float]:
        """The ``1 - 2 alpha`` percentile interval of the bootstrap distribution."""
        distribution = _bootstrap_distribution(
            boot, x.d, x.weight, settings.n_resamples, settings.bootstrap_seed
        )
        low, high = np.quantile(distribution, [alpha, 1 - alpha])
        return float(low), float(high)


class Randomization(_BootstrapInterval):
    """Fisher's randomization test: the sign of each query's difference flipped."""

    def test(self, x: Differences, boot, settings: Resampling) -> tuple[float, float]:
        """``(statistic, pvalue)``; exact when the flips are no more than the resamples."""
        if 2**x.n <= settings.n_resamples:  # exact: every sign flip once
            return x.mean, _exact_sign_flip_pvalue(x.d, settings.alternative, x.tolerance)
        result = stats.permutation_test(
            (x.d, np.zeros_like(x.d)),
            _mean_difference,
            permutation_type="samples",
            vectorized=True,
            n_resamples=settings.n_resamples,
            batch=max(1, _ELEMENTS_PER_BATCH // x.n),
            alternative=settings.alternative,
            **{_RNG: np.random.default_rng(settings.permutation_seed)},
        )
        return result.statistic, result.pvalue


class Wilcoxon(_BootstrapInterval):
    """Wilcoxon's signed-rank test."""

    def test(self, x: Differences, boot, settings: Resampling) -> tuple[float, float]:
        """``(statistic, pvalue)`` of :func:`scipy.stats.wilcoxon`."""
        return stats.wilcoxon(x.d, alternative=settings.alternative)[:2]


class BootstrapTest(_BootstrapInterval):
    """The bootstrap distribution of the mean difference, shifted to mean 0."""

    takes_weights = True

    def test(self, x: Differences, boot, settings: Resampling) -> tuple[float, float]:
        """``(statistic, pvalue)``, the p-value floored at the exact randomization test's."""
        null = (
            _bootstrap_distribution(
                boot, x.d, x.weight, settings.n_resamples, settings.bootstrap_seed
            )
            - x.mean
        )
        pvalue = _bootstrap_pvalue(null, x.mean, settings.alternative)
        floor = _smallest_sign_flip_pvalue(x.n, settings.alternative)
        if pvalue < floor:
            a, b, n = *x.names, x.n
            warnings.warn(
                f"the bootstrap test of {a} and {b} gave p={pvalue:.3g} on "
                f"{n} queries, below {floor:.3g}, the smallest p-value that the exact "
                f"randomization test of {n} queries can give: resampling {n} queries "
                "cannot carry more evidence than that. The p-value is raised to "
                f"{floor:.3g}; use method='randomization' on few queries.",
                UserWarning,
                stacklevel=4,
            )
            pvalue = floor
        return x.mean, pvalue


class StudentT:
    """Student's paired t-test, with Student's t intervals."""

    takes_weights = False

    def interval(self, x: Differences, settings: Resampling):
        """``((low, high), None)``: Student's t interval of the mean difference."""
        sd = 0.0 if x.constant else np.std(x.d, ddof=1)
        half = stats.t.ppf((1 + settings.confidence_level) / 2, x.n - 1) * sd / np.sqrt(x.n)
        return (x.mean - half, x.mean + half), None

    def test(self, x: Differences, boot, settings: Resampling) -> tuple[float, float]:
        """``(statistic, pvalue)``; without variance, the exact sign-flip p-value."""
        if not x.constant:
            return stats.ttest_1samp(x.d, 0.0, alternative=settings.alternative)[:2]
        # no variance: undefined; only the observed signs (and, two-sided, all
        # flipped) are as extreme
        alternative, mean, n = settings.alternative, x.mean, x.n
        against = (alternative == "greater" and mean < 0) or (alternative == "less" and mean > 0)
        pvalue = 1.0 if against else _smallest_sign_flip_pvalue(n, alternative)
        warnings.warn(
            f"the differences between {x.names[0]} and {x.names[1]} are the same on every "
            f"query (up to rounding): the t-test is undefined without variance; the "
            f"p-value is that of the exact randomization test, {pvalue:.3g} on {n} queries.",
            UserWarning,
            stacklevel=4,
        )
        return float(np.copysign(np.inf, mean)), pvalue

    def equivalence_interval(
        self, x: Differences, boot, alpha: float, settings: Resampling
    ) -> tuple[float, float]:
        """The ``1 - 2 alpha`` Student's t interval of the mean difference."""
        sd = np.std(x.d, ddof=1) if np.ptp(x.d) > 0 else 0.0
        half = stats.t.ppf(1 - alpha, x.n - 1) * sd / np.sqrt(x.n)
        return float(x.mean - half), float(x.mean + half)


METHODS = {
    "randomization": Randomization(),
    "t": StudentT(),
    "wilcoxon": Wilcoxon(),
    "bootstrap": BootstrapTest(),
}
PAIRED_METHODS = tuple(METHODS)
