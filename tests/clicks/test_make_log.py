"""make_click_log: each logging policy and click model as documented, and its truth
against a direct computation."""

import numpy as np
import pytest

from sklearn_ndcg import dcg_score, make_click_log
from sklearn_ndcg._clicks._make_log import ATTRACTIVENESS, ZIPF_CAP


def test_rows_impressions_and_sessions():
    log = make_click_log(50, 4, sessions=3, random_state=0)
    assert log.qid.shape == (50 * 3 * 4,)
    # every impression shows every candidate once, at ranks 1..4, within one query
    impressions = log.impression.reshape(-1, 4)
    assert (impressions == impressions[:, :1]).all()
    np.testing.assert_array_equal(np.sort(log.doc.reshape(-1, 4), axis=1), [[0, 1, 2, 3]] * 150)
    np.testing.assert_array_equal(log.logged_rank.reshape(-1, 4), [[1, 2, 3, 4]] * 150)
    np.testing.assert_array_equal(np.bincount(log.qid), [12] * 50)
    np.testing.assert_allclose(log.propensity, 1 / np.arange(1, 5))


def test_zipf_sessions_are_mostly_one():
    log = make_click_log(4000, 2, sessions="zipf", random_state=0)
    sessions = np.bincount(log.qid) // 2
    # Zipf's law with exponent 2: P(1) = 6 / pi^2 = 0.608
    assert abs((sessions == 1).mean() - 6 / np.pi**2) < 0.03
    assert sessions.max() <= ZIPF_CAP and sessions.max() > 20


def test_noisy_logging_moves_documents_between_ranks_deterministic_does_not():
    def ranks_per_pair(log):
        pairs = log.qid * 10 + log.doc
        return np.array([np.unique(log.logged_rank[pairs == p]).size for p in np.unique(pairs)])

    noisy = make_click_log(30, 5, sessions=6, random_state=0)
    fixed = make_click_log(30, 5, sessions=6, logging="deterministic", random_state=0)
    assert (ranks_per_pair(noisy) > 1).mean() > 0.5
    assert (ranks_per_pair(fixed) == 1).all()


def test_stochastic_logging_probability_is_the_policy_s():
    # epsilon-greedy: epsilon / n everywhere, plus 1 - epsilon at the logger's position;
    # the empirical share of impressions in the logger's order matches 1 - epsilon + ...
    log = make_click_log(3000, 4, logging="stochastic", epsilon=0.3, random_state=0)
    assert set(np.round(log.logging_probability, 12)) <= {0.075, 0.775}
    at_base = log.logging_probability.reshape(-1, 4) > 0.5
    # the logger's own order survives a shuffle with probability 1 / 4! = 1 / 24
    expected = 0.7 + 0.3 / 24
    assert abs(at_base.all(axis=1).mean() - expected) < 0.02


def test_swap_marks_the_randomized_pair():
    log = make_click_log(200, 5, sessions=2, logging="swap", random_state=0)
    label = log.logger.reshape(-1, 5)
    k = label[:, 0]
    assert ((k >= 2) & (k <= 5)).all()
    marked = (label > 0).sum(axis=1)
    np.testing.assert_array_equal(marked, 2)
    np.testing.assert_array_equal(label[np.arange(k.size), k - 1], k)


def test_loggers_label_each_impression():
    log = make_click_log(100, 3, sessions=4, logging="loggers", n_loggers=3, random_state=0)
    label = log.logger.reshape(-1, 3)
    assert (label == label[:, :1]).all() and set(np.unique(label)) == {0, 1, 2}


def test_position_based_click_rates_are_propensity_times_relevance():
    log = make_click_log(20000, 3, eta=0.5, random_state=0)
    for rank in (1, 2, 3):
        at = log.logged_rank == rank
        expected = (log.propensity[rank - 1] * log.relevance[at]).mean()
        assert abs(log.click[at].mean() - expected) < 4 * np.sqrt(expected / at.sum())


def test_cascade_clicks_at_most_once_per_impression():
    log = make_click_log(500, 5, sessions=2, click_model="cascade", random_state=0)
    assert (log.click.reshape(-1, 5).sum(axis=1) <= 1).all()


def test_true_dcg_equals_dcg_score_of_the_relevance():
    # reference: scikit-learn-compatible dcg_score of the relevance, one impression per
    # query (every impression holds all candidates), averaged over queries
    log = make_click_log(300, 6, sessions=2, random_state=1)
    first = log.impression % 2 == 0  # sessions=2: each query's first impression
    for k in (None, 3):
        expected = dcg_score(log.relevance[first], log.X[first, 1], qid=log.qid[first], k=k)
        assert log.true_dcg(log.X[:, 1], k=k) == pytest.approx(expected, rel=1e-14)
    assert set(np.round(log.relevance, 12)) <= set(ATTRACTIVENESS)


def test_same_seed_same_log():
    a = make_click_log(40, 4, sessions="zipf", random_state=5)
    b = make_click_log(40, 4, sessions="zipf", random_state=5)
    np.testing.assert_array_equal(a.click, b.click)
    np.testing.assert_array_equal(a.doc, b.doc)
