"""The presets of CONVENTIONS against the libraries they reproduce.

Expected values come from the libraries themselves (skipped when one is not
installed): scikit-learn, LightGBM's and XGBoost's ``ndcg`` eval metrics,
pytrec_eval's ``ndcg`` / ``ndcg_cut`` and ranx's ``ndcg``.
"""

import inspect

import numpy as np
import pytest
import sklearn.metrics

from sklearn_ndcg import CONVENTIONS, ndcg_score, positive_part_gain, query_scores

KS = [1, 3, 5, 20]  # 20 is longer than any query


def _ragged(seed, *, ties, max_items=12, n_queries=25, empty=True, negative=False):
    """Queries of 1..max_items documents, sorted by query; two without relevant one."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, max_items + 1, n_queries)
    qid = np.repeat(np.arange(n_queries), sizes)
    n = qid.shape[0]
    y = rng.integers(-1 if negative else 0, 5, n).astype(np.float64)
    starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    y[starts] = np.maximum(y[starts], 1.0)  # every query has a relevant document,
    if empty:
        y[np.isin(qid, [0, 3])] = 0.0  # but for these two
    if ties:
        score = rng.integers(0, 3, n).astype(np.float64)
    else:
        # float32-exact and distinct, since XGBoost predicts in float32
        score = rng.permutation(n).astype(np.float64) / 8
    return y, score, qid, sizes


def _tied(data):
    """Make sure a data set has ties where they matter: several per query."""
    y, score, qid, _ = data
    per_query = [np.unique(score[qid == q]).size < (qid == q).sum() for q in np.unique(qid)]
    assert sum(per_query) >= 10
    return data


@pytest.mark.parametrize("name", sorted(CONVENTIONS))
def test_presets_are_ndcg_score_keywords(name):
    keywords = set(inspect.signature(ndcg_score).parameters)
    assert set(CONVENTIONS[name]) <= keywords - {"y_true", "y_score", "qid", "k"}
    y, score, qid, _ = _ragged(0, ties=True)
    assert 0 <= ndcg_score(y, score, qid=qid, k=5, **CONVENTIONS[name]) <= 1


def test_positive_part_gain():
    # hand computation: max(label, 0)
    gain = positive_part_gain(np.array([3.0, 0.0, -1.0, -2.5]))
    np.testing.assert_array_equal(gain, [3.0, 0.0, 0.0, 0.0])


# scikit-learn ---------------------------------------------------------------------


@pytest.mark.parametrize("k", [None, 1, 3, 7])
def test_sklearn_preset(k):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 4, (20, 7)).astype(np.float64)
    y[[2, 5]] = 0.0  # rows without a relevant document
    score = rng.integers(0, 3, (20, 7)).astype(np.float64)  # many ties
    weight = rng.uniform(0.5, 2.0, 20)
    expected = sklearn.metrics.ndcg_score(y, score, k=k, sample_weight=weight)
    got = ndcg_score(y, score, k=k, sample_weight=weight, **CONVENTIONS["sklearn"])
    assert got == pytest.approx(expected, rel=1e-12)


# LightGBM -------------------------------------------------------------------------


def _lightgbm_ndcg(y, score, sizes, ks, weight=None):
    """LightGBM's ndcg@k of ``score``: a no-split model evaluated on init_score."""
    lightgbm = pytest.importorskip("lightgbm")
    n = y.shape[0]
    X = np.zeros((n, 1))
    params = {
        "objective": "lambdarank",
        "metric": "ndcg",
        "eval_at": list(ks),
        "verbose": -1,
        "num_leaves": 2,
        "min_data_in_leaf": n + 1,
        "learning_rate": 1e-300,  # the one leaf adds ~0 to every score alike
    }
    train = lightgbm.Dataset(X, label=y, group=sizes, init_score=score, weight=weight)
    valid = lightgbm.Dataset(
        X, label=y, group=sizes, init_score=score, weight=weight, reference=train
    )
    record = {}
    lightgbm.train(
        params,
        train,
        num_boost_round=1,
        valid_sets=[valid],
        valid_names=["valid"],
        callbacks=[lightgbm.record_evaluation(record)],
    )
    return {k: record["valid"][f"ndcg@{k}"][0] for k in ks}


@pytest.mark.parametrize("ties", [False, True])
def test_lightgbm_preset(ties):
    data = _ragged(2, ties=ties)
    y, score, qid, sizes = _tied(data) if ties else data
    expected = _lightgbm_ndcg(y, score, sizes, KS)
    for k in KS:
        got = ndcg_score(y, score, qid=qid, k=k, **CONVENTIONS["lightgbm"])
        assert got == pytest.approx(expected[k], rel=1e-12), k


