"""sklearn_ndcg.dask.ndcg_score and dcg_score on many partitions: the in-memory values
(from sklearn_ndcg.ndcg_score and friends, tested on their own), and their errors."""

import numpy as np
import pytest

dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")

from _dask_data import N_PARTITIONS, in_memory, long_format  # noqa: E402
from numpy.testing import assert_allclose, assert_array_equal  # noqa: E402
from sklearn.exceptions import UndefinedMetricWarning  # noqa: E402
from sklearn.utils._param_validation import InvalidParameterError  # noqa: E402

import sklearn_ndcg  # noqa: E402
import sklearn_ndcg.dask  # noqa: E402

OPTIONS = [
    {},
    {"k": 1, "gain": "exponential"},
    {"ties": "first", "k": 3, "sample_weight": "w"},
    {"ties": "optimistic", "k": 4},
    {"ties": "pessimistic", "discount": "reciprocal"},
    {"zero_division": np.nan},
    {"zero_division": 1.0, "sample_weight": "w", "k": 10},
    {"gain": {0: 0.0, 1: 1.0, 2: 3.0, 3: 10.0}, "discount": "none", "k": 2},
]


@pytest.mark.parametrize("options", OPTIONS, ids=str)
def test_ndcg_score_equalsin_memory(client, options):
    rows = long_format(seed=len(str(options)))
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    got = sklearn_ndcg.dask.ndcg_score(frame, **options)
    # the in-memory engine on the same rows, in the order of frame.compute()
    expected = in_memory(rows, **options)
    assert isinstance(got, float)
    assert got == pytest.approx(expected, rel=1e-12, abs=0)


def test_ties_first_follows_frame_order(client):
    rows = long_format(seed=3, qid_kind="str")
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    expected = in_memory(rows, ties="first", k=3)
    # the tie rule matters on this data, so a lost input order would show
    assert expected != pytest.approx(in_memory(rows, ties="average", k=3), rel=1e-6)
    assert expected != pytest.approx(in_memory(rows.iloc[::-1], ties="first", k=3), rel=1e-6)
    got = sklearn_ndcg.dask.ndcg_score(frame, ties="first", k=3)
    assert got == pytest.approx(expected, rel=1e-12, abs=0)


@pytest.mark.parametrize(
    "qid_kind, options",
    [
        ("int", {}),
        ("str", {"k": 3, "ties": "first"}),
        (
            "int",
            {"zero_division": np.nan, "sample_weight": "w", "ties": "first", "gain": "exponential"},
        ),
    ],
    ids=str,
)
def test_per_query_equals_query_scores(client, qid_kind, options):
    rows = long_format(seed=5, qid_kind=qid_kind)
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    score, by_query = sklearn_ndcg.dask.ndcg_score(frame, per_query=True, **options)
    assert isinstance(by_query, dd.Series)
    expected = in_memory(rows, function=sklearn_ndcg.query_scores, **options)

    got = by_query.compute().sort_index()
    assert got.name == "ndcg"
    assert got.index.name == "qid"
    assert_array_equal(got.index.to_numpy(), expected.qid)
    assert_allclose(got.to_numpy(), expected.score, rtol=1e-12, atol=0)  # NaN where NaN
    assert score == pytest.approx(in_memory(rows, **options), rel=1e-12, abs=0)


@pytest.mark.parametrize(
    "options",
    [{"k": 4, "ties": "first"}, {"log_base": 10.0, "sample_weight": "w"}],
    ids=str,
)
def test_dcg_score_equalsin_memory(client, options):
    rows = long_format(seed=11)
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    got = sklearn_ndcg.dask.dcg_score(frame, **options)
    expected = in_memory(rows, function=sklearn_ndcg.dcg_score, **options)
    assert got == pytest.approx(expected, rel=1e-12, abs=0)


def test_custom_column_names(client):
    rows = long_format(seed=7).rename(
        columns={"qid": "query", "label": "rel", "score": "pred", "w": "qw"}
    )
    rows["other"] = "unused text"
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    got = sklearn_ndcg.dask.ndcg_score(
        frame, qid="query", y_true="rel", y_score="pred", sample_weight="qw", k=5
    )
    expected = sklearn_ndcg.ndcg_score(
        rows["rel"], rows["pred"], qid=rows["query"], sample_weight=rows["qw"], k=5
    )
    assert got == pytest.approx(expected, rel=1e-12, abs=0)


