"""Data safety and concurrency.

Inputs are never modified, at any public entry point (arrays, lists, read-only
and float32 arrays, pandas objects), not even by gain and discount callables
that write into their arguments; results are identical across repeated calls,
across 4 threads sharing one scorer, and across processes; scorers and a fitted
RankingEvaluator survive pickle and copy.deepcopy; importing the package changes
no global state; the scale benchmark still runs at smoke size.
"""

import copy
import json
import pickle
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
import sklearn
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import Ridge

from sklearn_ndcg import (
    CONVENTIONS,
    NDCGCurveDisplay,
    RankingEvaluator,
    dcg_score,
    make_dcg_scorer,
    make_ndcg_scorer,
    make_ranking,
    ndcg_score,
    query_scores,
)
from sklearn_ndcg._engine import RankingOptions

ROOT = Path(__file__).resolve().parents[2]


def _long_input(seed=0, n_queries=30):
    rng = np.random.default_rng(seed)
    qid = np.repeat(rng.permutation(n_queries) - 10, rng.integers(1, 12, size=n_queries))
    rng.shuffle(qid)
    y_true = rng.integers(0, 4, size=qid.size).astype(float)
    y_score = np.round(rng.random(qid.size), 1)  # ties
    weight = (np.abs(qid) % 3 + 0.5).astype(float)  # equal within a query
    return y_true, y_score, qid, weight


class _FirstColumn(RegressorMixin, BaseEstimator):
    """A fitted model whose prediction is the first column of X; it only reads X."""

    def fit(self, X, y):
        self.n_features_in_ = np.shape(X)[1]
        return self

    def predict(self, X):
        return np.asarray(X, dtype=float)[:, 0]


def _greedy_gain(rel):
    """A gain callable that writes into its argument."""
    rel += 100.0
    return rel - 100.0


def _greedy_discount(rank):
    """A discount callable that overwrites its argument."""
    out = 1.0 / np.sqrt(rank)
    rank[:] = 1
    return out


def _ndcg_score(d, ties):
    return ndcg_score(
        d["y_true"],
        d["y_score"],
        qid=d.get("qid"),
        sample_weight=d["weight"],
        ties=ties,
        k=3,
        gain=_greedy_gain,
        discount=_greedy_discount,
    )


def _ndcg_score_raising(d, ties):
    # an error (weights that vary within a query) leaves the inputs unchanged too
    with pytest.raises(ValueError, match="sample_weight must be the same"):
        ndcg_score(
            d["y_true"], d["y_score"], qid=d["qid"], sample_weight=d["bad_weight"], ties=ties
        )


def _dcg_score(d, ties):
    return dcg_score(
        d["y_true"],
        d["y_score"],
        qid=d.get("qid"),
        sample_weight=d["weight"],
        ties=ties,
        gain=d["gain_table"],
    )


def _query_scores(d, ties):
    return query_scores(
        d["y_true"],
        d["y_score"],
        qid=d.get("qid"),
        sample_weight=d["weight"],
        ties=ties,
        k=5,
        gain="exponential",
    ).score


def _ndcg_scorer(d, ties):
    scorer = make_ndcg_scorer(k=3, ties=ties, gain=d["gain_table"])
    model = _FirstColumn().fit(np.zeros((1, 2)), [0.0])
    with sklearn.config_context(enable_metadata_routing=True):
        return scorer(model, d["X"], d["y_true"], qid=d["qid"], sample_weight=d["weight"])


def _evaluator_fit(d, ties):
    model = RankingEvaluator(Ridge(), k=3, ties=ties)
    with sklearn.config_context(enable_metadata_routing=True):
        model.fit(d["X"], d["y_true"], qid=d["qid"], sample_weight=d["weight"])
    return model.estimator_.coef_


def _evaluator_score(d, ties):
    model = RankingEvaluator(Ridge(), k=3, ties=ties)
    with sklearn.config_context(enable_metadata_routing=True):
        # fitted on copies, so that only score sees the inputs
        model.fit(_snapshot(d["X"]), _snapshot(d["y_true"]), qid=_snapshot(d["qid"]))
        return model.score(d["X"], d["y_true"], qid=d["qid"], sample_weight=d["weight"])


def _curve_display(d, ties):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    display = NDCGCurveDisplay.from_predictions(
        d["y_true"],
        d["y_score"],
        qid=d.get("qid"),
        sample_weight=d["weight"],
        k=[1, 2, 3],
        ties=ties,
        gain=CONVENTIONS["trec_eval"]["gain"],
    )
    plt.close(display.figure_)
    return display.ndcg_


