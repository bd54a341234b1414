"""NDCGCurveDisplay: NDCG@k against the cutoff k, in scikit-learn's Display style."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.utils.validation import check_is_fitted

from .._engine._aggregate import weighted_mean
from .._engine._queries import group_queries
from .._engine._validation import check_ranking_input
from .._metrics._ndcg import at_cutoffs
from .._model_selection._response import ranking_scores

_DEFAULT_MAX_K = 20


def _import_pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(
            "NDCGCurveDisplay needs matplotlib to plot; install it with "
            "pip install 'sklearn-ndcg[plot]' (or pip install matplotlib)."
        ) from exc
    return plt


def _check_ks(ks, longest: int) -> np.ndarray:
    """The cutoffs as a sorted int array; None means 1 .. min(longest, 20)."""
    if ks is None:
        return np.arange(1, min(longest, _DEFAULT_MAX_K) + 1)
    if isinstance(ks, Integral) or np.ndim(ks) == 0:
        value = np.asarray(ks).item() if isinstance(ks, np.ndarray) else ks
        raise TypeError(
            f"ks must be a sequence of cutoffs such as range(1, 11), got the single "
            f"value {value!r}; write ks=[{value!r}] for one cutoff."
        )
    if any(isinstance(k, (bool, np.bool_)) for k in ks):
        raise TypeError(f"ks must hold integers >= 1, not booleans; got {list(ks)!r}.")
    values = np.asarray(ks)
    if values.ndim != 1 or values.size == 0:
        raise ValueError(
            f"ks must be a non-empty 1-D sequence of cutoffs, got an array of shape {values.shape}."
        )
    if not np.issubdtype(values.dtype, np.integer) or (values < 1).any():
        raise ValueError(f"ks must hold integers >= 1, got {values.tolist()!r}.")
    if np.unique(values).size != values.size:
        raise ValueError(f"ks must not repeat a cutoff, got {values.tolist()!r}.")
    return np.sort(values.astype(np.intp))


def _longest_query(y_true, y_score, qid, sample_weight) -> int:
    """Documents in the longest query, after the checks of :func:`ndcg_score`."""
    data = check_ranking_input(y_true, y_score, qid, sample_weight)
    return int(group_queries(data.qid, data.shape).sizes.max())


class NDCGCurveDisplay:
    """NDCG@k against the cutoff k.

    Shows how ranking quality builds up down the list: NDCG\\@1 judges the top
    document only, larger ``k`` more of the ranking. Create it with
    :meth:`from_predictions` or :meth:`from_estimator`; draw several models on
    the same axes by passing ``ax=`` (or calling :meth:`plot` with the axes of
    the first display). An optional band shows how the queries spread around
    the mean, and another the range that the order of tied scores alone can
    move the curve (between the pessimistic and the optimistic tie rule).
    matplotlib is needed only to plot.

    Read more in the :ref:`User Guide <display>`.

    Parameters
    ----------
    ks : array-like of shape (n_ks,)
        The cutoffs, increasing.
    ndcg : array-like of shape (n_ks,)
        The (weighted) mean NDCG@k over queries at each cutoff.
    spread : array-like of shape (2, n_ks), default=None
        Lower and upper edge of the per-query band at each cutoff, e.g. the
        quartiles of the per-query NDCG@k.
    name : str, default=None
        Label of the curve in the legend; None means no label.
    tie_range : array-like of shape (2, n_ks), default=None
        The mean NDCG@k with tied documents ordered by increasing and by
        decreasing gain (``ties="pessimistic"`` and ``"optimistic"``).

    Attributes
    ----------
    ks_ : ndarray of shape (n_ks,)
        The cutoffs.
    ndcg_ : ndarray of shape (n_ks,)
        The mean NDCG@k at each cutoff.
    spread_ : ndarray of shape (2, n_ks) or None
        The band's lower and upper edges.
    tie_range_ : ndarray of shape (2, n_ks) or None
        The pessimistic and optimistic mean NDCG@k.
    line_ : matplotlib Line2D
        The curve, after :meth:`plot`.
    spread_band_ : matplotlib PolyCollection or None
        The band, if it was drawn.
    tie_band_ : matplotlib PolyCollection or None
        The band of ``tie_range_``, if it was drawn.
    ax_ : matplotlib Axes
        The axes of the plot.
    figure_ : matplotlib Figure
        The figure holding the axes.

    See Also
    --------
    ndcg_score : NDCG at one cutoff.
    query_scores : NDCG of each query.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from sklearn_ndcg import NDCGCurveDisplay
    >>> y_true = [3, 2, 0, 1, 0, 2, 0, 1]
    >>> y_score = [0.9, 0.1, 0.5, 0.4, 0.3, 0.2, 0.8, 0.7]
    >>> qid = [1, 1, 1, 1, 2, 2, 2, 2]
    >>> display = NDCGCurveDisplay.from_predictions(
    ...     y_true, y_score, qid=qid, ks=[1, 2, 4], name="model")
    >>> display.ks_
    array([1, 2, 4])
    >>> display.ndcg_.round(4)
    array([0.5   , 0.4719, 0.7416])

    A second model on the same axes:

    >>> other = NDCGCurveDisplay.from_predictions(
    ...     y_true, y_true, qid=qid, ks=[1, 2, 4], name="oracle", ax=display.ax_)
    >>> other.ndcg_
    array([1., 1., 1.])
    >>> len(display.ax_.get_lines())
    2
    """

    def __init__(self, ks, ndcg, *, spread=None, name=None, tie_range=None):
        self.ks_ = np.asarray(ks)
        self.ndcg_ = np.asarray(ndcg, dtype=np.float64)
        self.spread_ = self._check_band(spread, "spread")
        self.tie_range_ = self._check_band(tie_range, "tie_range")
        self.name = name
        if self.ndcg_.shape != self.ks_.shape:
            raise ValueError(
                f"ndcg needs one value per cutoff in ks ({self.ks_.shape[0]}), got "
                f"shape {self.ndcg_.shape}."
            )

    def _check_band(self, band, name: str) -> np.ndarray | None:
        if band is None:
            return None
        band = np.asarray(band, dtype=np.float64)
        if band.shape != (2, self.ks_.shape[0]):
            raise ValueError(
                f"{name} needs a lower and an upper edge per cutoff, shape "
                f"(2, {self.ks_.shape[0]}); got shape {band.shape}."
            )
        return band

    def plot(self, ax=None, *, name=None, show_spread=False, show_tie_range=False, **kwargs):
        """Draw the curve.

        Parameters
        ----------
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        name : str, default=None
            Label of the curve; None means the display's ``name``.
        show_spread : bool, default=False
            Also draw the per-query band ``spread_`` in the curve's colour.
        show_tie_range : bool, default=False
            Also draw ``tie_range_``, hatched, in the curve's colour.
        **kwargs : dict
            Passed to :meth:`matplotlib.axes.Axes.plot`.

        Returns
        -------
        display : NDCGCurveDisplay
            This display, with ``line_``, ``ax_`` and ``figure_`` set.

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_ndcg import NDCGCurveDisplay
        >>> display = NDCGCurveDisplay([1, 2, 3], [0.5, 0.6, 0.8], name="model")
        >>> display = display.plot(color="k")
        >>> display.line_.get_ydata()
        array([0.5, 0.6, 0.8])
        """
        plt = _import_pyplot()
        for wanted, band, what in (
            (show_spread, self.spread_, "spread"),
            (show_tie_range, self.tie_range_, "tie_range"),
        ):
            if wanted and band is None:
                raise ValueError(
                    f"show_{what}=True, but this display has no {what}; create it with "
                    f"from_predictions or from_estimator, or pass {what}=."
                )
        if ax is None:
            _, ax = plt.subplots()
        name = self.name if name is None else name
        line_kwargs = {"marker": "o"}
        if name is not None:
            line_kwargs["label"] = name
        line_kwargs.update(kwargs)
        (self.line_,) = ax.plot(self.ks_, self.ndcg_, **line_kwargs)
        color = self.line_.get_color()
        self.spread_band_ = self.tie_band_ = None
        if show_spread:
            self.spread_band_ = ax.fill_between(
                self.ks_, *self.spread_, color=color, alpha=0.2, linewidth=0
            )
        if show_tie_range:
            self.tie_band_ = ax.fill_between(
                self.ks_,
                *self.tie_range_,
                facecolor="none",
                edgecolor=color,
                hatch="//",
                linewidth=0,
                label=f"{name}: tie range" if name is not None else None,
            )
        ax.set_xlabel("cutoff k")
        ax.set_ylabel("NDCG@k")
        if self.line_.get_label() and not self.line_.get_label().startswith("_"):
            ax.legend(loc="lower right")
        self.ax_ = ax
        self.figure_ = ax.figure
        return self

    @classmethod
    def from_predictions(
        cls,
        y_true,
        y_score,
        *,
        qid=None,
        ks=None,
        gain="linear",
        discount="log2",
        ties="average",
        zero_division=0.0,
        sample_weight=None,
        name=None,
        ax=None,
        show_spread=False,
        spread_quantiles=(0.25, 0.75),
        normalize="ideal",
        show_tie_range=False,
        **kwargs,
    ):
        """Plot NDCG@k against k from relevance labels and scores.

        Parameters
        ----------
        y_true : array-like of shape (n_queries, n_documents) or (n_samples,)
            Relevance labels; see :func:`ndcg_score`.
        y_score : array-like of the same shape as y_true
            Predicted scores; documents are ranked by decreasing score.
        qid : array-like of shape (n_samples,), default=None
            Query id of each document. Required with 1-D (long format) input, which
            raises a ValueError without it rather than score all rows as one
            query; give a single query as one 2-D row instead.
        ks : array-like of int, default=None
            The cutoffs. None means 1, 2, ... up to the longest query, at
            most 20.
        gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
            Gain of a document from its relevance label; see :func:`ndcg_score`.
        discount : {"log2", "reciprocal", "none"} or callable, default="log2"
            Weight of each rank; see :func:`ndcg_score`.
        ties : {"average", "first", "optimistic", "pessimistic"}, default="average"
            How documents with equal scores are ordered; see :func:`ndcg_score`.
        zero_division : {0.0, 1.0, np.nan}, default=0.0
            NDCG of a query with no relevant document; ``np.nan`` leaves such
            queries out of the mean and of the band.
        sample_weight : array-like, default=None
            Weight of each query in the mean; see :func:`ndcg_score`.
        name : str, default=None
            Label of the curve in the legend.
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        show_spread : bool, default=False
            Draw a band between two quantiles of the per-query NDCG@k.
        spread_quantiles : tuple of two floats, default=(0.25, 0.75)
            The quantiles (unweighted, over queries) bounding the band.
        normalize : {"ideal", "minmax"}, default="ideal"
            Divide the DCG by the ideal DCG, or min-max normalise it between
            the worst and the ideal DCG; see :func:`ndcg_score`.
        show_tie_range : bool, default=False
            Draw the band between the pessimistic and the optimistic mean
            NDCG@k (``tie_range_``, always computed): how far the order of
            tied scores alone can move the curve.
        **kwargs : dict
            Passed to :meth:`matplotlib.axes.Axes.plot`.

        Returns
        -------
        display : NDCGCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> from sklearn_ndcg import NDCGCurveDisplay
        >>> display = NDCGCurveDisplay.from_predictions(
        ...     [[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]], ks=[1, 3, 5])
        >>> display.ndcg_.round(4)
        array([1.    , 0.895 , 0.9762])
        """
        low, high = _check_quantiles(spread_quantiles)
        ks = _check_ks(ks, _longest_query(y_true, y_score, qid, sample_weight))
        options = dict(
            qid=qid,
            gain=gain,
            discount=discount,
            zero_division=zero_division,
            sample_weight=sample_weight,
            normalize=normalize,
        )
        per_query, weight = at_cutoffs(y_true, y_score, ks, ties=ties, **options)
        ndcg = np.empty(ks.shape[0])
        spread = np.empty((2, ks.shape[0]))
        for i, scores in enumerate(per_query.T):  # a loop over cutoffs, not queries
            ndcg[i] = weighted_mean(scores, weight)
            kept = scores[~np.isnan(scores)]
            spread[:, i] = np.quantile(kept, [low, high]) if kept.size else np.nan
        tie_range = [
            [
                weighted_mean(scores, weight)
                for scores in at_cutoffs(y_true, y_score, ks, ties=rule, **options)[0].T
            ]
            for rule in ("pessimistic", "optimistic")
        ]
        display = cls(ks, ndcg, spread=spread, name=name, tie_range=tie_range)
        return display.plot(ax=ax, show_spread=show_spread, show_tie_range=show_tie_range, **kwargs)

    @classmethod
    def from_estimator(
        cls,
        estimator,
        X,
        y,
        *,
        qid=None,
        ks=None,
        response_method="auto",
        gain="linear",
        discount="log2",
        ties="average",
        zero_division=0.0,
        sample_weight=None,
        name=None,
        ax=None,
        show_spread=False,
        spread_quantiles=(0.25, 0.75),
        normalize="ideal",
        show_tie_range=False,
        **kwargs,
    ):
        """Plot NDCG@k against k for a fitted estimator.

        Parameters
        ----------
        estimator : estimator object
            A fitted regressor, classifier or ranker (or a pipeline ending in
            one).
        X : {array-like, sparse matrix} of shape (n_samples, n_features)
            The documents to rank.
        y : array-like of shape (n_samples,)
            Their relevance labels.
        qid : array-like of shape (n_samples,), default=None
            Query id of each document. Required with 1-D ``y`` (long format),
            which raises a ValueError without it rather than score all rows as
            one query.
        ks : array-like of int, default=None
            The cutoffs. None means 1, 2, ... up to the longest query, at
            most 20.
        response_method : "auto", {"decision_function", "predict_proba", \
                "predict"} or tuple of them, default="auto"
            How the estimator scores documents, as in :func:`make_ndcg_scorer`:
            "auto" ranks a regressor or ranker by ``predict``, a binary
            classifier by its decision function, a classifier of graded
            labels by its expected label ``predict_proba(X) @ classes_``.
        gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
            Gain of a document from its relevance label; see :func:`ndcg_score`.
        discount : {"log2", "reciprocal", "none"} or callable, default="log2"
            Weight of each rank; see :func:`ndcg_score`.
        ties : {"average", "first", "optimistic", "pessimistic"}, default="average"
            How documents with equal scores are ordered; see :func:`ndcg_score`.
        zero_division : {0.0, 1.0, np.nan}, default=0.0
            NDCG of a query with no relevant document; see :func:`ndcg_score`.
        sample_weight : array-like of shape (n_samples,), default=None
            Weight of each query, given per document (equal within a query).
        name : str, default=None
            Label of the curve; None means the estimator's class name.
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        show_spread : bool, default=False
            Draw a band between two quantiles of the per-query NDCG@k.
        spread_quantiles : tuple of two floats, default=(0.25, 0.75)
            The quantiles (unweighted, over queries) bounding the band.
        normalize : {"ideal", "minmax"}, default="ideal"
            Divide the DCG by the ideal DCG, or min-max normalise it between
            the worst and the ideal DCG; see :func:`ndcg_score`.
        show_tie_range : bool, default=False
            Draw the band between the pessimistic and the optimistic mean
            NDCG@k (``tie_range_``, always computed): how far the order of
            tied scores alone can move the curve.
        **kwargs : dict
            Passed to :meth:`matplotlib.axes.Axes.plot`.

        Returns
        -------
        display : NDCGCurveDisplay

        Examples
        --------
        >>> import matplotlib
        >>> matplotlib.use("Agg")
        >>> import numpy as np
        >>> from sklearn.linear_model import Ridge
        >>> from sklearn_ndcg import NDCGCurveDisplay
        >>> rng = np.random.default_rng(0)
        >>> qid = np.repeat(np.arange(20), 10)
        >>> X = rng.normal(size=(200, 3))
        >>> y = np.digitize(X[:, 0] + rng.normal(size=200), [0.5, 1.5])
        >>> model = Ridge().fit(X, y)
        >>> display = NDCGCurveDisplay.from_estimator(
        ...     model, X, y, qid=qid, ks=[1, 5, 10], show_spread=True)
        >>> display.line_.get_label()
        'Ridge'
        >>> display.ndcg_.round(4)
        array([0.6   , 0.705 , 0.7978])
        >>> display.spread_.round(2)  # quartiles of the per-query NDCG@k
        array([[0.  , 0.47, 0.64],
               [1.  , 0.97, 0.97]])
        """
        check_is_fitted(estimator)
        y_score = ranking_scores(estimator, X, np.ndim(y), response_method)
        if name is None:
            name = type(estimator).__name__
        return cls.from_predictions(
            y,
            y_score,
            qid=qid,
            ks=ks,
            gain=gain,
            discount=discount,
            ties=ties,
            zero_division=zero_division,
            sample_weight=sample_weight,
            name=name,
            ax=ax,
            show_spread=show_spread,
            spread_quantiles=spread_quantiles,
            normalize=normalize,
            show_tie_range=show_tie_range,
            **kwargs,
        )


def _check_quantiles(spread_quantiles) -> tuple[float, float]:
    try:
        low, high = (float(q) for q in spread_quantiles)
    except (TypeError, ValueError):
        raise ValueError(
            "spread_quantiles must be two numbers (lower, upper) between 0 and 1, "
            f"got {spread_quantiles!r}."
        ) from None
    if not 0 <= low <= high <= 1:
        raise ValueError(
            "spread_quantiles must be two numbers with 0 <= lower <= upper <= 1, "
            f"got {spread_quantiles!r}."
        )
    return low, high
