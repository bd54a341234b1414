"""Every gain x discount x ties x k on random ragged long-format input.

Each combination (with zero_division 0, 1 and nan, with sample_weight, with
log_base) is compared with the slow reference of ``tests/_reference.py``; the
tie rules keep their order (optimistic >= average >= pessimistic) and NDCG its
bounds; a perfect ranking scores 1 under every option.
"""

import math

import _reference as ref
import numpy as np
import pytest

from sklearn_ndcg import dcg_score, ndcg_score, query_scores
from sklearn_ndcg._engine import RankingOptions

RTOL = 1e-12
TIE_RULES = list(RankingOptions.TIE_RULES)


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


@pytest.mark.parametrize("k", [None, 1, 3, 100], ids=["kNone", "k1", "k3", "k100"])
@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("discount", DISCOUNTS, ids=list(DISCOUNTS))
@pytest.mark.parametrize("gain", GAINS, ids=list(GAINS))
def test_reference_on_ragged_long_format(gain, discount, ties, k, random_ragged):
    """Every gain x discount x ties x k, each with zero_division 0, 1 and nan."""
    seed = (
        list(GAINS).index(gain) * 1000
        + list(DISCOUNTS).index(discount) * 100
        + TIE_RULES.index(ties) * 10
        + (k or 0)
    )
    options = {"gain": GAINS[gain], "discount": DISCOUNTS[discount], "ties": ties, "k": k}
    y_true, y_score, qid = random_ragged(seed)

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
def test_reference_with_sample_weight(seed, ties, random_ragged):
    y_true, y_score, qid = random_ragged(100 + seed)
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
def test_reference_dcg_log_base_long_format(seed, log_base, random_ragged):
    y_true, y_score, qid = random_ragged(200 + seed)
    for ties in TIE_RULES:
        np.testing.assert_allclose(
            dcg_score(y_true, y_score, qid=qid, ties=ties, log_base=log_base, k=2),
            ref.dcg(y_true, y_score, qid=qid, ties=ties, log_base=log_base, k=2),
            rtol=RTOL,
        )


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("gain", ["linear", "exponential", "sequence", "callable_nonmonotone"])
@pytest.mark.parametrize("discount", ["log2", "reciprocal", "none", "callable"])
def test_optimistic_average_pessimistic_order_and_bounds(seed, gain, discount, random_ragged):
    """Non-increasing discounts: optimistic >= average >= pessimistic, all in [0, 1]."""
    y_true, y_score, qid = random_ragged(300 + seed)
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
def test_perfect_ranking_scores_one(seed, ties, gain, random_ragged):
    y_true, _, qid = random_ragged(400 + seed)
    gains = np.array([ref.gain_of(label, GAINS[gain]) for label in y_true])
    result = query_scores(y_true, gains, qid=qid, ties=ties, gain=GAINS[gain], zero_division=np.nan)
    defined = ~np.isnan(result.score)
    assert defined.any()
    np.testing.assert_allclose(result.score[defined], 1.0, rtol=1e-14)
