"""Tests for make_ndcg_scorer and make_dcg_scorer inside scikit-learn model selection.

Every search is checked against per-fold scores computed by hand: the folds are
sliced here, a clone is fitted on the train rows, and ndcg_score is called on
the test rows with the test rows' query ids.
"""

import inspect
import pickle
import re
import warnings
from pathlib import Path

import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import clone
from sklearn.datasets import make_multilabel_classification
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import check_scoring, make_scorer
from sklearn.metrics import ndcg_score as sklearn_ndcg_score
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    HalvingGridSearchCV,
    KFold,
    RandomizedSearchCV,
    cross_val_score,
    cross_validate,
    learning_curve,
    validation_curve,
)
from sklearn.multiclass import OneVsRestClassifier
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from threadpoolctl import threadpool_limits

from sklearn_ndcg import dcg_score, make_dcg_scorer, make_ndcg_scorer, ndcg_score

README = Path(__file__).resolve().parents[2] / "README.md"
CV = GroupKFold(n_splits=3)


@pytest.fixture(scope="module")
def ranking_data():
    """60 queries of 5..15 documents, labels 0..4 from a noisy linear utility."""
    rng = np.random.default_rng(42)
    sizes = rng.integers(5, 16, size=60)
    qid = np.repeat(np.arange(60) * 7 + 3, sizes)  # ids neither 0.. nor contiguous
    X = rng.normal(size=(qid.size, 6))
    utility = X @ [1.5, -1.0, 0.7, 0.0, 0.3, 0.0] + rng.normal(size=qid.size)
    y = np.digitize(utility, np.quantile(utility, [0.4, 0.65, 0.85, 0.95]))
    order = rng.permutation(qid.size)  # the rows of a query are scattered
    return X[order], y[order].astype(float), qid[order]


@pytest.fixture(autouse=True)
def one_thread():
    """Small fits are much faster on one thread, above all on a shared machine."""
    with threadpool_limits(1):
        yield


@pytest.fixture
def routing():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


def hand_fold_scores(
    estimator, X, y, qid, *, k, cv=CV, response="predict", metric=ndcg_score, sample_weight=None
):
    """Per-fold scores by hand: fit on the train slice, score the test slice."""
    scores = []
    for train, test in cv.split(X, y, groups=qid):
        model = clone(estimator).fit(X[train], y[train])
        y_score = (
            response(model, X[test]) if callable(response) else getattr(model, response)(X[test])
        )
        weight = None if sample_weight is None else sample_weight[test]
        scores.append(metric(y[test], y_score, qid=qid[test], k=k, sample_weight=weight))
    return np.array(scores)


def split_scores(results, index, n_splits, key="test_score"):
    return np.array([results[f"split{s}_{key}"][index] for s in range(n_splits)])


# --- the scorer object --------------------------------------------------------


def test_scorer_is_a_scikit_learn_scorer_requesting_qid_and_sample_weight():
    scorer = make_ndcg_scorer(k=10)
    assert "k=10" in repr(scorer)
    assert check_scoring(Ridge(), scoring=scorer) is scorer
    assert scorer.get_metadata_routing().score.requests == {
        "qid": True,
        "sample_weight": True,
        "document_weight": True,
        "pool": True,
    }
    # making the scorer must not switch routing on for the caller
    assert sklearn.get_config()["enable_metadata_routing"] is False


def test_scorer_pickles_with_its_requests():
    scorer = pickle.loads(pickle.dumps(make_dcg_scorer(k=3, gain="exponential")))
    assert scorer.get_metadata_routing().score.requests == {
        "qid": True,
        "sample_weight": True,
        "document_weight": True,
        "pool": True,
    }
    assert "gain=exponential" in repr(scorer)


