"""Precision against exact arithmetic: relative error <= 1e-12.

The expected values are computed with mpmath at 50 significant digits, from the
exact values of the float64 inputs: gains are exact integers (linear labels and
``2**label - 1``) or exact fractions (tie-group means), and the discounts
``1 / log2(r + 1)`` are evaluated in mpmath. Sums over many positions are taken
smartly rather than term by term:

- a random ranking: the discount of each position is stored as an unevaluated
  sum of two float64 (``hi + lo``, from mpmath), and the discounts of the
  positions of each label level are added with ``math.fsum``, which rounds only
  once; the error of that oracle is below 1e-30 relative;
- blocks of consecutive positions (millions of rows): Euler-Maclaurin with the
  closed-form integral ``ln 2 * li(x + 1)``, checked against a term-by-term
  mpmath sum in :func:`test_euler_maclaurin_oracle`.

Each test prints the worst relative error it measured (``pytest -s``).
"""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest

from sklearn_ndcg import dcg_score, ndcg_score, query_scores
from sklearn_ndcg._engine import RankingOptions

TOL = 1e-12
mpmath.mp.dps = 50
LN2 = mpmath.log(2)
N_CACHED = 100_000


def _discount_exact(r):
    return LN2 / mpmath.log(r + 1)


def _discount_hi_lo(n):
    """Exact-enough discounts of ranks 1..n as float64 pairs (hi, lo)."""
    with mpmath.workdps(34):
        exact = [_discount_exact(mpmath.mpf(r)) for r in range(1, n + 1)]
        hi = np.array([float(d) for d in exact])
        lo = np.array([float(d - mpmath.mpf(h)) for d, h in zip(exact, hi)])
    return hi, lo


@pytest.fixture(scope="module")
def discounts():
    return _discount_hi_lo(N_CACHED)


def _sum_discounts(positions, discounts):
    """Sum of the discounts of the given 1-based positions, as an mpf."""
    hi, lo = discounts
    index = np.asarray(positions) - 1
    parts = np.concatenate((hi[index], lo[index]))
    # math.fsum is exact up to one final rounding; add the rounding-free pair
    total = math.fsum(parts)
    return mpmath.mpf(total) + mpmath.mpf(math.fsum(np.append(parts, -total)))


def _block_sum(a, b):
    """sum_{r=a}^{b} 1/log2(r+1) in mpmath: Euler-Maclaurin past rank 1000."""
    if b < a:
        return mpmath.mpf(0)
    f = _discount_exact
    if b - a < 2000:
        return mpmath.fsum(f(mpmath.mpf(r)) for r in range(a, b + 1))
    head = mpmath.fsum(f(mpmath.mpf(r)) for r in range(a, max(a, 1000)))
    a = max(a, 1000)
    total = LN2 * (mpmath.li(b + 1) - mpmath.li(a + 1)) + (f(a) + f(b)) / 2
    for j in range(1, 8):
        total += (
            mpmath.bernoulli(2 * j)
            / mpmath.factorial(2 * j)
            * (mpmath.diff(f, b, 2 * j - 1) - mpmath.diff(f, a, 2 * j - 1))
        )
    return head + total


def _rel(got, exact):
    exact = mpmath.mpf(exact)
    if exact == 0:  # then the absolute error
        return float(abs(mpmath.mpf(got)))
    return float(abs(mpmath.mpf(got) - exact) / abs(exact))


def _exact_dcg(gains_in_rank_order_by_level, discounts):
    """DCG from {exact gain: positions}, gains exact ints or Fractions."""
    total = mpmath.mpf(0)
    for gain, positions in gains_in_rank_order_by_level.items():
        if gain != 0 and len(positions):
            gain = Fraction(gain)
            total += (
                mpmath.mpf(gain.numerator) / gain.denominator * _sum_discounts(positions, discounts)
            )
    return total


def _levels(ranked_gains, k=None):
    """{gain: 1-based positions (<= k)} of a ranked sequence of exact gains."""
    out = {}
    for position, gain in enumerate(ranked_gains, start=1):
        if k is not None and position > k:
            break
        out.setdefault(gain, []).append(position)
    return out


