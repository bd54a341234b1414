"""Means over datasets, their bootstrap, and simultaneous rank intervals from a step-down
max-t test of every ordered pair of models.

Two bootstraps answer the two questions of compare_benchmark:

- ``unit="queries"`` (over these datasets): the datasets are fixed; each resample draws
  every dataset's queries with replacement (the same queries for every model: paired).
- ``unit="datasets"`` (over datasets like these): each resample draws the datasets with
  replacement, then, for each dataset drawn, its queries (each time a dataset is drawn,
  one of its ``n_resamples`` query resamples, picked at random).

Rank intervals (Mogstad, Romano, Shaikh & Wilhelm 2024; Klein, Wright & Wieczorek 2020):
the hypotheses ``H_ij: mean_i <= mean_j`` of every ordered pair are tested by Romano and
Wolf's step-down max-t (studentized by the bootstrap standard error of each difference),
which holds the family-wise error at ``alpha``. Model i's rank is at least ``1 + #{j shown
better than i}`` and at most ``p - #{j shown worse than i}``; with probability at least
``1 - alpha`` no hypothesis that holds is rejected, and then every interval holds its
model's true rank (all at once) and no truly best model is shown worse than another one.
"""

from __future__ import annotations

import numpy as np

from ._benchmark_input import BenchmarkData

_ELEMENTS_PER_BATCH = 2**21  # a batch of query resamples holds a few 16 MB arrays


def dataset_weights(data: BenchmarkData, weights: str) -> np.ndarray:
    """Weight of each dataset in a model's mean: equal, or its queries' total weight."""
    if weights == "datasets":
        return np.ones(len(data.datasets))
    return np.array([w.sum() for w in data.weights])


def dataset_means(data: BenchmarkData) -> np.ndarray:
    """The (datasets x models) matrix of each model's weighted mean on each dataset."""
    return np.vstack([w @ x / w.sum() for x, w in zip(data.values, data.weights)])


def _query_resamples(
    values: np.ndarray, weight: np.ndarray, n_resamples: int, rng: np.random.Generator
) -> np.ndarray:
    """(n_resamples, n_models) means of one dataset's queries drawn with replacement."""
    n = values.shape[0]
    weighted = values * weight[:, None]
    out = np.empty((n_resamples, values.shape[1]))
    batch = max(1, _ELEMENTS_PER_BATCH // n)
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        draws = rng.integers(0, n, size=(size, n)) + n * np.arange(size)[:, None]
        counts = np.bincount(draws.ravel(), minlength=size * n).reshape(size, n)
        total = counts @ weight
        # a resample of queries of weight 0 only has no mean: use the dataset's own
        total_safe = np.where(total > 0, total, 1.0)
        means = (counts @ weighted) / total_safe[:, None]
        out[start : start + size] = np.where(
            (total > 0)[:, None], means, weighted.sum(axis=0) / weight.sum()
        )
    return out


def bootstrap_means(
    data: BenchmarkData, *, unit: str, weights: str, n_resamples: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """Each model's mean over the datasets and its ``(n_resamples, n_models)`` resamples."""
    rng = np.random.default_rng(seed)
    share = dataset_weights(data, weights)
    estimate = share @ dataset_means(data) / share.sum()
    per_dataset = np.stack(
        [_query_resamples(x, w, n_resamples, rng) for x, w in zip(data.values, data.weights)]
    )  # (datasets, resamples, models)
    if unit == "queries":
        return estimate, np.einsum("d,drm->rm", share, per_dataset) / share.sum()
    n_datasets = len(data.datasets)
    drawn = rng.integers(0, n_datasets, size=(n_resamples, n_datasets))
    # each dataset drawn takes a query resample of its own (any of the n_resamples)
    which = rng.integers(0, n_resamples, size=(n_resamples, n_datasets))
    chosen = per_dataset[drawn, which]  # (resamples, datasets drawn, models)
    weight = share[drawn]
    return estimate, np.einsum("rd,rdm->rm", weight, chosen) / weight.sum(axis=1)[:, None]


def _studentized(estimate: np.ndarray, draws: np.ndarray):
    """t of each ordered pair's difference and the bootstrap max-t's centred draws."""
    p = estimate.shape[0]
    first, second = np.nonzero(~np.eye(p, dtype=bool))
    difference = estimate[first] - estimate[second]
    resampled = draws[:, first] - draws[:, second]
    se = resampled.std(axis=0, ddof=1)
    scale = max(float(np.max(np.abs(draws), initial=0.0)), 1.0)
    tolerance = 64 * np.finfo(np.float64).eps * scale
    constant = se <= tolerance
    safe = np.where(constant, 1.0, se)
    t = np.where(constant, 0.0, difference / safe)
    # a difference that no resample moves is known exactly: shown when it is not 0
    t = np.where(constant & (difference > tolerance), np.inf, t)
    centred = np.where(constant, 0.0, (resampled - difference) / safe)
    return first, second, t, centred


def stepdown_better(estimate: np.ndarray, draws: np.ndarray, alpha: float) -> np.ndarray:
    """(models x models) bool: ``[i, j]`` when model i is shown better than model j.

    Romano-Wolf's step-down max-t over the ``p (p - 1)`` ordered pairs at family-wise
    level ``alpha``: reject the pairs whose t exceeds the ``1 - alpha`` quantile of the
    bootstrap max of the centred t over the pairs not yet rejected, until none is added.
    """
    p = estimate.shape[0]
    first, second, t, centred = _studentized(estimate, draws)
    rejected = np.zeros(t.shape[0], dtype=bool)
    while not rejected.all():
        active = ~rejected
        critical = np.quantile(centred[:, active].max(axis=1), 1.0 - alpha, method="higher")
        new = active & (t > critical)
        if not new.any():
            break
        rejected |= new
    better = np.zeros((p, p), dtype=bool)
    better[first[rejected], second[rejected]] = True
    return better


def rank_intervals(better: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Lowest and highest rank (1 = best) of each model given who is shown better than whom."""
    p = better.shape[0]
    return 1 + better.sum(axis=0), p - better.sum(axis=1)
