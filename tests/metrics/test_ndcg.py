"""Hand-computed cases of single options: gain, ties, k, zero_division, sample_weight.

Expected values come from hand arithmetic (each case says how), from an
explicit mean over every ordering of a tie group, or from scikit-learn.
"""

import itertools
import math
import warnings

import numpy as np
import pytest
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ndcg import dcg_score, make_ndcg_scorer, ndcg_score, query_scores
from sklearn_ndcg._engine import RankingOptions

RTOL = 1e-12
TIE_RULES = list(RankingOptions.TIE_RULES)


def test_exponential_gain_large_labels_stay_finite():
    # 2**1023 - 1 is finite in float64; a single such document scores 1
    assert ndcg_score([[1023.0, 0.0]], [[1.0, 0.0]], gain="exponential") == 1.0


def test_sequence_gain_integer_valued_floats():
    # labels 2.0 and 1.0 index the table like ints (LightGBM's label_gain)
    table = [0.0, 10.0, 1.0]
    # hand computation: ranked gains [1, 10] / ideal [10, 1]
    expected = (1 + 10 / np.log2(3)) / (10 + 1 / np.log2(3))
    assert ndcg_score([[2.0, 1.0]], [[0.9, 0.1]], gain=table) == pytest.approx(expected, rel=1e-15)
    assert ndcg_score([[2, 1]], [[0.9, 0.1]], gain=np.array(table)) == pytest.approx(
        expected, rel=1e-15
    )
    assert ndcg_score([[2, 1]], [[0.9, 0.1]], gain=tuple(table)) == pytest.approx(
        expected, rel=1e-15
    )


def test_ties_first_keeps_input_order():
    # hand computation: all scores tie, so the input order is the ranking
    y_true = [0, 1, 2]
    assert dcg_score(y_true, [1, 1, 1], qid=[0, 0, 0], ties="first") == pytest.approx(
        0 + 1 / np.log2(3) + 2 / 2, rel=1e-15
    )
    assert dcg_score([[2, 1, 0]], [[1, 1, 1]], ties="first") == pytest.approx(
        2 + 1 / np.log2(3), rel=1e-15
    )


def test_all_permutations_average_on_one_big_tie_group():
    """Cross-check "average" against an explicit mean over every full ordering."""
    y_true = [3, 0, 2, 1, 0]
    y_score = [1, 1, 1, 1, 0]
    orders = list(itertools.permutations(range(4)))
    # hand computation from the definition: mean DCG over the 24 orders of the tie
    dcgs = [
        sum(y_true[i] / np.log2(r + 2) for r, i in enumerate(order)) + 0 / np.log2(6)
        for order in orders
    ]
    assert dcg_score([y_true], [y_score]) == pytest.approx(np.mean(dcgs), rel=1e-14)


def test_average_when_k_cuts_through_a_tie_group():
    # hand computation (McSherry & Najork): ranks 1..3 tie with gains 3, 0, 0;
    # with k=2 the expected DCG is the mean gain 1 times the discounts of ranks 1, 2
    expected = 1 * (1 + 1 / np.log2(3))
    assert dcg_score([3, 0, 0, 2], [1, 1, 1, 0], qid=[5] * 4, k=2) == pytest.approx(
        expected, rel=1e-15
    )
    # scikit-learn agrees
    assert dcg_score([[3, 0, 0, 2]], [[1, 1, 1, 0]], k=2) == pytest.approx(
        skm.dcg_score([[3, 0, 0, 2]], [[1, 1, 1, 0]], k=2), rel=RTOL
    )


def test_k_larger_than_every_query(random_ragged):
    y_true, y_score, qid = random_ragged(900)
    for ties in TIE_RULES:
        assert ndcg_score(y_true, y_score, qid=qid, ties=ties, k=10**6) == ndcg_score(
            y_true, y_score, qid=qid, ties=ties
        )


@pytest.mark.parametrize(
    "zero_division, expected",
    [
        # hand computation: query a is perfect (1.0), query b has no relevant document
        (0.0, (1.0 + 0.0) / 2),
        (1.0, (1.0 + 1.0) / 2),
        (np.nan, 1.0),
    ],
)
def test_zero_division(zero_division, expected):
    result = ndcg_score(
        [2, 1, 0, 0], [2, 1, 5, 3], qid=["a", "a", "b", "b"], zero_division=zero_division
    )
    assert result == pytest.approx(expected, rel=1e-15)


@pytest.mark.parametrize(
    "value, expected",
    [  # the hand computation of test_zero_division
        (0.0, (1.0 + 0.0) / 2),
        (1.0, (1.0 + 1.0) / 2),
        (np.nan, 1.0),
    ],
)
def test_replace_undefined_by_is_zero_division(value, expected):
    y, s, qid = [2, 1, 0, 0], [2, 1, 5, 3], ["a", "a", "b", "b"]
    assert ndcg_score(y, s, qid=qid, replace_undefined_by=value) == pytest.approx(
        expected, rel=1e-15
    )
    per_query = query_scores(y, s, qid=qid, replace_undefined_by=value).score
    np.testing.assert_array_equal(per_query, [1.0, value])
    scorer = make_ndcg_scorer(replace_undefined_by=value)
    assert scorer._kwargs["zero_division"] is value or np.isnan(scorer._kwargs["zero_division"])


