"""Per-document weights in DCG (issue 17): inverse-propensity (IPS) DCG.

``document_weight`` multiplies each document's gain in the DCG, never in the
ideal DCG. The reference is the definition written out one document at a time
(with the mean over every ordering of tied documents for ``ties="average"``):
plain Python over ``itertools.permutations``, no library code.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from sklearn_ndcg import dcg_score, ndcg_score, query_scores
from sklearn_ndcg._engine import RankingOptions


def _ips_dcg(labels, scores, weights, *, k=None, ties="average"):
    """Mean over the orderings allowed by the scores (and the tie rule) of
    sum over ranks r <= k of label * weight / log2(r + 1)."""
    docs = range(len(labels))
    orders = [
        order
        for order in itertools.permutations(docs)
        if all(scores[a] >= scores[b] for a, b in itertools.pairwise(order))
    ]
    if ties == "first":  # the one allowed ordering that keeps the input order of ties
        orders = [min(orders, key=lambda o: [(-scores[d], d) for d in o])]

    def dcg(order):
        return sum(
            labels[d] * weights[d] / math.log2(r + 1)
            for r, d in enumerate(order, start=1)
            if k is None or r <= k
        )

    values = [dcg(order) for order in orders]
    return sum(values) / len(values)


def _ideal(labels, k=None):
    ranked = sorted(labels, reverse=True)[:k]
    return sum(g / math.log2(r + 1) for r, g in enumerate(ranked, start=1))


@pytest.mark.parametrize("k", [None, 1, 3])
@pytest.mark.parametrize("ties", ["average", "first"])
@pytest.mark.parametrize("seed", range(10))
def test_ips_dcg_and_ndcg_against_the_definition(k, ties, seed):
    rng = np.random.default_rng([1182, seed])
    sizes = rng.integers(1, 6, 3)
    qid = np.repeat([5, 3, 9], sizes)
    labels = rng.integers(0, 4, qid.shape[0])
    scores = rng.integers(0, 3, qid.shape[0])  # ties
    weights = rng.uniform(0.0, 3.0, qid.shape[0]).round(2)
    got_dcg = query_scores(
        labels, scores, qid=qid, metric="dcg", k=k, ties=ties, document_weight=weights
    )
    got_ndcg = query_scores(labels, scores, qid=qid, k=k, ties=ties, document_weight=weights)
    for i, q in enumerate(got_dcg.qid):
        rows = np.flatnonzero(qid == q)
        expected = _ips_dcg(labels[rows], scores[rows], weights[rows], k=k, ties=ties)
        assert got_dcg.score[i] == pytest.approx(expected, rel=1e-12, abs=1e-15)
        ideal = _ideal(list(labels[rows]), k)  # unweighted
        expected_ndcg = expected / ideal if ideal > 0 else 0.0
        assert got_ndcg.score[i] == pytest.approx(expected_ndcg, rel=1e-12, abs=1e-15)


def test_hand_computed_ips_example():
    """Labels [3, 2, 1] ranked as given, propensities 1, 0.5, 0.25 (weights 1, 2, 4):

    IPS-DCG = 3 * 1 + 2 * 2 / log2(3) + 1 * 4 / log2(4) = 3 + 4 / log2(3) + 2.
    """
    got = dcg_score([[3, 2, 1]], [[3, 2, 1]], document_weight=[[1, 2, 4]])
    assert got == pytest.approx(5 + 4 / math.log2(3), rel=1e-15)


def test_unit_weights_change_nothing():
    rng = np.random.default_rng(0)
    y_true, y_score = rng.integers(0, 4, (20, 8)), rng.integers(0, 5, (20, 8))
    for ties in RankingOptions.TIE_RULES:
        assert ndcg_score(y_true, y_score, ties=ties, document_weight=np.ones((20, 8))) == (
            ndcg_score(y_true, y_score, ties=ties)
        )


def test_weights_apply_to_the_dcg_only():
    """Doubling every weight doubles the DCG and the NDCG (the ideal stays)."""
    rng = np.random.default_rng(1)
    y_true, y_score = rng.integers(0, 4, 60), rng.random(60)
    qid = np.repeat(np.arange(10), 6)
    weights = rng.uniform(0.5, 2.0, 60)
    once = query_scores(y_true, y_score, qid=qid, document_weight=weights).score
    twice = query_scores(y_true, y_score, qid=qid, document_weight=2 * weights).score
    np.testing.assert_allclose(twice, 2 * once, rtol=1e-14)


def test_document_weight_and_sample_weight_are_distinct():
    """sample_weight weighs queries in the mean; document_weight documents in a DCG."""
    y_true = [[3, 2, 1], [1, 0, 0]]
    y_score = [[3, 2, 1], [1, 2, 3]]
    per_query = query_scores(y_true, y_score, metric="dcg", document_weight=[[1, 1, 0], [2, 2, 2]])
    expected = [3 + 2 / math.log2(3), 2 * 1 / math.log2(4)]
    np.testing.assert_allclose(per_query.score, expected, rtol=1e-15)
    got = dcg_score(
        y_true, y_score, document_weight=[[1, 1, 0], [2, 2, 2]], sample_weight=[1.0, 3.0]
    )
    assert got == pytest.approx((expected[0] + 3 * expected[1]) / 4, rel=1e-15)


def test_zero_propensity_weight_removes_a_document_from_the_dcg():
    got = dcg_score([[3, 2, 1]], [[3, 2, 1]], document_weight=[[1, 0, 1]])
    assert got == pytest.approx(3 + 1 / math.log2(4), rel=1e-15)


def test_document_weight_routed_to_the_scorer_and_the_evaluator():
    """In a search, each fold's IPS-NDCG equals a direct call on that fold."""
    import sklearn
    from sklearn.linear_model import Ridge
    from sklearn.model_selection import GridSearchCV, PredefinedSplit

    from sklearn_ndcg import RankingEvaluator, make_ndcg_scorer

    rng = np.random.default_rng(3)
    qid = np.repeat(np.arange(24), 5)
    X = rng.normal(size=(120, 2))
    y = np.clip(np.round(X[:, 0] + rng.normal(size=120)), 0, 3)
    propensity = 1 / np.tile(np.arange(1, 6), 24)  # position-based, rank r seen with 1/r
    weight = 1 / propensity
    cv = PredefinedSplit(qid % 3)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            Ridge(), {"alpha": [0.1, 100.0]}, cv=cv, scoring=make_ndcg_scorer(k=3)
        ).fit(X, y, qid=qid, document_weight=weight)
        by_evaluator = GridSearchCV(
            RankingEvaluator(Ridge(), k=3), {"estimator__alpha": [0.1, 100.0]}, cv=cv
        ).fit(X, y, qid=qid, document_weight=weight)
    for fold, (train, test) in enumerate(cv.split()):
        for i, alpha in enumerate([0.1, 100.0]):
            model = Ridge(alpha=alpha).fit(X[train], y[train])
            direct = ndcg_score(
                y[test], model.predict(X[test]), qid=qid[test], k=3, document_weight=weight[test]
            )
            assert search.cv_results_[f"split{fold}_test_score"][i] == direct
            assert by_evaluator.cv_results_[f"split{fold}_test_score"][i] == pytest.approx(
                direct, rel=1e-12
            )
