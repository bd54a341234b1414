"""The aggregation stage: DCG, ideal and worst DCG per query, NDCG, the weighted mean.

Every expected value is computed by hand in the comments, with the log2 discount
``1 / log2(r + 1)`` of rank r: 1, 1 / log2(3) and 1 / 2 for ranks 1 to 3.
"""

import math

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ndcg._engine._aggregate import (
    WeightedSums,
    check_overflow,
    dcg_at_cutoffs,
    dcg_by_query,
    ndcg_from_dcg,
    tie_cut_by_query,
    weighted_mean,
    weighted_sums,
)
from sklearn_ndcg._engine._queries import _BYTE_ROWS, block_columns, group_queries

L3 = 1 / math.log2(3)  # the discount of rank 2
LOG2 = np.array([1.0, L3, 0.5])  # ranks 1, 2, 3

# Two queries in long format, rows of query 7 first: ids come out sorted, [3, 7].
# query 7: gains 3, 2, 0 scored 0.5, 0.9, 0.1 -> ranked 2, 3, 0
# query 3: gains 0, 1 scored 0.2, 0.8 -> ranked 1, 0
QID = np.array([7, 7, 7, 3, 3])
GAIN = np.array([3.0, 2.0, 0.0, 0.0, 1.0])
SCORE = np.array([0.5, 0.9, 0.1, 0.2, 0.8])
DCG = {3: 1.0, 7: 2 + 3 * L3}
IDEAL = {3: 1.0, 7: 3 + 2 * L3}  # gains by decreasing value
WORST = {3: L3, 7: 2 * L3 + 3 * 0.5}  # gains by increasing value: 0, 2, 3


def _queries():
    return group_queries(QID, None)


def _by_id(queries, values):
    return dict(zip(queries.ids.tolist(), np.asarray(values).tolist()))


def test_dcg_by_query_of_two_queries():
    queries = _queries()
    result = dcg_by_query(GAIN, SCORE, queries, "average", LOG2, ideal=True, worst=True)
    assert queries.ids.tolist() == [3, 7]
    for name, expected in (("dcg", DCG), ("ideal", IDEAL), ("worst", WORST)):
        got = _by_id(queries, getattr(result, name))
        assert got == pytest.approx(expected, rel=1e-15), name


def test_dcg_by_query_computes_only_what_is_asked():
    result = dcg_by_query(GAIN, SCORE, _queries(), "average", LOG2)
    assert result.ideal is None and result.worst is None
    # score None: the ideal DCG alone (of a judgment pool)
    pool = dcg_by_query(GAIN, None, _queries(), "average", LOG2, ideal=True)
    assert pool.dcg is None
    assert _by_id(_queries(), pool.ideal) == pytest.approx(IDEAL, rel=1e-15)


def test_dcg_by_query_cuts_at_the_length_of_the_discounts():
    # k = 2: the discounts of ranks 1 and 2 only; query 7 loses its rank 3 (gain 0 in the
    # DCG, 0 in the ideal; 3 x 1/2 in the worst order)
    result = dcg_by_query(GAIN, SCORE, _queries(), "average", LOG2[:2], ideal=True, worst=True)
    got = dict(zip([3, 7], zip(result.dcg, result.ideal, result.worst)))
    assert got[7] == pytest.approx((2 + 3 * L3, 3 + 2 * L3, 2 * L3), rel=1e-15)
    assert got[3] == pytest.approx((1.0, 1.0, L3), rel=1e-15)


def test_document_weight_weighs_the_dcg_only():
    # query 3's rows: weights 4 (gain 0) and 0.5 (gain 1, ranked first): DCG 0.5 x 1
    weight = np.array([1.0, 1.0, 1.0, 4.0, 0.5])
    result = dcg_by_query(
        GAIN, SCORE, _queries(), "average", LOG2, ideal=True, document_weight=weight
    )
    assert result.dcg[0] == 0.5 and result.ideal[0] == 1.0


@pytest.mark.parametrize(
    "ties, expected",
    [
        # one 2-D query: gains 1, 0, 2 scored 1, 1, 0; the first two tie
        ("average", 0.5 + 0.5 * L3 + 2 * 0.5),  # each tied place gets the mean gain 0.5
        ("optimistic", 1 + 0 * L3 + 2 * 0.5),  # the tied group by decreasing gain
        ("pessimistic", 0 + 1 * L3 + 2 * 0.5),  # by increasing gain
        ("first", 1 + 0 * L3 + 2 * 0.5),  # in input order
    ],
)
def test_tie_rules(ties, expected):
    queries = group_queries(None, (1, 3))
    result = dcg_by_query(np.array([1.0, 0.0, 2.0]), np.array([1.0, 1.0, 0.0]), queries, ties, LOG2)
    assert result.dcg[0] == pytest.approx(expected, rel=1e-15)


