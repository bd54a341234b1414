"""ModelComparisonDisplay: candidates' mean NDCG with intervals, those tied with the best marked."""

from __future__ import annotations

import numpy as np

from .._stats._paired import compare_models
from ._curve import _import_pyplot


class ModelComparisonDisplay:
    """Mean NDCG of several models with confidence intervals, marking those tied with the best.

    One row per model, best at the top: a point at its mean NDCG over queries
    and a bar for its confidence interval. Filled points are the models whose
    difference from the reference (the best model, or a named baseline) is
    not significant after the correction for multiple comparisons; hollow
    points are significantly worse (or better). Create it with
    :meth:`from_comparison` or :meth:`from_query_scores`; matplotlib is
    needed only to plot.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    names : list of str
        The models, in the order to draw them (top first).
    means : array-like of shape (n_models,)
        Mean NDCG of each model.
    intervals : array-like of shape (n_models, 2)
        Lower and upper end of each model's confidence interval.
    tied : array-like of bool, shape (n_models,)
        Whether each model is tied with the reference.
    reference : str, default=None
        The model the others were compared with.

    Attributes
    ----------
    names_ : ndarray of shape (n_models,)
        The models.
    means_ : ndarray of shape (n_models,)
        Their mean NDCG.
    intervals_ : ndarray of shape (n_models, 2)
        Their confidence intervals.
    tied_ : ndarray of bool, shape (n_models,)
        Whether each is tied with the reference.
    reference_ : str or None
        The model the others were compared with.
    errorbars_ : list of matplotlib ErrorbarContainer
        The tied and the other models' points and bars, after :meth:`plot`.
    ax_ : matplotlib Axes
        The axes of the plot.
    figure_ : matplotlib Figure
        The figure holding the axes.

    See Also
    --------
    compare_models : The comparison drawn here.
    NDCGCurveDisplay : NDCG@k against k.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> import numpy as np
    >>> from sklearn_ndcg import ModelComparisonDisplay
    >>> rng = np.random.default_rng(0)
    >>> base = rng.uniform(0.4, 1.0, 300)
    >>> scores = {"a": base, "b": base - 0.002 + rng.normal(0, 0.05, 300),
    ...           "c": base - 0.1}
    >>> display = ModelComparisonDisplay.from_query_scores(scores, random_state=0)
    >>> display.names_.tolist(), display.tied_.tolist()
    (['a', 'b', 'c'], [True, True, False])
    """

    def __init__(self, names, means, intervals, tied, *, reference=None):
        self.names_ = np.asarray(names, dtype=object)
        self.means_ = np.asarray(means, dtype=np.float64)
        self.intervals_ = np.asarray(intervals, dtype=np.float64)
        self.tied_ = np.asarray(tied, dtype=bool)
        self.reference_ = reference
        n = self.names_.shape[0]
        if self.means_.shape != (n,) or self.intervals_.shape != (n, 2) or self.tied_.shape != (n,):
            raise ValueError(
                f"names ({n}), means {self.means_.shape}, intervals {self.intervals_.shape} "
                f"and tied {self.tied_.shape} must describe the same models: shapes "
                "(n,), (n,), (n, 2) and (n,)."
            )

    @classmethod
    def from_comparison(cls, comparison, *, ax=None, **kwargs):
        """Draw the result of :func:`compare_models`.

        Parameters
        ----------
        comparison : ModelComparison
            The result of :func:`compare_models`.
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        **kwargs : dict
            Passed to :meth:`matplotlib.axes.Axes.errorbar`.

        Returns
        -------
        display : ModelComparisonDisplay
        """
        table = comparison.to_dict()
        display = cls(
            table["name"],
            table["mean"],
            np.column_stack([table["ci_low"], table["ci_high"]]),
            table["tied_with_reference"],
            reference=comparison.reference,
        )
        return display.plot(ax=ax, **kwargs)

    @classmethod
    def from_query_scores(
        cls,
        scores,
        *,
        baseline=None,
        method="randomization",
        correction="holm",
        confidence_level=0.95,
        n_resamples=9999,
        random_state=None,
        ax=None,
        **kwargs,
    ):
        """Compare models from their per-query values and draw the result.

        Parameters
        ----------
        scores : dict
            ``{name: per-query values}``, arrays paired by position or
            :class:`QueryScores` aligned by query id; see :func:`compare_models`.
        baseline : str, default=None
            The model the others are compared with; None means the best.
        method : {"randomization", "t", "wilcoxon", "bootstrap"}, default="randomization"
            The paired test; see :func:`paired_test`.
        correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
            The adjustment for several comparisons; see :func:`compare_models`.
        confidence_level : float, default=0.95
            Of the intervals; one minus the significance level of the tests.
        n_resamples : int, default=9999
            Resamples of the randomization and bootstrap methods.
        random_state : int, numpy.random.Generator or None, default=None
            Seed of the resampling.
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        **kwargs : dict
            Passed to :meth:`matplotlib.axes.Axes.errorbar`.

        Returns
        -------
        display : ModelComparisonDisplay
        """
        comparison = compare_models(
            scores,
            baseline=baseline,
            method=method,
            correction=correction,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            random_state=random_state,
        )
        return cls.from_comparison(comparison, ax=ax, **kwargs)

    def plot(self, ax=None, **kwargs):
        """Draw the models, the first at the top.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        **kwargs : dict
            Passed to :meth:`matplotlib.axes.Axes.errorbar`.

        Returns
        -------
        display : ModelComparisonDisplay
            This display, with ``errorbars_``, ``ax_`` and ``figure_`` set.
        """
        plt = _import_pyplot()
        if ax is None:
            _, ax = plt.subplots()
        position = -np.arange(self.names_.shape[0])  # the first model at the top
        what = "reference" if self.reference_ is None else repr(self.reference_)
        self.errorbars_ = []
        for mask, label, face in (
            (self.tied_, f"tied with {what}", None),
            (~self.tied_, f"significantly different from {what}", "white"),
        ):
            if not mask.any():
                continue
            low, high = self.intervals_[mask].T
            error = np.vstack([self.means_[mask] - low, high - self.means_[mask]])
            style = {"fmt": "o", "capsize": 3, "label": label, **kwargs}
            if face is not None:
                style.setdefault("markerfacecolor", face)
            bars = ax.errorbar(self.means_[mask], position[mask], xerr=error, **style)
            self.errorbars_.append(bars)
        ax.set_yticks(position)
        ax.set_yticklabels(self.names_.tolist())
        ax.set_xlabel("mean NDCG over queries (confidence interval)")
        ax.legend(loc="best")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self