def _exact_gain(label, gain):
    label = int(label)
    return label if gain == "linear" else 2**label - 1


def test_euler_maclaurin_oracle():
    """The block-sum oracle agrees with a term-by-term mpmath sum."""
    direct = mpmath.fsum(_discount_exact(mpmath.mpf(r)) for r in range(1, 20_001))
    assert abs(_block_sum(1, 20_000) - direct) < mpmath.mpf(10) ** -40
    direct = mpmath.fsum(_discount_exact(mpmath.mpf(r)) for r in range(3_000, 9_001))
    assert abs(_block_sum(3_000, 9_000) - direct) < mpmath.mpf(10) ** -40


@pytest.mark.parametrize("gain", RankingOptions.GAINS)
def test_long_query(discounts, gain):
    """One query of 1e5 documents, random labels 0..4 and distinct scores."""
    rng = np.random.default_rng(1)
    n = N_CACHED
    labels = rng.integers(0, 5, size=n)
    scores = rng.permutation(n) * 0.001 + 0.5  # distinct, in random order
    ranked = [_exact_gain(v, gain) for v in labels[np.argsort(-scores)]]
    ideal = sorted(ranked, reverse=True)
    worst = 0.0
    for k in (None, 10, 1000, 77_777):
        dcg = _exact_dcg(_levels(ranked, k), discounts)
        idcg = _exact_dcg(_levels(ideal, k), discounts)
        for layout in ("long", "2d"):
            if layout == "long":
                y_true, y_score, qid = labels.astype(float), scores, np.zeros(n)
            else:
                y_true, y_score = labels[np.newaxis].astype(float), scores[np.newaxis]
                qid = None
            got_dcg = dcg_score(y_true, y_score, qid=qid, k=k, gain=gain)
            got_ndcg = ndcg_score(y_true, y_score, qid=qid, k=k, gain=gain)
            errors = (_rel(got_dcg, dcg), _rel(got_ndcg, dcg / idcg))
            assert max(errors) <= TOL, (k, layout, errors)
            worst = max(worst, *errors)
    print(f"\nprecision long query 1e5 ({gain}): worst relative error {worst:.3e}")


def test_labels_up_to_60_exponential(discounts):
    """Labels 0..60 with 2**label - 1: gains up to 1.15e18, exact as integers."""
    rng = np.random.default_rng(2)
    n_queries, n_docs = 40, 120
    labels = rng.integers(0, 61, size=(n_queries, n_docs))
    labels[:, :3] = 60  # the largest gains everywhere, ties in the ideal order
    labels[5] = rng.integers(0, 2, size=n_docs)  # a query of small gains only
    scores = rng.normal(size=(n_queries, n_docs))
    worst = 0.0
    for k in (None, 1, 10):
        per_query = []
        for row in range(n_queries):
            ranked = [2 ** int(v) - 1 for v in labels[row][np.argsort(-scores[row])]]
            dcg = _exact_dcg(_levels(ranked, k), discounts)
            idcg = _exact_dcg(_levels(sorted(ranked, reverse=True), k), discounts)
            per_query.append(dcg / idcg)
        exact_mean = mpmath.fsum(per_query) / n_queries
        result = query_scores(labels, scores, k=k, gain="exponential")
        for got, exact in zip(result.score, per_query):
            worst = max(worst, _rel(got, exact))
        # the same queries in long format, rows interleaved
        qid = np.repeat(np.arange(n_queries), n_docs)
        order = rng.permutation(qid.size)
        got_long = ndcg_score(
            labels.ravel()[order], scores.ravel()[order], qid=qid[order], k=k, gain="exponential"
        )
        got_wide = ndcg_score(labels, scores, k=k, gain="exponential")
        worst = max(worst, _rel(got_long, exact_mean), _rel(got_wide, exact_mean))
    assert worst <= TOL
    print(f"\nprecision labels up to 60, exponential: worst relative error {worst:.3e}")


