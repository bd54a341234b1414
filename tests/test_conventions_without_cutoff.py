"""Every preset of CONVENTIONS at ``k=None`` against its library without a cutoff.

The queries here are longer than 32 documents, where XGBoost's ``ndcg`` (no ``@k``)
stops counting: its ``DefaultK()`` is 32 (src/common/ranking_utils.h of dmlc/xgboost,
used by src/metric/rank_metric.cc). Expected values come from the libraries
themselves (skipped when one is not installed): XGBoost's ``ndcg`` eval metric on a
0-round booster (the mean, and each query's value from a booster on that query alone),
LightGBM's ``ndcg@k`` with ``k`` the longest query (it has no metric without a
cutoff), CatBoost's ``NDCG`` (``top=-1``, its whole query), scikit-learn's
``ndcg_score`` and pytrec_eval's ``ndcg``.
"""

import numpy as np
import pytest
import sklearn.metrics

from sklearn_ndcg import CONVENTIONS, ndcg_score, query_scores


def _long_queries(seed=0, n_queries=12):
    """Queries of 20 to 90 documents (most beyond 32), distinct float32-exact scores."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(20, 91, n_queries)
    qid = np.repeat(np.arange(n_queries), sizes)
    y = rng.integers(0, 4, qid.size).astype(np.float64)
    y[qid == 0] = 0.0  # one query without relevant document
    score = rng.permutation(qid.size).astype(np.float64) / 8
    return y, score, qid, sizes


def _xgboost_ndcg(y, score, qid, metric):
    xgboost = pytest.importorskip("xgboost")
    data = xgboost.DMatrix(np.zeros((y.shape[0], 1)), label=y, qid=qid, base_margin=score)
    booster = xgboost.train(
        {"objective": "rank:ndcg", "eval_metric": [metric]}, data, num_boost_round=0
    )
    return float(booster.eval(data).split(":")[-1])


def test_xgboost_preset_without_cutoff_is_xgboost_ndcg():
    y, score, qid, sizes = _long_queries()
    assert (sizes > 32).sum() >= 6
    preset = CONVENTIONS["xgboost"]
    expected = _xgboost_ndcg(y, score, qid, "ndcg")
    assert ndcg_score(y, score, qid=qid, **preset) == pytest.approx(expected, rel=1e-12)
    assert ndcg_score(y, score, qid=qid, k=None, **preset) == pytest.approx(expected, rel=1e-12)
    # not NDCG of whole queries: XGBoost's value is its ndcg@32
    assert ndcg_score(y, score, qid=qid, k=90, **preset) != pytest.approx(expected, rel=1e-6)
    per_query = query_scores(y, score, qid=qid, **preset).score
    for q in np.unique(qid):
        rows = qid == q
        value = _xgboost_ndcg(y[rows], score[rows], qid[rows], "ndcg")
        assert per_query[q] == pytest.approx(value, rel=1e-12), q


@pytest.mark.parametrize("k", [5, 32, 33, 50, 90])
def test_xgboost_preset_with_a_cutoff_beyond_32(k):
    y, score, qid, _ = _long_queries(1)
    expected = _xgboost_ndcg(y, score, qid, f"ndcg@{k}")
    got = ndcg_score(y, score, qid=qid, k=k, **CONVENTIONS["xgboost"])
    assert got == pytest.approx(expected, rel=1e-12)


def test_xgboost_preset_cutoff_survives_pickling_and_copies():
    import pickle

    preset = pickle.loads(pickle.dumps(dict(CONVENTIONS["xgboost"])))
    y, score, qid, _ = _long_queries(2)
    assert ndcg_score(y, score, qid=qid, **preset) == ndcg_score(
        y, score, qid=qid, k=32, **CONVENTIONS["xgboost"]
    )
    assert preset["discount"] == "log2"


def test_lightgbm_preset_without_cutoff():
    lightgbm = pytest.importorskip("lightgbm")
    y, score, qid, sizes = _long_queries(3)
    longest = int(sizes.max())
    X = np.zeros((y.shape[0], 1))
    params = {
        "objective": "lambdarank",
        "metric": "ndcg",
        "eval_at": [longest],
        "verbose": -1,
        "num_leaves": 2,
        "min_data_in_leaf": y.shape[0] + 1,
        "learning_rate": 1e-300,
    }
    train = lightgbm.Dataset(X, label=y, group=sizes, init_score=score)
    valid = lightgbm.Dataset(X, label=y, group=sizes, init_score=score, reference=train)
    record = {}
    lightgbm.train(
        params,
        train,
        num_boost_round=1,
        valid_sets=[valid],
        valid_names=["valid"],
        callbacks=[lightgbm.record_evaluation(record)],
    )
    expected = record["valid"][f"ndcg@{longest}"][0]
    got = ndcg_score(y, score, qid=qid, k=None, **CONVENTIONS["lightgbm"])
    assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    "name, metric",
    [("catboost", "NDCG"), ("catboost_exp_position", "NDCG:type=Exp;denominator=Position")],
)
def test_catboost_presets_without_cutoff(name, metric):
    pytest.importorskip("catboost")
    from catboost.utils import eval_metric

    y, score, qid, _ = _long_queries(4)
    expected = eval_metric(y, score, metric, group_id=qid)[0]
    got = ndcg_score(y, score, qid=qid, k=None, **CONVENTIONS[name])
    assert got == pytest.approx(expected, rel=1e-12)


def test_sklearn_preset_without_cutoff():
    y, score, qid, sizes = _long_queries(5, n_queries=4)
    sizes = sizes.copy()
    sizes[:] = sizes.min()  # scikit-learn's 2-D input: queries of one length
    rows = np.concatenate([np.flatnonzero(qid == q)[: sizes[0]] for q in np.unique(qid)])
    y2, s2 = y[rows].reshape(4, -1), score[rows].reshape(4, -1)
    expected = sklearn.metrics.ndcg_score(y2, s2)
    assert ndcg_score(y2, s2, k=None, **CONVENTIONS["sklearn"]) == pytest.approx(expected)


def test_trec_eval_preset_without_cutoff():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    y, score, qid, _ = _long_queries(6)
    qrels = {str(q): {} for q in np.unique(qid)}
    run = {str(q): {} for q in np.unique(qid)}
    for i, (q, label, s) in enumerate(zip(qid, y, score)):
        qrels[str(q)][f"d{i}"] = int(label)
        run[str(q)][f"d{i}"] = float(s)
    result = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg"}).evaluate(run)
    expected = np.mean([result[str(q)]["ndcg"] for q in np.unique(qid)])
    got = ndcg_score(y, score, qid=qid, k=None, **CONVENTIONS["trec_eval"])
    assert got == pytest.approx(expected, rel=1e-12)
