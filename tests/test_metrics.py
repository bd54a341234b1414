"""Tests of the public metric functions: ndcg_score, dcg_score, query_scores.

Expected values come from the worked examples of ``shared/seed-examples.md``
(30-digit values), from hand arithmetic, from scikit-learn, or from the slow
reference in ``tests/_reference.py``; never from the library itself.
"""

import copy
import itertools
import math
import warnings

import _reference as ref
import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ndcg import QueryScores, dcg_score, ndcg_score, query_scores

RTOL = 1e-12
TIE_RULES = ["average", "first", "optimistic", "pessimistic"]


# --------------------------------------------------------------------------
# Worked examples of seed-examples.md
# --------------------------------------------------------------------------


def test_documents_example():
    """Seed example 1, hand computation: ranked relevance [3, 2, 0, 0, 1]."""
    ranked = [3, 2, 0, 0, 1]
    score = [5, 4, 3, 2, 1]  # distinct scores: the list order is the ranking
    # seed-examples.md, example 1 (30 digits)
    dcg = 4.64871231437745646106930036715
    idcg = 4.76185950714291487419905422869
    ndcg = 0.976238863705295244586188176701
    # hand computation: 3 + 2 / log2(3) + 0 + 0 + 1 / log2(6)
    assert dcg == pytest.approx(3 + 2 / np.log2(3) + 1 / np.log2(6), rel=1e-15)
    for ties in TIE_RULES:
        assert dcg_score(ranked, score, ties=ties) == pytest.approx(dcg, rel=1e-14)
        assert ndcg_score(ranked, score, ties=ties) == pytest.approx(ndcg, rel=1e-14)
    assert dcg_score(ranked, ranked, ties="first") == pytest.approx(idcg, rel=1e-14)
    # the same as 2-D input
    assert ndcg_score([ranked], [score]) == pytest.approx(ndcg, rel=1e-14)


def test_documents_example_as_scikit_learn_call():
    """Seed example 1 as run through scikit-learn: the scores tie (two zeros).

    seed-examples.md: scikit-learn prints DCG 4.670624189796882, IDCG
    4.761859507142915, NDCG 0.980840401274087, and so must ties="average".
    """
    y_true, y_score = [[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]]
    # the printed values, to the package's tolerance (the last digit depends on
    # the order of a float sum, which differs between numpy versions)
    exact = pytest.approx(4.670624189796882, rel=1e-12)
    assert dcg_score(y_true, y_score) == exact
    assert dcg_score(y_true, y_score, ties="average") == exact
    assert dcg_score(y_true, y_true) == pytest.approx(4.761859507142915, rel=1e-12)
    assert ndcg_score(y_true, y_score) == pytest.approx(0.980840401274087, rel=1e-12)
    assert ndcg_score(y_true, y_score, ties="average") == pytest.approx(
        0.980840401274087, rel=1e-12
    )
    assert dcg_score(y_true, y_score) == pytest.approx(skm.dcg_score(y_true, y_score), rel=1e-12)
    assert ndcg_score(y_true, y_score) == pytest.approx(skm.ndcg_score(y_true, y_score), rel=1e-12)
    # hand computation: the tied pair (relevance 1 and 0) shares ranks 4 and 5,
    # each getting the mean gain 0.5
    expected = 3 + 2 / np.log2(3) + 0 / np.log2(4) + 0.5 / np.log2(5) + 0.5 / np.log2(6)
    assert dcg_score(y_true, y_score) == pytest.approx(expected, rel=1e-14)


# seed-examples.md, example 2: k, CG@k, DCG@k, IDCG@k, NDCG@k (30 digits)
MOVIE_TABLE = [
    (1, 4, 4.0, 5.0, 0.8),
    (
        2,
        6,
        5.26185950714291487419905422869,
        8.15464876785728718549763557171,
        0.645258877106183365251901544613,
    ),
    (
        3,
        11,
        7.76185950714291487419905422869,
        10.1546487678572871854976355717,
        0.764365138035269520250092792647,
    ),
    (
        4,
        14,
        9.05388918136309402620937393498,
        11.446678442077466337507955278,
        0.790962131694152563559847656116,
    ),
    (
        5,
        19,
        10.9881532175358019605606046273,
        12.2203840565465495112484475549,
        0.899165948196969109318662500767,
    ),
]


@pytest.mark.parametrize("k, cg, dcg, idcg, ndcg", MOVIE_TABLE)
def test_movie_example(k, cg, dcg, idcg, ndcg):
    """Seed example 2: movies A..E ranked with relevance [4, 2, 5, 3, 5]."""
    y_true, y_score = [[5, 5, 4, 3, 2]], [[3, 1, 5, 2, 4]]
    assert dcg_score(y_true, y_score, k=k, discount="none") == pytest.approx(cg, rel=1e-15)
    assert dcg_score(y_true, y_score, k=k) == pytest.approx(dcg, rel=1e-14)
    assert dcg_score(y_true, y_true, k=k) == pytest.approx(idcg, rel=1e-14)
    assert ndcg_score(y_true, y_score, k=k) == pytest.approx(ndcg, rel=1e-14)
    # long format, movies in ranked order A..E
    ranked = [4, 2, 5, 3, 5]
    assert ndcg_score(ranked, [5, 4, 3, 2, 1], k=k) == pytest.approx(ndcg, rel=1e-14)
    assert ndcg_score(y_true, y_score, k=k) == pytest.approx(
        skm.ndcg_score(y_true, y_score, k=k), rel=RTOL
    )


