"""compare_models: several models against a reference or in all pairs, with corrections
for multiple comparisons."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._metrics import QueryScores
from .._validate_params import StrOptions, validate_params
from .._warn import warn
from . import _table
from ._bootstrap import _bootstrap_ci
from ._corrections import CORRECTIONS, _adjust
from ._methods import PAIRED_METHODS, _effect_size
from ._model_comparison import ModelComparison
from ._paired import MARGIN, PAIRED_PARAMS, _paired_test
from ._pairwise import (
    PAIRWISE_METHODS,
    PairwiseComparison,
    equivalence_intervals,
    pair_differences,
    pairs_of,
    randomized_tukey,
    tukey_hsd,
)
from ._query_values import _as_query_values, _paired_values, _seeds, _uniform
from ._strata import stratum_labels, subsets


@validate_params(
    dict(
        PAIRED_PARAMS,
        scores=[dict],
        baseline="no_validation",
        reference="no_validation",
        method=[StrOptions(set(PAIRED_METHODS) | set(PAIRWISE_METHODS))],
        correction=[StrOptions(set(CORRECTIONS)), None],
        margin=MARGIN,
        pairs=[StrOptions({"reference", "all"})],
        strata=["array-like", dict, None],
    ),
    prefer_skip_nested_validation=True,
)
def compare_models(
    # Mapping: covariant in its values, so that dict[str, np.ndarray] fits (a dict at run time)
    scores: Mapping[Any, ArrayLike | QueryScores],
    *,
    baseline: Hashable | None = None,
    method: str = "randomization",
    correction: str | None = "holm",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    margin: float | None = None,
    pairs: str = "reference",
    strata: ArrayLike | dict | None = None,
    random_state: int | np.random.Generator | None = None,
    reference: Hashable | None = None,
) -> ModelComparison:
    """Compare several models with the best one (or a reference, or each other), query by query.

    Each model is compared with the reference model by :func:`paired_test`,
    and the p-values are adjusted for the number of comparisons: of every pair
    of models when the reference is the best, chosen by the same queries (the
    largest of several noisy means leads each other model by the largest of
    several differences, so correcting for the ``k - 1`` comparisons with it
    alone would call equal models worse too often); of the ``k - 1``
    comparisons with a fixed ``reference``. A model
    whose adjusted p-value is at least ``alpha = 1 - confidence_level`` is
    *not shown different* from the reference: the queries do not show a
    difference, which is not the same as showing the models to be as good.
    With a ``margin`` each model gets a verdict: "equivalent" (shown within
    the margin), "better", "worse" or "inconclusive".

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    scores : dict
        ``{name: per-query values}`` of at least 2 models: arrays of shape
        (n_queries,) paired by position, or :class:`QueryScores` paired by
        query id; see :func:`paired_test`.
    baseline : key of scores, default=None
        Deprecated spelling of ``reference`` (the result's attribute has always
        been ``reference``); it warns, and will be removed in 0.4.
    method : {"randomization", "t", "wilcoxon", "bootstrap", "tukey", \
            "randomized_tukey"}, default="randomization"
        The paired test (see :func:`paired_test`), or with ``pairs="all"`` a
        procedure over all pairs that is blocked by query:

        - "tukey": Tukey's HSD on the two-way (model x query) ANOVA: the
          studentized range of each mean difference over
          ``sqrt(MS_residual / n_queries)``, with ``(n_models, (n_queries - 1)
          (n_models - 1))`` degrees of freedom
          (:data:`scipy.stats.studentized_range`).
        - "randomized_tukey": the randomized Tukey HSD (Carterette 2012):
          the models' values are permuted within each query, and a pair's
          p-value is the share of permutations whose range of model means
          reaches the pair's difference.

        Both control the family-wise error over all pairs (``correction`` is
        not applied to them), and need the same queries in every model with
        equal weights. NaN is handled per pair: a query where one model is
        NaN leaves that model's pairs only (Tukey's HSD estimates its
        residual variance on the queries that every model defines). When
        every pair's differences are constant up to rounding, both are
        undefined: they warn, and each pair gets the p-value of the exact
        randomization test of its queries (``2 / 2**n``) times the number of
        pairs, as :func:`paired_test` does for the t-test.
    correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
        Adjustment of the p-values of the paired tests for the number of
        comparisons: of all ``k (k - 1) / 2`` pairs with ``pairs="all"`` or
        when the reference is the best (``reference=None``), which makes the
        comparisons with it selection-aware; of the ``k - 1`` comparisons with
        a fixed ``reference``.

        - "holm": Holm's step-down method (controls the family-wise error).
        - "bonferroni": each p-value times the number of comparisons.
        - "fdr_bh": Benjamini-Hochberg (controls the false discovery rate).
        - None: no adjustment (not even for the choice of the best).
    confidence_level : float in (0, 1), default=0.95
        Level of the confidence intervals of the means; ``1 - confidence_level``
        is the significance level of the tests.
    n_resamples : int, default=9999
        Number of resamples of each test and interval.
    margin : float > 0, default=None
        The equivalence margin δ (e.g. 0.01 of NDCG); see :func:`paired_test`.
        With a correction, each model's equivalence interval is the
        Bonferroni-adjusted ``1 - 2 * alpha / n_comparisons`` interval
        (``n_comparisons``: the pairs, against the best; below 250 queries
        ``1 - alpha / n_comparisons``, as :func:`paired_test` does), so
        that the models called equivalent are all equivalent with family-wise
        error ``alpha``; with "tukey", the simultaneous Tukey intervals at
        ``1 - 2 * alpha`` (below 250 queries of the pair ``1 - alpha``). On
        every path, as in :func:`paired_test`, fewer than 30 queries of a pair
        cannot show it equivalent (a warning that starts "too few queries").
        Not available with "randomized_tukey".
    pairs : {"reference", "all"}, default="reference"
        Which pairs are compared.

        - "reference": each model with the reference.
        - "all": every pair; the result's ``pairwise`` holds them, and the
          rows of the main table take their p-values from it.
    strata : array-like of shape (n_queries,) or dict, default=None
        A label per query; see :func:`paired_test`. The intervals and the
        bootstrap resample within strata, and the result's ``by_stratum``
        holds one comparison per stratum, with the same reference (the Tukey
        procedures, already blocked by query, only add those tables).
    random_state : int, numpy.random.Generator or None, default=None
        Seeds every resampling, for reproducible results.
    reference : key of scores, default=None
        The model the others are compared with. None means the model with the
        highest mean. Formerly ``baseline``.

    Returns
    -------
    comparison : ModelComparison
        The table, one row per model by decreasing mean, with the columns
        ``name``, ``mean``, ``ci_low``, ``ci_high`` (bootstrap interval of the
        mean, :func:`bootstrap_ci`), ``difference`` (mean difference from the
        reference over the queries both define), ``pvalue``,
        ``adjusted_pvalue``, ``effect_size`` (NaN for the reference),
        ``not_shown_different`` (adjusted p-value at least alpha) and
        ``verdict`` (relative to the reference: "reference", "better",
        "worse", and "equivalent" or "inconclusive" with a margin, "not shown
        different" without); and the attributes ``reference``, ``method``,
        ``correction``, ``confidence_level``, ``margin``, ``pairwise``, ``by_stratum``,
        ``not_shown_different`` and ``equivalent``. It prints as a table and
        converts with ``to_dict()`` and ``to_frame()``.

    See Also
    --------
    paired_test : Compare two models.
    bootstrap_ci : Confidence interval of one model's mean NDCG.
    required_queries : How many queries a comparison needs.

    References
    ----------
    Carterette, B. (2012). Multiple testing in statistical analysis of
    systems-based information retrieval experiments. ACM TOIS 30(1).

    Sakai, T. (2014). Statistical reform in information retrieval? SIGIR Forum 48(1).

    Examples
    --------
    >>> from sklearn_ndcg import compare_models
    >>> scores = {
    ...     "bm25": [0.6, 0.5, 0.7, 0.4, 0.65, 0.55, 0.5, 0.6],
    ...     "ltr": [0.8, 0.7, 0.75, 0.6, 0.85, 0.7, 0.65, 0.8],
    ...     "ltr_small": [0.75, 0.72, 0.8, 0.55, 0.8, 0.7, 0.66, 0.78],
    ... }
    >>> comparison = compare_models(scores, random_state=0)
    >>> comparison.reference, comparison.not_shown_different
    ('ltr', ['ltr', 'ltr_small'])
    >>> table = comparison.to_dict()
    >>> table["name"], [round(p, 4) for p in table["adjusted_pvalue"]]
    (['ltr', 'ltr_small', 'bm25'], [nan, 0.5, 0.0234])

    8 queries do not show ``ltr_small`` different from ``ltr``, but do not
    show it within 0.01 of it either; ``bm25`` is worse:

    >>> compare_models(scores, margin=0.01, random_state=0).to_dict()["verdict"]
    ['reference', 'inconclusive', 'worse']

    Every pair, by Tukey's HSD blocked by query: ``bm25`` is worse than both others.

    >>> comparison = compare_models(scores, pairs="all", method="tukey")
    >>> pairwise = comparison.pairwise.to_dict()
    >>> [(a, b, v) for a, b, v in zip(pairwise["model_a"], pairwise["model_b"],
    ...                               pairwise["verdict"])]  # doctest: +NORMALIZE_WHITESPACE
    [('bm25', 'ltr', 'worse'), ('bm25', 'ltr_small', 'worse'),
     ('ltr', 'ltr_small', 'not shown different')]
    """
    if len(scores) < 2:
        raise ValueError(f"scores holds {len(scores)} model(s); give at least 2 models to compare.")
    reference = _deprecated_baseline(baseline, reference, scores)
    if method in PAIRWISE_METHODS and pairs != "all":
        raise ValueError(
            f"method={method!r} compares every pair of models; pass pairs='all' (or a "
            f"paired test, one of {list(PAIRED_METHODS)}, to compare with the reference)."
        )
    if method == "randomized_tukey" and margin is not None:
        raise ValueError(
            "margin is not available with method='randomized_tukey', which gives no "
            "intervals; use method='tukey' or a paired test for equivalence."
        )
    names = list(scores)
    seeds = _seeds(random_state, 2 * len(names) + 2)
    intervals = {
        name: _bootstrap_ci(
            scores[name],
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            method="BCa",
            random_state=seed,
            name=f"scores[{name!r}]",
            strata=strata,
        )
        for name, seed in zip(names, seeds)
    }
    means = np.array([intervals[name].mean for name in names])
    selected = reference is None
    reference = names[int(np.argmax(means))] if selected else reference
    alpha = 1 - confidence_level
    all_pairs = pairs == "all" or (selected and correction is not None and len(names) > 2)
    n_pairs = len(names) * (len(names) - 1) // 2 if all_pairs else len(names) - 1
    _warn_unreachable(method, correction, n_resamples, n_pairs, alpha)
    settings = _Settings(method, correction, alpha, confidence_level, margin, n_resamples, strata)
    if pairs == "all":
        pairwise, by_name = _all_pairs(scores, names, reference, seeds, settings)
        correction = None if method in PAIRWISE_METHODS else correction
    else:
        by_name = _against_reference(scores, names, reference, seeds, settings, selected=selected)
        pairwise = None
    rows = sorted(names, key=lambda name: -intervals[name].mean)  # stable: input order on ties
    nan = float("nan")

    def column(field, default):
        return [by_name[n][field] if n in by_name else default for n in rows]

    columns = {
        "name": rows,
        "mean": [intervals[name].mean for name in rows],
        "ci_low": [intervals[name].confidence_interval[0] for name in rows],
        "ci_high": [intervals[name].confidence_interval[1] for name in rows],
        "difference": column("difference", 0.0),
        "pvalue": column("pvalue", nan),
        "adjusted_pvalue": column("adjusted_pvalue", nan),
        "effect_size": column("effect_size", nan),
        "not_shown_different": [
            n == reference or bool(by_name[n]["adjusted_pvalue"] >= alpha) for n in rows
        ],
        "verdict": column("verdict", "reference"),
    }
    by_stratum = None
    if strata is not None:
        by_stratum = _by_stratum(
            scores,
            strata,
            reference=reference,
            method=method,
            correction=None if method in PAIRWISE_METHODS else correction,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            margin=margin,
            pairs=pairs,
            random_state=seeds[-2],
        )
    return ModelComparison(
        _table.Table(columns),
        reference,
        method,
        correction,
        confidence_level,
        margin,
        pairwise,
        by_stratum,
    )


# the smallest two-sided p-value of a resampling test, times n_resamples + 1: the
# randomization test counts both tails of the observed mean (scipy's permutation_test),
# the bootstrap test one shifted distribution
_SMALLEST_COUNT = {"randomization": 2, "bootstrap": 1}


def _warn_unreachable(method, correction, n_resamples: int, n_pairs: int, alpha: float) -> None:
    """Warn when Holm's or Bonferroni's correction can reject no pair: the smallest
    p-value of ``n_resamples`` resamples, times the number of pairs, exceeds alpha."""
    if correction not in ("holm", "bonferroni") or method not in _SMALLEST_COUNT:
        return
    smallest = _SMALLEST_COUNT[method] / (n_resamples + 1)
    if smallest * n_pairs <= alpha:
        return
    needed = int(np.ceil(_SMALLEST_COUNT[method] * n_pairs / alpha)) - 1
    warn(
        f"with n_resamples={n_resamples} the smallest p-value of the {method} test is "
        f"{smallest:.3g}, and correction={correction!r} over {n_pairs} pairs makes it "
        f"{min(1.0, smallest * n_pairs):.3g} > alpha={alpha:.3g}: no pair can be shown "
        f"different. Use n_resamples >= {needed} (better 10 times that), or method='t'.",
        UserWarning,
    )


def _deprecated_baseline(baseline, reference, scores):
    """The reference model named by ``reference`` or (deprecated) ``baseline``, or None."""
    name = "reference" if baseline is None else "baseline"
    given = reference if baseline is None else baseline
    if baseline is not None and reference is not None:
        raise ValueError(
            f"baseline={baseline!r} and reference={reference!r} name the same thing; "
            "give reference only (baseline is its deprecated spelling)."
        )
    if given is not None and given not in scores:
        raise ValueError(
            f"{name}={given!r} is not a model in scores; the models are {list(scores)}."
        )
    if baseline is not None:
        warn(
            "compare_models(baseline=...) is now compare_models(reference=...), the name of "
            "the result's attribute; baseline will be removed in 0.4.",
            FutureWarning,
        )
    return given


def _subset(values, mask: np.ndarray):
    """The queries of ``values`` where ``mask`` (in the order of the sorted query ids)."""
    if isinstance(values, QueryScores):
        order = np.argsort(np.asarray(values.qid), kind="stable")
        return QueryScores(
            np.asarray(values.qid)[order][mask],
            np.asarray(values.score, dtype=np.float64)[order][mask],
            np.asarray(values.weight, dtype=np.float64)[order][mask],
        )
    return np.asarray(values, dtype=np.float64)[mask]


def _by_stratum(scores, strata, *, random_state, **options) -> dict:
    """One comparison per stratum, each on that stratum's queries alone."""
    names = list(scores)
    labels = {name: stratum_labels(scores[name], strata, f"scores[{name!r}]") for name in names}
    first = labels[names[0]]
    for name in names[1:]:
        if labels[name].tolist() != first.tolist():
            raise ValueError(
                f"scores[{names[0]!r}] and scores[{name!r}] hold different queries, so strata "
                "cannot label both; compare models on the same queries."
            )
    groups = subsets(first)
    seeds = _seeds(random_state, len(groups))
    return {
        label: compare_models(
            {name: _subset(scores[name], mask) for name in names},
            random_state=seed,
            **options,
        )
        for (label, mask), seed in zip(groups.items(), seeds)
    }


@dataclass(frozen=True)
class _Settings:
    """The settings of one :func:`compare_models` call that its comparisons share."""

    method: str
    correction: str | None
    alpha: float  # 1 - confidence_level
    confidence_level: float
    margin: float | None
    n_resamples: int
    strata: Any


def _test_pairs(scores, pairs: list[tuple], seeds, settings: _Settings) -> list:
    """The two-sided paired test of ``scores[a]`` against ``scores[b]`` for each pair
    ``(a, b)``, one seed each, that every comparison of :func:`compare_models` runs; with a
    correction, the equivalence intervals are corrected for the number of pairs too."""
    alpha = settings.alpha
    equivalence_alpha = alpha / len(pairs) if settings.correction is not None else alpha
    return [
        _paired_test(
            scores[a],
            scores[b],
            method=settings.method,
            confidence_level=1 - alpha,
            n_resamples=settings.n_resamples,
            alternative="two-sided",
            random_state=seed,
            margin=settings.margin,
            equivalence_alpha=equivalence_alpha,
            names=(f"scores[{a!r}]", f"scores[{b!r}]"),
            strata=settings.strata,
            interval=False,  # the table shows each model's interval, not the pair's
        )
        for (a, b), seed in zip(pairs, seeds)
    ]


def _against_reference(scores, names, reference, seeds, settings: _Settings, *, selected) -> dict:
    """Each model against the reference: ``{name: row}``, aware of how it was chosen.

    A reference ``selected`` as the model with the highest mean is the largest of
    several noisy means: its lead over each other model is the largest of several
    differences, and correcting for the k - 1 comparisons with it, as if it had been
    fixed in advance, calls some model worse too often (with 10 equal models, in 14
    to 17 % of the comparisons instead of 5 %). Every difference with the best is
    the difference of some pair, so with a correction the rows come from the
    comparison of all ``k (k - 1) / 2`` pairs, corrected for all of them (and, with a
    margin, equivalence intervals at ``1 - 2 * alpha / (k (k - 1) / 2)``), which
    holds its family-wise error whichever model is the best.
    """
    if not selected or settings.correction is None or len(names) == 2:  # 2 models: 1 pair
        return _with_reference(scores, names, reference, seeds, settings)
    for name in names:  # the errors of the comparisons with the reference, in their order
        if name != reference:
            _paired_values(
                scores[name], scores[reference], (f"scores[{name!r}]", f"scores[{reference!r}]")
            )
    _, by_name = _all_pairs(scores, names, reference, seeds, settings)
    return by_name


def _with_reference(scores, names, reference, seeds, settings: _Settings) -> dict:
    """Each model against the reference: ``{name: row}``."""
    others = [name for name in names if name != reference]
    pairs = [(name, reference) for name in others]
    tests = _test_pairs(scores, pairs, seeds[len(names) :], settings)
    alpha, margin = settings.alpha, settings.margin
    adjusted = _adjust(np.array([test.pvalue for test in tests]), settings.correction)
    return {
        name: {
            "difference": test.mean_difference,
            "pvalue": test.pvalue,
            "adjusted_pvalue": float(p),
            "effect_size": test.effect_size,
            "verdict": _table.verdict(
                test.mean_difference, p, alpha, test.equivalence_interval, margin
            ),
        }
        for name, test, p in zip(others, tests, adjusted)
    }


def _aligned_matrix(scores, names) -> np.ndarray:
    """The models' values as a (n_queries, n_models) matrix, NaN kept: each pair leaves
    out the queries where either of its models is NaN."""
    values = [_as_query_values(scores[name], f"scores[{name!r}]") for name in names]
    first = f"scores[{names[0]!r}]"
    for name in names[1:]:
        _paired_values(scores[names[0]], scores[name], (first, f"scores[{name!r}]"))
    for name, (_score, weight, _qid) in zip(names, values):
        if weight is not None and not _uniform(weight):
            raise ValueError(
                f"scores[{name!r}] weighs its queries unequally; the Tukey procedures "
                "compare unweighted means: use a paired test (method='bootstrap') instead."
            )
    return np.column_stack([score for score, _, _ in values])


def _all_pairs(scores, names, reference, seeds, settings: _Settings):
    """Every pair of models: the pairwise table, and each model's row against the reference."""
    method, alpha, margin = settings.method, settings.alpha, settings.margin
    index_pairs = pairs_of(names)
    if method in PAIRWISE_METHODS:
        matrix = _aligned_matrix(scores, names)
        differences = pair_differences(matrix, index_pairs)
        mean_differences = [float(d.mean()) for d in differences]
        if method == "tukey":
            adjusted, half = tukey_hsd(
                matrix, index_pairs, equivalence_alpha=None if margin is None else alpha
            )
        else:
            adjusted = randomized_tukey(
                matrix, index_pairs, n_resamples=settings.n_resamples, seed=seeds[-1]
            )
            half = None
        pvalues = adjusted
        intervals: list = [None] * len(index_pairs)
        if half is not None and margin is not None:  # half: only with a margin
            pair_names = [
                (f"scores[{names[i]!r}]", f"scores[{names[j]!r}]") for i, j in index_pairs
            ]
            intervals = equivalence_intervals(differences, half, margin, pair_names)
        effect_sizes = [_effect_size(d, None, m) for d, m in zip(differences, mean_differences)]
    else:
        pairs = [(names[i], names[j]) for i, j in index_pairs]
        tests = _test_pairs(scores, pairs, _seeds(seeds[-1], len(index_pairs)), settings)
        pvalues = np.array([test.pvalue for test in tests])
        adjusted = _adjust(pvalues, settings.correction)
        mean_differences = [test.mean_difference for test in tests]
        intervals = [test.equivalence_interval for test in tests]
        effect_sizes = [test.effect_size for test in tests]
    verdicts = [
        _table.verdict(d, float(p), alpha, interval, margin)
        for d, p, interval in zip(mean_differences, adjusted, intervals)
    ]
    pairwise = PairwiseComparison(
        _table.Table(
            {
                "model_a": [names[i] for i, _ in index_pairs],
                "model_b": [names[j] for _, j in index_pairs],
                "mean_difference": mean_differences,
                "pvalue": [float(p) for p in adjusted],
                "verdict": verdicts,
            }
        ),
        method,
        settings.confidence_level,
        margin,
    )
    flip = {"better": "worse", "worse": "better"}
    by_name = {}
    for k, (i, j) in enumerate(index_pairs):
        if reference not in (names[i], names[j]):
            continue
        sign, other = (1.0, names[i]) if names[j] == reference else (-1.0, names[j])
        by_name[other] = {
            "difference": sign * mean_differences[k],
            "pvalue": float(pvalues[k]),
            "adjusted_pvalue": float(adjusted[k]),
            "effect_size": sign * effect_sizes[k],
            "verdict": verdicts[k] if sign > 0 else flip.get(verdicts[k], verdicts[k]),
        }
    return pairwise, by_name
