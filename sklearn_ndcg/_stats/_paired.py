"""paired_test and bootstrap_ci: is one model's NDCG really better than another's?"""

from __future__ import annotations

import inspect
import warnings
from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._compat import Integers, Interval, StrOptions, validate_params
from .._metrics._ndcg import QueryScores
from . import _table
from ._strata import check_strata, stratified_bootstrap, stratum_labels, subsets

PAIRED_METHODS = ("randomization", "t", "wilcoxon", "bootstrap")
_ALTERNATIVES = ("two-sided", "less", "greater")

# scipy >= 1.15 calls the seed `rng`, older versions `random_state`; both take a
# numpy Generator and treat it alike.
_RNG = "rng" if "rng" in inspect.signature(stats.bootstrap).parameters else "random_state"
_ELEMENTS_PER_BATCH = 2**22  # resamples are drawn in batches of about 32 MB
_CONFIDENCE_LEVEL = Interval(Real, 0, 1, closed="neither")
_RANDOM_STATE = [None, Integers(0), np.random.Generator]
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
PairedTestResult.confidence_interval.__doc__ = "``(low, high)`` for the mean difference."
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
    "With a margin: the (1 - 2 alpha) interval of the mean difference that the two "
    "one-sided tests (TOST) compare with ``(-margin, margin)``; None without a margin."
)


class BootstrapResult(NamedTuple):
    """Result of :func:`bootstrap_ci`: a mean over queries and its uncertainty."""

    mean: float
    confidence_interval: tuple[float, float]
    standard_error: float
    n_queries: int
    by_stratum: dict | None = None


BootstrapResult.mean.__doc__ = "The (weighted) mean over queries, NaN values left out."
BootstrapResult.confidence_interval.__doc__ = "``(low, high)`` bootstrap interval of the mean."
BootstrapResult.standard_error.__doc__ = "Standard deviation of the bootstrap distribution."
BootstrapResult.n_queries.__doc__ = "Number of queries used (NaN values left out)."
BootstrapResult.by_stratum.__doc__ = (
    "With strata: ``{stratum: BootstrapResult}`` of each stratum's queries alone; "
    "None without strata."
)


