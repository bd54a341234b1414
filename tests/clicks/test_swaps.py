"""RandPair: click-through rates of the two rows of each randomized pair."""

import numpy as np
import pytest

from sklearn_ndcg._clicks._bias_log import check_bias_log
from sklearn_ndcg._clicks._swaps import swap_examination, swap_experiments


def test_ratio_by_hand():
    # experiment 2: rows at rank 1 clicked 1, 1, 0, 1 (rate 3/4), at rank 2: 1, 0, 0, 1
    # (rate 1/2) -> 2/3; experiment 3: rank 1: 1, 1 (rate 1), rank 3: 0, 1 (rate 1/2) -> 1/2.
    # Rows outside any pair (label 0) do not count.
    rank = [1, 2] * 4 + [1, 3] * 2 + [2, 3]
    click = [1, 1, 1, 0, 0, 0, 1, 1] + [1, 0, 1, 1] + [1, 1]
    logger = [2] * 8 + [3] * 4 + [0, 0]
    n = len(rank)
    log = check_bias_log(np.arange(n) // 2, np.arange(n), rank, click, logger)
    partner = swap_experiments(log)
    np.testing.assert_allclose(
        swap_examination(log, partner, np.ones(n)), [1.0, (1 / 2) / (3 / 4), (1 / 2) / 1]
    )


def test_rank_without_experiment_is_nan():
    log = check_bias_log([0, 0, 1, 1], [0, 1, 0, 1], [1, 2, 1, 3], [1, 1, 0, 1], [2, 2, 0, 0])
    theta = swap_examination(log, swap_experiments(log), np.ones(4))
    assert theta[:2].tolist() == [1.0, 1.0] and np.isnan(theta[2])


@pytest.mark.parametrize("labels", [[2, 2, 5, 5], [1, 1, 0, 0]])
def test_labels_must_be_partner_ranks(labels):
    log = check_bias_log([0, 0, 1, 1], [0, 1, 0, 1], [1, 2, 1, 2], [1, 1, 0, 1], labels)
    with pytest.raises(ValueError, match="logger has the label"):
        swap_experiments(log)
