"""NDCGCurveDisplay: NDCG@k against the cutoff k, in scikit-learn's Display style."""

from __future__ import annotations

import numpy as np
from sklearn import get_config
from sklearn.utils.validation import check_is_fitted

from .._compat import INSTALL_HINT
from .._engine import RankingOptions, query_values, stage, weighted_mean
from .._model_selection._response import ranking_scores
from .._options import COMMON_PARAMS, NDCG_PARAMS, UNJUDGED_QUERIES, check_cutoffs
from .._validate_params import check_parameters
from .._warn import warn

_DEFAULT_MAX_K = 20


def _import_pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as exc:
        raise ImportError(
            "NDCGCurveDisplay needs matplotlib to plot; install it with "
            f"{INSTALL_HINT.format(extra='plot')}."
        ) from exc
    return plt


def _finish_axes(display, ax, xlabel: str, ylabel: str, legend_loc: str) -> None:
    """Label the axes (whole-number ticks on x: ranks and cutoffs), show the legend if
    the line has a label, and keep ``ax_`` and ``figure_`` on ``display``."""
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    from matplotlib.ticker import MaxNLocator  # no tick at k = 2.5

    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if display.line_.get_label() and not display.line_.get_label().startswith("_"):
        ax.legend(loc=legend_loc)
    display.ax_ = ax
    display.figure_ = ax.figure


_OPTIONS = {
    **{
        name: COMMON_PARAMS[name]
        for name in ("y_true", "y_score", "gain", "discount", "ties", "qid", "sample_weight")
    },
    **NDCG_PARAMS,
    **UNJUDGED_QUERIES,
}
_TIE_RANGE = ("pessimistic", "optimistic")


