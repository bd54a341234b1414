"""All pairs of models, blocked by query: Tukey's HSD on the two-way ANOVA, randomized Tukey."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import stats

from .._warn import warn
from . import _table
from ._methods import MIN_EQUIVALENCE_QUERIES, few_queries_warning, tost_level
from ._query_values import _rounding_tolerance

PAIRWISE_METHODS = ("tukey", "randomized_tukey")
_ELEMENTS_PER_BATCH = 2**20  # each batch of permutations holds a few 8 MB arrays


@dataclass(frozen=True, repr=False)
class PairwiseComparison:
    """Every pair of models compared, one row per pair: the ``pairwise`` table of a comparison.

    Made by :func:`compare_models` with ``pairs="all"``.

    Attributes
    ----------
    columns : dict of str to list
        The table: ``model_a``, ``model_b``, ``mean_difference`` (mean of
        ``a - b`` over the queries), ``pvalue`` (adjusted for all pairs) and
        ``verdict`` (``model_a`` relative to ``model_b``: "better", "worse",
        "equivalent", "inconclusive", or without a margin "not shown
        different"). :meth:`to_dict` returns a copy.
    method : str
        The procedure: "tukey", "randomized_tukey", or a paired test with a
        correction for the number of pairs.
    confidence_level : float
        One minus the family-wise significance level. (Formerly ``alpha``,
        ``1 - confidence_level``, which works with a FutureWarning until 0.4.)
    margin : float or None
        The equivalence margin.
    """

    columns: dict[str, list]
    method: str
    confidence_level: float
    margin: float | None = None

    def __init__(
        self,
        columns: dict[str, list],
        method: str,
        confidence_level: float | None = None,
        margin: float | None = None,
        *,
        alpha: float | None = None,
    ):
        level = _table.level_from_alpha(confidence_level, alpha, "PairwiseComparison")
        object.__setattr__(self, "columns", columns)
        object.__setattr__(self, "method", method)
        object.__setattr__(self, "confidence_level", level)
        object.__setattr__(self, "margin", margin)

    @property
    def alpha(self) -> float:
        """Deprecated: ``1 - confidence_level``; use ``confidence_level``."""
        _table.warn_alpha("PairwiseComparison")
        return 1 - self.confidence_level

    def to_dict(self) -> dict[str, list]:
        """The table as lists, one per column.

        Returns
        -------
        table : dict of str to list
            ``{column: values}``, one row per pair.
        """
        return {column: list(values) for column, values in self.columns.items()}

    def to_frame(self):
        """The table as a pandas DataFrame.

        Returns
        -------
        frame : pandas.DataFrame
            One row per pair; needs pandas.
        """
        return _table.to_frame(self.columns, "PairwiseComparison")

    def matrix(self, names: list) -> tuple[np.ndarray, np.ndarray]:
        """Mean differences and p-values as square matrices in the order of ``names``.

        Parameters
        ----------
        names : list
            The models, in the order of the rows and columns.

        Returns
        -------
        difference : ndarray of shape (n_models, n_models)
            ``difference[i, j]``: mean of ``names[i] - names[j]``.
        pvalue : ndarray of shape (n_models, n_models)
            The p-value of that pair (1 on the diagonal).
        """
        index = {name: i for i, name in enumerate(names)}
        difference = np.zeros((len(names), len(names)))
        pvalue = np.ones((len(names), len(names)))
        for a, b, d, p in zip(
            self.columns["model_a"],
            self.columns["model_b"],
            self.columns["mean_difference"],
            self.columns["pvalue"],
        ):
            i, j = index[a], index[b]
            difference[i, j], difference[j, i] = d, -d
            pvalue[i, j] = pvalue[j, i] = p
        return difference, pvalue

    def __str__(self) -> str:
        margin = "" if self.margin is None else f", margin={self.margin:g}"
        title = (
            f"All pairs of models ({self.method}, "
            f"confidence_level={self.confidence_level:g}{margin})"
        )
        return _table.format_table(title, self.columns)

    __repr__ = __str__


def pairs_of(names: list[Hashable]) -> list[tuple[int, int]]:
    """Index pairs (i, j), i < j, in the order of ``names``."""
    return [(i, j) for i in range(len(names)) for j in range(i + 1, len(names))]


def two_way_anova(matrix: np.ndarray) -> dict[str, float]:
    """Mean squares of the two-way ANOVA without replication (queries x models).

    ``matrix`` has one row per query and one column per model.
    """
    n, m = matrix.shape
    grand = matrix.mean()
    model_mean = matrix.mean(axis=0)
    query_mean = matrix.mean(axis=1)
    residual = matrix - query_mean[:, None] - model_mean[None, :] + grand
    df_residual = (n - 1) * (m - 1)
    return {
        "ms_model": float(n * np.sum((model_mean - grand) ** 2) / (m - 1)),
        "ms_query": float(m * np.sum((query_mean - grand) ** 2) / (n - 1)),
        "ms_residual": float(np.sum(residual**2) / df_residual),
        "df_residual": df_residual,
    }


def pair_differences(matrix: np.ndarray, pairs) -> list[np.ndarray]:
    """Each pair's differences ``a - b`` over the queries where both are defined (not NaN),
    snapped as :func:`paired_test` snaps them.

    Differences equal to 0 up to rounding are 0, and differences equal to each
    other up to rounding are their mean, so that the effect size of constant
    differences is the documented 0 or infinity.
    """
    differences = []
    for i, j in pairs:
        a, b = matrix[:, i], matrix[:, j]
        both = ~(np.isnan(a) | np.isnan(b))
        tolerance = _rounding_tolerance(a[both], b[both])
        d = a[both] - b[both]
        d[np.abs(d) <= tolerance] = 0.0
        if d.size and np.ptp(d) <= 2 * tolerance:
            d[:] = d.mean()
        differences.append(d)
    return differences


def _no_variance_pvalues(differences, n_models: int, procedure: str) -> np.ndarray | None:
    """p-values when every pair's differences are constant (up to rounding), else None.

    Without residual variance the studentized range is undefined (its statistic
    infinite); as :func:`paired_test` does for the t-test, each pair gets the p-value
    of the exact sign-flip randomization test of its queries (``2 / 2**n``, 1 for
    differences of 0), here times the number of pairs (Bonferroni over the family),
    with a warning.
    """
    if any(np.ptp(d) > 0 for d in differences):
        return None
    n_pairs = n_models * (n_models - 1) // 2
    pvalue = np.array(
        [1.0 if d[0] == 0 else min(1.0, n_pairs * 2.0 / 2**d.size) for d in differences]
    )
    n = min(d.size for d in differences)
    warn(
        f"the differences between every pair of the {n_models} models are the same on "
        f"every query (up to rounding): {procedure} is undefined without residual "
        "variance; each pair's p-value is that of the exact randomization test of its "
        f"queries (2 / 2**n, {2.0 / 2**n:.3g} on {n} queries) times the {n_pairs} pairs.",
        UserWarning,
    )
    return pvalue


def _complete_rows(matrix: np.ndarray) -> np.ndarray:
    """The queries where every model is defined; the ANOVA needs at least 2."""
    complete = matrix[~np.isnan(matrix).any(axis=1)]
    if complete.shape[0] < 2:
        raise ValueError(
            f"the models have {complete.shape[0]} queries where every value is defined "
            "(not NaN); Tukey's HSD estimates its residual variance on those and needs at "
            "least 2."
        )
    return complete


def tukey_hsd(matrix: np.ndarray, pairs, *, equivalence_alpha: float | None = None):
    """Tukey's HSD blocked by query: p-values of the pairs, and the half widths of the
    simultaneous equivalence intervals at ``equivalence_alpha`` (None without).

    The studentized range of each mean difference over ``sqrt(MS_residual / n)``,
    with ``(n_models, (n_queries - 1)(n_models - 1))`` degrees of freedom. With NaN,
    the residual mean square comes from the queries where every model is defined,
    and each pair's mean difference and its ``n`` from the queries where both models
    of the pair are (NaN handling per pair). Without residual variance (every pair's
    differences constant), see :func:`_no_variance_pvalues`.

    The equivalence interval of a pair follows the TOST rule of :func:`paired_test`
    (:func:`tost_level`): the simultaneous ``1 - 2 * equivalence_alpha`` interval from
    :data:`FULL_TOST_QUERIES` queries of the pair on, ``1 - equivalence_alpha`` below
    (each one-sided test at half the level). Without residual variance it is the
    point ``d`` when the exact one-sided sign-flip test of the pair (``1 / 2**n``
    times the pairs) is below the one-sided level, and unbounded otherwise.
    :func:`equivalence_intervals` applies the rule of too few queries.
    """
    m = matrix.shape[1]
    differences = pair_differences(matrix, pairs)
    for (i, j), d in zip(pairs, differences):
        if d.size < 2:
            raise ValueError(
                f"models {i} and {j} have {d.size} queries where both values are defined "
                "(not NaN); comparing them needs at least 2."
            )
    size = np.array([d.size for d in differences], dtype=np.float64)
    mean = np.array([d.mean() for d in differences])
    level = None
    if equivalence_alpha is not None:
        level = np.array([tost_level(d.size, equivalence_alpha) for d in differences])
    constant = _no_variance_pvalues(differences, m, "Tukey's HSD")
    if constant is not None:
        half = None
        if level is not None:
            n_pairs = m * (m - 1) // 2
            shown = n_pairs / 2**size < (1 - level) / 2  # one-sided, as the interval
            half = np.where(shown, 0.0, np.inf)
        return constant, half
    anova = two_way_anova(_complete_rows(matrix))
    standard_error = np.sqrt(anova["ms_residual"] / size)
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.abs(mean) / standard_error
    q = np.where(mean == 0, 0.0, q)
    pvalue = np.clip(_studentized_range_sf(q, m, anova["df_residual"]), 0.0, 1.0)
    half = None
    if level is not None:
        critical = [_studentized_range_quantile(v, m, anova["df_residual"]) for v in level]
        half = np.array(critical) * standard_error
    return pvalue, half


def _studentized_range_sf(q: np.ndarray, n_models: int, df: float) -> np.ndarray:
    """The survival function of the studentized range; of 2 models by Student's t.

    The range of 2 means over ``sqrt(MS_residual / n)`` is ``sqrt(2)`` times the absolute
    t statistic of their difference, so ``P(Q > q) = 2 P(T > q / sqrt(2))``: exact, and
    without the numerical integration scipy does for any number of models (0.05-0.1 s
    a value).
    """
    if n_models == 2:
        return 2 * stats.t.sf(q / np.sqrt(2), df)
    return stats.studentized_range.sf(q, n_models, df)


@lru_cache(maxsize=256)
def _studentized_range_quantile(level: float, n_models: int, df: float) -> float:
    """The ``level`` quantile of the studentized range, remembered: scipy integrates it
    numerically (about 0.1 s), and every pair of a comparison asks the same one."""
    return float(stats.studentized_range.ppf(level, n_models, df))


def equivalence_intervals(differences, half, margin: float, names) -> list[tuple[float, float]]:
    """Each pair's equivalence interval ``d -+ half``, under the rule of :func:`paired_test`:
    on fewer than :data:`MIN_EQUIVALENCE_QUERIES` queries of the pair, an interval inside
    ``(-margin, margin)`` becomes ``(-inf, inf)``, with a warning.

    ``names`` holds the two models' names of each pair, for the warning.
    """
    intervals = []
    for d, h, (a, b) in zip(differences, half, names):
        low, high = float(d.mean() - h), float(d.mean() + h)
        if d.size < MIN_EQUIVALENCE_QUERIES and -margin < low and high < margin:
            few_queries_warning(
                f"{d.size} queries cannot show {a} and {b} equivalent: the two one-sided "
                "tests say 'equivalent' of a difference on the margin more often than "
                f"alpha below {MIN_EQUIVALENCE_QUERIES} queries when the differences are "
                "heavy-tailed (as between near-identical models); the equivalence interval "
                "is (-inf, inf) and the verdict cannot be 'equivalent'.",
            )
            low, high = -np.inf, np.inf
        intervals.append((low, high))
    return intervals


def randomized_tukey(matrix: np.ndarray, pairs, *, n_resamples: int, seed: int) -> np.ndarray:
    """Randomized Tukey HSD (Carterette 2012; Sakai 2014): p-values of the pairs.

    Each resample permutes the models' values within every query; a pair's
    p-value is the share of resamples whose largest absolute mean difference
    over all pairs (without NaN, the range of the model means) is at least the
    pair's absolute mean difference, the observed assignment counted as one
    resample. With NaN, only the defined values of a query are permuted, among
    the models that define it, and each pair's mean difference is over the
    queries where both are defined (NaN handling per pair). Without residual
    variance, see :func:`_no_variance_pvalues`.
    """
    n, m = matrix.shape
    differences = pair_differences(matrix, pairs)
    constant = _no_variance_pvalues(differences, m, "the randomized Tukey HSD")
    if constant is not None:
        return constant
    rng = np.random.default_rng(seed)
    observed = np.array([abs(d.mean()) for d in differences])
    defined = ~np.isnan(matrix)
    values = np.where(defined, matrix, 0.0)
    slack = 16 * np.finfo(np.float64).eps * max(1.0, float(np.abs(values).max())) * n
    # positions of each query: defined ones first (in index order), then the NaN ones
    positions = np.argsort(~defined, axis=1, kind="stable")
    both = (defined[:, :, None] & defined[:, None, :]).astype(np.float64)  # (n, m, m)
    count_both = both.sum(axis=0)
    batch = max(1, _ELEMENTS_PER_BATCH // (matrix.size * (m if not defined.all() else 1)))
    count = np.zeros(observed.shape[0], dtype=np.int64)
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        keys = np.where(defined, rng.random((size, n, m)), np.inf)
        order = keys.argsort(axis=2)  # a random order of the defined values, NaN last
        drawn = np.take_along_axis(np.broadcast_to(values, (size, n, m)), order, axis=2)
        permuted = np.empty_like(drawn)
        np.put_along_axis(permuted, np.broadcast_to(positions, drawn.shape), drawn, axis=2)
        if defined.all():
            resampled = permuted.mean(axis=1)
            spread = resampled.max(axis=1) - resampled.min(axis=1)
        else:
            sums = np.einsum("sqi,qij->sij", permuted, both)
            with np.errstate(divide="ignore", invalid="ignore"):
                mean = (sums - sums.transpose(0, 2, 1)) / count_both
            spread = np.nanmax(np.abs(np.where(count_both > 0, mean, np.nan)), axis=(1, 2))
        count += (spread[:, None] >= observed[None, :] - slack).sum(axis=0)
    return (count + 1) / (n_resamples + 1)
