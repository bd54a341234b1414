"""Tests for query ids carried in a column of X (``qid=<column>``).

``RankingEvaluator(estimator, qid=<column>)`` and ``make_ndcg_scorer(qid=<column>)``
read the query ids from a column of X, so that tools without metadata routing
keep them with the rows they split. Every expected value is one of two
independent references:

- the same computation with the query ids passed explicitly as an array
  (``fit(X_without, y, qid=qid)``, ``scorer(..., qid=qid)``), a path tested
  against scikit-learn elsewhere; scores agree exactly, and predictions but for
  the last bits where a linear model solves on differently laid out arrays;
- a loop over queries calling ``sklearn.metrics.ndcg_score`` (or ``dcg_score``)
  on each query's documents; this agrees to rounding.
"""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn.metrics
from numpy.testing import assert_allclose, assert_array_equal
from scipy.stats import loguniform
from sklearn.compose import ColumnTransformer
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.inspection import permutation_importance
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.model_selection import (
    GroupKFold,
    HalvingRandomSearchCV,
    RandomizedSearchCV,
    cross_val_predict,
)
from sklearn.pipeline import make_pipeline
from sklearn.utils import resample

from sklearn_ndcg import RankingEvaluator, make_dcg_scorer, make_ndcg_scorer, make_ranking

pd = pytest.importorskip("pandas")  # most cases put the query ids in a DataFrame

X, y, QID = make_ranking(n_queries=30, random_state=0)
N_SAMPLES, N_FEATURES = X.shape
NAMES = [f"f{i}" for i in range(N_FEATURES)]
POSITION = 3  # the qid column sits among the features: neither first nor last
CV = GroupKFold(3)


def _with_qid(kind: str, position: int = POSITION, qid=QID):
    """X with ``qid`` inserted as column ``position``, and X without it, as ``kind``."""
    position %= N_FEATURES + 1
    frame = pd.DataFrame(X, columns=NAMES)
    with_qid = frame.copy()
    with_qid.insert(position, "qid", qid)
    if kind == "pandas":
        return with_qid, frame
    if kind == "polars":
        pl = pytest.importorskip("polars")
        return pl.from_pandas(with_qid), pl.from_pandas(frame)
    array = np.insert(X, position, qid, axis=1)
    if kind == "ndarray":
        return array, X
    if kind == "csr":
        return sp.csr_matrix(array), sp.csr_matrix(X)
    raise AssertionError(kind)


def _rows(X, index):
    """The rows ``index`` of a DataFrame (pandas or polars), array or sparse matrix."""
    return X.iloc[index] if hasattr(X, "iloc") else X[index]


def _sklearn_per_query(y_true, y_score, qid, k=None, metric=sklearn.metrics.ndcg_score):
    """Mean over queries of scikit-learn's metric on each query's documents."""
    qid = np.asarray(qid)
    values = []
    for q in np.unique(qid):
        rows = qid == q
        assert rows.sum() >= 2  # scikit-learn's metrics need 2 documents per query
        values.append(metric([y_true[rows]], [y_score[rows]], k=k))
    return np.mean(values)


def _assert_same_scores(got, expected):
    """Equal predictions, but for the last bits: BLAS may round differently when
    a linear model solves on the same values laid out in another array."""
    assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@pytest.fixture
def quiet_optuna():
    """Optuna with its INFO logging off, restored afterwards."""
    optuna = pytest.importorskip("optuna")
    pytest.importorskip("optuna_integration")
    level = optuna.logging.get_verbosity()
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    yield optuna
    optuna.logging.set_verbosity(level)


# --- RankingEvaluator(qid=<column>) -------------------------------------------------


