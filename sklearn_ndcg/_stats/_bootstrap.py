"""bootstrap_ci, and the bootstrap of a (weighted) mean over queries that every interval uses."""

from __future__ import annotations

import inspect
import warnings
from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._metrics import QueryScores
from .._validate_params import Integers, Interval, StrOptions, validate_params
from .._warn import warn as warn_user
from ._query_values import _as_query_values, _seeds, _uniform
from ._strata import check_strata, stratified_bootstrap, stratum_labels, subsets

# scipy >= 1.15 calls the seed `rng`, older versions `random_state`; both take a
# numpy Generator and treat it alike.
_RNG = "rng" if "rng" in inspect.signature(stats.bootstrap).parameters else "random_state"
_ELEMENTS_PER_BATCH = 2**22  # resamples are drawn in batches of about 32 MB
_CONFIDENCE_LEVEL = Interval(Real, 0, 1, closed="neither")
_RANDOM_STATE = [None, Integers(0), np.random.Generator]
# Below this number of queries the bootstrap intervals of a mean NDCG cover less than
# their level (95 % BCa: 0.68 at 3 queries, 0.85 at 5; percentile: 0.92 at 15-20;
# benchmarks/bench_calibration.py); Student's t interval takes their place there. From 20
# to 200 queries BCa covers at least as much as t (within 2 Monte Carlo se) on all four
# populations of benchmarks/bench_bootstrap_switch.py (2,000 samples a cell).
MIN_BOOTSTRAP_QUERIES = 25
# Below this number of queries neither interval holds 0.93 at 95 % on skewed per-query
# NDCG (bench_bootstrap_switch.py's "skewed" and "left-tailed": BCa 0.919-0.928 at 25-30
# queries, t 0.867-0.905 at 20; from 40 on BCa covers 0.935-0.953): bootstrap_ci warns.
MIN_COVERING_QUERIES = 40
# Below this number of queries no interval is reported: Student's t interval covers 0.928
# at 3 queries of light-tailed NDCG (20,000 replicates), 0.934-0.935 at 5.
MIN_MEAN_INTERVAL_QUERIES = 5
_MORE_QUERIES = (
    f"Score {MIN_COVERING_QUERIES} or more queries for an interval that holds its level."
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


def _weighted_mean(x, w, axis=-1):
    return np.average(x, weights=w, axis=axis)


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
    queries like these. Below 25 queries the bootstrap intervals cover less
    than their level (a 95 % BCa interval of realistic NDCG covers 0.68 at 3
    queries and 0.85 at 5), so there the interval is Student's t interval of
    the mean, with a warning; below 5 queries even that covers less than its
    level, and no interval is reported (``(nan, nan)``, with a warning). Below
    40 queries neither interval holds its level on skewed per-query NDCG (a 95 %
    BCa interval covers 0.92-0.93 at 25-30 queries, Student's t 0.87-0.91 at
    20), and the function warns so.

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

        On fewer than 25 queries (of the data, or of a stratum in
        ``by_stratum``), each method gives way to Student's t interval of the
        mean, ``mean +- t * sd / sqrt(n)`` (weighted: the weighted standard
        error), with a ``UserWarning`` that starts "too few queries"; on fewer
        than 5 the interval is ``(nan, nan)``, with such a warning. From 25 to
        39 queries the method's interval comes with such a warning too: it may
        cover less than its level on skewed per-query NDCG.
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
    >>> values = [1.0, 1.0, 0.5, 1.0] * 10 + [0.0, 1.0, 0.75, 1.0] * 10
    >>> result = bootstrap_ci(values, random_state=0)
    >>> result.mean, result.n_queries
    (0.78125, 80)
    >>> low, high = result.confidence_interval
    >>> bool(low < result.mean < high)
    True
    >>> [round(x, 4) for x in bootstrap_ci(values, method="percentile", random_state=0)[1]]
    [0.7031, 0.8531]

    With strata, each stratum's mean is reported too: here the last 40
    queries (a "tail") have a lower mean NDCG than the first 40.

    >>> result = bootstrap_ci(values, strata=["head"] * 40 + ["tail"] * 40, random_state=0)
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
        warn=True,
    )


