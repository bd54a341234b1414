"""Tests of the tie rules in _ties.py."""

import numpy as np
import pytest
from sklearn import metrics as skm

from sklearn_ndcg import dcg_score, ndcg_score
from sklearn_ndcg._engine import RankingOptions
from sklearn_ndcg._engine._ties import group_means, ideal_block, rank_block

DOCNO_TIES, TIE_RULES = RankingOptions.DOCNO_TIES, RankingOptions.TIE_RULES

# one query; scores 2, 1, 1, 1, 0 with gains 0, 1, 5, 3, 4 (input order)
GAIN = np.array([[0.0, 1.0, 5.0, 3.0, 4.0]])
SCORE = np.array([[2.0, 1.0, 1.0, 1.0, 0.0]])
ONE = np.array([5])


@pytest.mark.parametrize(
    "ties, expected",
    [
        ("first", [0, 1, 5, 3, 4]),  # hand: tied gains keep input order
        ("optimistic", [0, 5, 3, 1, 4]),  # hand: tied gains decreasing
        ("pessimistic", [0, 1, 3, 5, 4]),  # hand: tied gains increasing
        ("average", [0, 3, 3, 3, 4]),  # hand: (1 + 5 + 3) / 3 = 3
    ],
)
def test_rank_block_one_query(ties, expected):
    np.testing.assert_array_equal(rank_block(SCORE, GAIN, ONE, ties, None), [expected])


def test_average_stops_at_query_boundaries():
    """Equal scores in neighbouring rows of a block are not one tie group."""
    gain = np.array([[1.0, 3.0], [5.0, 7.0]])
    score = np.ones((2, 2))
    # hand: query 0 averages 1 and 3, query 1 averages 5 and 7
    ranked = rank_block(score, gain, np.array([2, 2]), "average", None)
    np.testing.assert_array_equal(ranked, [[2, 2], [6, 6]])


@pytest.mark.parametrize("ties", TIE_RULES)
def test_padding_is_never_a_document(ties):
    # a block of width 4 holding a query of 2 documents: padding scores -inf, gains -inf
    score = np.array([[1.0, 1.0, -np.inf, -np.inf]])
    gain = np.array([[2.0, 4.0, -np.inf, -np.inf]])
    ranked = rank_block(score, gain, np.array([2]), ties, None)
    expected = {"first": [2, 4], "optimistic": [4, 2], "pessimistic": [2, 4], "average": [3, 3]}
    np.testing.assert_array_equal(ranked, [expected[ties] + [0, 0]])
    np.testing.assert_array_equal(ideal_block(gain, None), [[4, 2, 0, 0]])


def test_ideal_block_sorts_gains_per_query():
    gain = np.array([[1.0, -2.0, 3.0], [0.5, 9.0, -np.inf]])
    # hand: query 0 -> 3, 1, -2; query 1 -> 9, 0.5 (and padding 0)
    np.testing.assert_array_equal(ideal_block(gain, None), [[3, 1, -2], [9, 0.5, 0]])
    np.testing.assert_array_equal(ideal_block(gain, 1), [[3], [9]])


@pytest.mark.parametrize("width", [50, 300])  # rows sorted whole; beyond 256, selected
def test_ideal_block_partial_sort_agrees_with_full_sort(width):
    # k much smaller than a row wider than 256 selects before sorting
    rng = np.random.default_rng(0)
    gain = rng.integers(-3, 5, (20, width)).astype(float)
    gain[:, 0] = np.arange(20)  # rows of different largest values
    full = np.sort(gain, axis=1)[:, ::-1]
    for k in (1, 3, 12, 50):
        np.testing.assert_array_equal(ideal_block(gain, k), full[:, :k])


def test_cut_tie_group():
    # hand: one query, scores 3, 2, 2, 2, 1 with gains 4, 3, 0, 0, 9; k=2 cuts the
    # tie group {3, 0, 0} after its first document: its mean gain is 1
    gain = np.array([[4.0, 3.0, 0.0, 0.0, 9.0]])
    score = np.array([[3.0, 2.0, 2.0, 2.0, 1.0]])
    np.testing.assert_array_equal(rank_block(score, gain, ONE, "average", 2), [[4, 1]])