@pytest.mark.parametrize(
    "kind, column",
    [
        ("pandas", "qid"),
        ("pandas", POSITION),
        ("pandas", POSITION - N_FEATURES - 1),  # the same column, counted from the end
        ("polars", "qid"),
        ("polars", POSITION),
        ("ndarray", 0),
        ("ndarray", -1),
        ("csr", 0),
        ("csr", -1),
    ],
)
def test_evaluator_column_matches_explicit_qid(kind, column):
    position = column if isinstance(column, int) else POSITION
    X_qid, X_plain = _with_qid(kind, position)
    model = RankingEvaluator(Ridge(), qid=column).fit(X_qid, y)
    # reference: the same evaluator given the query ids as an array
    explicit = RankingEvaluator(Ridge()).fit(X_plain, y, qid=QID)

    assert model.score(X_qid, y) == explicit.score(X_plain, y, qid=QID)
    _assert_same_scores(model.predict(X_qid), explicit.predict(X_plain))
    # reference: scikit-learn's ndcg_score on each query (RankingEvaluator's k=10)
    assert model.score(X_qid, y) == pytest.approx(
        _sklearn_per_query(y, explicit.predict(X_plain), QID, k=10), rel=1e-12
    )
    assert model.n_features_in_ == N_FEATURES + 1  # the qid column counts
    if kind in ("pandas", "polars"):
        assert list(model.feature_names_in_) == list(X_qid.columns)


@pytest.mark.parametrize(
    "to_dtype",
    [
        pytest.param(lambda q: q.astype("int64"), id="int64"),
        pytest.param(lambda q: q.astype("Int64"), id="Int64-nullable"),
        pytest.param(lambda q: ("q" + q.astype(str)).astype("string"), id="string"),
        pytest.param(lambda q: ("q" + q.astype(str)).astype(object), id="object"),
        pytest.param(lambda q: q.astype("category"), id="categorical"),
    ],
)
def test_evaluator_qid_column_dtypes(to_dtype):
    qid = to_dtype(pd.Series(QID))
    X_qid, X_plain = _with_qid("pandas", qid=qid)
    model = RankingEvaluator(Ridge(), qid="qid").fit(X_qid, y)
    # reference: the same column's values passed as qid=
    explicit = RankingEvaluator(Ridge()).fit(X_plain, y, qid=qid)

    assert model.score(X_qid, y) == explicit.score(X_plain, y, qid=qid)
    _assert_same_scores(model.predict(X_qid), explicit.predict(X_plain))
    # reference: scikit-learn on each query; string ids order the queries
    # differently, so the mean is summed in another order
    assert model.score(X_qid, y) == pytest.approx(
        _sklearn_per_query(y, explicit.predict(X_plain), QID, k=10), rel=1e-12
    )


def _ranker(name):
    """A small, deterministic, single-threaded learner named ``name``."""
    if name == "ridge":
        return Ridge()
    if name == "lightgbm":
        lightgbm = pytest.importorskip("lightgbm")
        return lightgbm.LGBMRanker(n_estimators=5, random_state=0, n_jobs=1, verbose=-1)
    if name == "xgboost":
        xgboost = pytest.importorskip("xgboost")
        return xgboost.XGBRanker(n_estimators=5, random_state=0, n_jobs=1, tree_method="hist")
    catboost = pytest.importorskip("catboost")
    return catboost.CatBoostRanker(
        iterations=5, random_seed=0, thread_count=1, verbose=False, allow_writing_files=False
    )


# How each library's fit takes the queries (make_ranking's rows come grouped by
# query, numbered 0, 1, ...): per-row ids, or the size of each query.
QUERY_FORM = {
    "ridge": {},
    "lightgbm": {"group": np.bincount(QID)},
    "xgboost": {"qid": QID},
    "catboost": {"group_id": QID},
}