def test_movie_example_scikit_learn_value():
    # seed-examples.md: sklearn.metrics.ndcg_score(..., k=3) = 0.7643651380352695
    assert ndcg_score([[5, 5, 4, 3, 2]], [[3, 1, 5, 2, 4]], k=3) == pytest.approx(
        0.7643651380352695, rel=1e-15
    )


def test_six_documents_example():
    """Seed example 3: ranked relevance [3, 2, 3, 0, 1, 2]."""
    ranked = [3, 2, 3, 0, 1, 2]
    score = [6, 5, 4, 3, 2, 1]
    # seed-examples.md, example 3 (30 digits)
    dcg = 6.86112668859350081409765452316
    idcg = 7.14099518409569999950904061903
    ndcg = 0.960808194336061530996183238844
    assert dcg_score(ranked, score) == pytest.approx(dcg, rel=1e-14)
    assert dcg_score(ranked, ranked) == pytest.approx(idcg, rel=1e-14)
    assert ndcg_score(ranked, score) == pytest.approx(ndcg, rel=1e-14)
    # rounded in the literature to 6.861, 7.141, 0.961
    assert round(dcg_score(ranked, score), 3) == 6.861
    assert round(ndcg_score(ranked, score), 3) == 0.961


def test_exponential_gain_example():
    """Seed example 4: rank labels [4, 3, 5, 2, 1] in list order, gain 2**rel - 1."""
    labels = [4, 3, 5, 2, 1]
    score = [5, 4, 3, 2, 1]
    # seed-examples.md, example 4 (30 digits)
    idcg = 45.6428287850265822953734725599
    dcg = 36.5953907564549227985772556452
    ndcg = 0.801777447423685348463794833909
    # hand computation: ideal gains 31, 15, 7, 3, 1
    assert idcg == pytest.approx(
        31 + 15 / np.log2(3) + 7 / 2 + 3 / np.log2(5) + 1 / np.log2(6), rel=1e-15
    )
    assert dcg_score(labels, score, gain="exponential") == pytest.approx(dcg, rel=1e-14)
    assert dcg_score(labels, labels, gain="exponential") == pytest.approx(idcg, rel=1e-14)
    result = ndcg_score(labels, score, gain="exponential")
    assert result == pytest.approx(ndcg, rel=1e-14)
    # "quoted as 0.801": a truncation of 0.80178; rounded it is 0.802
    assert math.floor(result * 1000) / 1000 == 0.801
    assert round(result, 3) == 0.802


@pytest.mark.parametrize("base", [math.e, 10.0, 3.0, 1.5])
def test_exponential_gain_example_log_base(base):
    """Seed example 4, note: the log base cancels in NDCG; DCG scales by log2(base)."""
    labels, score = [4, 3, 5, 2, 1], [5, 4, 3, 2, 1]
    dcg = 36.5953907564549227985772556452  # seed-examples.md, example 4
    ndcg = 0.801777447423685348463794833909
    got = dcg_score(labels, score, gain="exponential", log_base=base)
    assert got == pytest.approx(dcg * math.log2(base), rel=1e-13)
    if base == math.e:  # "a natural-log discount gives DCG / ln 2"
        assert got == pytest.approx(dcg / math.log(2), rel=1e-13)

    def log_base_discount(rank):
        return 1.0 / (np.log(rank + 1.0) / np.log(base))

    assert ndcg_score(
        labels, score, gain="exponential", discount=log_base_discount
    ) == pytest.approx(ndcg, rel=1e-13)
    assert dcg_score(
        labels, score, gain="exponential", discount=log_base_discount
    ) == pytest.approx(dcg * math.log2(base), rel=1e-13)


def test_known_limitations_of_ndcg():
    """seed-examples.md, example 3 notes: what NDCG does not penalise, and does."""
    # trailing irrelevant items are not penalised
    assert ndcg_score([1, 1, 1], [3, 2, 1]) == 1.0
    assert ndcg_score([1, 1, 1, 0], [4, 3, 2, 1]) == 1.0
    # nor missing items: the ideal only knows the listed documents
    assert ndcg_score([1, 1, 1, 1, 1], [5, 4, 3, 2, 1]) == 1.0
    # graded good / fair / bad = 1 / 0 / -1 penalises the bad item
    good_fair_bad = {1: 1.0, 0: 0.0, -1: -1.0}
    bad_on_top = ndcg_score([-1, 1, 0], [3, 2, 1], gain=good_fair_bad)
    # hand computation: ranked gains [-1, 1, 0], ideal [1, 0, -1]
    assert bad_on_top == pytest.approx((-1 + 1 / np.log2(3)) / (1 - 1 / 2), rel=1e-14)
    assert bad_on_top < 0


def test_reference_reproduces_seed_examples():
    """The slow reference itself agrees with the literature."""
    assert ref.dcg([3, 2, 0, 0, 1], [5, 4, 3, 2, 1]) == pytest.approx(
        4.64871231437745646106930036715, rel=1e-14
    )
    assert ref.ndcg([[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]]) == pytest.approx(
        0.980840401274087, rel=1e-14
    )
    assert ref.ndcg([4, 3, 5, 2, 1], [5, 4, 3, 2, 1], gain="exponential") == pytest.approx(
        0.801777447423685348463794833909, rel=1e-14
    )
    for k, _, _, _, ndcg in MOVIE_TABLE:
        assert ref.ndcg([4, 2, 5, 3, 5], [5, 4, 3, 2, 1], k=k) == pytest.approx(ndcg, rel=1e-14)


