"""Tests of the tie rules in _ties.py."""

import numpy as np
import pytest

from sklearn_ndcg import dcg_score, ndcg_score
from sklearn_ndcg._queries import group_queries
from sklearn_ndcg._ties import DEFAULT_TIES, TIE_RULES, ideal_gains, rank_gains, resolve_ties


@pytest.mark.parametrize(
    "ties, ignore_ties, expected",
    [
        (DEFAULT_TIES, None, "average"),
        (DEFAULT_TIES, True, "first"),
        (DEFAULT_TIES, False, "average"),
        ("first", None, "first"),
        ("average", None, "average"),
        ("optimistic", None, "optimistic"),
        ("pessimistic", None, "pessimistic"),
    ],
)
def test_resolve_ties(ties, ignore_ties, expected):
    assert resolve_ties(ties, ignore_ties) == expected
    assert type(resolve_ties(ties, ignore_ties)) is str


@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("ignore_ties", [True, False])
def test_resolve_ties_rejects_both(ties, ignore_ties):
    with pytest.raises(ValueError, match="give either ties"):
        resolve_ties(ties, ignore_ties)


def test_default_ties_is_average():
    assert DEFAULT_TIES == "average"
    assert type(DEFAULT_TIES) is not str  # told apart from an explicit "average"


# one query; scores 2, 1, 1, 1, 0 with gains 0, 1, 5, 3, 4 (input order)
GAIN = np.array([0.0, 1.0, 5.0, 3.0, 4.0])
SCORE = np.array([2.0, 1.0, 1.0, 1.0, 0.0])


@pytest.mark.parametrize(
    "ties, expected",
    [
        ("first", [0, 1, 5, 3, 4]),  # hand: tied gains keep input order
        ("optimistic", [0, 5, 3, 1, 4]),  # hand: tied gains decreasing
        ("pessimistic", [0, 1, 3, 5, 4]),  # hand: tied gains increasing
        ("average", [0, 3, 3, 3, 4]),  # hand: (1 + 5 + 3) / 3 = 3
    ],
)
def test_rank_gains_one_query(ties, expected):
    queries = group_queries(np.zeros(5, dtype=int), None)
    np.testing.assert_array_equal(rank_gains(GAIN, SCORE, queries, ties), expected)


@pytest.mark.parametrize("layout", ["long", "2d"])
def test_average_stops_at_query_boundaries(layout):
    """Equal scores in neighbouring queries are not one tie group."""
    gain = np.array([1.0, 3.0, 5.0, 7.0])
    score = np.array([1.0, 1.0, 1.0, 1.0])
    if layout == "long":
        queries = group_queries(np.array([0, 0, 1, 1]), None)
    else:
        queries = group_queries(None, (2, 2))
    # hand: query 0 averages 1 and 3, query 1 averages 5 and 7
    ranked = np.ravel(rank_gains(gain, score, queries, "average"))  # 2-D input: 2-D result
    np.testing.assert_array_equal(ranked, [2, 2, 6, 6])


def test_rank_gains_long_format_groups_queries_by_id():
    gain = np.array([1.0, 2.0, 3.0, 4.0])
    score = np.array([0.1, 0.5, 0.9, 0.2])
    queries = group_queries(np.array(["b", "a", "b", "a"]), None)
    # hand: query "a" rows 1, 3 by score -> gains 2, 4; query "b" rows 2, 0 -> 3, 1
    for ties in TIE_RULES:
        np.testing.assert_array_equal(rank_gains(gain, score, queries, ties), [2, 4, 3, 1])


def test_ideal_gains_sorts_gains_per_query():
    gain = np.array([1.0, -2.0, 3.0, 0.5, 9.0])
    queries = group_queries(np.array([5, 5, 5, 1, 1]), None)
    # hand: query 1 -> 9, 0.5; query 5 -> 3, 1, -2
    for label in (gain, np.arange(5.0)):  # the same without and with integer labels
        np.testing.assert_array_equal(ideal_gains(gain, label, queries), [9, 0.5, 3, 1, -2])


@pytest.mark.parametrize(
    "label, gain, expected",
    [
        # hand: integer labels, non-monotone gain (label 1 best): per query, by gain
        ([0, 1, 2, 1, 0, 2], [0, 5, 2, 5, 0, 2], [5, 2, 0, 5, 2, 0]),
        # hand: the same label with two gains (not a function of the label)
        ([1, 1, 1, 1, 0, 0], [3, 1, 2, 1, 0, 7], [3, 2, 1, 7, 1, 0]),
        # hand: non-integer labels
        ([0.5, 1.5, 0, 2, 1, 0], [0.5, 1.5, 0, 2, 1, 0], [1.5, 0.5, 0, 2, 1, 0]),
    ],
)
def test_ideal_gains_counting_and_sorting_agree(label, gain, expected):
    queries = group_queries(np.array([4, 4, 4, 9, 9, 9]), None)
    result = ideal_gains(np.array(gain, float), np.array(label, float), queries)
    np.testing.assert_array_equal(result, expected)


def test_top_k_path_cut_tie_group():
    # hand: one query, scores 3, 2, 2, 2, 1 with gains 4, 3, 0, 0, 9; k=2 cuts the
    # tie group {3, 0, 0} after its first document: its mean gain is 1
    gain = np.array([4.0, 3.0, 0.0, 0.0, 9.0])
    score = np.array([3.0, 2.0, 2.0, 2.0, 1.0])
    queries = group_queries(None, (1, 5))
    np.testing.assert_array_equal(rank_gains(gain, score, queries, "average", 2), [[4, 1]])


@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("k", [1, 2, 5, 9])
def test_top_k_path_agrees_with_whole_rows(ties, k):
    # reference: the whole-row path (k=None), cut at k afterwards
    rng = np.random.default_rng(k)
    shape = (30, 10)
    gain = rng.integers(0, 4, shape).astype(float).ravel()
    score = rng.integers(0, 3, shape).astype(float).ravel()  # many ties
    queries = group_queries(None, shape)
    whole = rank_gains(gain, score, queries, ties).reshape(shape)[:, :k]
    top = rank_gains(gain, score, queries, ties, k).reshape(shape[0], -1)[:, :k]
    np.testing.assert_allclose(top, whole, rtol=1e-15)


def test_explicit_ties_without_ignore_ties_is_fine():
    # the default of ties is a sentinel: only the pair ties + ignore_ties is an error
    y_true = [[3, 2, 1, 0, 0], [0, 1, 2, 0, 1]]
    y_score = [[0.5, 0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4, 0.5]]
    for ties in ("average", "first", "optimistic", "pessimistic"):
        ndcg_score(y_true, y_score, ties=ties)
        dcg_score(y_true, y_score, ties=ties, ignore_ties=None)
    ndcg_score(y_true, y_score, ignore_ties=True)
    ndcg_score(y_true, y_score, ignore_ties=False)
