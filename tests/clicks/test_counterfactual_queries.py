"""counterfactual_dcg with queries as the unit and estimated propensities (issue 47,
items 2 to 4): impressions averaged within queries, the propensities' uncertainty in the
interval, ranks the log could not estimate refused by name, the old qid under its
FutureWarning."""

import numpy as np
import pytest
from scipy import stats

from sklearn_ndcg import PositionBias, counterfactual_dcg, estimate_position_bias, make_click_log

# two queries: query "a" logged twice (impressions 10 and 11), query "b" once (12)
CLICK = np.array([1, 0, 1, 0, 1, 0, 0, 1, 1], dtype=float)
SCORE = np.array([1, 2, 3, 3, 2, 1, 2, 3, 1], dtype=float)
QID = np.array(["a"] * 6 + ["b"] * 3)
IMPRESSION = np.array([10] * 3 + [11] * 3 + [12] * 3)
RANK = np.array([1, 2, 3] * 3)
CURVE = np.array([1.0, 0.5, 0.25])


def test_per_query_is_the_mean_of_its_impressions():
    # hand computation, per impression (new rank of each row, 1 / log2(1 + r) discounts):
    # 10: clicks at logged ranks 1 (w 1, new rank 3: 0.5) and 3 (w 4, new rank 1: 1) = 4.5
    # 11: click at logged rank 2 (w 2, new rank 2: 1 / log2(3)) = 1.26186
    # 12: clicks at logged ranks 2 (w 2, new rank 1) and 3 (w 4, new rank 3) = 2 + 2 = 4
    result = counterfactual_dcg(
        CLICK, SCORE, qid=QID, impression=IMPRESSION, logged_rank=RANK, propensity=CURVE
    )
    by_impression = np.array([4.5, 2 / np.log2(3), 4.0])
    np.testing.assert_array_equal(result.per_query.qid, ["a", "b"])
    expected = [by_impression[:2].mean(), by_impression[2]]
    np.testing.assert_allclose(result.per_query.score, expected, rtol=1e-14)
    assert result.estimate == pytest.approx(np.mean(expected), rel=1e-14)


def test_an_impression_of_two_queries_is_refused():
    qid = QID.copy()
    qid[4] = "b"
    with pytest.raises(ValueError, match="impression 11 holds rows of two queries"):
        counterfactual_dcg(
            CLICK, SCORE, qid=qid, impression=IMPRESSION, logged_rank=RANK, propensity=CURVE
        )


def test_qid_without_impression_keeps_the_old_meaning_with_a_future_warning():
    with pytest.warns(FutureWarning, match="pass impression="):
        old = counterfactual_dcg(CLICK, SCORE, qid=IMPRESSION, logged_rank=RANK, propensity=CURVE)
    new = counterfactual_dcg(
        CLICK, SCORE, qid=IMPRESSION, impression=IMPRESSION, logged_rank=RANK, propensity=CURVE
    )
    np.testing.assert_array_equal(old.per_query.score, new.per_query.score)
    assert old.per_query.qid.shape == (3,)


def test_queries_are_the_unit_of_a_paired_comparison():
    # 300 queries x 12 impressions: per_query has 300 values, not 3,600
    log = make_click_log(300, 5, sessions=12, random_state=0)
    result = counterfactual_dcg(
        log.click,
        log.X[:, 1],
        qid=log.qid,
        impression=log.impression,
        logged_rank=log.logged_rank,
        propensity=log.propensity,
    )
    assert result.per_query.qid.shape == (300,)


def _bias(curve, replicates, clicks):
    n_ranks = curve.shape[0]
    return PositionBias(
        curve,
        np.full((2, n_ranks), np.nan),
        "harvesting",
        10,
        0.95,
        replicates.shape[0],
        np.full(n_ranks, 8),
        np.asarray(clicks),
        replicates,
    )


def test_an_unidentified_rank_is_refused_with_its_counts():
    # main before 0.3 divided by the clamp value 1e-12 and returned 5.0e11
    bias = _bias(np.array([1.0, 0.5, np.nan]), np.ones((3, 3)), [5, 2, 0])
    with pytest.raises(ValueError, match=r"rank 3 \(shown 8 times, clicked 0 times"):
        counterfactual_dcg(
            CLICK, SCORE, qid=QID, impression=IMPRESSION, logged_rank=RANK, propensity=bias
        )
    # no row at rank 3: nothing to refuse
    keep = RANK < 3
    counterfactual_dcg(
        CLICK[keep],
        SCORE[keep],
        qid=QID[keep],
        impression=IMPRESSION[keep],
        logged_rank=RANK[keep],
        propensity=bias,
    )


def test_the_interval_adds_the_spread_over_the_propensity_replicates():
    # reference: the estimate of each replicate curve, computed by passing it as a plain
    # array; the interval's variance is s^2 / n + their variance (Student's t, n - 1)
    rng = np.random.default_rng(0)
    log = make_click_log(40, 3, sessions=2, random_state=1)
    replicates = CURVE * np.exp(0.1 * rng.normal(size=(30, 3)))
    replicates[:, 0] = 1.0
    replicates[3, 2] = np.nan  # a resample without a click at rank 3: left out
    bias = _bias(CURVE, replicates, [9, 9, 9])
    kw = {
        "qid": log.qid,
        "impression": log.impression,
        "logged_rank": log.logged_rank,
        "k": 2,
    }
    result = counterfactual_dcg(log.click, log.X[:, 1], propensity=bias, **kw)
    plain = counterfactual_dcg(log.click, log.X[:, 1], propensity=CURVE, **kw)
    assert result.estimate == plain.estimate
    each = [
        counterfactual_dcg(log.click, log.X[:, 1], propensity=np.minimum(c, 1), **kw).estimate
        for c in np.delete(replicates, 3, axis=0)
    ]
    values = plain.per_query.score
    n = values.shape[0]
    half = stats.t.ppf(0.975, n - 1) * np.sqrt(values.var(ddof=1) / n + np.var(each, ddof=1))
    np.testing.assert_allclose(
        result.confidence_interval, (plain.estimate - half, plain.estimate + half), rtol=1e-12
    )
    assert half > plain.confidence_interval[1] - plain.estimate


def test_estimated_propensities_flow_into_the_interval():
    log = make_click_log(400, 5, sessions=3, random_state=2)
    bias = estimate_position_bias(
        log.qid, log.doc, log.logged_rank, log.click, n_bootstrap=20, random_state=0
    )
    kw = {"qid": log.qid, "impression": log.impression, "logged_rank": log.logged_rank}
    wide = counterfactual_dcg(log.click, log.X[:, 1], propensity=bias, **kw)
    narrow = counterfactual_dcg(log.click, log.X[:, 1], propensity=bias.propensity, **kw)
    assert wide.estimate == narrow.estimate
    assert np.diff(wide.confidence_interval)[0] > np.diff(narrow.confidence_interval)[0]