@pytest.mark.parametrize("name", ["ridge", "lightgbm", "xgboost", "catboost"])
def test_evaluator_column_with_rankers(name):
    X_qid, X_plain = _with_qid("pandas")
    model = RankingEvaluator(_ranker(name), qid="qid").fit(X_qid, y)
    # reference: the same learner given the query ids as an array
    explicit = RankingEvaluator(_ranker(name)).fit(X_plain, y, qid=QID)
    # reference: the library itself, given the queries in its own form
    direct = _ranker(name).fit(X_plain, y, **QUERY_FORM[name])

    _assert_same_scores(model.predict(X_qid), explicit.predict(X_plain))
    _assert_same_scores(model.predict(X_qid), direct.predict(X_plain))
    assert model.score(X_qid, y) == explicit.score(X_plain, y, qid=QID)
    # reference: scikit-learn on each query
    assert model.score(X_qid, y) == pytest.approx(
        _sklearn_per_query(y, direct.predict(X_plain), QID, k=10), rel=1e-12
    )


def test_evaluator_column_dropped_for_every_method():
    """predict_proba and decision_function see X without the qid column too."""
    relevant = (y > 1).astype(int)
    X_qid, X_plain = _with_qid("pandas")
    model = RankingEvaluator(LogisticRegression(), qid="qid").fit(X_qid, relevant)
    # reference: the same classifier given the query ids as an array
    explicit = RankingEvaluator(LogisticRegression()).fit(X_plain, relevant, qid=QID)

    _assert_same_scores(model.predict_proba(X_qid), explicit.predict_proba(X_plain))
    _assert_same_scores(model.decision_function(X_qid), explicit.decision_function(X_plain))
    assert model.score(X_qid, relevant) == explicit.score(X_plain, relevant, qid=QID)
    # reference: scikit-learn on each query, ranked by the decision function
    assert model.score(X_qid, relevant) == pytest.approx(
        _sklearn_per_query(relevant, explicit.decision_function(X_plain), QID, k=10),
        rel=1e-12,
    )


# --- make_ndcg_scorer(qid=<column>) and make_dcg_scorer(qid=<column>) ---------------


def _drop_qid_pipeline():
    """Ridge behind a first step that drops the qid column."""
    drop = ColumnTransformer([("qid", "drop", ["qid"])], remainder="passthrough")
    return make_pipeline(drop, Ridge())


@pytest.mark.parametrize(
    "make_scorer, k, sklearn_metric",
    [
        (make_ndcg_scorer, 5, sklearn.metrics.ndcg_score),
        (make_ndcg_scorer, [1, 5], sklearn.metrics.ndcg_score),
        (make_dcg_scorer, None, sklearn.metrics.dcg_score),
        (make_dcg_scorer, [1, 5], sklearn.metrics.dcg_score),
    ],
)
@pytest.mark.parametrize(
    "model",
    [
        pytest.param(lambda: _drop_qid_pipeline(), id="drop-pipeline"),
        pytest.param(lambda: RankingEvaluator(Ridge(), qid="qid"), id="evaluator"),
    ],
)
def test_scorer_column_matches_explicit_qid(make_scorer, k, sklearn_metric, model):
    X_qid, X_plain = _with_qid("pandas")
    fitted = model().fit(X_qid, y)
    got = make_scorer(k=k, qid="qid")(fitted, X_qid, y)
    # reference: the scorer without a column, given the query ids as an array
    assert got == make_scorer(k=k)(fitted, X_qid, y, qid=QID)
    # reference: the same model fitted without the column, scored with explicit qid
    plain = Ridge().fit(X_plain, y)
    expected = make_scorer(k=k)(plain, X_plain, y, qid=QID)
    # reference: scikit-learn on each query
    y_score = plain.predict(X_plain)
    name = make_scorer.__name__.split("_")[1]  # "ndcg" or "dcg"
    if isinstance(k, list):
        assert got.keys() == {f"{name}@{cutoff}" for cutoff in k}
        for cutoff in k:
            key = f"{name}@{cutoff}"
            assert got[key] == pytest.approx(expected[key], rel=1e-12)
            assert got[key] == pytest.approx(
                _sklearn_per_query(y, y_score, QID, cutoff, sklearn_metric), rel=1e-12
            )
    else:
        assert got == pytest.approx(expected, rel=1e-12)
        assert got == pytest.approx(
            _sklearn_per_query(y, y_score, QID, k, sklearn_metric), rel=1e-12
        )


