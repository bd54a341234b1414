"""RankingEvaluator(early_stopping_scoring=...): early stopping on the counterfactual DCG.

The reference for every monitored value is :func:`counterfactual_dcg` called here on the
model's own staged predictions of the validation rows, which an independent
``GroupShuffleSplit`` on the query ids picks. The log is simulated so that clicks follow
the logger's order (strong position bias): their naive NDCG and the counterfactual DCG
disagree, and stopping on one is not stopping on the other.
"""

import inspect

import numpy as np
import pytest
import sklearn
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import GridSearchCV, GroupKFold, GroupShuffleSplit

from sklearn_ndcg import RankingEvaluator, counterfactual_dcg, make_counterfactual_dcg_scorer
from sklearn_ndcg._clicks._simulate import simulate_clicks

# qid as the logged ranking (its meaning before 0.3), under its FutureWarning
pytestmark = pytest.mark.filterwarnings(
    "ignore:counterfactual_dcg\\(qid=...\\) without impression=:FutureWarning"
)

K, ROUNDS, SEED, FRACTION = 10, 5, 0, 0.3
HGB_HAS_X_VAL = "X_val" in inspect.signature(HistGradientBoostingRegressor.fit).parameters
needs_x_val = pytest.mark.skipif(
    not HGB_HAS_X_VAL, reason="early stopping on validation queries needs scikit-learn >= 1.7"
)


@pytest.fixture(scope="module")
def log():
    """A simulated log, its rows shuffled (rankers get them sorted by query)."""
    sim = simulate_clicks(400, 10, eta=1.5, logger_noise=2.0, ranker_noise=0.3, random_state=0)
    clicks = sim.log(1)
    order = np.random.default_rng(2).permutation(sim.qid.shape[0])
    return (
        sim.X[order],
        clicks.click[order],
        clicks.qid[order],
        clicks.logged_rank[order],
        sim.propensity,
    )


def validation_rows(qid):
    """The validation rows: an independent GroupShuffleSplit on the query ids."""
    split = GroupShuffleSplit(n_splits=1, test_size=FRACTION, random_state=SEED)
    return next(split.split(qid, groups=qid))[1]


def hgb():
    return HistGradientBoostingRegressor(
        max_iter=200, max_depth=2, learning_rate=0.1, random_state=SEED
    )


def evaluator(model, scoring=None):
    return RankingEvaluator(
        model,
        k=K,
        early_stopping=ROUNDS,
        validation_fraction=FRACTION,
        random_state=SEED,
        early_stopping_scoring=scoring,
    )


@needs_x_val
def test_monitored_values_are_the_counterfactual_dcg_of_each_round(log):
    X, click, qid, rank, propensity = log
    scorer = make_counterfactual_dcg_scorer(propensity, k=K, clip=0.2)
    model = evaluator(hgb(), scorer).fit(X, click, qid=qid, logged_rank=rank)
    history = model.validation_scores_
    val = validation_rows(qid)
    reference = [
        counterfactual_dcg(
            click[val], s, qid=qid[val], logged_rank=rank[val], propensity=propensity, k=K, clip=0.2
        ).estimate
        for s in model.estimator_.staged_predict(X[val])
    ]
    # HistGradientBoosting scores its initial constant prediction first
    np.testing.assert_allclose(history[1:], reference, rtol=1e-12)
    # it stopped ROUNDS rounds after the best counterfactual DCG
    best = int(np.argmax(history))
    assert len(history) == best + ROUNDS + 1 < 200
    # stopping on the naive NDCG of the clicks watches other values and stops elsewhere
    naive = evaluator(hgb()).fit(X, click, qid=qid, logged_rank=rank)  # logged_rank unused
    best_naive = int(np.argmax(naive.validation_scores_))
    assert len(naive.validation_scores_) == best_naive + ROUNDS + 1
    # the same rounds (same split, same seed), other monitored values: the naive NDCG of
    # the clicks, not the counterfactual DCG (where the two runs stop depends on the
    # scikit-learn version's trees, so it is not compared)
    rounds = min(len(history), len(naive.validation_scores_))
    assert not np.allclose(naive.validation_scores_[:rounds], history[:rounds])


def test_lightgbm_ranker_stops_on_the_counterfactual_dcg(log):
    lightgbm = pytest.importorskip("lightgbm")
    X, click, qid, rank, propensity = log
    scorer = make_counterfactual_dcg_scorer(propensity, k=K, clip=0.3)
    ranker = lightgbm.LGBMRanker(n_estimators=200, n_jobs=1, verbose=-1, random_state=SEED)
    model = evaluator(ranker, scorer).fit(X, click, qid=qid, logged_rank=rank)
    history = model.validation_scores_
    val = validation_rows(qid)
    booster = model.estimator_.booster_
    # the rows reach LightGBM sorted by query: the ranks must follow them
    reference = [
        counterfactual_dcg(
            click[val],
            booster.predict(X[val], num_iteration=i),
            qid=qid[val],
            logged_rank=rank[val],
            propensity=propensity,
            k=K,
            clip=0.3,
        ).estimate
        for i in range(1, booster.num_trees() + 1)
    ]
    np.testing.assert_allclose(history[: len(reference)], reference, rtol=1e-12)
    assert len(history) == int(np.argmax(history)) + ROUNDS + 1 < 200


@needs_x_val
def test_a_search_routes_logged_rank_to_fit(log):
    X, click, qid, rank, propensity = log
    scorer = make_counterfactual_dcg_scorer(propensity, k=K)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            evaluator(hgb(), scorer),
            {"estimator__max_depth": [2, 3]},
            cv=GroupKFold(2),
            scoring=scorer,
        )
        search.fit(X, click, groups=qid, qid=qid, logged_rank=rank)
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))
    assert np.all(np.isfinite(search.best_estimator_.validation_scores_))


def test_bad_input(log):
    X, click, qid, rank, propensity = log
    scorer = make_counterfactual_dcg_scorer(propensity, k=K)

    def fit(scoring, **params):
        return evaluator(hgb(), scoring).fit(X, click, qid=qid, **params)

    with pytest.raises(ValueError, match="needs logged_rank"):
        fit(scorer)
    with pytest.raises(ValueError, match=r"logged_rank must have one rank per row"):
        fit(scorer, logged_rank=rank[:-1])
    with pytest.raises(TypeError, match="early_stopping_scoring must be None or a scorer"):
        fit("ndcg", logged_rank=rank)
    dr = make_counterfactual_dcg_scorer(propensity, estimator="dr")
    with pytest.raises(ValueError, match="early_stopping_scoring: estimator='dr'"):
        fit(dr, logged_rank=rank)
    snips = make_counterfactual_dcg_scorer(propensity, estimator="snips")
    with pytest.raises(ValueError, match="early_stopping_scoring: estimator='snips'"):
        fit(snips, logged_rank=rank)
