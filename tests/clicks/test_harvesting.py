"""Intervention harvesting: the counts of each pair of ranks and the AllPairs fit."""

import numpy as np

from sklearn_ndcg._clicks._bias_log import check_bias_log
from sklearn_ndcg._clicks._harvesting import (
    all_pairs_examination,
    connected_to_top,
    harvested_counts,
)


def test_counts_by_hand():
    # document a: ranks 1 (clicks 1, 1) and 2 (clicks 1, 0); document b: ranks 2 (0) and
    # 3 (1); document c: rank 1 only (1). Hand computation of the rates per rank:
    # clicks[0, 1] = rate of a at 1 = 1; clicks[1, 0] = rate of a at 2 = 1/2;
    # clicks[1, 2] = rate of b at 2 = 0; clicks[2, 1] = rate of b at 3 = 1; c is in no pair.
    log = check_bias_log(
        qid=[0] * 7,
        doc=["a", "a", "a", "a", "b", "b", "c"],
        logged_rank=[1, 1, 2, 2, 2, 3, 1],
        click=[1, 1, 1, 0, 0, 1, 1],
    )
    clicks, skips = harvested_counts(log, np.ones(7))
    np.testing.assert_allclose(clicks, [[0, 1, 0], [0.5, 0, 0], [0, 1, 0]])
    np.testing.assert_allclose(skips, [[0, 0, 0], [0.5, 0, 1], [0, 0, 0]])


def test_all_pairs_recovers_exact_counts():
    # counts exactly proportional to theta[k] * r[k, k2] (and 1 - that): the maximum of
    # the AllPairs likelihood is the truth (every term at its own maximum)
    theta = np.array([0.9, 0.6, 0.45, 0.3, 0.2])
    rng = np.random.default_rng(0)
    r = rng.uniform(0.2, 0.9, (5, 5))
    r = (r + r.T) / 2
    size = rng.uniform(50, 500, (5, 5))
    size = size + size.T
    clicks = size * theta[:, None] * r
    skips = size * (1 - theta[:, None] * r)
    np.fill_diagonal(clicks, 0)
    np.fill_diagonal(skips, 0)
    np.testing.assert_allclose(all_pairs_examination(clicks, skips)[0], theta / theta[0], rtol=1e-4)


def test_ranks_without_a_chain_to_rank_one_are_nan():
    linked = np.zeros((4, 4))
    linked[0, 1] = linked[1, 0] = linked[2, 3] = linked[3, 2] = 5.0
    np.testing.assert_array_equal(connected_to_top(linked, linked), [True, True, False, False])
    theta = all_pairs_examination(linked * 0.4, linked * 0.6)[0]
    assert np.isnan(theta[2:]).all() and not np.isnan(theta[:2]).any()


def test_a_resample_counts_each_copy_of_a_query():
    # a bootstrap resample weighs each row by the number of times its query was drawn;
    # the counts must be those of the log in which the drawn queries are written out as
    # many times (here query 0 twice, query 1 never, query 2 once), each copy a query
    # of its own. Counting a pair once whatever its copies made the resamples the
    # distinct queries drawn, and the intervals too narrow.
    rng = np.random.default_rng(0)
    qid = np.repeat([0, 1, 2], 12)
    doc = rng.integers(0, 4, qid.size)
    rank = rng.integers(1, 4, qid.size)
    click = rng.integers(0, 2, qid.size)
    log = check_bias_log(qid, doc, rank, click)
    copies = np.array([2.0, 0.0, 1.0])
    resampled = harvested_counts(log, copies[qid])
    keep = np.concatenate([np.flatnonzero(qid == 0)] * 2 + [np.flatnonzero(qid == 2)])
    new_qid = np.concatenate([np.full(12, 10), np.full(12, 11), np.full(12, 12)])
    written_out = check_bias_log(new_qid, doc[keep], rank[keep], click[keep])
    expected = harvested_counts(written_out, np.ones(keep.size))
    np.testing.assert_allclose(resampled[0], expected[0])
    np.testing.assert_allclose(resampled[1], expected[1])
    assert resampled[0].sum() > 0