def test_scorer_column_position_on_array():
    X_qid, X_plain = _with_qid("ndarray", -1)
    model = RankingEvaluator(Ridge(), qid=-1).fit(X_qid, y)
    # reference: the same scorer given the query ids as an array
    expected = make_ndcg_scorer(k=5)(model, X_qid, y, qid=QID)
    assert make_ndcg_scorer(k=5, qid=-1)(model, X_qid, y) == expected
    assert make_ndcg_scorer(k=5, qid=N_FEATURES)(model, X_qid, y) == expected


# --- tools without metadata routing (routing off, the default) ----------------------


def _fold_score(alpha, X_plain, train, test):
    """Reference: NDCG@10 of one fold, query ids passed explicitly as arrays."""
    model = RankingEvaluator(Ridge(alpha=alpha))
    model.fit(_rows(X_plain, train), y[train], qid=QID[train])
    return model.score(_rows(X_plain, test), y[test], qid=QID[test])


def _alpha(params):
    return params.get("estimator__alpha", params.get("ridge__alpha"))


@pytest.mark.parametrize("kind", ["pandas", "polars"])
def test_randomized_search_with_column(kind):
    X_qid, X_plain = _with_qid(kind)
    groups = X_qid["qid"]
    search = RandomizedSearchCV(
        RankingEvaluator(Ridge(), qid="qid"),
        {"estimator__alpha": loguniform(0.1, 1000)},
        n_iter=3,
        cv=CV,
        random_state=0,
    ).fit(X_qid, y, groups=groups)

    results = search.cv_results_
    folds = list(CV.split(X_qid, y, groups))
    for i, params in enumerate(results["params"]):
        for s, (train, test) in enumerate(folds):
            expected = _fold_score(_alpha(params), X_plain, train, test)
            assert results[f"split{s}_test_score"][i] == pytest.approx(expected, rel=1e-12)
    # the candidates differ, so equal scores are not an accident
    assert np.ptp(results["mean_test_score"]) > 0


def test_randomized_search_scorer_column_with_pipeline():
    """The scorer reads the column; a pipeline drops it before Ridge."""
    X_qid, X_plain = _with_qid("pandas")
    search = RandomizedSearchCV(
        _drop_qid_pipeline(),
        {"ridge__alpha": loguniform(0.1, 1000)},
        n_iter=3,
        cv=CV,
        scoring=make_ndcg_scorer(k=10, qid="qid"),
        random_state=0,
    ).fit(X_qid, y, groups=X_qid["qid"])

    results = search.cv_results_
    for i, params in enumerate(results["params"]):
        for s, (train, test) in enumerate(CV.split(X_qid, y, QID)):
            expected = _fold_score(_alpha(params), X_plain, train, test)
            assert results[f"split{s}_test_score"][i] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("kind", ["pandas", "polars"])
def test_halving_search_with_column(kind):
    X_qid, X_plain = _with_qid(kind)
    search = HalvingRandomSearchCV(
        RankingEvaluator(Ridge(), qid="qid"),
        {"estimator__alpha": loguniform(0.1, 1000)},
        n_candidates=4,
        factor=2,
        min_resources="exhaust",
        cv=CV,
        random_state=0,
    ).fit(X_qid, y, groups=X_qid["qid"])

    results = search.cv_results_
    assert len(set(results["n_resources"])) > 1  # some rounds saw a subsample
    folds = list(CV.split(X_qid, y, QID))
    for i, params in enumerate(results["params"]):
        # The search subsamples each fold's rows with sklearn.utils.resample:
        # a fraction n_resources / n_samples of them, random_state the search's.
        fraction = results["n_resources"][i] / N_SAMPLES
        for s, (train, test) in enumerate(folds):
            train, test = (
                resample(rows, replace=False, random_state=0, n_samples=int(fraction * len(rows)))
                for rows in (train, test)
            )
            expected = _fold_score(_alpha(params), X_plain, train, test)
            assert results[f"split{s}_test_score"][i] == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("kind", ["pandas", "polars"])
