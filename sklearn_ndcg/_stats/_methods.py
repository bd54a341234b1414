"""The paired tests, one object per method: its test, its interval and its equivalence interval.

:func:`paired_test` looks its method up in :data:`METHODS` once; adding a test means adding
one object here. Every method reports Student's t intervals (the bootstrap intervals miss
their level on few queries), from :data:`MIN_INTERVAL_QUERIES` queries on (below, none);
where a procedure cannot hold its level on the queries given, it falls back, with a
warning that starts "too few queries".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._warn import warn
from . import _batch
from ._bootstrap import _bootstrap_distribution, _bootstrap_pvalue
from ._strata import stratified_bootstrap


def _stratified_percentile(x, settings):
    """The percentile bootstrap of the stratified differences ``x`` (its interval, and
    its resamples for the bootstrap test)."""
    return stratified_bootstrap(
        x.d,
        x.weight,
        x.labels,
        confidence_level=settings.confidence_level,
        n_resamples=settings.n_resamples,
        method="percentile",
        seed=settings.bootstrap_seed,
    )


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


def _smallest_sign_flip_pvalue(n: int, alternative: str) -> float:
    """The smallest p-value the exact sign-flip distribution of n queries can give."""
    return float(np.ldexp(2.0 if alternative == "two-sided" else 1.0, -n))  # no overflow


# Below these numbers of queries a procedure misses its level on realistic per-query NDCG
# (benchmarks/bench_calibration.py; RESULTS.md has the table):
# - the bootstrap test rejects a true null 0.09 of the time at 10 queries and 0.066 at 25
#   (0.054 at 50, Urbano et al. 2019 found the same);
# - the 95 % t interval of heavy-tailed differences (skew 1.3, excess kurtosis 23, a few
#   queries where the models differ a lot) covers a difference of 0.03 0.68 of the time at
#   3 queries, 0.87 at 10, 0.928 at 25, 0.935 at 30 and 0.942 at 40 (20,000 replicates):
#   most small samples miss the rare large differences, and no interval computed from the
#   queries can see them;
# - the TOST says "equivalent" of a difference on the margin, with the same differences,
#   0.15 of the time at 10 queries and 0.09 at 20 (below 30: no "equivalent"); with the
#   1 - 2 alpha interval, 0.078 at 30, 0.071 at 50, 0.067 at 100, 0.065 at 150 and 0.060-0.063
#   from 250 on; with the 1 - alpha interval 0.050 at 30 and 0.035-0.045 at 50-200.
MIN_BOOTSTRAP_TEST_QUERIES = 40
MIN_INTERVAL_QUERIES = 30
MIN_EQUIVALENCE_QUERIES = 30
FULL_TOST_QUERIES = 250


def few_queries_warning(message: str) -> None:
    """The warning of a procedure that cannot hold its level on so few queries."""
    warn(f"too few queries: {message}", UserWarning)


def t_interval(x: Differences, level: float) -> tuple[float, float]:
    """Student's t interval of the (weighted) mean difference at two-sided ``level``.

    With weights the standard error is the weighted one (the sandwich of the weighted
    mean, ``n / (n - 1)`` corrected); constant differences give a zero-width interval.
    """
    weight = x.weight
    ((low, high),) = _batch.t_intervals(
        x.d[None], weight, np.array([x.mean]), np.array([x.constant]), level
    )
    return float(low), float(high)


class _Method:
    """What every method shares: Student's t intervals, from enough queries.

    The bootstrap intervals the resampling methods gave before cover 0.76-0.85 at 5
    queries and 0.85-0.89 at 10 when many queries are tied; the t interval covers
    0.94-0.95 from 5 queries on light-tailed differences, but only 0.68-0.93 below
    :data:`MIN_INTERVAL_QUERIES` on heavy-tailed ones: there no interval is reported.
    With strata, the stratified percentile interval.
    """

    takes_weights = False
    # each method's own, defined with it: the test of one pair of models, and of many
    # pairs at once (their rows, weights, means and settings -> statistics, p-values)
    test: Callable[[Differences, Resampling], tuple[float, float]]
    batch_test: ClassVar[Callable[..., tuple[np.ndarray, np.ndarray]]]

    def interval(self, x: Differences, settings: Resampling) -> tuple[float, float]:
        """The two-sided ``confidence_level`` interval of the mean difference.

        ``(nan, nan)`` below :data:`MIN_INTERVAL_QUERIES` queries, with a warning.
        """
        if x.n < MIN_INTERVAL_QUERIES:
            few_queries_warning(
                f"no confidence interval of {x.names[0]} - {x.names[1]} on {x.n} queries "
                f"(below {MIN_INTERVAL_QUERIES}): an interval computed from so few queries "
                "cannot see the rare queries where two models differ a lot, and covers the "
                "true difference less often than its level when they exist; the interval "
                "is (nan, nan). The p-value and the verdicts 'better' and 'worse' come from "
                "the test, which holds its level."
            )
            return np.nan, np.nan
        if x.labels is not None:
            boot = _stratified_percentile(x, settings)
            low, high = boot.confidence_interval
            return float(low), float(high)
        return t_interval(x, settings.confidence_level)

    def equivalence_interval(
        self, x: Differences, alpha: float, margin: float
    ) -> tuple[float, float]:
        """The Student's t interval of the mean difference that the TOST compares with
        ``(-margin, margin)``: ``1 - 2 alpha`` from :data:`FULL_TOST_QUERIES` queries
        on, ``1 - alpha`` below (each one-sided test at ``alpha / 2``).

        Below :data:`MIN_EQUIVALENCE_QUERIES` queries an interval inside the margin
        becomes ``(-inf, inf)``, with a warning: too few queries to show a difference
        within a margin.
        """
        low, high = t_interval(x, tost_level(x.n, alpha))
        if x.n < MIN_EQUIVALENCE_QUERIES and -margin < low and high < margin:
            few_queries_warning(
                f"{x.n} queries cannot show {x.names[0]} and {x.names[1]} equivalent: the "
                "two one-sided tests say 'equivalent' of a difference on the margin more "
                f"often than alpha below {MIN_EQUIVALENCE_QUERIES} queries when the "
                "differences are heavy-tailed (as between near-identical models); the "
                "equivalence interval is (-inf, inf) and the verdict cannot be 'equivalent'."
            )
            return -np.inf, np.inf
        return low, high

    def batch(self, rows, weight, settings: Resampling, margin, equivalence_alpha):
        """:func:`_batch.paired_batch` of this method: every row's test, interval and
        verdict in one pass, as :func:`paired_test` gives each (warnings aside)."""
        d, n = rows.d, rows.d.shape[1]
        mean = np.mean(d, axis=1) if weight is None else np.average(d, axis=1, weights=weight)
        nan = np.full((d.shape[0], 2), np.nan)
        level = settings.confidence_level
        interval = (
            nan
            if n < MIN_INTERVAL_QUERIES
            else _batch.t_intervals(d, weight, mean, rows.constant, level)
        )
        statistic, pvalue = self.batch_test(rows, weight, mean, settings)
        zero = ~d.any(axis=1)
        statistic, pvalue = np.where(zero, 0.0, statistic), np.where(zero, 1.0, pvalue)
        alpha = 1 - level
        equivalence, verdicts = None, None
        if margin is not None:
            equivalence_alpha = alpha if equivalence_alpha is None else equivalence_alpha
            equivalence = _batch.t_intervals(
                d, weight, mean, rows.constant, tost_level(n, equivalence_alpha)
            )
            if n < MIN_EQUIVALENCE_QUERIES:
                inside = (-margin < equivalence[:, 0]) & (equivalence[:, 1] < margin)
                equivalence[inside] = (-np.inf, np.inf)
            verdicts = _batch.verdicts(mean, pvalue, alpha, equivalence, margin)
        return _batch.PairedBatch(mean, statistic, pvalue, interval, equivalence, verdicts)


def tost_level(n: int, alpha: float) -> float:
    """Level of the t interval of the TOST at level ``alpha`` on ``n`` queries.

    The textbook ``1 - 2 alpha`` from :data:`FULL_TOST_QUERIES` queries on; below, the
    skewed, heavy-tailed differences of near-identical models make its one-sided tests
    liberal (0.067-0.078 at 30-150 queries for alpha 0.05), so each is run at
    ``alpha / 2``: the ``1 - alpha`` interval.
    """
    return 1 - 2 * alpha if n >= FULL_TOST_QUERIES else 1 - alpha


class Randomization(_Method):
    """Fisher's randomization test: the sign of each query's difference flipped."""

    def test(self, x: Differences, settings: Resampling) -> tuple[float, float]:
        """``(statistic, pvalue)``; exact when the flips are no more than the resamples."""
        return x.mean, _sign_flip_pvalue(x.d, x.tolerance, settings)


def _sign_flip_pvalue(d: np.ndarray, tolerance: float, settings: Resampling) -> float:
    """p-value of the sign-flip test of the mean of ``d``: exact, or sampled."""
    return float(
        _batch.sign_flip_pvalues(
            d[None],
            np.array([tolerance]),
            settings.n_resamples,
            settings.alternative,
            settings.permutation_seed,
        )[0]
    )


def _randomization_batch(rows, weight, mean, settings):
    pvalue = _batch.sign_flip_pvalues(
        rows.d,
        rows.tolerance,
        settings.n_resamples,
        settings.alternative,
        settings.permutation_seed,
    )
    return mean, pvalue


Randomization.batch_test = staticmethod(_randomization_batch)


class Wilcoxon(_Method):
    """Wilcoxon's signed-rank test."""

    def test(self, x: Differences, settings: Resampling) -> tuple[float, float]:
        """``(statistic, pvalue)`` of :func:`scipy.stats.wilcoxon`.

        With zero differences on few queries scipy takes the normal approximation;
        scipy < 1.11 warns as it does so (and that the sample is small for it), the newer
        ones do it silently: not warned.
        """
        statistic, pvalue = _batch.wilcoxon_pvalues(x.d[None], settings.alternative)
        return float(statistic[0]), float(pvalue[0])


