"""One staging per call (issue 22, point 4): every entry point validates and groups its
input once, then orders it with each tie rule it needs.

A counting spy replaces ``check_ranking_input`` (validation) and ``group_queries``
(grouping into queries) in every module of the package that imported them, wherever
the staging code lives, and each entry point must call each of them exactly once. The
groupings of a judgment pool (a second input, grouped once) are left out of the count.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys
from collections import Counter

import numpy as np
import pytest
from sklearn.linear_model import Ridge

import sklearn_ndcg
from sklearn_ndcg import (
    JudgmentPool,
    NDCGCurveDisplay,
    RankingEvaluator,
    cross_val_query_scores,
    dcg_score,
    evaluate_run,
    make_dcg_scorer,
    make_ndcg_scorer,
    make_ranking,
    ndcg_score,
    query_scores,
    tie_diagnostics,
)
from sklearn_ndcg._engine import _queries, _validation
from sklearn_ndcg._metrics._ndcg import at_cutoffs

X, Y, QID = make_ranking(n_queries=12, random_state=0)
Y_SCORE = np.round(Ridge().fit(X, Y).predict(X), 1)  # tied scores: every tie rule works
POOL = JudgmentPool(QID, Y)
STAGES = {
    "check_ranking_input": _validation.check_ranking_input,
    "group_queries": _queries.group_queries,
}
ONCE = {"check_ranking_input": 1, "group_queries": 1}


def _package_modules() -> list:
    """Every module of the package, imported (optional dependencies permitting)."""
    for info in pkgutil.walk_packages(sklearn_ndcg.__path__, "sklearn_ndcg."):
        if not info.name.endswith("__main__"):  # importing it would run the command
            try:
                importlib.import_module(info.name)
            except ImportError:  # pragma: no cover - an extra is not installed
                pass
    return [m for name, m in sys.modules.items() if name.split(".")[0] == "sklearn_ndcg"]


@pytest.fixture
def stagings(monkeypatch) -> Counter:
    """Calls of each stage function, by name; the pool's grouping is not counted."""
    counts = Counter()
    pool_qids = [POOL.qid]  # and those of the pools built during the call
    pool_init = JudgmentPool.__init__

    def init(self, *args, **kwargs):
        pool_init(self, *args, **kwargs)
        pool_qids.append(self.qid)

    monkeypatch.setattr(JudgmentPool, "__init__", init)
    for name, original in STAGES.items():

        def spy(*args, _name=name, _original=original, **kwargs):
            if not (args and any(args[0] is qid for qid in pool_qids)):
                counts[_name] += 1
            return _original(*args, **kwargs)

        for module in _package_modules():
            if getattr(module, name, None) is original:
                monkeypatch.setattr(module, name, spy)
    return counts


@pytest.fixture
def pyplot():
    """matplotlib's pyplot on the Agg backend; the figures are closed after the test."""
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def _fitted() -> Ridge:
    class Fixed(Ridge):
        def predict(self, X):
            return Y_SCORE[: X.shape[0]]

    return Fixed().fit(X, Y)


def _evaluator() -> RankingEvaluator:
    return RankingEvaluator(Ridge(), k=5).fit(X, Y, qid=QID)


def _run_and_qrels():
    docno = np.arange(Y.shape[0]).astype(str)
    return (QID, docno, Y_SCORE), (QID, docno, Y)


ENTRY_POINTS = {
    "ndcg_score": lambda: ndcg_score(Y, Y_SCORE, qid=QID, k=5),
    "ndcg_score_2d": lambda: ndcg_score(Y[:20].reshape(2, 10), Y_SCORE[:20].reshape(2, 10)),
    "ndcg_score_pool": lambda: ndcg_score(Y, Y_SCORE, qid=QID, k=5, pool=POOL),
    "dcg_score": lambda: dcg_score(Y, Y_SCORE, qid=QID, k=5),
    "query_scores": lambda: query_scores(Y, Y_SCORE, qid=QID, normalize="minmax"),
    "at_cutoffs": lambda: at_cutoffs(Y, Y_SCORE, np.array([1, 5, 10]), qid=QID),
    "tie_diagnostics": lambda: tie_diagnostics(Y, Y_SCORE, qid=QID, k=5),
    "curve_from_predictions": lambda: NDCGCurveDisplay.from_predictions(
        Y, Y_SCORE, qid=QID, show_spread=True, show_tie_range=True
    ),
    "curve_from_predictions_ks_pessimistic": lambda: NDCGCurveDisplay.from_predictions(
        Y, Y_SCORE, qid=QID, k=[1, 3, 5], ties="pessimistic", normalize="minmax"
    ),
    "curve_from_estimator": lambda: NDCGCurveDisplay.from_estimator(
        _fitted(), X, Y, qid=QID, k=[1, 5, 10], show_spread=True, show_tie_range=True
    ),
    "ndcg_scorer_cutoffs": lambda: make_ndcg_scorer(k=[1, 5, 10])(_fitted(), X, Y, qid=QID),
    "dcg_scorer_cutoffs": lambda: make_dcg_scorer(k=[2, 3])(_fitted(), X, Y, qid=QID),
    "ndcg_scorer": lambda: make_ndcg_scorer(k=5)(_fitted(), X, Y, qid=QID),
    "evaluate_run": lambda: evaluate_run(*_run_and_qrels(), k=5),
}