def test_every_query_undefined_warns_and_returns_nan(client):
    rows = long_format(seed=1).assign(label=0.0)
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    with pytest.warns(UndefinedMetricWarning, match="every query was left out"):
        expected = in_memory(rows, zero_division=np.nan)
    with pytest.warns(UndefinedMetricWarning, match="every query was left out"):
        got = sklearn_ndcg.dask.ndcg_score(frame, zero_division=np.nan)
    assert np.isnan(expected) and np.isnan(got)


@pytest.mark.parametrize(
    "options, error, match",
    [
        ({"qid": "query"}, ValueError, r"qid='query' is not a column of frame; its columns"),
        ({"y_score": "pred"}, ValueError, r"y_score='pred' is not a column of frame"),
        ({"sample_weight": "weight"}, ValueError, r"sample_weight='weight' is not a column"),
        ({"y_true": ["label"]}, ValueError, r"y_true=\['label'\] is not a column"),
        ({"y_true": "text"}, TypeError, r"y_true='text' names a column of dtype .*numbers"),
        ({"k": 0}, InvalidParameterError, r"'k' parameter"),
        ({"k": True}, TypeError, "'k' parameter"),
        ({"ties": "random"}, InvalidParameterError, r"'ties' parameter"),
        ({"zero_division": 0.5}, InvalidParameterError, r"'zero_division' parameter"),
        ({"shuffle_method": "fast"}, InvalidParameterError, r"'shuffle_method' parameter"),
        ({"unjudged_queries": "keep"}, InvalidParameterError, r"'unjudged_queries' parameter"),
        ({"sample_weight": "w"}, ValueError, r"sample_weight must be the same for every document"),
        ({"gain": {0: 0.0, 1: 1.0}}, ValueError, r"gain has no entry for the relevance labels"),
    ],
    ids=str,
)
def test_ndcg_score_errors(client, small_frame, options, error, match):
    with pytest.raises(error, match=match):
        sklearn_ndcg.dask.ndcg_score(small_frame, **options)


def test_dcg_score_log_base_needs_log2(client, small_frame):
    with pytest.raises(ValueError, match=r"log_base=10.0 only applies to discount='log2'"):
        sklearn_ndcg.dask.dcg_score(small_frame, log_base=10.0, discount="reciprocal")


def test_weights_summing_to_zero(client, small_frame):
    frame = small_frame.assign(w=0.0)
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        sklearn_ndcg.dask.ndcg_score(frame, sample_weight="w")


def test_empty_frame(client, small_frame):
    frame = small_frame[small_frame["label"] > 10]
    with pytest.raises(ValueError, match="frame has no rows"):
        sklearn_ndcg.dask.ndcg_score(frame)


def test_the_measures_beside_ndcg_are_not_offered(small_frame):
    # sklearn_ndcg.dask computes NDCG and DCG only: no metric= to ask for recip_rank,
    # map or P_10 (computed in memory by sklearn_ndcg.query_scores and evaluate_run)
    assert sklearn_ndcg.dask.__all__ == ["dcg_score", "ndcg_score"]
    with pytest.raises(TypeError, match="metric"):
        sklearn_ndcg.dask.ndcg_score(small_frame, metric="recip_rank")


def test_spark_preset_equals_in_memory(client):
    """CONVENTIONS["spark"] goes to Dask whole: its unjudged_queries="zero" changes nothing
    without a pool, every query (those without relevant document too, scored 0) counts as
    in memory, where its value is checked against PySpark (tests/spark)."""
    rows = long_format(seed=3, n_queries=12)
    preset = sklearn_ndcg.CONVENTIONS["spark"]
    assert preset["unjudged_queries"] == "zero"
    frame = dd.from_pandas(rows, npartitions=2)
    got = sklearn_ndcg.dask.ndcg_score(frame, k=5, **preset)
    assert got == pytest.approx(in_memory(rows, k=5, **preset), rel=1e-12, abs=0)
    assert got == pytest.approx(in_memory(rows, k=5, gain=preset["gain"], ties="first"), rel=1e-12)
