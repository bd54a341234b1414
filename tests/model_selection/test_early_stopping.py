"""RankingEvaluator(early_stopping=...): whole validation queries, this package's NDCG.

The reference for every validation score is an independent per-query loop over
``sklearn.metrics.ndcg_score`` on the model's own staged predictions, on the
validation queries chosen by ``GroupShuffleSplit`` from the query ids directly.
"""

from __future__ import annotations

import inspect
import pickle

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import GroupShuffleSplit
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_ndcg import RankingEvaluator, make_ranking

K, ROUNDS, SEED = 5, 4, 0
HGB_HAS_X_VAL = "X_val" in inspect.signature(HistGradientBoostingRegressor.fit).parameters


@pytest.fixture(scope="module")
def data():
    X, y, qid = make_ranking(n_queries=40, random_state=3)
    return X, y, qid


def loop_ndcg(y, scores, qid, weight=None):
    """Mean NDCG@K over queries, one call of scikit-learn's ndcg_score per query."""
    values, weights = [], []
    for query in np.unique(qid):
        rows = qid == query
        values.append(skm.ndcg_score([y[rows]], [scores[rows]], k=K))
        weights.append(1.0 if weight is None else weight[rows][0])
    return np.average(values, weights=weights)


def validation_rows(qid, fraction=0.1):
    """The validation rows: an independent GroupShuffleSplit on the query ids."""
    split = GroupShuffleSplit(n_splits=1, test_size=fraction, random_state=SEED)
    _, val = next(split.split(qid, groups=qid))
    return val


def staged(model, X):
    """The predictions of ``model`` after each boosting round it kept or trained."""
    name = type(model).__module__.split(".")[0]
    if name == "lightgbm":
        n = model.booster_.num_trees()
        return [model.predict(X, num_iteration=i) for i in range(1, n + 1)]
    if name == "xgboost":
        n = model.get_booster().num_boosted_rounds()
        return [model.predict(X, iteration_range=(0, i)) for i in range(1, n + 1)]
    return list(model.staged_predict(X))  # CatBoost, HistGradientBoosting


def rankers():
    """(library, a ranker with many more rounds than it needs)."""
    out = []
    if HGB_HAS_X_VAL:
        out.append(("sklearn", HistGradientBoostingRegressor(max_iter=300, random_state=SEED)))
    try:
        from lightgbm import LGBMRanker

        out.append(("lightgbm", LGBMRanker(n_estimators=300, n_jobs=1, verbose=-1)))
    except ImportError:
        pass
    try:
        from xgboost import XGBRanker

        out.append(("xgboost", XGBRanker(n_estimators=300, n_jobs=1, tree_method="hist")))
    except ImportError:
        pass
    try:
        from catboost import CatBoostRanker

        out.append(
            (
                "catboost",
                CatBoostRanker(
                    iterations=300,
                    thread_count=1,
                    random_seed=SEED,
                    verbose=False,
                    allow_writing_files=False,
                ),
            )
        )
    except ImportError:
        pass
    return out


@pytest.mark.parametrize("library, model", rankers(), ids=[name for name, _ in rankers()])
def test_validation_scores_are_the_ndcg_of_each_round(data, library, model):
    X, y, qid = data
    evaluator = RankingEvaluator(model, k=K, early_stopping=ROUNDS, random_state=SEED)
    evaluator.fit(X, y, qid=qid)
    history = evaluator.validation_scores_
    val = validation_rows(qid)
    rounds = staged(evaluator.estimator_, X[val])
    # HistGradientBoosting scores its initial constant prediction first
    offset = 1 if library == "sklearn" else 0
    reference = [loop_ndcg(y[val], s, qid[val]) for s in rounds]
    assert len(rounds) >= 1
    np.testing.assert_allclose(history[offset : offset + len(rounds)], reference, rtol=1e-12)
    # it stopped early: ROUNDS rounds without a better score after the best one
    best = int(np.argmax(history))
    assert len(history) == best + ROUNDS + 1 < 300
    # the fitted model is the best round's (HistGradientBoosting keeps every round)
    final = evaluator.estimator_.predict(X[val])
    expected = history[-1] if library == "sklearn" else history[best]
    assert loop_ndcg(y[val], final, qid[val]) == pytest.approx(expected, rel=1e-12)


