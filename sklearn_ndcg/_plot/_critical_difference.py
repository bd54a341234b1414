"""CriticalDifferenceDisplay: Demšar's critical-difference diagram of average ranks over
datasets, and the models' means with their simultaneous rank intervals."""

from __future__ import annotations

import numpy as np

from .._stats._benchmark import compare_benchmark
from ._curve import _import_pyplot


def cliques(pvalues: np.ndarray, alpha: float) -> list[tuple[int, int]]:
    """Maximal runs ``(first, last)`` of models (in the order of the matrix, by average
    rank) whose pairs all have a p-value of at least ``alpha``; single models left out."""
    k = pvalues.shape[0]
    runs: list[tuple[int, int]] = []
    for first in range(k):
        last = first
        while last + 1 < k and (pvalues[first : last + 2, first : last + 2] >= alpha).all():
            last += 1
        if last > first and (not runs or last > runs[-1][1]):
            runs.append((first, last))
    return runs


class CriticalDifferenceDisplay:
    """Critical-difference diagram of models over datasets, and their rank intervals.

    :meth:`plot` draws Demšar's (2006) diagram: each model at its average rank
    over the datasets (1 = best, on the left), the critical difference of
    Nemenyi's test as a bar, and a thick line under each group of models
    whose post-hoc p-values (Nemenyi's, or Holm's) are all at least ``alpha``.
    :meth:`plot_ranks` draws each model's simultaneous rank interval by mean
    (a bar from ``rank_low`` to ``rank_high``), labelled with its mean and
    its verdict. Create it with :meth:`from_comparison` or
    :meth:`from_scores`; matplotlib is needed only to plot.

    Read more in the :ref:`User Guide <benchmark-verdicts>`.

    Parameters
    ----------
    names : list of str
        The models, in the order of the comparison's table (by mean).
    average_ranks : array-like of shape (n_models,)
        Each model's average rank over the datasets.
    critical_difference : float
        Nemenyi's critical difference of average ranks.
    pairwise_pvalues : array-like of shape (n_models, n_models)
        The post-hoc p-value of each pair, in the order of ``names``.
    alpha : float, default=0.05
        Pairs with a p-value below it are told apart.
    means : array-like of shape (n_models,), default=None
        Each model's mean over the datasets, for :meth:`plot_ranks`.
    rank_intervals : array-like of shape (n_models, 2), default=None
        Each model's ``(rank_low, rank_high)``, for :meth:`plot_ranks`.
    verdicts : array-like of str, shape (n_models,), default=None
        Each model's verdict, for :meth:`plot_ranks`.

    Attributes
    ----------
    names_ : ndarray of shape (n_models,)
        The models.
    average_ranks_ : ndarray of shape (n_models,)
        Their average ranks.
    critical_difference_ : float
        Nemenyi's critical difference.
    pairwise_pvalues_ : ndarray of shape (n_models, n_models)
        The post-hoc p-values.
    alpha_ : float
        The level of the groups.
    cliques_ : list of list
        The groups of models not told apart (by average rank), each drawn
        as a line.
    means_ : ndarray of shape (n_models,) or None
        Their means.
    rank_intervals_ : ndarray of shape (n_models, 2) or None
        Their simultaneous rank intervals.
    verdicts_ : ndarray of shape (n_models,) or None
        Their verdicts.
    ax_ : matplotlib Axes
        The axes of the last plot.
    figure_ : matplotlib Figure
        The figure holding the axes.

    See Also
    --------
    compare_benchmark : The comparison drawn here.
    ModelComparisonDisplay : Models compared on one dataset.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sklearn_ndcg import CriticalDifferenceDisplay
    >>> rng = np.random.default_rng(0)
    >>> scores = {}
    >>> for dataset in range(8):
    ...     base = rng.uniform(0.2, 0.8, 100)
    ...     scores[f"d{dataset}"] = {"a": base + 0.05, "b": base + 0.04,
    ...                              "c": base + rng.normal(0, 0.05, 100)}
    >>> display = CriticalDifferenceDisplay.from_scores(scores, n_resamples=999,
    ...                                                 random_state=0)
    >>> display.average_ranks_.tolist(), display.cliques_
    ([1.0, 2.0, 3.0], [['a', 'b'], ['b', 'c']])
    >>> display = display.plot_ranks()
    >>> display.rank_intervals_.tolist()
    [[1, 1], [2, 2], [3, 3]]
    """

    def __init__(
        self,
        names,
        average_ranks,
        critical_difference,
        pairwise_pvalues,
        *,
        alpha=0.05,
        means=None,
        rank_intervals=None,
        verdicts=None,
    ):
        self.names_ = np.asarray(names, dtype=object)
        self.average_ranks_ = np.asarray(average_ranks, dtype=np.float64)
        self.critical_difference_ = float(critical_difference)
        self.pairwise_pvalues_ = np.asarray(pairwise_pvalues, dtype=np.float64)
        self.alpha_ = float(alpha)
        n = self.names_.shape[0]
        self.means_ = None if means is None else np.asarray(means, dtype=np.float64)
        self.rank_intervals_ = None if rank_intervals is None else np.asarray(rank_intervals)
        self.verdicts_ = None if verdicts is None else np.asarray(verdicts, dtype=object)
        shapes = {
            "average_ranks": (self.average_ranks_.shape, (n,)),
            "pairwise_pvalues": (self.pairwise_pvalues_.shape, (n, n)),
            "means": (None if means is None else self.means_.shape, (n,)),
            "rank_intervals": (
                None if rank_intervals is None else self.rank_intervals_.shape,
                (n, 2),
            ),
            "verdicts": (None if verdicts is None else self.verdicts_.shape, (n,)),
        }
        for name, (shape, expected) in shapes.items():
            if shape is not None and shape != expected:
                raise ValueError(
                    f"{name} has shape {shape} but names holds {n} models; give {expected}."
                )
        order = np.argsort(self.average_ranks_, kind="stable")
        self._order = order
        runs = cliques(self.pairwise_pvalues_[np.ix_(order, order)], self.alpha_)
        self.cliques_ = [self.names_[order[a : b + 1]].tolist() for a, b in runs]

    @classmethod
    def from_comparison(cls, comparison, *, ax=None):
        """Draw the critical-difference diagram of :func:`compare_benchmark`'s result.

        Parameters
        ----------
        comparison : BenchmarkComparison
            The result of :func:`compare_benchmark`.
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.

        Returns
        -------
        display : CriticalDifferenceDisplay
        """
        table = comparison.to_dict()
        display = cls(
            table["name"],
            table["rank"],
            comparison.critical_difference,
            comparison.pairwise_pvalues,
            alpha=1.0 - comparison.confidence_level,
            means=table["mean"],
            rank_intervals=np.column_stack([table["rank_low"], table["rank_high"]]),
            verdicts=table["verdict"],
        )
        return display.plot(ax=ax)

    @classmethod
    def from_scores(cls, scores, *, ax=None, **kwargs):
        """Compare models over datasets with :func:`compare_benchmark` and draw the diagram.

        Parameters
        ----------
        scores : dict or DataFrame
            ``{dataset: {model: per-query values}}`` or a long table; see
            :func:`compare_benchmark`.
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        **kwargs : dict
            Passed to :func:`compare_benchmark` (``unit``, ``posthoc``,
            ``confidence_level``, ``n_resamples``, ``random_state``, ...).

        Returns
        -------
        display : CriticalDifferenceDisplay
        """
        return cls.from_comparison(compare_benchmark(scores, **kwargs), ax=ax)

    def plot(self, ax=None):
        """Draw the critical-difference diagram, rank 1 on the left.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.

        Returns
        -------
        display : CriticalDifferenceDisplay
            This display, with ``ax_`` and ``figure_`` set.
        """
        plt = _import_pyplot()
        k = self.names_.shape[0]
        if ax is None:
            _, ax = plt.subplots(figsize=(6.4, 1.2 + 0.3 * k))
        ax.set_xlim(0.5, k + 0.5)
        ax.hlines(0, 1, k, color="black")
        for rank in range(1, k + 1):  # the rank scale, drawn on the axis itself
            ax.vlines(rank, 0, 0.12, color="black")
            ax.text(rank, 0.17, str(rank), ha="center", va="bottom")
        # the critical difference above the axis, from rank 1
        cd = self.critical_difference_
        ax.hlines(0.75, 1, 1 + cd, color="black", linewidth=2)
        ax.text(1 + cd / 2, 0.82, f"CD = {cd:.2f}", ha="center", va="bottom")
        # each model on an elbow: the better half to the left, the rest to the right
        half = (k + 1) // 2
        for row, index in enumerate(self._order):
            rank = self.average_ranks_[index]
            left = row < half
            depth = -0.5 - 0.4 * (row if left else k - 1 - row)
            end = 0.5 if left else k + 0.5
            ax.plot([rank, rank, end], [0, depth, depth], color="black", linewidth=1)
            label = f"{self.names_[index]} ({rank:.2f})"
            ax.text(
                end, depth, label, ha="left" if left else "right", va="bottom", fontsize="small"
            )
        # each group not told apart: a thick line under the axis
        names = self.names_.tolist()
        for step, group in enumerate(self.cliques_):
            ranks = [self.average_ranks_[names.index(name)] for name in group]
            ax.hlines(-0.2 - 0.15 * step, min(ranks), max(ranks), linewidth=4, color="black")
        ax.set_ylim(-0.7 - 0.4 * half, 1.2)
        ax.set_yticks([])
        ax.set_xticks([])
        # on two lines, and the labels in small text: legible in a figure 5 in wide
        ax.set_xlabel(f"average rank over datasets\n(groups: no pair below p = {self.alpha_:g})")
        for side in ("left", "right", "bottom", "top"):
            ax.spines[side].set_visible(False)
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    def plot_ranks(self, ax=None):
        """Draw each model's simultaneous rank interval by mean, best at the top.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.

        Returns
        -------
        display : CriticalDifferenceDisplay
            This display, with ``rank_bars_``, ``ax_`` and ``figure_`` set.
        """
        if self.rank_intervals_ is None or self.means_ is None:
            raise ValueError(
                "this display has no rank intervals; create it with from_comparison or "
                "from_scores, or give means and rank_intervals."
            )
        plt = _import_pyplot()
        if ax is None:
            _, ax = plt.subplots()
        k = self.names_.shape[0]
        position = -np.arange(k)  # the table's order: the best mean at the top
        low, high = self.rank_intervals_.T.astype(float)
        self.rank_bars_ = ax.hlines(position, low - 0.3, high + 0.3, linewidth=6, alpha=0.6)
        ax.plot(np.arange(1, k + 1), position, "o", color="black")
        for y, mean, verdict in zip(position, self.means_, self._verdict_labels()):
            ax.text(k + 0.6, y, f"{mean:.4f}{verdict}", va="center", fontsize="small")
        ax.set_yticks(position)
        ax.set_yticklabels(self.names_.tolist())
        ax.set_xlim(0.5, k + 3.0)
        ax.set_xticks(range(1, k + 1))
        ax.set_xlabel("rank by mean (point) and simultaneous\nrank interval (bar); mean")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    def _verdict_labels(self):
        marks = {"best": "  best", "worse than the best": "  worse"}
        if self.verdicts_ is None:
            return [""] * self.names_.shape[0]
        return [marks.get(verdict, "") for verdict in self.verdicts_.tolist()]
