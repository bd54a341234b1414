"""Tests for RankingEvaluator."""

import inspect

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, RegressorMixin, clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, GroupKFold
from sklearn.tree import DecisionTreeRegressor
from sklearn.utils.estimator_checks import parametrize_with_checks
from threadpoolctl import threadpool_limits

from sklearn_ndcg import RankingEvaluator, make_ranking, ndcg_score


@pytest.fixture(scope="module")
def data():
    return make_ranking(
        n_queries=30, n_items=(4, 12), n_features=6, n_informative=4, random_state=0
    )


class FirstFeature(RegressorMixin, BaseEstimator):
    """Scores each document by its first feature; records what fit received."""

    def fit(self, X, y, sample_weight=None):
        self.sample_weight_ = sample_weight
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        return np.asarray(X, dtype=float)[:, 0]


class QidRanker(BaseEstimator):
    """Stands in for XGBRanker: fit takes one query id per row."""

    def fit(self, X, y, qid=None, sample_weight=None):
        self.X_, self.y_, self.qid_, self.sample_weight_ = X, y, qid, sample_weight
        return self

    def predict(self, X):
        return np.asarray(X, dtype=float)[:, 0]


class GroupRanker(BaseEstimator):
    """Stands in for LGBMRanker: fit takes the size of each query."""

    def fit(self, X, y, group=None, sample_weight=None):
        self.X_, self.y_, self.group_, self.sample_weight_ = X, y, group, sample_weight
        return self

    def predict(self, X):
        return np.asarray(X, dtype=float)[:, 0]


class Recorder(RegressorMixin, BaseEstimator):
    """A regressor whose fit takes an extra metadata argument."""

    def fit(self, X, y, extra=None):
        self.extra_ = extra
        return self

    def predict(self, X):
        return np.zeros(np.shape(X)[0])


# --- construction, parameters, fitting --------------------------------------


def test_init_only_stores():
    estimator = Ridge()
    evaluator = RankingEvaluator(estimator, k=-3, gain="nonsense")  # checked in fit
    assert evaluator.estimator is estimator
    assert evaluator.get_params(deep=False) == {
        "estimator": estimator,
        "k": -3,
        "gain": "nonsense",
        "discount": "log2",
        "ties": "average",
        "zero_division": 0.0,
        "normalize": "ideal",
        "qid": None,
        "early_stopping": None,
        "validation_fraction": 0.1,
        "random_state": None,
        "early_stopping_scoring": None,
        "cut_queries": "warn",
        "unjudged_queries": "drop",
    }


def test_nested_params():
    evaluator = RankingEvaluator(Ridge(alpha=2.0))
    assert evaluator.get_params()["estimator__alpha"] == 2.0
    evaluator.set_params(estimator__alpha=5.0)
    assert evaluator.estimator.alpha == 5.0


@pytest.mark.parametrize(
    "params, match",
    [
        ({"k": 0}, "k"),
        ({"gain": "quadratic"}, "gain"),
        ({"ties": "random"}, "ties"),
        ({"discount": "log10"}, "discount"),
        ({"zero_division": 0.5}, "zero_division"),
    ],
)
def test_invalid_params_raise_in_fit(data, params, match):
    X, y, qid = data
    with pytest.raises(ValueError, match=match):
        RankingEvaluator(Ridge(), **params).fit(X, y, qid=qid)


def test_estimator_without_predict_is_rejected(data):
    X, y, qid = data
    with pytest.raises(ValueError, match="estimator"):
        RankingEvaluator(object()).fit(X, y, qid=qid)


def test_fit_clones(data):
    X, y, qid = data
    inner = Ridge()
    evaluator = RankingEvaluator(inner).fit(X, y, qid=qid)
    assert evaluator.estimator_ is not inner
    assert not hasattr(inner, "coef_")
    assert np.allclose(evaluator.predict(X), clone(inner).fit(X, y).predict(X))


def test_n_features_in_and_feature_names(data):
    pd = pytest.importorskip("pandas")
    X, y, qid = data
    evaluator = RankingEvaluator(Ridge())
    assert not hasattr(evaluator, "n_features_in_")
    frame = pd.DataFrame(X, columns=[f"f{i}" for i in range(X.shape[1])])
    evaluator.fit(frame, y, qid=qid)
    assert evaluator.n_features_in_ == 6
    assert evaluator.feature_names_in_.tolist() == list(frame.columns)


def test_not_fitted(data):
    X, y, qid = data
    with pytest.raises(NotFittedError):
        RankingEvaluator(Ridge()).predict(X)
    with pytest.raises(NotFittedError):
        RankingEvaluator(Ridge()).score(X, y, qid=qid)


