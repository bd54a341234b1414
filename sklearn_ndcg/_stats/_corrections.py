"""Corrections of p-values for the number of comparisons: Holm, Bonferroni, Benjamini-Hochberg."""

from __future__ import annotations

import numpy as np
from scipy import stats

CORRECTIONS = ("holm", "bonferroni", "fdr_bh")


def _bonferroni(p: np.ndarray) -> np.ndarray:
    return np.minimum(p * p.shape[0], 1.0)


def _holm(p: np.ndarray) -> np.ndarray:
    order = np.argsort(p, kind="stable")
    steps = p[order] * (p.shape[0] - np.arange(p.shape[0]))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum(np.maximum.accumulate(steps), 1.0)
    return adjusted


def _fdr_bh(p: np.ndarray) -> np.ndarray:
    """Benjamini-Hochberg, computed as scipy.stats.false_discovery_control does."""
    m = p.shape[0]
    order = np.argsort(p)
    steps = p[order] * (m / np.arange(1, m + 1))
    adjusted = np.empty_like(p)
    adjusted[order] = np.minimum.accumulate(steps[::-1])[::-1]
    return np.clip(adjusted, 0.0, 1.0)


def _adjust(p: np.ndarray, correction: str | None) -> np.ndarray:
    """p-values adjusted for the number of comparisons."""
    if correction is None or p.shape[0] == 0:
        return p.copy()
    if correction == "fdr_bh" and hasattr(stats, "false_discovery_control"):  # scipy >= 1.11
        return stats.false_discovery_control(p, method="bh")
    return {"holm": _holm, "bonferroni": _bonferroni, "fdr_bh": _fdr_bh}[correction](p)
