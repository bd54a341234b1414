"""The worked examples of the literature, in ``tests/data/seed-examples.md``.

Expected values are the 30-digit values of that file, values scikit-learn prints
there, or hand arithmetic; never the library itself.
"""

import math

import _reference as ref
import numpy as np
import pytest
from sklearn import metrics as skm

from sklearn_ndcg import dcg_score, ndcg_score
from sklearn_ndcg._engine import RankingOptions

RTOL = 1e-12
TIE_RULES = list(RankingOptions.TIE_RULES)


def test_documents_example():
    """Seed example 1, hand computation: ranked relevance [3, 2, 0, 0, 1]."""
    ranked = [3, 2, 0, 0, 1]
    score = [5, 4, 3, 2, 1]  # distinct scores: the list order is the ranking
    # tests/data/seed-examples.md, example 1 (30 digits)
    dcg = 4.64871231437745646106930036715
    idcg = 4.76185950714291487419905422869
    ndcg = 0.976238863705295244586188176701
    # hand computation: 3 + 2 / log2(3) + 0 + 0 + 1 / log2(6)
    assert dcg == pytest.approx(3 + 2 / np.log2(3) + 1 / np.log2(6), rel=1e-15)
    for ties in TIE_RULES:
        assert dcg_score([ranked], [score], ties=ties) == pytest.approx(dcg, rel=1e-14)
        assert ndcg_score([ranked], [score], ties=ties) == pytest.approx(ndcg, rel=1e-14)
    assert dcg_score([ranked], [ranked], ties="first") == pytest.approx(idcg, rel=1e-14)
    # the same as 2-D input
    assert ndcg_score([ranked], [score]) == pytest.approx(ndcg, rel=1e-14)


def test_documents_example_as_scikit_learn_call():
    """Seed example 1 as run through scikit-learn: the scores tie (two zeros).

    tests/data/seed-examples.md: scikit-learn prints DCG 4.670624189796882, IDCG
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


# tests/data/seed-examples.md, example 2: k, CG@k, DCG@k, IDCG@k, NDCG@k (30 digits)
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
    assert ndcg_score([ranked], [[5, 4, 3, 2, 1]], k=k) == pytest.approx(ndcg, rel=1e-14)
    assert ndcg_score(y_true, y_score, k=k) == pytest.approx(
        skm.ndcg_score(y_true, y_score, k=k), rel=RTOL
    )


def test_movie_example_scikit_learn_value():
    # tests/data/seed-examples.md: sklearn.metrics.ndcg_score(..., k=3) = 0.7643651380352695
    assert ndcg_score([[5, 5, 4, 3, 2]], [[3, 1, 5, 2, 4]], k=3) == pytest.approx(
        0.7643651380352695, rel=1e-15
    )


def test_six_documents_example():
    """Seed example 3: ranked relevance [3, 2, 3, 0, 1, 2]."""
    ranked = [3, 2, 3, 0, 1, 2]
    score = [6, 5, 4, 3, 2, 1]
    # tests/data/seed-examples.md, example 3 (30 digits)
    dcg = 6.86112668859350081409765452316
    idcg = 7.14099518409569999950904061903
    ndcg = 0.960808194336061530996183238844
    assert dcg_score([ranked], [score]) == pytest.approx(dcg, rel=1e-14)
    assert dcg_score([ranked], [ranked]) == pytest.approx(idcg, rel=1e-14)
    assert ndcg_score([ranked], [score]) == pytest.approx(ndcg, rel=1e-14)
    # rounded in the literature to 6.861, 7.141, 0.961
    assert round(dcg_score([ranked], [score]), 3) == 6.861
    assert round(ndcg_score([ranked], [score]), 3) == 0.961


def test_exponential_gain_example():
    """Seed example 4: rank labels [4, 3, 5, 2, 1] in list order, gain 2**rel - 1."""
    labels = [4, 3, 5, 2, 1]
    score = [5, 4, 3, 2, 1]
    # tests/data/seed-examples.md, example 4 (30 digits)
    idcg = 45.6428287850265822953734725599
    dcg = 36.5953907564549227985772556452
    ndcg = 0.801777447423685348463794833909
    # hand computation: ideal gains 31, 15, 7, 3, 1
    assert idcg == pytest.approx(
        31 + 15 / np.log2(3) + 7 / 2 + 3 / np.log2(5) + 1 / np.log2(6), rel=1e-15
    )
    assert dcg_score([labels], [score], gain="exponential") == pytest.approx(dcg, rel=1e-14)
    assert dcg_score([labels], [labels], gain="exponential") == pytest.approx(idcg, rel=1e-14)
    result = ndcg_score([labels], [score], gain="exponential")
    assert result == pytest.approx(ndcg, rel=1e-14)
    # "quoted as 0.801": a truncation of 0.80178; rounded it is 0.802
    assert math.floor(result * 1000) / 1000 == 0.801
    assert round(result, 3) == 0.802


@pytest.mark.parametrize("base", [math.e, 10.0, 3.0, 1.5])
def test_exponential_gain_example_log_base(base):
    """Seed example 4, note: the log base cancels in NDCG; DCG scales by log2(base)."""
    labels, score = [4, 3, 5, 2, 1], [5, 4, 3, 2, 1]
    dcg = 36.5953907564549227985772556452  # tests/data/seed-examples.md, example 4
    ndcg = 0.801777447423685348463794833909
    got = dcg_score([labels], [score], gain="exponential", log_base=base)
    assert got == pytest.approx(dcg * math.log2(base), rel=1e-13)
    if base == math.e:  # "a natural-log discount gives DCG / ln 2"
        assert got == pytest.approx(dcg / math.log(2), rel=1e-13)

    def log_base_discount(rank):
        return 1.0 / (np.log(rank + 1.0) / np.log(base))

    assert ndcg_score(
        [labels], [score], gain="exponential", discount=log_base_discount
    ) == pytest.approx(ndcg, rel=1e-13)
    assert dcg_score(
        [labels], [score], gain="exponential", discount=log_base_discount
    ) == pytest.approx(dcg * math.log2(base), rel=1e-13)


def test_known_limitations_of_ndcg():
    """tests/data/seed-examples.md, example 3 notes: what NDCG does not penalise, and does."""
    # trailing irrelevant items are not penalised
    assert ndcg_score([[1, 1, 1]], [[3, 2, 1]]) == 1.0
    assert ndcg_score([[1, 1, 1, 0]], [[4, 3, 2, 1]]) == 1.0
    # nor missing items: the ideal only knows the listed documents
    assert ndcg_score([[1, 1, 1, 1, 1]], [[5, 4, 3, 2, 1]]) == 1.0
    # graded good / fair / bad = 1 / 0 / -1 penalises the bad item
    good_fair_bad = {1: 1.0, 0: 0.0, -1: -1.0}
    bad_on_top = ndcg_score([[-1, 1, 0]], [[3, 2, 1]], gain=good_fair_bad)
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
