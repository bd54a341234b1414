"""Per-query values of one or two models, aligned by query and checked: the input of
every paired test and interval."""

from __future__ import annotations

import numpy as np

from .._metrics import QueryScores, query_score_arrays
from ._strata import stratum_labels


def _as_query_values(values, name: str) -> tuple[np.ndarray, np.ndarray | None, np.ndarray | None]:
    """Values, weights and query ids (None for arrays) as float64 arrays."""
    if isinstance(values, QueryScores):
        qid, score, weight = query_score_arrays(values, name)
        if np.unique(qid).shape[0] != qid.shape[0]:
            raise ValueError(f"{name} holds some query ids more than once; give each query once.")
        if not (np.isfinite(weight).all() and (weight >= 0).all()):
            raise ValueError(f"{name}.weight must be finite and >= 0 for every query.")
        order = np.argsort(qid, kind="stable")
        return score[order], weight[order], qid[order]
    score = np.asarray(values, dtype=np.float64)
    if score.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D, one value per query; got an array of shape {score.shape}."
        )
    return score, None, None


def _paired_values(a, b, names=("a", "b"), strata=None):
    """Align two models' per-query values; drop pairs with NaN. Returns a, b and weights
    (and, when ``strata`` is given, the stratum of each pair kept)."""
    labels = None if strata is None else stratum_labels(a, strata, "/".join(names))
    (a, weight, qid_a), (b, weight_b, qid_b) = (
        _as_query_values(values, name) for values, name in zip((a, b), names)
    )
    if (qid_a is None) != (qid_b is None):
        raise TypeError(
            f"{names[0]} and {names[1]} must both be QueryScores (aligned by query id) or "
            "both arrays (paired by position); got one of each."
        )
    if qid_a is None:
        if a.shape != b.shape:
            raise ValueError(
                f"{names[0]} has {a.shape[0]} queries but {names[1]} has {b.shape[0]}; give "
                "one value per query for both models, in the same order."
            )
    else:
        if qid_a.tolist() != qid_b.tolist():  # lists: ids of different types compare unequal
            differ = sorted(set(qid_a.tolist()) ^ set(qid_b.tolist()), key=str)
            raise ValueError(
                f"{names[0]} and {names[1]} must hold the same queries; these query ids are "
                f"in only one of them: {differ[:10]}"
                + (f" and {len(differ) - 10} more." if len(differ) > 10 else ".")
            )
        if (weight != weight_b).any():
            raise ValueError(
                f"{names[0]} and {names[1]} weigh some queries differently; compare the "
                "models with the same sample_weight."
            )
    if np.isinf(a).any() or np.isinf(b).any():
        raise ValueError(f"{names[0]} and {names[1]} must not hold infinite values.")
    keep = ~(np.isnan(a) | np.isnan(b))
    if keep.sum() < 2:
        raise ValueError(
            f"{names[0]} and {names[1]} have {keep.sum()} queries where both values are "
            "defined (not NaN); a paired test needs at least 2."
        )
    kept = a[keep], b[keep], None if weight is None else weight[keep]
    return kept if strata is None else (*kept, labels[keep])


def _uniform(weight: np.ndarray | None) -> bool:
    return weight is None or np.ptp(weight) == 0


def _seeds(random_state, n: int) -> list[int]:
    """``n`` independent seeds from a Generator built from ``random_state``."""
    return np.random.default_rng(random_state).integers(2**63, size=n).tolist()


def _rounding_tolerance(*arrays: np.ndarray) -> float:
    """Differences of the values closer than this are equal up to floating-point rounding."""
    scale = max(float(np.max(np.abs(x), initial=0.0)) for x in arrays)
    return 16 * np.finfo(np.float64).eps * scale
