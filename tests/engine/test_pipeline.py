"""The pipeline: stage (validate, group, gains, discounts) once, then order and sum.

Every expected value is computed by hand in the comments, with the log2 discount
``1 / log2(r + 1)`` of rank r: 1, 1 / log2(3) and 1 / 2 for ranks 1 to 3.
"""

import math

import numpy as np
import pytest

from sklearn_ndcg._engine import RankingOptions, query_values
from sklearn_ndcg._engine import stage as stage_through_the_door
from sklearn_ndcg._engine._pipeline import order_and_sum, stage

L3 = 1 / math.log2(3)  # the discount of rank 2

# query "b": labels 3, 2, 0 scored 0.5, 0.9, 0.1 -> ranked 2, 3, 0
# query "a": labels 0, 1 scored 0.2, 0.8 -> ranked 1, 0
Y_TRUE = [3, 2, 0, 0, 1]
Y_SCORE = [0.5, 0.9, 0.1, 0.2, 0.8]
QID = ["b", "b", "b", "a", "a"]
OPTIONS = dict(
    qid=QID, sample_weight=None, document_weight=None, gain="linear", discount="log2", log_base=None
)
DCG_B, IDEAL_B, WORST_B = 2 + 3 * L3, 3 + 2 * L3, 2 * L3 + 3 * 0.5
DCG_A, IDEAL_A, WORST_A = 1.0, 1.0, L3


def test_stage_groups_gains_and_discounts():
    staged = stage(Y_TRUE, Y_SCORE, k=None, normalize="ideal", **OPTIONS)
    assert staged.queries.ids.tolist() == ["a", "b"]
    assert staged.queries.sizes.tolist() == [2, 3]
    np.testing.assert_allclose(staged.discounts, [1, L3, 0.5], rtol=1e-15)  # longest: 3
    assert sorted(staged.gains.tolist()) == [0, 0, 1, 2, 3]  # linear gain: the labels
    assert staged.weight is None


def test_stage_applies_k_gain_and_weights():
    options = {**OPTIONS, "gain": "exponential", "sample_weight": [1, 1, 1, 4, 4]}
    staged = stage(Y_TRUE, Y_SCORE, k=2, normalize="ideal", **options)
    np.testing.assert_allclose(staged.discounts, [1, L3], rtol=1e-15)  # ranks 1 .. k
    assert sorted(staged.gains.tolist()) == [0, 0, 1, 3, 7]  # 2**label - 1
    assert staged.weight.tolist() == [4.0, 1.0]  # the weight of each query, a then b


@pytest.mark.parametrize(
    "normalize, ideal, worst",
    [
        (None, None, None),
        ("ideal", [IDEAL_A, IDEAL_B], None),
        ("minmax", [IDEAL_A, IDEAL_B], [WORST_A, WORST_B]),
    ],
)
def test_order_and_sum(normalize, ideal, worst):
    staged = stage(Y_TRUE, Y_SCORE, k=None, normalize=normalize, **OPTIONS)
    result = order_and_sum(staged, "average", normalize)
    np.testing.assert_allclose(result.dcg, [DCG_A, DCG_B], rtol=1e-15)
    for got, expected in ((result.ideal, ideal), (result.worst, worst)):
        if expected is None:
            assert got is None
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-15)


def test_one_staging_serves_every_tie_rule():
    # one query of 3 documents: labels 1, 0, 2 scored 1, 1, 0 (the first two tie)
    options = {**OPTIONS, "qid": None}
    staged = stage([[1, 0, 2]], [[1, 1, 0]], k=None, normalize=None, **options)
    expected = {
        "average": 0.5 + 0.5 * L3 + 1,  # the tied pair gets the mean gain 0.5
        "optimistic": 1 + 0 + 1,
        "pessimistic": 0 + L3 + 1,
    }
    got = {ties: order_and_sum(staged, ties, None).dcg[0] for ties in expected}
    assert got == pytest.approx(expected, rel=1e-15)


def _door(options, y_true=Y_TRUE, y_score=Y_SCORE, qid=QID, ks=None):
    """Per-query values through the engine's door: stage, then sum."""
    staged = stage_through_the_door(y_true, y_score, options, qid=qid)
    return query_values(staged, options, ks=ks)


def test_the_door_is_the_whole_path():
    result = _door(RankingOptions(metric="dcg"))
    assert result.ids.tolist() == ["a", "b"] and result.weight is None
    np.testing.assert_allclose(result.values, [DCG_A, DCG_B], rtol=1e-15)
    result = _door(RankingOptions())
    np.testing.assert_allclose(result.values, [1, DCG_B / IDEAL_B], rtol=1e-15)


def test_ndcg_per_query_keeps_minmax_in_0_1():
    result = _door(RankingOptions(normalize="minmax"))
    # (DCG - worst) / (ideal - worst); query a is at its best
    expected = [1.0, (DCG_B - WORST_B) / (IDEAL_B - WORST_B)]
    np.testing.assert_allclose(result.values, expected, rtol=1e-14)