# --------------------------------------------------------------------------
# Agreement with scikit-learn on 2-D input
# --------------------------------------------------------------------------


def _random_2d(seed, ties):
    """Random 2-D labels and scores; tied scores when ``ties``."""
    rng = np.random.default_rng(seed)
    n_queries, n_docs = rng.integers(1, 9), rng.integers(2, 12)
    if seed % 3 == 0:  # continuous non-negative relevance
        y_true = rng.uniform(0, 5, size=(n_queries, n_docs))
    else:
        y_true = rng.integers(0, 5, size=(n_queries, n_docs)).astype(float)
    y_true[0] = 0  # a query without any relevant document
    if ties:
        y_score = rng.integers(0, 3, size=(n_queries, n_docs)).astype(float)
    else:
        y_score = rng.permuted(
            np.tile(np.arange(n_docs, dtype=float), (n_queries, 1)), axis=1
        ) + rng.uniform(0, 0.5, size=(n_queries, n_docs))
    weight = rng.uniform(0, 3, size=n_queries)
    return y_true, y_score, weight


SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [False, True], ids=["no_ties", "ties"])
def test_defaults_agree_with_scikit_learn(seed, ties):
    y_true, y_score, _ = _random_2d(seed, ties)
    np.testing.assert_allclose(
        ndcg_score(y_true, y_score), skm.ndcg_score(y_true, y_score), rtol=RTOL
    )
    np.testing.assert_allclose(
        dcg_score(y_true, y_score), skm.dcg_score(y_true, y_score), rtol=RTOL
    )
    np.testing.assert_allclose(
        ndcg_score(y_true, y_score, ignore_ties=False),
        skm.ndcg_score(y_true, y_score, ignore_ties=False),
        rtol=RTOL,
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [False, True], ids=["no_ties", "ties"])
@pytest.mark.parametrize("k", [1, 2, 5, 50])
def test_k_and_sample_weight_agree_with_scikit_learn(seed, ties, k):
    y_true, y_score, weight = _random_2d(seed, ties)
    for sample_weight in (None, weight):
        np.testing.assert_allclose(
            ndcg_score(y_true, y_score, k=k, sample_weight=sample_weight),
            skm.ndcg_score(y_true, y_score, k=k, sample_weight=sample_weight),
            rtol=RTOL,
        )
        np.testing.assert_allclose(
            dcg_score(y_true, y_score, k=k, sample_weight=sample_weight),
            skm.dcg_score(y_true, y_score, k=k, sample_weight=sample_weight),
            rtol=RTOL,
        )


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("ties", [False, True], ids=["no_ties", "ties"])
@pytest.mark.parametrize("log_base", [2, math.e, 10, 1.5])
def test_dcg_log_base_agrees_with_scikit_learn(seed, ties, log_base):
    y_true, y_score, weight = _random_2d(seed, ties)
    np.testing.assert_allclose(
        dcg_score(y_true, y_score, log_base=log_base, k=3, sample_weight=weight),
        skm.dcg_score(y_true, y_score, log_base=log_base, k=3, sample_weight=weight),
        rtol=RTOL,
    )
    np.testing.assert_allclose(
        dcg_score(y_true, y_score, log_base=log_base),
        skm.dcg_score(y_true, y_score, log_base=log_base),
        rtol=RTOL,
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", [None, 1, 3])
def test_ignore_ties_agrees_with_scikit_learn_without_ties(seed, k):
    """On tie-free scores, ties="first" == ignore_ties=True == scikit-learn's."""
    y_true, y_score, weight = _random_2d(seed, ties=False)
    expected_ndcg = skm.ndcg_score(y_true, y_score, k=k, ignore_ties=True)
    expected_dcg = skm.dcg_score(y_true, y_score, k=k, ignore_ties=True, sample_weight=weight)
    for options in ({"ties": "first"}, {"ignore_ties": True}, {"ignore_ties": False}, {}):
        np.testing.assert_allclose(
            ndcg_score(y_true, y_score, k=k, **options), expected_ndcg, rtol=RTOL
        )
        np.testing.assert_allclose(
            dcg_score(y_true, y_score, k=k, sample_weight=weight, **options),
            expected_dcg,
            rtol=RTOL,
        )


@pytest.mark.parametrize("seed", range(10))
def test_ignore_ties_means_first_and_average(seed):
    """ignore_ties=True is ties="first", False is "average" (also with ties)."""
    y_true, y_score, _ = _random_2d(seed, ties=True)
    assert ndcg_score(y_true, y_score, ignore_ties=True) == ndcg_score(
        y_true, y_score, ties="first"
    )
    assert ndcg_score(y_true, y_score, ignore_ties=False) == ndcg_score(
        y_true, y_score, ties="average"
    )
    assert dcg_score(y_true, y_score, ignore_ties=True) == dcg_score(y_true, y_score, ties="first")


def test_ties_first_keeps_input_order():
    # hand computation: all scores tie, so the input order is the ranking
    y_true = [0, 1, 2]
    assert dcg_score(y_true, [1, 1, 1], ties="first") == pytest.approx(
        0 + 1 / np.log2(3) + 2 / 2, rel=1e-15
    )
    assert dcg_score([[2, 1, 0]], [[1, 1, 1]], ties="first") == pytest.approx(
        2 + 1 / np.log2(3), rel=1e-15
    )


# --------------------------------------------------------------------------
# Slow reference on random ragged long-format input
# --------------------------------------------------------------------------


def _nonmonotone_gain(rel):
    return (rel - 1.5) ** 2  # 2.25, 0.25, 0.25, 2.25 for labels 0..3


def _sqrt_discount(rank):
    return 1.0 / np.sqrt(rank)


GAINS = {
    "linear": "linear",
    "exponential": "exponential",
    "mapping_negative": {0: -1.0, 1: 0.0, 2: 1.0, 3: 3.5},
    "sequence": [0.0, 2.0, 1.0, 7.0],  # non-monotone label_gain
    "callable_nonmonotone": _nonmonotone_gain,
}
DISCOUNTS = {
    "log2": "log2",
    "reciprocal": "reciprocal",
    "none": "none",
    "callable": _sqrt_discount,
}


def _random_ragged(seed, n_queries=7, max_docs=6):
    """Long-format labels 0..3, scores with many ties, shuffled rows.

    Query ids are distinct, not contiguous and not sorted. The first query
    always has a label 3; one query has only label 0 (no relevant document
    for the built-in gains).
    """
    rng = np.random.default_rng(seed)
    ids = rng.choice(np.arange(-50, 50), size=n_queries, replace=False)
    labels, scores, qids = [], [], []
    for i, q in enumerate(ids):
        n = rng.integers(1, max_docs + 1)
        rel = rng.integers(0, 4, size=n)
        if i == 0:
            rel[0] = 3
        if i == 1:
            rel[:] = 0
        score = rng.integers(0, 3, size=n).astype(float)
        if i == 2:  # tie-free scores
            score = rng.permutation(n) + 0.25
        labels.extend(rel)
        scores.extend(score)
        qids.extend([q] * n)
    order = rng.permutation(len(labels))
    take = lambda x: np.asarray(x)[order]  # noqa: E731
    return take(labels).astype(float), take(scores), take(qids)


@pytest.mark.parametrize("k", [None, 1, 3, 100], ids=["kNone", "k1", "k3", "k100"])
@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("discount", DISCOUNTS, ids=list(DISCOUNTS))
@pytest.mark.parametrize("gain", GAINS, ids=list(GAINS))
def test_reference_on_ragged_long_format(gain, discount, ties, k):
    """Every gain x discount x ties x k, each with zero_division 0, 1 and nan."""
    seed = (
        list(GAINS).index(gain) * 1000
        + list(DISCOUNTS).index(discount) * 100
        + TIE_RULES.index(ties) * 10
        + (k or 0)
    )
    options = {"gain": GAINS[gain], "discount": DISCOUNTS[discount], "ties": ties, "k": k}
    y_true, y_score, qid = _random_ragged(seed)

    for zero_division in (0.0, 1.0, np.nan):
        expected = ref.per_query_ndcg(
            y_true, y_score, qid=qid, zero_division=zero_division, **options
        )
        result = query_scores(y_true, y_score, qid=qid, zero_division=zero_division, **options)
        assert list(result.qid) == sorted(expected)
        np.testing.assert_allclose(
            result.score,
            [expected[q] for q in sorted(expected)],
            rtol=RTOL,
            atol=1e-14,
            equal_nan=True,
            err_msg=f"zero_division={zero_division}",
        )
        np.testing.assert_allclose(
            ndcg_score(y_true, y_score, qid=qid, zero_division=zero_division, **options),
            ref.ndcg(y_true, y_score, qid=qid, zero_division=zero_division, **options),
            rtol=RTOL,
            atol=1e-14,
            err_msg=f"zero_division={zero_division}",
        )
    np.testing.assert_allclose(
        dcg_score(y_true, y_score, qid=qid, **options),
        ref.dcg(y_true, y_score, qid=qid, **options),
        rtol=RTOL,
        atol=1e-14,
    )


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("ties", TIE_RULES)
def test_reference_with_sample_weight(seed, ties):
    y_true, y_score, qid = _random_ragged(100 + seed)
    rng = np.random.default_rng(seed)
    ids = np.unique(qid)
    per_query = dict(zip(ids, rng.uniform(0, 2, size=ids.size)))
    sample_weight = np.array([per_query[q] for q in qid])
    for zero_division in (0.0, 1.0, np.nan):
        np.testing.assert_allclose(
            ndcg_score(
                y_true,
                y_score,
                qid=qid,
                ties=ties,
                k=3,
                sample_weight=sample_weight,
                zero_division=zero_division,
            ),
            ref.ndcg(
                y_true,
                y_score,
                qid=qid,
                ties=ties,
                k=3,
                sample_weight=sample_weight,
                zero_division=zero_division,
            ),
            rtol=RTOL,
        )
    np.testing.assert_allclose(
        dcg_score(y_true, y_score, qid=qid, ties=ties, sample_weight=sample_weight),
        ref.dcg(y_true, y_score, qid=qid, ties=ties, sample_weight=sample_weight),
        rtol=RTOL,
    )


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("log_base", [math.e, 10.0, 1.5])
def test_reference_dcg_log_base_long_format(seed, log_base):
    y_true, y_score, qid = _random_ragged(200 + seed)
    for ties in TIE_RULES:
        np.testing.assert_allclose(
            dcg_score(y_true, y_score, qid=qid, ties=ties, log_base=log_base, k=2),
            ref.dcg(y_true, y_score, qid=qid, ties=ties, log_base=log_base, k=2),
            rtol=RTOL,
        )


def test_average_when_k_cuts_through_a_tie_group():
    # hand computation (McSherry & Najork): ranks 1..3 tie with gains 3, 0, 0;
    # with k=2 the expected DCG is the mean gain 1 times the discounts of ranks 1, 2
    expected = 1 * (1 + 1 / np.log2(3))
    assert dcg_score([3, 0, 0, 2], [1, 1, 1, 0], k=2) == pytest.approx(expected, rel=1e-15)
    # scikit-learn agrees
    assert dcg_score([[3, 0, 0, 2]], [[1, 1, 1, 0]], k=2) == pytest.approx(
        skm.dcg_score([[3, 0, 0, 2]], [[1, 1, 1, 0]], k=2), rel=RTOL
    )


# --------------------------------------------------------------------------
# zero_division
# --------------------------------------------------------------------------


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
            ndcg_score([-1, 0, 0], [3, 2, 1], gain=gain, zero_division=zero_division)
            == zero_division
        )


