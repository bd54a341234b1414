"""Judgment pools (issue 14): the ideal DCG from every judged document of a query.

Expected values by hand (log2 discount) or from the definition written in the
test: unjudged documents removed from the list by hand, queries missing from
the ranking added by hand.
"""

import math

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, PredefinedSplit

from sklearn_ndcg import (
    JudgmentPool,
    dcg_score,
    make_ndcg_scorer,
    make_ranking,
    ndcg_score,
    query_scores,
)
from sklearn_ndcg._engine import RankingOptions

D = [1 / math.log2(r + 1) for r in range(1, 20)]  # discount of rank r at D[r - 1]


def test_a_missed_relevant_document_is_penalised():
    """One relevant document outside the candidates: list-based NDCG is blind to it."""
    pool = JudgmentPool(qid=[7, 7, 7], y_true=[1, 1, 0])  # the missed one is relevant
    # retrieved: the irrelevant one first, then one relevant
    got = ndcg_score([0, 1], [2, 1], qid=[7, 7], pool=pool)
    assert got == pytest.approx(D[1] / (D[0] + D[1]), rel=1e-15)
    assert ndcg_score([0, 1], [2, 1], qid=[7, 7]) == pytest.approx(D[1], rel=1e-15)


@pytest.mark.parametrize("k", [None, 1, 2, 5])
def test_pool_ideal_at_every_k(k):
    """The ideal DCG@k comes from the pool's labels, whatever k, also past the list."""
    pool = JudgmentPool(qid=["q"] * 5, y_true=[3, 2, 2, 1, 0])
    ranked = [2, 0, 1]  # three retrieved, in this order
    dcg = sum(g * D[i] for i, g in enumerate(ranked) if k is None or i < k)
    ideal = sum(g * D[i] for i, g in enumerate([3, 2, 2, 1, 0]) if k is None or i < k)
    got = ndcg_score(ranked, [3, 2, 1], qid=["q"] * 3, pool=pool, k=k)
    assert got == pytest.approx(dcg / ideal, rel=1e-14)


def test_unjudged_documents_zero_or_dropped():
    """NaN labels are unjudged: gain 0, or removed from the ranking (trec_eval -J)."""
    pool = JudgmentPool(qid=[1, 1, 1], y_true=[1, 1, 0])
    y_true = [np.nan, 1, np.nan, 1]
    y_score = [4, 3, 2, 1]
    zero = ndcg_score(y_true, y_score, qid=[1] * 4, pool=pool)
    assert zero == pytest.approx((D[1] + D[3]) / (D[0] + D[1]), rel=1e-15)
    dropped = ndcg_score(y_true, y_score, qid=[1] * 4, pool=pool, unjudged="drop")
    removed = ndcg_score([1, 1], [3, 1], qid=[1, 1], pool=pool)  # removed by hand
    assert dropped == removed == 1.0
    import pandas as pd

    nullable = pd.array([None, 1, None, 1], dtype="Float64")
    assert ndcg_score(nullable, y_score, qid=[1] * 4, pool=pool) == zero


def test_missing_and_unjudged_queries():
    pool = JudgmentPool(qid=[1, 1, 2, 3], y_true=[1, 0, 2, 0])
    # query 1 ranked; query 2 judged but not ranked; query 4 ranked but not judged
    y_true, y_score, qid = [1, 0, 1], [2, 1, 5], [1, 1, 4]
    dropped = query_scores(y_true, y_score, qid=qid, pool=pool)
    assert dropped.qid.tolist() == [1] and dropped.score.tolist() == [1.0]
    zero = query_scores(y_true, y_score, qid=qid, pool=pool, missing_queries="zero")
    assert zero.qid.tolist() == [1, 2, 3]
    np.testing.assert_array_equal(zero.score, [1.0, 0.0, 0.0])  # 3: nothing relevant
    assert ndcg_score(y_true, y_score, qid=qid, pool=pool, missing_queries="zero") == 1 / 3
    assert dcg_score(y_true, y_score, qid=qid, pool=pool) == 1.0


