"""Tests for counterfactual_dcg: every estimator against a hand computation on tiny logs.

The Monte Carlo checks against the simulator's exact truth sit in
test_counterfactual_simulation.py; bad input in test_log.py and
test_counterfactual_bad_input.py.
"""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from sklearn_ndcg import (
    CounterfactualResult,
    QueryScores,
    counterfactual_dcg,
    dcg_score,
    paired_test,
)

# qid as the logged ranking (its meaning before 0.3), under its FutureWarning
pytestmark = [
    pytest.mark.filterwarnings(
        "ignore:counterfactual_dcg\\(qid=...\\) without impression=:FutureWarning"
    ),
    # small stochastic logs, checked by hand or for bias: their warning is tested apart
    pytest.mark.filterwarnings("ignore:.* queries under stochastic logging:UserWarning"),
]


def d(rank):
    """The log2 discount of a rank (hand computations below)."""
    return 1 / np.log2(1 + rank)


# two logged rankings of three documents each
LOG = dict(qid=[1, 1, 1, 2, 2, 2], logged_rank=[1, 2, 3, 1, 2, 3], propensity=[1.0, 0.5, 0.25])
CLICK = [1, 0, 1, 0, 1, 0]
SCORE = [1, 2, 3, 3, 2, 1]  # reverses query 1, keeps query 2


def test_ips_by_hand():
    result = counterfactual_dcg(CLICK, SCORE, **LOG)
    # hand computation. Query 1: the click at logged rank 3 (weight 1 / 0.25) moves to
    # new rank 1, the click at logged rank 1 (weight 1) to new rank 3.
    q1 = 4 * d(1) + 1 * d(3)
    # query 2: the click at logged rank 2 (weight 1 / 0.5) stays at rank 2
    q2 = 2 * d(2)
    assert_allclose(result.per_query.score, [q1, q2])
    assert_array_equal(result.per_query.qid, [1, 2])
    assert_array_equal(result.per_query.weight, [1, 1])
    assert result.estimate == pytest.approx((q1 + q2) / 2)
    assert isinstance(result, CounterfactualResult)
    assert isinstance(result.per_query, QueryScores)
    assert result.estimator == "ips"


def test_ips_is_dcg_with_inverse_propensity_document_weights():
    # the identity: IPS is dcg_score of the clicks weighted by 1 / propensity
    rng = np.random.default_rng(0)
    qid = np.repeat(np.arange(50), 8)
    rank = np.tile(np.arange(1, 9), 50)
    propensity = 1 / np.arange(1, 9) ** 0.7
    click = (rng.random(400) < 0.3 * propensity[rank - 1]).astype(float)
    score = rng.normal(size=400).round(1)  # with ties
    for k in (None, 3):
        result = counterfactual_dcg(
            click, score, qid=qid, logged_rank=rank, propensity=propensity, k=k
        )
        expected = dcg_score(click, score, qid=qid, k=k, document_weight=1 / propensity[rank - 1])
        assert result.estimate == pytest.approx(expected, rel=1e-12)


def test_ties_take_the_mean_discount_and_k_cuts():
    # query of 3 rows, the two clicked ones tied at the top: each gets (d(1) + d(2)) / 2
    kw = dict(qid=[0, 0, 0], logged_rank=[1, 2, 3], propensity=[1.0, 0.5, 0.5])
    result = counterfactual_dcg([1, 1, 0], [5, 5, 1], **kw)
    assert result.estimate == pytest.approx((1 + 2) * (d(1) + d(2)) / 2)
    # k=1: only rank 1 counts, so each tied row gets d(1) / 2
    result = counterfactual_dcg([1, 1, 0], [5, 5, 1], k=1, **kw)
    assert result.estimate == pytest.approx((1 + 2) * d(1) / 2)


def test_clip_caps_the_weights_at_its_inverse():
    # clip=0.4: the weight 1 / 0.25 = 4 becomes 1 / 0.4 = 2.5; 1 / 0.5 = 2 stays
    result = counterfactual_dcg(CLICK, SCORE, clip=0.4, **LOG)
    assert_allclose(result.per_query.score, [2.5 * d(1) + 1 * d(3), 2 * d(2)])
    assert result.max_weight == 2.5


def test_dr_equals_ips_under_deterministic_logging_without_clip():
    reward = [0.9, 0.1, 0.3, 0.5, 0.5, 0.2]
    dr = counterfactual_dcg(CLICK, SCORE, estimator="dr", reward_model=reward, **LOG)
    ips = counterfactual_dcg(CLICK, SCORE, **LOG)
    assert_allclose(dr.per_query.score, ips.per_query.score)