# (entry point, layout): call; a "2d" row where the entry point takes 2-D input
ENTRY_POINTS = {
    ("ndcg_score", "long"): _ndcg_score,
    ("ndcg_score", "2d"): _ndcg_score,
    ("ndcg_score_raising", "long"): _ndcg_score_raising,
    ("dcg_score", "long"): _dcg_score,
    ("dcg_score", "2d"): _dcg_score,
    ("query_scores", "long"): _query_scores,
    ("query_scores", "2d"): _query_scores,
    ("make_ndcg_scorer", "long"): _ndcg_scorer,
    ("RankingEvaluator.fit", "long"): _evaluator_fit,
    ("RankingEvaluator.score", "long"): _evaluator_score,
    ("NDCGCurveDisplay.from_predictions", "long"): _curve_display,
    ("NDCGCurveDisplay.from_predictions", "2d"): _curve_display,
}
KINDS = ["ndarray", "list", "readonly", "float32", "pandas"]


def _arrays(layout, kind):
    """The inputs of one layout as numpy arrays; string query ids for pandas."""
    if layout == "2d":
        return {
            "y_true": np.array([[3.0, 2.0, 1.0, 0.0, 0.0], [1.0, 0.0, 2.0, 0.0, 1.0]]),
            "y_score": np.array([[3.0, 2.0, 0.0, 0.0, 1.0], [0.5, 0.5, 0.1, 0.9, 0.5]]),
            "weight": np.array([1.0, 2.0]),
        }
    y_true, y_score, qid, weight = _long_input(1)
    return {
        "y_true": y_true,
        "y_score": y_score,
        "qid": qid.astype(str) if kind == "pandas" else qid,
        "weight": weight,
        "bad_weight": weight + np.arange(qid.size),  # varies within each query
        "X": np.column_stack((y_score, y_true % 2)),
    }


def _as_kind(arrays, kind):
    """The same inputs as lists, read-only or float32 arrays, or pandas objects."""
    if kind == "pandas":
        pd = pytest.importorskip("pandas")
        if "qid" not in arrays:  # 2-D: DataFrames, one weight per query in a Series
            return {
                "y_true": pd.DataFrame(arrays["y_true"], index=[5, 9]),
                "y_score": pd.DataFrame(arrays["y_score"], index=[5, 9]),
                "weight": pd.Series(arrays["weight"], index=[5, 9]),
            }
        # long: the columns of one DataFrame, which must not change either
        frame = pd.DataFrame({name: a for name, a in arrays.items() if name != "X"})
        frame["x0"], frame["x1"] = arrays["X"].T
        inputs = {name: frame[name] for name in arrays if name != "X"}
        return {**inputs, "X": frame[["x0", "x1"]], "frame": frame}
    inputs = {}
    for name, array in arrays.items():
        if kind == "list":
            array = array.tolist()
        elif kind == "readonly":
            array = array.copy()
            array.flags.writeable = False
        elif kind == "float32" and name != "qid":
            array = array.astype(np.float32)
        else:
            array = array.copy()
        inputs[name] = array
    return inputs


def _snapshot(value):
    if hasattr(value, "copy") and hasattr(value, "iloc"):  # pandas
        return value.copy(deep=True)
    return copy.deepcopy(value)


def _assert_same(before, after, name):
    if hasattr(before, "iloc"):  # pandas: values, dtypes, index and names
        assert type(after) is type(before), name
        pd = pytest.importorskip("pandas")
        if isinstance(before, pd.DataFrame):
            pd.testing.assert_frame_equal(after, before, check_exact=True)
        else:
            pd.testing.assert_series_equal(after, before, check_exact=True)
    elif isinstance(before, np.ndarray):
        assert after.dtype == before.dtype and after.shape == before.shape, name
        np.testing.assert_array_equal(after, before, err_msg=name)
    else:
        assert after == before, name


@pytest.mark.parametrize("ties", RankingOptions.TIE_RULES)
@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "entry, layout", list(ENTRY_POINTS), ids=[f"{e}-{layout}" for e, layout in ENTRY_POINTS]
)
def test_inputs_never_modified(entry, layout, kind, ties):
    """No public entry point changes its inputs, whatever their container.

    Arrays, lists, read-only arrays, float32 arrays and pandas objects (for long
    format, the columns of one DataFrame) come out equal to a deep copy taken
    before the call, and so do a gain table given as a list and the inputs of a
    call that raises. Gain and discount callables that write into their argument
    must not reach the inputs. The result equals that of fresh float64 arrays.
    """
    call = ENTRY_POINTS[entry, layout]
    arrays = _arrays(layout, kind)
    inputs = {**_as_kind(arrays, kind), "gain_table": [0.0, 1.0, 3.0, 7.0]}
    before = {name: _snapshot(value) for name, value in inputs.items()}
    got = call(inputs, ties)
    for name, value in inputs.items():
        _assert_same(before[name], value, name)
    if kind != "float32":  # float32 inputs round the scores differently
        expected = call({**_as_kind(arrays, "ndarray"), "gain_table": [0.0, 1.0, 3.0, 7.0]}, ties)
        if entry == "RankingEvaluator.fit":  # the model's own fit may differ by an ulp
            np.testing.assert_allclose(got, expected, rtol=1e-12, atol=0)  # with the layout of X
        else:
            np.testing.assert_array_equal(got, expected)