def _bootstrap_ci(
    values,
    *,
    confidence_level,
    n_resamples,
    method,
    random_state,
    name="values",
    strata=None,
    warn=False,
) -> BootstrapResult:
    """bootstrap_ci, with the name of the values for the error messages.

    ``warn``: whether the t interval that replaces the bootstrap's on fewer than
    :data:`MIN_BOOTSTRAP_QUERIES` queries warns (the public function's), or not (the
    interval of each model's mean that :func:`compare_models` prints beside its tests).
    """
    labels = None if strata is None else stratum_labels(values, strata, name)
    values, weight, _ = _as_query_values(values, name)
    keep = ~np.isnan(values)
    values = values[keep]
    weight = None if weight is None or _uniform(weight[keep]) else weight[keep]
    options = dict(
        confidence_level=confidence_level,
        n_resamples=n_resamples,
        method=method,
        name=name,
        warn=warn,
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
    values, weight, labels, *, confidence_level, n_resamples, method, random_state, name, warn
) -> BootstrapResult:
    """bootstrap_ci of aligned arrays; ``labels``: strata to resample within, or None."""
    if values.shape[0] < 2:
        raise ValueError(
            f"{name} has {values.shape[0]} queries that are not NaN; a bootstrap needs at least 2."
        )
    if np.isinf(values).any():
        raise ValueError(f"{name} must not hold infinite values.")
    (seed,) = _seeds(random_state, 1)
    mean = float(np.average(values, weights=weight))
    n = values.shape[0]
    if n < MIN_MEAN_INTERVAL_QUERIES:
        if warn:
            warn_user(
                f"too few queries: no confidence interval of the mean of {name} on {n} "
                f"queries; from {MIN_MEAN_INTERVAL_QUERIES} on, Student's t interval covers "
                "its level on skewed, tied per-query NDCG (on 3 queries it covers 0.928 at "
                "95 %).",
                UserWarning,
            )
        return BootstrapResult(
            mean=mean,
            confidence_interval=(np.nan, np.nan),
            standard_error=_standard_error(values, weight, mean),
            n_queries=n,
        )
    if n < MIN_BOOTSTRAP_QUERIES:
        if warn:
            warn_user(
                f"too few queries: the bootstrap interval of the mean of {name} covers less "
                f"than its level below {MIN_BOOTSTRAP_QUERIES} queries ({n} here); the interval "
                "is Student's t interval of the mean, which may cover less too: 0.87-0.91 "
                "at 95 % on 20 queries of skewed per-query NDCG "
                f"(benchmarks/bench_bootstrap_switch.py). {_MORE_QUERIES}",
                UserWarning,
            )
        se = _standard_error(values, weight, mean)
        half = stats.t.ppf((1 + confidence_level) / 2, n - 1) * se
        return BootstrapResult(
            mean=mean,
            confidence_interval=(float(mean - half), float(mean + half)),
            standard_error=se,
            n_queries=n,
        )
    if warn and n < MIN_COVERING_QUERIES:
        warn_user(
            f"too few queries: the bootstrap interval of the mean of {name} may cover less "
            f"than its level below {MIN_COVERING_QUERIES} queries ({n} here): 0.92-0.93 at "
            "95 % on 25-30 queries of skewed per-query NDCG "
            f"(benchmarks/bench_bootstrap_switch.py). {_MORE_QUERIES}",
            UserWarning,
        )
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
        mean=mean,
        confidence_interval=(float(low), float(high)),
        standard_error=float(result.standard_error),
        n_queries=n,
    )


def _standard_error(values: np.ndarray, weight: np.ndarray | None, mean: float) -> float:
    """Standard error of the (weighted) mean: the weighted one is ``n / (n - 1)`` corrected."""
    n = values.shape[0]
    if np.ptp(values) == 0:
        return 0.0
    if weight is None:
        return float(np.std(values, ddof=1) / np.sqrt(n))
    p = weight / weight.sum()
    return float(np.sqrt(np.sum(p**2 * (values - mean) ** 2) * n / (n - 1)))
