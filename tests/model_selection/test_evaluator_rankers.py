"""Learning-to-rank models straight in a search fail, silently or loudly; RankingEvaluator
fixes them.

Each failure that "Learning-to-rank models in a search" (docs/model_selection.rst)
quotes is reproduced here, and so is the fix. The ranker libraries are optional,
so each test skips without its library. Warnings are errors in the test run: a
search that goes wrong "silently" here emits none.
"""

import warnings

import numpy as np
import pytest
import sklearn
from sklearn.base import clone
from sklearn.metrics import ndcg_score
from sklearn.model_selection import GridSearchCV, GroupKFold

from sklearn_ndcg import RankingEvaluator, make_ndcg_scorer

# 30 queries of 5 to 10 documents, rows grouped by query (the libraries need it),
# relevance 0..4 that depends on the first two features.
_rng = np.random.default_rng(0)
QID = np.repeat(np.arange(30), _rng.integers(5, 11, size=30))
X = _rng.normal(size=(QID.size, 5))
Y = np.clip(np.round(X[:, 0] + X[:, 1] + _rng.normal(scale=0.5, size=QID.size) + 1), 0, 4)
SIZES = np.unique(QID, return_counts=True)[1]  # LightGBM's group=: the size of each query
SPLITS = list(GroupKFold(3).split(X, Y, QID))  # the folds of cv=GroupKFold(3)
# The first two columns of X as categories, for CatBoost's cat_features.
CATEGORIES = np.where(X[:, :2] > 0, "high", "low")


def _version(module) -> tuple:
    return tuple(int(part) for part in module.__version__.split(".")[:2])


def _xgboost_ndcg(model, X, y, qid) -> float:
    """XGBoost's own metric (``ndcg@32``) of ``model`` on queries ``qid``."""
    import xgboost

    result = model.get_booster().eval(xgboost.DMatrix(X, y, qid=qid))  # "[0]\teval-ndcg@32:0.8"
    return float(result.rsplit(":", 1)[1])


def _fit_directly(library, model, X, y, qid):
    """Fit ``model`` with the query information in its library's own form."""
    if library == "xgboost":
        return model.fit(X, y, qid=qid)
    if library == "lightgbm":
        return model.fit(X, y, group=np.unique(qid, return_counts=True)[1])
    return model.fit(X, y, group_id=qid)


def _ndcg_by_query(y_true, y_score, qid) -> float:
    """scikit-learn's NDCG@10 of each query, averaged over the queries."""
    return np.mean(
        [ndcg_score([y_true[qid == q]], [y_score[qid == q]], k=10) for q in np.unique(qid)]
    )


def _fit_recording_warnings(search, **params) -> list:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, Y, **params)
    return [str(warning.message) for warning in caught]


# XGBoost: XGBRanker.score scores a whole test fold as one query.


def test_xgboost_bare_ranker_scores_each_fold_as_one_query():
    xgboost = pytest.importorskip("xgboost")
    search = GridSearchCV(xgboost.XGBRanker(n_estimators=5), {"max_depth": [2]}, cv=GroupKFold(3))
    if _version(xgboost) >= (3, 3):  # dmlc/xgboost#12335: score raises without qid
        messages = _fit_recording_warnings(search, groups=QID, qid=QID)
        assert any("Scoring failed" in message for message in messages)
        assert np.isnan(search.cv_results_["mean_test_score"]).all()
        return
    search.fit(X, Y, groups=QID, qid=QID)  # routing off: qid goes to fit only
    for i, (train, test) in enumerate(SPLITS):
        model = xgboost.XGBRanker(n_estimators=5, max_depth=2).fit(
            X[train], Y[train], qid=QID[train]
        )
        one_query = _xgboost_ndcg(model, X[test], Y[test], np.zeros(test.size))
        by_query = _xgboost_ndcg(model, X[test], Y[test], QID[test])
        score = search.cv_results_[f"split{i}_test_score"][0]
        assert score == pytest.approx(one_query, rel=1e-6)
        assert abs(score - by_query) > 0.01


def test_xgboost_bare_ranker_with_routing_needs_a_fit_request():
    xgboost = pytest.importorskip("xgboost")
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            xgboost.XGBRanker(n_estimators=5), {"max_depth": [2]}, cv=GroupKFold(3)
        )
        with pytest.raises(sklearn.exceptions.UnsetMetadataPassedError, match=r"\[qid\]"):
            search.fit(X, Y, groups=QID, qid=QID)


# LightGBM: group= holds query sizes, which no splitter can split.


@pytest.mark.parametrize("routing", [False, True])
def test_lightgbm_bare_ranker_fails_every_fit(routing):
    lightgbm = pytest.importorskip("lightgbm")
    with sklearn.config_context(enable_metadata_routing=routing):
        ranker = lightgbm.LGBMRanker(n_estimators=5, verbose=-1)
        if routing:
            ranker.set_fit_request(group=True)
        search = GridSearchCV(
            ranker, {"num_leaves": [7, 31]}, cv=GroupKFold(3), scoring=make_ndcg_scorer(k=10)
        )
        qid = {"qid": QID} if routing else {}
        # LightGBM 4.0: "...is not same with #data"; later: "...differs from the length..."
        with pytest.raises(
            ValueError, match=r"(?s)All the 6 fits failed.*LightGBMError: Sum of query counts"
        ):
            search.fit(X, Y, groups=QID, group=SIZES, **qid)


