"""The presets of CONVENTIONS against the libraries they reproduce.

Expected values come from the libraries themselves (skipped when one is not
installed): scikit-learn, LightGBM's and XGBoost's ``ndcg`` eval metrics,
pytrec_eval's ``ndcg`` / ``ndcg_cut`` and ranx's ``ndcg``, with and without
judgment pools. Elasticsearch's ``_rank_eval`` and the top-k NDCG of
recommender toolkits (RecBole, Microsoft Recommenders, LensKit) cannot run here:
their formulas, as their sources compute them, are written out in the tests.
"""

import inspect
import math

import numpy as np
import pytest
import sklearn.metrics

from sklearn_ndcg import (
    CONVENTIONS,
    JudgmentPool,
    ndcg_score,
    positive_part_gain,
    query_scores,
)

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
    if CONVENTIONS[name]["ties"] == "docno":  # tied scores need document ids
        with pytest.raises(ValueError, match="ties='docno'"):
            ndcg_score(y, score, qid=qid, k=5, **CONVENTIONS[name])
        y, score, qid, _ = _ragged(0, ties=False)
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
    if ties:  # the doc-id tie-break matters on this data: without doc ids, an error
        with pytest.raises(ValueError, match="ties='docno'.*needs document ids"):
            ndcg_score(y, score, qid=qid, k=k, **CONVENTIONS["trec_eval"])


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


# Judgment pools: trec_eval and ranx against their qrels ----------------------------


def _pooled(seed, *, n_queries=30):
    """Qrels and a run with everything a TREC evaluation meets.

    The pool: queries 0..n_queries-1 with 1..15 judged documents each, labels
    -1..4; queries 2 and 7 have no relevant one. The run: about 60% of each
    query's judged documents (the rest are relevant documents it missed or
    non-relevant ones) and 0..4 documents nobody judged (label NaN); queries 4, 9
    and 13 get no results at all; queries 100 and 101 are ranked but not judged.
    Returns ``(pool_qid, pool_docid, pool_label)`` and ``(qid, docid, label)``.
    """
    rng = np.random.default_rng(seed)
    pool, run = [], []
    for q in range(n_queries):
        n = int(rng.integers(1, 16))
        docs = [f"d{i:02d}" for i in rng.permutation(40)[:n]]
        labels = rng.integers(-1, 1 if q in (2, 7) else 5, n)
        pool += [(q, d, float(label)) for d, label in zip(docs, labels)]
        if q in (4, 9, 13):
            continue
        retrieved = [(q, d, float(label)) for d, label in zip(docs, labels) if rng.random() < 0.6]
        unjudged = [(q, f"u{i:02d}", np.nan) for i in rng.permutation(40)[: rng.integers(0, 5)]]
        run += retrieved + unjudged or [(q, "u99", np.nan)]
    run += [(q, f"d{i:02d}", np.nan) for q in (100, 101) for i in range(3)]
    pool_qid, pool_docid, pool_label = (np.array(column) for column in zip(*pool))
    qid, docid, label = (np.array(column) for column in zip(*run))
    return (pool_qid, pool_docid, pool_label), (qid, docid, label)


def _pooled_scores(qid, *, ties, seed):
    rng = np.random.default_rng(seed)
    if ties:
        return rng.integers(0, 3, qid.shape[0]).astype(np.float64)
    return rng.permutation(qid.shape[0]) / 8


def _trec_dicts(pool, qid, docid, score):
    """pytrec_eval's and ranx's input: {query: {doc: label}} and {query: {doc: score}}."""
    qrels, run = {}, {}
    for q, d, label in zip(*pool):
        qrels.setdefault(f"q{q}", {})[str(d)] = int(label)
    for q, d, s in zip(qid, docid, score):
        run.setdefault(f"q{q}", {})[str(d)] = float(s)
    return qrels, run


def _check_per_query(got, expected):
    """query_scores against a library's {query: value}: the same queries, the same values."""
    assert {f"q{q}" for q in got.qid} == set(expected)
    want = [expected[f"q{q}"] for q in got.qid]
    np.testing.assert_allclose(got.score, want, rtol=1e-12, atol=0)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("k", [None, 1, 5, 20])
@pytest.mark.parametrize("judged_only", [False, True], ids=["", "-J"])
@pytest.mark.parametrize("complete", [False, True], ids=["", "-c"])
def test_trec_eval_preset_with_pool(ties, k, judged_only, complete):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    pool, (qid, docid, y) = _pooled(11)
    score = _pooled_scores(qid, ties=ties, seed=11)
    qrels, run = _trec_dicts(pool, qid, docid, score)
    if complete:  # -c: a query without results is evaluated as an empty ranking
        for q in qrels:
            run.setdefault(q, {})
    measure = "ndcg" if k is None else f"ndcg_cut.{k}"
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {measure}, judged_docs_only_flag=judged_only)
    key = measure.replace(".", "_")
    expected = {q: values[key] for q, values in evaluator.evaluate(run).items()}
    if judged_only:  # -J also removes documents judged < 0 ("pooled, not judged")
        y = np.where(y < 0, np.nan, y)
    options = {
        "k": k,
        "pool": JudgmentPool(pool[0], pool[2]),
        "unjudged": "drop" if judged_only else "zero",
        "missing_queries": "zero" if complete else "drop",
        **CONVENTIONS["trec_eval"],
    }
    tiebreak = _trec_tiebreak(score, docid)
    got = query_scores(y, tiebreak, qid=qid, **options)
    _check_per_query(got, expected)
    if ties:  # the doc-id tie-break decides on this data: without doc ids, an error
        with pytest.raises(ValueError, match="ties='docno'.*needs document ids"):
            query_scores(y, score, qid=qid, **options)
    mean = float(np.mean(list(expected.values())))
    assert ndcg_score(y, tiebreak, qid=qid, **options) == pytest.approx(mean, rel=1e-12)


