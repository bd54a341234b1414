"""Planning a test collection: how many queries a comparison needs, and how reliable it is."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from numbers import Real

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from .._metrics import QueryScores
from .._validate_params import Integers, Interval, validate_params
from .._warn import warn
from ._compare import _aligned_matrix
from ._pairwise import two_way_anova
from ._power import planning_sd_upper_bound, smallest_effect, smallest_n_queries
from ._query_values import _paired_values, _rounding_tolerance

_PROBABILITY = Interval(Real, 0, 1, closed="neither")
_MAX_QUERIES = 10**7


def _differences(a, b) -> np.ndarray:
    a, b, weight = _paired_values(a, b)
    if weight is not None and np.ptp(weight) > 0:
        raise ValueError(
            "a and b weigh their queries unequally; the paired t-test plans an unweighted "
            "mean: give arrays or QueryScores with equal weights."
        )
    d = a - b
    sd = float(np.std(d, ddof=1))
    if not sd > _rounding_tolerance(a, b):  # differences equal up to rounding: no variance
        raise ValueError(
            "the per-query differences of a and b have no variance in the pilot; their "
            "standard deviation is what sets the number of queries: use a pilot whose "
            "models differ on some queries."
        )
    return d


def _planning_sd(a, b, assurance: float | None) -> float:
    """The standard deviation to plan with: the pilot's, or its upper confidence bound at
    level ``assurance``."""
    d = _differences(a, b)
    if assurance is None:
        return float(np.std(d, ddof=1))
    return planning_sd_upper_bound(d, assurance)


class _Default(float):
    """A default value told apart from the same value given on purpose (to warn only
    when a deprecated parameter is given)."""


_ALPHA = _Default(0.05)
_CONFIDENCE = _Default(0.95)


def _upper_quantile(alpha: float, confidence_level: float, caller: str) -> float:
    """``1 - alpha / 2``, the quantile of the two-sided test at ``confidence_level`` or (given,
    deprecated) ``alpha``; computed from the spelling given, as before each existed."""
    if alpha is _ALPHA:
        return (1 + confidence_level) / 2
    if confidence_level is not _CONFIDENCE:
        raise ValueError(
            f"alpha={alpha!r} and confidence_level={confidence_level!r} both set the level of "
            "the test; give confidence_level only (alpha is its deprecated spelling, "
            "1 - confidence_level)."
        )
    warn(
        f"{caller}(alpha=...) is now {caller}(confidence_level=1 - alpha), the spelling of "
        "every other test of the package; alpha will be removed in 0.4.",
        FutureWarning,
    )
    return 1 - alpha / 2


@validate_params(
    {
        "a": ["array-like"],
        "b": ["array-like"],
        "delta": [Interval(Real, 0, None, closed="neither")],
        "power": [_PROBABILITY],
        "alpha": [_PROBABILITY],
        "confidence_level": [_PROBABILITY],
        "assurance": [_PROBABILITY, None],
    },
    prefer_skip_nested_validation=True,
)
def required_queries(
    a: ArrayLike | QueryScores,
    b: ArrayLike | QueryScores,
    *,
    delta: float,
    power: float = 0.8,
    alpha: float = _ALPHA,
    confidence_level: float = _CONFIDENCE,
    assurance: float | None = None,
) -> int:
    """Number of queries a paired t-test needs to detect a mean NDCG difference ``delta``.

    Topic-set-size design (Sakai 2016) from a pilot: the standard deviation
    of the per-query differences of two models on the pilot queries sets how
    many queries the two-sided paired t-test needs to reject equality at
    level ``1 - confidence_level`` with probability ``power`` when the true mean difference
    is ``delta``.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    a, b : array-like of shape (n_queries,) or QueryScores
        Per-query values of two models on the pilot queries; see :func:`paired_test`.
    delta : float > 0
        The smallest mean difference of NDCG worth detecting (e.g. 0.02).
    power : float in (0, 1), default=0.8
        Probability of detecting a true difference of ``delta``.
    alpha : float in (0, 1), default=0.05
        Deprecated: the significance level, ``1 - confidence_level``; it warns,
        and will be removed in 0.4.
    confidence_level : float in (0, 1), default=0.95
        One minus the significance level of the two-sided test.
    assurance : float in (0, 1), default=None
        Plan with the pilot's uncertainty: the standard deviation planned
        with is a one-sided upper confidence bound, at level ``assurance``,
        of the pilot's, so that the planned study reaches ``power`` with
        probability ``assurance`` over pilots: the larger of the chi-square
        bound (one degree of freedom less than the pilot has queries; Browne
        1995, Julious 2004), exact for normal differences, and Bonett's (2006)
        bound, which widens with the pilot's kurtosis (from 5 pilot queries).
        That promise holds for normal differences (0.81-0.82 of plans reach
        the power at ``assurance=0.8``) and nearly on skewed, tied NDCG
        differences (0.78-0.80; the chi-square bound alone 0.74); with heavy
        tails (near-identical models) a pilot of 10-50 queries usually misses
        the rare large differences and only 0.54-0.58 do: plan from a larger
        pilot there (``benchmarks/bench_assurance.py``). None plans with the
        pilot's standard deviation itself, which a small pilot underestimates
        about half of the time.

    Returns
    -------
    n_queries : int
        The smallest number of queries (at least 2) with that power; the power
        is computed exactly from the noncentral t distribution (an integral
        over the normal density that holds at every effect size). When
        ``power`` is at most ``1 - confidence_level``, 2.

    See Also
    --------
    detectable_difference : The inverse: the difference a number of queries detects.
    generalizability_study : How reliable a comparison of several models is.

    References
    ----------
    Sakai, T. (2016). Topic set size design. Information Retrieval Journal 19(3).

    Browne, R. H. (1995). On the use of a pilot sample for sample size
    determination. Statistics in Medicine 14(17), 1933-1940.

    Julious, S. A. (2004). Sample sizes for clinical trials with normal data.
    Statistics in Medicine 23(12), 1921-1986.

    Bonett, D. G. (2006). Approximate confidence interval for standard deviation
    of nonnormal distributions. Computational Statistics & Data Analysis 50(3),
    775-782.

    Examples
    --------
    >>> from sklearn_ndcg import required_queries
    >>> a = [0.62, 0.71, 0.55, 0.80, 0.47, 0.66, 0.73, 0.58, 0.69, 0.61]
    >>> b = [0.60, 0.65, 0.57, 0.74, 0.45, 0.61, 0.70, 0.59, 0.62, 0.60]

    The differences of this pilot have a standard deviation of 0.031; to
    detect a difference of 0.01 with power 0.8 takes 76 queries, and one of
    0.02 takes 21:

    >>> required_queries(a, b, delta=0.01), required_queries(a, b, delta=0.02)
    (76, 21)

    Ten queries estimate that standard deviation loosely: a study planned
    with it reaches the power asked only about half of the time. With
    ``assurance=0.8`` the plan uses the 80 % upper confidence bound of the
    standard deviation (0.040, 1.29 times the pilot's), and takes 126 and 33
    queries, enough for power 0.8 in four studies out of five:

    >>> required_queries(a, b, delta=0.01, assurance=0.8)
    126
    >>> required_queries(a, b, delta=0.02, assurance=0.8)
    33
    """
    sd = _planning_sd(a, b, assurance)
    effect = delta / sd
    upper = _upper_quantile(alpha, confidence_level, "required_queries")
    # the normal approximation: beyond the largest number of queries, refuse before searching
    approx = ((stats.norm.ppf(upper) + stats.norm.ppf(power)) / effect) ** 2
    n = (
        None
        if approx - 2 > _MAX_QUERIES
        else smallest_n_queries(effect, power, upper, _MAX_QUERIES)
    )
    if n is None:
        raise ValueError(
            f"delta={delta!r} is {effect:.3g} standard deviations of the pilot's differences; "
            f"detecting it would take more than {_MAX_QUERIES} queries. Give a larger delta."
        )
    return n


@validate_params(
    {
        "a": ["array-like"],
        "b": ["array-like"],
        "n_queries": [Integers(2)],
        "power": [_PROBABILITY],
        "alpha": [_PROBABILITY],
        "confidence_level": [_PROBABILITY],
        "assurance": [_PROBABILITY, None],
    },
    prefer_skip_nested_validation=True,
)
def detectable_difference(
    a: ArrayLike | QueryScores,
    b: ArrayLike | QueryScores,
    *,
    n_queries: int,
    power: float = 0.8,
    alpha: float = _ALPHA,
    confidence_level: float = _CONFIDENCE,
    assurance: float | None = None,
) -> float:
    """The mean NDCG difference a paired t-test on ``n_queries`` queries detects.

    The inverse of :func:`required_queries`: the true mean difference that
    the two-sided paired t-test on ``n_queries`` queries detects at level
    ``1 - confidence_level`` with probability ``power``, the standard deviation of the
    per-query differences taken from the pilot ``a``, ``b``.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    a, b : array-like of shape (n_queries,) or QueryScores
        Per-query values of two models on the pilot queries; see :func:`paired_test`.
    n_queries : int >= 2
        The number of queries of the planned test collection.
    power : float in (0, 1), default=0.8
        Probability of detecting the difference.
    alpha : float in (0, 1), default=0.05
        Deprecated: the significance level, ``1 - confidence_level``; it warns,
        and will be removed in 0.4.
    confidence_level : float in (0, 1), default=0.95
        One minus the significance level of the two-sided test.
    assurance : float in (0, 1), default=None
        Plan with the pilot's uncertainty: the standard deviation planned
        with is a one-sided upper confidence bound, at level ``assurance``,
        of the pilot's, so that the planned study reaches ``power`` with
        probability ``assurance`` over pilots: the larger of the chi-square
        bound (one degree of freedom less than the pilot has queries; Browne
        1995, Julious 2004), exact for normal differences, and Bonett's (2006)
        bound, which widens with the pilot's kurtosis (from 5 pilot queries).
        That promise holds for normal differences (0.81-0.82 of plans reach
        the power at ``assurance=0.8``) and nearly on skewed, tied NDCG
        differences (0.78-0.80; the chi-square bound alone 0.74); with heavy
        tails (near-identical models) a pilot of 10-50 queries usually misses
        the rare large differences and only 0.54-0.58 do: plan from a larger
        pilot there (``benchmarks/bench_assurance.py``). None plans with the
        pilot's standard deviation itself, which a small pilot underestimates
        about half of the time.

    Returns
    -------
    delta : float
        The smallest detectable mean difference, in units of NDCG; 0 when
        ``power`` is at most ``1 - confidence_level``, the probability that the
        test rejects when the models do not differ at all.

    See Also
    --------
    required_queries : The number of queries for a given difference.

    Examples
    --------
    >>> from sklearn_ndcg import detectable_difference
    >>> a = [0.62, 0.71, 0.55, 0.80, 0.47, 0.66, 0.73, 0.58, 0.69, 0.61]
    >>> b = [0.60, 0.65, 0.57, 0.74, 0.45, 0.61, 0.70, 0.59, 0.62, 0.60]

    50 queries detect a difference of 0.0124 NDCG with power 0.8:

    >>> round(detectable_difference(a, b, n_queries=50), 4)
    0.0124

    Planned with the pilot's uncertainty, an assurance of 0.8 that 50
    queries detect the difference with power 0.8 holds for differences of
    0.0161 and more:

    >>> round(detectable_difference(a, b, n_queries=50, assurance=0.8), 4)
    0.0161
    """
    sd = _planning_sd(a, b, assurance)
    upper = _upper_quantile(alpha, confidence_level, "detectable_difference")
    effect = smallest_effect(n_queries, power, upper)
    if effect is None:
        raise ValueError(
            f"power={power!r} is not reached by any difference on n_queries={n_queries} "
            f"queries at that confidence_level: the power of the t-test rounds to 1 first. "
            "Ask a smaller power."
        )
    return float(effect * sd)


@dataclass(frozen=True)
class GeneralizabilityStudy:
    """Result of :func:`generalizability_study`: variance components of model, query, residual.

    Attributes
    ----------
    model_variance : float
        σ²(s): variance of the models' true mean NDCG (0 when estimated negative).
    query_variance : float
        σ²(q): variance of the queries' difficulty (0 when estimated negative).
    residual_variance : float
        σ²(e): the model x query interaction, confounded with error.
    n_models : int
        Number of models of the study.
    n_queries : int
        Number of queries of the study.
    mean_squares : dict of str to float
        The two-way ANOVA: ``ms_model``, ``ms_query``, ``ms_residual`` and
        ``df_residual``.
    """

    model_variance: float
    query_variance: float
    residual_variance: float
    n_models: int
    n_queries: int
    mean_squares: dict

    def e_rho2(self, n_queries: int | ArrayLike) -> float | np.ndarray:
        """Generalizability coefficient Eρ² of a collection of ``n_queries`` queries.

        ``σ²(s) / (σ²(s) + σ²(e) / n_queries)``: how stable the *ranking* of
        the models (relative differences) is over samples of that many queries.

        Parameters
        ----------
        n_queries : int or array-like of int
            Number of queries of the (planned) collection.

        Returns
        -------
        e_rho2 : float or ndarray
            Between 0 and 1 (NaN when every component is 0).
        """
        n = np.asarray(n_queries, dtype=np.float64)
        with np.errstate(invalid="ignore", divide="ignore"):
            value = self.model_variance / (self.model_variance + self.residual_variance / n)
        return float(value) if value.ndim == 0 else value

    def phi(self, n_queries: int | ArrayLike) -> float | np.ndarray:
        """Dependability index Φ of a collection of ``n_queries`` queries.

        ``σ²(s) / (σ²(s) + (σ²(q) + σ²(e)) / n_queries)``: how stable the
        *absolute* scores of the models are over samples of that many queries.

        Parameters
        ----------
        n_queries : int or array-like of int
            Number of queries of the (planned) collection.

        Returns
        -------
        phi : float or ndarray
            Between 0 and 1 (NaN when every component is 0).
        """
        n = np.asarray(n_queries, dtype=np.float64)
        error = (self.query_variance + self.residual_variance) / n
        with np.errstate(invalid="ignore", divide="ignore"):
            value = self.model_variance / (self.model_variance + error)
        return float(value) if value.ndim == 0 else value

    def queries_for(self, e_rho2: float = 0.95) -> int:
        """The smallest number of queries whose Eρ² reaches ``e_rho2``.

        Parameters
        ----------
        e_rho2 : float in (0, 1), default=0.95
            The target generalizability coefficient.

        Returns
        -------
        n_queries : int
            ``ceil(e_rho2 / (1 - e_rho2) * σ²(e) / σ²(s))``, at least 1.
        """
        if not 0 < e_rho2 < 1:
            raise ValueError(f"e_rho2 must be in (0, 1); got {e_rho2!r}.")
        if self.model_variance <= 0:
            raise ValueError(
                "the study estimates no variance between the models (σ²(s) = 0): no number "
                "of queries tells them apart."
            )
        ratio = e_rho2 / (1 - e_rho2) * self.residual_variance / self.model_variance
        return max(1, int(np.ceil(ratio - 1e-9)))


@validate_params({"scores": [dict]}, prefer_skip_nested_validation=True)
def generalizability_study(
    scores: dict[Hashable, ArrayLike | QueryScores],
) -> GeneralizabilityStudy:
    """Variance components of NDCG for models and queries: a G-study of a test collection.

    Fits the two-way ANOVA without replication (models x queries) to the
    per-query values of several models and estimates the variance of the
    models (σ²(s)), of the queries (σ²(q)) and of their interaction with
    error (σ²(e)) from the expected mean squares; negative estimates are set
    to 0. The result's :meth:`~GeneralizabilityStudy.e_rho2` and
    :meth:`~GeneralizabilityStudy.phi` say how reliable an evaluation on any
    number of queries would be (a D-study).

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    scores : dict
        ``{name: per-query values}`` of at least 2 models on the same queries
        (at least 2): arrays paired by position or :class:`QueryScores`
        paired by query id. Queries where any model is NaN are left out.

    Returns
    -------
    study : GeneralizabilityStudy
        The variance components, with ``e_rho2(n)``, ``phi(n)`` and
        ``queries_for(e_rho2)``.

    See Also
    --------
    required_queries : Queries needed to detect a difference between two models.

    References
    ----------
    Brennan, R. L. (2001). Generalizability Theory. Springer.

    Urbano, J., Marrero, M., & Martín, D. (2013). On the measurement of test
    collection reliability. SIGIR.

    Bodoff, D., & Li, P. (2007). Test theory for assessing IR test collections. SIGIR.

    Examples
    --------
    >>> from sklearn_ndcg import generalizability_study
    >>> scores = {
    ...     "bm25": [0.42, 0.55, 0.31, 0.60, 0.48, 0.39],
    ...     "ltr": [0.50, 0.61, 0.37, 0.70, 0.52, 0.47],
    ...     "dense": [0.47, 0.63, 0.30, 0.66, 0.55, 0.41],
    ... }
    >>> study = generalizability_study(scores)
    >>> round(study.model_variance, 5), round(study.residual_variance, 5)
    (0.00117, 0.00055)

    On these 6 queries the ranking of the models is fairly stable (Eρ² 0.93),
    but their absolute scores are not (Φ 0.33: the queries' difficulty varies
    much more than the models); Eρ² 0.95 would take 9 queries:

    >>> round(study.e_rho2(6), 3), round(study.phi(6), 3), study.queries_for(0.95)
    (0.927, 0.327, 9)
    """
    if len(scores) < 2:
        raise ValueError(f"scores holds {len(scores)} model(s); a G-study needs at least 2 models.")
    matrix = _aligned_matrix(scores, list(scores))
    n, m = matrix.shape
    anova = two_way_anova(matrix)
    residual = anova["ms_residual"]
    return GeneralizabilityStudy(
        model_variance=max(0.0, (anova["ms_model"] - residual) / n),
        query_variance=max(0.0, (anova["ms_query"] - residual) / m),
        residual_variance=residual,
        n_models=m,
        n_queries=n,
        mean_squares=anova,
    )