@pytest.mark.parametrize("make", [make_ndcg_scorer, make_dcg_scorer])
def test_direct_call_equals_metric(routing, ranking_data, make):
    X, y, qid = ranking_data
    model = Ridge().fit(X, y)
    metric = ndcg_score if make is make_ndcg_scorer else dcg_score
    expected = metric(y, model.predict(X), qid=qid, k=5, gain="exponential")
    assert make(k=5, gain="exponential")(model, X, y, qid=qid) == expected


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"k": 0}, ValueError, "'k' parameter of make_ndcg_scorer"),
        ({"k": True}, TypeError, "'k' parameter"),
        ({"gain": "exp"}, ValueError, "'gain' parameter of make_ndcg_scorer"),
        ({"discount": "log"}, ValueError, "'discount' parameter of make_ndcg_scorer"),
        ({"ties": "random"}, ValueError, "'ties' parameter of make_ndcg_scorer"),
        ({"zero_division": 0.5}, ValueError, "'zero_division' parameter"),
        (
            {"response_method": "predict_log_proba"},
            ValueError,
            "'response_method' parameter of make_ndcg_scorer",
        ),
        ({"response_method": ()}, ValueError, "response_method must be one of"),
        (
            {"response_method": ("predict", "rank")},
            ValueError,
            r"response_method must be one of .* got \('predict', 'rank'\)",
        ),
    ],
)
def test_invalid_options_fail_at_construction(kwargs, error, match):
    with pytest.raises(error, match=match):
        make_ndcg_scorer(**kwargs)


# --- searches on long-format data ----------------------------------------------


@pytest.mark.parametrize("form", ["qid", "groups"])
def test_grid_search_scores_each_fold_with_its_query_ids(routing, ranking_data, form):
    X, y, qid = ranking_data
    scorer = make_ndcg_scorer(k=10)
    if form == "qid":
        params = {"groups": qid, "qid": qid}
    else:  # one array: the groups are the query ids
        scorer.set_score_request(qid="groups")
        params = {"groups": qid}
    grid = {"alpha": [0.1, 30.0, 3000.0]}
    search = GridSearchCV(Ridge(), grid, cv=CV, scoring=scorer).fit(X, y, **params)

    by_hand = np.array([hand_fold_scores(Ridge(alpha=a), X, y, qid, k=10) for a in grid["alpha"]])
    for i in range(3):
        assert_array_equal(split_scores(search.cv_results_, i, 3), by_hand[i])
    assert search.best_index_ == np.argmax(by_hand.mean(axis=1))
    # the query ids matter: one query per fold would give other scores
    one_query = [
        ndcg_score(
            y[test],
            Ridge(alpha=0.1).fit(X[train], y[train]).predict(X[test]),
            qid=np.zeros(len(test)),
            k=10,
        )
        for train, test in CV.split(X, y, groups=qid)
    ]
    assert not np.allclose(by_hand[0], one_query)


def test_randomized_search(routing, ranking_data):
    X, y, qid = ranking_data
    model = HistGradientBoostingRegressor(max_iter=15, random_state=0)
    search = RandomizedSearchCV(
        model,
        {"learning_rate": [0.05, 0.1, 0.3], "max_leaf_nodes": [5, 15]},
        n_iter=3,
        cv=CV,
        scoring=make_ndcg_scorer(k=5),
        random_state=0,
    ).fit(X, y, groups=qid, qid=qid)
    best = clone(model).set_params(**search.best_params_)
    assert_array_equal(
        split_scores(search.cv_results_, search.best_index_, 3),
        hand_fold_scores(best, X, y, qid, k=5),
    )


def test_halving_grid_search(routing, ranking_data):
    X, y, qid = ranking_data
    model = HistGradientBoostingRegressor(max_leaf_nodes=7, random_state=0)
    search = HalvingGridSearchCV(
        model,
        {"learning_rate": [0.03, 0.1, 0.2, 0.4]},
        cv=CV,
        scoring=make_ndcg_scorer(k=10),
        resource="max_iter",
        min_resources=5,
        max_resources=20,
        factor=2,
    ).fit(X, y, groups=qid, qid=qid)
    # the resource (max_iter) is part of the candidate's params
    best = clone(model).set_params(**search.cv_results_["params"][search.best_index_])
    assert best.max_iter == 20
    assert_array_equal(
        split_scores(search.cv_results_, search.best_index_, 3),
        hand_fold_scores(best, X, y, qid, k=10),
    )