def test_pool_in_a_search_reaches_every_fold_whole():
    """Re-ranking: relevant documents the retriever missed are only in the pool."""
    X, y, qid = make_ranking(n_queries=30, random_state=0)
    missed_qid = np.repeat(np.unique(qid), 2)
    pool = JudgmentPool(np.concatenate([qid, missed_qid]), np.concatenate([y, np.full(60, 3.0)]))
    cv = PredefinedSplit(qid % 3)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            Ridge(), {"alpha": [0.1, 1e4]}, cv=cv, scoring=make_ndcg_scorer(k=5)
        ).fit(X, y, qid=qid, pool=pool)
    for fold, (train, test) in enumerate(cv.split()):
        for i, alpha in enumerate([0.1, 1e4]):
            y_score = Ridge(alpha=alpha).fit(X[train], y[train]).predict(X[test])
            expected = ndcg_score(y[test], y_score, qid=qid[test], k=5, pool=pool)
            assert search.cv_results_[f"split{fold}_test_score"][i] == expected
            assert expected < ndcg_score(y[test], y_score, qid=qid[test], k=5)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"y_true": [[1, 0]], "y_score": [[1, 0]]}, ValueError, "long-format"),
        ({"qid": ["a", "a"]}, TypeError, "cannot be compared"),
        ({"qid": [5, 5]}, ValueError, "no query of the ranking is in the pool"),
        ({"y_true": [1, np.inf]}, ValueError, "y_true contains missing or infinite"),
        (
            {"sample_weight": [1, 1], "missing_queries": "zero"},
            ValueError,
            "sample_weight cannot weigh",
        ),
        ({"unjudged": "keep"}, ValueError, "'unjudged' parameter"),
        (
            {"y_true": [1, np.nan], "y_score": [-np.finfo(float).max, 0], "unjudged": "drop"},
            ValueError,
            "y_score holds the lowest float64",
        ),
        ({"pool": ([1], [1])}, ValueError, "'pool' parameter"),
    ],
)
def test_bad_pool_input(kwargs, error, match):
    call = {
        "y_true": [1, 0],
        "y_score": [2, 1],
        "qid": [1, 1],
        "pool": JudgmentPool([1, 1], [1, 0]),
        **kwargs,
    }
    with pytest.raises(error, match=match):
        ndcg_score(call.pop("y_true"), call.pop("y_score"), **call)


@pytest.mark.parametrize(
    "qid, y_true, match",
    [
        ([1, 2], [1], "has 2 entries but the pool's y_true has 1"),
        ([1, None], [1, 0], "qid contains missing"),
        ([1, 2], [1, np.nan], "the pool's y_true contains missing"),
        ([], [], "one label per judged document"),
    ],
)
def test_bad_pool(qid, y_true, match):
    with pytest.raises(ValueError, match=match):
        JudgmentPool(qid, y_true)


def test_a_pool_of_one_judgment():
    # hand: the one relevant document (label 2) ranked second; ideal: it first
    pool = JudgmentPool(qid=[4], y_true=[2])
    assert ndcg_score([2, 0], [1, 2], qid=[4, 4], pool=pool) == pytest.approx(D[1], rel=1e-15)


def test_labels_beyond_the_pool_name_the_label_in_excess():
    """Query 1 ranks label 1 once (as the pool holds it) and label 2 twice (the pool
    holds one): the error is about label 2, not label 1."""
    pool = JudgmentPool(qid=[1, 1], y_true=[1, 2])
    match = (
        r"query 1 has 2 ranked documents labelled 2 \(e\.g\. the document at row 2\) but "
        r"the pool holds 1 judged document\(s\) with that label"
    )
    with pytest.raises(ValueError, match=match):
        ndcg_score([1, 2, 2], [3, 2, 1], qid=[1, 1, 1], pool=pool)


def test_pool_is_read_only_and_inputs_unchanged():
    qid, y_true = np.array([1, 1, 2]), np.array([1.0, 0.0, 2.0])
    pool = JudgmentPool(qid, y_true)
    qid[0], y_true[0] = 9, 9.0  # the pool keeps its own copy
    assert pool.qid.tolist() == [1, 1, 2] and pool.y_true.tolist() == [1.0, 0.0, 2.0]
    with pytest.raises(ValueError):
        pool.y_true[0] = 5.0
    assert repr(pool) == "JudgmentPool(n_queries=2, n_judgments=3)"


