"""Tests for the click-log simulator: its exact truth and the click rates it draws."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_ndcg._clicks._simulate import (
    ATTRACTIVENESS,
    ClickSimulation,
    power_propensity,
    simulate_clicks,
)


def test_true_dcg_by_hand():
    # one query of three documents with grades 2, 0, 4; X[:, 0] is the logger's score
    sim = ClickSimulation(
        qid=np.zeros(3, dtype=int),
        grade=np.array([2, 0, 4]),
        X=np.array([[3.0, 0, 0], [2.0, 0, 0], [1.0, 0, 0]]),
        propensity=np.ones(3),
    )
    d = 1 / np.log2(1 + np.arange(1, 4))
    # ranked 4, 2, 0 by the score below; relevance = ATTRACTIVENESS of the grade
    expected = ATTRACTIVENESS[4] * d[0] + ATTRACTIVENESS[2] * d[1] + ATTRACTIVENESS[0] * d[2]
    assert sim.true_dcg([2, 1, 3]) == pytest.approx(expected)
    assert sim.true_dcg([2, 1, 3], k=1) == pytest.approx(ATTRACTIVENESS[4])
    assert_array_equal(sim.base_rank, [1, 2, 3])


def test_power_propensity():
    assert_allclose(power_propensity(3, 2.0), [1, 1 / 4, 1 / 9])


def test_position_based_clicks_have_the_modelled_rate():
    sim = simulate_clicks(4000, 5, eta=1.0, random_state=0)
    log = sim.log(1)
    assert_array_equal(log.logged_rank, sim.base_rank)
    assert log.logging_probability is None
    # each query shows a permutation of ranks 1..5
    assert_array_equal(
        np.sort(log.logged_rank.reshape(-1, 5), axis=1), np.tile(np.arange(1, 6), (4000, 1))
    )
    expected = sim.propensity[log.logged_rank - 1] * sim.relevance
    for rank in range(1, 6):
        rows = log.logged_rank == rank
        # click rate at each rank within 4 binomial standard errors of its expectation
        p = expected[rows].mean()
        assert abs(log.click[rows].mean() - p) < 4 * np.sqrt(p * (1 - p) / rows.sum())


def test_cascade_clicks_once_at_most_where_the_first_attractive_document_is():
    sim = simulate_clicks(3000, 5, click_model="cascade", random_state=0)
    log = sim.log(2)
    per_query = log.click.reshape(-1, 5).sum(axis=1)
    assert per_query.max() == 1
    # P(a click at rank 1) = mean attractiveness of rank-1 documents
    top = log.logged_rank == 1
    p = sim.relevance[top].mean()
    assert abs(log.click[top].mean() - p) < 4 * np.sqrt(p * (1 - p) / top.sum())


def test_stochastic_logger_probability():
    sim = simulate_clicks(4000, 4, epsilon=0.4, random_state=0)
    log = sim.log(3)
    at_base = log.logged_rank == sim.base_rank
    # at the base rank: (1 - 0.4) + 0.4 / 4; elsewhere 0.4 / 4
    assert_allclose(log.logging_probability[at_base], 0.7)
    assert_allclose(log.logging_probability[~at_base], 0.1)
    # the share of rows at their base rank matches the probability
    assert abs(at_base.mean() - 0.7) < 4 * np.sqrt(0.7 * 0.3 / 4000)


def test_bad_click_model():
    with pytest.raises(ValueError, match="click_model must be"):
        simulate_clicks(10, click_model="dbn")


def test_a_log_seeded_like_its_queries_draws_clicks_apart_from_the_grades():
    # with one stream for both, the uniforms that drew high grades would decide the
    # examinations too, and the clicks would not follow the model
    sim = simulate_clicks(2000, 10, random_state=3)
    log = sim.log(3)
    expected = (sim.propensity[log.logged_rank - 1] * sim.relevance).mean()
    assert abs(log.click.mean() - expected) < 4 * np.sqrt(expected * (1 - expected) / 20000)
