"""estimate_position_bias on the logs users have: few sessions per query, ranks the log
cannot identify, logs without a click (issue 47, items 1 and 2)."""

import warnings

import numpy as np
import pytest

from sklearn_ndcg import estimate_position_bias, make_click_log


def test_default_is_unbiased_on_a_zipfian_log():
    # 3,000 queries, Zipfian sessions (61 % seen once), a logger whose order varies:
    # the truth is 1 / r. EM with a free relevance per pair (the default before 0.3)
    # gives 0.56 at rank 2 and 0.37 at rank 3 on this log; the default now is within
    # 10 % of the truth at ranks 2 to 5, where the log has most of its clicks.
    log = make_click_log(3000, 10, sessions="zipf", random_state=3)
    result = estimate_position_bias(log.qid, log.doc, log.logged_rank, log.click, n_bootstrap=0)
    assert result.method == "harvesting"
    relative = result.propensity[1:5] / log.propensity[1:5] - 1
    assert np.abs(relative).max() < 0.1, relative


def test_em_warns_with_few_impressions_per_pair():
    log = make_click_log(300, 5, sessions=3, random_state=0)
    with pytest.warns(UserWarning, match=r"3\.0 impressions per pair \(fewer than 20\)"):
        estimate_position_bias(
            log.qid, log.doc, log.logged_rank, log.click, method="em", n_bootstrap=0
        )


def _never_clicked_at_rank_3():
    log = make_click_log(300, 4, sessions=4, random_state=0)
    click = log.click.copy()
    click[log.logged_rank == 3] = 0
    return log, click


@pytest.mark.parametrize("method", ["harvesting", "em"])
def test_a_rank_never_clicked_is_nan_not_a_clamp_value(method):
    # main before 0.3: 1e-9 (harvesting) or 1e-12 (EM) with a zero-width interval
    log, click = _never_clicked_at_rank_3()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # EM's few-impressions warning
        result = estimate_position_bias(
            log.qid, log.doc, log.logged_rank, click, method=method, n_bootstrap=5, random_state=0
        )
    assert np.isnan(result.propensity[2])
    assert np.isnan(result.confidence_interval[:, 2]).all()
    assert np.isnan(result.replicates[:, 2]).all()
    assert np.isfinite(result.propensity[[0, 1, 3]]).all()
    # the counts the downstream message names: 300 queries x 4 sessions at each rank
    np.testing.assert_array_equal(result.impressions, [1200] * 4)
    assert result.clicks[2] == 0 and (result.clicks[[0, 1, 3]] > 0).all()


def test_a_log_without_a_click_is_refused():
    # main before 0.3: propensities [1, 1] with the interval [1, 1]
    log = make_click_log(50, 3, sessions=2, random_state=0)
    with pytest.raises(ValueError, match="click is 0 on every row"):
        estimate_position_bias(
            log.qid, log.doc, log.logged_rank, np.zeros_like(log.click), n_bootstrap=0
        )


def test_one_ranking_per_query_is_refused_without_features():
    # every document always at one rank: examination and relevance are not told apart
    log = make_click_log(200, 4, sessions=3, logging="deterministic", random_state=0)
    with pytest.raises(ValueError, match="never shows a \\(query, document\\) pair at two"):
        estimate_position_bias(log.qid, log.doc, log.logged_rank, log.click, n_bootstrap=0)
    # the logger's features identify it (the regression EM): no error
    estimate_position_bias(
        log.qid, log.doc, log.logged_rank, log.click, features=log.X[:, :1], n_bootstrap=0
    )
