"""cross_val_query_scores with a repeated group splitter: each query averaged over its
repetitions (issue 23). The reference is a loop over the splits written here."""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge

from sklearn_ndcg import RepeatedGroupKFold, cross_val_query_scores, make_ranking, query_scores

X, Y, QID = make_ranking(n_queries=40, random_state=2)


def _loop(estimator, cv, **options):
    """{qid: [value in each test fold]}, fitting on each training fold."""
    values = {}
    for train, test in cv.split(X, Y, QID):
        model = sklearn.base.clone(estimator).fit(X[train], Y[train])
        fold = query_scores(Y[test], model.predict(X[test]), qid=QID[test], **options)
        for q, v in zip(fold.qid, fold.score):
            values.setdefault(q, []).append(v)
    return values


@pytest.mark.parametrize("n_repeats", [1, 3])
def test_each_query_is_its_mean_over_the_repetitions(n_repeats):
    cv = RepeatedGroupKFold(n_splits=4, n_repeats=n_repeats, random_state=0)
    expected = _loop(Ridge(), cv, k=5)
    assert {len(v) for v in expected.values()} == {n_repeats}
    with sklearn.config_context(enable_metadata_routing=True):
        got = cross_val_query_scores(Ridge(), X, Y, qid=QID, cv=cv, k=5)
    assert got.qid.tolist() == sorted(expected)
    np.testing.assert_allclose(got.score, [np.mean(expected[q]) for q in got.qid], rtol=1e-12)
    np.testing.assert_array_equal(got.weight, np.ones(40))


def test_repetitions_steady_the_values():
    # the mean over 5 repetitions varies less between seeds than one repetition does
    def spread(n_repeats):
        runs = []
        for seed in range(4):
            cv = RepeatedGroupKFold(n_splits=3, n_repeats=n_repeats, random_state=seed)
            with sklearn.config_context(enable_metadata_routing=True):
                runs.append(cross_val_query_scores(Ridge(), X, Y, qid=QID, cv=cv, k=5).score)
        return np.std(runs, axis=0).mean()

    assert spread(5) < spread(1)
