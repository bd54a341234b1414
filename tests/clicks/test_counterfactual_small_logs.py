"""counterfactual_dcg says what a small log can decide (issue 47, item 5): the warning
under stochastic logging below the benchmark's minimum of queries, and the share of the
estimate that clipping removes."""

import warnings

import numpy as np
import pytest

from sklearn_ndcg import counterfactual_dcg, make_click_log
from sklearn_ndcg._clicks._counterfactual import MIN_STOCHASTIC_QUERIES


def _stochastic(n_queries):
    log = make_click_log(n_queries, 5, logging="stochastic", random_state=0)
    return log, dict(
        qid=log.qid,
        impression=log.impression,
        logged_rank=log.logged_rank,
        propensity=log.propensity,
        logging_probability=log.logging_probability,
    )


def test_a_small_stochastic_log_warns_with_the_minimum():
    # 200 queries: benchmarks/bench_click_calibration.py, section 3, shows the paired test
    # of two rankers over-claiming there (main before 0.3 was silent)
    log, kw = _stochastic(200)
    with pytest.warns(
        UserWarning,
        match=f"200 queries under stochastic logging.*below {MIN_STOCHASTIC_QUERIES} queries",
    ):
        counterfactual_dcg(log.click, log.X[:, 1], **kw)


def test_enough_queries_or_deterministic_logging_do_not_warn():
    log, kw = _stochastic(MIN_STOCHASTIC_QUERIES)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        counterfactual_dcg(log.click, log.X[:, 1], **kw)
        small = make_click_log(50, 5, sessions=2, random_state=0)
        counterfactual_dcg(
            small.click,
            small.X[:, 1],
            qid=small.qid,
            impression=small.impression,
            logged_rank=small.logged_rank,
            propensity=small.propensity,
        )


def test_clipped_fraction_by_hand():
    # one impression of two documents, the click at logged rank 2 (propensity 0.25), the
    # new ranker keeps the order: unclipped 4 / log2(3), clipped at 0.5 (weight 2)
    # 2 / log2(3): the clip removed half of the estimate
    kw = dict(qid=[0, 0], impression=[0, 0], logged_rank=[1, 2], propensity=[1.0, 0.25])
    clipped = counterfactual_dcg([0, 1], [2, 1], clip=0.5, **kw)
    assert clipped.estimate == pytest.approx(2 / np.log2(3), rel=1e-15)
    assert clipped.clipped_fraction == pytest.approx(0.5, rel=1e-15)
    assert counterfactual_dcg([0, 1], [2, 1], **kw).clipped_fraction == 0.0


def test_clipping_stochastic_weights_removes_much_of_the_dcg():
    # the surprise, now visible on the result: clip=0.1 under epsilon-greedy
    # logging caps the whole weight pi / (p * propensity), often above 10
    log, kw = _stochastic(MIN_STOCHASTIC_QUERIES)
    result = counterfactual_dcg(log.click, log.X[:, 1], clip=0.1, **kw)
    assert 0.2 < result.clipped_fraction < 0.8