def test_query_scores_nan_where_undefined():
    result = query_scores([1, 0, 0, 0], [1, 2, 3, 4], qid=[5, 5, 9, 9], zero_division=np.nan)
    assert result.qid.tolist() == [5, 9]
    # hand computation: query 5 ranks relevance [0, 1]: (1 / log2(3)) / 1
    assert result.score[0] == pytest.approx(1 / np.log2(3), rel=1e-15)
    assert math.isnan(result.score[1])


# --------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("gain", ["linear", "exponential", "sequence", "callable_nonmonotone"])
@pytest.mark.parametrize("discount", ["log2", "reciprocal", "none", "callable"])
def test_optimistic_average_pessimistic_order_and_bounds(seed, gain, discount):
    """Non-increasing discounts: optimistic >= average >= pessimistic, all in [0, 1]."""
    y_true, y_score, qid = _random_ragged(300 + seed)
    options = {"qid": qid, "gain": GAINS[gain], "discount": DISCOUNTS[discount], "k": 4}
    per_rule = {
        ties: query_scores(y_true, y_score, ties=ties, **options).score for ties in TIE_RULES
    }
    tol = 1e-12
    assert (per_rule["optimistic"] >= per_rule["average"] - tol).all()
    assert (per_rule["average"] >= per_rule["pessimistic"] - tol).all()
    assert (per_rule["optimistic"] >= per_rule["first"] - tol).all()
    assert (per_rule["first"] >= per_rule["pessimistic"] - tol).all()
    for values in per_rule.values():  # non-negative gains: 0 <= NDCG <= 1
        assert ((values >= 0) & (values <= 1 + tol)).all()
    dcgs = {ties: dcg_score(y_true, y_score, ties=ties, **options) for ties in TIE_RULES}
    assert dcgs["optimistic"] >= dcgs["average"] - tol >= dcgs["pessimistic"] - 2 * tol


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("gain", list(GAINS))
def test_perfect_ranking_scores_one(seed, ties, gain):
    y_true, _, qid = _random_ragged(400 + seed)
    gains = np.array([ref.gain_of(label, GAINS[gain]) for label in y_true])
    result = query_scores(y_true, gains, qid=qid, ties=ties, gain=GAINS[gain], zero_division=np.nan)
    defined = ~np.isnan(result.score)
    assert defined.any()
    np.testing.assert_allclose(result.score[defined], 1.0, rtol=1e-14)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("ties", ["average", "optimistic", "pessimistic"])
