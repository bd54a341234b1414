"""The measures of binary relevance (engine/_rank.py): reciprocal rank, average
precision, precision, recall and success from one order.

References: hand computation (trec_eval's definitions, m_recip_rank.c, m_map.c, m_P.c,
m_recall.c, m_success.c) for the tie-free rules, and for ``ties="average"`` the mean
over every permutation of the tied documents (brute force below), which the closed
forms of the module must equal.
"""

import itertools

import numpy as np
import pytest

from sklearn_ndcg._engine import JudgmentPool, RankingOptions, query_values, stage

MEASURES = RankingOptions.RANK_MEASURES[:5]  # the cutoff families (the others: test_official.py)


def _measure(rel: list, name: str, k: int | None, n_relevant: int) -> float:
    """trec_eval's definition on one ranked list of 0/1 relevance (top first)."""
    top = rel if k is None else rel[:k]
    if name == "P":
        return sum(top) / k
    if name == "recall":
        return sum(top) / n_relevant if n_relevant else 0.0
    if name == "success":
        return float(any(top))
    if name == "recip_rank":
        return next((1 / (i + 1) for i, r in enumerate(top) if r), 0.0)
    found, total = 0, 0.0
    for i, r in enumerate(top):  # map
        if r:
            found += 1
            total += found / (i + 1)
    return total / n_relevant if n_relevant else 0.0


def _brute_force(rel, score, name, k, n_relevant) -> float:
    """The mean over every order of the tied documents (all permutations)."""
    values = []
    for permutation in itertools.permutations(range(len(rel))):
        order = sorted(range(len(rel)), key=lambda i: (-score[i], permutation.index(i)))
        values.append(_measure([rel[i] for i in order], name, k, n_relevant))
    return float(np.mean(values))


def _values(y_true, y_score, qid, name, ties, ks=None, pool=None, level=1.0):
    options = RankingOptions(metric=name, ties=ties, pool=pool, relevance_level=level)
    staged = stage(np.asarray(y_true, float), np.asarray(y_score, float), options, qid=qid)
    return query_values(staged, options, ks=None if ks is None else np.asarray(ks))


@pytest.mark.parametrize("name", MEASURES)
def test_average_is_the_mean_over_every_order_of_the_ties(name):
    """Closed forms against brute force, on random queries of up to 6 documents."""
    rng = np.random.default_rng(49)
    ks = [1, 2, 4, 6]
    for _ in range(25):
        sizes = rng.integers(1, 7, size=3)
        qid = np.repeat(np.arange(3), sizes)
        rel = rng.integers(0, 2, qid.shape[0]).astype(float)
        score = rng.integers(0, 3, qid.shape[0]).astype(float)
        got = _values(rel, score, qid, name, "average", ks).values
        for q in range(3):
            rows = qid == q
            for j, k in enumerate(ks):
                expected = _brute_force(
                    list(rel[rows]), list(score[rows]), name, k, int(rel[rows].sum())
                )
                assert got[q, j] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "name, k, expected",
    [
        # hand computation: relevance 0, 1, 0, 1 in ranked order, 2 relevant
        ("recip_rank", None, 1 / 2),
        ("recip_rank", 1, 0.0),  # RR@1: the first relevant is below the cutoff
        ("map", None, (1 / 2 + 2 / 4) / 2),
        ("map", 3, (1 / 2) / 2),  # map_cut_3
        ("P", 3, 1 / 3),
        ("P", 10, 2 / 10),  # trec_eval divides by the cutoff, not by the ranked count
        ("recall", 2, 1 / 2),
        ("recall", None, 1.0),
        ("success", 1, 0.0),
        ("success", 2, 1.0),
    ],
)
def test_first_follows_trec_eval_definitions(name, k, expected):
    result = _values(
        [0, 1, 0, 1], [4, 3, 2, 1], np.zeros(4), name, "first", None if k is None else [k]
    )
    value = result.values[0] if k is None else result.values[0, 0]
    assert value == pytest.approx(expected, abs=1e-15)


def test_optimistic_and_pessimistic_bound_average():
    # hand computation: two tied documents, one relevant; RR 1, 1/2, and 3/4 on average
    y, s = [1, 0], [1.0, 1.0]
    q = np.zeros(2)
    assert _values(y, s, q, "recip_rank", "optimistic").values[0] == 1.0
    assert _values(y, s, q, "recip_rank", "pessimistic").values[0] == 0.5
    assert _values(y, s, q, "recip_rank", "average").values[0] == 0.75
    assert _values(y, s, q, "recip_rank", "first").values[0] == 1.0


def test_docno_refuses_tied_documents_of_different_relevance():
    with pytest.raises(ValueError, match="ties='docno'"):
        _values([1, 0], [1.0, 1.0], np.zeros(2), "map", "docno")
    # tied documents of equal relevance: their order does not matter
    assert _values([1, 1, 0], [1.0, 1.0, 0.5], np.zeros(3), "map", "docno").values[0] == 1.0