def test_lightgbm_preset_ties_follow_input_order():
    # Reversing the rows of each query changes LightGBM's value on tied scores.
    y, score, qid, sizes = _tied(_ragged(3, ties=True))
    order = np.lexsort((-np.arange(qid.shape[0]), qid))
    expected = _lightgbm_ndcg(y[order], score[order], sizes, [3])[3]
    assert expected != pytest.approx(_lightgbm_ndcg(y, score, sizes, [3])[3])
    got = ndcg_score(y[order], score[order], qid=qid[order], k=3, **CONVENTIONS["lightgbm"])
    assert got == pytest.approx(expected, rel=1e-12)


def _library_weighted_mean(y, score, qid, k, weight, preset):
    """LightGBM's and XGBoost's weighted mean, as the user guide reproduces it.

    Both add 1 for a query without relevant document, unweighted, and divide
    by the sum of all query weights.
    """
    per_query = query_scores(
        y,
        score,
        qid=qid,
        k=k,
        sample_weight=weight,
        **{**preset, "zero_division": np.nan},
    )
    undefined = np.isnan(per_query.score)
    weighted = (per_query.score * per_query.weight)[~undefined].sum()
    return (weighted + undefined.sum()) / per_query.weight.sum()


@pytest.mark.parametrize("empty", [False, True])
def test_lightgbm_preset_weights(empty):
    # LightGBM weighs each query by the mean of its documents' weights (stored
    # as float32, so the weights here are float32-exact).
    y, score, qid, sizes = _ragged(4, ties=False, empty=empty)
    query_weight = np.random.default_rng(4).integers(2, 12, sizes.shape[0]) / 4
    weight = query_weight[qid]
    expected = _lightgbm_ndcg(y, score, sizes, [5], weight=weight)[5]
    preset = CONVENTIONS["lightgbm"]
    if empty:  # not a preset: weights and queries without relevant document
        got = _library_weighted_mean(y, score, qid, 5, weight, preset)
        plain = ndcg_score(y, score, qid=qid, k=5, sample_weight=weight, **preset)
        assert plain != pytest.approx(expected, rel=1e-6)
    else:
        got = ndcg_score(y, score, qid=qid, k=5, sample_weight=weight, **preset)
    assert got == pytest.approx(expected, rel=1e-12)


# XGBoost --------------------------------------------------------------------------


def _xgboost_ndcg(y, score, qid, metrics, group_weight=None):
    """XGBoost's ranking metrics of ``score``: a 0-round model on base_margin."""
    xgboost = pytest.importorskip("xgboost")
    data = xgboost.DMatrix(
        np.zeros((y.shape[0], 1)), label=y, qid=qid, base_margin=score, weight=group_weight
    )
    booster = xgboost.train(
        {"objective": "rank:ndcg", "eval_metric": list(metrics)}, data, num_boost_round=0
    )
    np.testing.assert_array_equal(booster.predict(data, output_margin=True), score)
    fields = booster.eval(data).split("\t")[1:]
    return {name.split("-", 1)[1]: float(value) for name, value in (f.split(":") for f in fields)}


@pytest.mark.parametrize("ties", [False, True])
def test_xgboost_preset(ties):
    data = _ragged(5, ties=ties)
    y, score, qid, _ = _tied(data) if ties else data
    expected = _xgboost_ndcg(y, score, qid, [f"ndcg@{k}" for k in KS])
    for k in KS:
        got = ndcg_score(y, score, qid=qid, k=k, **CONVENTIONS["xgboost"])
        # XGBoost prints 17 significant digits and sums in float64
        assert got == pytest.approx(expected[f"ndcg@{k}"], rel=1e-12), k


def test_xgboost_preset_ties_follow_input_order():
    y, score, qid, _ = _tied(_ragged(6, ties=True))
    order = np.lexsort((-np.arange(qid.shape[0]), qid))
    expected = _xgboost_ndcg(y[order], score[order], qid[order], ["ndcg@3"])["ndcg@3"]
    assert expected != pytest.approx(_xgboost_ndcg(y, score, qid, ["ndcg@3"])["ndcg@3"])
    got = ndcg_score(y[order], score[order], qid=qid[order], k=3, **CONVENTIONS["xgboost"])
    assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("empty", [False, True])
def test_xgboost_preset_weights_and_minus_metric(empty):
    # Group weights (float32-exact); "ndcg@k-" scores queries without relevant
    # documents 0.
    y, score, qid, sizes = _ragged(7, ties=False, empty=empty)
    group_weight = np.random.default_rng(7).integers(2, 12, sizes.shape[0]) / 4
    weight = group_weight[qid]
    expected = _xgboost_ndcg(y, score, qid, ["ndcg@5", "ndcg@5-"], group_weight=group_weight)
    preset = CONVENTIONS["xgboost"]
    if empty:  # not a preset: weights and queries without relevant document
        got = _library_weighted_mean(y, score, qid, 5, weight, preset)
    else:
        got = ndcg_score(y, score, qid=qid, k=5, sample_weight=weight, **preset)
    assert got == pytest.approx(expected["ndcg@5"], rel=1e-12)
    minus = {**preset, "zero_division": 0.0}
    got = ndcg_score(y, score, qid=qid, k=5, sample_weight=weight, **minus)
    assert got == pytest.approx(expected["ndcg@5-"], rel=1e-12)