def test_invariant_to_row_shuffles(seed, ties):
    y_true, y_score, qid = _random_ragged(500 + seed)
    order = np.random.default_rng(seed).permutation(y_true.size)
    for k in (None, 2):
        expected = ndcg_score(y_true, y_score, qid=qid, ties=ties, k=k)
        assert ndcg_score(
            y_true[order], y_score[order], qid=qid[order], ties=ties, k=k
        ) == pytest.approx(expected, rel=1e-14)
        assert dcg_score(
            y_true[order], y_score[order], qid=qid[order], ties=ties, k=k
        ) == pytest.approx(dcg_score(y_true, y_score, qid=qid, ties=ties, k=k), rel=1e-14)


@pytest.mark.parametrize("seed", range(10))
def test_first_invariant_to_row_shuffles_without_ties(seed):
    rng = np.random.default_rng(seed)
    y_true, _, qid = _random_ragged(600 + seed)
    y_score = rng.permutation(y_true.size).astype(float)  # all distinct
    order = rng.permutation(y_true.size)
    assert ndcg_score(y_true[order], y_score[order], qid=qid[order], ties="first") == pytest.approx(
        ndcg_score(y_true, y_score, qid=qid, ties="first"), rel=1e-14
    )


RELABELLINGS = {
    "shifted_ints": lambda q: q + 1000,
    "negative_ints": lambda q: -q - 7,
    "strings": lambda q: f"query-{q}",
    "floats": lambda q: q / 3.0,
    "big_ints": lambda q: np.int64(q) * 10**12,
}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("relabel", RELABELLINGS, ids=list(RELABELLINGS))
def test_invariant_to_query_relabelling(seed, ties, relabel):
    y_true, y_score, qid = _random_ragged(700 + seed)
    new_qid = np.array([RELABELLINGS[relabel](q) for q in qid])
    for zero_division in (0.0, np.nan):
        assert ndcg_score(
            y_true, y_score, qid=new_qid, ties=ties, zero_division=zero_division
        ) == pytest.approx(
            ndcg_score(y_true, y_score, qid=qid, ties=ties, zero_division=zero_division),
            rel=1e-14,
        )
    # the per-query values follow their queries
    old = query_scores(y_true, y_score, qid=qid, ties=ties)
    new = query_scores(y_true, y_score, qid=new_qid, ties=ties)
    by_old_id = dict(zip(old.qid.tolist(), old.score))
    mapped = {RELABELLINGS[relabel](q): s for q, s in by_old_id.items()}
    for q, s in zip(new.qid.tolist(), new.score):
        assert s == pytest.approx(mapped[q], rel=1e-14)