def test_callables_see_copies():
    """A gain or discount callable that writes into its argument changes no result."""
    y_true, y_score, qid, _ = _long_input(3)

    def greedy_gain(rel):
        rel += 100.0
        return rel - 100.0

    def greedy_discount(rank):
        rank[:] = 1
        return np.ones(rank.shape)

    clean = ndcg_score(y_true, y_score, qid=qid, discount="none")
    assert ndcg_score(y_true, y_score, qid=qid, gain=greedy_gain, discount=greedy_discount) == clean


def test_callables_see_copies_hand_computation():
    """Callables that change their argument in place give the hand-computed value."""
    y_true = np.array([3.0, 1.0, 0.0, 2.0])
    y_score = np.array([0.1, 0.4, 0.3, 0.2])

    def doubling_gain(rel):
        rel *= 2  # in place, on purpose
        return rel

    def zeroing_discount(rank):
        out = 1.0 / rank
        rank[:] = 0  # in place, on purpose
        return out

    result = ndcg_score([y_true], [y_score], gain=doubling_gain, discount=zeroing_discount)
    # hand computation: gains 6, 2, 0, 4; ranked [2, 0, 4, 6] / ideal [6, 4, 2, 0], 1/r
    assert result == pytest.approx((2 + 0 + 4 / 3 + 6 / 4) / (6 + 4 / 2 + 2 / 3), rel=1e-14)


def test_read_only_inputs_accepted_everywhere():
    X, y, qid = make_ranking(n_queries=8, n_items=5, n_features=4, n_informative=2, random_state=0)
    for array in (X, y, qid):
        array.flags.writeable = False
    with sklearn.config_context(enable_metadata_routing=True):
        model = RankingEvaluator(Ridge(), k=3).fit(X, y, qid=qid)
        value = model.score(X, y, qid=qid)
        scored = make_ndcg_scorer(k=3)(model.estimator_, X, y, qid=qid)
    assert value == scored


CALLS = {
    "ndcg_score": lambda t, s, q, w, **kw: ndcg_score(t, s, qid=q, sample_weight=w, **kw),
    "dcg_score": lambda t, s, q, w, **kw: dcg_score(t, s, qid=q, sample_weight=w, **kw),
    "query_scores": lambda t, s, q, w, **kw: query_scores(t, s, qid=q, sample_weight=w, **kw).score,
}


def test_repeated_calls_identical():
    y_true, y_score, qid, weight = _long_input(4, n_queries=200)
    for fn in CALLS.values():
        first = fn(y_true, y_score, qid, weight, ties="average", k=7)
        for _ in range(5):
            np.testing.assert_array_equal(
                fn(y_true, y_score, qid, weight, ties="average", k=7), first
            )


def test_four_threads_share_one_scorer():
    X, y, qid = make_ranking(
        n_queries=60, n_items=(3, 15), n_features=5, n_informative=3, random_state=1
    )
    model = Ridge().fit(X, y)
    scorer = make_ndcg_scorer(k=5, gain="exponential", ties="pessimistic")
    # each task scores a different subset of queries
    subsets = [np.isin(qid, np.arange(start, 60, 4)) for start in range(4)] * 8

    def score(mask):
        with sklearn.config_context(enable_metadata_routing=True):
            return scorer(model, X[mask], y[mask], qid=qid[mask])

    serial = [score(mask) for mask in subsets]
    with ThreadPoolExecutor(max_workers=4) as pool:
        threaded = list(pool.map(score, subsets))
    assert threaded == serial
    assert len(set(serial[:4])) == 4  # the tasks really differ


_CHILD = """
import json, sys
import numpy as np
sys.path.insert(0, {tests!r})
from test_safety import _long_input
from sklearn_ndcg import ndcg_score, dcg_score, query_scores
y_true, y_score, qid, weight = _long_input(5, n_queries=300)
print(json.dumps([
    ndcg_score(y_true, y_score, qid=qid, sample_weight=weight, k=10).hex(),
    dcg_score(y_true, y_score, qid=qid, ties="optimistic", gain="exponential").hex(),
    [v.hex() for v in query_scores(y_true, y_score, qid=qid, k=3).score.tolist()],
]))
"""