@pytest.mark.parametrize("name", ["ridge", "lightgbm"])
def test_cross_val_predict_with_column(kind, name):
    X_qid, X_plain = _with_qid(kind)
    model = RankingEvaluator(_ranker(name), qid="qid")
    got = cross_val_predict(model, X_qid, y, cv=CV, groups=X_qid["qid"])
    # reference: each fold fitted with explicit query ids
    expected = np.empty(N_SAMPLES)
    for train, test in CV.split(X_qid, y, QID):
        fold = RankingEvaluator(_ranker(name)).fit(_rows(X_plain, train), y[train], qid=QID[train])
        expected[test] = fold.predict(_rows(X_plain, test))
    _assert_same_scores(got, expected)


def test_permutation_importance_with_column():
    X_qid, X_plain = _with_qid("pandas")
    model = RankingEvaluator(Ridge(), qid="qid").fit(X_qid, y)
    explicit = RankingEvaluator(Ridge()).fit(X_plain, y, qid=QID)
    result = permutation_importance(model, X_qid, y, n_repeats=3, random_state=0)

    baseline = explicit.score(X_plain, y, qid=QID)  # reference: explicit query ids
    # Reference: permute by hand as permutation_importance does: one seed drawn
    # from random_state; per column a RandomState(seed) shuffles the row order
    # n_repeats times, each shuffle applied to the already permuted column.
    seed = np.random.RandomState(0).randint(np.iinfo(np.int32).max + 1)
    expected = np.empty((N_FEATURES + 1, 3))
    for column in range(N_FEATURES + 1):
        rng, order, permuted = np.random.RandomState(seed), np.arange(N_SAMPLES), X_qid.copy()
        for repeat in range(3):
            rng.shuffle(order)
            permuted.iloc[:, column] = permuted.iloc[order, column].to_numpy()
            qid = permuted["qid"].to_numpy()  # permuted too, for the qid column
            score = explicit.score(permuted.drop(columns="qid"), y, qid=qid)
            expected[column, repeat] = baseline - score
    features = [i for i in range(N_FEATURES + 1) if i != POSITION]
    assert_array_equal(result.importances[features], expected[features])
    # the qid column's row: NDCG with the query ids shuffled across documents
    assert_array_equal(result.importances[POSITION], expected[POSITION])
    assert np.all(result.importances[POSITION] != 0)


def _optuna_search(optuna, model, **options):
    from optuna_integration import OptunaSearchCV

    distribution = optuna.distributions.FloatDistribution(0.1, 1000, log=True)
    return OptunaSearchCV(
        model,
        {"estimator__alpha": distribution},
        cv=CV,
        n_trials=4,
        random_state=0,
        **options,
    )


@pytest.mark.filterwarnings("ignore:OptunaSearchCV is experimental")
@pytest.mark.filterwarnings("ignore:`optuna.terminator` module has been deprecated:FutureWarning")
def test_optuna_search_with_column(quiet_optuna):
    X_qid, X_plain = _with_qid("pandas")
    search = _optuna_search(quiet_optuna, RankingEvaluator(Ridge(), qid="qid"))
    search.fit(X_qid, y, groups=X_qid["qid"])

    folds = list(CV.split(X_qid, y, QID))
    assert len(search.study_.trials) == 4
    for trial in search.study_.trials:
        alpha = trial.params["estimator__alpha"]
        for s, (train, test) in enumerate(folds):
            expected = _fold_score(alpha, X_plain, train, test)
            assert trial.user_attrs[f"split{s}_test_score"] == pytest.approx(expected, rel=1e-12)
        assert trial.value == pytest.approx(trial.user_attrs["mean_test_score"], rel=1e-12)
    # refit on all rows, query ids from the column
    explicit = RankingEvaluator(Ridge(alpha=search.best_params_["estimator__alpha"]))
    explicit.fit(X_plain, y, qid=QID)
    _assert_same_scores(search.predict(X_qid), explicit.predict(X_plain))


