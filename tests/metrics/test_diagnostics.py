"""Tie diagnostics (issue 17): how far tie-breaking alone can move NDCG.

References by enumeration, without library code: the pessimistic and optimistic
NDCG are the minimum and maximum NDCG over every ordering of the documents that
the scores allow (tied documents in any order), and a top ``k`` is cut through
a tie group when the k-th and the (k+1)-th highest scores are equal.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from sklearn_ndcg import NDCGCurveDisplay, ndcg_score, query_scores, tie_diagnostics


def _ndcg_of_order(labels, order, k):
    def dcg(gains):
        return sum(
            g / math.log2(r + 1) for r, g in enumerate(gains, start=1) if k is None or r <= k
        )

    ideal = dcg(sorted(labels, reverse=True))
    return dcg([labels[d] for d in order]) / ideal if ideal > 0 else 0.0


def _extremes(labels, scores, k):
    values = [
        _ndcg_of_order(labels, order, k)
        for order in itertools.permutations(range(len(labels)))
        if all(scores[a] >= scores[b] for a, b in itertools.pairwise(order))
    ]
    return min(values), max(values)


def _cut(scores, k):
    ranked = sorted(scores, reverse=True)
    return k is not None and len(ranked) > k and ranked[k - 1] == ranked[k]


@pytest.mark.parametrize("k", [None, 1, 2, 3])
@pytest.mark.parametrize("seed", range(15))
def test_extremes_and_cuts_against_enumeration(k, seed):
    rng = np.random.default_rng([60, seed])
    sizes = rng.integers(1, 7, 4)
    qid = np.repeat([40, 10, 30, 20], sizes)
    labels = rng.integers(0, 4, qid.shape[0])
    scores = rng.integers(0, 3, qid.shape[0])
    result = tie_diagnostics(labels, scores, qid=qid, k=k)
    np.testing.assert_array_equal(result.qid, [10, 20, 30, 40])
    for i, q in enumerate(result.qid):
        rows = np.flatnonzero(qid == q)
        low, high = _extremes(list(labels[rows]), list(scores[rows]), k)
        assert result.pessimistic[i] == pytest.approx(low, rel=1e-12, abs=1e-15)
        assert result.optimistic[i] == pytest.approx(high, rel=1e-12, abs=1e-15)
        assert result.cut[i] == _cut(list(scores[rows]), k)
    assert result.cut_share == pytest.approx(result.cut.mean(), rel=1e-15)
    assert result.mean_spread == pytest.approx(np.mean(result.spread), rel=1e-12, abs=1e-15)


def test_every_tie_rule_lies_in_the_range():
    rng = np.random.default_rng(5)
    y_true, y_score = rng.integers(0, 4, (50, 10)), rng.integers(0, 3, (50, 10))
    result = tie_diagnostics(y_true, y_score, k=5)
    for ties in ("average", "first"):
        per_query = query_scores(y_true, y_score, k=5, ties=ties).score
        assert (result.pessimistic <= per_query + 1e-15).all()
        assert (per_query <= result.optimistic + 1e-15).all()


def test_tie_free_scores_have_no_spread():
    rng = np.random.default_rng(6)
    y_true, y_score = rng.integers(0, 4, (30, 8)), rng.random((30, 8))
    result = tie_diagnostics(y_true, y_score, k=3)
    assert not result.cut.any() and result.cut_share == 0.0
    np.testing.assert_array_equal(result.pessimistic, result.optimistic)


def test_constant_model_is_decided_by_ties():
    """A constant model: every query cut at k, and the range spans best to worst."""
    y_true = [[1, 0, 0, 2], [0, 0, 3, 0]]
    result = tie_diagnostics(y_true, np.zeros((2, 4)), k=2)
    assert result.cut.tolist() == [True, True]
    np.testing.assert_array_equal(result.optimistic, [1.0, 1.0])
    np.testing.assert_array_equal(result.pessimistic, [0.0, 0.0])
    assert result.mean_spread == 1.0


def test_weights_enter_the_summaries():
    result = tie_diagnostics(
        [1, 0, 1, 0], [1, 1, 2, 1], qid=[1, 1, 2, 2], k=1, sample_weight=[3, 3, 1, 1]
    )
    assert result.cut.tolist() == [True, False]
    assert result.cut_share == pytest.approx(0.75, rel=1e-15)
    assert result.mean_spread == pytest.approx(0.75, rel=1e-15)


def test_display_tie_range_is_the_mean_extremes():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    rng = np.random.default_rng(7)
    y_true, y_score = rng.integers(0, 4, (20, 6)), rng.integers(0, 3, (20, 6))
    ks = [1, 3, 6]
    display = NDCGCurveDisplay.from_predictions(y_true, y_score, k=ks, show_tie_range=True)
    for i, k in enumerate(ks):
        result = tie_diagnostics(y_true, y_score, k=k)
        assert display.tie_range_[0, i] == pytest.approx(result.pessimistic.mean(), rel=1e-12)
        assert display.tie_range_[1, i] == pytest.approx(result.optimistic.mean(), rel=1e-12)
        assert display.tie_range_[0, i] <= display.ndcg_[i] <= display.tie_range_[1, i]
    assert display.tie_band_ is not None
    assert ndcg_score(y_true, y_score, k=3, ties="pessimistic") == pytest.approx(
        display.tie_range_[0, 1], rel=1e-12
    )
