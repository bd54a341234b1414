"""Bootstrap of means over datasets and the step-down rank intervals
(_stats/_rank_intervals.py), against resamples gathered by index, hand counts of who is
shown better than whom, and a single-step max-t written out."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_equal

from sklearn_ndcg._stats._benchmark_input import BenchmarkData
from sklearn_ndcg._stats._rank_intervals import (
    _query_resamples,
    bootstrap_means,
    dataset_means,
    dataset_weights,
    rank_intervals,
    stepdown_better,
)


def _data(n_queries=(20, 30), n_models=3, seed=0):
    rng = np.random.default_rng(seed)
    values = [rng.uniform(size=(n, n_models)) for n in n_queries]
    weights = [rng.uniform(0.5, 2, size=n) for n in n_queries]
    return BenchmarkData(list(range(len(values))), list("abc")[:n_models], values, weights)


def test_query_resamples_equal_gathered_means():
    data = _data()
    x, w = data.values[0], data.weights[0]
    got = _query_resamples(x, w, 50, np.random.default_rng(1))
    # reference: the same indices (same seed, one batch) gathered row by row
    index = np.random.default_rng(1).integers(0, x.shape[0], size=(50, x.shape[0]))
    expected = np.array([w[i] @ x[i] / w[i].sum() for i in index])
    assert_allclose(got, expected, rtol=1e-12)


def test_dataset_means_and_weights_by_hand():
    data = _data()
    expected = [w @ x / w.sum() for x, w in zip(data.values, data.weights)]
    assert_allclose(dataset_means(data), expected, rtol=1e-12)
    assert_equal(dataset_weights(data, "datasets"), [1, 1])
    assert_allclose(dataset_weights(data, "queries"), [w.sum() for w in data.weights])


@pytest.mark.parametrize("unit", ["queries", "datasets"])
def test_bootstrap_means_estimate(unit):
    data = _data()
    estimate, draws = bootstrap_means(data, unit=unit, weights="datasets", n_resamples=200, seed=0)
    assert_allclose(estimate, dataset_means(data).mean(axis=0), rtol=1e-12)
    assert draws.shape == (200, 3)
    assert np.all(np.abs(draws.mean(axis=0) - estimate) < 0.05)


def test_two_level_draws_datasets_with_replacement():
    # constant queries: the query resamples change nothing, so each draw is the mean of
    # 2 datasets drawn with replacement: a, (a + b) / 2 or b
    values = [np.full((5, 2), 0.2), np.full((4, 2), 0.6)]
    data = BenchmarkData(["x", "y"], ["m1", "m2"], values, [np.ones(5), np.ones(4)])
    _, draws = bootstrap_means(data, unit="datasets", weights="datasets", n_resamples=400, seed=0)
    assert set(np.round(draws[:, 0], 12)) == {0.2, 0.4, 0.6}
    _, fixed = bootstrap_means(data, unit="queries", weights="datasets", n_resamples=50, seed=0)
    assert_allclose(fixed, 0.4)


def test_rank_intervals_from_better_by_hand():
    # a better than b and c; b and c not told apart: ranks a [1, 1], b and c [2, 3]
    better = np.zeros((3, 3), dtype=bool)
    better[0, 1] = better[0, 2] = True
    low, high = rank_intervals(better)
    assert_equal(low, [1, 2, 2])
    assert_equal(high, [1, 3, 3])


def test_stepdown_single_step_by_hand():
    rng = np.random.default_rng(0)
    draws = rng.normal(size=(2000, 3)) * 0.01 + [0.5, 0.5, 0.3]
    estimate = np.array([0.5, 0.49, 0.3])
    better = stepdown_better(estimate, draws, 0.05)
    # the first step written out: t of each ordered pair against the 95 % quantile of
    # the bootstrap maximum of the centred t
    pairs = [(i, j) for i in range(3) for j in range(3) if i != j]
    diff = np.array([draws[:, i] - draws[:, j] for i, j in pairs]).T
    se = diff.std(axis=0, ddof=1)
    t = np.array([estimate[i] - estimate[j] for i, j in pairs]) / se
    centred = (diff - np.array([estimate[i] - estimate[j] for i, j in pairs])) / se
    critical = np.quantile(centred.max(axis=1), 0.95, method="higher")
    first_step = {pair for pair, value in zip(pairs, t) if value > critical}
    assert first_step == {(0, 2), (1, 2)}
    assert {(i, j) for i, j in zip(*np.nonzero(better))} == first_step  # nothing added


def test_stepdown_identical_and_shifted_models():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(500, 1))
    # identical models are never told apart; a constant shift is known exactly
    draws = np.hstack([base, base, base + 0.1])
    better = stepdown_better(np.array([0.0, 0.0, 0.1]), draws, 0.05)
    assert_equal(better, [[False, False, False], [False, False, False], [True, True, False]])