def test_minmax_rounded_above_1_by_tie_averaging_is_clipped():
    # hand: labels 0.8, 0.8, 0.8, -0.2 scored 1, 1, 1, 0 is the best order, NDCG 1; the
    # tie group's mean gain (0.8 + 0.8 + 0.8) / 3 rounds to 0.8000000000000002, which
    # makes (DCG - worst) / (ideal - worst) 1.000000000000001 before the clip
    y_true, y_score, qid = [0.8, 0.8, 0.8, -0.2], [1, 1, 1, 0], [1, 1, 1, 1]
    options = {**OPTIONS, "qid": qid}
    result = order_and_sum(
        stage(y_true, y_score, k=None, normalize="minmax", **options), "average", "minmax"
    )
    # above 1 by that rounding with numpy 2's sums (the case of the clip); numpy 1.23 (the
    # oldest row of the matrix) sums the group's gains to exactly 1
    assert (result.dcg - result.worst) / (result.ideal - result.worst) >= 1
    door = _door(RankingOptions(normalize="minmax"), y_true, y_score, qid)
    assert door.values.tolist() == [1.0]


def test_one_staging_at_every_cutoff():
    options = RankingOptions()
    staged = stage_through_the_door(Y_TRUE, Y_SCORE, options, qid=QID)
    np.testing.assert_allclose(staged.discounts, [1, L3, 0.5], rtol=1e-15)  # no cutoff
    ks = np.array([1, 2, 3])
    dcg = query_values(staged, options.replace(metric="dcg"), ks=ks).values
    # query a (2 documents): 1 at every k; query b: 2, then + 3 / log2(3), then + 0
    np.testing.assert_allclose(dcg, [[1, 1, 1], [2, DCG_B, DCG_B]], rtol=1e-15)
    ndcg = query_values(staged, options, ks=ks).values
    # query b's ideal: 3, then + 2 / log2(3)
    np.testing.assert_allclose(
        ndcg, [[1, 1, 1], [2 / 3, DCG_B / IDEAL_B, DCG_B / IDEAL_B]], rtol=1e-15
    )


def test_every_cutoff_minmax():
    ndcg = _door(RankingOptions(normalize="minmax"), ks=np.array([1, 2, 3])).values
    # hand, (DCG - worst) / (ideal - worst) at k = 1, 2, 3. Query a (gains 1, 0 ranked
    # best): 1 at every k. Query b: ranked 2, 3, 0; ideal 3, 2, 0; worst 0, 2, 3
    expected_b = [2 / 3, (2 + L3) / 3, (0.5 + L3) / 1.5]
    np.testing.assert_allclose(ndcg, [[1, 1, 1], expected_b], rtol=1e-14)


def test_with_scores_restages_only_the_scores():
    # early stopping's path: staged once, scored again with each round's scores
    staged = stage(Y_TRUE, Y_SCORE, k=None, normalize="ideal", **OPTIONS)
    new_score = [0.1, 0.2, 0.3, 0.9, 0.0]  # query "b" ranked 0, 2, 3; "a" ranked 0, 1
    restaged = staged.with_scores(new_score)
    fresh = stage(Y_TRUE, new_score, k=None, normalize="ideal", **OPTIONS)
    np.testing.assert_array_equal(restaged.score, fresh.score)
    assert restaged.gains is staged.gains  # labels and gains staged once
    # by hand: "a" ranks labels 0, 1 (DCG L3), "b" ranks 0, 2, 3 (DCG 2 L3 + 3 / 2)
    result = order_and_sum(restaged, "average", "ideal")
    np.testing.assert_allclose(result.dcg, [L3, 2 * L3 + 1.5], rtol=1e-15)
    np.testing.assert_allclose(result.ideal, [IDEAL_A, IDEAL_B], rtol=1e-15)
    with pytest.raises(ValueError, match="y_score has 4 scores for 5 staged documents"):
        staged.with_scores(new_score[:4])


def _brute_force_tie_groups(score, qid):
    """A loop over rows: a row's tie group starts after the rows of its query scored
    above it and ends with the last row scored at least as high."""
    first, last = [], []
    for row, query in enumerate(qid):
        scores = [s for s, q in zip(score, qid) if q == query]
        first.append(1 + sum(s > score[row] for s in scores))
        last.append(sum(s >= score[row] for s in scores))
    return first, last


@pytest.mark.parametrize(
    "qid",
    [
        np.repeat(np.arange(30), 5),  # the dense layout
        np.repeat(np.arange(40), np.arange(1, 41))[::-1].copy(),  # contiguous, ragged
        np.random.default_rng(1).integers(0, 25, 400),  # interleaved: read through the order
    ],
)
def test_tie_groups_are_the_ranks_a_tied_row_may_take(qid):
    rng = np.random.default_rng(2)
    score = rng.integers(0, 4, qid.shape[0]).astype(np.float32)  # many ties, compact scores
    staged = stage_through_the_door(
        np.zeros(qid.shape[0]), score, RankingOptions(metric="dcg"), qid=qid
    )
    first, last = staged.tie_groups()
    expected_first, expected_last = _brute_force_tie_groups(score.tolist(), qid.tolist())
    np.testing.assert_array_equal(first, expected_first)
    np.testing.assert_array_equal(last, expected_last)