def test_delegated_methods_follow_the_estimator(data):
    X, y, qid = data
    regressor = RankingEvaluator(Ridge())
    assert not hasattr(regressor, "predict_proba")
    assert not hasattr(regressor, "decision_function")
    classifier = RankingEvaluator(LinearDiscriminantAnalysis()).fit(X, y, qid=qid)
    direct = LinearDiscriminantAnalysis().fit(X, y)
    assert np.allclose(classifier.predict_proba(X), direct.predict_proba(X))
    assert np.allclose(classifier.decision_function(X), direct.decision_function(X))
    assert np.array_equal(classifier.predict(X), direct.predict(X))


# --- score ------------------------------------------------------------------


def test_score_by_hand():
    # query a: labels 0, 2, 1 scored 3, 2, 1 -> ranked labels 0, 2, 1
    # query b: labels 1, 0 scored 1, 2 -> ranked labels 0, 1
    X = np.array([[3.0], [2.0], [1.0], [1.0], [2.0]])
    y = np.array([0, 2, 1, 1, 0])
    qid = np.array(["a", "a", "a", "b", "b"])
    evaluator = RankingEvaluator(FirstFeature(), k=None).fit(X, y, qid=qid)
    # hand computation: DCG / ideal DCG with the log2 discount
    ndcg_a = (2 / np.log2(3) + 1 / np.log2(4)) / (2 + 1 / np.log2(3))
    ndcg_b = (1 / np.log2(3)) / 1
    assert evaluator.score(X, y, qid=qid) == pytest.approx((ndcg_a + ndcg_b) / 2)
    # k=1: query a puts label 0 first, query b label 0 first
    assert evaluator.set_params(k=1).score(X, y, qid=qid) == 0.0
    # one weight per query, repeated on its documents
    weight = np.array([3, 3, 3, 1, 1])
    assert evaluator.set_params(k=None).score(X, y, qid=qid, sample_weight=weight) == (
        pytest.approx((3 * ndcg_a + ndcg_b) / 4)
    )
    # without qid all rows are one query: labels 0, 2, 0, 1, 1 in ranked order
    # (the tie of scores 2 and 2 averages labels 2 and 0; of 1 and 1, labels 1 and 1)
    dcg = 0 + (1 / np.log2(3) + 1 / np.log2(4)) + (1 / np.log2(5) + 1 / np.log2(6))
    ideal = 2 + 1 / np.log2(3) + 1 / np.log2(4)
    unqueried = RankingEvaluator(FirstFeature(), k=None).fit(X, y)
    with pytest.warns(UserWarning, match="score got no qid, so all 5 rows are scored as one"):
        assert unqueried.score(X, y) == pytest.approx(dcg / ideal)
    # fitted on queries, an evaluator never scores rows without qid as one query
    with pytest.raises(ValueError, match="was fitted with qid, but score got no qid"):
        evaluator.score(X, y)


@pytest.mark.parametrize(
    "options",
    [
        {"k": 3},
        {"k": None, "gain": "exponential"},
        {"discount": "reciprocal"},
        {"ties": "pessimistic"},
        {"zero_division": 1.0},
    ],
)
def test_score_options_match_ndcg_score(data, options):
    X, y, qid = data
    evaluator = RankingEvaluator(DecisionTreeRegressor(max_depth=2, random_state=0), **options).fit(
        X, y, qid=qid
    )
    scores = DecisionTreeRegressor(max_depth=2, random_state=0).fit(X, y).predict(X)
    expected = ndcg_score(y, scores, qid=qid, **{"k": 10, **options})
    assert evaluator.score(X, y, qid=qid) == pytest.approx(expected)


def test_classifier_ranks_by_expected_label(data):
    X, y, qid = data
    evaluator = RankingEvaluator(LinearDiscriminantAnalysis()).fit(X, y, qid=qid)
    direct = LinearDiscriminantAnalysis().fit(X, y)
    expected_label = direct.predict_proba(X) @ direct.classes_
    assert evaluator.score(X, y, qid=qid) == pytest.approx(
        ndcg_score(y, expected_label, qid=qid, k=10)
    )


def test_classifier_with_string_labels_cannot_rank(data):
    X, y, qid = data
    labels = np.array(["bad", "fair", "good", "great", "perfect"])[y]
    evaluator = RankingEvaluator(LinearDiscriminantAnalysis()).fit(X, labels, qid=qid)
    with pytest.raises(TypeError, match="numeric relevance labels"):
        evaluator.score(X, y, qid=qid)


# --- learning-to-rank estimators: query information and row order -------------


