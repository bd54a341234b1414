"""Data safety and concurrency.

Inputs are never modified (arrays, lists, DataFrames, read-only arrays);
results are identical across repeated calls, across 4 threads sharing one
scorer, and across processes; scorers and a fitted RankingEvaluator survive
pickle and copy.deepcopy; importing the package changes no global state; the
scale benchmark still runs at smoke size.
"""

import copy
import json
import pickle
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sklearn
from sklearn.linear_model import Ridge

from sklearn_ndcg import (
    CONVENTIONS,
    RankingEvaluator,
    dcg_score,
    make_dcg_scorer,
    make_ndcg_scorer,
    make_ranking,
    ndcg_score,
    query_scores,
)

ROOT = Path(__file__).resolve().parents[1]


def _long_input(seed=0, n_queries=30):
    rng = np.random.default_rng(seed)
    qid = np.repeat(rng.permutation(n_queries) - 10, rng.integers(1, 12, size=n_queries))
    rng.shuffle(qid)
    y_true = rng.integers(0, 4, size=qid.size).astype(float)
    y_score = np.round(rng.random(qid.size), 1)  # ties
    weight = (np.abs(qid) % 3 + 0.5).astype(float)  # equal within a query
    return y_true, y_score, qid, weight


def _as_kind(array, kind):
    if kind == "list":
        return array.tolist()
    if kind == "series":
        return pd.Series(array)
    if kind == "readonly":
        array = array.copy()
        array.flags.writeable = False
        return array
    if kind == "float32":
        return array.astype(np.float32)
    return array.copy()


def _snapshot(value):
    if isinstance(value, (pd.Series, pd.DataFrame)):
        return value.copy(deep=True)
    return copy.deepcopy(value)


def _same(before, after):
    if isinstance(before, (pd.Series, pd.DataFrame)):
        assert before.equals(after)
        return
    if isinstance(before, np.ndarray):
        assert before.dtype == after.dtype and before.shape == after.shape
        np.testing.assert_array_equal(before, after)
        return
    assert before == after


CALLS = {
    "ndcg_score": lambda t, s, q, w, **kw: ndcg_score(t, s, qid=q, sample_weight=w, **kw),
    "dcg_score": lambda t, s, q, w, **kw: dcg_score(t, s, qid=q, sample_weight=w, **kw),
    "query_scores": lambda t, s, q, w, **kw: query_scores(t, s, qid=q, sample_weight=w, **kw).score,
}


@pytest.mark.parametrize("kind", ["ndarray", "list", "series", "readonly", "float32"])
@pytest.mark.parametrize("ties", ["average", "first", "optimistic", "pessimistic"])
@pytest.mark.parametrize("call", list(CALLS))
def test_inputs_never_modified(call, ties, kind):
    y_true, y_score, qid, weight = _long_input(1)
    inputs = [
        _as_kind(a, kind) if kind != "float32" or a is not qid else qid.copy()
        for a in (y_true, y_score, qid, weight)
    ]
    before = [_snapshot(a) for a in inputs]
    expected = CALLS[call](y_true, y_score, qid, weight, ties=ties, k=5, gain="exponential")
    got = CALLS[call](*inputs, ties=ties, k=5, gain="exponential")
    for b, a in zip(before, inputs):
        _same(b, a)
    if kind != "float32":  # float32 inputs round the scores differently
        np.testing.assert_array_equal(got, expected)


def test_dataframe_columns_never_modified():
    y_true, y_score, qid, weight = _long_input(2)
    frame = pd.DataFrame({"y": y_true, "s": y_score, "q": qid.astype(str), "w": weight})
    frame_before = frame.copy(deep=True)
    wide = pd.DataFrame(np.arange(12.0).reshape(3, 4) % 3)
    wide_before = wide.copy(deep=True)
    ndcg_score(
        frame["y"],
        frame["s"],
        qid=frame["q"],
        sample_weight=frame["w"],
        gain=CONVENTIONS["trec_eval"]["gain"],
    )
    dcg_score(wide, wide[::-1].to_numpy(), ties="optimistic")
    query_scores(wide, -wide, k=2)
    pd.testing.assert_frame_equal(frame, frame_before)
    pd.testing.assert_frame_equal(wide, wide_before)


def test_callables_see_copies():
    """A gain or discount callable that writes into its argument changes nothing."""
    y_true, y_score, qid, _ = _long_input(3)
    before = (y_true.copy(), y_score.copy(), qid.copy())

    def greedy_gain(rel):
        rel += 100.0
        return rel - 100.0

    def greedy_discount(rank):
        rank[:] = 1
        return np.ones(rank.shape)

    clean = ndcg_score(y_true, y_score, qid=qid, discount="none")
    assert ndcg_score(y_true, y_score, qid=qid, gain=greedy_gain, discount=greedy_discount) == clean
    for b, a in zip(before, (y_true, y_score, qid)):
        np.testing.assert_array_equal(b, a)


def test_read_only_inputs_accepted_everywhere():
    X, y, qid = make_ranking(n_queries=8, n_items=5, n_features=4, n_informative=2, random_state=0)
    for array in (X, y, qid):
        array.flags.writeable = False
    with sklearn.config_context(enable_metadata_routing=True):
        model = RankingEvaluator(Ridge(), k=3).fit(X, y, qid=qid)
        value = model.score(X, y, qid=qid)
        scored = make_ndcg_scorer(k=3)(model.estimator_, X, y, qid=qid)
    assert value == scored


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
        [sys.executable, "-c", _CHILD.format(tests=str(ROOT / "tests"))],
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
    """benchmarks/bench_scale.py runs at smoke size; no timing is checked."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_scale.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    for workload in ("many", "one", "skewed"):
        assert f"| {workload} |" in result.stdout
    assert "worst peak memory" in result.stdout