def test_validation_is_whole_held_out_queries(data):
    lightgbm = pytest.importorskip("lightgbm")
    X, y, qid = data
    seen = {}

    class Spy(lightgbm.LGBMRanker):
        def fit(self, X, y, group=None, **kwargs):
            seen["train"], seen["group"] = len(y), group
            seen["eval_group"] = kwargs["eval_group"][0]
            return super().fit(X, y, group=group, **kwargs)

    evaluator = RankingEvaluator(
        Spy(n_estimators=20, verbose=-1), k=K, early_stopping=ROUNDS, random_state=SEED
    )
    evaluator.fit(X, y, qid=qid)
    val = validation_rows(qid)
    sizes = np.bincount(np.unique(qid, return_inverse=True)[1])
    held_out = np.unique(qid[val])
    assert seen["train"] == len(y) - len(val)
    np.testing.assert_array_equal(
        seen["eval_group"], sizes[np.searchsorted(np.unique(qid), held_out)]
    )
    assert seen["group"].sum() + seen["eval_group"].sum() == len(y)


def test_query_weights_weigh_the_validation_score(data):
    pytest.importorskip("lightgbm")
    from lightgbm import LGBMRanker

    X, y, qid = data
    weight = 1.0 + (qid % 3)  # one weight per query
    evaluator = RankingEvaluator(
        LGBMRanker(n_estimators=30, n_jobs=1, verbose=-1),
        k=K,
        early_stopping=30,
        random_state=SEED,
    )
    evaluator.fit(X, y, qid=qid, sample_weight=weight)
    val = validation_rows(qid)
    rounds = staged(evaluator.estimator_, X[val])
    reference = [loop_ndcg(y[val], s, qid[val], weight[val]) for s in rounds]
    history = evaluator.validation_scores_[: len(rounds)]  # LightGBM keeps the best rounds
    np.testing.assert_allclose(history, reference, rtol=1e-12)


def test_same_split_with_same_random_state(data):
    X, y, qid = data
    if not rankers():
        pytest.skip("needs LightGBM, XGBoost, CatBoost or scikit-learn >= 1.7")
    model = rankers()[0][1]
    first = RankingEvaluator(model, k=K, early_stopping=ROUNDS, random_state=7).fit(X, y, qid=qid)
    again = RankingEvaluator(model, k=K, early_stopping=ROUNDS, random_state=7).fit(X, y, qid=qid)
    np.testing.assert_array_equal(first.validation_scores_, again.validation_scores_)


def test_xgboost_callbacks_kept_and_ours_dropped_after_fit(data):
    xgboost = pytest.importorskip("xgboost")
    X, y, qid = data
    rounds = []

    class Count(xgboost.callback.TrainingCallback):
        def after_iteration(self, model, epoch, evals_log):
            rounds.append(epoch)
            return False

    evaluator = RankingEvaluator(
        xgboost.XGBRanker(n_estimators=20, n_jobs=1), early_stopping=ROUNDS, random_state=SEED
    ).fit(X, y, qid=qid)
    assert evaluator.estimator_.get_params()["callbacks"] is None
    assert evaluator.estimator.get_params()["callbacks"] is None  # the original untouched
    mine = Count()
    model = xgboost.XGBRanker(n_estimators=20, n_jobs=1, callbacks=[mine])
    evaluator = RankingEvaluator(model, early_stopping=ROUNDS, random_state=SEED)
    evaluator.fit(X, y, qid=qid)
    # it ran every round (XGBoost 2.0 skips the others' last call once one stops)
    n = len(evaluator.validation_scores_)
    assert rounds in (list(range(n)), list(range(n - 1)))
    callbacks = evaluator.estimator_.get_params()["callbacks"]
    assert [type(c) for c in callbacks] == [Count]  # a clone of mine, ours dropped


def test_errors(data):
    X, y, qid = data
    with pytest.raises(ValueError, match="early_stopping needs a boosting model.*Ridge"):
        RankingEvaluator(Ridge(), early_stopping=3).fit(X, y, qid=qid)
    pipeline = make_pipeline(StandardScaler(), HistGradientBoostingRegressor())
    with pytest.raises(ValueError, match="cannot stop a Pipeline early"):
        RankingEvaluator(pipeline, early_stopping=3).fit(X, y, qid=qid)
    model = HistGradientBoostingRegressor()
    with pytest.raises(ValueError, match="fit needs qid"):
        RankingEvaluator(model, early_stopping=3).fit(X, y)
    one = qid == qid[0]
    with pytest.raises(ValueError, match="at least 2 queries in fit; got 1"):
        RankingEvaluator(model, early_stopping=3).fit(X[one], y[one], qid=qid[one])
    with pytest.raises(ValueError, match="validation_fraction"):
        RankingEvaluator(model, early_stopping=3, validation_fraction=1.0).fit(X, y, qid=qid)