def test_relevance_level_and_pool():
    """Relevant: a label at least the level; recall and AP divide by the pool's count."""
    qid, y, s = np.zeros(3), [2, 1, 0], [3.0, 2.0, 1.0]
    assert _values(y, s, qid, "recall", "first", level=2).values[0] == 1.0
    pool = JudgmentPool(qid=[0, 0, 0, 0], y_true=[2, 1, 0, 2])  # a second level-2 document
    # hand computation: relevant at level 2: rank 1 of 2 in the pool
    assert _values(y, s, qid, "recall", "first", pool=pool, level=2).values[0] == 0.5
    assert _values(y, s, qid, "map", "first", pool=pool, level=2).values[0] == 0.5
    # at level 1: ranks 1 and 2 of the pool's 3 relevant documents
    assert _values(y, s, qid, "map", "first", pool=pool).values[0] == pytest.approx(2 / 3)


def test_several_measures_from_one_order():
    """``measures=``: the columns equal one measure at a time."""
    rng = np.random.default_rng(1)
    qid = np.repeat(np.arange(20), 7)
    y, s = rng.integers(0, 3, qid.shape[0]), rng.integers(0, 4, qid.shape[0])
    options = RankingOptions(metric="map", ties="average")
    staged = stage(y.astype(float), s.astype(float), options, qid=qid)
    requests = (("map", None), ("P", (1, 5)), ("recip_rank", None), ("success", (2,)))
    together = query_values(staged, options, measures=requests).values
    assert together.shape == (20, 5)
    np.testing.assert_array_equal(together[:, 0], _values(y, s, qid, "map", "average").values)
    np.testing.assert_array_equal(
        together[:, 1:3], _values(y, s, qid, "P", "average", [1, 5]).values
    )


@pytest.mark.parametrize("ties", RankingOptions.TIE_RULES)
def test_ndcg_and_dcg_from_the_same_order(ties):
    """``measures=`` with NDCG and DCG: the values of ``ks=`` and of the whole ranking,
    to the last bit, beside the measures of binary relevance, on queries of several
    sizes (padded blocks) with ties."""
    rng = np.random.default_rng(3)
    qid = rng.permutation(np.repeat(np.arange(30), rng.integers(1, 40, 30)))
    y = (rng.integers(0, 4, qid.shape[0]) * (rng.random(qid.shape[0]) < 0.5)).astype(float)
    s = np.round(rng.random(qid.shape[0]), 1)
    options = RankingOptions(ties=ties, zero_division=0.25)
    staged = stage(y, s, options, qid=qid)
    requests = (("ndcg", (1, 10)), ("map", None), ("dcg", None), ("ndcg", None), ("P", (3,)))
    together = query_values(staged, options.replace(metric="map"), measures=requests).values
    assert together.shape == (30, 6)
    ndcg_ks = query_values(staged, options, ks=np.array([1, 10])).values
    np.testing.assert_array_equal(together[:, :2], ndcg_ks)
    np.testing.assert_array_equal(together[:, 4], query_values(staged, options).values)
    dcg = query_values(staged, options.replace(metric="dcg")).values
    np.testing.assert_array_equal(together[:, 3], dcg)
    ap = query_values(staged, options.replace(metric="map")).values
    np.testing.assert_array_equal(together[:, 2], ap)
    precision = query_values(staged, options.replace(metric="P", k=3)).values
    np.testing.assert_array_equal(together[:, 5], precision)


def test_without_relevant_documents_zero_division():
    qid = np.zeros(2)
    for name in ("map", "recall"):
        options = RankingOptions(metric=name, zero_division=np.nan)
        staged = stage(np.zeros(2), np.array([1.0, 2.0]), options, qid=qid)
        assert np.isnan(query_values(staged, options).values[0])
    assert _values([0, 0], [1, 2], qid, "recip_rank", "average").values[0] == 0.0


def test_refusals():
    options = RankingOptions(metric="P", k=None)
    staged = stage(np.ones(2), np.ones(2), options, qid=np.zeros(2))
    with pytest.raises(ValueError, match="P needs a cutoff"):
        query_values(staged, options)
    with pytest.raises(ValueError, match="unknown measure 'infAP'"):
        query_values(staged, options, measures=(("infAP", None),))
    weighted = stage(np.ones(2), np.ones(2), options, qid=np.zeros(2), document_weight=np.ones(2))
    with pytest.raises(ValueError, match="document_weight weighs gains"):
        query_values(weighted, options.replace(k=1))