Wilcoxon.batch_test = staticmethod(
    lambda rows, weight, mean, settings: _batch.wilcoxon_pvalues(rows.d, settings.alternative)
)


class BootstrapTest(_Method):
    """The bootstrap distribution of the mean difference, shifted to mean 0.

    Below :data:`MIN_BOOTSTRAP_TEST_QUERIES` queries it is liberal; the sign-flip
    randomization test of the (weighted) mean difference takes its place, with a warning.
    """

    takes_weights = True

    def test(self, x: Differences, settings: Resampling) -> tuple[float, float]:
        """``(statistic, pvalue)``, the p-value floored at the exact randomization test's."""
        a, b, n = *x.names, x.n
        if n < MIN_BOOTSTRAP_TEST_QUERIES:
            few_queries_warning(
                f"the bootstrap test of {a} and {b} rejects a true null hypothesis more "
                f"often than alpha below {MIN_BOOTSTRAP_TEST_QUERIES} queries ({n} here); "
                "the p-value is that of the randomization test (the sign of each query's "
                "difference flipped), exact on few queries.",
            )
            d = x.d if x.weight is None else x.d * x.weight / x.weight.mean()
            scale = 1.0 if x.weight is None else float(np.max(x.weight) / x.weight.mean())
            return x.mean, _sign_flip_pvalue(d, x.tolerance * scale, settings)
        if x.labels is not None:  # strata: the stratified resamples, call by call
            boot = _stratified_percentile(x, settings)
            null = (
                _bootstrap_distribution(
                    boot, x.d, x.weight, settings.n_resamples, settings.bootstrap_seed
                )
                - x.mean
            )
            pvalue = _bootstrap_pvalue(null, x.mean, settings.alternative)
        else:
            pvalue = float(
                _batch.bootstrap_pvalues(
                    x.d[None],
                    x.weight,
                    np.array([x.mean]),
                    np.array([x.tolerance]),
                    settings.n_resamples,
                    settings.alternative,
                    settings.bootstrap_seed,
                )[0]
            )
        floor = _smallest_sign_flip_pvalue(n, settings.alternative)
        if pvalue < floor:
            warn(
                f"the bootstrap test of {a} and {b} gave p={pvalue:.3g} on "
                f"{n} queries, below {floor:.3g}, the smallest p-value that the exact "
                f"randomization test of {n} queries can give: resampling {n} queries "
                "cannot carry more evidence than that. The p-value is raised to "
                f"{floor:.3g}; use method='randomization' on few queries.",
                UserWarning,
            )
            pvalue = floor
        return x.mean, pvalue


