"""All pairs of models, blocked by query: Tukey's HSD on the two-way ANOVA, randomized Tukey."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

import numpy as np
from scipy import stats

from . import _table

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


def tukey_hsd(matrix: np.ndarray, pairs, *, equivalence_alpha: float | None = None):
    """Tukey's HSD blocked by query: p-values of the pairs, and the half width of the
    simultaneous ``1 - 2 * equivalence_alpha`` intervals (None without).

    The studentized range of each mean difference over ``sqrt(MS_residual / n)``,
    with ``(n_models, (n_queries - 1)(n_models - 1))`` degrees of freedom.
    """
    n, m = matrix.shape
    anova = two_way_anova(matrix)
    means = matrix.mean(axis=0)
    standard_error = np.sqrt(anova["ms_residual"] / n)
    difference = np.array([means[i] - means[j] for i, j in pairs])
    with np.errstate(divide="ignore", invalid="ignore"):
        q = np.abs(difference) / standard_error
    q = np.where(difference == 0, 0.0, q)
    pvalue = np.clip(stats.studentized_range.sf(q, m, anova["df_residual"]), 0.0, 1.0)
    half = None
    if equivalence_alpha is not None:
        critical = stats.studentized_range.ppf(1 - 2 * equivalence_alpha, m, anova["df_residual"])
        half = float(critical * standard_error)
    return pvalue, half


def randomized_tukey(matrix: np.ndarray, pairs, *, n_resamples: int, seed: int) -> np.ndarray:
    """Randomized Tukey HSD (Carterette 2012; Sakai 2014): p-values of the pairs.

    Each resample permutes the models' values within every query; a pair's
    p-value is the share of resamples whose range of model means (largest
    minus smallest) is at least the pair's absolute mean difference, the
    observed assignment counted as one resample.
    """
    n, m = matrix.shape
    rng = np.random.default_rng(seed)
    means = matrix.mean(axis=0)
    observed = np.array([abs(means[i] - means[j]) for i, j in pairs])
    slack = 16 * np.finfo(np.float64).eps * max(1.0, float(np.abs(matrix).max())) * n
    batch = max(1, _ELEMENTS_PER_BATCH // matrix.size)
    count = np.zeros(observed.shape[0], dtype=np.int64)
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        order = rng.random((size, n, m)).argsort(axis=2)
        permuted = np.take_along_axis(np.broadcast_to(matrix, (size, n, m)), order, axis=2)
        resampled = permuted.mean(axis=1)
        spread = resampled.max(axis=1) - resampled.min(axis=1)
        count += (spread[:, None] >= observed[None, :] - slack).sum(axis=0)
    return (count + 1) / (n_resamples + 1)