@pytest.mark.parametrize("entry_point", ENTRY_POINTS, ids=list(ENTRY_POINTS))
def test_each_entry_point_stages_once(entry_point, request):
    if entry_point.startswith("curve"):
        request.getfixturevalue("pyplot")
    stagings = request.getfixturevalue("stagings")
    ENTRY_POINTS[entry_point]()
    assert dict(stagings) == ONCE


def test_evaluator_score_stages_once(stagings):
    evaluator = _evaluator()  # fit stages its own input (without early stopping: no metric)
    stagings.clear()
    evaluator.score(X, Y, qid=QID)
    assert dict(stagings) == ONCE


def test_once_per_fold(stagings):
    # each test fold is a new input: one staging of each, none more
    result = cross_val_query_scores(Ridge(), X, Y, qid=QID, cv=3, k=5)
    assert result.score.shape == (12,)
    assert dict(stagings) == {name: 3 for name in STAGES}


def test_the_spy_sees_every_staging(stagings):
    # the test can fail: two calls stage twice
    ndcg_score(Y, Y_SCORE, qid=QID)
    dcg_score(Y, Y_SCORE, qid=QID)
    assert dict(stagings) == {name: 2 for name in STAGES}


def test_dask_stages_once_per_partition(stagings, monkeypatch):
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    import dask

    import sklearn_ndcg.dask as ndcg_dask
    from sklearn_ndcg._dask import _partitions

    calls = Counter()
    original = _partitions.scores_per_query  # scores one partition

    def counted(*args, **kwargs):
        calls["partition"] += 1
        return original(*args, **kwargs)

    monkeypatch.setattr(_partitions, "scores_per_query", counted)
    rows = pd.DataFrame({"qid": QID, "label": Y, "score": Y_SCORE})
    expected = ndcg_score(Y, Y_SCORE, qid=QID, k=5)  # reference: the in-memory metric
    stagings.clear()
    with dask.config.set(scheduler="sync"):
        value = ndcg_dask.ndcg_score(dd.from_pandas(rows, npartitions=3), k=5)
    assert value == pytest.approx(expected, rel=1e-12)
    assert calls["partition"] >= 1
    assert dict(stagings) == {name: calls["partition"] for name in STAGES}


def test_trec_eval_command_stages_once(stagings):
    from sklearn_ndcg._ir import TrecQrels, TrecRun, measures_from, trec_eval_scores

    run, qrels = _run_and_qrels()
    trec_eval_scores(
        TrecQrels(qrels[0].astype(str), qrels[1], qrels[2]),
        TrecRun(run[0].astype(str), run[1], run[2], np.full(run[0].shape[0], "run")),
        measures_from([("ndcg", None), ("ndcg_cut", "5,10")]),
    )
    assert stagings["check_ranking_input"] == 1


def test_early_stopping_stages_the_validation_queries_once(stagings):
    """Each boosting round brings new scores only: the stagings of a fit do not grow
    with the number of rounds (before, every round validated and grouped again)."""
    lightgbm = pytest.importorskip("lightgbm")

    def stagings_of_a_fit(rounds: int) -> Counter:
        stagings.clear()
        model = lightgbm.LGBMRanker(n_estimators=rounds, n_jobs=1, verbose=-1, min_child_samples=2)
        RankingEvaluator(model, k=5, early_stopping=rounds, random_state=0).fit(X, Y, qid=QID)
        return Counter(stagings)

    few, many = stagings_of_a_fit(3), stagings_of_a_fit(30)
    assert few == many
    assert few["check_ranking_input"] >= 1  # the spy sees the staging at all
