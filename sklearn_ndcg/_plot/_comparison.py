"""ModelComparisonDisplay: candidates' mean NDCG with intervals and their verdicts."""

from __future__ import annotations

import numpy as np

from .._stats._compare import compare_models
from .._warn import warn
from ._curve import _import_pyplot


class ModelComparisonDisplay:
    """Mean NDCG of several models with confidence intervals and their verdicts.

    One row per model, best at the top: a point at its mean NDCG over queries
    and a bar for its confidence interval, grouped in the legend by the
    verdict against the reference (the best model, or a named one):
    with a margin "equivalent" (shown within the margin), "inconclusive",
    "better" or "worse"; without, "not shown different" (the difference is
    not significant after the correction for multiple comparisons, which is
    not "as good") or shown different. Hollow points are the models shown
    worse or better. A comparison of all pairs is drawn as a matrix by
    :meth:`plot_pairwise`. Create it with :meth:`from_comparison` or
    :meth:`from_query_scores`; matplotlib is needed only to plot.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    names : list of str
        The models, in the order to draw them (top first).
    means : array-like of shape (n_models,)
        Mean NDCG of each model.
    intervals : array-like of shape (n_models, 2)
        Lower and upper end of each model's confidence interval.
    not_shown_different : array-like of bool, shape (n_models,), default=None
        Whether the queries do not show each model different from the
        reference. None: taken from ``verdicts``.
    verdicts : array-like of str, shape (n_models,), default=None
        Each model's verdict against the reference ("reference", "better",
        "worse", "equivalent", "inconclusive", "not shown different"); None:
        "not shown different" or "different" from ``not_shown_different``.
    reference : str, default=None
        The model the others were compared with.
    margin : float, default=None
        The equivalence margin of the verdicts, for the legend.
    pairwise : PairwiseComparison, default=None
        All pairs, for :meth:`plot_pairwise`.
    tied : array-like of bool, default=None
        Deprecated name of ``not_shown_different`` (removed in 0.4).

    Attributes
    ----------
    names_ : ndarray of shape (n_models,)
        The models.
    means_ : ndarray of shape (n_models,)
        Their mean NDCG.
    intervals_ : ndarray of shape (n_models, 2)
        Their confidence intervals.
    not_shown_different_ : ndarray of bool, shape (n_models,)
        Whether the queries do not show each different from the reference.
    verdicts_ : ndarray of str, shape (n_models,)
        Each model's verdict against the reference.
    reference_ : str or None
        The model the others were compared with.
    margin_ : float or None
        The equivalence margin.
    pairwise_ : PairwiseComparison or None
        All pairs.
    errorbars_ : list of matplotlib ErrorbarContainer
        The points and bars of each verdict, after :meth:`plot`.
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
    >>> display.names_.tolist(), display.not_shown_different_.tolist()
    (['a', 'b', 'c'], [True, True, False])

    With a margin of 0.01, ``b`` is shown within 0.01 of ``a`` on 300 queries:

    >>> display = ModelComparisonDisplay.from_query_scores(scores, margin=0.01,
    ...                                                    random_state=0)
    >>> display.verdicts_.tolist()
    ['reference', 'equivalent', 'worse']
    """

    def __init__(
        self,
        names,
        means,
        intervals,
        not_shown_different=None,
        *,
        verdicts=None,
        reference=None,
        margin=None,
        pairwise=None,
        tied=None,
    ):
        if tied is not None:
            warn(
                "ModelComparisonDisplay(tied=...) is now not_shown_different=...: a "
                "difference that is not significant is not shown to be absent; tied will be "
                "removed in 0.4.",
                FutureWarning,
            )
            not_shown_different = tied
        self.names_ = np.asarray(names, dtype=object)
        self.means_ = np.asarray(means, dtype=np.float64)
        self.intervals_ = np.asarray(intervals, dtype=np.float64)
        n = self.names_.shape[0]
        if not_shown_different is None and verdicts is None:
            raise TypeError("give not_shown_different or verdicts, one entry per model.")
        if not_shown_different is None:
            verdict_list = np.asarray(verdicts, dtype=object)
            not_shown_different = [
                v in ("reference", "equivalent", "inconclusive", "not shown different")
                for v in verdict_list.tolist()
            ]
        self.not_shown_different_ = np.asarray(not_shown_different, dtype=bool)
        if verdicts is None:
            verdicts = [
                "reference"
                if name == reference
                else ("not shown different" if same else "different")
                for name, same in zip(self.names_.tolist(), self.not_shown_different_.tolist())
            ]
        self.verdicts_ = np.asarray(verdicts, dtype=object)
        self.reference_ = reference
        self.margin_ = margin
        self.pairwise_ = pairwise
        shapes = (self.means_.shape, self.intervals_.shape, self.not_shown_different_.shape)
        if shapes != ((n,), (n, 2), (n,)) or self.verdicts_.shape != (n,):
            raise ValueError(
                f"names ({n}), means {self.means_.shape}, intervals {self.intervals_.shape}, "
                f"not_shown_different {self.not_shown_different_.shape} and verdicts "
                f"{self.verdicts_.shape} must describe the same models: shapes (n,), (n,), "
                "(n, 2), (n,) and (n,)."
            )

    @property
    def tied_(self):
        """Deprecated: ``not_shown_different_``."""
        warn(
            "ModelComparisonDisplay.tied_ is now not_shown_different_; tied_ will be removed "
            "in 0.4.",
            FutureWarning,
        )
        return self.not_shown_different_

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
            table["not_shown_different"],
            verdicts=table["verdict"],
            reference=comparison.reference,
            margin=comparison.margin,
            pairwise=comparison.pairwise,
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
        margin=None,
        pairs="reference",
        random_state=None,
        reference=None,
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
            Deprecated spelling of ``reference``; it warns, and will be removed in 0.4.
        method : {"randomization", "t", "wilcoxon", "bootstrap", "tukey", \
                "randomized_tukey"}, default="randomization"
            The paired test, or the all-pairs procedure; see :func:`compare_models`.
        correction : {"holm", "bonferroni", "fdr_bh"} or None, default="holm"
            The adjustment for several comparisons; see :func:`compare_models`.
        confidence_level : float, default=0.95
            Of the intervals; one minus the significance level of the tests.
        n_resamples : int, default=9999
            Resamples of the randomization and bootstrap methods.
        margin : float, default=None
            The equivalence margin; see :func:`compare_models`.
        pairs : {"reference", "all"}, default="reference"
            Which pairs are compared; see :func:`compare_models`.
        random_state : int, numpy.random.Generator or None, default=None
            Seed of the resampling.
        reference : str, default=None
            The model the others are compared with; None means the best.
            Formerly ``baseline``.
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
            reference=reference,
            method=method,
            correction=correction,
            confidence_level=confidence_level,
            n_resamples=n_resamples,
            margin=margin,
            pairs=pairs,
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
        within = "" if self.margin_ is None else f"{self.margin_:g} of "
        groups = (
            ("reference", f"reference ({what})", None),
            ("equivalent", f"shown within {within}{what}", None),
            ("not shown different", f"not shown different from {what}", None),
            (
                "inconclusive",
                f"inconclusive: neither shown different nor within {within}{what}",
                None,
            ),
            ("better", f"shown better than {what}", "white"),
            ("worse", f"shown worse than {what}", "white"),
            ("different", f"shown different from {what}", "white"),
        )
        self.errorbars_ = []
        for verdict, label, face in groups:
            mask = self.verdicts_ == verdict
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

    def plot_pairwise(self, ax=None, *, cmap="RdBu"):
        """Draw every pair as a matrix: the mean difference row minus column, with verdicts.

        Needs a comparison of all pairs (``compare_models(..., pairs="all")``).
        Each cell is coloured by the mean difference of the row's model minus
        the column's, and reads the pair's p-value; cells whose p-value is
        below ``1 - confidence_level`` are marked with a star.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        cmap : str or matplotlib Colormap, default="RdBu"
            Colours of the differences (diverging, centred on 0).

        Returns
        -------
        display : ModelComparisonDisplay
            This display, with ``pairwise_image_``, ``pairwise_ax_`` set.
        """
        if self.pairwise_ is None:
            raise ValueError(
                "this display has no comparison of all pairs; create it from "
                "compare_models(..., pairs='all') or from_query_scores(..., pairs='all')."
            )
        plt = _import_pyplot()
        if ax is None:
            _, ax = plt.subplots()
        names = self.names_.tolist()
        difference, pvalue = self.pairwise_.matrix(names)
        limit = max(float(np.abs(difference).max()), np.finfo(float).tiny)
        image = ax.imshow(difference, cmap=cmap, vmin=-limit, vmax=limit)
        for i in range(len(names)):
            for j in range(len(names)):
                if i != j:
                    star = "*" if pvalue[i, j] < 1 - self.pairwise_.confidence_level else ""
                    ax.text(j, i, f"{pvalue[i, j]:.2g}{star}", ha="center", va="center")
        ax.set_xticks(range(len(names)))
        ax.set_xticklabels(names, rotation=45, ha="right")
        ax.set_yticks(range(len(names)))
        ax.set_yticklabels(names)
        ax.set_title(f"mean difference row - column; p-value ({self.pairwise_.method})")
        ax.figure.colorbar(image, ax=ax)
        self.pairwise_image_ = image
        self.pairwise_ax_ = ax
        return self