# --- without the column, the same searches score wrongly or not at all --------------


def _search_without_column(**kwargs):
    return RandomizedSearchCV(
        RankingEvaluator(Ridge()),
        {"estimator__alpha": loguniform(0.1, 1000)},
        n_iter=3,
        cv=CV,
        random_state=0,
        **kwargs,
    )


def test_search_without_column_cannot_score():
    """Routing off: qid reaches fit but not score, which refuses to guess."""
    search = _search_without_column(error_score="raise")
    with pytest.raises(ValueError, match="was fitted with qid, but score got no qid"):
        search.fit(X, y, groups=QID, qid=QID)


def test_search_without_column_scores_one_query():
    """Routing off, no qid at all: each test fold is scored as one query."""
    search = _search_without_column()
    with pytest.warns(UserWarning, match="scored as one query"):
        search.fit(X, y, groups=QID)

    results = search.cv_results_
    for i, params in enumerate(results["params"]):
        for s, (train, test) in enumerate(CV.split(X, y, QID)):
            right = _fold_score(_alpha(params), X, train, test)
            # reference: the fold's rows as a single query, given explicitly
            model = RankingEvaluator(Ridge(alpha=_alpha(params))).fit(X[train], y[train])
            one_query = model.score(X[test], y[test], qid=np.zeros(len(test)))
            assert results[f"split{s}_test_score"][i] == pytest.approx(one_query, rel=1e-12)
            assert abs(one_query - right) > 1e-3


@pytest.mark.filterwarnings("ignore:OptunaSearchCV is experimental")
@pytest.mark.filterwarnings("ignore:`optuna.terminator` module has been deprecated:FutureWarning")
def test_optuna_search_without_column_cannot_score(quiet_optuna):
    """OptunaSearchCV passes qid to fit only: every fold's score is NaN."""
    search = _optuna_search(quiet_optuna, RankingEvaluator(Ridge()), refit=False)
    # Besides one "Scoring failed" warning per fold, numpy warns about the NaN
    # means; record them all rather than list numpy's messages.
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        search.fit(X, y, groups=QID, qid=QID)

    failed = [w for w in caught if "Scoring failed" in str(w.message)]
    assert len(failed) == 4 * CV.get_n_splits()
    assert all("was fitted with qid, but score got no qid" in str(w.message) for w in failed)
    for trial in search.study_.trials:
        assert all(np.isnan(trial.user_attrs[f"split{s}_test_score"]) for s in range(3))
        assert trial.state == quiet_optuna.trial.TrialState.FAIL


# --- errors ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, column, error, match",
    [
        ("ndarray", "qid", TypeError, r"qid='qid' names a column, but X \(ndarray\) has no"),
        ("csr", "qid", TypeError, r"qid='qid' names a column, but X \(csr_matrix\) has no"),
        ("pandas", "nope", ValueError, r"qid='nope' is not a column of X; its columns are"),
        ("polars", "nope", ValueError, r"qid='nope' is not a column of X; its columns are"),
        ("ndarray", N_FEATURES + 1, ValueError, r"qid=21 is not a column position of X, which"),
        ("pandas", -N_FEATURES - 2, ValueError, r"qid=-22 is not a column position of X, which"),
    ],
)
def test_bad_column(kind, column, error, match):
    X_qid, _ = _with_qid(kind)
    with pytest.raises(error, match=match):
        RankingEvaluator(Ridge(), qid=column).fit(X_qid, y)
    fitted = RankingEvaluator(Ridge()).fit(X_qid, y, qid=QID)
    with pytest.raises(error, match=match):
        make_ndcg_scorer(k=5, qid=column)(fitted, X_qid, y)


