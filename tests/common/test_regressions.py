"""Named regression tests: one per defect found by differential testing.

Each test names the defect it guards against, with the input that exposed it.
Expected values come from scikit-learn, from hand computation (shown), or from
the same input given as plain Python values.
"""

import decimal
import warnings

import numpy as np
import pytest
import sklearn
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.exceptions import UndefinedMetricWarning
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.metrics import ndcg_score as sklearn_ndcg_score
from sklearn.model_selection import GridSearchCV, PredefinedSplit
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC

from sklearn_ndcg import (
    NDCGCurveDisplay,
    RankingEvaluator,
    make_ndcg_scorer,
    make_ranking,
    ndcg_score,
    query_scores,
)
from sklearn_ndcg._engine import RankingOptions
from sklearn_ndcg._engine._validation import check_qid

INT_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64]


def ragged(n_queries, seed=0):
    """Long-format labels and scores of ``n_queries`` queries of 1 to 6 documents."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 7, n_queries)
    n = int(sizes.sum())
    return np.repeat(np.arange(n_queries), sizes), rng.integers(0, 4, n), rng.random(n)


# --- 1. narrow integer query ids --------------------------------------------------


@pytest.mark.parametrize("dtype", INT_DTYPES)
def test_integer_ids_group_like_python_ints(dtype):
    # ids at both ends of the dtype's range: subtracting in the dtype itself wrapped
    # (int8 ids -25 and 30 merged, 100 came back as 45)
    info = np.iinfo(dtype)
    codes, y_true, y_score = ragged(12)
    candidates = [info.min, info.min + 1, info.max, info.max - 1, info.min // 2, info.max // 2]
    candidates += [info.max // 2 + 1, 0, 1, 2, 3, 5, 7, 11, 13, 17]
    values = np.array(list(dict.fromkeys(candidates))[:12], dtype=object)
    ids = values[codes]
    narrow = ids.astype(dtype)
    as_python = [int(v) for v in ids]  # Python ints, any size
    got = query_scores(y_true, y_score, qid=narrow)
    expected = query_scores(y_true, y_score, qid=as_python)
    assert len(got.qid) == len(set(as_python)) == 12
    assert [int(v) for v in got.qid] == sorted(set(as_python))
    assert_array_equal(got.score, expected.score)


def test_int16_ids_from_downcast_keep_every_query():
    # 20,000 rows of ids spread over int16's range gave 14,638 "queries"
    rng = np.random.default_rng(0)
    ids = rng.integers(-32768, 32767, 20_000).astype(np.int16)
    result = query_scores(rng.integers(0, 3, 20_000), rng.random(20_000), qid=ids)
    assert len(result.qid) == len(set(ids.tolist()))
    assert_array_equal(result.qid, np.unique(ids))


def test_int8_ids_round_trip():
    ids = np.array([-25, 30, 100, -28, 30, -25], dtype=np.int8)
    result = query_scores([1, 0, 2, 1, 1, 0], [0.1, 0.2, 0.3, 0.4, 0.5, 0.6], qid=ids)
    assert result.qid.tolist() == [-28, -25, 30, 100]


# --- 9. uint64 ids at and above 2**63 ---------------------------------------------


@pytest.mark.parametrize("spread", [3, 2**40])  # a small span of ids, and a wide one
def test_uint64_hashed_ids(spread):
    ids = np.array([2**64 - 1, 2**63, 2**63 + spread, 2**64 - 1, 2**63], dtype=np.uint64)
    result = query_scores([1, 0, 2, 0, 1], [0.5, 0.4, 0.3, 0.2, 0.1], qid=ids)
    assert result.qid.tolist() == [2**63, 2**63 + spread, 2**64 - 1]
    # query 2**63: labels 0, 1 scored 0.4, 0.1 -> DCG 1/log2(3), ideal 1
    assert result.score[0] == pytest.approx(1 / np.log2(3), rel=1e-12)


# --- 2. missing query ids of every kind -------------------------------------------


MISSING_KINDS = [
    "None",
    "nan_float",
    "NaT_naive",
    "NaT_tz",
    "NaT_series",
    "pd_NA_string",
    "pd_NA_Int64",
    "Decimal_NaN",
    "category",
]


def _missing_ids():
    pd = pytest.importorskip("pandas")
    day = pd.Timestamp("2024-01-01")
    return {
        "None": ["a", None, "a"],
        "nan_float": [1.0, np.nan, 1.0],
        "NaT_naive": np.array(["2024-01-01", "NaT", "2024-01-01"], dtype="datetime64[ns]"),
        "NaT_tz": pd.Series([day, pd.NaT, day]).dt.tz_localize("UTC"),
        "NaT_series": pd.Series([day, pd.NaT, day]),
        "pd_NA_string": pd.Series(["a", pd.NA, "a"], dtype="string"),
        "pd_NA_Int64": pd.Series([1, pd.NA, 1], dtype="Int64"),
        "Decimal_NaN": [decimal.Decimal(1), decimal.Decimal("NaN"), decimal.Decimal(1)],
        "category": pd.Series(["a", None, "a"], dtype="category"),
    }


@pytest.mark.parametrize("kind", MISSING_KINDS)
def test_missing_query_ids_are_refused(kind):
    qid = _missing_ids()[kind]
    with pytest.raises(ValueError, match=r"qid contains missing values .* \(e\.g\. 1\)"):
        ndcg_score([1, 0, 2], [0.3, 0.2, 0.1], qid=qid)


def test_tz_aware_timestamps_group_as_one_query():
    pd = pytest.importorskip("pandas")
    day = pd.Timestamp("2024-01-01", tz="Europe/Paris")
    qid = pd.Series([day, day + pd.Timedelta("1D"), day])
    result = query_scores([1, 0, 2], [0.3, 0.2, 0.1], qid=qid)
    assert len(result.qid) == 2
    # query `day`: labels 1, 2 ranked 1 then 2 -> (1 + 2/log2(3)) / (2 + 1/log2(3))
    expected = (1 + 2 / np.log2(3)) / (2 + 1 / np.log2(3))
    assert result.score[0] == pytest.approx(expected, rel=1e-12)


# --- 3. a pandas Series as gain is a table by label -------------------------------


def test_gain_series_is_read_by_label():
    pd = pytest.importorskip("pandas")
    table = {2: 7.0, 1: 3.0, 0: 0.0}
    y_true, y_score = [[0, 1, 2]], [[0.3, 0.2, 0.1]]
    # hand computation: gains 0, 3, 7 ranked in that order; ideal 7, 3, 0
    expected = (3 / np.log2(3) + 7 / 2) / (7 + 3 / np.log2(3))
    assert ndcg_score(y_true, y_score, gain=table) == pytest.approx(expected, rel=1e-12)
    assert ndcg_score(y_true, y_score, gain=pd.Series(table)) == pytest.approx(expected, rel=1e-12)
    assert expected == pytest.approx(0.606, abs=1e-3)


def test_mapping_keys_that_collide_as_float64_are_refused():
    with pytest.raises(ValueError, match="labels that are equal as float64"):
        ndcg_score([[0, 1]], [[1, 2]], gain={2**53: 1.0, 2**53 + 1: 2.0, 0: 0.0, 1: 1.0})


# --- 4. scores are ordered exactly, whatever their dtype --------------------------


def test_nanosecond_timestamps_100ns_apart():
    # int64 nanoseconds around 2024: 100 ns apart, beyond float64's 2**53
    base = np.int64(1_700_000_000_000_000_000)
    y_score = base + np.array([[0, 100, 200, 300, 400]], dtype=np.int64)
    y_true = [[0, 1, 2, 3, 4]]
    # scikit-learn orders int64 exactly too (its value rounds to 0.9999999999999999)
    assert sklearn_ndcg_score(y_true, y_score) == pytest.approx(1.0, rel=1e-12)
    assert ndcg_score(y_true, y_score) == 1.0
    assert ndcg_score(np.ravel(y_true), np.ravel(y_score), qid=[7] * 5) == 1.0


@pytest.mark.parametrize(
    "scores",
    [
        np.array([2**63 + 1, 2**63 + 2, 2**63 + 3], dtype=np.uint64),
        np.array([-(2**62) - 2, -(2**62) - 1, -(2**62)], dtype=np.int64),
        [2**70, 2**70 + 1, 2**70 + 2],  # Python ints: an object array
        np.longdouble(1) + np.array([0, 1, 2], dtype=np.longdouble) * np.longdouble(2) ** -60,
    ],
    ids=["uint64", "int64_negative", "python_int", "longdouble"],
)
def test_no_ties_are_made_that_were_not_in_the_input(scores):
    if isinstance(scores, np.ndarray) and scores.dtype == np.longdouble:
        if np.finfo(np.longdouble).eps > 2**-60:
            pytest.skip("longdouble is float64 on this platform")
    # increasing scores, increasing labels: a perfect ranking
    assert ndcg_score([0, 1, 2], scores, qid=[1, 1, 1]) == 1.0
    assert ndcg_score([2, 1, 0], scores, qid=[1, 1, 1]) == pytest.approx(
        ndcg_score([2, 1, 0], [0, 1, 2], qid=[1, 1, 1]), rel=1e-15
    )


# --- 5. one definition of an estimator's ranking score ----------------------------


def test_scorer_evaluator_and_display_rank_a_classifier_alike():
    X, y, qid = make_ranking(n_queries=30, random_state=0)
    relevant = (y >= 2).astype(int)
    svc = LinearSVC(dual=False).fit(X, relevant)  # no predict_proba
    expected = ndcg_score(relevant, svc.decision_function(X), qid=qid, k=5)
    scorer = make_ndcg_scorer(k=5)(svc, X, relevant, qid=qid)
    evaluator = RankingEvaluator(LinearSVC(dual=False), k=5).fit(X, relevant, qid=qid)
    pytest.importorskip("matplotlib").use("Agg")
    display = NDCGCurveDisplay.from_estimator(svc, X, relevant, qid=qid, k=[5])
    assert scorer == pytest.approx(expected, rel=1e-12)
    assert evaluator.score(X, relevant, qid=qid) == pytest.approx(expected, rel=1e-12)
    assert display.ndcg_[0] == pytest.approx(expected, rel=1e-12)
    # the hard labels rank differently: the old evaluator's answer
    assert ndcg_score(relevant, svc.predict(X), qid=qid, k=5) != pytest.approx(expected)


def test_graded_classifier_is_ranked_by_expected_label_everywhere():
    X, y, qid = make_ranking(n_queries=30, random_state=1)
    model = LogisticRegression(max_iter=500).fit(X, y)
    expected_label = model.predict_proba(X) @ model.classes_.astype(float)
    expected = ndcg_score(y, expected_label, qid=qid, k=10)
    assert make_ndcg_scorer(k=10)(model, X, y, qid=qid) == pytest.approx(expected, rel=1e-12)
    evaluator = RankingEvaluator(LogisticRegression(max_iter=500)).fit(X, y, qid=qid)
    assert evaluator.score(X, y, qid=qid) == pytest.approx(expected, rel=1e-12)


class ColumnRegressor(RegressorMixin, BaseEstimator):
    """Predicts the first feature as an (n, 1) column, like a model fitted on 2-D y."""

    def fit(self, X, y):
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        return np.asarray(X)[:, :1]


def test_column_predictions_are_one_score_per_document():
    X, y, qid = make_ranking(n_queries=10, random_state=0)
    expected = ndcg_score(y, X[:, 0], qid=qid)
    assert make_ndcg_scorer()(ColumnRegressor().fit(X, y), X, y, qid=qid) == expected


def test_classifier_with_string_classes_is_refused_clearly():
    X, y, qid = make_ranking(n_queries=10, random_state=0)
    labels = np.array(["bad", "fair", "good", "great", "perfect"])[y.astype(int)]
    model = LogisticRegression(max_iter=300).fit(X, labels)
    pytest.importorskip("matplotlib").use("Agg")
    with pytest.raises(TypeError, match="classes must be numeric relevance labels"):
        NDCGCurveDisplay.from_estimator(model, X, y, qid=qid)


# --- 6. Dask validates and reduces like memory ------------------------------------


def test_dask_huge_weights_like_memory():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    qid, y_true, y_score = ragged(20, seed=3)
    weight = np.where(qid < 10, 1e308, 1e307)
    expected = ndcg_score(y_true, y_score, qid=qid, sample_weight=weight)
    assert np.isfinite(expected)
    frame = pd.DataFrame({"qid": qid, "label": y_true, "score": y_score, "w": weight})
    from sklearn_ndcg.dask import ndcg_score as dask_ndcg_score

    got = dask_ndcg_score(dd.from_pandas(frame, npartitions=3), sample_weight="w")
    assert got == pytest.approx(expected, rel=1e-12)


def test_dask_refuses_ids_that_memory_refuses():
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from sklearn_ndcg.dask import ndcg_score as dask_ndcg_score

    ids = pd.Series([1, "1"] * 4, dtype=object)
    frame = pd.DataFrame({"qid": ids, "label": [1, 0] * 4, "score": np.arange(8.0)})
    with pytest.raises(TypeError, match="qid mixes values that cannot be compared"):
        ndcg_score(frame.label, frame.score, qid=frame.qid)
    # Dask's default turns object columns into strings in from_pandas (1 and "1"
    # become the same id before the package sees them); without that conversion
    # the ids reach the package as they are, and are refused as in memory
    with dask.config.set({"dataframe.convert-string": False}):
        distributed = dd.from_pandas(frame, npartitions=4)
        with pytest.raises(TypeError, match="qid mixes values that cannot be compared"):
            dask_ndcg_score(distributed)


# --- 7. NDCG never above 1 --------------------------------------------------------


def test_increasing_discount_is_refused():
    with pytest.raises(ValueError, match="discount callable must not increase with rank"):
        ndcg_score([[1, 0, 2]], [[3, 2, 1]], discount=lambda rank: rank.astype(float))


# --- 8. an evaluator fitted on queries never scores a fold as one query -----------


def test_search_without_routing_shows_the_error_not_a_wrong_winner():
    X, y, qid = make_ranking(n_queries=30, random_state=0)
    search = GridSearchCV(
        RankingEvaluator(Ridge()), {"estimator__alpha": [0.1, 1000.0]}, cv=PredefinedSplit(qid % 3)
    )
    with sklearn.config_context(enable_metadata_routing=False):
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            search.fit(X, y, qid=qid)
    assert any("was fitted with qid, but score got no qid" in str(w.message) for w in record)
    assert np.isnan(search.cv_results_["mean_test_score"]).all()


def test_score_without_qid_and_varying_weights_says_why():
    X, y, qid = make_ranking(n_queries=5, random_state=0)
    evaluator = RankingEvaluator(Ridge()).fit(X, y)
    with pytest.raises(ValueError, match="score got no qid, so all rows are one query"):
        evaluator.score(X, y, sample_weight=1.0 + qid)


# --- 10. pipelines ending in a learning-to-rank model -----------------------------


@pytest.mark.parametrize("library", ["lightgbm", "xgboost"])
def test_pipeline_ending_in_a_ranker_gets_the_queries(library):
    module = pytest.importorskip(library)
    X, y, qid = make_ranking(n_queries=30, random_state=0)
    order = np.random.default_rng(0).permutation(len(y))  # queries not contiguous
    X, y, qid = X[order], y[order], qid[order]
    weight = 1.0 + qid % 3
    ranker = (
        module.LGBMRanker(n_estimators=10, verbose=-1, n_jobs=1)
        if library == "lightgbm"
        else module.XGBRanker(n_estimators=10, n_jobs=1)
    )
    piped = RankingEvaluator(make_pipeline(StandardScaler(), ranker)).fit(
        X, y, qid=qid, sample_weight=weight
    )
    scaled = StandardScaler().fit_transform(X)
    bare = RankingEvaluator(sklearn.base.clone(ranker)).fit(
        scaled, y, qid=qid, sample_weight=weight
    )
    assert_allclose(piped.predict(X), bare.predict(scaled), rtol=1e-6)
    assert piped.score(X, y, qid=qid) == pytest.approx(bare.score(scaled, y, qid=qid), rel=1e-9)


def test_pipeline_gets_weights_on_its_last_step():
    X, y, qid = make_ranking(n_queries=20, random_state=0)
    weight = 1.0 + qid % 4
    for routing in (False, True):
        with sklearn.config_context(enable_metadata_routing=routing):
            piped = RankingEvaluator(make_pipeline(StandardScaler(), Ridge())).fit(
                X, y, qid=qid, sample_weight=weight
            )
        direct = Ridge().fit(StandardScaler().fit_transform(X), y, sample_weight=weight)
        assert_allclose(piped.estimator_[-1].coef_, direct.coef_, rtol=1e-10)


# --- 11. errors that name the right cause -----------------------------------------


def test_ks_as_a_zero_dimensional_array():
    pytest.importorskip("matplotlib").use("Agg")
    # one cutoff-list check (_options.check_cutoffs): the value shown as 3, not array(3)
    with pytest.raises(TypeError, match=r"got 3\. Write k=\[3\] for one cutoff"):
        NDCGCurveDisplay.from_predictions([[1, 0, 2]], [[3, 2, 1]], k=np.array(3))


def test_tuples_as_query_ids():
    with pytest.raises(TypeError, match="qid holds tuples or lists"):
        ndcg_score([1, 0], [0.2, 0.1], qid=[(1, "a"), (1, "a")])


def test_nullable_float_labels_with_missing_value():
    pd = pytest.importorskip("pandas")
    y_true = pd.Series([1.0, pd.NA, 0.0], dtype="Float64")
    with pytest.raises(ValueError, match="y_true contains missing or infinite values"):
        ndcg_score(y_true, [0.3, 0.2, 0.1])


def test_scorer_called_directly_takes_qid_without_routing():
    X, y, qid = make_ranking(n_queries=10, random_state=0)
    model = Ridge().fit(X, y)
    expected = ndcg_score(y, model.predict(X), qid=qid, k=5)
    with sklearn.config_context(enable_metadata_routing=False):
        assert make_ndcg_scorer(k=5)(model, X, y, qid=qid) == expected


def test_undefined_metric_warning_points_at_the_caller():
    with pytest.warns(UndefinedMetricWarning) as record:
        ndcg_score([[0, 0]], [[1, 2]], zero_division=np.nan)
    assert record[0].filename == __file__


def test_dask_undefined_metric_warning_points_at_the_caller():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from sklearn_ndcg.dask import ndcg_score as dask_ndcg_score

    frame = pd.DataFrame({"qid": [1, 1], "label": [0, 0], "score": [1.0, 2.0]})
    with pytest.warns(UndefinedMetricWarning) as record:
        dask_ndcg_score(dd.from_pandas(frame, npartitions=1), zero_division=np.nan)
    assert record[0].filename == __file__


# --- 13. the NDCG curve from one ranking ------------------------------------------


@pytest.mark.parametrize("ties", RankingOptions.TIE_RULES)
@pytest.mark.parametrize("layout", ["long", "2d"])
def test_curve_equals_one_call_per_cutoff(ties, layout):
    pytest.importorskip("matplotlib").use("Agg")
    rng = np.random.default_rng(0)
    if layout == "long":
        qid, y_true, _ = ragged(40)
        y_score = rng.integers(0, 3, qid.size).astype(float)  # many ties
        kwargs = {"qid": qid}
    else:
        y_true, y_score, kwargs = rng.integers(0, 4, (30, 8)), rng.integers(0, 3, (30, 8)), {}
    ks = np.arange(1, 10)
    display = NDCGCurveDisplay.from_predictions(y_true, y_score, k=ks, ties=ties, **kwargs)
    expected = [ndcg_score(y_true, y_score, k=int(k), ties=ties, **kwargs) for k in ks]
    assert_allclose(display.ndcg_, expected, rtol=1e-12)


# --- 14. long string ids are not widened to the longest ---------------------------


def test_one_long_string_id_does_not_widen_every_row():
    ids = ["q1", "q2"] * 5 + ["x" * 2000]
    qid = check_qid(ids, len(ids))
    assert qid.dtype == object  # not '<U2000' for every row
    result = query_scores([1, 0] * 5 + [1], np.arange(11.0), qid=ids)
    assert result.qid.tolist() == ["q1", "q2", "x" * 2000]


def test_warnings_are_not_raised_by_plain_input():
    # the checks above must not make ordinary input noisy
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ndcg_score([1, 0, 2], [0.1, 0.2, 0.3], qid=["a", "a", "b"])
