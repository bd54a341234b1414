"""query_scores with trec_eval's measure names (metrics/_measure_scores.py): one name or
several, from one staging; references by hand computation and, for several names,
the same names asked one at a time."""

import numpy as np
import pytest

from sklearn_ndcg import CONVENTIONS, JudgmentPool, evaluate_run, query_scores

# two queries; b: relevance 1, 0, 0 at scores .9, .1, .5; a: 1 and 0 tied at .4
Y = [1, 0, 0, 1, 0]
S = [0.9, 0.1, 0.5, 0.4, 0.4]
Q = ["b", "b", "b", "a", "a"]


@pytest.mark.parametrize(
    "metric, k, expected",
    [
        # hand computation, ties averaged over the two orders of query a
        ("recip_rank", None, [(1 + 1 / 2) / 2, 1.0]),
        ("recip_rank_1", None, [0.5, 1.0]),
        ("map", None, [0.75, 1.0]),
        ("P_1", None, [0.5, 1.0]),
        ("P", 2, [0.5, 0.5]),
        ("recall_1", None, [0.5, 1.0]),
        ("success_1", None, [0.5, 1.0]),
        ("map_cut_1", None, [0.5, 1.0]),
        ("P.2", None, [0.5, 0.5]),  # pytrec_eval's spelling
    ],
)
def test_names(metric, k, expected):
    result = query_scores(Y, S, qid=Q, metric=metric, k=k)
    assert result.qid.tolist() == ["a", "b"]
    np.testing.assert_allclose(result.score, expected, rtol=0, atol=1e-15)


def test_several_names_equal_one_at_a_time():
    rng = np.random.default_rng(3)
    qid = np.repeat(np.arange(30), 9)
    y, s = rng.integers(0, 3, qid.shape[0]), rng.integers(0, 5, qid.shape[0])
    names = ["ndcg", "ndcg_cut_5", "dcg", "map", "map_cut_3", "recip_rank", "P_5", "recall_3"]
    together = query_scores(y, s, qid=qid, metric=names)
    assert list(together) == names
    for name in names:
        alone = query_scores(y, s, qid=qid, metric=name)
        # NDCG at several cutoffs sums by running sums: its last bit may differ
        np.testing.assert_allclose(together[name].score, alone.score, rtol=0, atol=1e-15)
    # ndcg_cut_5 is ndcg at k=5
    np.testing.assert_allclose(
        together["ndcg_cut_5"].score, query_scores(y, s, qid=qid, k=5).score, atol=1e-15
    )


@pytest.mark.parametrize("ties", ["first", "average"])
@pytest.mark.parametrize("with_pool", [False, True])
def test_one_ndcg_cutoff_by_name_is_ndcg_score_at_k(ties, with_pool):
    # metric="ndcg_cut_10" alone takes ndcg_score(k=10)'s way (its top 10 selected):
    # the same values, bit for bit, as k=10 and as the name among others
    rng = np.random.default_rng(5)
    qid = np.repeat(np.arange(40), 30)
    y, s = rng.integers(0, 4, qid.shape[0]), rng.integers(0, 8, qid.shape[0])
    given = {"qid": qid, "ties": ties}
    if with_pool:  # the ranked documents' judgments and two the ranking lacks
        given["pool"] = JudgmentPool(np.concatenate([qid, [0, 1]]), np.concatenate([y, [3, 2]]))
    by_k = query_scores(y, s, k=10, **given)
    by_name = query_scores(y, s, metric="ndcg_cut_10", **given)
    among = query_scores(y, s, metric=["ndcg_cut_10", "ndcg_cut_5"], **given)["ndcg_cut_10"]
    assert 0 < by_k.score.mean() < 1
    np.testing.assert_array_equal(by_name.score, by_k.score)
    np.testing.assert_allclose(among.score, by_k.score, rtol=0, atol=1e-15)


def test_pool_and_relevance_level():
    # hand computation: level 2 relevant; the pool holds two such documents of query 0
    pool = JudgmentPool([0, 0, 0, 0], [2, 1, 0, 2])
    result = query_scores([2, 1, 0], [3, 2, 1], qid=[0, 0, 0], pool=pool,
                          metric=["recall", "map"], relevance_level=2)  # fmt: skip
    assert result["recall"].score.tolist() == [0.5] and result["map"].score.tolist() == [0.5]


def test_float_labels():
    # hand computation: 0.5 is below the level 1, 1.5 above: first relevant at rank 2
    result = query_scores([0.5, 1.5], [2.0, 1.0], qid=[0, 0], metric="recip_rank")
    assert result.score.tolist() == [0.5]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"metric": "infAP"}, "unknown metric 'infAP'"),
        ({"metric": "P"}, "'P' needs a cutoff"),
        ({"metric": "P_5", "k": 3}, "has cutoff 5 but k=3"),
        ({"metric": []}, "non-empty list of names"),
        ({"metric": "map", "document_weight": [1, 1, 1, 1, 1]}, "document_weight shape"),
        ({"metric": "map", "bounds": True}, "bounds=True needs a pool"),
    ],
)
def test_bad_input(kwargs, message):
    with pytest.raises(ValueError, match=message):
        query_scores(Y, S, qid=Q, **kwargs)