def test_multi_metric_grid_search_refits_on_ndcg_at_10(routing, ranking_data):
    X, y, qid = ranking_data
    scoring = {f"ndcg@{k}": make_ndcg_scorer(k=k) for k in (1, 5, 10)}
    grid = {"alpha": [0.1, 100.0, 10000.0]}
    search = GridSearchCV(Ridge(), grid, cv=CV, scoring=scoring, refit="ndcg@10")
    search.fit(X, y, groups=qid, qid=qid)

    mean_ndcg10 = [hand_fold_scores(Ridge(alpha=a), X, y, qid, k=10).mean() for a in grid["alpha"]]
    assert search.best_index_ == np.argmax(mean_ndcg10)
    best = Ridge(**search.best_params_)
    for k in (1, 5, 10):
        assert_array_equal(
            split_scores(search.cv_results_, search.best_index_, 3, f"test_ndcg@{k}"),
            hand_fold_scores(best, X, y, qid, k=k),
        )
    assert search.best_estimator_.alpha == best.alpha


def test_pipeline_in_parallel_search(routing, ranking_data):
    X, y, qid = ranking_data
    pipe = Pipeline([("scale", StandardScaler()), ("ridge", Ridge())])
    search = GridSearchCV(
        pipe,
        {"ridge__alpha": [1.0, 1000.0]},
        cv=CV,
        scoring=make_ndcg_scorer(k=10, gain="exponential"),
        n_jobs=2,  # loky pickles
    ).fit(X, y, groups=qid, qid=qid)
    best = clone(pipe).set_params(**search.best_params_)
    by_hand = [
        ndcg_score(
            y[test],
            clone(best).fit(X[train], y[train]).predict(X[test]),
            qid=qid[test],
            k=10,
            gain="exponential",
        )
        for train, test in CV.split(X, y, groups=qid)
    ]
    assert_array_equal(split_scores(search.cv_results_, search.best_index_, 3), by_hand)


def test_cross_val_score_and_cross_validate_with_params(routing, ranking_data):
    X, y, qid = ranking_data
    params = {"groups": qid, "qid": qid}
    scores = cross_val_score(Ridge(), X, y, cv=CV, scoring=make_ndcg_scorer(k=5), params=params)
    assert_array_equal(scores, hand_fold_scores(Ridge(), X, y, qid, k=5))

    results = cross_validate(
        Ridge(),
        X,
        y,
        cv=CV,
        params=params,
        scoring={"ndcg": make_ndcg_scorer(k=5), "dcg": make_dcg_scorer(k=5)},
    )
    assert_array_equal(results["test_ndcg"], scores)
    assert_array_equal(
        results["test_dcg"], hand_fold_scores(Ridge(), X, y, qid, k=5, metric=dcg_score)
    )


def test_sample_weight_is_routed(routing, ranking_data):
    X, y, qid = ranking_data
    weight = 1.0 + (qid % 5)  # one weight per query
    model = Ridge().set_fit_request(sample_weight=False)  # weights for the scorer only
    scores = cross_val_score(
        model,
        X,
        y,
        cv=CV,
        scoring=make_ndcg_scorer(k=5),
        params={"groups": qid, "qid": qid, "sample_weight": weight},
    )
    weighted = hand_fold_scores(Ridge(), X, y, qid, k=5, sample_weight=weight)
    assert_array_equal(scores, weighted)
    assert not np.allclose(weighted, hand_fold_scores(Ridge(), X, y, qid, k=5))


@pytest.mark.parametrize(
    "response_method, response",
    [
        # the default takes the decision function of a binary classifier
        (None, "decision_function"),
        ("predict_proba", lambda model, X: model.predict_proba(X)[:, 1]),
    ],
)
def test_logistic_regression_on_binary_relevance(routing, ranking_data, response_method, response):
    X, y, qid = ranking_data
    relevant = (y >= 2).astype(int)
    kwargs = {} if response_method is None else {"response_method": response_method}
    search = GridSearchCV(
        LogisticRegression(),
        {"C": [0.001, 1.0]},
        cv=CV,
        scoring=make_ndcg_scorer(k=5, **kwargs),
    ).fit(X, relevant, groups=qid, qid=qid)
    best = LogisticRegression(**search.best_params_)
    assert_array_equal(
        split_scores(search.cv_results_, search.best_index_, 3),
        hand_fold_scores(best, X, relevant, qid, k=5, response=response),
    )


