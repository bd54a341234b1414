"""Strata of queries: one label per query, aligned with the values; the stratified bootstrap."""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Number
from typing import NamedTuple

import numpy as np

from .._metrics import QueryScores

_ELEMENTS_PER_BATCH = 2**22


def stratum_labels(values, strata, name: str) -> np.ndarray:
    """The stratum of each query of ``values``, in the order the statistics use.

    Arrays: ``strata`` by position. :class:`QueryScores`: a mapping ``{qid: label}``,
    or an array in the order of the sorted query ids (the order of
    :func:`cross_val_query_scores`' result), which is the order the statistics use.
    """
    if isinstance(values, QueryScores):
        ids = np.sort(np.asarray(values.qid), kind="stable")
        if isinstance(strata, Mapping):
            missing = [q for q in ids.tolist() if q not in strata]
            if missing:
                raise ValueError(
                    f"strata has no stratum for the queries {missing[:5]} of {name}; give "
                    "one label for every query id."
                )
            labels = np.asarray([strata[q] for q in ids.tolist()], dtype=object)
            _check_labels(labels, ids)
            return labels
        n = ids.shape[0]
    else:
        if isinstance(strata, Mapping):
            raise TypeError(
                f"strata is a mapping from query ids, but {name} is an array without "
                "query ids; give one label per query, in the order of the values."
            )
        n = np.asarray(values).shape[0]
    labels = np.asarray(strata, dtype=object)
    if labels.shape != (n,):
        raise ValueError(
            f"strata has shape {labels.shape} but {name} has {n} queries; give one label per query."
        )
    _check_labels(labels, None)
    return labels


def _kind(label_type: type) -> str:
    """The kind of a label's type: labels of one kind compare by value (1 == 1.0)."""
    if issubclass(label_type, (bool, np.bool_)):
        return "boolean"
    if issubclass(label_type, (str, np.str_)):
        return "text"
    if issubclass(label_type, Number) and not issubclass(label_type, complex):
        return "number"
    return label_type.__name__


def _is_missing(label) -> bool:
    """None, NaN, or a missing value of pandas (NA, NaT): anything unequal to itself."""
    if label is None:
        return True
    try:
        return bool(label != label)
    except (TypeError, ValueError):  # pandas.NA: its truth value is ambiguous
        return True


def _missing(labels: np.ndarray) -> np.ndarray:
    """Where ``labels`` holds None or a value unequal to itself (NaN, NaT, pandas' NA)."""
    if labels.dtype.kind in "fcmM":
        return np.asarray(labels != labels, dtype=bool)
    if labels.dtype.kind != "O":  # integers, booleans, strings: never missing
        return np.zeros(labels.shape, dtype=bool)
    # one label at a time: numpy < 1.25 warns where an object array's comparison fails
    return np.fromiter(map(_is_missing, labels.tolist()), dtype=bool, count=labels.size)


def _check_labels(labels: np.ndarray, ids: np.ndarray | None) -> None:
    """Refuse missing labels, and labels of mixed kinds (``1`` and ``"1"``): those would
    make two strata of one, or fail inside numpy. ``ids``: the query ids (a mapping from
    them), or None (labels by position)."""
    missing = np.flatnonzero(_missing(labels))
    if missing.size:
        where = (
            f"position {missing[0]}" if ids is None else f"query id {ids.tolist()[missing[0]]!r}"
        )
        raise ValueError(
            f"strata holds {missing.size} missing label(s) (None or NaN), the first at "
            f"{where}; every query needs a stratum: give it a label, or leave the query out."
        )
    values = labels.tolist()
    examples: dict[str, object] = {}  # one label of each kind, from one label of each type
    for label_type, label in dict(zip(map(type, values), values)).items():
        examples.setdefault(_kind(label_type), label)
    if len(examples) > 1:
        shown = ", ".join(f"{label!r} ({kind})" for kind, label in sorted(examples.items()))
        raise ValueError(
            f"strata mixes labels of {len(examples)} kinds: {shown}; labels of different "
            "kinds never name one stratum (1 and '1' would be two strata): give labels of "
            "one kind, e.g. all text."
        )


def check_strata(labels: np.ndarray, minimum: int, what: str) -> None:
    """Every stratum needs ``minimum`` queries for ``what``."""
    names, counts = np.unique(labels.astype(str), return_counts=True)
    small = names[counts < minimum]
    if small.shape[0]:
        raise ValueError(
            f"the strata {small[:5].tolist()} have fewer than {minimum} queries; {what} needs "
            f"at least {minimum} in every stratum. Merge small strata."
        )


def subsets(labels: np.ndarray) -> dict:
    """``{label: boolean mask}``, labels in sorted order of their text."""
    keys = sorted(set(labels.tolist()), key=str)
    return {key: labels == key for key in keys}


class StratifiedBootstrap(NamedTuple):
    """What scipy.stats.bootstrap returns, for the stratified bootstrap."""

    confidence_interval: tuple[float, float]
    standard_error: float
    bootstrap_distribution: np.ndarray


def stratified_bootstrap(x, weight, labels, *, confidence_level, n_resamples, method, seed):
    """Bootstrap of the (weighted) mean of ``x``, resampling queries within each stratum.

    Each resample keeps the size of every stratum. The interval is the
    percentile interval ("basic": reflected about the mean; "BCa" is not
    defined for it and gives the percentile interval).
    """
    rng = np.random.default_rng(seed)
    w = np.ones_like(x) if weight is None else weight
    members = [np.flatnonzero(mask) for mask in subsets(labels).values()]
    batch = max(1, _ELEMENTS_PER_BATCH // x.size)
    means = []
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        total_wx = np.zeros(size)
        total_w = np.zeros(size)
        for index in members:  # a loop over strata, not over queries
            draw = index[rng.integers(0, index.size, size=(size, index.size))]
            total_wx += (w[draw] * x[draw]).sum(axis=1)
            total_w += w[draw].sum(axis=1)
        means.append(total_wx / total_w)
    distribution = np.concatenate(means)
    tail = (1 - confidence_level) / 2
    low, high = np.quantile(distribution, [tail, 1 - tail])
    if method == "basic":
        mean = float(np.average(x, weights=w))
        low, high = 2 * mean - high, 2 * mean - low
    return StratifiedBootstrap(
        (float(low), float(high)), float(np.std(distribution, ddof=1)), distribution
    )