def _near_tie_scores(rng, size):
    """float32 scores that tie exactly or differ by one float32 ulp."""
    base = np.float32(1.0)
    pool = np.array(
        [
            np.nextafter(base, np.float32(0)),
            base,
            np.nextafter(base, np.float32(2)),
            np.float32(1e-30),
            np.nextafter(np.float32(1e-30), np.float32(1)),
            np.float32(-3.0),
            np.nextafter(np.float32(-3.0), np.float32(0)),
            np.float32(16777216.0),
            np.float32(16777218.0),  # neighbours at 2**24
        ],
        dtype=np.float32,
    )
    return pool[rng.integers(0, pool.size, size=size)]


@pytest.mark.parametrize("ties", RankingOptions.TIE_RULES)
def test_float32_near_ties(discounts, ties):
    """Scores one float32 ulp apart rank apart; equal float32 scores tie."""
    rng = np.random.default_rng(3)
    n_queries, n_docs = 60, 40
    labels = rng.integers(0, 6, size=(n_queries, n_docs))
    scores = _near_tie_scores(rng, (n_queries, n_docs))
    worst = 0.0
    exact_per_query = []
    for row in range(n_queries):
        # exact: groups of equal float32 values by decreasing value
        by_level = {}
        position = 1
        for value in sorted(set(scores[row].tolist()), reverse=True):
            members = [int(v) for v, s in zip(labels[row], scores[row]) if s == value]
            if ties == "average":
                mean = Fraction(sum(members), len(members))
                group = [mean] * len(members)
            elif ties == "optimistic":
                group = sorted(members, reverse=True)
            elif ties == "pessimistic":
                group = sorted(members)
            else:
                group = members  # input order
            for g in group:
                by_level.setdefault(g, []).append(position)
                position += 1
        dcg = _exact_dcg(by_level, discounts)
        ideal = sorted((int(v) for v in labels[row]), reverse=True)
        idcg = _exact_dcg(_levels(ideal), discounts)
        exact_per_query.append(dcg / idcg if idcg > 0 else mpmath.mpf(0))
        got = dcg_score(labels[row][np.newaxis], scores[row][np.newaxis], ties=ties)
        worst = max(worst, _rel(got, dcg))
    result = query_scores(labels, scores, ties=ties)
    for got, exact in zip(result.score, exact_per_query):
        worst = max(worst, _rel(got, exact))
    qid = np.repeat(np.arange(n_queries), n_docs)
    got_long = ndcg_score(labels.ravel(), scores.ravel(), qid=qid, ties=ties)
    worst = max(worst, _rel(got_long, mpmath.fsum(exact_per_query) / n_queries))
    assert worst <= TOL
    print(f"\nprecision float32 near-ties ({ties}): worst relative error {worst:.3e}")


def test_one_query_of_millions_of_rows():
    """3e6 rows in one query, shuffled; ranked gains form blocks of levels.

    Ranked order (by score): 300k label 3, a tie group of 1.2M (labels 0 and 4
    mixed, 1:2), 1.5M label 1. The average tie rule gives each tied document
    the group's mean gain. Exact DCG: sums of block discounts by
    Euler-Maclaurin.
    """
    rng = np.random.default_rng(4)
    n1, n2, n3 = 300_000, 1_200_000, 1_500_000
    n = n1 + n2 + n3
    tied_labels = np.where(rng.random(n2) < 1 / 3, 0.0, 4.0)
    n_fours = int((tied_labels == 4).sum())
    labels = np.concatenate([np.full(n1, 3.0), tied_labels, np.ones(n3)])
    scores = np.concatenate(
        [
            2.0 + rng.permutation(n1) / n1,  # distinct, above the tie
            np.full(n2, 1.5),
            rng.permutation(n3) / n3,  # distinct, below the tie
        ]
    )
    order = rng.permutation(n)
    labels, scores = labels[order], scores[order]

    mean_tied = mpmath.mpf(4 * n_fours) / n2
    dcg = (
        3 * _block_sum(1, n1) + mean_tied * _block_sum(n1 + 1, n1 + n2) + _block_sum(n1 + n2 + 1, n)
    )
    idcg = (
        4 * _block_sum(1, n_fours)
        + 3 * _block_sum(n_fours + 1, n_fours + n1)
        + _block_sum(n_fours + n1 + 1, n_fours + n1 + n3)
    )
    qid = np.zeros(labels.shape[0], dtype=np.intp)  # one query
    got_dcg = dcg_score(labels, scores, qid=qid)
    got_ndcg = ndcg_score(labels, scores, qid=qid)
    errors = {"dcg": _rel(got_dcg, dcg), "ndcg": _rel(got_ndcg, dcg / idcg)}
    print(f"\nprecision one query of 3e6 rows: relative errors {errors}")
    assert max(errors.values()) <= TOL, errors