@pytest.mark.parametrize("routing_on", [False, True])
@pytest.mark.parametrize(
    "estimator, grid, method",
    [
        # the default response method picks predict_proba (KNN has no
        # decision_function) and decision_function for one-vs-rest
        (KNeighborsClassifier(), {"n_neighbors": [3, 7]}, "predict_proba"),
        (
            OneVsRestClassifier(LogisticRegression()),
            {"estimator__C": [0.1, 1.0]},
            "decision_function",
        ),
    ],
)
def test_multilabel_agrees_with_scikit_learn(estimator, grid, method, routing_on):
    X, Y = make_multilabel_classification(n_samples=90, n_classes=6, random_state=0)
    scoring = {
        "default": make_ndcg_scorer(k=3),
        "ours": make_ndcg_scorer(k=3, response_method=method),
        "sklearn": make_scorer(sklearn_ndcg_score, response_method=method, k=3),
    }
    with sklearn.config_context(enable_metadata_routing=routing_on):
        search = GridSearchCV(estimator, grid, cv=KFold(3), scoring=scoring, refit="sklearn").fit(
            X, Y
        )
    expected = search.cv_results_["mean_test_sklearn"]
    assert np.isfinite(expected).all()
    assert_allclose(search.cv_results_["mean_test_ours"], expected, rtol=1e-12)
    assert_allclose(search.cv_results_["mean_test_default"], expected, rtol=1e-12)


def test_validation_curve(routing, ranking_data):
    if "params" not in inspect.signature(validation_curve).parameters:
        pytest.skip("this scikit-learn's validation_curve does not route metadata")
    X, y, qid = ranking_data
    alphas = [0.1, 1000.0]
    _, test_scores = validation_curve(
        Ridge(),
        X,
        y,
        param_name="alpha",
        param_range=alphas,
        cv=CV,
        scoring=make_ndcg_scorer(k=10),
        params={"groups": qid, "qid": qid},
    )
    for a, row in zip(alphas, test_scores):
        assert_array_equal(row, hand_fold_scores(Ridge(alpha=a), X, y, qid, k=10))


def test_learning_curve(routing, ranking_data):
    if "params" not in inspect.signature(learning_curve).parameters:
        pytest.skip("this scikit-learn's learning_curve does not route metadata")
    X, y, qid = ranking_data
    sizes, _, test_scores = learning_curve(
        Ridge(),
        X,
        y,
        train_sizes=[0.3, 1.0],
        cv=CV,
        scoring=make_ndcg_scorer(k=10),
        params={"groups": qid, "qid": qid},
    )
    for size, row in zip(sizes, test_scores):
        by_hand = [
            ndcg_score(
                y[test],
                Ridge().fit(X[train[:size]], y[train[:size]]).predict(X[test]),
                qid=qid[test],
                k=10,
            )
            for train, test in CV.split(X, y, groups=qid)
        ]
        assert_array_equal(row, by_hand)


# --- errors ----------------------------------------------------------------------


def test_routing_off_direct_call_says_what_to_do(ranking_data):
    X, y, qid = ranking_data
    model = Ridge().fit(X, y)
    with pytest.raises(
        ValueError,
        match=re.escape("call sklearn.set_config(enable_metadata_routing=True) and pass qid"),
    ):
        make_ndcg_scorer(k=10)(model, X, y)


def test_routing_off_search_raises_with_error_score_raise(ranking_data):
    X, y, qid = ranking_data
    search = GridSearchCV(
        Ridge(), {"alpha": [1.0]}, cv=CV, error_score="raise", scoring=make_dcg_scorer(k=10)
    )
    with pytest.raises(
        ValueError,
        match=r"DCG scorer got 1-D y .* but no qid.*"
        r"enable_metadata_routing=True",
    ):
        search.fit(X, y, groups=qid)