@pytest.fixture(scope="module")
def shuffled(data):
    X, y, qid = data
    order = np.random.RandomState(1).permutation(y.shape[0])
    names = np.array([f"q{i:02d}" for i in range(30)])  # string ids, any order
    return X[order], y[order], names[qid[order]]


def test_qid_ranker_gets_rows_sorted_by_query(shuffled):
    X, y, qid = shuffled
    evaluator = RankingEvaluator(QidRanker()).fit(X, y, qid=qid)
    fitted = evaluator.estimator_
    order = np.argsort(qid, kind="stable")
    assert np.array_equal(fitted.X_, X[order]) and np.array_equal(fitted.y_, y[order])
    # integer query ids, non-decreasing, one per query name
    assert np.array_equal(fitted.qid_, np.unique(qid, return_inverse=True)[1][order])
    assert np.all(np.diff(fitted.qid_) >= 0)
    # predictions come back in the caller's row order
    assert np.array_equal(evaluator.predict(X), X[:, 0])


def test_group_ranker_gets_group_sizes(shuffled):
    X, y, qid = shuffled
    weight = np.arange(y.shape[0], dtype=float)
    evaluator = RankingEvaluator(GroupRanker()).fit(X, y, qid=qid, sample_weight=weight)
    fitted = evaluator.estimator_
    order = np.argsort(qid, kind="stable")
    assert np.array_equal(fitted.X_, X[order])
    _, sizes = np.unique(qid, return_counts=True)
    assert np.array_equal(fitted.group_, sizes)
    assert np.array_equal(fitted.sample_weight_, weight[order])  # per document


@pytest.mark.parametrize("ranker", [QidRanker(), GroupRanker()])
def test_ranker_needs_qid(data, ranker):
    X, y, _ = data
    with pytest.raises(ValueError, match=f"{type(ranker).__name__} .* needs qid"):
        RankingEvaluator(ranker).fit(X, y)


def test_ranker_qid_length_is_checked(data):
    X, y, qid = data
    with pytest.raises(ValueError, match="qid has 5 entries but y has"):
        RankingEvaluator(QidRanker()).fit(X, y, qid=qid[:5])


def test_lgbm_ranker_in_original_row_order(shuffled):
    lightgbm = pytest.importorskip("lightgbm")
    X, y, qid = shuffled
    ranker = lightgbm.LGBMRanker(n_estimators=5, min_child_samples=5, n_jobs=1, verbose=-1)
    evaluator = RankingEvaluator(ranker).fit(X, y, qid=qid)
    order = np.argsort(qid, kind="stable")
    _, sizes = np.unique(qid, return_counts=True)
    direct = clone(ranker).fit(X[order], y[order], group=sizes)
    assert np.array_equal(evaluator.predict(X), direct.predict(X))
    assert evaluator.score(X, y, qid=qid) == pytest.approx(
        ndcg_score(y, direct.predict(X), qid=qid, k=10)
    )


def test_xgb_ranker_in_original_row_order(shuffled):
    xgboost = pytest.importorskip("xgboost")
    X, y, qid = shuffled
    ranker = xgboost.XGBRanker(n_estimators=5, n_jobs=1, tree_method="hist")
    # one weight per query, repeated on its documents
    codes = np.unique(qid, return_inverse=True)[1]
    query_weight = np.linspace(0.5, 2.0, 30)
    evaluator = RankingEvaluator(ranker).fit(X, y, qid=qid, sample_weight=query_weight[codes])
    order = np.argsort(codes, kind="stable")
    direct = clone(ranker).fit(X[order], y[order], qid=codes[order], sample_weight=query_weight)
    assert np.array_equal(evaluator.predict(X), direct.predict(X))


def test_xgb_ranker_rejects_weights_varying_within_a_query(shuffled):
    xgboost = pytest.importorskip("xgboost")
    X, y, qid = shuffled
    with pytest.raises(ValueError, match="sample_weight must be the same"):
        RankingEvaluator(xgboost.XGBRanker(n_estimators=2)).fit(
            X, y, qid=qid, sample_weight=np.arange(y.shape[0], dtype=float)
        )


# --- model selection and metadata routing -------------------------------------


def _fold_scores(make_estimator, X, y, qid, cv, k=10, sample_weight=None):
    """NDCG@k of each fold, slicing the folds and scoring them by hand."""
    scores = []
    for train, test in cv.split(X, y, groups=qid):
        predictions = make_estimator().fit(X[train], y[train]).predict(X[test])
        weight = None if sample_weight is None else sample_weight[test]
        scores.append(ndcg_score(y[test], predictions, qid=qid[test], k=k, sample_weight=weight))
    return np.array(scores)


