"""The paired tests of many rows of differences at once: one vectorized pass per method.

Each row is one paired test (a replicate of a simulation, or a pair of models); the
columns are queries. :func:`paired_test` runs the same kernels on one row, so a row of
:func:`paired_batch` equals ``paired_test(a_i, b_i, random_state=seed)``: with a seed,
every row is tested with the same sign flips and the same bootstrap resamples, drawn
as :func:`scipy.stats.permutation_test` and :func:`scipy.stats.bootstrap` draw them.
Sums that are equal up to rounding count as equal (as extreme as the observed one).
Strata stay on the per-call path (:func:`paired_test`).
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

import numpy as np
import scipy
from scipy import stats

from . import _table
from ._corrections import _adjust

_EPS = np.finfo(np.float64).eps
_ELEMENTS_PER_BATCH = 2**22  # as _bootstrap.py: resamples drawn in batches of about 32 MB
# scipy.stats.wilcoxon's normal approximation: "asymptotic" from scipy 1.15, "approx" before
_WILCOXON_NORMAL = (
    "asymptotic" if tuple(int(p) for p in scipy.__version__.split(".")[:2]) >= (1, 15) else "approx"
)


class Rows(NamedTuple):
    """Snapped differences of many paired tests: ``d`` (rows x queries), the rounding
    ``tolerance`` and whether each row is ``constant`` (up to rounding)."""

    d: np.ndarray
    tolerance: np.ndarray
    constant: np.ndarray


def snap_rows(a: np.ndarray, b: np.ndarray) -> Rows:
    """``a - b`` row by row, differences equal up to rounding made equal (as paired_test)."""
    a, b = np.atleast_2d(a), np.atleast_2d(b)
    scale = np.maximum(
        np.max(np.abs(a), axis=1, initial=0.0), np.max(np.abs(b), axis=1, initial=0.0)
    )
    tolerance = 16 * _EPS * scale
    d = a - b
    d[np.abs(d) <= tolerance[:, None]] = 0.0
    constant = np.ptp(d, axis=1) <= 2 * tolerance
    if constant.any():
        d[constant] = np.mean(d[constant], axis=1, keepdims=True)
    return Rows(d, tolerance, constant)


def _row_chunks(rows: int, resamples: int):
    """Slices of rows whose null distributions fit in about 32 MB."""
    step = max(1, _ELEMENTS_PER_BATCH // max(resamples, 1))
    return [slice(i, i + step) for i in range(0, rows, step)]


def _count_pvalues(less, greater, total, alternative) -> np.ndarray:
    """p-values from counts of null values at most / at least the observed one."""
    if alternative == "less":
        return np.clip(less / total, 0.0, 1.0)
    if alternative == "greater":
        return np.clip(greater / total, 0.0, 1.0)
    return np.clip(2 * np.minimum(less, greater) / total, 0.0, 1.0)


def sign_flips(n: int, n_resamples: int, seed: int):
    """The sign flips of the randomization test, in batches: every one of the ``2**n``
    once when they are no more than ``n_resamples`` (exact), else ``n_resamples`` drawn as
    :func:`scipy.stats.permutation_test` draws them. Yields ``(flips, exact)``."""
    if 2**n <= n_resamples:
        bits = 1 << np.arange(n, dtype=np.int64)
        batch = max(1, _ELEMENTS_PER_BATCH // n)
        for start in range(0, 2**n, batch):
            codes = np.arange(start, min(2**n, start + batch), dtype=np.int64)
            yield np.where(codes[:, None] & bits, -1.0, 1.0), True
        return
    rng = np.random.default_rng(seed)
    batch = min(max(1, _ELEMENTS_PER_BATCH // n), n_resamples)
    indices = np.tile(np.arange(2), (batch, n, 1))
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        swapped = rng.permuted(indices, axis=-1)[:size, :, 0] == 1
        yield np.where(swapped, -1.0, 1.0), False


def sign_flip_pvalues(d, tolerance, n_resamples, alternative, seed) -> np.ndarray:
    """p-values of the sign-flip test of the mean of each row of ``d``: exact, or sampled.

    Means equal up to rounding (``n * tolerance``, the rounding of a sum of n terms) count
    as equal, so equal differences give the exact p-value.
    """
    n = d.shape[1]
    observed = np.mean(d, axis=1)
    slack = n * tolerance
    batches = list(sign_flips(n, n_resamples, seed))
    exact = batches[0][1]
    resamples = sum(flips.shape[0] for flips, _ in batches)
    less = np.full(d.shape[0], 0 if exact else 1)
    greater = less.copy()
    for rows in _row_chunks(d.shape[0], resamples):
        high = (observed[rows] + slack[rows])[:, None]
        low = (observed[rows] - slack[rows])[:, None]
        for flips, _ in batches:
            null = (flips @ d[rows].T).T / n
            less[rows] += np.count_nonzero(null <= high, axis=1)
            greater[rows] += np.count_nonzero(null >= low, axis=1)
    # as scipy.stats.permutation_test: (count + 1) / (B + 1) when sampled
    return _count_pvalues(less, greater, resamples + (0 if exact else 1), alternative)


def bootstrap_counts(n: int, n_resamples: int, seed: int):
    """How often each query is drawn in each bootstrap resample (resamples x queries), in
    batches, drawn as :func:`scipy.stats.bootstrap` draws its resamples."""
    rng = np.random.default_rng(seed)
    batch = max(1, _ELEMENTS_PER_BATCH // n)
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        drawn = rng.integers(0, n, (size, n))
        flat = (drawn + n * np.arange(size)[:, None]).ravel()
        yield np.bincount(flat, minlength=size * n).reshape(size, n).astype(np.float64)


def bootstrap_pvalues(d, weight, mean, tolerance, n_resamples, alternative, seed):
    """Share of the bootstrap distribution of each row's (weighted) mean, shifted to mean
    0, at least as extreme as the mean, ``(count + 1) / (B + 1)`` (Davison and Hinkley,
    1997); values within the rounding of a mean count as extreme."""
    n = d.shape[1]
    weight = np.ones(n) if weight is None else weight
    batches = [counts * weight for counts in bootstrap_counts(n, n_resamples, seed)]
    slack = n * tolerance
    count = np.ones(d.shape[0], dtype=np.int64)
    for rows in _row_chunks(d.shape[0], n_resamples):
        m, s = mean[rows][:, None], slack[rows][:, None]
        for counts in batches:
            null = (counts @ d[rows].T).T / counts.sum(axis=1) - m
            if alternative == "two-sided":
                extreme = np.abs(null) >= np.abs(m) - s
            elif alternative == "greater":
                extreme = null >= m - s
            else:
                extreme = null <= m + s
            count[rows] += np.count_nonzero(extreme, axis=1)
    return count / (n_resamples + 1)


def t_pvalues(d, constant, mean, alternative) -> tuple[np.ndarray, np.ndarray]:
    """Student's t statistic and p-value of each row; constant rows: the exact sign-flip
    p-value of their observed signs, and an infinite statistic."""
    n = d.shape[1]
    statistic = np.copysign(np.inf, mean)
    against = ((alternative == "greater") & (mean < 0)) | ((alternative == "less") & (mean > 0))
    smallest = np.ldexp(2.0 if alternative == "two-sided" else 1.0, -n)
    pvalue = np.where(against, 1.0, smallest)
    varies = ~constant
    if varies.any():
        t, p = stats.ttest_1samp(d[varies], 0.0, axis=1, alternative=alternative)[:2]
        statistic[varies], pvalue[varies] = t, p
    return statistic, pvalue


def wilcoxon_pvalues(d, alternative) -> tuple[np.ndarray, np.ndarray]:
    """Wilcoxon's signed-rank statistic and p-value of each row, as :func:`scipy.stats.wilcoxon`.

    scipy chooses per row: with ties or zeros on at most 13 queries, the exact permutation
    distribution of the signed-rank sum (all ``2**n`` sign flips), computed here for every
    such row at once; the normal approximation (above 50 queries, or with ties or zeros
    above 13) for all its rows at once; the exact distribution without ties row by row.
    """
    rows, n = d.shape
    out = np.array([np.zeros(rows), np.ones(rows)])  # all differences 0: p = 1
    # zeros ranked last (as inf) and then given rank 0: the ranks of the others are those
    # of the non-zero differences alone (rankdata's nan_policy needs scipy >= 1.10)
    zero = d == 0
    ranks = np.where(zero, 0.0, stats.rankdata(np.where(zero, np.inf, np.abs(d)), axis=1))
    ordered = np.sort(ranks, axis=1)  # tied magnitudes share their average rank
    ties = ((ordered[:, 1:] == ordered[:, :-1]) & (ordered[:, 1:] > 0)).any(axis=1)
    tied_or_zero = ties | zero.any(axis=1)
    flipped = tied_or_zero & (n <= 13)
    if flipped.any():
        r = ranks[flipped]
        positive = np.sum(r * (d[flipped] > 0), axis=1)
        negative = np.sum(r * (d[flipped] < 0), axis=1)
        codes = np.arange(2**n, dtype=np.int64)
        signs = (codes[:, None] & (1 << np.arange(n, dtype=np.int64))) == 0
        null = signs.astype(np.float64) @ r.T  # the rank sum of the positive differences
        less = np.count_nonzero(null <= positive, axis=0)
        greater = np.count_nonzero(null >= positive, axis=0)
        pvalue = _count_pvalues(less, greater, 2**n, alternative)
        statistic = np.minimum(positive, negative) if alternative == "two-sided" else positive
        out[:, flipped] = statistic, pvalue
    # the normal approximation (above 50 queries, or ties or zeros above 13): vectorized
    normal = ~flipped & d.any(axis=1) & ((n > 50) | tied_or_zero)
    if normal.any():
        result = stats.wilcoxon(d[normal], axis=1, alternative=alternative, method=_WILCOXON_NORMAL)
        out[:, normal] = result.statistic, result.pvalue
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message="Exact p-value calculation does not work")
        warnings.filterwarnings("ignore", message="Sample size too small for normal")
        for i in np.flatnonzero(~flipped & ~normal & d.any(axis=1)):
            out[:, i] = stats.wilcoxon(d[i], alternative=alternative)[:2]
    return out[0], out[1]


def t_intervals(d, weight, mean, constant, level) -> np.ndarray:
    """Student's t interval of each row's (weighted) mean at two-sided ``level``: rows x 2."""
    n = d.shape[1]
    if weight is None:
        se = np.std(d, axis=1, ddof=1) / np.sqrt(n)
    else:
        p = weight / weight.sum()
        se = np.sqrt(np.sum(p**2 * (d - mean[:, None]) ** 2, axis=1) * n / (n - 1))
    se = np.where(constant, 0.0, se)
    half = stats.t.ppf((1 + level) / 2, n - 1) * se
    return np.column_stack([mean - half, mean + half])


class PairedBatch(NamedTuple):
    """Result of :func:`paired_batch`, one entry per row."""

    mean_difference: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    confidence_interval: np.ndarray
    equivalence_interval: np.ndarray | None
    verdict: list | None


def verdicts(mean, pvalue, alpha, intervals, margin) -> list:
    """:func:`_table.verdict` of each row."""
    if intervals is None:
        intervals = [None] * len(mean)
    return [
        _table.verdict(float(m), float(p), alpha, i, margin)
        for m, p, i in zip(mean, pvalue, intervals)
    ]


def against_best_verdicts(systems, pvalues, alpha, correction="holm") -> list:
    """The verdicts of ``compare_models`` against the best (its default), without margin.

    ``systems``: the models' values (replicates x models x queries); ``pvalues``: the
    p-values of every pair ``(i, j)``, ``i < j``, in that order (replicates x pairs),
    e.g. from :func:`paired_batch`. As compare_models does with a correction, the pairs'
    p-values are corrected for all pairs and each model's verdict relative to the model
    with the highest mean is read from its pair. Returns, per replicate, the list of
    verdicts of the models other than the best, in their order.
    """
    k = systems.shape[1]
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    means = np.mean(systems, axis=2)
    out = []
    for values, p, m in zip(systems, pvalues, means):
        best = int(np.argmax(m))
        adjusted = _adjust(np.asarray(p, dtype=np.float64), correction) if k > 2 else p
        row = []
        flip = {"better": "worse", "worse": "better"}
        for (i, j), q in zip(pairs, adjusted):
            if best not in (i, j):
                continue
            difference = float(np.mean(values[i] - values[j]))
            verdict = _table.verdict(difference, float(q), alpha, None, None)
            row.append(verdict if j == best else flip.get(verdict, verdict))
        out.append(row)
    return out