@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("k", [1, 2, 5, 9])
# full sort; k=9 between 3 and 4 (k + 1) (_SELECT_RATIO); top of sorted rows; selected
@pytest.mark.parametrize("width", [10, 35, 60, 300])
def test_top_k_agrees_with_whole_rows(ties, k, width):
    # reference: the whole-row ranking (k=None), cut at k afterwards; for "average"
    # a cut group needs its whole-row mean, which the whole ranking has
    rng = np.random.default_rng(k)
    shape = (30, width)
    gain = rng.integers(0, 4, shape).astype(float)
    score = rng.integers(0, 3, shape).astype(float)  # many ties
    sizes = np.full(30, width)
    whole = rank_block(score, gain, sizes, ties, None)[:, :k]
    np.testing.assert_allclose(rank_block(score, gain, sizes, ties, k), whole, rtol=1e-15)


@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("n_cut", [1, 5, 40])  # one row, some, most rows cut a group
@pytest.mark.parametrize("k", [2, 5])
def test_top_k_of_ragged_rows_agrees_with_whole_rows(ties, n_cut, k):
    # reference as above, on ragged rows (padding: score and gain -inf) of distinct
    # scores, where the first n_cut rows get a tie group across k
    rng = np.random.default_rng(n_cut)
    n_rows, width = 50, 60
    sizes = rng.integers(1, width + 1, n_rows)
    sizes[:n_cut] = rng.integers(k + 2, width + 1, n_cut)
    score = rng.permuted(np.tile(np.arange(width, dtype=float), (n_rows, 1)), axis=1)
    top = np.argsort(-np.where(np.arange(width) < sizes[:, None], score, -1), axis=1)
    for row in range(n_cut):  # positions k - 1 and k tied, and a third member further
        score[row, top[row, [k, k + 1]]] = score[row, top[row, k - 1]]
    gain = rng.integers(0, 4, (n_rows, width)).astype(float)
    padding = np.arange(width) >= sizes[:, np.newaxis]
    score[padding], gain[padding] = -np.inf, -np.inf
    whole = rank_block(score, gain, sizes, ties, None)[:, :k]
    np.testing.assert_allclose(rank_block(score, gain, sizes, ties, k), whole, rtol=1e-15)


def test_docno_accepts_tie_groups_of_equal_gains_across_k():
    """ties="docno" orders as "first" when no tie group holds different gains, also
    when a group straddles k and its members beyond k have the gain of those within;
    each query is judged on its own group (hand-made, two queries in one block)."""
    score = np.array([[3.0, 2.0, 2.0, 2.0, 1.0], [3.0, 2.0, 2.0, 0.0, 0.0]])
    gain = np.array([[4.0, 1.0, 1.0, 1.0, 9.0], [5.0, 2.0, 2.0, 7.0, 0.0]])
    sizes = np.array([5, 5])
    # hand: by decreasing score, the first two of each row
    np.testing.assert_array_equal(rank_block(score, gain, sizes, DOCNO_TIES, 2), [[4, 1], [5, 2]])


def test_docno_refuses_a_group_beyond_k_of_different_gains():
    # hand: k=2 cuts the group of score 2 (gains 1, 1, 0) after its first member;
    # the top 3 hold gains 1, 1 only: the refusal looks at the whole group
    score, gain = np.array([[3.0, 2.0, 2.0, 2.0]]), np.array([[4.0, 1.0, 1.0, 0.0]])
    with pytest.raises(ValueError, match="ties='docno'"):
        rank_block(score, gain, np.array([4]), DOCNO_TIES, 2)


def test_explicit_ties_without_ignore_ties_is_fine():
    # the default of ties is a sentinel: only the pair ties + ignore_ties is an error;
    # ignore_ties=None leaves ties as given, True and False mean scikit-learn's order
    # (here "first") and "average"
    y_true = [[3, 2, 1, 0, 0], [0, 1, 2, 0, 1]]
    y_score = [[0.5, 0.4, 0.4, 0.2, 0.1], [0.1, 0.2, 0.2, 0.4, 0.5]]
    for ties in TIE_RULES:
        assert dcg_score(y_true, y_score, ties=ties, ignore_ties=None) == dcg_score(
            y_true, y_score, ties=ties
        )
    first, average = ndcg_score(y_true, y_score, ties="first"), ndcg_score(y_true, y_score)
    assert first != average  # the tied scores make the two rules differ here
    # scikit-learn orders ties by np.argsort(y_score)[:, ::-1], here not the input order
    assert ndcg_score(y_true, y_score, ignore_ties=True) == pytest.approx(
        skm.ndcg_score(y_true, y_score, ignore_ties=True), rel=1e-12
    )
    assert ndcg_score(y_true, y_score, ignore_ties=False) == average