def test_trec_eval_pool_not_the_old_padding_recipe():
    # The recipe the docs gave before the pool: rank the judged documents the run
    # missed last. They then count in the DCG whenever k exceeds the run's length.
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q": {"a": 0, "b": 1, "c": 1, "d": 1}}
    run = {"q": {"a": 2.0}}  # one non-relevant document retrieved
    result = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
    expected = result["q"]["ndcg_cut_10"]
    assert expected == 0.0  # hand computation: nothing relevant retrieved
    pool = JudgmentPool(["q"] * 4, [0, 1, 1, 1])
    got = ndcg_score([0], [2.0], qid=["q"], k=10, pool=pool, **CONVENTIONS["trec_eval"])
    assert got == expected
    padded = ndcg_score([0, 1, 1, 1], [2, -1, -2, -3], qid=["q"] * 4, k=10)
    assert padded > 0.5


@pytest.mark.parametrize("k", [None, 1, 5, 20])
def test_ranx_preset_with_pool(k):
    # Tie-free scores: ranx's order of tied documents is not defined.
    ranx = pytest.importorskip("ranx")
    pool, (qid, docid, y) = _pooled(12)
    score = _pooled_scores(qid, ties=False, seed=12)
    qrels, run = _trec_dicts(pool, qid, docid, score)
    metric = "ndcg" if k is None else f"ndcg@{k}"
    ranx_run = ranx.Run(run)
    # make_comparable: queries of the qrels without results score 0, those of
    # the run without qrels are left out
    ranx.evaluate(ranx.Qrels(qrels), ranx_run, metric, make_comparable=True)
    expected = dict(ranx_run.scores[metric])
    got = query_scores(
        y,
        score,
        qid=qid,
        k=k,
        pool=JudgmentPool(pool[0], pool[2]),
        missing_queries="zero",
        **CONVENTIONS["ranx"],
    )
    _check_per_query(got, expected)


# Elasticsearch _rank_eval and top-k recommendation: their published formulas -------


def _elasticsearch_ndcg(hits, ratings):
    """Mean over requests of _rank_eval's "dcg" with "normalize": true.

    As DiscountedCumulativeGain.evaluate (Elasticsearch, modules/rank-eval)
    computes it, per request with hits ``h_1..h_n`` (n <= k) and ratings ``r``:

        DCG  = sum over i <= n of (2**r(h_i) - 1) / (ln(i + 1) / ln 2), unrated hits 0
        IDCG = the same over the request's ratings sorted decreasing, first
               min(n, number of rated documents)
        NDCG = DCG / IDCG, or 0 if IDCG is 0; then the mean over requests.
    """
    per_request = []
    for request, rated in ratings.items():
        returned = hits.get(request, [])

        def dcg(ratings_in_order):
            return sum(
                (2.0**r - 1) / (math.log(i + 1) / math.log(2))
                for i, r in enumerate(ratings_in_order, start=1)
                if r is not None
            )

        found = dcg([rated.get(doc) for doc in returned])
        ideal = dcg(sorted(rated.values(), reverse=True)[: min(len(returned), len(rated))])
        per_request.append(found / ideal if ideal != 0 else 0.0)
    return float(np.mean(per_request))


def _search(seed, k, *, n_requests=25):
    """Rated documents per request and the hits of a search of size k.

    Every request matches enough documents to return k hits, or at least as many
    as it has rated documents; some rated documents are not among the hits, and
    requests 3 and 8 return no hits at all.
    """
    rng = np.random.default_rng(seed)
    ratings, hits = {}, {}
    for request in range(n_requests):
        n_rated = int(rng.integers(1, 12))
        rated = [f"r{i:02d}" for i in rng.permutation(30)[:n_rated]]
        ratings[request] = dict(zip(rated, rng.integers(0, 4, n_rated).tolist()))
        if request in (3, 8):
            continue
        found = [doc for doc in rated if rng.random() < 0.6]
        unrated = [f"u{i:02d}" for i in rng.permutation(30)[: n_rated + rng.integers(0, 12)]]
        matches = list(rng.permutation(found + unrated))
        hits[request] = matches[:k]
        assert len(hits[request]) >= min(k, n_rated)
    return ratings, hits