def test_dropped_unjudged_with_averaged_ties_and_many_query_sizes():
    """Dropping unjudged documents equals removing them by hand, also when their
    group of (lowest) scores is cut at k and queries of many sizes share blocks
    (found by the trec-eval work: padding once counted as tied members)."""
    rng = np.random.default_rng(0)
    sizes = np.arange(1, 40)
    qid = np.repeat(np.arange(39), sizes)
    y_true = rng.integers(0, 3, qid.shape[0]).astype(float)
    y_score = rng.integers(0, 4, qid.shape[0]).astype(float)
    judged = rng.random(qid.shape[0]) < 0.5
    pool = JudgmentPool(qid[judged], y_true[judged])
    with_nan = np.where(judged, y_true, np.nan)
    for k in (1, 2, 5):
        dropped = query_scores(with_nan, y_score, qid=qid, pool=pool, unjudged="drop", k=k)
        removed = query_scores(y_true[judged], y_score[judged], qid=qid[judged], pool=pool, k=k)
        kept = np.isin(dropped.qid, removed.qid)
        np.testing.assert_allclose(dropped.score[kept], removed.score, rtol=1e-12)
        assert (dropped.score[~kept] == 0).all()  # nothing judged was retrieved


@pytest.mark.parametrize("ties", RankingOptions.TIE_RULES)
def test_dropped_unjudged_never_sort_after_the_padding(ties):
    """Dropped unjudged documents once scored -inf, as the padding of the blocks does;
    the order of equal scores is not defined (numpy 1's argsort beyond 16 columns,
    numpy 2's in longer rows; lexsort by gain for "pessimistic"), so a padding cell
    could take a dropped document's place, and its gain of -inf gave an overflow
    error. 33 query sizes up to 272: queries share padded blocks."""
    sizes = np.arange(2, 35) * 8
    qid = np.repeat(sizes, sizes)
    last = np.cumsum(sizes) - 1
    y_true = np.full(qid.shape[0], np.nan)  # unjudged, scored 3: dropped
    y_true[last - 1], y_true[last] = 1.0, 0.0
    y_score = np.full(qid.shape[0], 3.0)
    y_score[last - 2] = -np.finfo(float).max  # a dropped document's score does not matter
    y_score[last - 1], y_score[last] = 1.0, 2.0  # the relevant one second
    pool = JudgmentPool(np.repeat(sizes, 2), np.tile([0.0, 1.0], sizes.shape[0]))
    result = query_scores(y_true, y_score, qid=qid, pool=pool, unjudged="drop", ties=ties)
    # hand: every query ranks [0, 1] once its unjudged documents are removed; ideal 1
    assert result.qid.tolist() == sizes.tolist()
    np.testing.assert_allclose(result.score, D[1], rtol=1e-15)


def test_negative_pool_gains_do_not_lower_the_ideal():
    """A system need not retrieve the pool's bad documents: the ideal DCG counts
    only positive gains (as trec_eval does); the bad document in the list costs."""
    penalise = {1: 1.0, 0: 0.0, -1: -1.0}
    pool = JudgmentPool(qid=[1, 1, 1], y_true=[1, 0, -1])
    got = ndcg_score([1, -1], [2, 1], qid=[1, 1], pool=pool, gain=penalise)
    assert got == pytest.approx((1 - D[1]) / 1.0, rel=1e-15)  # ideal: the good one alone


@pytest.mark.parametrize("level", [2, 100])  # 100: labels too sparse to count densely
def test_labels_beyond_the_pool_are_refused_whatever_the_other_queries_hold(level):
    """Query 1 ranks three documents labelled ``level``; its pool judges one so. By
    hand: three relevant documents against one judged is an NDCG above 1, refused.
    The pool's query 9, not ranked, holds two more documents with that label: they
    must not count for query 1."""
    pool = JudgmentPool(qid=[1, 9, 9, 1], y_true=[level, level, level, 0])
    y_true, y_score, qid = [level, level, level], [3.0, 2.0, 1.0], [1, 1, 1]
    with pytest.raises(ValueError, match=r"y_true contradicts the pool: query 1 has 3 ranked"):
        ndcg_score(y_true, y_score, qid=qid, pool=pool)


# Spark's RankingMetrics example (RankingMetricsSuite in apache/spark, mllib/src/test/scala/
# org/apache/spark/mllib/evaluation/RankingMetricsSuite.scala): predicted ids in rank order
# and the set of relevant ids; the last set is empty. A pool exploded from the sets has no
# row for that query.
SPARK_PREDICTED = (
    [1, 6, 2, 7, 8, 3, 9, 10, 4, 5],
    [4, 1, 5, 6, 2, 7, 3, 8, 9, 10],
    [1, 2, 3, 4, 5],
)
SPARK_RELEVANT = ([1, 2, 3, 4, 5], [1, 2, 3], [])