def _running_sums(rel: np.ndarray, score: np.ndarray, tie_groups: bool) -> dict:
    """The raw sums of one query at every position, by the closed forms of the
    module at each position of the whole ranking (running sums down the ranking;
    ``tie_groups`` False: every document a group of its own, input order kept)."""
    order = np.argsort(-score, kind="stable")
    rel, score = rel[order], score[order]
    new = np.ones(rel.shape[0], dtype=bool)
    if tie_groups:
        new[1:] = score[1:] != score[:-1]
    start = np.flatnonzero(new)
    group = np.cumsum(new) - 1
    m = np.diff(np.append(start, rel.shape[0]))[group].astype(float)
    r = np.add.reduceat(rel, start)[group]
    j = np.arange(rel.shape[0]) - start[group] + 1.0
    c = (np.cumsum(rel) - rel)[start][group]
    rank = np.arange(1.0, rel.shape[0] + 1)
    within = np.divide((j - 1) * (r - 1), m - 1, out=np.zeros_like(m), where=m > 1)
    none = np.cumprod(np.maximum(m - r - j + 1, 0.0) / (m - j + 1))
    before = np.append(1.0, none[:-1])
    return {
        "P": np.cumsum(r / m),
        "recall": np.cumsum(r / m),
        "map": np.cumsum(r / m * (c + 1 + within) / rank),
        "recip_rank": np.cumsum((before - none) / rank),
        "success": 1.0 - none,
    }


@pytest.mark.parametrize("ties", ["average", "first"])
@pytest.mark.parametrize("equal_sizes", [False, True])
def test_sums_from_relevant_groups_equal_running_sums(ties, equal_sizes):
    """The sums read from the groups holding relevant documents equal the running
    sums over every position of the whole ranking, to the last bit: wide queries
    (up to 150 documents), heavy ties, cutoffs inside and beyond the queries."""
    rng = np.random.default_rng(7)
    n_queries = 25
    sizes = np.full(n_queries, 140) if equal_sizes else rng.integers(1, 150, n_queries)
    qid = rng.permutation(np.repeat(np.arange(n_queries), sizes))
    y = (rng.integers(0, 3, qid.shape[0]) * (rng.random(qid.shape[0]) < 0.4)).astype(float)
    s = rng.integers(0, 6, qid.shape[0]) / 3.0
    s[qid == 3] = 1.0  # a query of one tie group
    ks = (1, 3, 10, 60, 200)
    requests = (("map", None), ("recip_rank", None)) + tuple(
        (name, ks) for name in ("P", "recall", "success", "map", "recip_rank")
    )
    options = RankingOptions(metric="map", ties=ties)
    staged = stage(y, s, options, qid=qid)
    got = query_values(staged, options, measures=requests).values
    for q in range(n_queries):
        rows = qid == q
        rel = (y[rows] >= 1).astype(float)
        sums = _running_sums(rel, s[rows], ties == "average")
        n_rel = rel.sum()
        expected = [sums["map"][-1] / n_rel if n_rel else 0.0, sums["recip_rank"][-1]]
        for name, _ in requests[2:]:
            for k in ks:
                value = sums[name][min(k, rel.shape[0]) - 1]
                if name == "P":
                    value = value / k
                elif name in ("recall", "map"):
                    value = value / n_rel if n_rel else 0.0
                expected.append(value)
        np.testing.assert_array_equal(got[q], expected)


@pytest.mark.parametrize("ties", ["average", "first"])
def test_ndcg_of_wide_tied_queries_with_fractional_gains(ties):
    """``measures=`` with NDCG at cutoffs and whole: the values of ``ks=`` and of the
    whole ranking to the last bit, on queries wider than 128 documents (numpy's
    sums by blocks) with large tie groups and fractional labels."""
    rng = np.random.default_rng(11)
    qid = rng.permutation(np.repeat(np.arange(12), rng.integers(100, 300, 12)))
    y = np.round(rng.random(qid.shape[0]) * 3, 3) * (rng.random(qid.shape[0]) < 0.6)
    s = rng.integers(0, 3, qid.shape[0]).astype(float)
    options = RankingOptions(ties=ties)
    staged = stage(y, s, options, qid=qid)
    requests = (("ndcg", (1, 10, 150)), ("map", None), ("dcg", (5,)))
    together = query_values(staged, options.replace(metric="map"), measures=requests).values
    ndcg_ks = query_values(staged, options, ks=np.array([1, 10, 150])).values
    np.testing.assert_array_equal(together[:, :3], ndcg_ks)
    dcg = query_values(staged, options.replace(metric="dcg"), ks=np.array([5])).values
    np.testing.assert_array_equal(together[:, 4], dcg[:, 0])
    requests = (("ndcg", None), ("P", (3,)))
    together = query_values(staged, options.replace(metric="map"), measures=requests).values
    np.testing.assert_array_equal(together[:, 0], query_values(staged, options).values)