def test_grid_search_selects_by_ndcg_at_10(data):
    # the example: scoring=None ranks candidates by RankingEvaluator.score
    X, y, qid = data
    grid = {"estimator__max_depth": [1, None]}
    search = GridSearchCV(
        RankingEvaluator(HistGradientBoostingRegressor(max_iter=10), k=10),
        grid,
        cv=GroupKFold(5),
    )
    with sklearn.config_context(enable_metadata_routing=True), threadpool_limits(1):
        search.fit(X, y, groups=qid, qid=qid)
        by_hand = {
            depth: _fold_scores(
                lambda d=depth: HistGradientBoostingRegressor(max_iter=10, max_depth=d),
                X,
                y,
                qid,
                GroupKFold(5),
            )
            for depth in grid["estimator__max_depth"]
        }
    results = search.cv_results_
    for i, depth in enumerate(grid["estimator__max_depth"]):
        split_scores = [results[f"split{j}_test_score"][i] for j in range(5)]
        assert np.allclose(split_scores, by_hand[depth])
    best = max(by_hand, key=lambda depth: by_hand[depth].mean())
    assert search.best_params_ == {"estimator__max_depth": best}


def test_routing_passes_sample_weight_to_fit_and_score(data):
    X, y, qid = data
    weight = np.linspace(1.0, 3.0, 30)[qid]  # one weight per query
    search = GridSearchCV(RankingEvaluator(Ridge()), {"estimator__alpha": [1.0]}, cv=GroupKFold(3))
    with sklearn.config_context(enable_metadata_routing=True):
        search.fit(X, y, groups=qid, qid=qid, sample_weight=weight)
    scores = []
    for train, test in GroupKFold(3).split(X, y, groups=qid):
        model = Ridge().fit(X[train], y[train], sample_weight=weight[train])
        scores.append(
            ndcg_score(
                y[test], model.predict(X[test]), qid=qid[test], k=10, sample_weight=weight[test]
            )
        )
    assert np.allclose([search.cv_results_[f"split{j}_test_score"][0] for j in range(3)], scores)


def test_routing_requests_qid_and_sample_weight_by_default():
    routing = RankingEvaluator(Ridge()).get_metadata_routing()
    for method in ("fit", "score"):
        consumed = routing.consumes(method, ["qid", "sample_weight", "groups"])
        assert consumed == {"qid", "sample_weight"}


def test_routing_forwards_requested_fit_params(data):
    X, y, qid = data
    extra = np.arange(y.shape[0])
    with sklearn.config_context(enable_metadata_routing=True):
        evaluator = RankingEvaluator(Recorder().set_fit_request(extra=True))
        assert evaluator.fit(X, y, qid=qid, extra=extra).estimator_.extra_ is extra
        with pytest.raises(ValueError, match="extra"):  # not requested
            RankingEvaluator(Recorder()).fit(X, y, qid=qid, extra=extra)
        # the evaluator's own qid never needs the estimator's request
        RankingEvaluator(QidRanker()).fit(X, y, qid=qid)


def test_without_routing_fit_params_pass_through(data):
    X, y, qid = data
    extra = np.arange(y.shape[0])
    evaluator = RankingEvaluator(Recorder()).fit(X, y, qid=qid, extra=extra)
    assert evaluator.estimator_.extra_ is extra


# --- scikit-learn's estimator checks ------------------------------------------

# Checks RankingEvaluator(Ridge()) is expected to fail, with the reason. None at
# present: the evaluator is neither a classifier nor a regressor (its score is
# NDCG, not accuracy or R^2), so the regressor checks that need R^2 do not apply.
EXPECTED_FAILED_CHECKS: dict[str, str] = {}

if "expected_failed_checks" in inspect.signature(parametrize_with_checks).parameters:
    _checks = parametrize_with_checks(
        [RankingEvaluator(Ridge())],
        expected_failed_checks=lambda estimator: EXPECTED_FAILED_CHECKS,
    )
    # scikit-learn 1.6-1.8 hand pytest a generator (1.9 a list); pytest 9 refuses
    # generators, so materialize it
    _checks = pytest.mark.parametrize(_checks.args[0], list(_checks.args[1]), **_checks.kwargs)
else:  # scikit-learn < 1.6: no expected_failed_checks; the same pairs, listed
    from sklearn.utils.estimator_checks import check_estimator

    _pairs = list(check_estimator(RankingEvaluator(Ridge()), generate_only=True))
    _checks = pytest.mark.parametrize(
        "estimator, check",
        _pairs,
        ids=[getattr(check, "func", check).__name__ for _, check in _pairs],
    )


@_checks
@pytest.mark.filterwarnings("ignore:RankingEvaluator.score got no qid:UserWarning")
def test_sklearn_estimator_checks(estimator, check):
    check(estimator)