def test_mean_over_a_million_queries():
    """1e6 queries (2e6 rows, shuffled), weighted; exact mean by counting patterns."""
    rng = np.random.default_rng(5)
    n_queries = 1_000_000
    # each query: 2 documents; pattern = (label of doc A, label of doc B, A above B?)
    label_a = rng.integers(0, 3, size=n_queries)
    label_b = rng.integers(0, 3, size=n_queries)
    a_first = rng.random(n_queries) < 0.5
    weights_pool = np.array([0.1, 0.3, 1.7, 2.9])
    weight_index = rng.integers(0, 4, size=n_queries)
    weight = weights_pool[weight_index]

    qid = np.repeat(rng.permutation(n_queries) * 3 - 10**6, 2)  # negative ids too
    y_true = np.empty(2 * n_queries)
    y_true[0::2], y_true[1::2] = label_a, label_b
    y_score = np.empty(2 * n_queries)
    y_score[0::2] = np.where(a_first, 2.0, 1.0)
    y_score[1::2] = np.where(a_first, 1.0, 2.0)
    row_weight = np.repeat(weight, 2)
    order = rng.permutation(2 * n_queries)

    d1, d2 = mpmath.mpf(1), _discount_exact(mpmath.mpf(2))
    key = (label_a * 3 + label_b) * 2 + a_first
    counts = np.zeros((18, 4), dtype=np.int64)
    np.add.at(counts, (key, weight_index), 1)
    exact_w = [
        mpmath.mpf(Fraction(float(w)).numerator) / Fraction(float(w)).denominator
        for w in weights_pool
    ]
    num_ndcg = num_dcg = den = mpmath.mpf(0)
    for k in range(18):
        a, b, first = (k // 2) // 3, (k // 2) % 3, k % 2
        top, bottom = (a, b) if first else (b, a)
        dcg = top * d1 + bottom * d2
        idcg = max(a, b) * d1 + min(a, b) * d2
        ndcg = dcg / idcg if idcg > 0 else mpmath.mpf(0)
        for j in range(4):
            c = int(counts[k, j])
            num_ndcg += c * exact_w[j] * ndcg
            num_dcg += c * exact_w[j] * dcg
            den += c * exact_w[j]
    got_ndcg = ndcg_score(
        y_true[order], y_score[order], qid=qid[order], sample_weight=row_weight[order]
    )
    got_dcg = dcg_score(
        y_true[order], y_score[order], qid=qid[order], sample_weight=row_weight[order]
    )
    errors = {"ndcg": _rel(got_ndcg, num_ndcg / den), "dcg": _rel(got_dcg, num_dcg / den)}
    print(f"\nprecision mean over 1e6 weighted queries: relative errors {errors}")
    assert max(errors.values()) <= TOL, errors


def test_huge_finite_weights():
    # hand computation: query 1 ranks its relevant document second, query 2 first
    expected = (1 / math.log2(3) + 1.0) / 2
    got = ndcg_score([[1, 0], [0, 1]], [[1, 2], [1, 2]], sample_weight=[1e308, 1e308])
    assert _rel(got, expected) <= TOL