def test_lightgbm_bare_ranker_has_no_score():
    lightgbm = pytest.importorskip("lightgbm")
    search = GridSearchCV(
        lightgbm.LGBMRanker(n_estimators=5, verbose=-1), {"num_leaves": [7]}, cv=GroupKFold(3)
    )
    with pytest.raises(TypeError, match="estimator passed should have a 'score' method"):
        search.fit(X, Y, groups=QID, group=SIZES)


# CatBoost: no group_id reaches fit, and score never gets one.


def _catboost_ranker(catboost, **params):
    return catboost.CatBoostRanker(iterations=5, verbose=False, allow_writing_files=False, **params)


def test_catboost_bare_ranker_fails_every_fit():
    catboost = pytest.importorskip("catboost")
    search = GridSearchCV(_catboost_ranker(catboost), {"depth": [2, 3]}, cv=GroupKFold(3))
    with pytest.raises(
        ValueError,
        match=r"(?s)All the 6 fits failed.*Groupwise loss/metrics require nontrivial groups",
    ):
        search.fit(X, Y, groups=QID)


def test_catboost_bare_ranker_gets_group_id_in_fit_but_not_in_score():
    catboost = pytest.importorskip("catboost")
    search = GridSearchCV(_catboost_ranker(catboost), {"depth": [2, 3]}, cv=GroupKFold(3))
    messages = _fit_recording_warnings(search, groups=QID, group_id=QID)
    failed = [message for message in messages if "Scoring failed" in message]
    assert len(failed) == 6  # 2 candidates times 3 folds
    assert all("group_id must be initialized" in message for message in failed)
    assert np.isnan(search.cv_results_["mean_test_score"]).all()


def test_catboost_bare_ranker_with_routing_refuses_group_id():
    catboost = pytest.importorskip("catboost")
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(_catboost_ranker(catboost), {"depth": [2]}, cv=GroupKFold(3))
        with pytest.raises(TypeError, match=r"GridSearchCV.fit got unexpected argument\(s\)"):
            search.fit(X, Y, groups=QID, group_id=QID)


def test_catboost_1_2_10_cannot_clone_cat_features():
    catboost = pytest.importorskip("catboost")
    if catboost.__version__ != "1.2.10":
        pytest.skip("the page quotes CatBoost 1.2.10 (catboost/catboost#3078)")
    with pytest.raises(RuntimeError, match="Cannot clone object CatBoostRanker"):
        clone(catboost.CatBoostRanker(cat_features=[0]))


# The fix: RankingEvaluator(ranker), routing on, qid passed to the search.

RANKERS = [
    pytest.param("xgboost", "XGBRanker", {"n_estimators": 5}, "max_depth", [2, 3], id="xgboost"),
    pytest.param(
        "lightgbm",
        "LGBMRanker",
        {"n_estimators": 5, "verbose": -1},
        "num_leaves",
        [7, 31],
        id="lightgbm",
    ),
    pytest.param(
        "catboost",
        "CatBoostRanker",
        {"iterations": 5, "verbose": False, "allow_writing_files": False},
        "depth",
        [2, 3],
        id="catboost",
    ),
]


@pytest.mark.parametrize("library, name, params, param, values", RANKERS)
def test_ranking_evaluator_scores_each_fold_query_by_query(library, name, params, param, values):
    ranker = getattr(pytest.importorskip(library), name)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            RankingEvaluator(ranker(**params)),
            {f"estimator__{param}": values},
            cv=GroupKFold(3),
        )
        search.fit(X, Y, groups=QID, qid=QID)
    # Each split's score is scikit-learn's NDCG@10, query by query, of the ranker
    # fitted on the training fold as its library documents.
    for i, (train, test) in enumerate(SPLITS):
        model = _fit_directly(
            library, ranker(**params, **{param: values[0]}), X[train], Y[train], QID[train]
        )
        expected = _ndcg_by_query(Y[test], model.predict(X[test]), QID[test])
        assert search.cv_results_[f"split{i}_test_score"][0] == pytest.approx(expected, rel=1e-6)


def test_ranking_evaluator_searches_catboost_with_cat_features():
    catboost = pytest.importorskip("catboost")
    pd = pytest.importorskip("pandas")
    data = pd.DataFrame({"a": CATEGORIES[:, 0], "b": CATEGORIES[:, 1], "c": X[:, 2]})
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            RankingEvaluator(_catboost_ranker(catboost, cat_features=[0, 1])),
            {"estimator__depth": [2, 3]},
            cv=GroupKFold(3),
        )
        search.fit(data, Y, groups=QID, qid=QID)
    for i, (train, test) in enumerate(SPLITS):
        model = _catboost_ranker(catboost, cat_features=[0, 1], depth=2).fit(
            data.iloc[train], Y[train], group_id=QID[train]
        )
        expected = _ndcg_by_query(Y[test], model.predict(data.iloc[test]), QID[test])
        assert search.cv_results_[f"split{i}_test_score"][0] == pytest.approx(expected, rel=1e-6)