def _as_query_values(values, name: str) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Values, weights and query ids (None for arrays) as float64 arrays."""
    if isinstance(values, QueryScores):
        qid = np.asarray(values.qid)
        score = np.asarray(values.score, dtype=np.float64)
        weight = np.asarray(values.weight, dtype=np.float64)
        if not qid.shape == score.shape == weight.shape or score.ndim != 1:
            raise ValueError(
                f"{name} is a QueryScores whose qid, score and weight have the shapes "
                f"{qid.shape}, {score.shape} and {weight.shape}; give one of each per query."
            )
        if np.unique(qid).shape[0] != qid.shape[0]:
            raise ValueError(f"{name} holds some query ids more than once; give each query once.")
        if not (np.isfinite(weight).all() and (weight >= 0).all()):
            raise ValueError(f"{name}.weight must be finite and >= 0 for every query.")
        order = np.argsort(qid, kind="stable")
        return score[order], weight[order], qid[order]
    score = np.asarray(values, dtype=np.float64)
    if score.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D, one value per query; got an array of shape {score.shape}."
        )
    return score, None, None


def _paired_values(a, b, names=("a", "b"), strata=None):
    """Align two models' per-query values; drop pairs with NaN. Returns a, b and weights
    (and, when ``strata`` is given, the stratum of each pair kept)."""
    labels = None if strata is None else stratum_labels(a, strata, "/".join(names))
    (a, weight, qid_a), (b, weight_b, qid_b) = (
        _as_query_values(values, name) for values, name in zip((a, b), names)
    )
    if (qid_a is None) != (qid_b is None):
        raise TypeError(
            f"{names[0]} and {names[1]} must both be QueryScores (aligned by query id) or "
            "both arrays (paired by position); got one of each."
        )
    if qid_a is None:
        if a.shape != b.shape:
            raise ValueError(
                f"{names[0]} has {a.shape[0]} queries but {names[1]} has {b.shape[0]}; give "
                "one value per query for both models, in the same order."
            )
    else:
        if qid_a.tolist() != qid_b.tolist():  # lists: ids of different types compare unequal
            differ = sorted(set(qid_a.tolist()) ^ set(qid_b.tolist()), key=str)
            raise ValueError(
                f"{names[0]} and {names[1]} must hold the same queries; these query ids are "
                f"in only one of them: {differ[:10]}"
                + (f" and {len(differ) - 10} more." if len(differ) > 10 else ".")
            )
        if (weight != weight_b).any():
            raise ValueError(
                f"{names[0]} and {names[1]} weigh some queries differently; compare the "
                "models with the same sample_weight."
            )
    if np.isinf(a).any() or np.isinf(b).any():
        raise ValueError(f"{names[0]} and {names[1]} must not hold infinite values.")
    keep = ~(np.isnan(a) | np.isnan(b))
    if keep.sum() < 2:
        raise ValueError(
            f"{names[0]} and {names[1]} have {keep.sum()} queries where both values are "
            "defined (not NaN); a paired test needs at least 2."
        )
    kept = a[keep], b[keep], None if weight is None else weight[keep]
    return kept if strata is None else (*kept, labels[keep])


def _uniform(weight: np.ndarray | None) -> bool:
    return weight is None or np.ptp(weight) == 0


def _weighted_mean(x, w, axis=-1):
    return np.average(x, weights=w, axis=axis)


def _seeds(random_state, n: int) -> list[int]:
    """``n`` independent seeds from a Generator built from ``random_state``."""
    return np.random.default_rng(random_state).integers(2**63, size=n).tolist()


def _bootstrap(x, weight, *, confidence_level, n_resamples, method, seed):
    """scipy.stats.bootstrap of the (weighted) mean of ``x``, resampling queries.

    Where the BCa interval is undefined (e.g. all values equal) the percentile
    interval of the same resamples is returned instead.
    """
    data, statistic = ((x,), np.mean) if _uniform(weight) else ((x, weight), _weighted_mean)

    def run(method):
        return stats.bootstrap(
            data,
            statistic,
            n_resamples=n_resamples,
            batch=max(1, _ELEMENTS_PER_BATCH // x.size),
            vectorized=True,
            paired=len(data) == 2,
            confidence_level=confidence_level,
            method=method,
            **{_RNG: np.random.default_rng(seed)},
        )

    if method != "BCa":
        return run(method)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        result = run("BCa")
    if np.isnan(result.confidence_interval).any():
        result = run("percentile")
    return result


def _bootstrap_distribution(result, x, weight, n_resamples, seed) -> np.ndarray:
    """The bootstrap means behind ``result``; drawn anew on scipy < 1.10, which keeps none."""
    if hasattr(result, "bootstrap_distribution"):
        return result.bootstrap_distribution
    rng = np.random.default_rng(seed)
    weight = np.ones_like(x) if weight is None else weight
    batch = max(1, _ELEMENTS_PER_BATCH // x.size)
    means = []
    for start in range(0, n_resamples, batch):
        i = rng.integers(0, x.size, size=(min(batch, n_resamples - start), x.size))
        means.append(_weighted_mean(x[i], weight[i]))
    return np.concatenate(means)


def _bootstrap_pvalue(null: np.ndarray, mean: float, alternative: str) -> float:
    """Share of the bootstrap distribution, shifted to mean 0, at least as extreme as ``mean``."""
    if alternative == "two-sided":
        extreme = np.abs(null) >= abs(mean)
    else:
        extreme = null >= mean if alternative == "greater" else null <= mean
    # (count + 1) / (B + 1): the observed difference counts as one resample, so
    # that the p-value is never 0 (Davison and Hinkley, 1997)
    return float((np.count_nonzero(extreme) + 1) / (null.shape[0] + 1))


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


def _mean_difference(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


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
          ``1 - 2 * alpha`` interval of the mean difference (Student's t
          interval for ``method="t"``, otherwise the percentile bootstrap
          interval) lies inside ``(-margin, margin)``;
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
        The bootstrap (the interval, and ``method="bootstrap"``) then
        resamples queries within each stratum, keeping its size, and gives
        the percentile interval; the sign flips of the randomization test
        are already independent per query, and the t and Wilcoxon tests are
        unchanged. The result's ``by_stratum`` holds the same test on each
        stratum alone (each needs at least 2 queries): an overall win can
        hide a loss on a stratum.
    random_state : int, numpy.random.Generator or None, default=None
        Seeds the resampling, for reproducible results.

    Returns
    -------
    result : PairedTestResult
        Named tuple ``(method, statistic, pvalue, mean_difference,
        confidence_interval, effect_size, n_queries, margin, verdict,
        equivalence_interval, by_stratum)``. The interval is
        Student's t interval for ``method="t"``, otherwise the bootstrap BCa
        interval (the percentile interval where BCa is undefined, e.g. when
        all differences are equal). The effect size is Cohen's d_z, the mean
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

    No p-value goes below what the queries can carry: a bootstrap p-value
    smaller than the smallest p-value of the exact randomization test of the
    same queries (``2 / 2**n`` two-sided, ``1 / 2**n`` one-sided) is raised to
    it, with a warning; resampling 3 queries cannot show more than that.

    References
    ----------
    Smucker, M. D., Allan, J., & Carterette, B. (2007). A comparison of
    statistical significance tests for information retrieval evaluation.
    CIKM.

    Examples
    --------
    >>> from sklearn_ndcg import paired_test
    >>> a = [0.9, 0.8, 0.7, 0.95, 0.6, 0.85, 0.75, 0.9]
    >>> b = [0.7, 0.75, 0.6, 0.9, 0.65, 0.7, 0.6, 0.8]
    >>> result = paired_test(a, b)  # exact: all 2**8 sign flips
    >>> round(result.mean_difference, 5), result.pvalue  # 8 of 256 flips as extreme
    (0.09375, 0.03125)
    >>> result = paired_test(a, b, method="t")
    >>> round(result.pvalue, 4), [round(x, 4) for x in result.confidence_interval]
    (0.0112, [0.0288, 0.1587])
    >>> round(result.effect_size, 3), result.n_queries
    (1.208, 8)

    With a margin of 0.01 the verdict reads: ``a`` is better than ``b`` (its
    90 % t interval, (0.0417, 0.1458), lies above 0, and not within ±0.01):

    >>> result = paired_test(a, b, method="t", margin=0.01)
    >>> result.verdict, [round(x, 4) for x in result.equivalence_interval]
    ('better', [0.0417, 0.1458])
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


def _rounding_tolerance(*arrays: np.ndarray) -> float:
    """Differences of the values closer than this are equal up to floating-point rounding."""
    scale = max(float(np.max(np.abs(x), initial=0.0)) for x in arrays)
    return 16 * np.finfo(np.float64).eps * scale


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
) -> PairedTestResult:
    """paired_test, with the names of the two models for the error messages.

    ``equivalence_alpha`` (default ``1 - confidence_level``) sets the level of
    the TOST interval, ``1 - 2 * equivalence_alpha``.
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
    options = dict(
        method=method,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        alternative=alternative,
        margin=margin,
        equivalence_alpha=equivalence_alpha,
        names=names,
    )
    result = _paired_core(a, b, weight, labels, random_state=random_state, **options)
    if labels is None:
        return result
    seeds = _seeds(random_state, len(subsets(labels)) + 1)[1:]
    by_stratum = {
        label: _paired_core(
            a[mask],
            b[mask],
            None if weight is None else weight[mask],
            None,
            random_state=seed,
            **options,
        )
        for (label, mask), seed in zip(subsets(labels).items(), seeds)
    }
    return result._replace(by_stratum=by_stratum)