def _by_hand(gains, scores, discounts, ties):
    """DCG, ideal and worst DCG of one query, written out: documents by decreasing
    score (stable: input order among ties), by decreasing and by increasing gain. With
    "average" each tie group's places get the group's mean gain (McSherry and Najork,
    2008), the mean over all orders of the group."""
    k = discounts.shape[0]
    order = sorted(range(len(gains)), key=lambda i: -scores[i])
    ranked = [gains[i] for i in order]
    if ties == "average":
        for s in set(scores):
            places = [p for p, i in enumerate(order) if scores[i] == s]
            mean = sum(ranked[p] for p in places) / len(places)
            for p in places:
                ranked[p] = mean
    dcg = sum(g * d for g, d in zip(ranked[:k], discounts))
    ideal = sum(g * d for g, d in zip(sorted(gains, reverse=True)[:k], discounts))
    worst = sum(g * d for g, d in zip(sorted(gains)[:k], discounts))
    return dcg, ideal, worst


@pytest.mark.parametrize("ties", ["average", "first"])
@pytest.mark.parametrize("k", [None, 5])
def test_many_query_lengths_share_padded_blocks(ties, k):
    """Over 32 distinct query lengths, queries of similar lengths share a block and
    the shorter ones are padded: the padding must stay out of the DCG, the ideal and
    the worst DCG (the gains include negative ones, as with min-max)."""
    rng = np.random.default_rng(28)
    sizes = np.arange(1, 41)  # 40 distinct lengths
    qid = rng.permutation(np.repeat(np.arange(40), sizes))
    gain = rng.integers(-1, 4, qid.shape[0]).astype(float)
    score = rng.integers(0, 4, qid.shape[0]).astype(float)  # many ties
    queries = group_queries(qid, None)
    assert queries.layout is None and np.unique(queries.sizes).shape[0] > 32
    discounts = 1 / np.log2(np.arange(2, 42))[:k]
    result = dcg_by_query(gain, score, queries, ties, discounts, ideal=True, worst=True)
    for query in range(40):
        rows = np.flatnonzero(qid == query)  # input order
        expected = _by_hand(gain[rows].tolist(), score[rows].tolist(), discounts, ties)
        got = (result.dcg[query], result.ideal[query], result.worst[query])
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), query


@pytest.mark.parametrize("ties", ["average", "first"])
def test_compact_columns_read_block_by_block(ties):
    """Shuffled rows whose columns are all compact (labels 0..255 as bytes, float32
    scores) are read through the order block by block, not gathered whole: the sums
    must be those of the gathered float64 scores (to rounding), and of the ranking by
    hand."""
    rng = np.random.default_rng(38)
    sizes = rng.integers(1, 60, 2_500)
    qid = rng.permutation(np.repeat(np.arange(sizes.shape[0]), sizes))
    assert qid.shape[0] >= _BYTE_ROWS  # labels read as bytes
    gain = rng.integers(0, 5, qid.shape[0]).astype(float)
    score = (rng.integers(0, 16, qid.shape[0]) / 4).astype(np.float32)  # many ties
    queries = group_queries(qid, None)
    assert block_columns(queries, gain, score)[0].order is not None  # block by block
    assert block_columns(queries, gain, score.astype(float))[0].order is None  # gathered
    discounts = 1 / np.log2(np.arange(2, 12))
    every_rank = 1 / np.log2(np.arange(2, sizes.max() + 2))  # dcg_at_cutoffs'
    ks = np.array([1, 5, 10])
    results = []
    for scores in (score, score.astype(float)):
        results.append(
            (
                *dcg_by_query(gain, scores, queries, ties, discounts, ideal=True, worst=True),
                *dcg_at_cutoffs(gain, scores, queries, ties, every_rank, ks, worst=True),
                tie_cut_by_query(scores, queries, 10),
            )
        )
    # the sums are matrix products of blocks of other shapes: the same to the last bits
    for compact, gathered in zip(*results):
        np.testing.assert_allclose(compact, gathered, rtol=1e-14, atol=0)
    for query in range(0, sizes.shape[0], 125):
        rows = np.flatnonzero(qid == query)  # input order
        expected = _by_hand(gain[rows].tolist(), score[rows].tolist(), discounts, ties)
        got = [result[query] for result in results[0][:3]]
        assert got == pytest.approx(expected, rel=1e-12, abs=1e-12), query