TRANSFORMS = {
    "affine": lambda s: 3.0 * s + 7.0,
    "shift": lambda s: s + 1000.0,
    "cube": lambda s: (s - 1.0) ** 3,
    "exp": np.exp,
    "arctan": np.arctan,
}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("transform", TRANSFORMS, ids=list(TRANSFORMS))
def test_invariant_to_increasing_score_transforms(seed, ties, transform):
    y_true, y_score, qid = _random_ragged(800 + seed)  # scores: small integers
    new_score = TRANSFORMS[transform](y_score)
    for k in (None, 2):
        assert ndcg_score(y_true, new_score, qid=qid, ties=ties, k=k) == pytest.approx(
            ndcg_score(y_true, y_score, qid=qid, ties=ties, k=k), rel=1e-14
        )


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("ties", TIE_RULES)
def test_2d_and_long_format_agree(seed, ties):
    y_true, y_score, weight = _random_2d(seed, ties=True)
    n_queries, n_docs = y_true.shape
    qid = np.repeat(np.arange(n_queries), n_docs)
    long_weight = np.repeat(weight, n_docs)
    for k in (None, 2):
        for options in ({}, {"sample_weight": weight}):
            long_options = {"sample_weight": long_weight} if options else {}
            assert ndcg_score(
                y_true.ravel(), y_score.ravel(), qid=qid, ties=ties, k=k, **long_options
            ) == pytest.approx(ndcg_score(y_true, y_score, ties=ties, k=k, **options), rel=1e-14)
            assert dcg_score(
                y_true.ravel(), y_score.ravel(), qid=qid, ties=ties, k=k, **long_options
            ) == pytest.approx(dcg_score(y_true, y_score, ties=ties, k=k, **options), rel=1e-14)
    # the 2-D value also matches the reference
    assert ndcg_score(y_true, y_score, ties=ties) == pytest.approx(
        ref.ndcg(y_true, y_score, ties=ties), rel=RTOL
    )


def test_one_dimensional_without_qid_is_one_query():
    y_true, y_score = [3, 0, 2, 1], [0.1, 0.9, 0.5, 0.2]
    assert ndcg_score(y_true, y_score) == pytest.approx(
        skm.ndcg_score([y_true], [y_score]), rel=RTOL
    )
    assert dcg_score(y_true, y_score) == pytest.approx(skm.dcg_score([y_true], [y_score]), rel=RTOL)


def test_k_larger_than_every_query():
    y_true, y_score, qid = _random_ragged(900)
    for ties in TIE_RULES:
        assert ndcg_score(y_true, y_score, qid=qid, ties=ties, k=10**6) == ndcg_score(
            y_true, y_score, qid=qid, ties=ties
        )


def test_single_document_queries():
    # hand computation: a query of one document is perfectly ranked if relevant
    assert ndcg_score([1, 0, 2], [0.3, 0.2, 0.1], qid=[1, 2, 3]) == pytest.approx(2 / 3)
    assert dcg_score([1, 0, 2], [0.3, 0.2, 0.1], qid=[1, 2, 3]) == pytest.approx(1.0)


# --------------------------------------------------------------------------
# query_scores
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
def test_query_scores_weighted_mean_is_ndcg_score(seed, zero_division):
    y_true, y_score, qid = _random_ragged(1000 + seed)
    rng = np.random.default_rng(seed)
    ids = np.unique(qid)
    per_query = dict(zip(ids, rng.uniform(0.1, 2, size=ids.size)))
    sample_weight = np.array([per_query[q] for q in qid])
    for weight in (None, sample_weight):
        result = query_scores(
            y_true, y_score, qid=qid, k=3, sample_weight=weight, zero_division=zero_division
        )
        assert isinstance(result, QueryScores)
        assert result.qid.tolist() == sorted(set(qid.tolist()))
        expected_weight = [per_query[q] for q in ids] if weight is not None else 1.0
        np.testing.assert_array_equal(result.weight, np.broadcast_to(expected_weight, ids.shape))
        kept = ~np.isnan(result.score)
        mean = np.average(result.score[kept], weights=result.weight[kept])
        assert mean == pytest.approx(
            ndcg_score(
                y_true, y_score, qid=qid, k=3, sample_weight=weight, zero_division=zero_division
            ),
            rel=1e-14,
        )


