"""prediction_powered_mean and prediction_powered_difference: mean NDCG from model
labels on every query, corrected by human labels on a random subset."""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Real

import numpy as np
from scipy import stats

from .._metrics import QueryScores
from .._validate_params import Interval, validate_params
from .._warn import warn
from . import _inputs
from ._estimate import estimate_and_error, tuned_lambda
from ._ppi_results import PredictionPoweredComparison, PredictionPoweredResult

_CONFIDENCE_LEVEL = Interval(Real, 0, 1, closed="neither")
# checked by _inputs.query_values, whose message says what to give (scikit-learn's
# check of the constraints would build a default instance of the first type)
_VALUES = "no_validation"
# As paired_test: below 30 labelled queries an interval is too unsure of its own width
# to show two rankers within a margin (benchmarks/bench_calibration.py, for the t test).
MIN_EQUIVALENCE_QUERIES = 30
# Below these counts the 95 % interval covers the truth less than 0.93 of the time
# (benchmarks/bench_ppi_small_samples.py, 1,000 replicates a cell, Monte Carlo standard
# errors 0.007-0.016). Human-labelled: PPI++ 0.80-0.82 at 10, 0.84-0.89 at 20, 0.89-0.92
# at 50, 0.92-0.94 at 100 (for any number of model-only queries). Model-only: the
# variance of their mean comes from those values alone; plain PPI with 100 human-labelled
# queries covers 0.15 with 1, 0.63 with 2, 0.84 with 5, 0.92 with 10, 0.945 with 100.
# The difference of two rankers on the same queries: PPI++ 0.88-0.92 at 10, 0.92-0.94
# at 20-30, 0.935-0.954 at 50.
MIN_LABELLED = 100
MIN_LABELLED_DIFFERENCE = 50
MIN_UNLABELLED = 100


def _warn_few(n_labelled: int, n_unlabelled: int, minimum: int = MIN_LABELLED) -> None:
    """The warning of an interval that covers less than its level on so few queries."""
    if n_labelled < minimum:
        warn(
            f"too few human-labelled queries: {n_labelled}; below {minimum} the "
            "prediction-powered interval covers the truth less often than its level (in a "
            "simulation, benchmarks/bench_ppi_small_samples.py, 95 % intervals of a mean "
            "covered about 0.80 at 10, 0.86 at 20, 0.90 at 50). Label more queries by hand.",
            UserWarning,
        )
    if n_unlabelled < MIN_UNLABELLED:
        warn(
            f"too few model-only queries: {n_unlabelled}; below {MIN_UNLABELLED} the "
            "variance of their mean is estimated from too few values and the interval is "
            "too narrow (benchmarks/bench_ppi_small_samples.py). Give the model's values "
            "of more queries that people did not label.",
            UserWarning,
        )


def _inference(y, yhat, yhat_unlabelled, *, power_tuning: bool):
    lam = tuned_lambda(y, yhat, yhat_unlabelled) if power_tuning else 1.0
    estimate, error = estimate_and_error(y, yhat, yhat_unlabelled, lam)
    return estimate, error, lam


def _interval(estimate: float, error: float, level: float) -> tuple[float, float]:
    z = stats.norm.ppf(0.5 + level / 2)
    return float(estimate - z * error), float(estimate + z * error)