@pytest.mark.parametrize(
    "options",
    [
        {"gain": "exponential"},
        {"discount": "reciprocal"},
        {"normalize": "minmax"},
        {"log_base": 10.0},
        {"gain": lambda y: 2 * y},
    ],
)
def test_the_measures_of_binary_relevance_ignore_ndcg_options(options):
    # one rule (query_scores and evaluate_run): map, P... read no gain option, so a
    # preset or NDCG's options combine with them; their values are those of the defaults
    names = ["map", "P_1", "recip_rank", "recall_1", "success_1"]
    plain = query_scores(Y, S, qid=Q, metric=names)
    shaped = query_scores(Y, S, qid=Q, metric=[*names, "ndcg"], **options)
    for name in names:
        np.testing.assert_array_equal(shaped[name].score, plain[name].score)
    alone = query_scores(Y, S, qid=Q, metric="ndcg", **options)
    np.testing.assert_array_equal(shaped["ndcg"].score, alone.score)


@pytest.mark.parametrize("m, r", [(100_000, 1), (1_000, 3), (7, 7)])
def test_a_constant_scorer_by_hand(m, r):
    """One query of ``m`` documents, all tied (a constant scorer), ``r`` relevant: the
    expected reciprocal rank over the orders of the tie is sum_j P(first = j) / j with
    P(first = j) = C(m - j, r - 1) / C(m, r), and success@k is 1 - C(m - r, k) / C(m, k)
    (hand computation, in fractions, summed exactly rounded)."""
    import math
    from fractions import Fraction
    from math import comb

    label = np.zeros((1, m))
    label[0, np.linspace(0, m - 1, r).astype(int)] = 1.0
    names = ["recip_rank", "success_10", "recip_rank_5"]
    result = query_scores(label, np.zeros((1, m)), metric=names)
    first = [Fraction(comb(m - j, r - 1), comb(m, r)) for j in range(1, m - r + 2)]
    rr = math.fsum(float(p) / j for j, p in enumerate(first, 1))  # exactly rounded sums
    rr5 = math.fsum(float(p) / j for j, p in enumerate(first[:5], 1))
    top = min(10, m)  # success@10 of fewer documents: all of them
    success = 1 - Fraction(comb(m - r, top), comb(m, top))
    assert result["recip_rank"].score == pytest.approx(float(rr), rel=1e-12)
    assert result["recip_rank_5"].score == pytest.approx(float(rr5), rel=1e-12)
    assert result["success_10"].score == pytest.approx(float(success), rel=1e-12)


def _preset_input():
    """A run (tie-free scores: every preset's tie rule applies, "docno" too) and its
    qrels, as tables and as query_scores' arrays with a pool."""
    rng = np.random.default_rng(11)
    qid = np.repeat(["q1", "q2", "q3", "q4"], 8)
    docno = np.array([f"d{i}" for i in range(qid.shape[0])])
    score = rng.permutation(qid.shape[0]).astype(float)
    level = rng.integers(0, 3, qid.shape[0]).astype(float)
    judged = rng.random(qid.shape[0]) < 0.8
    qrels = (qid[judged], docno[judged], level[judged])
    label = np.where(judged, level, np.nan)
    return (qid, docno, score), qrels, (label, score, qid, JudgmentPool(qid[judged], level[judged]))


@pytest.mark.parametrize("preset", sorted(CONVENTIONS))
def test_every_preset_combines_with_every_measure_at_both_doors(preset):
    # the binary measures ignore the preset's gain and discount (they read its ties and
    # zero_division); NDCG reads it all: each name as asked alone with the preset
    run, qrels, (label, score, qid, pool) = _preset_input()
    names = ["ndcg_cut_5", "map", "recip_rank", "P_5", "recall_10", "ndcg"]
    options = dict(CONVENTIONS[preset])
    rank_options = {k: v for k, v in options.items() if k in ("ties", "zero_division")}
    arrays = query_scores(label, score, qid=qid, pool=pool, metric=names, **options)
    for name in names:
        alone = query_scores(label, score, qid=qid, pool=pool, metric=name, **options)
        np.testing.assert_array_equal(arrays[name].score, alone.score)
        if not name.startswith("ndcg"):
            plain = query_scores(label, score, qid=qid, pool=pool, metric=name, **rank_options)
            np.testing.assert_array_equal(arrays[name].score, plain.score)
    if "unjudged_queries" in options:  # evaluate_run scores the judged queries only
        options.pop("unjudged_queries")
    tables = evaluate_run(run, qrels, metric=names, **options)
    for name in names:
        np.testing.assert_allclose(tables[name].per_query.score, arrays[name].score, atol=1e-15)
        assert tables[name].ties == arrays[name].ties == options["ties"]