def test_query_scores_ids_sorted_and_follow_their_queries():
    y_true = [3, 0, 1, 0, 2, 2]
    y_score = [1, 2, 1, 2, 0, 1]
    qid = ["b", "b", "c", "c", "a", "a"]
    result = query_scores(y_true, y_score, qid=qid)
    assert result.qid.tolist() == ["a", "b", "c"]
    # hand computation, per query, by the reference definition
    np.testing.assert_allclose(
        result.score,
        [1.0, 3 / np.log2(3) / 3, 1 / np.log2(3)],
        rtol=1e-15,
    )
    np.testing.assert_array_equal(result.weight, [1.0, 1.0, 1.0])


def test_query_scores_2d_and_dcg():
    y_true = [[3, 2, 1, 0, 0], [0, 0, 0, 0, 0], [5, 5, 4, 3, 2]]
    y_score = [[3, 2, 0, 0, 1], [1, 2, 3, 4, 5], [3, 1, 5, 2, 4]]
    result = query_scores(y_true, y_score, sample_weight=[1.0, 2.0, 0.5])
    assert result.qid.tolist() == [0, 1, 2]
    np.testing.assert_allclose(
        result.score,
        # seed-examples.md, examples 1 (scikit-learn call) and 2 (k=5); no relevant doc
        [0.980840401274087, 0.0, 0.899165948196969109318662500767],
        rtol=1e-14,
    )
    np.testing.assert_array_equal(result.weight, [1.0, 2.0, 0.5])
    dcg = query_scores(y_true, y_score, metric="dcg", k=2, log_base=10)
    # hand computation: DCG@2 with log10 discount is DCG@2 (log2) * log2(10);
    # seed-examples.md, example 2, DCG@2 = 5.2618595071429148...
    np.testing.assert_allclose(
        dcg.score,
        [(3 + 2 / np.log2(3)) * np.log2(10), 0.0, 5.26185950714291487419905422869 * np.log2(10)],
        rtol=1e-14,
    )


def test_query_scores_ndcg_ignores_log_base():
    y_true, y_score = [[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]]
    for base in (math.e, 10.0):
        assert query_scores(y_true, y_score, log_base=base).score[0] == pytest.approx(
            0.980840401274087, rel=1e-14
        )


# --------------------------------------------------------------------------
# Input types
# --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", TIE_RULES)
def test_float32_int_bool_inputs(seed, ties):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 4, size=(4, 6))
    y_score32 = rng.integers(0, 5, size=(4, 6)).astype(np.float32) / np.float32(3)
    weight32 = rng.uniform(0.5, 2, size=4).astype(np.float32)
    # float32 values are exact in float64, so the results are equal
    assert ndcg_score(y_true, y_score32, ties=ties, sample_weight=weight32) == pytest.approx(
        ndcg_score(
            y_true.astype(np.float64),
            y_score32.astype(np.float64),
            ties=ties,
            sample_weight=weight32.astype(np.float64),
        ),
        rel=1e-15,
    )
    assert ndcg_score(y_true.astype(np.int8), y_score32, ties=ties) == pytest.approx(
        ndcg_score(y_true.astype(float), y_score32.astype(float), ties=ties), rel=1e-15
    )
    y_bool = y_true > 1
    score_int = rng.integers(-3, 3, size=(4, 6))
    assert ndcg_score(y_bool, score_int, ties=ties) == pytest.approx(
        ref.ndcg(y_bool.astype(float), score_int.astype(float), ties=ties), rel=RTOL
    )
    assert dcg_score(y_bool, y_bool, ties=ties) == pytest.approx(
        ref.dcg(y_bool.astype(float), y_bool.astype(float), ties=ties), rel=RTOL
    )


def test_large_int64_scores_keep_their_order():
    # scores far apart as int64 stay ordered after the float64 conversion
    y_score = np.array([10**15, 10**15 + 2, -(10**15)], dtype=np.int64)
    # hand computation: ranked relevance [1, 0, 0]
    assert ndcg_score([0, 1, 0], y_score) == 1.0


def test_pandas_inputs():
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 4, size=(5, 4))
    y_score = rng.integers(0, 3, size=(5, 4)).astype(float)
    weight = rng.uniform(0.5, 2, size=5)
    expected = skm.ndcg_score(y_true, y_score, sample_weight=weight)
    columns = list("abcd")
    frame_true = pd.DataFrame(y_true, columns=columns, index=[9, 3, 7, 1, 5])
    frame_score = pd.DataFrame(y_score, columns=columns, index=[9, 3, 7, 1, 5])
    assert ndcg_score(frame_true, frame_score, sample_weight=pd.Series(weight)) == pytest.approx(
        expected, rel=RTOL
    )

    long = pd.DataFrame(
        {
            "qid": np.repeat([f"q{i}" for i in range(5)], 4),
            "rel": y_true.ravel(),
            "score": y_score.ravel(),
            "w": np.repeat(weight, 4),
        }
    ).sample(frac=1.0, random_state=0)  # shuffled rows, shuffled index
    assert ndcg_score(
        long["rel"], long["score"], qid=long["qid"], sample_weight=long["w"]
    ) == pytest.approx(expected, rel=RTOL)
    categorical = long["qid"].astype("category")
    assert ndcg_score(
        long["rel"], long["score"], qid=categorical, sample_weight=long["w"]
    ) == pytest.approx(expected, rel=RTOL)
    result = query_scores(long["rel"], long["score"], qid=long["qid"])
    assert result.qid.tolist() == [f"q{i}" for i in range(5)]