def _ranked_by_hand(score, gain, ties, k):
    """One query by plain Python: gains by decreasing score, tied documents in input
    order ("first") or each given its whole group's mean gain ("average")."""
    rows = sorted(range(len(score)), key=lambda i: -score[i])  # sorted() is stable
    if ties == "first":
        return [gain[i] for i in rows][:k]
    return [np.mean([gain[j] for j in rows if score[j] == score[i]]) for i in rows][:k]


@pytest.mark.parametrize("ties", ["first", "average"])
@pytest.mark.parametrize("k", [1, 3, 4, 10])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_rank_block_of_padded_rows_matches_plain_python(ties, k, dtype):
    """Ragged queries in one padded block (sizes 1 to 6: padding among the top or
    not), ties inside and across the cutoff, all-equal scores, k beyond the query."""
    scores = [[3, 1, 1, 1, 0, 2], [5, 5, 5, 5, 5], [2, 2, 1], [7], [1, 0, 1, 0, 1, 0]]
    gains = [[1, -2, 4, 0, 3, 2], [0, 1, 2, 3, 4], [3, 0, -1], [2], [1, 2, 3, 4, 5, 6]]
    width = 6
    score = np.full((5, width), -np.inf, dtype=dtype)
    gain = np.full((5, width), -np.inf)
    for row, (s, g) in enumerate(zip(scores, gains)):
        score[row, : len(s)], gain[row, : len(g)] = s, g
    sizes = np.array([len(s) for s in scores])
    got = rank_block(score, gain, sizes, ties, k)
    for row, (s, g) in enumerate(zip(scores, gains)):
        expected = _ranked_by_hand(s, g, ties, k)
        expected += [0.0] * (got.shape[1] - len(expected))  # padding ranks no gain
        np.testing.assert_allclose(got[row], expected, rtol=1e-15, atol=0)


@pytest.mark.parametrize("ties", ["first", "average"])
@pytest.mark.parametrize("k", [1, 3, 10])
@pytest.mark.parametrize("levels", [3, 12, None])  # heavy ties, some, none
def test_rank_block_of_wide_padded_rows_matches_plain_python(ties, k, levels):
    """Rows wider than 3 (k + 1) (``_SELECT_RATIO``), where the top is found from the
    k-th largest score (for "average" with ties, without sorting any row): sizes
    below, at and above k, tie groups above, at and across the cutoff, negative gains."""
    rng = np.random.default_rng(k * 100 + (levels or 0))
    width = 60
    sizes = rng.integers(1, width + 1, 40)
    sizes[:6] = [1, k - 1 if k > 1 else 1, k, k + 1, width, width]
    score = np.full((sizes.shape[0], width), -np.inf)
    gain = np.full((sizes.shape[0], width), -np.inf)
    rows = []
    for row, size in enumerate(sizes):
        s = rng.random(size) if levels is None else rng.integers(0, levels, size) / 7.0
        if row == 4:
            s[:] = 0.5  # one tie group over the whole row
        g = rng.integers(-2, 6, size).astype(float)
        score[row, :size], gain[row, :size] = s, g
        rows.append((s.tolist(), g.tolist()))
    got = rank_block(score, gain, sizes, ties, k)
    for row, (s, g) in enumerate(rows):
        expected = _ranked_by_hand(s, g, ties, k)
        expected += [0.0] * (got.shape[1] - len(expected))  # padding ranks no gain
        np.testing.assert_allclose(got[row], expected, rtol=1e-13, atol=1e-13)


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_group_means_are_reduceat_means_bit_for_bit(dtype):
    # reference: np.add.reduceat over every group, divided by the sizes; groups of
    # one, two and many values (beyond numpy's blocks of 8), the last to the end
    rng = np.random.default_rng(4)
    sizes = rng.choice([1, 1, 2, 2, 3, 5, 9, 40, 200], 400)
    values = (rng.random(sizes.sum()) * rng.choice([1e-3, 1.0, 1e6], sizes.sum())).astype(dtype)
    values[rng.random(values.shape[0]) < 0.05] = -0.0
    starts = np.cumsum(sizes) - sizes
    expected = np.add.reduceat(values, starts) / sizes
    got = group_means(values, starts, sizes)
    assert got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))
    # some groups only (as for a cutoff): their means alone
    some = np.sort(rng.choice(sizes.shape[0], 50, replace=False))
    np.testing.assert_array_equal(group_means(values, starts[some], sizes[some]), expected[some])
