"""paired_test: is one model's NDCG really better than another's?"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._metrics import QueryScores
from .._validate_params import Integers, Interval, StrOptions, validate_params
from . import _table
from ._bootstrap import _CONFIDENCE_LEVEL, _RANDOM_STATE
from ._methods import METHODS, PAIRED_METHODS, Differences, Resampling, _effect_size
from ._query_values import _paired_values, _rounding_tolerance, _seeds, _uniform
from ._strata import check_strata, subsets

_ALTERNATIVES = ("two-sided", "less", "greater")
MARGIN = [Interval(Real, 0, None, closed="neither"), None]


class PairedTestResult(NamedTuple):
    """Result of :func:`paired_test`: whether the mean of ``a - b`` differs from 0."""

    method: str
    statistic: float
    pvalue: float
    mean_difference: float
    confidence_interval: tuple[float, float]
    effect_size: float
    n_queries: int
    margin: float | None = None
    verdict: str | None = None
    equivalence_interval: tuple[float, float] | None = None
    by_stratum: dict | None = None


PairedTestResult.method.__doc__ = "The test: randomization, t, wilcoxon or bootstrap."
PairedTestResult.statistic.__doc__ = (
    "The test statistic: the mean difference (randomization, bootstrap), Student's t "
    "or Wilcoxon's signed-rank statistic."
)
PairedTestResult.pvalue.__doc__ = "The p-value under the chosen ``alternative``."
PairedTestResult.mean_difference.__doc__ = "Mean of ``a - b`` over queries (weighted)."
PairedTestResult.confidence_interval.__doc__ = (
    "``(low, high)`` for the mean difference; ``(nan, nan)`` below 30 queries."
)
PairedTestResult.effect_size.__doc__ = (
    "Cohen's d_z: the mean difference over the standard deviation of the differences."
)
PairedTestResult.n_queries.__doc__ = "Number of queries used (pairs without NaN)."
PairedTestResult.margin.__doc__ = "The equivalence margin, or None when none was given."
PairedTestResult.verdict.__doc__ = (
    'With a margin: ``a`` relative to ``b``, one of "better", "worse", '
    '"equivalent" or "inconclusive"; None without a margin.'
)
PairedTestResult.by_stratum.__doc__ = (
    "With strata: ``{stratum: PairedTestResult}``, the same test on each stratum's "
    "queries alone; None without strata."
)
PairedTestResult.equivalence_interval.__doc__ = (
    "With a margin: the t interval of the mean difference that the two one-sided tests "
    "(TOST) compare with ``(-margin, margin)``, at 1 - 2 alpha from 250 queries on and "
    "1 - alpha below; None without a margin."
)


PAIRED_PARAMS = {
    "method": [StrOptions(set(PAIRED_METHODS))],
    "confidence_level": [_CONFIDENCE_LEVEL],
    "n_resamples": [Integers(1)],
    "random_state": _RANDOM_STATE,
}


@validate_params(
    # dict(...), not {..., **PAIRED_PARAMS}: Sphinx's source analyser fails on the
    # latter, and autosummary then cannot document ModelComparison's fields
    dict(
        PAIRED_PARAMS,
        a=["array-like"],
        b=["array-like"],
        alternative=[StrOptions(set(_ALTERNATIVES))],
        margin=MARGIN,
        strata=["array-like", dict, None],
    ),
    prefer_skip_nested_validation=True,
)
def paired_test(
    a: ArrayLike | QueryScores,
    b: ArrayLike | QueryScores,
    *,
    method: str = "randomization",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    alternative: str = "two-sided",
    margin: float | None = None,
    strata: ArrayLike | dict | None = None,
    random_state: int | np.random.Generator | None = None,
) -> PairedTestResult:
    """Test whether two models' mean NDCG differ, query by query.

    Both models are evaluated on the same queries; the test is on the
    per-query differences ``a - b``, which removes the variation between easy
    and hard queries that dominates the NDCG of each model alone.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    a, b : array-like of shape (n_queries,) or QueryScores
        Per-query values of the two models: arrays paired by position, or
        :class:`QueryScores` (from :func:`query_scores`) paired by query id,
        which must hold the same queries with the same weights. Queries where
        either value is NaN (undefined NDCG with ``zero_division=np.nan``) are
        left out.
    method : {"randomization", "t", "wilcoxon", "bootstrap"}, default="randomization"
        The test.

        - "randomization": Fisher's randomization test of the mean difference,
          flipping the sign of each query's difference
          (:func:`scipy.stats.permutation_test`); exact, over all ``2**n``
          sign flips, when ``n_resamples >= 2**n``.
        - "t": Student's paired t-test (:func:`scipy.stats.ttest_rel`).
        - "wilcoxon": Wilcoxon's signed-rank test (:func:`scipy.stats.wilcoxon`).
        - "bootstrap": the bootstrap distribution of the mean difference
          (:func:`scipy.stats.bootstrap`), shifted to mean 0 under the null
          hypothesis. The only method that takes non-uniform query weights.
          Below 40 queries it rejects a true null hypothesis too often (0.09
          at 10 queries), so there the p-value is that of the randomization
          test of the (weighted) mean difference, with a warning.
    confidence_level : float in (0, 1), default=0.95
        Level of the two-sided confidence interval of the mean difference.
    n_resamples : int, default=9999
        Number of sign flips (randomization) and bootstrap resamples.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        The alternative hypothesis: the mean difference ``a - b`` is not 0, is
        below 0 or is above 0.
    margin : float > 0, default=None
        The equivalence margin δ: differences of mean NDCG smaller than δ do
        not matter (e.g. 0.01). With a margin the result gets a ``verdict``
        for ``a`` relative to ``b``, at the level ``alpha = 1 - confidence_level``:

        - "equivalent": the two one-sided tests (TOST) reject, i.e. the
          Student's t interval of the mean difference (for every method)
          lies inside ``(-margin, margin)``, on at least 30 queries: below 30
          the verdict cannot be "equivalent" (the equivalence interval is
          then ``(-inf, inf)``, with a warning), because with heavy-tailed
          differences the TOST says "equivalent" of a difference on the
          margin more often than ``alpha`` there. The interval is the
          textbook ``1 - 2 * alpha`` one from 250 queries on, and below
          the ``1 - alpha`` one (each one-sided test at ``alpha / 2``): with
          heavy-tailed differences the textbook TOST says "equivalent" of a
          difference on the margin 0.078 of the time at 30 queries and 0.067
          at 100 for alpha 0.05;
        - otherwise "better" or "worse": the test rejects equality at ``alpha``,
          by the sign of the mean difference;
        - otherwise "inconclusive": the queries show neither a difference nor
          equivalence. Needs ``alternative="two-sided"``.

        None: no verdict. A p-value of at least ``alpha`` then means "not
        shown different", which is not "as good".
    strata : array-like of shape (n_queries,) or dict, default=None
        A label per query (e.g. head and tail queries, or the data set each
        query comes from): for arrays, by position; for :class:`QueryScores`,
        a mapping ``{qid: label}`` or an array in the order of the sorted
        query ids (the order of :func:`cross_val_query_scores`' result).
        The bootstrap (the interval from 30 queries on, and
        ``method="bootstrap"`` from 40) then resamples queries within each
        stratum, keeping its size, and gives the percentile interval; the
        sign flips of the randomization test are already independent per
        query, and the t and Wilcoxon tests are unchanged. The result's
        ``by_stratum`` holds the same test on each stratum alone (each needs
        at least 2 queries): an overall win can hide a loss on a stratum.
    random_state : int, numpy.random.Generator or None, default=None
        Seeds the resampling, for reproducible results.

    Returns
    -------
    result : PairedTestResult
        Named tuple ``(method, statistic, pvalue, mean_difference,
        confidence_interval, effect_size, n_queries, margin, verdict,
        equivalence_interval, by_stratum)``. The interval is Student's t
        interval of the mean difference for every method (the bootstrap
        intervals cover 0.76-0.85 of the time at 5 queries where a 95 %
        interval should; weighted: the weighted standard error); with strata,
        the stratified percentile bootstrap interval. Below 30 queries it is
        ``(nan, nan)``, with a warning: with heavy-tailed differences the t
        interval covers 0.68 of the time at 3 queries, 0.87 at 10 and 0.93
        at 25, and no interval computed from the queries can see the rare
        queries where two models differ a lot. The effect size is Cohen's d_z, the mean
        difference over the standard deviation of the differences (0 when
        all differences are 0, infinite when they are equal but not 0).

    See Also
    --------
    compare_models : Compare several models with the best one.
    bootstrap_ci : Confidence interval of one model's mean NDCG.

    Notes
    -----
    Differences that are equal up to floating-point rounding (16 machine
    epsilons of the largest value) are treated as equal, so the exact
    randomization test is exact and the effect size of constant differences
    is the documented 0 or infinity. When every difference is 0 the statistic
    is 0 and the p-value 1 for every method (scipy would return NaN or raise
    for "t" and "wilcoxon"). When every difference is the same non-zero value
    the t-test is undefined: it warns and gives the p-value of the exact
    randomization test (``2 / 2**n`` two-sided).

    Where a procedure cannot hold its level on the queries given, it gives
    way to one that does, with a ``UserWarning`` that starts "too few
    queries" and names the reason: the bootstrap test below 40 queries, an
    "equivalent" verdict and the confidence interval below 30. The numbers
    come from simulations of realistic per-query NDCG,
    light- and heavy-tailed (``benchmarks/bench_calibration.py``; the table
    is in the :ref:`User Guide <statistics>`); Urbano et al. (2019) found the
    bootstrap test liberal on few queries too.

    No p-value goes below what the queries can carry: a bootstrap p-value
    smaller than the smallest p-value of the exact randomization test of the
    same queries (``2 / 2**n`` two-sided, ``1 / 2**n`` one-sided) is raised to
    it, with a warning; resampling 3 queries cannot show more than that.

    References
    ----------
    Smucker, M. D., Allan, J., & Carterette, B. (2007). A comparison of
    statistical significance tests for information retrieval evaluation.
    CIKM.

    Urbano, J., Lima, H., & Hanjalic, A. (2019). Statistical significance
    testing in information retrieval: an empirical analysis of type I, type
    II and type III errors. SIGIR.

    Examples
    --------
    >>> from sklearn_ndcg import paired_test
    >>> a = [0.9, 0.8, 0.7, 0.95, 0.6, 0.85, 0.75, 0.9]
    >>> b = [0.7, 0.75, 0.6, 0.9, 0.65, 0.7, 0.6, 0.8]
    >>> import warnings
    >>> with warnings.catch_warnings(record=True) as caught:
    ...     warnings.simplefilter("always")
    ...     result = paired_test(a, b)  # exact: all 2**8 sign flips
    >>> round(result.mean_difference, 5), result.pvalue  # 8 of 256 flips as extreme
    (0.09375, 0.03125)
    >>> result.confidence_interval, str(caught[0].message)[:53]
    ((nan, nan), 'too few queries: no confidence interval of a - b on 8')
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     result = paired_test(a, b, method="t")
    >>> round(result.pvalue, 4), round(result.effect_size, 3), result.n_queries
    (0.0112, 1.208, 8)

    On 8 queries the test holds its level, but no interval would: it is
    reported from 30 queries on. With a margin of 0.01 the verdict reads:
    ``a`` is better than ``b`` (the p-value is below 0.05, and the 95 % t
    interval of the TOST, (0.0288, 0.1587), is not within ±0.01):

    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     result = paired_test(a, b, method="t", margin=0.01)
    >>> result.verdict, [round(x, 4) for x in result.equivalence_interval]
    ('better', [0.0288, 0.1587])
    """
    return _paired_test(
        a,
        b,
        method=method,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        alternative=alternative,
        random_state=random_state,
        margin=margin,
        strata=strata,
    )


def _paired_test(
    a,
    b,
    *,
    method,
    confidence_level,
    n_resamples,
    alternative,
    random_state,
    margin=None,
    equivalence_alpha=None,
    names=("a", "b"),
    strata=None,
    interval=True,
) -> PairedTestResult:
    """paired_test, with the names of the two models for the error messages.

    ``equivalence_alpha`` (default ``1 - confidence_level``) sets the level of
    the TOST. ``interval=False`` skips the confidence interval (``(nan, nan)``, no
    warning), for callers that do not report it (:func:`compare_models`).
    """
    if margin is not None and alternative != "two-sided":
        raise ValueError(
            f"margin={margin!r} needs alternative='two-sided' (got {alternative!r}): the "
            "verdict looks for a difference in either direction."
        )
    if strata is None:
        a, b, weight = _paired_values(a, b, names)
        labels = None
    else:
        a, b, weight, labels = _paired_values(a, b, names, strata)
        check_strata(labels, 2, "a paired test")
    options = _TestOptions(
        method=method,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        alternative=alternative,
        margin=margin,
        equivalence_alpha=equivalence_alpha,
        names=names,
        interval=interval,
    )
    result = _paired_core(a, b, weight, labels, options, random_state=random_state)
    if labels is None:
        return result
    seeds = _seeds(random_state, len(subsets(labels)) + 1)[1:]
    by_stratum = {
        label: _paired_core(
            a[mask],
            b[mask],
            None if weight is None else weight[mask],
            None,
            options,
            random_state=seed,
        )
        for (label, mask), seed in zip(subsets(labels).items(), seeds)
    }
    return result._replace(by_stratum=by_stratum)


@dataclass(frozen=True)
class _TestOptions:
    """The settings of one :func:`_paired_test` that its strata share (the seed aside)."""

    method: str
    confidence_level: float
    n_resamples: int
    alternative: str
    margin: float | None
    equivalence_alpha: float | None
    names: tuple[str, str]
    interval: bool = True


def _paired_core(a, b, weight, labels, options: _TestOptions, *, random_state) -> PairedTestResult:
    """The paired test of aligned arrays; ``labels``: strata of the bootstrap, or None."""
    method, names, margin = options.method, options.names, options.margin
    confidence_level, equivalence_alpha = options.confidence_level, options.equivalence_alpha
    test = METHODS[method]
    if not _uniform(weight) and not test.takes_weights:
        raise ValueError(
            f"method={method!r} does not take query weights, and the weights of {names[0]} "
            f"and {names[1]} are not all equal; use method='bootstrap' for a weighted mean "
            "difference."
        )
    if _uniform(weight):
        weight = None
    tolerance = _rounding_tolerance(a, b)
    d = a - b
    d[np.abs(d) <= tolerance] = 0.0  # equal up to rounding: equal
    constant = np.ptp(d) <= 2 * tolerance
    if constant:
        d[:] = d.mean()  # equal up to rounding: equal
    x = Differences(
        d=d,
        weight=weight,
        labels=labels,
        mean=float(np.average(d, weights=weight)),
        constant=constant,
        tolerance=tolerance,
        names=names,
    )
    alpha = 1 - confidence_level
    equivalence_alpha = alpha if equivalence_alpha is None else equivalence_alpha
    bootstrap_seed, permutation_seed = _seeds(random_state, 2)
    settings = Resampling(
        confidence_level=confidence_level,
        n_resamples=options.n_resamples,
        alternative=options.alternative,
        bootstrap_seed=bootstrap_seed,
        permutation_seed=permutation_seed,
    )
    low, high = test.interval(x, settings) if options.interval else (np.nan, np.nan)
    if (d == 0).all():
        statistic, pvalue = 0.0, 1.0
    else:
        statistic, pvalue = test.test(x, settings)
    equivalence = None
    verdict = None
    if margin is not None:
        equivalence = test.equivalence_interval(x, equivalence_alpha, margin)
        verdict = _table.verdict(x.mean, pvalue, alpha, equivalence, margin)
    return PairedTestResult(
        method=method,
        statistic=float(statistic),
        pvalue=float(pvalue),
        mean_difference=x.mean,
        confidence_interval=(float(low), float(high)),
        effect_size=_effect_size(d, weight, x.mean),
        n_queries=x.n,
        margin=None if margin is None else float(margin),
        verdict=verdict,
        equivalence_interval=equivalence,
    )
