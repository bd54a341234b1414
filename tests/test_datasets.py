"""Tests for make_ranking."""

import numpy as np
import pytest

from sklearn_ndcg import make_ranking


def test_shapes_types_and_grouping():
    X, y, qid = make_ranking(
        n_queries=30, n_items=(3, 7), n_features=6, n_informative=4, random_state=0
    )
    assert X.shape == (y.shape[0], 6) and qid.shape == y.shape
    assert X.dtype == np.float64
    assert np.issubdtype(y.dtype, np.integer) and np.issubdtype(qid.dtype, np.integer)
    # rows come grouped by query, queries numbered 0 .. n_queries - 1
    assert np.all(np.diff(qid) >= 0)
    assert np.array_equal(np.unique(qid), np.arange(30))
    sizes = np.bincount(qid)
    assert sizes.min() >= 3 and sizes.max() <= 7
    assert len(np.unique(sizes)) > 1  # sizes vary
    assert y.min() >= 0 and y.max() <= 4


def test_fixed_query_size():
    _, y, qid = make_ranking(n_queries=4, n_items=6, random_state=0)
    assert qid.tolist() == [0] * 6 + [1] * 6 + [2] * 6 + [3] * 6
    assert y.shape == (24,)


def test_deterministic_under_random_state():
    first = make_ranking(n_queries=10, random_state=42)
    second = make_ranking(n_queries=10, random_state=np.random.RandomState(42))
    other = make_ranking(n_queries=10, random_state=43)
    for a, b in zip(first, second):
        assert np.array_equal(a, b)
    assert not np.array_equal(first[0][:5], other[0][:5])


def test_level_shares_halve():
    # level l holds a share proportional to 2**-l: 16/31, 8/31, 4/31, 2/31, 1/31
    _, y, _ = make_ranking(n_queries=2000, n_items=20, random_state=0)
    expected = np.array([16, 8, 4, 2, 1]) / 31
    assert np.allclose(np.bincount(y, minlength=5) / y.size, expected, atol=1e-3)


@pytest.mark.parametrize("n_levels", [2, 3, 7])
def test_n_levels(n_levels):
    _, y, _ = make_ranking(n_queries=300, n_levels=n_levels, random_state=0)
    assert np.array_equal(np.unique(y), np.arange(n_levels))


def test_noiseless_single_feature_labels_are_monotone():
    # one informative feature and no noise: the label is a step function of it
    X, y, _ = make_ranking(n_queries=50, n_features=3, n_informative=1, noise=0.0, random_state=0)
    steps = np.diff(y[np.argsort(X[:, 0])])
    assert np.all(steps >= 0) or np.all(steps <= 0)


def test_uninformative_features_do_not_matter():
    # without noise the labels depend on the first n_informative features only:
    # a linear fit on the other features finds (almost) nothing
    X, y, _ = make_ranking(n_queries=50, n_features=5, n_informative=2, noise=0.0, random_state=0)
    fit = np.linalg.lstsq(np.c_[X[:, 2:], np.ones(len(y))], y, rcond=None)[0]
    fit_informative = np.linalg.lstsq(np.c_[X[:, :2], np.ones(len(y))], y, rcond=None)[0]
    assert np.abs(fit[:-1]).max() < 0.1 < np.abs(fit_informative[:-1]).max()


def test_noise_weakens_the_signal():
    def correlation(noise):
        X, y, _ = make_ranking(
            n_queries=200, n_features=1, n_informative=1, noise=noise, random_state=0
        )
        return abs(np.corrcoef(X[:, 0], y)[0, 1])

    assert correlation(0.0) > correlation(1.0) > correlation(5.0)


@pytest.mark.parametrize(
    "params, match",
    [
        ({"n_queries": 0}, "n_queries"),
        ({"n_items": 0}, "n_items"),
        ({"n_items": (5, 2)}, "n_items"),
        ({"n_items": (0, 3)}, "n_items"),
        ({"n_items": (1, 2, 3)}, "n_items"),
        ({"n_items": (1.5, 3)}, "n_items"),
        ({"n_items": "many"}, "n_items"),
        ({"n_features": 3, "n_informative": 4}, "n_informative"),
        ({"n_informative": 0}, "n_informative"),
        ({"n_levels": 1}, "n_levels"),
        ({"noise": -0.1}, "noise"),
        ({"random_state": "seed"}, "random_state"),
    ],
)
def test_invalid_parameters(params, match):
    with pytest.raises(ValueError, match=match):
        make_ranking(**params)