@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
@pytest.mark.parametrize("func", ["ndcg_score", "query_scores", "make_ndcg_scorer"])
def test_replace_undefined_by_and_zero_division_together(func, zero_division):
    # one of the two at a time, even when both say the same (0.0 given explicitly)
    call = {"ndcg_score": ndcg_score, "query_scores": query_scores}.get(func)
    with pytest.raises(ValueError, match="zero_division and replace_undefined_by"):
        if call is None:
            make_ndcg_scorer(zero_division=zero_division, replace_undefined_by=0.0)
        else:
            call([[1, 0]], [[1, 0]], zero_division=zero_division, replace_undefined_by=0.0)


def test_zero_division_nan_every_query_undefined_warns():
    with pytest.warns(UndefinedMetricWarning, match="undefined"):
        result = ndcg_score([0, 0, 0], [1, 2, 3], qid=[1, 1, 2], zero_division=np.nan)
    assert math.isnan(result)


@pytest.mark.parametrize("zero_division", [0.0, 1.0])
def test_zero_division_every_query_undefined_no_warning(zero_division):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert (
            ndcg_score([[0, 0], [0, 0]], [[1, 2], [2, 1]], zero_division=zero_division)
            == zero_division
        )


def test_zero_division_negative_ideal_dcg():
    """Ideal DCG <= 0 (only non-positive gains) counts as no relevant document."""
    gain = {0: 0.0, -1: -1.0}
    for zero_division in (0.0, 1.0):
        assert (
            ndcg_score([[-1, 0, 0]], [[3, 2, 1]], gain=gain, zero_division=zero_division)
            == zero_division
        )


def test_query_scores_nan_where_undefined():
    result = query_scores([1, 0, 0, 0], [1, 2, 3, 4], qid=[5, 5, 9, 9], zero_division=np.nan)
    assert result.qid.tolist() == [5, 9]
    # hand computation: query 5 ranks relevance [0, 1]: (1 / log2(3)) / 1
    assert result.score[0] == pytest.approx(1 / np.log2(3), rel=1e-15)
    assert math.isnan(result.score[1])


def test_zero_weight_query_is_left_out():
    # hand computation: query 1 is perfect (1.0), query 2 scores 1 / log2(3) but weighs 0
    y_true, y_score, qid = [1, 0, 0, 1], [2, 1, 2, 1], [1, 1, 2, 2]
    assert ndcg_score(y_true, y_score, qid=qid, sample_weight=[1, 1, 0, 0]) == 1.0
    assert ndcg_score(y_true, y_score, qid=qid, sample_weight=[0, 0, 3, 3]) == pytest.approx(
        1 / np.log2(3), rel=1e-15
    )


def test_zero_division_nan_defined_queries_weigh_zero_warns():
    # query 1 has no relevant document (left out); query 2 is defined but weighs 0
    with pytest.warns(UndefinedMetricWarning, match="undefined"):
        result = ndcg_score(
            [0, 0, 1, 0],
            [1, 2, 1, 2],
            qid=[1, 1, 2, 2],
            sample_weight=[1, 1, 0, 0],
            zero_division=np.nan,
        )
    assert math.isnan(result)


def test_at_cutoffs_of_the_multi_cutoff_scorer():
    """at_cutoffs (behind make_ndcg_scorer(k=[...])): NDCG@k of each query for every
    k, with zero_division, document_weight and the DCG."""
    from sklearn_ndcg._metrics._ndcg import at_cutoffs

    l3 = 1 / math.log2(3)  # the discount of rank 2
    # query 0 has no relevant document; query 1 ranks labels 2, 3, 0
    y_true, y_score = [[0, 0, 0], [3, 2, 0]], [[1, 2, 3], [0.5, 0.9, 0.1]]
    values, weight = at_cutoffs(y_true, y_score, np.array([1, 2]), zero_division=1.0)
    assert weight is None
    # hand: @1 2 / 3; @2 (2 + 3 / log2(3)) / (3 + 2 / log2(3))
    expected = [[1, 1], [2 / 3, (2 + 3 * l3) / (3 + 2 * l3)]]
    np.testing.assert_allclose(values, expected, rtol=RTOL)
    # the label-2 document weighs 0.5 in the DCG, not in the ideal DCG
    document_weight = [[1, 1, 1], [1, 0.5, 1]]
    values, _ = at_cutoffs(y_true, y_score, np.array([1, 2]), document_weight=document_weight)
    expected = [[0, 0], [1 / 3, (1 + 3 * l3) / (3 + 2 * l3)]]
    np.testing.assert_allclose(values, expected, rtol=RTOL)
    values, _ = at_cutoffs(y_true, y_score, np.array([1, 2]), metric="dcg")
    np.testing.assert_allclose(values, [[0, 0], [2, 2 + 3 * l3]], rtol=RTOL)