def _spark_example():
    qid = np.repeat([0, 1, 2], [len(p) for p in SPARK_PREDICTED])
    y_true = [1.0 if d in r else np.nan for p, r in zip(SPARK_PREDICTED, SPARK_RELEVANT) for d in p]
    y_score = [-float(rank) for p in SPARK_PREDICTED for rank in range(len(p))]
    pool_qid = [q for q, r in enumerate(SPARK_RELEVANT) for _ in r]
    return np.asarray(y_true), np.asarray(y_score), qid, JudgmentPool(pool_qid, [1.0] * 8)


def test_unjudged_queries_zero_scores_a_query_the_pool_lacks():
    """Hand computation at k=3: query 0 ranks relevant, not, relevant: (1 + D3) / (1 + D2 + D3);
    query 1 not, relevant, not: D2 / (1 + D2 + D3); the empty one 0. Spark's ndcgAt(3) is
    their mean over 3 queries, 1/3 (queries 0 and 1 sum to 1); left out it is 1/2."""
    y_true, y_score, qid, pool = _spark_example()
    ideal = D[0] + D[1] + D[2]
    expected = [(D[0] + D[2]) / ideal, D[1] / ideal, 0.0]
    assert sum(expected) == pytest.approx(1.0, abs=1e-15)
    options = RankingOptions(k=3, ties="first", pool=pool, unjudged_queries="zero")
    from sklearn_ndcg._engine import query_values, stage

    result = query_values(stage(y_true, y_score, options, qid=qid), options)
    assert result.ids.tolist() == [0, 1, 2]
    np.testing.assert_allclose(result.values, expected, rtol=0, atol=1e-15)
    kwargs = dict(qid=qid, k=3, ties="first", pool=pool)
    assert ndcg_score(y_true, y_score, unjudged_queries="zero", **kwargs) == pytest.approx(1 / 3)
    assert ndcg_score(y_true, y_score, **kwargs) == pytest.approx(1 / 2)  # "drop", the default
    # the pool and the inputs are left as they were
    assert pool.qid.tolist() == [0] * 5 + [1] * 3 and np.isnan(y_true).sum() == 25 - 8


def test_unjudged_queries_with_missing_queries_dcg_and_minmax():
    """Both directions at once, DCG, min-max NDCG, ids of another integer type."""
    pool = JudgmentPool(qid=np.array([1, 1, 2], dtype=np.int64), y_true=[1, 0, 2])
    # query 1 ranked and judged, 2 judged only, 4 ranked only (unjudged, label 0)
    y_true, y_score = [1, 0, np.nan, 0], [2, 1, 5, 4]
    qid = np.array([1, 1, 4, 4], dtype=np.int32)
    both = query_scores(
        y_true, y_score, qid=qid, pool=pool, missing_queries="zero", unjudged_queries="zero"
    )
    assert both.qid.tolist() == [1, 2, 4]
    np.testing.assert_array_equal(both.score, [1.0, 0.0, 0.0])
    minmax = query_scores(
        y_true, y_score, qid=qid, pool=pool, normalize="minmax", unjudged_queries="zero"
    )
    np.testing.assert_array_equal(minmax.score, [1.0, 0.0])
    dcg = dcg_score(y_true, y_score, qid=qid, pool=pool, unjudged_queries="zero")
    assert dcg == 0.5  # (1 + 0) / 2 queries
    one = query_scores(
        y_true, y_score, qid=qid, pool=pool, unjudged_queries="zero", zero_division=1.0
    )
    np.testing.assert_array_equal(one.score, [1.0, 1.0])  # no relevant document: zero_division


def test_unjudged_queries_zero_refuses_a_relevant_label_the_pool_lacks():
    pool = JudgmentPool(qid=[1, 1], y_true=[1, 0])
    with pytest.raises(ValueError, match="query 4 has 1 ranked documents labelled 1"):
        ndcg_score([1, 1], [2, 1], qid=[1, 4], pool=pool, unjudged_queries="zero")
    assert ndcg_score([1, 1], [2, 1], qid=[1, 4], pool=pool) == 1.0  # left out with "drop"


def test_unjudged_queries_is_checked_and_taken_without_a_pool():
    """Without a pool every query is judged by its own labels: nothing changes (the
    Spark preset sets the option wherever it goes)."""
    y, s, q = [1, 0, 0, 0], [2, 1, 2, 1], [1, 1, 2, 2]
    assert ndcg_score(y, s, qid=q, unjudged_queries="zero") == ndcg_score(y, s, qid=q) == 0.5
    with pytest.raises(ValueError, match="unjudged_queries"):
        ndcg_score(y, s, qid=q, unjudged_queries="keep")