def _snapshot(value):
    if isinstance(value, pd.DataFrame | pd.Series):
        return value.copy(deep=True)
    if isinstance(value, np.ndarray):
        return value.copy()
    return copy.deepcopy(value)


def _same(a, b):
    if isinstance(a, pd.DataFrame | pd.Series):
        return a.equals(b)
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and np.array_equal(a, b)
    return a == b


def _read_only(array):
    array = np.array(array)
    array.setflags(write=False)
    return array


INPUT_KINDS = {
    "lists": lambda x: x.tolist(),
    "arrays": lambda x: x.copy(),
    "read_only": _read_only,
    "float32": lambda x: x.astype(np.float32),
    "series": lambda x: pd.Series(x),
}


@pytest.mark.parametrize("kind", INPUT_KINDS, ids=list(INPUT_KINDS))
@pytest.mark.parametrize("ties", TIE_RULES)
def test_inputs_never_modified(kind, ties):
    y_true, y_score, qid = _random_ragged(1100)
    weight_of = {q: 1.0 + abs(q) for q in np.unique(qid).tolist()}
    weight = np.array([weight_of[q] for q in qid.tolist()])
    make = INPUT_KINDS[kind]
    args = {
        "y_true": make(y_true),
        "y_score": make(y_score),
        "qid": make(qid) if kind != "float32" else qid.copy(),
        "sample_weight": make(weight),
    }
    before = {name: _snapshot(value) for name, value in args.items()}
    gain_table = [0.0, 1.0, 3.0, 7.0]
    gain_table_before = list(gain_table)
    ndcg_score(
        args["y_true"],
        args["y_score"],
        qid=args["qid"],
        sample_weight=args["sample_weight"],
        ties=ties,
        k=3,
    )
    dcg_score(
        args["y_true"],
        args["y_score"],
        qid=args["qid"],
        sample_weight=args["sample_weight"],
        ties=ties,
        gain=gain_table,
    )
    query_scores(args["y_true"], args["y_score"], qid=args["qid"], ties=ties)
    for name, value in args.items():
        assert _same(value, before[name]), name
    assert gain_table == gain_table_before


def test_2d_inputs_never_modified():
    y_true = [[3, 2, 1, 0, 0], [1, 0, 2, 0, 1]]
    y_score = [[3, 2, 0, 0, 1], [0.5, 0.5, 0.1, 0.9, 0.5]]
    cases = [
        (copy.deepcopy(y_true), copy.deepcopy(y_score)),
        (np.array(y_true), np.array(y_score)),
        (_read_only(y_true), _read_only(y_score)),
        (pd.DataFrame(y_true), pd.DataFrame(y_score)),
    ]
    for t, s in cases:
        t0, s0 = _snapshot(t), _snapshot(s)
        w = np.array([1.0, 2.0])
        for ties in TIE_RULES:
            ndcg_score(t, s, ties=ties, sample_weight=w)
            dcg_score(t, s, ties=ties, gain="exponential")
        assert _same(t, t0) and _same(s, s0)
        assert w.tolist() == [1.0, 2.0]


def test_gain_and_discount_callables_cannot_modify_inputs():
    y_true = np.array([3.0, 1.0, 0.0, 2.0])
    y_score = np.array([0.1, 0.4, 0.3, 0.2])

    def doubling_gain(rel):
        rel *= 2  # in place, on purpose
        return rel

    def zeroing_discount(rank):
        out = 1.0 / rank
        rank[:] = 0  # in place, on purpose
        return out

    result = ndcg_score(y_true, y_score, gain=doubling_gain, discount=zeroing_discount)
    assert y_true.tolist() == [3.0, 1.0, 0.0, 2.0]
    # hand computation: gains 6, 2, 0, 4; ranked [2, 0, 4, 6] / ideal [6, 4, 2, 0], 1/r
    assert result == pytest.approx((2 + 0 + 4 / 3 + 6 / 4) / (6 + 4 / 2 + 2 / 3), rel=1e-14)


def test_return_type_is_python_float():
    assert type(ndcg_score([[1, 0]], [[0.2, 0.1]])) is float
    assert type(dcg_score([1, 0], [0.2, 0.1])) is float


def test_exponential_gain_large_labels_stay_finite():
    # 2**1023 - 1 is finite in float64; a single such document scores 1
    assert ndcg_score([1023.0, 0.0], [1.0, 0.0], gain="exponential") == 1.0


def test_sequence_gain_integer_valued_floats():
    # labels 2.0 and 1.0 index the table like ints (LightGBM's label_gain)
    table = [0.0, 10.0, 1.0]
    # hand computation: ranked gains [1, 10] / ideal [10, 1]
    expected = (1 + 10 / np.log2(3)) / (10 + 1 / np.log2(3))
    assert ndcg_score([2.0, 1.0], [0.9, 0.1], gain=table) == pytest.approx(expected, rel=1e-15)
    assert ndcg_score([2, 1], [0.9, 0.1], gain=np.array(table)) == pytest.approx(
        expected, rel=1e-15
    )
    assert ndcg_score([2, 1], [0.9, 0.1], gain=tuple(table)) == pytest.approx(expected, rel=1e-15)


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
    assert dcg_score(y_true, y_score) == pytest.approx(np.mean(dcgs), rel=1e-14)


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
