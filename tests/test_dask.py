"""sklearn_ndcg on Dask: searches under joblib's Dask backend, and sklearn_ndcg.dask.

Every test runs on one LocalCluster of 2 worker processes on the loopback
interface, started and closed by the ``client`` fixture. Expected values come
from the in-memory engine (sklearn_ndcg.ndcg_score and friends, tested on
their own) or from a local run of the same search.
"""

import numpy as np
import pytest

dd = pytest.importorskip("dask.dataframe")
distributed = pytest.importorskip("distributed")

import joblib  # noqa: E402
import pandas as pd  # noqa: E402
import sklearn  # noqa: E402
from numpy.testing import assert_allclose, assert_array_equal  # noqa: E402
from sklearn.exceptions import UndefinedMetricWarning  # noqa: E402
from sklearn.linear_model import Ridge  # noqa: E402
from sklearn.model_selection import GridSearchCV, GroupKFold  # noqa: E402
from sklearn.utils._param_validation import InvalidParameterError  # noqa: E402

import sklearn_ndcg  # noqa: E402
import sklearn_ndcg.dask  # noqa: E402
from sklearn_ndcg import RankingEvaluator, make_ndcg_scorer, make_ranking  # noqa: E402

pytestmark = [
    # Both guard against shutdown noise that distributed emits intermittently
    # (it depends on timing; not seen in our runs with distributed 2026.8):
    # closing a LocalCluster can leave a comm or a worker's event loop to be
    # garbage collected after its socket closed, which Python reports as a
    # ResourceWarning "unclosed <socket...>" / "unclosed event loop"; it says
    # nothing about the results.
    pytest.mark.filterwarnings("ignore:unclosed:ResourceWarning"),
    # pytest turns an exception that a background thread of distributed hits
    # while the cluster closes (CommClosedError as a worker says goodbye) into
    # PytestUnhandledThreadExceptionWarning; the cluster is gone by then.
    pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning"),
]


@pytest.fixture(scope="module")
def client():
    """Two single-threaded worker processes on 127.0.0.1, no dashboard."""
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            # The scheduler still serves /health over HTTP, by default on port 8787;
            # a random loopback port avoids a "port already in use" warning when
            # another cluster runs on this machine.
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        ) as cluster,
        distributed.Client(cluster) as dask_client,
    ):
        yield dask_client


# -- distributed model selection ------------------------------------------------


@pytest.fixture(scope="module")
def ranking_data():
    return make_ranking(
        n_queries=60, n_items=(5, 20), n_features=8, n_informative=4, random_state=0
    )


def _search(search, X, y, qid, backend):
    with sklearn.config_context(enable_metadata_routing=True):
        if backend == "dask":
            with joblib.parallel_backend("dask"):
                return search.fit(X, y, groups=qid, qid=qid)
        return search.fit(X, y, groups=qid, qid=qid)


def _test_scores(search):
    results = search.cv_results_
    return np.array([results[f"split{i}_test_score"] for i in range(search.n_splits_)])


def test_grid_search_with_scorer_on_dask(client, ranking_data):
    X, y, qid = ranking_data
    grid = {"alpha": [0.1, 10.0, 1000.0]}

    def make_search():
        return GridSearchCV(Ridge(), grid, scoring=make_ndcg_scorer(k=10), cv=GroupKFold(5))

    with distributed.get_task_stream(client) as stream:
        on_dask = _search(make_search(), X, y, qid, "dask")
    assert len(stream.data) > 0  # the fits and scores ran on the cluster
    local = _search(make_search(), X, y, qid, "local")

    assert_allclose(_test_scores(on_dask), _test_scores(local), rtol=1e-12)
    assert on_dask.best_params_ == local.best_params_
    # independent: each fold scored by hand with the fold's own query ids
    for split, (train, test) in enumerate(GroupKFold(5).split(X, y, qid)):
        for candidate, alpha in enumerate(grid["alpha"]):
            predicted = Ridge(alpha=alpha).fit(X[train], y[train]).predict(X[test])
            expected = sklearn_ndcg.ndcg_score(y[test], predicted, qid=qid[test], k=10)
            got = on_dask.cv_results_[f"split{split}_test_score"][candidate]
            assert got == pytest.approx(expected, rel=1e-12)


def test_grid_search_with_ranking_evaluator_on_dask(client, ranking_data):
    X, y, qid = ranking_data
    grid = {"estimator__alpha": [0.1, 1000.0], "k": [3, 10]}

    def make_search():
        return GridSearchCV(RankingEvaluator(Ridge()), grid, cv=GroupKFold(3))

    on_dask = _search(make_search(), X, y, qid, "dask")
    local = _search(make_search(), X, y, qid, "local")

    assert_allclose(_test_scores(on_dask), _test_scores(local), rtol=1e-12)
    assert_array_equal(on_dask.cv_results_["rank_test_score"], local.cv_results_["rank_test_score"])
    assert on_dask.best_params_ == local.best_params_