@validate_params(
    {
        "model_scores": _VALUES,
        "human_scores": _VALUES,
        "confidence_level": [_CONFIDENCE_LEVEL],
        "power_tuning": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def prediction_powered_mean(
    model_scores: QueryScores | tuple | Mapping,
    human_scores: QueryScores | tuple | Mapping,
    *,
    confidence_level: float = 0.95,
    power_tuning: bool = True,
) -> PredictionPoweredResult:
    """Mean NDCG from model labels on every query and human labels on a random subset.

    Relevance labels from a language model (or any cheap labeller) are available for
    every query but biased; human labels are unbiased but few. Prediction-powered
    inference (PPI) takes the mean of the model-labelled values and corrects it by the
    mean error of the model on the human-labelled queries: the estimate is unbiased for
    the human-label mean, and its interval is valid however wrong the model is, and
    narrower than the human-only interval where the model's values follow the human
    ones.

    Read more in the :ref:`User Guide <judgments>`.

    Parameters
    ----------
    model_scores : QueryScores, tuple or mapping
        Per-query values (e.g. NDCG) under the model's labels for every query: a
        :class:`QueryScores` from :func:`query_scores`, a pair ``(qid, values)`` of
        array-likes of shape (n_queries,) (a query id and a value per query), or a
        mapping from query id to value. Queries are matched by id.
    human_scores : QueryScores, tuple or mapping
        Per-query values under human labels for a random subset of those queries (at
        least 2, and not all of them), drawn independently of the values: a simple
        random sample of the queries.
    confidence_level : float in (0, 1), default=0.95
        Level of the two-sided confidence interval.
    power_tuning : bool, default=True
        Weigh the model's values by the variance-minimising ``lambda_`` in [0, 1]
        (PPI++): never wider, asymptotically, than both the human-only interval
        (``lambda_ = 0``) and classical PPI (``lambda_ = 1``). False: classical PPI.

    Returns
    -------
    result : PredictionPoweredResult
        Named tuple ``(estimate, confidence_interval, standard_error, lambda_,
        n_labelled, n_unlabelled, confidence_level)``.

    See Also
    --------
    prediction_powered_difference : The same for the difference of two rankers.
    bootstrap_ci : The interval of a mean from human labels alone.

    Notes
    -----
    With ``n`` labelled queries (human values ``y``, model values ``f`` on the same
    queries) and ``N`` unlabelled ones (model values ``g``), the estimate is
    ``lambda_ * mean(g) + mean(y - lambda_ * f)``, and its standard error
    ``sqrt(var(lambda_ * g) / N + var(y - lambda_ * f) / n)`` (variances over ``n``
    and ``N``); the interval uses the normal quantile. The unlabelled set is the queries
    of ``model_scores`` that ``human_scores`` lacks, so that the two parts are
    independent and their variances add; the model-labelled values of the
    human-labelled queries enter the correction only. Power tuning takes
    ``lambda_ = cov(y, f) / ((1 + n / N) var(f and g))``, clipped to [0, 1], where
    ``var`` is the sample variance of all the model's values (0 when they are all
    equal). These are the formulas of ``ppi_py.ppi_mean_ci`` (the reference library of
    the PPI authors) called with ``Y=y, Yhat=f, Yhat_unlabeled=g``; the tests compare
    the two to 1e-12.

    The interval is asymptotic: it covers the truth 93-97 % of the time in the
    simulation of ``benchmarks/bench_prediction_powered.py`` (100 human-labelled
    queries of 2,000), where the interval of the model-labelled values alone
    covers it almost never. With fewer human-labelled queries it covers less (about
    0.86 at 20, 0.90 at 50), and the functions warn below 100 human-labelled and below
    100 model-only queries (``benchmarks/bench_ppi_small_samples.py``).

    References
    ----------
    Angelopoulos, A. N., Bates, S., Fannjiang, C., Jordan, M. I., & Zrnic, T. (2023).
    Prediction-powered inference. Science, 382(6671), 669-674.

    Angelopoulos, A. N., Duchi, J. C., & Zrnic, T. (2023). PPI++: Efficient
    prediction-powered inference. arXiv:2311.01453.

    Oosterhuis, H., Jagerman, R., Qin, Z., Wang, X., & Bendersky, M. (2024). Reliable
    confidence intervals for information retrieval evaluation using generative A.I.
    arXiv:2407.02464.

    Examples
    --------
    >>> from sklearn_ndcg import prediction_powered_mean
    >>> model = {"q1": 0.9, "q2": 0.8, "q3": 0.7, "q4": 0.95, "q5": 0.6, "q6": 0.85,
    ...          "q7": 0.75, "q8": 0.9}
    >>> human = {"q1": 0.8, "q3": 0.55, "q5": 0.5, "q7": 0.7}
    >>> result = prediction_powered_mean(model, human, power_tuning=False)
    >>> round(result.estimate, 4), [round(x, 4) for x in result.confidence_interval]
    (0.775, [0.7102, 0.8398])

    The model's mean on the four other queries, 0.875, less its mean excess on the
    four human-labelled ones, (0.1 + 0.15 + 0.1 + 0.05) / 4 = 0.1. The model's values
    follow the human ones loosely here, so power tuning weighs them less:

    >>> result = prediction_powered_mean(model, human)
    >>> round(result.lambda_, 4), round(result.estimate, 4), result.n_unlabelled
    (0.4445, 0.6986, 4)

    The same values as pairs ``(qid, values)`` of arrays:

    >>> model_pair = (list(model), list(model.values()))
    >>> human_pair = (["q1", "q3", "q5", "q7"], [0.8, 0.55, 0.5, 0.7])
    >>> round(prediction_powered_mean(model_pair, human_pair).estimate, 4)
    0.6986
    """
    y, yhat, yhat_unlabelled = _inputs.split(
        model_scores, human_scores, ("model_scores", "human_scores")
    )
    _warn_few(y.shape[0], yhat_unlabelled.shape[0])
    estimate, error, lam = _inference(y, yhat, yhat_unlabelled, power_tuning=power_tuning)
    return PredictionPoweredResult(
        estimate=estimate,
        confidence_interval=_interval(estimate, error, confidence_level),
        standard_error=error,
        lambda_=lam,
        n_labelled=int(y.shape[0]),
        n_unlabelled=int(yhat_unlabelled.shape[0]),
        confidence_level=float(confidence_level),
    )


def _verdict(estimate, error, pvalue, *, confidence_level, margin, n_labelled):
    """TOST on the ``1 - 2 alpha`` interval first, then a difference by its sign."""
    alpha = 1 - confidence_level
    equivalence = _interval(estimate, error, 1 - 2 * alpha)
    inside = -margin < equivalence[0] and equivalence[1] < margin
    if inside and n_labelled < MIN_EQUIVALENCE_QUERIES:
        warn(
            f"too few queries: {n_labelled} human-labelled queries cannot show a and b "
            f"equivalent (fewer than {MIN_EQUIVALENCE_QUERIES}, as for paired_test); the "
            "equivalence interval is (-inf, inf) and the verdict cannot be 'equivalent'.",
            UserWarning,
        )
        equivalence, inside = (-np.inf, np.inf), False
    if inside:
        return "equivalent", equivalence
    if pvalue < alpha:
        return ("better" if estimate > 0 else "worse"), equivalence
    return "inconclusive", equivalence


@validate_params(
    {
        "model_a": _VALUES,
        "model_b": _VALUES,
        "human_a": _VALUES,
        "human_b": _VALUES,
        "confidence_level": [_CONFIDENCE_LEVEL],
        "power_tuning": ["boolean"],
        "margin": [Interval(Real, 0, None, closed="neither"), None],
    },
    prefer_skip_nested_validation=True,
)
def prediction_powered_difference(
    model_a: QueryScores | tuple | Mapping,
    model_b: QueryScores | tuple | Mapping,
    human_a: QueryScores | tuple | Mapping,
    human_b: QueryScores | tuple | Mapping,
    *,
    confidence_level: float = 0.95,
    power_tuning: bool = True,
    margin: float | None = None,
) -> PredictionPoweredComparison:
    """Compare two rankers from model labels on every query and human labels on a subset.

    The prediction-powered mean of the per-query differences ``a - b``: both rankers
    are evaluated on the same queries, so the difference is taken query by query (as
    in :func:`paired_test`), which removes the variation between easy and hard
    queries. Named for what it estimates, the difference of the two mean NDCGs, as
    :func:`prediction_powered_mean` is; with a ``margin`` it gives the verdicts of
    :func:`compare_models`. A model that labels relevance can favour one ranker (a
    language model judging the output of a similar language model); the human
    sample corrects that bias too.

    Read more in the :ref:`User Guide <judgments>`.

    Parameters
    ----------
    model_a, model_b : QueryScores, tuple or mapping
        Per-query values of rankers ``a`` and ``b`` under the model's labels, for
        every query (the same queries for both): :class:`QueryScores` from
        :func:`query_scores`, pairs ``(qid, values)`` of array-likes or mappings from
        query id to value, as in :func:`prediction_powered_mean`.
    human_a, human_b : QueryScores, tuple or mapping
        Per-query values of rankers ``a`` and ``b`` under human labels, for the same
        random subset of the queries (at least 2, and not all of them).
    confidence_level : float in (0, 1), default=0.95
        Level of the two-sided confidence interval of the mean difference.
    power_tuning : bool, default=True
        Weigh the model's differences by the variance-minimising ``lambda_`` in
        [0, 1] (PPI++); False: classical PPI; see :func:`prediction_powered_mean`.
    margin : float > 0, default=None
        The equivalence margin δ: differences of mean NDCG smaller than δ do not
        matter (e.g. 0.01). With a margin the result gets a ``verdict`` for ``a``
        relative to ``b``, at the level ``alpha = 1 - confidence_level``:

        - "equivalent": the two one-sided tests (TOST) reject, i.e. the
          ``1 - 2 * alpha`` prediction-powered interval of the mean difference lies
          inside ``(-margin, margin)``, on at least 30 human-labelled queries (below
          30 the verdict cannot be "equivalent", with a warning, as in
          :func:`paired_test`);
        - otherwise "better" or "worse": the z-test rejects ``a - b = 0`` at
          ``alpha``, by the sign of the estimate;
        - otherwise "inconclusive".

        None: no verdict.

    Returns
    -------
    result : PredictionPoweredComparison
        Named tuple ``(estimate, confidence_interval, standard_error, lambda_,
        n_labelled, n_unlabelled, confidence_level, pvalue, margin, verdict,
        equivalence_interval)``.

    See Also
    --------
    prediction_powered_mean : The prediction-powered mean of one ranker.
    paired_test : The paired test from human labels alone.
    compare_models : Several models against the best one, with the same verdicts.

    Notes
    -----
    The differences ``a - b`` under model labels and under human labels go through
    :func:`prediction_powered_mean`'s formulas (those of ``ppi_py.ppi_mean_ci`` on
    the differences); the p-value is that of the z statistic ``estimate /
    standard_error`` (``ppi_py.ppi_mean_pval``).

    References
    ----------
    Angelopoulos, A. N., Duchi, J. C., & Zrnic, T. (2023). PPI++: Efficient
    prediction-powered inference. arXiv:2311.01453.

    Oosterhuis, H., Jagerman, R., Qin, Z., Wang, X., & Bendersky, M. (2024). Reliable
    confidence intervals for information retrieval evaluation using generative A.I.
    arXiv:2407.02464.

    Examples
    --------
    >>> from sklearn_ndcg import prediction_powered_difference
    >>> model_a = {"q1": 0.9, "q2": 0.8, "q3": 0.7, "q4": 0.95, "q5": 0.6, "q6": 0.85}
    >>> model_b = {"q1": 0.8, "q2": 0.8, "q3": 0.6, "q4": 0.9, "q5": 0.65, "q6": 0.7}
    >>> human_a = {"q1": 0.85, "q3": 0.6, "q5": 0.55}
    >>> human_b = {"q1": 0.8, "q3": 0.5, "q5": 0.55}
    >>> result = prediction_powered_difference(model_a, model_b, human_a, human_b,
    ...                                        power_tuning=False)
    >>> round(result.estimate, 4), [round(x, 4) for x in result.confidence_interval]
    (0.0667, [-0.0177, 0.151])

    The model's mean difference on the three queries without human labels is
    (0 + 0.05 + 0.15) / 3; its errors on the other three, -0.05, 0 and 0.05, cancel.
    With power tuning and a margin of 0.01, ``a`` is better (a toy: real comparisons
    need far more than 3 human-labelled queries):

    >>> result = prediction_powered_difference(model_a, model_b, human_a, human_b,
    ...                                        margin=0.01)
    >>> result.verdict, round(result.pvalue, 4)
    ('better', 0.003)
    """
    y, yhat, yhat_unlabelled = _inputs.paired_split(
        model_a, model_b, human_a, human_b, ("model_a", "model_b", "human_a", "human_b")
    )
    _warn_few(y.shape[0], yhat_unlabelled.shape[0], MIN_LABELLED_DIFFERENCE)
    estimate, error, lam = _inference(y, yhat, yhat_unlabelled, power_tuning=power_tuning)
    if error > 0:
        pvalue = float(2 * stats.norm.sf(abs(estimate) / error))
    else:
        pvalue = 1.0 if estimate == 0 else 0.0
    verdict = equivalence = None
    if margin is not None:
        verdict, equivalence = _verdict(
            estimate,
            error,
            pvalue,
            confidence_level=confidence_level,
            margin=margin,
            n_labelled=y.shape[0],
        )
    return PredictionPoweredComparison(
        estimate=estimate,
        confidence_interval=_interval(estimate, error, confidence_level),
        standard_error=error,
        lambda_=lam,
        n_labelled=int(y.shape[0]),
        n_unlabelled=int(yhat_unlabelled.shape[0]),
        confidence_level=float(confidence_level),
        pvalue=pvalue,
        margin=None if margin is None else float(margin),
        verdict=verdict,
        equivalence_interval=equivalence,
    )
