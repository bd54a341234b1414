"""PositionBiasDisplay: the propensity of each rank with its interval.

Named ``_propensity``, not ``_position_bias``: the tests of ``_clicks/_position_bias.py``
are ``tests/clicks/test_position_bias.py``, and pytest needs distinct test file names.
"""

from __future__ import annotations

import numpy as np

from ._curve import _finish_axes, _import_pyplot


class PositionBiasDisplay:
    """The estimated propensity of each rank, with its confidence interval.

    A curve of the examination probability against the rank (rank 1 scaled to 1) and a
    band for the bootstrap interval of each rank. Create it with
    :meth:`from_position_bias` from the result of :func:`estimate_position_bias`; draw
    several estimates on the same axes by passing ``ax=``. matplotlib is needed only to
    plot.

    Read more in the :ref:`User Guide <position_bias>`.

    Parameters
    ----------
    propensity : array-like of shape (max_rank,)
        Propensity of rank ``r`` at index ``r - 1``.
    confidence_interval : array-like of shape (2, max_rank), default=None
        Lower and upper edge of the interval of each rank.
    name : str, default=None
        Label of the curve in the legend; None means no label.

    Attributes
    ----------
    rank_ : ndarray of shape (max_rank,)
        The ranks, 1 to max_rank.
    propensity_ : ndarray of shape (max_rank,)
        The propensity of each rank.
    confidence_interval_ : ndarray of shape (2, max_rank) or None
        The interval's edges.
    line_ : matplotlib Line2D
        The curve, after :meth:`plot`.
    interval_band_ : matplotlib PolyCollection or None
        The band of the intervals, if it was drawn.
    ax_ : matplotlib Axes
        The axes of the plot.
    figure_ : matplotlib Figure
        The figure holding the axes.

    See Also
    --------
    estimate_position_bias : The propensities from a click log.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_ndcg import PositionBiasDisplay
    >>> display = PositionBiasDisplay(
    ...     [1.0, 0.6, 0.4], confidence_interval=[[1.0, 0.5, 0.3], [1.0, 0.7, 0.5]],
    ...     name="EM").plot()
    >>> display.rank_
    array([1, 2, 3])
    >>> display.line_.get_ydata()
    array([1. , 0.6, 0.4])
    """

    def __init__(self, propensity, *, confidence_interval=None, name=None):
        self.propensity_ = np.array(propensity, dtype=np.float64)
        if self.propensity_.ndim != 1 or self.propensity_.size == 0:
            raise ValueError(
                f"propensity must be 1-D, one value per rank; got shape {self.propensity_.shape}."
            )
        self.rank_ = np.arange(1, self.propensity_.size + 1)
        self.confidence_interval_ = None
        if confidence_interval is not None:
            interval = np.array(confidence_interval, dtype=np.float64)
            if interval.shape != (2, self.propensity_.size):
                raise ValueError(
                    "confidence_interval needs a lower and an upper edge per rank, shape "
                    f"(2, {self.propensity_.size}); got shape {interval.shape}."
                )
            self.confidence_interval_ = interval
        self.name = name

    def plot(self, ax=None, *, name=None, show_interval=True, **kwargs):
        """Draw the propensities.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        name : str, default=None
            Label of the curve; None means the display's ``name``.
        show_interval : bool, default=True
            Draw the band of ``confidence_interval_`` in the curve's colour, where the
            display has one.
        **kwargs : dict
            Passed to :meth:`matplotlib.axes.Axes.plot`.

        Returns
        -------
        display : PositionBiasDisplay
            This display, with ``line_``, ``interval_band_``, ``ax_`` and ``figure_`` set.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_ndcg import PositionBiasDisplay
        >>> display = PositionBiasDisplay([1.0, 0.5]).plot(color="k")
        >>> display.interval_band_ is None
        True
        """
        plt = _import_pyplot()
        if ax is None:
            _, ax = plt.subplots()
        name = self.name if name is None else name
        line_kwargs = {"marker": "o"}
        if name is not None:
            line_kwargs["label"] = name
        line_kwargs.update(kwargs)
        (self.line_,) = ax.plot(self.rank_, self.propensity_, **line_kwargs)
        self.interval_band_ = None
        if show_interval and self.confidence_interval_ is not None:
            self.interval_band_ = ax.fill_between(
                self.rank_,
                *self.confidence_interval_,
                color=self.line_.get_color(),
                alpha=0.2,
                linewidth=0,
            )
        _finish_axes(self, ax, "rank", "propensity (rank 1 = 1)", "upper right")
        return self

    @classmethod
    def from_position_bias(cls, position_bias, *, name=None, ax=None, show_interval=True, **kwargs):
        """Plot the result of :func:`estimate_position_bias`.

        Parameters
        ----------
        position_bias : PositionBias
            The estimate: any object with ``propensity`` and ``confidence_interval``.
        name : str, default=None
            Label of the curve; None means the estimate's method.
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        show_interval : bool, default=True
            Draw the band of the confidence intervals.
        **kwargs : dict
            Passed to :meth:`matplotlib.axes.Axes.plot`.

        Returns
        -------
        display : PositionBiasDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_ndcg import PositionBiasDisplay, estimate_position_bias
        >>> bias = estimate_position_bias(
        ...     qid=[0, 0, 0, 0], doc=[0, 1, 0, 1], logged_rank=[1, 2, 2, 1],
        ...     click=[1, 0, 1, 1], logger=["A", "A", "B", "B"], method="harvesting",
        ...     n_bootstrap=0)
        >>> display = PositionBiasDisplay.from_position_bias(bias)
        >>> display.line_.get_label()
        'harvesting'
        >>> display.line_.get_ydata().round(3)
        array([1. , 0.5])
        """
        if not hasattr(position_bias, "propensity"):
            raise TypeError(
                "position_bias must be the result of estimate_position_bias (an object with "
                f"propensity and confidence_interval); got {type(position_bias).__name__}."
            )
        interval = getattr(position_bias, "confidence_interval", None)
        if interval is not None and np.isnan(np.asarray(interval, dtype=np.float64)).all():
            interval = None  # estimated with n_bootstrap=0
        if name is None:
            name = getattr(position_bias, "method", None)
        display = cls(position_bias.propensity, confidence_interval=interval, name=name)
        return display.plot(ax=ax, show_interval=show_interval, **kwargs)