def test_same_result_in_another_process():
    y_true, y_score, qid, weight = _long_input(5, n_queries=300)
    here = [
        ndcg_score(y_true, y_score, qid=qid, sample_weight=weight, k=10).hex(),
        dcg_score(y_true, y_score, qid=qid, ties="optimistic", gain="exponential").hex(),
        [v.hex() for v in query_scores(y_true, y_score, qid=qid, k=3).score.tolist()],
    ]
    child = subprocess.run(
        [sys.executable, "-c", _CHILD.format(tests=str(ROOT / "tests" / "common"))],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(child.stdout) == here


def _scorers():
    return {
        "ndcg": make_ndcg_scorer(k=5),
        "ndcg_options": make_ndcg_scorer(
            k=3,
            gain={0: 0.0, 1: 1.0, 2: 3.0, 3: 9.0, 4: 20.0},
            ties="optimistic",
            zero_division=np.nan,
        ),
        "ndcg_trec": make_ndcg_scorer(k=10, **CONVENTIONS["trec_eval"]),
        "dcg": make_dcg_scorer(k=4, gain="exponential", discount="reciprocal"),
    }


@pytest.mark.parametrize("name", list(_scorers()))
@pytest.mark.parametrize("clone", ["pickle", "deepcopy"])
def test_scorers_survive_pickle_and_deepcopy(name, clone):
    X, y, qid = make_ranking(
        n_queries=20, n_items=(2, 9), n_features=4, n_informative=2, random_state=2
    )
    model = Ridge().fit(X, y)
    scorer = _scorers()[name]
    copied = pickle.loads(pickle.dumps(scorer)) if clone == "pickle" else copy.deepcopy(scorer)
    with sklearn.config_context(enable_metadata_routing=True):
        assert copied(model, X, y, qid=qid) == scorer(model, X, y, qid=qid)
        # the qid request survives too
        assert copied.get_metadata_routing().score.requests["qid"] is True


@pytest.mark.parametrize("clone", ["pickle", "deepcopy"])
def test_fitted_evaluator_survives_pickle_and_deepcopy(clone):
    X, y, qid = make_ranking(
        n_queries=20, n_items=(2, 9), n_features=4, n_informative=2, random_state=3
    )
    model = RankingEvaluator(Ridge(alpha=0.3), k=4, gain="exponential").fit(X, y, qid=qid)
    copied = pickle.loads(pickle.dumps(model)) if clone == "pickle" else copy.deepcopy(model)
    assert copied.score(X, y, qid=qid) == model.score(X, y, qid=qid)
    np.testing.assert_array_equal(copied.predict(X), model.predict(X))
    assert copied.get_params()["estimator__alpha"] == 0.3
    assert copied.n_features_in_ == 4


_IMPORT_STATE = r"""
import json, sys, warnings
import numpy as np, scipy, sklearn, sklearn.metrics, sklearn.model_selection
import threadpoolctl

def state():
    return {
        "printoptions": {k: repr(v) for k, v in np.get_printoptions().items()},
        "errstate": np.geterr(),
        "threadpools": sorted((p["user_api"], p["internal_api"], p["num_threads"])
                              for p in threadpoolctl.threadpool_info()),
        "sklearn_config": {k: repr(v) for k, v in sklearn.get_config().items()},
        "warning_filters": [repr(f) for f in warnings.filters],
        "random_state": repr(np.random.get_state()[1][:8].tolist()),
        "recursion_limit": sys.getrecursionlimit(),
        "switch_interval": sys.getswitchinterval(),
        "matplotlib_loaded": "matplotlib" in sys.modules,
    }

before = state()
import sklearn_ndcg
from sklearn_ndcg import *  # noqa: F403
import sklearn_ndcg.__main__
after = state()
print(json.dumps({"before": before, "after": after}))
"""


def test_import_changes_no_global_state():
    """Import in a fresh interpreter, after the dependencies, and compare."""
    child = subprocess.run(
        [sys.executable, "-c", _IMPORT_STATE],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    states = json.loads(child.stdout)
    for key, before in states["before"].items():
        assert states["after"][key] == before, key


def test_bench_scale_smoke():
    """benchmarks/bench_scale.py runs at smoke size (every workload and cutoff, in one child
    process); no timing is checked."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_scale.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    workloads = ("many", "one", "skewed", "1M-grouped", "1M-shuffled", "10M-grouped")
    for workload in (*workloads, "10M-shuffled"):  # one row per cutoff
        assert result.stdout.count(f"\n| {workload} | ") == 2, workload
    assert "worst peak memory" in result.stdout
    assert "- 10M-shuffled k=None: " in result.stdout  # issue 13's lines