def _bootstrap_batch(rows, weight, mean, settings):
    d, n = rows.d, rows.d.shape[1]
    if n < MIN_BOOTSTRAP_TEST_QUERIES:
        scaled = d if weight is None else d * weight / weight.mean()
        scale = 1.0 if weight is None else float(np.max(weight) / weight.mean())
        pvalue = _batch.sign_flip_pvalues(
            scaled,
            rows.tolerance * scale,
            settings.n_resamples,
            settings.alternative,
            settings.permutation_seed,
        )
        return mean, pvalue
    pvalue = _batch.bootstrap_pvalues(
        d,
        weight,
        mean,
        rows.tolerance,
        settings.n_resamples,
        settings.alternative,
        settings.bootstrap_seed,
    )
    return mean, np.maximum(pvalue, _smallest_sign_flip_pvalue(n, settings.alternative))


BootstrapTest.batch_test = staticmethod(_bootstrap_batch)


class StudentT(_Method):
    """Student's paired t-test, with Student's t intervals."""

    def test(self, x: Differences, settings: Resampling) -> tuple[float, float]:
        """``(statistic, pvalue)``; without variance, the exact sign-flip p-value."""
        statistics, pvalues = _batch.t_pvalues(
            x.d[None], np.array([x.constant]), np.array([x.mean]), settings.alternative
        )
        statistic, pvalue = float(statistics[0]), float(pvalues[0])
        if not x.constant:
            return statistic, pvalue
        # no variance: undefined; only the observed signs (and, two-sided, all
        # flipped) are as extreme
        n = x.n
        warn(
            f"the differences between {x.names[0]} and {x.names[1]} are the same on every "
            f"query (up to rounding): the t-test is undefined without variance; the "
            f"p-value is that of the exact randomization test, {pvalue:.3g} on {n} queries.",
            UserWarning,
        )
        return statistic, pvalue


StudentT.batch_test = staticmethod(
    lambda rows, weight, mean, settings: _batch.t_pvalues(
        rows.d, rows.constant, mean, settings.alternative
    )
)

METHODS = {
    "randomization": Randomization(),
    "t": StudentT(),
    "wilcoxon": Wilcoxon(),
    "bootstrap": BootstrapTest(),
}
PAIRED_METHODS = tuple(METHODS)