def test_dr_with_clip_by_hand():
    reward = [0.9, 0.1, 0.3, 0.5, 0.5, 0.2]
    result = counterfactual_dcg(CLICK, SCORE, estimator="dr", reward_model=reward, clip=0.4, **LOG)
    # hand computation: sum over rows of d_new * r + w * d_new * (click - a * r), w capped
    # at 2.5; query 1 rows (a, w, new rank): (1, 1, 3), (0.5, 2, 2), (0.25, 2.5, 1)
    q1 = (
        d(3) * 0.9
        + 1 * d(3) * (1 - 1 * 0.9)
        + d(2) * 0.1
        + 2 * d(2) * (0 - 0.5 * 0.1)
        + d(1) * 0.3
        + 2.5 * d(1) * (1 - 0.25 * 0.3)
    )
    # query 2 keeps its order: rows (a, w, new rank) (1, 1, 1), (0.5, 2, 2), (0.25, 2.5, 3)
    q2 = (
        d(1) * 0.5
        + 1 * d(1) * (0 - 1 * 0.5)
        + d(2) * 0.5
        + 2 * d(2) * (1 - 0.5 * 0.5)
        + d(3) * 0.2
        + 2.5 * d(3) * (0 - 0.25 * 0.2)
    )
    assert_allclose(result.per_query.score, [q1, q2])


# stochastic logging: query "a" shown in the logger's usual order, query "b" swapped
STOCHASTIC = dict(
    qid=["a", "a", "b", "b"],
    logged_rank=[1, 2, 2, 1],
    propensity=[1.0, 0.5],
    logging_probability=[0.8, 0.8, 0.2, 0.2],
)
STOCHASTIC_CLICK = [0, 1, 1, 1]
STOCHASTIC_SCORE = [0, 1, 1, 0]  # the new ranker puts the 2nd row of each query first


def test_item_position_ips_by_hand():
    """Li et al. (KDD 2018): a row counts only where the new ranker puts it where the log
    did, weighted pi / p; divided by the propensity of that position for relevance.

    Written out in place of a parity check with Open Bandit Pipeline, whose slate
    estimators need torch.
    """
    result = counterfactual_dcg(STOCHASTIC_CLICK, STOCHASTIC_SCORE, **STOCHASTIC)
    # query a: new ranks (2, 1), logged (1, 2): no row where the log put it -> 0
    # query b: new ranks (1, 2) = logged (2, 1)? row 3 new rank 1, logged 2: no;
    #          row 4 new rank 2, logged 1: no -> 0
    assert_allclose(result.per_query.score, [0.0, 0.0])
    score = [1, 0, 1, 0]  # keeps query a, and puts query b's first row first
    result = counterfactual_dcg(STOCHASTIC_CLICK, score, **STOCHASTIC)
    # query a: row 1 (click 0) at 1 and row 2 (click 1) at 2, as logged:
    #          1 * (1 / 0.8) / 0.5 * d(2)
    # query b: row 3 (logged 2, new 1) and row 4 (logged 1, new 2) do not match -> 0
    assert_allclose(result.per_query.score, [1 / 0.8 / 0.5 * d(2), 0.0])
    score = [1, 0, 0, 1]  # query b's second row first: both rows where the log put them
    result = counterfactual_dcg(STOCHASTIC_CLICK, score, **STOCHASTIC)
    q_b = 1 / 0.2 / 0.5 * d(2) + 1 / 0.2 / 1.0 * d(1)
    assert_allclose(result.per_query.score, [1 / 0.8 / 0.5 * d(2), q_b])
    assert result.max_weight == pytest.approx(1 / 0.2 / 0.5)
    # Kish's effective sample size of the four weights 2.5, 1.25, 10, 5
    w = np.array([1 / 0.8 / 1.0, 1 / 0.8 / 0.5, 1 / 0.2 / 0.5, 1 / 0.2 / 1.0])
    assert result.effective_sample_size == pytest.approx(w.sum() ** 2 / (w**2).sum())


def test_snips_divides_by_the_mean_ratio_by_hand():
    score = [1, 0, 0, 1]
    ips = counterfactual_dcg(STOCHASTIC_CLICK, score, **STOCHASTIC)
    snips = counterfactual_dcg(STOCHASTIC_CLICK, score, estimator="snips", **STOCHASTIC)
    # pi / p of the four rows: 1 / 0.8 twice, 1 / 0.2 twice
    mean_ratio = (2 / 0.8 + 2 / 0.2) / 4
    assert_allclose(snips.per_query.score, ips.per_query.score / mean_ratio)


def test_stochastic_ties_split_the_position():
    # two tied rows: the new ranker puts each at rank 1 or 2 with probability 1/2
    result = counterfactual_dcg(
        [1, 1],
        [3, 3],
        qid=[0, 0],
        logged_rank=[1, 2],
        propensity=[1.0, 0.5],
        logging_probability=[0.5, 0.5],
    )
    assert result.estimate == pytest.approx(0.5 / 0.5 / 1.0 * d(1) + 0.5 / 0.5 / 0.5 * d(2))


def test_normalize_divides_by_the_ideal_dcg_of_the_estimated_relevance():
    result = counterfactual_dcg(CLICK, SCORE, normalize=True, **LOG)
    # query 1: estimated relevance 1, 0, 4 -> ideal 4 * d(1) + 1 * d(2)
    # query 2: 0, 2, 0 -> ideal 2 * d(1)
    expected = [(4 * d(1) + d(3)) / (4 * d(1) + d(2)), 2 * d(2) / (2 * d(1))]
    assert_allclose(result.per_query.score, expected)
    # a query without clicks scores 0
    zero = counterfactual_dcg(
        [0, 0], [1, 2], qid=[0, 0], logged_rank=[1, 2], propensity=[1, 1], normalize=True
    )
    assert zero.estimate == 0