def _paired_core(
    a,
    b,
    weight,
    labels,
    *,
    method,
    confidence_level,
    n_resamples,
    alternative,
    random_state,
    margin,
    equivalence_alpha,
    names,
) -> PairedTestResult:
    """The paired test of aligned arrays; ``labels``: strata of the bootstrap, or None."""
    if not _uniform(weight) and method != "bootstrap":
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
    n = d.shape[0]
    mean = float(np.average(d, weights=weight))
    alpha = 1 - confidence_level
    equivalence_alpha = alpha if equivalence_alpha is None else equivalence_alpha
    bootstrap_seed, permutation_seed = _seeds(random_state, 2)
    boot = None
    if method == "t":
        sd = 0.0 if constant else np.std(d, ddof=1)
        half = stats.t.ppf((1 + confidence_level) / 2, n - 1) * sd / np.sqrt(n)
        interval = (mean - half, mean + half)
    elif labels is not None:
        boot = stratified_bootstrap(
            d,
            weight,
            labels,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            method="percentile",
            seed=bootstrap_seed,
        )
        interval = boot.confidence_interval
    else:
        boot = _bootstrap(
            d,
            weight,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            method="BCa",
            seed=bootstrap_seed,
        )
        interval = boot.confidence_interval
    if (d == 0).all():
        statistic, pvalue = 0.0, 1.0
    elif method == "randomization":
        if 2**n <= n_resamples:  # exact: every sign flip once
            statistic = mean
            pvalue = _exact_sign_flip_pvalue(d, alternative, tolerance)
        else:
            result = stats.permutation_test(
                (d, np.zeros_like(d)),
                _mean_difference,
                permutation_type="samples",
                vectorized=True,
                n_resamples=n_resamples,
                batch=max(1, _ELEMENTS_PER_BATCH // n),
                alternative=alternative,
                **{_RNG: np.random.default_rng(permutation_seed)},
            )
            statistic, pvalue = result.statistic, result.pvalue
    elif method == "bootstrap":
        null = _bootstrap_distribution(boot, d, weight, n_resamples, bootstrap_seed) - mean
        statistic, pvalue = mean, _bootstrap_pvalue(null, mean, alternative)
        floor = _smallest_sign_flip_pvalue(n, alternative)
        if pvalue < floor:
            warnings.warn(
                f"the bootstrap test of {names[0]} and {names[1]} gave p={pvalue:.3g} on "
                f"{n} queries, below {floor:.3g}, the smallest p-value that the exact "
                f"randomization test of {n} queries can give: resampling {n} queries "
                "cannot carry more evidence than that. The p-value is raised to "
                f"{floor:.3g}; use method='randomization' on few queries.",
                UserWarning,
                stacklevel=3,
            )
            pvalue = floor
    elif constant and method == "t":  # no variance: undefined; the exact sign-flip p-value
        statistic = float(np.copysign(np.inf, mean))
        # only the observed signs (and, two-sided, all flipped) are as extreme
        against = (alternative == "greater" and mean < 0) or (alternative == "less" and mean > 0)
        pvalue = 1.0 if against else _smallest_sign_flip_pvalue(n, alternative)
        warnings.warn(
            f"the differences between {names[0]} and {names[1]} are the same on every "
            f"query (up to rounding): the t-test is undefined without variance; the "
            f"p-value is that of the exact randomization test, {pvalue:.3g} on {n} queries.",
            UserWarning,
            stacklevel=3,
        )
    elif method == "t":
        statistic, pvalue = stats.ttest_1samp(d, 0.0, alternative=alternative)[:2]
    else:
        statistic, pvalue = stats.wilcoxon(d, alternative=alternative)[:2]
    low, high = interval
    equivalence = None
    verdict = None
    if margin is not None:
        equivalence = _equivalence_interval(
            d, weight, mean, method, boot, equivalence_alpha, n_resamples, bootstrap_seed
        )
        verdict = _table.verdict(mean, pvalue, alpha, equivalence, margin)
    return PairedTestResult(
        method=method,
        statistic=float(statistic),
        pvalue=float(pvalue),
        mean_difference=mean,
        confidence_interval=(float(low), float(high)),
        effect_size=_effect_size(d, weight, mean),
        n_queries=n,
        margin=None if margin is None else float(margin),
        verdict=verdict,
        equivalence_interval=equivalence,
    )


def _equivalence_interval(
    d, weight, mean, method, boot, alpha, n_resamples, seed
) -> tuple[float, float]:
    """The (1 - 2 alpha) interval of the mean difference for the two one-sided tests.

    Student's t interval for method "t"; otherwise the percentile interval of the
    bootstrap distribution of the mean difference.
    """
    n = d.shape[0]
    if method == "t":
        sd = np.std(d, ddof=1) if np.ptp(d) > 0 else 0.0
        half = stats.t.ppf(1 - alpha, n - 1) * sd / np.sqrt(n)
        return float(mean - half), float(mean + half)
    distribution = _bootstrap_distribution(boot, d, weight, n_resamples, seed)
    low, high = np.quantile(distribution, [alpha, 1 - alpha])
    return float(low), float(high)


@validate_params(
    {
        "values": ["array-like"],
        "confidence_level": [_CONFIDENCE_LEVEL],
        "n_resamples": [Integers(1)],
        "method": [StrOptions({"BCa", "percentile", "basic"})],
        "strata": ["array-like", dict, None],
        "random_state": _RANDOM_STATE,
    },
    prefer_skip_nested_validation=True,
)
def bootstrap_ci(
    values: ArrayLike | QueryScores,
    *,
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    method: str = "BCa",
    strata: ArrayLike | dict | None = None,
    random_state: int | np.random.Generator | None = None,
) -> BootstrapResult:
    """Bootstrap confidence interval of a model's mean NDCG over queries.

    Queries are resampled with replacement (:func:`scipy.stats.bootstrap`):
    the interval says how much the mean NDCG could move on another sample of
    queries like these.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    values : array-like of shape (n_queries,) or QueryScores
        Per-query values of the model. With a :class:`QueryScores` whose
        weights are not all equal, the mean is weighted, and each query is
        resampled together with its weight. NaN values (undefined NDCG with
        ``zero_division=np.nan``) are left out.
    confidence_level : float in (0, 1), default=0.95
        Level of the two-sided confidence interval.
    n_resamples : int, default=9999
        Number of bootstrap resamples.
    method : {"BCa", "percentile", "basic"}, default="BCa"
        The bootstrap interval; see :func:`scipy.stats.bootstrap`.

        - "BCa": bias-corrected and accelerated. Where it is undefined (e.g.
          all values equal) the percentile interval is returned.
        - "percentile": quantiles of the bootstrap distribution.
        - "basic": the percentile interval reflected about the mean.
    strata : array-like of shape (n_queries,) or dict, default=None
        A label per query: for arrays, by position; for :class:`QueryScores`,
        a mapping ``{qid: label}`` or an array in the order of the sorted
        query ids. Queries are then resampled within each stratum, keeping
        its size (the stratified bootstrap; "BCa" gives the percentile
        interval there), and ``by_stratum`` holds each stratum's own
        interval. Every stratum needs at least 2 queries.
    random_state : int, numpy.random.Generator or None, default=None
        Seeds the resampling, for reproducible results.

    Returns
    -------
    result : BootstrapResult
        Named tuple ``(mean, confidence_interval, standard_error, n_queries,
        by_stratum)``.

    See Also
    --------
    paired_test : Whether two models' mean NDCG differ.
    compare_models : Compare several models with the best one.

    Examples
    --------
    >>> from sklearn_ndcg import bootstrap_ci
    >>> values = [1.0, 1.0, 0.5, 1.0, 0.0, 1.0, 0.75, 1.0]
    >>> result = bootstrap_ci(values, random_state=0)
    >>> result.mean, result.n_queries
    (0.78125, 8)
    >>> low, high = result.confidence_interval
    >>> bool(low < result.mean < high)
    True
    >>> bootstrap_ci(values, method="percentile", random_state=0).confidence_interval
    (0.53125, 0.96875)

    With strata, each stratum's mean is reported too: here the last four
    queries (a "tail") have a lower mean NDCG than the first four.

    >>> result = bootstrap_ci(values, strata=["head"] * 4 + ["tail"] * 4, random_state=0)
    >>> {label: r.mean for label, r in result.by_stratum.items()}
    {'head': 0.875, 'tail': 0.6875}
    """
    return _bootstrap_ci(
        values,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        method=method,
        random_state=random_state,
        strata=strata,
    )


def _bootstrap_ci(
    values, *, confidence_level, n_resamples, method, random_state, name="values", strata=None
) -> BootstrapResult:
    """bootstrap_ci, with the name of the values for the error messages."""
    labels = None if strata is None else stratum_labels(values, strata, name)
    values, weight, _ = _as_query_values(values, name)
    keep = ~np.isnan(values)
    values = values[keep]
    weight = None if weight is None or _uniform(weight[keep]) else weight[keep]
    options = dict(
        confidence_level=confidence_level, n_resamples=n_resamples, method=method, name=name
    )
    if labels is None:
        return _bootstrap_core(values, weight, None, random_state=random_state, **options)
    labels = labels[keep]
    check_strata(labels, 2, "the bootstrap")
    seeds = _seeds(random_state, len(subsets(labels)) + 1)
    result = _bootstrap_core(values, weight, labels, random_state=seeds[0], **options)
    by_stratum = {
        label: _bootstrap_core(
            values[mask],
            None if weight is None else weight[mask],
            None,
            random_state=seed,
            **options,
        )
        for (label, mask), seed in zip(subsets(labels).items(), seeds[1:])
    }
    return result._replace(by_stratum=by_stratum)


def _bootstrap_core(
    values, weight, labels, *, confidence_level, n_resamples, method, random_state, name
) -> BootstrapResult:
    """bootstrap_ci of aligned arrays; ``labels``: strata to resample within, or None."""
    if values.shape[0] < 2:
        raise ValueError(
            f"{name} has {values.shape[0]} queries that are not NaN; a bootstrap needs at least 2."
        )
    if np.isinf(values).any():
        raise ValueError(f"{name} must not hold infinite values.")
    (seed,) = _seeds(random_state, 1)
    if labels is not None:
        result = stratified_bootstrap(
            values,
            weight,
            labels,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            method=method,
            seed=seed,
        )
    else:
        result = _bootstrap(
            values,
            weight,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            method=method,
            seed=seed,
        )
    low, high = result.confidence_interval
    return BootstrapResult(
        mean=float(np.average(values, weights=weight)),
        confidence_interval=(float(low), float(high)),
        standard_error=float(result.standard_error),
        n_queries=values.shape[0],
    )