# trec_eval (pytrec_eval) ----------------------------------------------------------


def _docids(qid, seed):
    """Document ids whose order within a query differs from the row order."""
    rng = np.random.default_rng(seed)
    return np.array([f"d{i:03d}" for i in rng.permutation(qid.shape[0])])


def _trec_tiebreak(y_score, docid):
    """trec_eval's order as a tie-free score: by score, then decreasing doc id."""
    order = np.lexsort((docid, y_score))
    tiebreak = np.empty(order.shape[0])
    tiebreak[order] = np.arange(order.shape[0])
    return tiebreak


def _pytrec_eval_mean(y, score, qid, docid, measure):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run = {}, {}
    for label, s, q, d in zip(y, score, qid, docid):
        qrels.setdefault(f"q{q}", {})[str(d)] = int(label)
        run.setdefault(f"q{q}", {})[str(d)] = float(s)
    per_query = pytrec_eval.RelevanceEvaluator(qrels, {measure}).evaluate(run)
    assert len(per_query) == np.unique(qid).shape[0]
    key = measure.replace("ndcg_cut.", "ndcg_cut_")
    return float(np.mean([values[key] for values in per_query.values()]))


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("k", [None, 1, 5, 20])
def test_trec_eval_preset(ties, k):
    data = _ragged(8, ties=ties, negative=True)
    y, score, qid, _ = _tied(data) if ties else data
    docid = _docids(qid, 8)
    measure = "ndcg" if k is None else f"ndcg_cut.{k}"
    expected = _pytrec_eval_mean(y, score, qid, docid, measure)
    got = ndcg_score(y, _trec_tiebreak(score, docid), qid=qid, k=k, **CONVENTIONS["trec_eval"])
    assert got == pytest.approx(expected, rel=1e-12)
    if ties:  # the doc-id tie-break matters on this data
        plain = ndcg_score(y, score, qid=qid, k=k, **CONVENTIONS["trec_eval"])
        assert plain != pytest.approx(expected, rel=1e-9)


# ranx -----------------------------------------------------------------------------


def _ranx_mean(y, score, qid, docid, metric):
    ranx = pytest.importorskip("ranx")
    qrels, run = {}, {}
    for label, s, q, d in zip(y, score, qid, docid):
        qrels.setdefault(f"q{q}", {})[str(d)] = int(label)
        run.setdefault(f"q{q}", {})[str(d)] = float(s)
    return float(ranx.evaluate(ranx.Qrels(qrels), ranx.Run(run), metric, make_comparable=False))


@pytest.mark.parametrize("k", [None, 1, 5, 20])
def test_ranx_preset(k):
    y, score, qid, _ = _ragged(9, ties=False, negative=True, max_items=40)
    docid = _docids(qid, 9)
    metric = "ndcg" if k is None else f"ndcg@{k}"
    expected = _ranx_mean(y, score, qid, docid, metric)
    got = ndcg_score(y, score, qid=qid, k=k, **CONVENTIONS["ranx"])
    assert got == pytest.approx(expected, rel=1e-12)


def test_ranx_preset_ties_in_short_queries():
    # ranx's sort keeps the input order of tied documents in short queries only
    # (numba's quicksort does insertion sort below 16 elements); longer queries
    # have no defined tie order, so are not compared.
    y, score, qid, _ = _tied(_ragged(10, ties=True, max_items=12))
    docid = _docids(qid, 10)
    expected = _ranx_mean(y, score, qid, docid, "ndcg@5")
    got = ndcg_score(y, score, qid=qid, k=5, **CONVENTIONS["ranx"])
    assert got == pytest.approx(expected, rel=1e-12)


def test_conventions_differ_on_the_same_input():
    # The reason for the presets: one input, several values (hand computation:
    # a query without relevant document counts 0 or 1; gain label or 2**label - 1).
    y, score = [[0, 0, 0], [1, 0, 2]], [[3, 2, 1], [1, 2, 3]]
    linear = 2 / (2 + 1 / np.log2(3))
    exponential = 3 / (3 + 1 / np.log2(3))
    assert ndcg_score(y, score, k=2, **CONVENTIONS["sklearn"]) == pytest.approx(linear / 2)
    assert ndcg_score(y, score, k=2, **CONVENTIONS["lightgbm"]) == pytest.approx(
        (1 + exponential) / 2
    )
    per_query = query_scores(y, score, k=2, **CONVENTIONS["xgboost"]).score
    np.testing.assert_allclose(per_query, [1.0, exponential])
