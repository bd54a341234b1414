"""The user's estimators are never modified, and no candidate is dropped (issue 23).

Every public entry point that takes a search, a parameter grid or an estimator is run,
and the grid is deep-compared before and after (``get_params(deep=True)`` of every
estimator in it, and its repr); a second call must give the first call's values.
"""

import copy

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.neighbors import KNeighborsRegressor
from sklearn.pipeline import Pipeline

from sklearn_ndcg import (
    SimplestCompetitiveRefit,
    compare_models,
    cross_val_query_scores,
    make_ndcg_scorer,
    make_ranking,
    search_query_scores,
)

X, Y, QID = make_ranking(n_queries=45, random_state=0)
CV = PredefinedSplit(QID % 3)


def _grid():
    """Estimators as values of the grid: set_params on them would change the user's grid."""
    return [
        {"model": [Ridge()], "model__alpha": [0.1, 1e4]},
        {"model": [KNeighborsRegressor()], "model__n_neighbors": [3, 30]},
    ]


def _snapshot(grid):
    """Everything a deep comparison looks at: each value's repr and nested parameters."""
    out = []
    for part in grid:
        for name, values in sorted(part.items()):
            for value in values:
                params = value.get_params(deep=True) if hasattr(value, "get_params") else value
                out.append((name, repr(value), repr(params)))
    return out


def _search(grid, refit=True):
    with sklearn.config_context(enable_metadata_routing=True):
        return GridSearchCV(
            Pipeline([("model", Ridge())]),
            grid,
            cv=CV,
            scoring=make_ndcg_scorer(k=5),
            refit=refit,
        ).fit(X, Y, qid=QID)


def test_search_query_scores_leaves_the_grid_and_cv_results_alone():
    grid = _grid()
    search = _search(grid)
    before, params_before = _snapshot(grid), repr(search.cv_results_["params"])
    best_before = repr(search.best_params_)
    with sklearn.config_context(enable_metadata_routing=True):
        first = search_query_scores(search, X, Y, qid=QID, n_candidates=4)
        second = search_query_scores(search, X, Y, qid=QID, n_candidates=4)
    assert _snapshot(grid) == before
    assert repr(search.cv_results_["params"]) == params_before
    assert repr(search.best_params_) == best_before
    assert list(first) == list(second)
    for name in first:  # the second call scores each candidate with its own settings
        np.testing.assert_array_equal(first[name].score, second[name].score)
    # and each candidate's values are those of a fresh fit with its parameters
    for name, params in zip(first, _ordered_params(search)):
        fresh = Pipeline([("model", Ridge())]).set_params(**copy.deepcopy(params))
        expected = cross_val_query_scores(fresh, X, Y, qid=QID, cv=CV, k=5)
        np.testing.assert_allclose(first[name].score, expected.score, rtol=1e-12)


def _ordered_params(search):
    mean = np.asarray(search.cv_results_["mean_test_score"])
    return [search.cv_results_["params"][i] for i in np.argsort(-mean, kind="stable")]


@pytest.mark.parametrize("margin", [None, 0.01])
def test_simplest_tied_refit_leaves_the_grid_alone(margin):
    grid = _grid()
    before = _snapshot(grid)
    refit = SimplestCompetitiveRefit(
        Pipeline([("model", Ridge())]),
        X,
        Y,
        qid=QID,
        cv=CV,
        k=5,
        key=lambda p: 0,
        n_candidates=4,
        n_resamples=199,
        margin=margin,
        random_state=0,
    )
    search = _search(grid, refit=refit)
    assert _snapshot(grid) == before
    assert repr(search.cv_results_["params"][search.best_index_]) == repr(search.best_params_)
    first = refit.comparison_.to_dict()
    refit(search.cv_results_)
    assert refit.comparison_.to_dict()["mean"] == first["mean"]
    assert _snapshot(grid) == before


def test_cross_val_query_scores_and_compare_models_leave_their_inputs_alone():
    model = Pipeline([("model", KNeighborsRegressor(n_neighbors=4))])
    before = repr(model.get_params(deep=True))
    scores = {"a": cross_val_query_scores(model, X, Y, qid=QID, cv=CV, k=5)}
    assert repr(model.get_params(deep=True)) == before
    assert not hasattr(model.named_steps["model"], "n_features_in_")  # never fitted
    scores["b"] = cross_val_query_scores(Ridge(), X, Y, qid=QID, cv=CV, k=5)
    kept = copy.deepcopy(scores)
    for kwargs in ({}, {"margin": 0.01}, {"pairs": "all", "method": "tukey"}):
        compare_models(scores, n_resamples=99, random_state=0, **kwargs)
    for name in scores:
        for field in ("qid", "score", "weight"):
            np.testing.assert_array_equal(getattr(scores[name], field), getattr(kept[name], field))


def test_colliding_names_keep_every_candidate():
    search = _search(_grid())
    with sklearn.config_context(enable_metadata_routing=True):
        scores = search_query_scores(
            search, X, Y, qid=QID, n_candidates=4, describe=lambda params: "same"
        )
    assert len(scores) == 4
    assert all(name.startswith("same (candidate ") for name in scores)
    indices = sorted(int(name.split()[-1].rstrip(")")) for name in scores)
    assert indices == [0, 1, 2, 3]
