"""sklearn_ndcg on Dask: searches under joblib's Dask backend; importing sklearn_ndcg never
imports dask. The metrics of sklearn_ndcg.dask are tested in tests/dask/.

The searches run on one LocalCluster of 2 worker processes on the loopback interface,
started and closed by the ``client`` fixture (tests/conftest.py). Expected values come
from a local run of the same search and from sklearn_ndcg.ndcg_score on each fold.
"""

import numpy as np
import pytest

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

import joblib  # noqa: E402
import sklearn  # noqa: E402
from _dask_data import DASK_WARNINGS  # noqa: E402
from numpy.testing import assert_allclose, assert_array_equal  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402
from sklearn.model_selection import GridSearchCV, GroupKFold  # noqa: E402

import sklearn_ndcg  # noqa: E402
from sklearn_ndcg import RankingEvaluator, make_ndcg_scorer, make_ranking  # noqa: E402

pytestmark = [pytest.mark.filterwarnings(spec) for spec in DASK_WARNINGS]


@pytest.fixture(scope="module")
def ranking_data():
    return make_ranking(
        n_queries=60, n_items=(5, 20), n_features=8, n_informative=4, random_state=0
    )


def _search(search, X, y, qid, backend):
    with sklearn.config_context(enable_metadata_routing=True):
        if backend == "dask":
            with joblib.parallel_backend("dask"):
                return search.fit(X, y, groups=qid, qid=qid)
        return search.fit(X, y, groups=qid, qid=qid)


def _test_scores(search):
    results = search.cv_results_
    return np.array([results[f"split{i}_test_score"] for i in range(search.n_splits_)])


def test_grid_search_with_scorer_on_dask(client, ranking_data):
    X, y, qid = ranking_data
    grid = {"alpha": [0.1, 10.0, 1000.0]}

    def make_search():
        return GridSearchCV(Ridge(), grid, scoring=make_ndcg_scorer(k=10), cv=GroupKFold(5))

    with distributed.get_task_stream(client) as stream:
        on_dask = _search(make_search(), X, y, qid, "dask")
    assert len(stream.data) > 0  # the fits and scores ran on the cluster
    local = _search(make_search(), X, y, qid, "local")

    assert_allclose(_test_scores(on_dask), _test_scores(local), rtol=1e-12)
    assert on_dask.best_params_ == local.best_params_
    # independent: each fold scored by hand with the fold's own query ids
    for split, (train, test) in enumerate(GroupKFold(5).split(X, y, qid)):
        for candidate, alpha in enumerate(grid["alpha"]):
            predicted = Ridge(alpha=alpha).fit(X[train], y[train]).predict(X[test])
            expected = sklearn_ndcg.ndcg_score(y[test], predicted, qid=qid[test], k=10)
            got = on_dask.cv_results_[f"split{split}_test_score"][candidate]
            assert got == pytest.approx(expected, rel=1e-12)


def test_grid_search_with_ranking_evaluator_on_dask(client, ranking_data):
    X, y, qid = ranking_data
    grid = {"estimator__alpha": [0.1, 1000.0], "k": [3, 10]}

    def make_search():
        return GridSearchCV(RankingEvaluator(Ridge()), grid, cv=GroupKFold(3))

    on_dask = _search(make_search(), X, y, qid, "dask")
    local = _search(make_search(), X, y, qid, "local")

    assert_allclose(_test_scores(on_dask), _test_scores(local), rtol=1e-12)
    assert_array_equal(on_dask.cv_results_["rank_test_score"], local.cv_results_["rank_test_score"])
    assert on_dask.best_params_ == local.best_params_


def test_importing_sklearn_ndcg_does_not_import_dask():
    import subprocess
    import sys

    code = "import sys, sklearn_ndcg; print('dask' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr
