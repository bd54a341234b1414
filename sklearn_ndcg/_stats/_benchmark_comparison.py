"""BenchmarkComparison: the result of compare_benchmark, one row per model."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import _table
from ._friedman import FriedmanResult


@dataclass(frozen=True, repr=False)
class BenchmarkComparison(_table.ColumnsTable):
    """Result of :func:`compare_benchmark`: one row per model, best mean first.

    Read more in the :ref:`User Guide <benchmark-verdicts>`.

    Attributes
    ----------
    columns : dict of str to list
        The table: ``name``, ``mean``, ``ci_low``, ``ci_high``, ``rank``,
        ``rank_low``, ``rank_high`` and ``verdict``; see
        :func:`compare_benchmark`. :meth:`to_dict` returns a copy.
    tied_with_best : list
        The models not shown worse than any other (the best included), best
        first: at family-wise level ``1 - confidence_level`` it holds every
        truly best model, and with all models equal it holds them all.
    friedman : FriedmanResult
        Friedman's test on the ranks within datasets (``statistic``, ``pvalue``).
    pairwise_pvalues : ndarray of shape (n_models, n_models)
        The post-hoc p-value of every pair on the average ranks, rows and
        columns in the order of the table (``to_dict()["name"]``), 1 on the
        diagonal; :meth:`pairwise_frame` labels them.
    posthoc : str
        "nemenyi" or "holm".
    unit : str
        "queries" (over these datasets) or "datasets" (over datasets like these).
    weights : str
        "datasets" (each dataset counts once) or "queries".
    confidence_level : float
        Of the intervals; one minus the family-wise level of the verdicts.
    datasets : list
        The datasets, in the order of the input.
    dataset_means : ndarray of shape (n_datasets, n_models)
        Each model's mean on each dataset (columns in the order of the table):
        the matrix that Friedman's test ranks.
    critical_difference : float
        Nemenyi's critical difference of average ranks at level
        ``1 - confidence_level`` (Demšar 2006), drawn by
        :class:`CriticalDifferenceDisplay`.
    """

    columns: dict[str, list]
    tied_with_best: list
    friedman: FriedmanResult
    pairwise_pvalues: np.ndarray
    posthoc: str
    unit: str
    weights: str
    confidence_level: float
    datasets: list
    dataset_means: np.ndarray
    critical_difference: float

    # the table's methods, bound here so that the API page lists them as this class's own
    to_dict = _table.ColumnsTable.to_dict
    to_frame = _table.ColumnsTable.to_frame

    def pairwise_frame(self):
        """The post-hoc p-values as a pandas DataFrame labelled by model.

        Returns
        -------
        frame : pandas.DataFrame
            ``pairwise_pvalues`` with the models as index and columns; needs pandas.
        """
        frame = _table.to_frame(
            {name: self.pairwise_pvalues[:, j] for j, name in enumerate(self.columns["name"])},
            "BenchmarkComparison",
        )
        frame.index = list(self.columns["name"])
        return frame

    def __str__(self) -> str:
        title = (
            f"Models over {len(self.datasets)} datasets (unit={self.unit!r}, "
            f"weights={self.weights!r}, confidence_level={self.confidence_level:g}); "
            f"Friedman chi2={self.friedman.statistic:.4g}, p={self.friedman.pvalue:.4g}"
        )
        return _table.format_table(title, self.columns)

    __repr__ = __str__
