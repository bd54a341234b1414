"""Relevance labels -> gains."""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np

from ._ranking_options import GAINS as GAINS  # its list lives with the options
from ._validation import apply_callable


def compute_gain(y_true: np.ndarray, gain, negative_labels: bool = False) -> np.ndarray:
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

    Returns
    -------
    ndarray
        Float64 gains, same shape as ``y_true``.
    """
    if isinstance(gain, str):
        # fmin skips NaN (unjudged documents); one pass, no temporary array
        if not negative_labels and y_true.size and np.fmin.reduce(y_true, axis=None) < 0:
            raise ValueError(
                f"y_true has negative relevance labels (min {np.nanmin(y_true):g}), which "
                f'gain="{gain}" does not accept (as in scikit-learn: ndcg_score should '
                "not be used on negative y_true values). To penalise bad "
                'documents, use normalize="minmax" (NDCG stays in [0, 1]), or give gain '
                "as a mapping or callable, e.g. gain={1: 1.0, 0: 0.0, -1: -1.0}."
            )
        if gain == "linear":
            return y_true  # the stages never write to their inputs
        with np.errstate(over="ignore"):
            gains = np.exp2(y_true) - 1.0
        if not np.isfinite(gains).all():
            raise ValueError(
                f'gain="exponential" overflows float64 for relevance label '
                f"{y_true.max():g} (2**label - 1 is finite only for labels below "
                "1024); use gain='linear' or rescale the labels."
            )
        return gains
    if isinstance(gain, Mapping):
        return _gain_from_mapping(y_true, gain)
    if hasattr(gain, "index") and hasattr(gain, "items") and not isinstance(gain, np.ndarray):
        # a pandas Series is a table from label (its index) to gain, not a sequence
        return _gain_from_mapping(y_true, dict(gain.items()))
    if callable(gain):
        return _gain_from_callable(y_true, gain)
    return _gain_from_sequence(y_true, gain)


def _gain_from_mapping(y_true: np.ndarray, gain: Mapping) -> np.ndarray:
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
        raise ValueError(
            f"gain has no entry for the relevance labels {_labels(missing)}; the "
            "mapping must give a gain for every label in y_true."
        )
    return values[index]


def _gain_from_sequence(y_true: np.ndarray, gain) -> np.ndarray:
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
        raise ValueError(
            "gain as a sequence (LightGBM's label_gain) is indexed by label, so y_true "
            "must hold non-negative integers; got "
            f"{_labels(np.unique(y_true[(y_true != np.round(y_true)) | (y_true < 0)]))}."
        )
    if y_true.max() >= table.size:
        raise ValueError(
            f"gain as a sequence has {table.size} entries (labels 0..{table.size - 1}) "
            f"but y_true has the label {y_true.max():g}."
        )
    return table[y_true.astype(np.intp)]


def _gain_from_callable(y_true: np.ndarray, gain: Callable) -> np.ndarray:
    gains = apply_callable(gain, y_true, "gain", "gain per label")
    if not np.isfinite(gains).all():
        raise ValueError("gain callable returned NaN or infinite gains; gains must be finite.")
    return gains


def _labels(values: np.ndarray, at_most: int = 10) -> str:
    shown = ", ".join(f"{v:g}" for v in values[:at_most])
    more = f" and {values.size - at_most} more" if values.size > at_most else ""
    return f"[{shown}{more}]"