# -- sklearn_ndcg.dask on many partitions ---------------------------------------


def _long_format(seed, qid_kind="int", n_queries=50):
    """Rows of ragged queries, shuffled so that queries spread over partitions.

    Scores on a coarse grid (many ties), labels 0..3, a few queries with no
    relevant document, one weight per query.
    """
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 25, n_queries)
    ids = rng.permutation(n_queries) * 7 + 3
    qid = np.repeat(ids, sizes)
    n_rows = qid.shape[0]
    label = rng.integers(0, 4, n_rows).astype(float)
    label[np.isin(qid, ids[:5])] = 0  # no relevant document
    score = rng.integers(0, 6, n_rows) / 2.0
    weight = np.repeat(rng.uniform(0.5, 2.0, n_queries), sizes)
    rows = pd.DataFrame({"qid": qid, "label": label, "score": score, "w": weight})
    if qid_kind == "str":
        rows["qid"] = [f"q{value}" for value in qid]
    return rows.iloc[rng.permutation(n_rows)].reset_index(drop=True)


def _in_memory(rows, function=sklearn_ndcg.ndcg_score, sample_weight=None, **options):
    return function(
        rows["label"].to_numpy(),
        rows["score"].to_numpy(),
        qid=rows["qid"].to_numpy(),
        sample_weight=None if sample_weight is None else rows[sample_weight].to_numpy(),
        **options,
    )


N_PARTITIONS = 12

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
def test_ndcg_score_equals_in_memory(client, options):
    rows = _long_format(seed=len(str(options)))
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    got = sklearn_ndcg.dask.ndcg_score(frame, **options)
    # the in-memory engine on the same rows, in the order of frame.compute()
    expected = _in_memory(rows, **options)
    assert isinstance(got, float)
    assert got == pytest.approx(expected, rel=1e-12, abs=0)


def test_data_is_really_spread_over_partitions():
    """The fixture data splits queries across partitions, which the shuffle must undo."""
    rows = _long_format(seed=0)
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    per_partition = frame.map_partitions(
        lambda part: part.drop_duplicates("qid")[["qid"]], meta={"qid": np.int64}
    ).compute()
    assert frame.npartitions == N_PARTITIONS
    # most queries appear in several partitions
    assert (per_partition["qid"].value_counts() > 1).mean() > 0.5


def test_ties_first_follows_frame_order(client):
    rows = _long_format(seed=3, qid_kind="str")
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    expected = _in_memory(rows, ties="first", k=3)
    # the tie rule matters on this data, so a lost input order would show
    assert expected != pytest.approx(_in_memory(rows, ties="average", k=3), rel=1e-6)
    assert expected != pytest.approx(_in_memory(rows.iloc[::-1], ties="first", k=3), rel=1e-6)
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
    rows = _long_format(seed=5, qid_kind=qid_kind)
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    score, by_query = sklearn_ndcg.dask.ndcg_score(frame, per_query=True, **options)
    assert isinstance(by_query, dd.Series)
    expected = _in_memory(rows, function=sklearn_ndcg.query_scores, **options)

    got = by_query.compute().sort_index()
    assert got.name == "ndcg"
    assert got.index.name == "qid"
    assert_array_equal(got.index.to_numpy(), expected.qid)
    assert_allclose(got.to_numpy(), expected.score, rtol=1e-12, atol=0)  # NaN where NaN
    assert score == pytest.approx(_in_memory(rows, **options), rel=1e-12, abs=0)


@pytest.mark.parametrize(
    "options",
    [{"k": 4, "ties": "first"}, {"log_base": 10.0, "sample_weight": "w"}],
    ids=str,
)
def test_dcg_score_equals_in_memory(client, options):
    rows = _long_format(seed=11)
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    got = sklearn_ndcg.dask.dcg_score(frame, **options)
    expected = _in_memory(rows, function=sklearn_ndcg.dcg_score, **options)
    assert got == pytest.approx(expected, rel=1e-12, abs=0)