def test_dcg_at_cutoffs_sums_the_first_k_terms():
    ks = np.array([1, 2, 3])
    result = dcg_at_cutoffs(GAIN, SCORE, _queries(), "average", LOG2, ks, worst=True)
    assert result.dcg.shape == (2, 3)
    # query 3 (first row) has 2 documents: @3 is @2
    np.testing.assert_allclose(result.dcg, [[1, 1, 1], [2, 2 + 3 * L3, 2 + 3 * L3]], rtol=1e-15)
    np.testing.assert_allclose(result.ideal, [[1, 1, 1], [3, 3 + 2 * L3, 3 + 2 * L3]], rtol=1e-15)
    np.testing.assert_allclose(result.worst, [[0, L3, L3], [0, 2 * L3, 2 * L3 + 1.5]], rtol=1e-15)


def test_tie_cut_by_query():
    # scores 3, 2, 2, 1: the top 2 ends inside the tied pair, the top 1 and 3 do not
    queries = group_queries(None, (1, 4))
    score = np.array([3.0, 2.0, 2.0, 1.0])
    assert [tie_cut_by_query(score, queries, k)[0] for k in (1, 2, 3)] == [False, True, False]


def test_ndcg_from_dcg():
    # 1 / 2; ideal 0 and ideal < 0 are undefined: zero_division
    ndcg = ndcg_from_dcg(np.array([1.0, 2.0, 0.0]), np.array([2.0, 0.0, -1.0]), 0.25)
    np.testing.assert_array_equal(ndcg, [0.5, 0.25, 0.25])
    # min-max: (1.5 - 1) / (2 - 1); best and worst equal: undefined
    minmax = ndcg_from_dcg(np.array([1.5, 1.0]), np.array([2.0, 1.0]), 0.0, np.array([1.0, 1.0]))
    np.testing.assert_array_equal(minmax, [0.5, 0.0])


def test_weighted_sums_and_mean_leave_out_undefined_queries():
    values, weight = np.array([0.5, np.nan, 1.0]), np.array([1.0, 5.0, 3.0])
    # 1 x 0.5 + 3 x 1.0 = 3.5 over the kept weight 4; total weight 9; 2 kept
    assert weighted_sums(values, weight) == WeightedSums(3.5, 4.0, 9.0, 2)
    assert weighted_mean(values, weight) == pytest.approx(3.5 / 4, rel=1e-15)
    assert weighted_mean(values, None) == pytest.approx(0.75, rel=1e-15)  # (0.5 + 1) / 2


def test_weighted_mean_of_nothing_defined_warns_and_returns_nan():
    with pytest.warns(UndefinedMetricWarning, match="every query was left out"):
        assert math.isnan(weighted_mean(np.array([np.nan, np.nan]), None))
    with pytest.warns(UndefinedMetricWarning, match="the queries left weigh 0"):
        assert math.isnan(weighted_mean(np.array([np.nan, 1.0]), np.array([1.0, 0.0])))
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        weighted_mean(np.array([1.0, 0.5]), np.array([0.0, 0.0]))


def test_undefined_warning_points_at_the_users_line():
    """The warning's stacklevel skips the package's frames: it names this file."""
    from sklearn_ndcg import ndcg_score

    with pytest.warns(UndefinedMetricWarning) as record:
        ndcg_score([[0, 0]], [[1, 2]], zero_division=np.nan)
    assert record[0].filename == __file__


def test_check_overflow():
    check_overflow(np.array([1.0, 2.0]), np.array([1.0]))
    with pytest.raises(ValueError, match=r"overflows float64 \(gains up to 1e\+300\)"):
        check_overflow(np.array([1.0, np.inf]), np.array([1e300, 2.0]))
    # finite gains, huge document weights: the weights are named
    with pytest.raises(ValueError, match=r"document_weight \(up to 1e\+300\) times the gains"):
        check_overflow(np.array([np.inf]), np.array([2.0]), np.array([1e300]))
    # the gains alone overflow (their sum): the gains are named, also with document weights
    with pytest.raises(ValueError, match=r"overflows float64 \(gains up to 1e\+308\)"):
        check_overflow(np.array([np.inf]), np.array([1e308, 1e308]), np.array([1.0, 1.0]))