def test_normalize_can_invert_the_order_of_two_rankers():
    """Jeunen, Potapov & Ustimenko (KDD 2024): a ranker with the greater DCG can have the
    smaller normalised DCG, since each query is divided by its own ideal."""
    # query 1: three documents, two clicked; query 2: two documents, one clicked
    kw = dict(qid=[1, 1, 1, 2, 2], logged_rank=[1, 2, 3, 1, 2], propensity=[1.0, 1.0, 1.0])
    click = [1, 1, 0, 1, 0]
    a = [3, 2, 1, 1, 2]  # ideal on query 1, reverses query 2
    b = [1, 2, 3, 2, 1]  # worst on query 1, ideal on query 2
    dcg_a, dcg_b = (counterfactual_dcg(click, s, **kw).estimate for s in (a, b))
    ndcg_a, ndcg_b = (counterfactual_dcg(click, s, normalize=True, **kw).estimate for s in (a, b))
    # hand computation: DCG of a (1 + d(2) + d(2)) / 2, of b (d(2) + d(3) + 1) / 2
    assert dcg_a == pytest.approx((1 + 2 * d(2)) / 2)
    assert dcg_b == pytest.approx((d(2) + d(3) + 1) / 2)
    # NDCG of a (1 + d(2)) / 2, of b ((d(2) + d(3)) / (1 + d(2)) + 1) / 2
    assert ndcg_a == pytest.approx((1 + d(2)) / 2)
    assert ndcg_b == pytest.approx(((d(2) + d(3)) / (1 + d(2)) + 1) / 2)
    assert dcg_a > dcg_b and ndcg_a < ndcg_b  # the order inverts


def test_t_interval():
    rng = np.random.default_rng(3)
    qid = np.repeat(np.arange(40), 5)
    rank = np.tile(np.arange(1, 6), 40)
    click = (rng.random(200) < 0.4).astype(float)
    result = counterfactual_dcg(
        click,
        rng.normal(size=200),
        qid=qid,
        logged_rank=rank,
        propensity=1 / np.arange(1, 6),
        confidence_level=0.9,
    )
    # scipy's Student's t interval of the per-query values' mean
    values = result.per_query.score
    low, high = stats.t.interval(0.9, values.size - 1, loc=values.mean(), scale=stats.sem(values))
    assert_allclose(result.confidence_interval, (low, high))
    assert result.confidence_level == 0.9


def test_one_query_has_no_interval():
    result = counterfactual_dcg([1, 0], [1, 2], qid=[0, 0], logged_rank=[1, 2], propensity=[1, 0.5])
    assert np.isnan(result.confidence_interval).all()


def test_propensity_from_an_object_with_a_propensity():
    class Bias:
        propensity = np.array([1.0, 0.5, 0.25])

    log = {**LOG, "propensity": Bias()}
    assert_array_equal(
        counterfactual_dcg(CLICK, SCORE, **log).per_query.score,
        counterfactual_dcg(CLICK, SCORE, **LOG).per_query.score,
    )


def test_per_query_feeds_paired_test():
    rng = np.random.default_rng(1)
    qid = np.repeat(np.arange(30), 4)
    rank = np.tile(np.arange(1, 5), 30)
    click = (rng.random(120) < 0.5 / rank).astype(float)
    kw = dict(qid=qid, logged_rank=rank, propensity=1 / np.arange(1, 5))
    a = counterfactual_dcg(click, -rank, **kw).per_query  # the logger's own order
    b = counterfactual_dcg(click, rank, **kw).per_query  # its reverse
    result = paired_test(a, b, method="t")
    assert result.n_queries == 30
    assert result.mean_difference == pytest.approx(np.mean(a.score - b.score))


def test_inputs_are_not_changed():
    click = np.array(CLICK, dtype=float)
    score = np.array(SCORE, dtype=float)
    rank = np.array(LOG["logged_rank"])
    propensity = np.array(LOG["propensity"])
    reward = np.full(6, 0.3)
    copies = [a.copy() for a in (click, score, rank, propensity, reward)]
    counterfactual_dcg(
        click,
        score,
        qid=LOG["qid"],
        logged_rank=rank,
        propensity=propensity,
        estimator="dr",
        reward_model=reward,
        clip=0.5,
        normalize=True,
    )
    for array, copy in zip((click, score, rank, propensity, reward), copies):
        assert_array_equal(array, copy)


def test_row_order_does_not_matter():
    rng = np.random.default_rng(2)
    order = rng.permutation(6)
    shuffled = {key: np.asarray(value)[order] for key, value in LOG.items() if key != "propensity"}
    result = counterfactual_dcg(
        np.asarray(CLICK)[order],
        np.asarray(SCORE)[order],
        propensity=LOG["propensity"],
        **shuffled,
    )
    assert_allclose(result.per_query.score, counterfactual_dcg(CLICK, SCORE, **LOG).per_query.score)
