"""Min-max normalised NDCG (issue 17; Gienapp, Froebe, Hagen and Potthast, CIKM 2020).

``normalize="minmax"`` is (DCG - worst DCG) / (ideal DCG - worst DCG) per query.
The references here do not use the library: the ideal and worst DCG are the
maximum and minimum DCG over *every ordering* of a query's documents, enumerated
with itertools, in exact arithmetic (fractions with the reciprocal discount, 50
digit mpmath with log2). That the worst ordering is "by increasing gain" is thus
checked, not assumed.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, PredefinedSplit

from sklearn_ndcg import (
    NDCGCurveDisplay,
    RankingEvaluator,
    make_ndcg_scorer,
    ndcg_score,
    query_scores,
)

mpmath.mp.dps = 50


def _discount(rank: int, discount: str):
    if discount == "reciprocal":
        return Fraction(1, rank)
    return 1 / mpmath.log(rank + 1, 2)  # mpmath at 50 digits


def _dcg(gains, discount, k):
    return sum(
        (g * _discount(r, discount) for r, g in enumerate(gains, start=1) if k is None or r <= k),
        Fraction(0),
    )


def _minmax_by_enumeration(labels, scores, *, discount, k, ties="average"):
    """(DCG - min) / (max - min), min and max over all orderings; None if undefined.

    The DCG of the ranking is the mean over all orderings of tied documents.
    """
    gains = [Fraction(int(label)) for label in labels]
    every = [_dcg(order, discount, k) for order in itertools.permutations(gains)]
    best, worst = max(every), min(every)
    consistent = [
        _dcg([gains[i] for i in order], discount, k)
        for order in itertools.permutations(range(len(gains)))
        if all(scores[a] >= scores[b] for a, b in itertools.pairwise(order))
    ]
    if ties == "pessimistic":
        dcg = min(consistent)
    elif ties == "optimistic":
        dcg = max(consistent)
    else:
        dcg = sum(consistent, Fraction(0)) / len(consistent)
    if best - worst <= 0:
        return None
    return (dcg - worst) / (best - worst)


def _close(got: float, exact) -> None:
    exact = float(exact)
    assert abs(got - exact) <= 1e-12 * max(1.0, abs(exact)), (got, exact)


@pytest.mark.parametrize("discount", ["reciprocal", "log2"])
@pytest.mark.parametrize("k", [None, 1, 2, 4])
@pytest.mark.parametrize("ties", ["average", "pessimistic", "optimistic"])
@pytest.mark.parametrize("seed", range(12))
def test_minmax_equals_enumeration_of_every_ordering(discount, k, ties, seed):
    """Random small queries with negative labels and tied scores, exact reference."""
    rng = np.random.default_rng([17, seed])
    n = int(rng.integers(1, 6))
    labels = rng.integers(-2, 4, n)
    scores = rng.integers(0, 3, n)  # coarse: ties
    exact = _minmax_by_enumeration(labels, scores, discount=discount, k=k, ties=ties)
    (got,) = query_scores(
        labels,
        scores,
        qid=np.zeros(n),
        k=k,
        discount=discount,
        ties=ties,
        normalize="minmax",
        zero_division=np.nan,
    ).score
    if exact is None:
        assert np.isnan(got)
    else:
        _close(got, exact)
        assert 0.0 <= got <= 1.0


def test_good_fair_bad_example():
    """The seed's Good/Fair/Bad remedy, end to end (tests/data/seed-examples.md).

    Labels good 1, fair 0, bad -1; three rankings of the same three documents.
    DCG / ideal DCG is unbounded below once bad documents have negative gain
    (-1.0 for the ranking bad-fair-good); min-max normalisation keeps every
    ranking in [0, 1]: 1 for the best order, 0 for the worst, and a bad
    document at rank 2 costs more than a fair one. Expected values by hand:
    ideal DCG = 1 - 1/2 = 0.5, worst DCG = -1 + 1/2 = -0.5 (log2 discount,
    ranks 1 and 3 weigh 1 and 1/2); bad at rank 2: DCG = 1 - 1/log2(3).
    """
    labels = [[1, 0, -1]]
    best, bad_second, worst = [[3, 2, 1]], [[3, 1, 2]], [[1, 2, 3]]
    penalise = {1: 1.0, 0: 0.0, -1: -1.0}
    ideal = [ndcg_score(labels, s, gain=penalise) for s in (best, bad_second, worst)]
    minmax = [ndcg_score(labels, s, normalize="minmax") for s in (best, bad_second, worst)]
    bad_dcg = 1 - 1 / mpmath.log(3, 2)
    _close(ideal[1], bad_dcg / mpmath.mpf("0.5"))
    assert ideal[0] == 1.0 and ideal[2] == pytest.approx(-1.0, rel=1e-15)
    _close(minmax[1], (bad_dcg + mpmath.mpf("0.5")) / 1)
    assert minmax[0] == 1.0 and minmax[2] == 0.0
    # a fair document at rank 2 (best) beats a bad one there, under both
    assert minmax[0] > minmax[1] > minmax[2]
    # the built-in gains take the negative labels only under minmax
    with pytest.raises(ValueError, match='normalize="minmax"'):
        ndcg_score(labels, best)


def test_minmax_of_nonnegative_labels_against_hand_computation():
    """Seed example 1 ([3, 2, 0, 0, 1] ranked): worst order 0, 0, 1, 2, 3.

    worst DCG = 1/log2(4) + 2/log2(5) + 3/log2(6); DCG and ideal DCG as in the
    seed examples (4.6487..., 4.7618...).
    """
    d = [1 / mpmath.log(r + 1, 2) for r in range(1, 6)]
    dcg = 3 * d[0] + 2 * d[1] + 1 * d[4]
    ideal = 3 * d[0] + 2 * d[1] + 1 * d[2]
    worst = 1 * d[2] + 2 * d[3] + 3 * d[4]
    got = ndcg_score([[3, 2, 0, 0, 1]], [[5, 4, 3, 2, 1]], normalize="minmax")
    _close(got, (dcg - worst) / (ideal - worst))


def test_undefined_queries_follow_zero_division():
    """One document, or all gains equal: every ordering is worth the same."""
    y_true = [2, 1, 1, 1, 0, 3]
    y_score = [0.5, 0.1, 0.2, 0.3, 0.4, 0.6]
    qid = [1, 2, 2, 2, 3, 4]  # query 1 and 4: one document; 2: equal labels; 3: one doc
    for zero_division in (0.0, 1.0):
        got = query_scores(
            y_true, y_score, qid=qid, normalize="minmax", zero_division=zero_division
        )
        np.testing.assert_array_equal(got.score, [zero_division] * 4)
    got = query_scores(y_true, y_score, qid=qid, normalize="ideal")
    np.testing.assert_array_equal(got.score, [1.0, 1.0, 0.0, 1.0])


def test_minmax_is_ideal_when_the_worst_dcg_is_zero():
    """With k at most the number of irrelevant documents the worst DCG@k is 0."""
    rng = np.random.default_rng(3)
    y_true = np.where(rng.random((40, 12)) < 0.5, 0, rng.integers(1, 4, (40, 12)))
    y_true[:, :3] = 0  # at least 3 irrelevant documents per query
    y_score = rng.random((40, 12))
    for k in (1, 2, 3):
        assert ndcg_score(y_true, y_score, k=k, normalize="minmax") == pytest.approx(
            ndcg_score(y_true, y_score, k=k), rel=1e-12
        )


def test_minmax_everywhere_ndcg_options_go():
    """Scorer, evaluator and display agree with ndcg_score(normalize="minmax")."""
    rng = np.random.default_rng(0)
    qid = np.repeat(np.arange(30), 6)
    X = rng.normal(size=(180, 3))
    y = np.clip(np.round(X[:, 0] + rng.normal(size=180)), -1, 2)  # good/fair/bad/...
    model = Ridge().fit(X, y)
    expected = ndcg_score(y, model.predict(X), qid=qid, k=3, normalize="minmax")
    scorer = make_ndcg_scorer(k=3, normalize="minmax")
    assert scorer(model, X, y, qid=qid) == expected
    evaluator = RankingEvaluator(Ridge(), k=3, normalize="minmax").fit(X, y, qid=qid)
    assert evaluator.score(X, y, qid=qid) == expected
    display = NDCGCurveDisplay.from_predictions(
        y, model.predict(X), qid=qid, k=[3], normalize="minmax"
    )
    assert display.ndcg_[0] == pytest.approx(expected, rel=1e-12)


def test_minmax_in_a_search():
    """A search selects by min-max NDCG; each fold equals a direct call."""
    import sklearn

    rng = np.random.default_rng(1)
    qid = np.repeat(np.arange(24), 5)
    X = rng.normal(size=(120, 2))
    y = np.clip(np.round(X[:, 0] + rng.normal(size=120)), -1, 2)
    cv = PredefinedSplit(qid % 3)
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            Ridge(), {"alpha": [0.1, 100.0]}, cv=cv, scoring=make_ndcg_scorer(normalize="minmax")
        ).fit(X, y, qid=qid)
    for fold, (train, test) in enumerate(cv.split()):
        model = Ridge(alpha=search.cv_results_["param_alpha"][0]).fit(X[train], y[train])
        direct = ndcg_score(y[test], model.predict(X[test]), qid=qid[test], normalize="minmax")
        assert search.cv_results_[f"split{fold}_test_score"][0] == direct


def test_minmax_in_dask():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from sklearn_ndcg import dask as ndcg_dask

    rng = np.random.default_rng(2)
    frame = pd.DataFrame(
        {
            "qid": np.repeat(np.arange(50), 4),
            "label": rng.integers(-1, 3, 200),
            "score": rng.integers(0, 4, 200),
        }
    )
    got = ndcg_dask.ndcg_score(dd.from_pandas(frame, npartitions=3), k=2, normalize="minmax")
    expected = ndcg_score(frame["label"], frame["score"], qid=frame["qid"], k=2, normalize="minmax")
    assert got == pytest.approx(expected, rel=1e-12)


def test_minmax_stays_in_bounds_despite_rounding():
    """Tie averaging of fractional labels can round DCG / ideal an ulp above 1;
    min-max NDCG is kept in [0, 1] (found by the docs' checks)."""
    labels = [0.4, 0.1, 0.4, 0, 0.1, 0.4, 0, 0.4]
    scores = [0.3, 0.2, 0, 0.1, 0.2, 0.3, 0.1, 0.3]
    got = query_scores([labels], [scores], k=1, normalize="minmax").score
    np.testing.assert_array_equal(got, [1.0])  # exact: three tied documents of 0.4 at rank 1
