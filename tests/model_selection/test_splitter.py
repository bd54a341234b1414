"""RepeatedGroupKFold: group folds, repetitions, errors, and use as cv= of scikit-learn."""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, check_cv, cross_validate

from sklearn_ndcg._model_selection._splitter import RepeatedGroupKFold


def _data(n_groups=13, seed=0):
    """Rows of ``n_groups`` groups of 1 to 6 rows each, groups interleaved."""
    rng = np.random.default_rng(seed)
    groups = rng.permutation(np.repeat(np.arange(n_groups) * 10, rng.integers(1, 7, n_groups)))
    X = rng.normal(size=(groups.shape[0], 3))
    y = X @ [1.0, -2.0, 0.5] + rng.normal(size=groups.shape[0])
    return X, y, groups


def _repetitions(cv, X, groups):
    """The splits, one list of (train, test) per repetition."""
    splits = list(cv.split(X, groups=groups))
    return [splits[i : i + cv.n_splits] for i in range(0, len(splits), cv.n_splits)]


def _partition(repetition, groups):
    return {frozenset(groups[test].tolist()) for _, test in repetition}


@pytest.mark.parametrize("n_splits, n_repeats", [(2, 1), (3, 4), (5, 3), (13, 2)])
def test_each_group_in_one_test_fold_per_repetition(n_splits, n_repeats):
    X, _, groups = _data()
    cv = RepeatedGroupKFold(n_splits, n_repeats=n_repeats, random_state=0)
    repetitions = _repetitions(cv, X, groups)
    assert len(repetitions) == n_repeats
    for repetition in repetitions:
        tests = np.concatenate([test for _, test in repetition])
        assert np.array_equal(np.sort(tests), np.arange(groups.shape[0]))  # each row once
        for train, test in repetition:
            assert np.array_equal(np.union1d(train, test), np.arange(groups.shape[0]))
            assert not set(groups[train]) & set(groups[test])  # no group split
        # folds of equal numbers of groups, within one
        sizes = [len(set(groups[test])) for _, test in repetition]
        assert max(sizes) - min(sizes) <= 1


def test_repetitions_differ_and_random_state_reproduces():
    X, _, groups = _data()
    cv = RepeatedGroupKFold(3, n_repeats=4, random_state=0)
    partitions = [_partition(r, groups) for r in _repetitions(cv, X, groups)]
    assert len({frozenset(p) for p in partitions}) == 4
    again = list(RepeatedGroupKFold(3, n_repeats=4, random_state=0).split(X, groups=groups))
    for (train, test), (train2, test2) in zip(cv.split(X, groups=groups), again):
        assert np.array_equal(train, train2) and np.array_equal(test, test2)
    other = RepeatedGroupKFold(3, n_repeats=4, random_state=1)
    assert [_partition(r, groups) for r in _repetitions(other, X, groups)] != partitions


def test_random_state_instance_gives_new_splits_on_each_call():
    X, _, groups = _data()
    cv = RepeatedGroupKFold(3, n_repeats=1, random_state=np.random.RandomState(0))
    first, second = (_partition(_repetitions(cv, X, groups)[0], groups) for _ in range(2))
    assert first != second


def test_string_groups_and_lists():
    groups = ["q1", "q1", "q2", "q3", "q3", "q3", "q4"]
    cv = RepeatedGroupKFold(2, n_repeats=3, random_state=0)
    for train, test in cv.split([[0]] * 7, groups=groups):
        assert not {groups[i] for i in train} & {groups[i] for i in test}


def test_get_n_splits_and_repr():
    cv = RepeatedGroupKFold(4, n_repeats=3)
    assert cv.get_n_splits() == 12
    X, _, groups = _data()
    assert cv.get_n_splits(X, None, groups) == len(list(cv.split(X, groups=groups))) == 12
    assert repr(cv) == "RepeatedGroupKFold(n_repeats=3, n_splits=4, random_state=None)"
    assert repr(RepeatedGroupKFold()) == (
        "RepeatedGroupKFold(n_repeats=10, n_splits=5, random_state=None)"
    )


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_splits": 1}, "n_splits must be an integer >= 2; got 1"),
        ({"n_splits": 2.5}, "n_splits must be an integer >= 2; got 2.5"),
        ({"n_splits": True}, "n_splits must be an integer >= 2; got True"),
        ({"n_repeats": 0}, "n_repeats must be an integer >= 1; got 0"),
        ({"n_repeats": "3"}, "n_repeats must be an integer >= 1; got '3'"),
    ],
)
def test_bad_parameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        RepeatedGroupKFold(**kwargs)


def test_bad_split_input():
    X, _, groups = _data(n_groups=4)
    with pytest.raises(ValueError, match="groups is None"):
        next(RepeatedGroupKFold(2).split(X))
    with pytest.raises(ValueError, match="n_splits=5 is more than the 4 groups"):
        next(RepeatedGroupKFold(5).split(X, groups=groups))
    with pytest.raises(ValueError, match="inconsistent numbers of samples"):
        next(RepeatedGroupKFold(2).split(X, groups=groups[1:]))


def test_cross_validate():
    X, y, groups = _data()
    cv = RepeatedGroupKFold(3, n_repeats=2, random_state=0)
    result = cross_validate(Ridge(), X, y, groups=groups, cv=cv)
    assert result["test_score"].shape == (6,)
    assert check_cv(cv) is cv


def test_requests_groups_through_metadata_routing():
    request = RepeatedGroupKFold().get_metadata_routing()
    assert request.split.requests == {"groups": True}
    X, y, groups = _data()
    cv = RepeatedGroupKFold(3, n_repeats=2, random_state=0)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(Ridge(), {"alpha": [0.1, 10.0]}, cv=cv).fit(X, y, groups=groups)
        assert search.n_splits_ == 6
        with pytest.raises(ValueError, match="groups is None"):
            GridSearchCV(Ridge(), {"alpha": [0.1, 10.0]}, cv=cv).fit(X, y)
    # without routing, groups goes to the splitter as before
    search = GridSearchCV(Ridge(), {"alpha": [0.1, 10.0]}, cv=cv).fit(X, y, groups=groups)
    assert search.n_splits_ == 6