def test_routing_off_default_error_score_cannot_pass_unnoticed(ranking_data):
    X, y, qid = ranking_data
    search = GridSearchCV(Ridge(), {"alpha": [1.0, 10.0]}, cv=CV, scoring=make_ndcg_scorer(k=10))
    with pytest.warns(UserWarning) as record:
        search.fit(X, y, groups=qid)
    messages = [str(w.message) for w in record]
    failed = [m for m in messages if m.startswith("Scoring failed")]
    assert len(failed) == 6  # every fold of every candidate
    assert all("sklearn.set_config(enable_metadata_routing=True)" in m for m in failed)
    assert any("test scores are non-finite" in m for m in messages)
    assert np.isnan(search.cv_results_["mean_test_score"]).all()
    # with warnings as errors (as in this test suite) the search stops at once
    with pytest.raises(UserWarning, match="Scoring failed"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            clone(search).fit(X, y, groups=qid)


def test_qid_missing_with_routing_on(routing, ranking_data):
    X, y, qid = ranking_data
    search = GridSearchCV(
        Ridge(), {"alpha": [1.0]}, cv=CV, error_score="raise", scoring=make_ndcg_scorer(k=10)
    )
    with pytest.raises(
        ValueError,
        match=r"but no qid.*"
        r"set_score_request\(qid='groups'\)",
    ):
        search.fit(X, y, groups=qid)


def test_qid_of_wrong_length_in_a_fold(routing, ranking_data):
    X, y, qid = ranking_data
    search = GridSearchCV(
        Ridge(), {"alpha": [1.0]}, cv=CV, error_score="raise", scoring=make_ndcg_scorer(k=10)
    )
    # a qid one entry short is not split with the folds: the scorer sees all of it
    with pytest.raises(
        ValueError,
        match=rf"got qid with {y.size - 1} entries for "
        r"\d+ documents\. Pass one query id per row of X",
    ):
        search.fit(X, y, groups=qid, qid=qid[:-1])


def test_multiclass_classifier_on_graded_labels(routing, ranking_data):
    X, y, qid = ranking_data
    model = LogisticRegression().fit(X, y)
    # graded labels 0..4: ranked by the expected label, sum over classes of p * label
    expected_label = (model.predict_proba(X) * np.arange(5)).sum(axis=1)
    assert make_ndcg_scorer(k=5)(model, X, y, qid=qid) == pytest.approx(
        ndcg_score(y, expected_label, qid=qid, k=5), rel=1e-12
    )
    # a classifier of graded labels without predict_proba cannot rank
    svc = LinearSVC(dual=False).fit(X, y)
    with pytest.raises(ValueError, match="decision_function gives 5 columns, one per class"):
        make_ndcg_scorer(k=5)(svc, X, y, qid=qid)


# --- README ----------------------------------------------------------------------


def test_readme_example_runs():
    text = README.read_text()
    section = text.split("## Tune a model by NDCG@10", 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, flags=re.DOTALL)
    blocks = [block for block in blocks if "search.fit" in block]
    assert len(blocks) == 1
    namespace = {}
    with sklearn.config_context():  # undoes the example's set_config
        exec(compile(blocks[0], str(README), "exec"), namespace)
    search, X, y, qid = (namespace[name] for name in ("search", "X", "y", "qid"))
    best = Ridge(**search.best_params_)
    by_hand = hand_fold_scores(best, X, y, qid, k=10, cv=search.cv)
    assert search.best_score_ == pytest.approx(by_hand.mean(), rel=1e-12)
    assert sklearn.get_config()["enable_metadata_routing"] is False


def test_readme_quotes_the_error_of_forgotten_routing():
    """The README shows the error a search gives without routing; it must be the real one."""
    text = README.read_text()
    quoted = re.search(r"```text\n(.*?)```", text, flags=re.DOTALL).group(1)
    section = text.split("## Tune a model by NDCG@10", 1)[1].split("\n## ", 1)[0]
    (block,) = [b for b in re.findall(r"```python\n(.*?)```", section, re.DOTALL) if "search" in b]
    code = block.replace("sklearn.set_config(enable_metadata_routing=True)", "pass")
    with sklearn.config_context(enable_metadata_routing=False):
        with pytest.raises(ValueError) as error:
            exec(compile(code, str(README), "exec"), {})
    message = str(error.value)
    for line in ("All the 15 fits failed.", "15 fits failed with the following error:"):
        assert line in quoted and line in message
    last = quoted.strip().splitlines()[-1]
    assert last == "TypeError: Ridge.fit() got an unexpected keyword argument 'qid'"
    assert last in message