def test_custom_column_names(client):
    rows = _long_format(seed=7).rename(
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
    rows = _long_format(seed=1).assign(label=0.0)
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    with pytest.warns(UndefinedMetricWarning, match="every query was left out"):
        expected = _in_memory(rows, zero_division=np.nan)
    with pytest.warns(UndefinedMetricWarning, match="every query was left out"):
        got = sklearn_ndcg.dask.ndcg_score(frame, zero_division=np.nan)
    assert np.isnan(expected) and np.isnan(got)


def test_importing_sklearn_ndcg_does_not_import_dask():
    import subprocess
    import sys

    code = "import sys, sklearn_ndcg; print('dask' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stderr


# -- errors -----------------------------------------------------------------------


@pytest.fixture(scope="module")
def small_frame():
    rows = pd.DataFrame(
        {
            "qid": [1, 1, 2, 2],
            "label": [1.0, 0.0, 2.0, 1.0],
            "score": [0.3, 0.1, 0.2, 0.4],
            "w": [1.0, 2.0, 1.0, 1.0],  # varies within query 1
            "text": ["a", "b", "c", "d"],
        }
    )
    return dd.from_pandas(rows, npartitions=2)


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


@pytest.mark.parametrize(
    "frame, match",
    [
        (pd.DataFrame({"qid": [1], "label": [1.0], "score": [1.0]}), "in-memory pandas"),
        ([[1, 1.0, 1.0]], "got a list"),
    ],
    ids=["pandas", "list"],
)
def test_frame_must_be_a_dask_dataframe(frame, match):
    with pytest.raises(TypeError, match=rf"frame must be a dask.dataframe.DataFrame.*{match}"):
        sklearn_ndcg.dask.ndcg_score(frame)


def test_frame_must_not_be_a_series(small_frame):
    with pytest.raises(TypeError, match="a dask Series"):
        sklearn_ndcg.dask.ndcg_score(small_frame["label"])


def test_weights_summing_to_zero(client, small_frame):
    frame = small_frame.assign(w=0.0)
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        sklearn_ndcg.dask.ndcg_score(frame, sample_weight="w")


def test_empty_frame(client, small_frame):
    frame = small_frame[small_frame["label"] > 10]
    with pytest.raises(ValueError, match="frame has no rows"):
        sklearn_ndcg.dask.ndcg_score(frame)


@pytest.mark.parametrize("ties", ["average", "first"])
def test_partitions_holding_whole_queries_are_scored_in_place(ties):
    # rows sorted by query: each partition holds whole queries, no shuffle needed;
    # interleaved rows: a shuffle; both equal the in-memory value
    from sklearn_ndcg.dask import _holds_whole_queries

    rng = np.random.default_rng(0)
    qid = np.repeat(np.arange(40), rng.integers(1, 9, 40))
    frame = pd.DataFrame(
        {"qid": qid, "label": rng.integers(0, 4, qid.size), "score": rng.integers(0, 3, qid.size)}
    )
    expected = sklearn_ndcg.ndcg_score(frame.label, frame.score, qid=frame.qid, k=3, ties=ties)
    # four partitions of ten whole queries each (from_pandas may cut a query in two)
    by_query = dd.concat(
        [dd.from_pandas(frame[frame.qid // 10 == part], npartitions=1) for part in range(4)]
    )
    interleaved = dd.from_pandas(frame.sample(frac=1.0, random_state=0), npartitions=4, sort=False)
    assert _holds_whole_queries(by_query, "qid")
    assert not _holds_whole_queries(interleaved, "qid")
    # ties="first" follows the input order, so the interleaved frame has its own
    shuffled = frame.sample(frac=1.0, random_state=0)
    expected_interleaved = sklearn_ndcg.ndcg_score(
        shuffled.label, shuffled.score, qid=shuffled.qid, k=3, ties=ties
    )
    assert sklearn_ndcg.dask.ndcg_score(by_query, k=3, ties=ties) == pytest.approx(
        expected, rel=1e-12
    )
    assert sklearn_ndcg.dask.ndcg_score(interleaved, k=3, ties=ties) == pytest.approx(
        expected_interleaved, rel=1e-12
    )


@pytest.mark.parametrize("convert_string", [True, False])
@pytest.mark.parametrize("npartitions", [1, 2])
@pytest.mark.parametrize("ids", [[5, 5, "5", "5"], [5, "5", 5, "5"], [1.5, 1.5, "x", "x"]])
def test_mixed_qid_types_refused_as_in_memory(client, ids, npartitions, convert_string):
    """5 and "5" are refused with the in-memory message, also after dask's string
    conversion has merged them into one id."""
    import dask

    rows = pd.DataFrame(
        {"qid": pd.Series(ids, dtype=object), "label": [1, 0, 0, 1], "score": [1.0, 2, 3, 4]}
    )
    with pytest.raises(TypeError) as in_memory:
        sklearn_ndcg.ndcg_score(rows["label"], rows["score"], qid=list(rows["qid"]))
    with dask.config.set({"dataframe.convert-string": convert_string}):
        frame = dd.from_pandas(rows, npartitions=npartitions)
        with pytest.raises(TypeError) as on_dask:
            sklearn_ndcg.dask.ndcg_score(frame)
    assert str(on_dask.value) == str(in_memory.value)
    assert "qid mixes values that cannot be compared" in str(on_dask.value)