@pytest.mark.parametrize(
    "n_queries, fraction, held_out",
    [
        (3, 0.9, 3),  # hand computation: ceil(0.9 * 3) = 3 of 3 queries
        (3, 0.7, 3),  # ceil(2.1) = 3
        (10, 0.95, 10),  # ceil(9.5) = 10
    ],
)
def test_validation_fraction_too_large_for_the_queries(n_queries, fraction, held_out):
    X, y, qid = make_ranking(n_queries=n_queries, random_state=0)
    match = (
        rf"validation_fraction={fraction}\) would hold out {held_out} of the {n_queries} "
        rf"queries in fit .*validation_fraction must be at most {n_queries - 1}/{n_queries}"
    )
    # refused before the model is asked anything: the same for any estimator
    for model in (Ridge(), HistGradientBoostingRegressor()):
        evaluator = RankingEvaluator(model, early_stopping=3, validation_fraction=fraction)
        with pytest.raises(ValueError, match=match):
            evaluator.fit(X, y, qid=qid)


@pytest.mark.parametrize("fraction, held_out", [(0.1, 1), (2 / 3, 2)])
def test_validation_fraction_rounds_up_to_whole_queries(fraction, held_out):
    # 3 queries: a small fraction still holds out one query (ceil(0.3) = 1), and
    # 2/3 holds out 2, leaving one query to train on
    lightgbm = pytest.importorskip("lightgbm")
    X, y, qid = make_ranking(n_queries=3, random_state=0)
    seen = {}

    class Spy(lightgbm.LGBMRanker):
        def fit(self, X, y, group=None, **kwargs):
            seen["group"], seen["eval_group"] = group, kwargs["eval_group"][0]
            return super().fit(X, y, group=group, **kwargs)

    model = Spy(n_estimators=5, min_child_samples=1, verbose=-1)
    evaluator = RankingEvaluator(
        model, early_stopping=2, validation_fraction=fraction, random_state=SEED
    )
    evaluator.fit(X, y, qid=qid)
    assert (len(seen["group"]), len(seen["eval_group"])) == (3 - held_out, held_out)
    # reference: scikit-learn's GroupShuffleSplit on the query ids
    assert seen["eval_group"].sum() == len(validation_rows(qid, fraction))


@pytest.mark.skipif(HGB_HAS_X_VAL, reason="scikit-learn >= 1.7 takes X_val")
def test_histgradientboosting_before_scikit_learn_1_7(data):
    X, y, qid = data
    with pytest.raises(ValueError, match="needs scikit-learn >= 1.7"):
        RankingEvaluator(HistGradientBoostingRegressor(), early_stopping=3).fit(X, y, qid=qid)


def test_multiclass_scores_refused(data):
    lightgbm = pytest.importorskip("lightgbm")
    X, y, qid = data
    model = lightgbm.LGBMClassifier(n_estimators=10, verbose=-1)
    with pytest.raises(ValueError, match="one score each.*shape"):
        RankingEvaluator(model, early_stopping=3, random_state=SEED).fit(X, y, qid=qid)


def test_fit_parameters_it_sets_itself_are_refused(data):
    lightgbm = pytest.importorskip("lightgbm")
    X, y, qid = data
    model = lightgbm.LGBMRanker(n_estimators=5, verbose=-1)
    evaluator = RankingEvaluator(model, early_stopping=3)
    with pytest.raises(ValueError, match=r"\['callbacks'\] itself"):
        evaluator.fit(X, y, qid=qid, callbacks=[])
    # group sizes given by hand, which a splitter could not slice anyway
    with pytest.raises(ValueError, match=r"\['group'\] itself.*Pass qid"):
        RankingEvaluator(model).fit(X, y, qid=qid, group=np.bincount(qid))


@pytest.mark.parametrize("library, model", rankers(), ids=[name for name, _ in rankers()])
def test_fitted_model_pickles_with_its_own_parameters(data, library, model):
    # what early stopping set (callbacks, eval_metric, scoring holding the validation
    # rows and local functions) is set back, so that a search's workers can send the
    # fitted model back and the model's parameters are the user's
    X, y, qid = data
    evaluator = RankingEvaluator(model, k=K, early_stopping=ROUNDS, random_state=SEED)
    evaluator.fit(X, y, qid=qid)
    params = evaluator.estimator_.get_params()
    for name in ("callbacks", "eval_metric", "scoring", "early_stopping", "n_iter_no_change"):
        assert params.get(name) == model.get_params().get(name), name
    again = pickle.loads(pickle.dumps(evaluator))
    np.testing.assert_array_equal(again.predict(X), evaluator.predict(X))