def test_column_and_argument_both_given():
    X_qid, _ = _with_qid("pandas")
    model = RankingEvaluator(Ridge(), qid="qid")
    with pytest.raises(ValueError, match=r"qid='qid'.*fit got qid=\.\.\. as well; give one of"):
        model.fit(X_qid, y, qid=QID)
    model.fit(X_qid, y)
    with pytest.raises(ValueError, match=r"qid='qid'.*score got qid=\.\.\. as well; give one"):
        model.score(X_qid, y, qid=QID)
    for make_scorer in (make_ndcg_scorer, make_dcg_scorer):
        with pytest.raises(ValueError, match=r"column qid='qid' of X.*give one of the two"):
            make_scorer(k=5, qid="qid")(model, X_qid, y, qid=QID)


def _duplicated_qid_name():
    """A DataFrame with two columns named "qid": the query ids (at POSITION) and a
    feature renamed "qid" (the first column), so that taking either is a guess."""
    X_qid, _ = _with_qid("pandas")
    return X_qid.rename(columns={NAMES[0]: "qid"})


def test_duplicated_column_name_is_refused():
    # polars frames cannot repeat a name (polars raises DuplicateError), pandas ones can
    X_dup = _duplicated_qid_name()
    before = X_dup.copy()
    match = rf"qid='qid' names 2 columns of X \(positions 0, {POSITION}\); the query-id column"
    with pytest.raises(ValueError, match=match):
        RankingEvaluator(Ridge(), qid="qid").fit(X_dup, y)
    fitted = RankingEvaluator(Ridge(), qid=POSITION).fit(X_dup, y)  # by position: no guess
    for make_scorer in (make_ndcg_scorer, make_dcg_scorer):
        with pytest.raises(ValueError, match=match):
            make_scorer(k=5, qid="qid")(fitted, X_dup, y)
    pd.testing.assert_frame_equal(X_dup, before)  # not changed by the refusals


def test_duplicated_name_with_column_position():
    # the qid column given by its position is no guess, whatever the names: the
    # result is the one with the query ids passed explicitly
    X_dup = _duplicated_qid_name()
    X_plain = X_dup.iloc[:, [i for i in range(N_FEATURES + 1) if i != POSITION]]
    explicit = RankingEvaluator(Ridge()).fit(X_plain, y, qid=QID)
    model = RankingEvaluator(Ridge(), qid=POSITION).fit(X_dup, y)
    assert model.score(X_dup, y) == explicit.score(X_plain, y, qid=QID)
    scorer = make_ndcg_scorer(k=5, qid=POSITION)
    assert scorer(model, X_dup, y) == make_ndcg_scorer(k=5)(explicit, X_plain, y, qid=QID)


def test_refit_on_an_array_forgets_the_feature_names():
    # scikit-learn's own estimators drop feature_names_in_ when refitted on an array
    X, y, qid = make_ranking(n_queries=5, random_state=0)
    frame = pd.DataFrame(np.column_stack([qid, X])).add_prefix("f")
    assert not hasattr(Ridge().fit(frame, y).fit(frame.to_numpy(), y), "feature_names_in_")
    model = RankingEvaluator(Ridge(), qid=0).fit(frame, y)
    assert list(model.feature_names_in_) == list(frame.columns)
    assert not hasattr(model.fit(frame.to_numpy(), y), "feature_names_in_")


@pytest.mark.parametrize("make", [sp.csr_matrix, sp.csc_matrix, sp.csr_array])
def test_sparse_x_keeps_its_format(make):
    seen = {}

    class Spy(Ridge):
        def fit(self, X, y, sample_weight=None):
            seen["type"] = type(X)
            return super().fit(X, y, sample_weight)

    X, y, qid = make_ranking(n_queries=5, random_state=0)
    RankingEvaluator(Spy(), qid=-1).fit(make(np.column_stack([X, qid])), y)
    assert seen["type"] is make
