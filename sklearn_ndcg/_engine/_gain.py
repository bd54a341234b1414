"""Relevance labels -> gains."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from ._ranking_options import GAINS as GAINS  # its list lives with the options
from ._validation import apply_callable, bad_value_error


def compute_gain(
    y_true: np.ndarray,
    gain,
    negative_labels: bool = False,
    *,
    qid=None,
    shape: tuple[int, int] | None = None,
    rows: np.ndarray | Callable[[], np.ndarray] | None = None,
    n_bad: int | None = None,
) -> np.ndarray:
    """Gain of each document from its relevance label.

    Parameters
    ----------
    y_true : ndarray
        Flat float64 relevance labels.
    gain : {"linear", "exponential"}, Mapping, sequence or callable
        See :func:`sklearn_ndcg.ndcg_score`.
    negative_labels : bool
        Whether the built-in gains take negative labels (min-max normalised
        NDCG stays bounded with them); scikit-learn refuses them.
    qid, shape, rows, n_bad
        Only for the error that names the first refused label's place: the query id
        of each row of long-format input (``qid`` and ``rows`` may be functions that
        return them), the
        ``(n_queries, n_documents)`` layout of 2-D input, and the rows and count of
        the whole frame (Dask and Spark, see :func:`~._validation.as_float_array`).

    Returns
    -------
    ndarray
        Float64 gains, same shape as ``y_true``.
    """
    where = _Where(y_true, qid, shape, rows, n_bad)
    if isinstance(gain, str):
        # fmin skips NaN (unjudged documents); one pass, no temporary array
        if not negative_labels and y_true.size and np.fmin.reduce(y_true, axis=None) < 0:
            raise negative_labels_error("y_true", y_true, gain, where)
        if gain == "linear":
            return y_true  # the stages never write to their inputs
        with np.errstate(over="ignore"):
            gains = np.exp2(y_true) - 1.0
        if not np.isfinite(gains).all():
            raise where.error(
                f'gain="exponential" overflows float64 for relevance label '
                f"{np.nanmax(y_true):g} (2**label - 1 is finite only for labels below "
                "1024); y_true has such labels",
                np.isinf(gains),
                "; use gain='linear' or rescale the labels.",
            )
        return gains
    if isinstance(gain, Mapping):
        return _gain_from_mapping(y_true, gain, where)
    if hasattr(gain, "index") and hasattr(gain, "items") and not isinstance(gain, np.ndarray):
        # a pandas Series is a table from label (its index) to gain, not a sequence
        return _gain_from_mapping(y_true, dict(gain.items()), where)
    if callable(gain):
        return _gain_from_callable(y_true, gain, where)
    return _gain_from_sequence(y_true, gain, where)


def negative_labels_error(what: str, labels: np.ndarray, gain: str, where=None, *, qid=None):
    """The one error of every door for negative labels under a named gain (the metric
    functions, query_scores, evaluate_run, Spark): where the first is (``where``, the
    place of each label; else ``qid``, each label's query id), why, and the fixes."""
    head = f"{what} has negative relevance labels (min {np.nanmin(labels):g})"
    fix = (
        f'; gain="{gain}" does not accept them (as in scikit-learn: ndcg_score should not '
        "be used on negative y_true values). To read them as trec_eval does (a negative "
        "level: in the pool, not judged, gain 0; not relevant for the measures of binary "
        "relevance), pass gain=positive_part_gain (from sklearn_ndcg); to penalise bad "
        'documents, use normalize="minmax" (NDCG stays in [0, 1]), or give gain as a '
        "mapping or callable, e.g. gain={1: 1.0, 0: 0.0, -1: -1.0}."
    )
    if where is not None:
        return where.error(head, labels < 0, fix)
    return bad_value_error(head, labels < 0, fix, qid=qid)


class _Where:
    """Where the labels are, for the errors that name the first refused one."""

    def __init__(self, y_true, qid, shape, rows, n_bad):
        self.shape = y_true.shape if shape is None else shape
        self.qid, self.rows, self.n_bad = qid, rows, n_bad

    def error(self, head: str, bad: np.ndarray, tail: str) -> ValueError:
        # qid and rows may be functions that find them, on this error path only
        qid = self.qid() if callable(self.qid) else self.qid
        rows = self.rows() if callable(self.rows) else self.rows
        return bad_value_error(
            head, bad.reshape(self.shape), tail, qid=qid, rows=rows, n_bad=self.n_bad
        )


def _gain_from_mapping(y_true: np.ndarray, gain: Mapping, where: _Where) -> np.ndarray:
    try:
        labels = np.array(list(gain.keys()), dtype=np.float64)
        values = np.array(list(gain.values()), dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"gain as a mapping must map numeric relevance labels to numeric gains, got {gain!r}."
        ) from None
    if not np.isfinite(values).all():
        raise ValueError("gain as a mapping has NaN or infinite gains; give finite gains.")
    if labels.size == 0:
        raise ValueError("gain is an empty mapping; give a gain for every label in y_true.")
    if np.unique(labels).size != labels.size:
        raise ValueError(
            "gain as a mapping has labels that are equal as float64 numbers (e.g. "
            "integers beyond 2**53); give labels that are distinct as float64."
        )
    order = np.argsort(labels)
    labels, values = labels[order], values[order]
    index = np.searchsorted(labels, y_true).clip(max=labels.size - 1)
    found = labels[index] == y_true
    if not found.all():
        missing = np.unique(y_true[~found])
        raise where.error(
            f"gain has no entry for the relevance labels {_labels(missing)}; the "
            "mapping must give a gain for every label in y_true. They are",
            ~found,
            ".",
        )
    return values[index]


def _gain_from_sequence(y_true: np.ndarray, gain, where: _Where) -> np.ndarray:
    try:
        table = np.asarray(gain, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            'gain must be "linear", "exponential", a mapping {label: gain}, a '
            f"sequence of gains indexed by label, or a callable; got {gain!r}."
        ) from None
    if table.ndim != 1 or table.size == 0:
        raise ValueError(
            f"gain as a sequence must be a non-empty 1-D list of gains indexed by "
            f"label; got shape {table.shape}."
        )
    if not np.isfinite(table).all():
        raise ValueError("gain as a sequence has NaN or infinite gains; give finite gains.")
    if (y_true != np.round(y_true)).any() or (y_true < 0).any():
        bad = (y_true != np.round(y_true)) | (y_true < 0)
        raise where.error(
            "gain as a sequence (LightGBM's label_gain) is indexed by label, so y_true "
            f"must hold non-negative integers; got {_labels(np.unique(y_true[bad]))}",
            bad,
            ".",
        )
    if y_true.max() >= table.size:
        raise where.error(
            f"gain as a sequence has {table.size} entries (labels 0..{table.size - 1}) "
            f"but y_true has the label {y_true.max():g}; labels above {table.size - 1} are",
            y_true >= table.size,
            ".",
        )
    return table[y_true.astype(np.intp)]


def _gain_from_callable(y_true: np.ndarray, gain: Callable, where: _Where) -> np.ndarray:
    gains = apply_callable(gain, y_true, "gain", "gain per label")
    if not np.isfinite(gains).all():
        raise where.error(
            "gain callable returned NaN or infinite gains for the labels",
            ~np.isfinite(gains),
            "; gains must be finite.",
        )
    return gains


def _labels(values: np.ndarray, at_most: int = 10) -> str:
    shown = ", ".join(f"{v:g}" for v in values[:at_most])
    more = f" and {values.size - at_most} more" if values.size > at_most else ""
    return f"[{shown}{more}]"