def _curve_values(
    y_true,
    y_score,
    ks,
    *,
    qid,
    sample_weight,
    gain,
    discount,
    ties: str,
    zero_division: float,
    normalize: str,
    unjudged_queries: str = "drop",
    name: str = "k",
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None, dict[str, np.ndarray]]:
    """Stage the input once, then order it once per tie rule.

    Returns the cutoffs, the per-query NDCG@k with ``ties`` (shape
    (n_queries, n_ks)), the query weights, and the per-query NDCG@k with the
    pessimistic and the optimistic tie rule.
    """
    if not get_config()["skip_parameter_validation"]:  # as validate_params does
        check_parameters(
            _OPTIONS,
            {
                "y_true": y_true,
                "y_score": y_score,
                "ties": ties,
                "zero_division": zero_division,
                "normalize": normalize,
                "unjudged_queries": unjudged_queries,
                "qid": qid,
                "gain": gain,
                "discount": discount,
                "sample_weight": sample_weight,
            },
            caller_name="NDCGCurveDisplay",
        )
    options = RankingOptions(
        gain=gain, discount=discount, ties=ties, zero_division=zero_division, normalize=normalize
    )
    staged = stage(y_true, y_score, options, qid=qid, sample_weight=sample_weight)
    longest = int(staged.queries.sizes.max())
    ks = check_cutoffs(ks, name=name, none_means_up_to=min(longest, _DEFAULT_MAX_K))
    per_rule = {}
    for rule in (ties, *_TIE_RANGE):
        if rule not in per_rule:
            per_rule[rule] = query_values(staged, options.replace(ties=rule), ks=ks).values
    return ks, per_rule[ties], staged.weight, {rule: per_rule[rule] for rule in _TIE_RANGE}


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
    k : array-like of shape (n_ks,)
        The cutoffs, increasing. Formerly ``ks``.
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
    ks : array-like of shape (n_ks,), default=None
        Deprecated spelling of ``k``; it warns, and will be removed in 0.4.

    Attributes
    ----------
    k_ : ndarray of shape (n_ks,)
        The cutoffs. (``ks_``, the former name, works with a FutureWarning until 0.4.)
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
    ...     y_true, y_score, qid=qid, k=[1, 2, 4], name="model")
    >>> display.k_
    array([1, 2, 4])
    >>> display.ndcg_.round(4)
    array([0.5   , 0.4719, 0.7416])

    A second model on the same axes:

    >>> other = NDCGCurveDisplay.from_predictions(
    ...     y_true, y_true, qid=qid, k=[1, 2, 4], name="oracle", ax=display.ax_)
    >>> other.ndcg_
    array([1., 1., 1.])
    >>> len(display.ax_.get_lines())
    2
    """

    def __init__(self, k=None, ndcg=None, *, spread=None, name=None, tie_range=None, ks=None):
        if ndcg is None:
            raise TypeError("NDCGCurveDisplay needs ndcg, the mean NDCG@k at each cutoff.")
        self.k_ = np.asarray(_deprecated_ks(ks, k, "NDCGCurveDisplay")[0])
        self.ndcg_ = np.asarray(ndcg, dtype=np.float64)
        self.spread_ = self._check_band(spread, "spread")
        self.tie_range_ = self._check_band(tie_range, "tie_range")
        self.name = name
        if self.ndcg_.shape != self.k_.shape:
            raise ValueError(
                f"ndcg needs one value per cutoff in k ({self.k_.shape[0]}), got "
                f"shape {self.ndcg_.shape}."
            )

    @property
    def ks_(self) -> np.ndarray:
        """Deprecated: the cutoffs; use ``k_``."""
        warn(
            "NDCGCurveDisplay.ks_ is now NDCGCurveDisplay.k_ (k, the cutoff's name in every "
            "function of the package); ks_ will be removed in 0.4.",
            FutureWarning,
        )
        return self.k_

    def _check_band(self, band, name: str) -> np.ndarray | None:
        if band is None:
            return None
        band = np.asarray(band, dtype=np.float64)
        if band.shape != (2, self.k_.shape[0]):
            raise ValueError(
                f"{name} needs a lower and an upper edge per cutoff, shape "
                f"(2, {self.k_.shape[0]}); got shape {band.shape}."
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
        (self.line_,) = ax.plot(self.k_, self.ndcg_, **line_kwargs)
        color = self.line_.get_color()
        self.spread_band_ = self.tie_band_ = None
        if show_spread:
            self.spread_band_ = ax.fill_between(
                self.k_, *self.spread_, color=color, alpha=0.2, linewidth=0
            )
        if show_tie_range:
            self.tie_band_ = ax.fill_between(
                self.k_,
                *self.tie_range_,
                facecolor="none",
                edgecolor=color,
                hatch="//",
                linewidth=0,
                label=f"{name}: tie range" if name is not None else None,
            )
        _finish_axes(self, ax, "cutoff k", "NDCG@k", "lower right")
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
        k=None,
        unjudged_queries="drop",
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
            Query id of each document, for 1-D (long format) input, where it is required:
            without it, 1-D input raises a ValueError rather than score all rows as one
            query (give a single query as one 2-D row). Ids may be of any sortable type, in
            any order, and queries of any length.
        ks : array-like of int, default=None
            Deprecated spelling of ``k``; it warns, and will be removed in 0.4.
        gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
            Gain of a document from its relevance label: "linear" (the label, as
            scikit-learn), "exponential" (``2**label - 1``, as LightGBM and XGBoost), a
            mapping from label to gain, a sequence indexed by label (LightGBM's
            ``label_gain``) or a callable; see :func:`~sklearn_ndcg.ndcg_score`.
        discount : {"log2", "reciprocal", "none"} or callable, default="log2"
            Weight of the document at rank ``r`` (from 1): "log2" (``1 / log2(r + 1)``),
            "reciprocal" (``1 / r``), "none" (1) or a callable; see
            :func:`~sklearn_ndcg.ndcg_score`.
        ties : {"average", "first", "optimistic", "pessimistic", "docno"}, default="average"
            How documents with equal scores are ordered: "average" (the mean DCG over all
            their orders, as scikit-learn), "first" (input order), "optimistic" (by
            decreasing gain), "pessimistic" (by increasing gain) or "docno" (trec_eval's
            order by document id, which needs tie-free scores where document ids are
            unknown); see :func:`~sklearn_ndcg.ndcg_score`.
        zero_division : {0.0, 1.0, np.nan}, default=0.0
            NDCG of a query whose ideal DCG is not positive (no relevant document): 0.0 as
            in scikit-learn, 1.0 as in LightGBM and XGBoost, or ``np.nan`` to leave such
            queries out of the mean; see :func:`~sklearn_ndcg.ndcg_score`. ``np.nan`` also
            leaves them out of the band.
        sample_weight : array-like, default=None
            Weight of each query in the mean: one per row for 2-D input; for long format one
            per document, equal within a query.
        name : str, default=None
            Label of the curve in the legend.
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        show_spread : bool, default=False
            Draw a band between two quantiles of the per-query NDCG@k.
        spread_quantiles : tuple of two floats, default=(0.25, 0.75)
            The quantiles (unweighted, over queries) bounding the band.
        normalize : {"ideal", "minmax"}, default="ideal"
            What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
            NDCG), or the range between the worst and the ideal DCG ("minmax"); see
            :func:`~sklearn_ndcg.ndcg_score`.
        show_tie_range : bool, default=False
            Draw the band between the pessimistic and the optimistic mean
            NDCG@k (``tie_range_``, always computed): how far the order of
            tied scores alone can move the curve.
        k : array-like of int, default=None
            The cutoffs. None means 1, 2, ... up to the longest query, at
            most 20. Formerly ``ks``.
        unjudged_queries : {"drop", "zero"}, default="drop"
            With ``pool``: queries of ``qid`` that the pool lacks are left out ("drop", as
            trec_eval leaves out queries without qrels) or score 0 ("zero", as Spark scores a
            query with an empty set of relevant ids): such a query is judged to have no
            relevant document, so its ideal DCG is 0, its NDCG ``zero_division`` and a
            positive label in its ranking is refused. ``CONVENTIONS["spark"]`` sets "zero".
            Without a pool every query is judged by its own labels and it changes nothing.
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
        ...     [[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]], k=[1, 3, 5])
        >>> display.ndcg_.round(4)
        array([1.    , 0.895 , 0.9762])
        """
        low, high = _check_quantiles(spread_quantiles)
        cutoffs, spelling = _deprecated_ks(ks, k, "NDCGCurveDisplay.from_predictions")
        ks, per_query, weight, by_tie_rule = _curve_values(
            y_true,
            y_score,
            cutoffs,
            name=spelling,
            qid=qid,
            gain=gain,
            discount=discount,
            ties=ties,
            zero_division=zero_division,
            sample_weight=sample_weight,
            normalize=normalize,
            unjudged_queries=unjudged_queries,
        )
        ndcg = np.empty(ks.shape[0])
        spread = np.empty((2, ks.shape[0]))
        for i, scores in enumerate(per_query.T):  # a loop over cutoffs, not queries
            ndcg[i] = weighted_mean(scores, weight)
            kept = scores[~np.isnan(scores)]
            spread[:, i] = np.quantile(kept, [low, high]) if kept.size else np.nan
        tie_range = [
            [weighted_mean(scores, weight) for scores in by_tie_rule[rule].T] for rule in _TIE_RANGE
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
        k=None,
        unjudged_queries="drop",
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
            Deprecated spelling of ``k``; it warns, and will be removed in 0.4.
        response_method : "auto", {"decision_function", "predict_proba", \
                "predict"} or tuple of them, default="auto"
            How the estimator scores documents, as in :func:`make_ndcg_scorer`:
            "auto" ranks a regressor or ranker by ``predict``, a binary
            classifier by its decision function, a classifier of graded
            labels by its expected label ``predict_proba(X) @ classes_``.
        gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
            Gain of a document from its relevance label: "linear" (the label, as
            scikit-learn), "exponential" (``2**label - 1``, as LightGBM and XGBoost), a
            mapping from label to gain, a sequence indexed by label (LightGBM's
            ``label_gain``) or a callable; see :func:`~sklearn_ndcg.ndcg_score`.
        discount : {"log2", "reciprocal", "none"} or callable, default="log2"
            Weight of the document at rank ``r`` (from 1): "log2" (``1 / log2(r + 1)``),
            "reciprocal" (``1 / r``), "none" (1) or a callable; see
            :func:`~sklearn_ndcg.ndcg_score`.
        ties : {"average", "first", "optimistic", "pessimistic", "docno"}, default="average"
            How documents with equal scores are ordered: "average" (the mean DCG over all
            their orders, as scikit-learn), "first" (input order), "optimistic" (by
            decreasing gain), "pessimistic" (by increasing gain) or "docno" (trec_eval's
            order by document id, which needs tie-free scores where document ids are
            unknown); see :func:`~sklearn_ndcg.ndcg_score`.
        zero_division : {0.0, 1.0, np.nan}, default=0.0
            NDCG of a query whose ideal DCG is not positive (no relevant document): 0.0 as
            in scikit-learn, 1.0 as in LightGBM and XGBoost, or ``np.nan`` to leave such
            queries out of the mean; see :func:`~sklearn_ndcg.ndcg_score`.
        sample_weight : array-like, default=None
            Weight of each query in the mean: one per row for 2-D input; for long format one
            per document, equal within a query.
        name : str, default=None
            Label of the curve; None means the estimator's class name.
        ax : matplotlib Axes, default=None
            Axes to draw on; None means new axes in a new figure.
        show_spread : bool, default=False
            Draw a band between two quantiles of the per-query NDCG@k.
        spread_quantiles : tuple of two floats, default=(0.25, 0.75)
            The quantiles (unweighted, over queries) bounding the band.
        normalize : {"ideal", "minmax"}, default="ideal"
            What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
            NDCG), or the range between the worst and the ideal DCG ("minmax"); see
            :func:`~sklearn_ndcg.ndcg_score`.
        show_tie_range : bool, default=False
            Draw the band between the pessimistic and the optimistic mean
            NDCG@k (``tie_range_``, always computed): how far the order of
            tied scores alone can move the curve.
        k : array-like of int, default=None
            The cutoffs. None means 1, 2, ... up to the longest query, at
            most 20. Formerly ``ks``.
        unjudged_queries : {"drop", "zero"}, default="drop"
            With ``pool``: queries of ``qid`` that the pool lacks are left out ("drop", as
            trec_eval leaves out queries without qrels) or score 0 ("zero", as Spark scores a
            query with an empty set of relevant ids): such a query is judged to have no
            relevant document, so its ideal DCG is 0, its NDCG ``zero_division`` and a
            positive label in its ranking is refused. ``CONVENTIONS["spark"]`` sets "zero".
            Without a pool every query is judged by its own labels and it changes nothing.
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
        ...     model, X, y, qid=qid, k=[1, 5, 10], show_spread=True)
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
            k=k,
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
            unjudged_queries=unjudged_queries,
            **kwargs,
        )


def _deprecated_ks(ks, k, owner: str):
    """The cutoffs given as ``k`` or (deprecated) ``ks``, and the name they were given by."""
    if ks is None:
        return k, "k"
    if k is not None:
        raise ValueError(f"{owner} takes k or ks (its deprecated spelling), not both.")
    warn(
        f"{owner}(ks=...) is now {owner}(k=...), the cutoff's name in every function of the "
        "package (one cutoff or several); ks will be removed in 0.4.",
        FutureWarning,
    )
    return ks, "ks"


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
