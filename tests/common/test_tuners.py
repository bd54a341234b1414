"""Every ranker and every tuner: the same search, routed and unrouted, picks the same model.

LightGBM, XGBoost and CatBoost rankers and a HistGradientBoosting regressor,
each stopped early on the NDCG of validation queries and each with two
learning rates, are searched by ``GridSearchCV`` (query ids routed as
metadata) and by Optuna's ``OptunaSearchCV`` (which routes nothing: the query
ids travel in a column of X), on identical folds. Both must give every
candidate the same fold scores and pick the same best candidate, and every fold
score must equal an independent per-query loop over ``sklearn.metrics.ndcg_score``
on the refitted model's predictions.
"""

from __future__ import annotations

import inspect

import numpy as np
import pytest
from sklearn import config_context
from sklearn import metrics as skm
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, GroupKFold

from sklearn_ndcg import RankingEvaluator, make_ranking

optuna = pytest.importorskip("optuna")
optuna_integration = pytest.importorskip("optuna_integration")
lightgbm = pytest.importorskip("lightgbm")
xgboost = pytest.importorskip("xgboost")
catboost = pytest.importorskip("catboost")
pd = pytest.importorskip("pandas")

K, SEED = 5, 0
RATES = [0.05, 0.3]
OPTIONS = dict(k=K, early_stopping=5, random_state=SEED)


def candidates() -> list:
    models = [
        lightgbm.LGBMRanker(n_estimators=200, n_jobs=1, verbose=-1, random_state=SEED),
        xgboost.XGBRanker(n_estimators=200, n_jobs=1, tree_method="hist", random_state=SEED),
        catboost.CatBoostRanker(
            iterations=200,
            thread_count=1,
            random_seed=SEED,
            verbose=False,
            allow_writing_files=False,
        ),
    ]
    # early stopping on validation queries needs fit(X_val=...), scikit-learn >= 1.7
    if "X_val" in inspect.signature(HistGradientBoostingRegressor.fit).parameters:
        models.append(HistGradientBoostingRegressor(max_iter=200, random_state=SEED))
    return models


def loop_ndcg(y, scores, qid):
    """Mean NDCG@K over queries, one call of scikit-learn's ndcg_score per query."""
    return np.mean([skm.ndcg_score([y[qid == q]], [scores[qid == q]], k=K) for q in np.unique(qid)])


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::optuna.exceptions.ExperimentalWarning")
@pytest.mark.filterwarnings("ignore:`optuna.terminator` module has been deprecated")
def test_grid_and_optuna_pick_the_same_ranker():
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    X, y, qid = make_ranking(n_queries=45, random_state=1)
    features = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    with_qid = features.assign(qid=qid)
    folds = list(GroupKFold(n_splits=3).split(X, y, groups=qid))
    models = candidates()

    # GridSearchCV: every model and learning rate, qid routed to fit and score
    grid = [{"estimator": [model], "estimator__learning_rate": RATES} for model in models]
    with config_context(enable_metadata_routing=True):
        grid = GridSearchCV(RankingEvaluator(Ridge(), **OPTIONS), grid, cv=folds, refit=False).fit(
            features, y, qid=qid
        )

    # OptunaSearchCV, one per model (Optuna compares its categorical choices with
    # ==, which CatBoost models refuse before fit): no routing, the query ids are
    # the column "qid" of X
    trials = {}
    for model in models:
        tuner = optuna_integration.OptunaSearchCV(
            RankingEvaluator(model, qid="qid", **OPTIONS),
            {"estimator__learning_rate": optuna.distributions.CategoricalDistribution(RATES)},
            cv=folds,
            n_trials=len(RATES),
            study=optuna.create_study(
                direction="maximize", sampler=optuna.samplers.BruteForceSampler(seed=SEED)
            ),
            refit=False,
            error_score="raise",
        ).fit(with_qid, y)
        for trial in tuner.study_.trials:
            trials[type(model).__name__, trial.params["estimator__learning_rate"]] = trial
    assert len(trials) == len(models) * len(RATES)  # every candidate tried once

    for i, params in enumerate(grid.cv_results_["params"]):
        key = type(params["estimator"]).__name__, params["estimator__learning_rate"]
        grid_folds = [grid.cv_results_[f"split{f}_test_score"][i] for f in range(3)]
        optuna_folds = [trials[key].user_attrs[f"split{f}_test_score"] for f in range(3)]
        np.testing.assert_allclose(optuna_folds, grid_folds, rtol=1e-12, err_msg=str(key))
        # each fold score, recomputed by a per-query loop on an independent refit
        model = clone(params["estimator"]).set_params(learning_rate=key[1])
        for f, (train, test) in enumerate(folds):
            evaluator = RankingEvaluator(model, **OPTIONS)
            evaluator.fit(features.iloc[train], y[train], qid=qid[train])
            scores = evaluator.predict(features.iloc[test])
            expected = loop_ndcg(y[test], scores, qid[test])
            assert grid_folds[f] == pytest.approx(expected, rel=1e-12), (key, f)
    best = grid.cv_results_["params"][grid.best_index_]
    best_grid = type(best["estimator"]).__name__, best["estimator__learning_rate"]
    best_optuna = max(trials, key=lambda key: trials[key].value)
    assert best_grid == best_optuna