def _long_format(ratings, hits):
    """Hits as ndcg_score rows (score: the hit order), and the pool of all ratings."""
    qid = [q for q, returned in hits.items() for _ in returned]
    y = [ratings[q].get(doc, np.nan) for q, returned in hits.items() for doc in returned]
    score = [-i for returned in hits.values() for i in range(len(returned))]
    pool_qid = [q for q, rated in ratings.items() for _ in rated]
    pool_y = [r for rated in ratings.values() for r in rated.values()]
    return (np.array(y, dtype=np.float64), np.array(score, dtype=np.float64), np.array(qid)), (
        JudgmentPool(pool_qid, pool_y)
    )


@pytest.mark.parametrize("k", [1, 3, 10])
def test_elasticsearch_preset(k):
    ratings, hits = _search(13, k)
    (y, score, qid), pool = _long_format(ratings, hits)
    expected = _elasticsearch_ndcg(hits, ratings)
    got = ndcg_score(
        y, score, qid=qid, k=k, pool=pool, missing_queries="zero", **CONVENTIONS["elasticsearch"]
    )
    assert got == pytest.approx(expected, rel=1e-12)


def test_elasticsearch_cuts_its_ideal_at_the_number_of_hits():
    # A request with three relevant rated documents returns one hit (it matched
    # nothing else) with k=10: Elasticsearch's ideal DCG stops at one document.
    ratings, hits = {"r": {"a": 1, "b": 1, "c": 1}}, {"r": ["a"]}
    assert _elasticsearch_ndcg(hits, ratings) == 1.0
    (y, score, qid), pool = _long_format(ratings, hits)
    preset = CONVENTIONS["elasticsearch"]
    # hand computation: 1 / (1 + 1/log2(3) + 1/2)
    penalised = 1 / (1 + 1 / np.log2(3) + 1 / 2)
    assert ndcg_score(y, score, qid=qid, k=10, pool=pool, **preset) == pytest.approx(penalised)
    assert ndcg_score(y, score, qid=qid, k=1, pool=pool, **preset) == 1.0


def _top_k_ndcg(recommended, held_out, k, log=math.log2, lenskit=False):
    """Binary top-k NDCG of recommendation lists, mean over the held-out users.

    RecBole's NDCG (recbole/evaluator/metrics.py) and Microsoft Recommenders'
    ndcg_at_k (score_type="binary"; natural log by default, which cancels):

        NDCG@K(u) = sum over i <= K, item i of u's list held out of 1 / log(i + 1)
                    / sum over i <= min(|R(u)|, K) of 1 / log(i + 1)

    A user without a list scores 0 (Recommenders). ``lenskit``: LensKit's NDCG,
    whose discount of rank i is max(1, log2(i)) instead of log2(i + 1).
    """

    def discount(i):
        return max(1.0, math.log2(i)) if lenskit else log(i + 1)

    per_user = []
    for user, items in held_out.items():
        top = recommended.get(user, [])[:k]
        dcg = sum(1 / discount(i) for i, item in enumerate(top, start=1) if item in items)
        ideal = sum(1 / discount(i) for i in range(1, min(len(items), k) + 1))
        per_user.append(dcg / ideal)
    return float(np.mean(per_user))


def _recommendations(seed, *, n_users=30, without_lists=()):
    """Held-out items per user and ranked lists of 5 to 20 items from 60."""
    rng = np.random.default_rng(seed)
    held_out, recommended = {}, {}
    for user in range(n_users):
        held_out[user] = {f"i{i:02d}" for i in rng.permutation(60)[: rng.integers(1, 12)]}
        if user not in without_lists:
            recommended[user] = [f"i{i:02d}" for i in rng.permutation(60)[: rng.integers(5, 21)]]
    return held_out, recommended


@pytest.mark.parametrize("k", [1, 5, 10, 30])
@pytest.mark.parametrize(
    "library, without_lists",
    [("RecBole", ()), ("Recommenders", (2, 11, 17)), ("LensKit", ())],
)
def test_recommender_preset(k, library, without_lists):
    held_out, recommended = _recommendations(14, without_lists=without_lists)
    rows = [(u, item) for u, items in recommended.items() for item in items]
    qid = np.array([u for u, _ in rows])
    # held-out items 1; others 0 or, for every third, unjudged (NaN): both gain 0
    y = np.array([1.0 if item in held_out[u] else 0.0 for u, item in rows])
    y[(y == 0) & (np.arange(y.shape[0]) % 3 == 0)] = np.nan
    score = np.array([-i for items in recommended.values() for i in range(len(items))], float)
    pool = JudgmentPool(
        [u for u, items in held_out.items() for _ in items],
        [1.0] * sum(len(items) for items in held_out.values()),
    )
    options = {**CONVENTIONS["recommender"], "missing_queries": "zero"}
    if library == "LensKit":
        options["discount"] = lambda r: 1 / np.maximum(np.log2(r), 1)
    log = math.log if library == "Recommenders" else math.log2
    expected = _top_k_ndcg(recommended, held_out, k, log=log, lenskit=library == "LensKit")
    got = ndcg_score(y, score, qid=qid, k=k, pool=pool, **options)
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
