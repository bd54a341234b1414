"""The checked click log: codes of queries and pairs, and the cells (pair, rank)."""

import numpy as np
import pytest

from sklearn_ndcg._clicks._bias_log import cells, check_bias_log, pair_features


def test_codes_and_cells_by_hand():
    log = check_bias_log(
        qid=["q2", "q1", "q2", "q1"],
        doc=[7, 7, 7, 8],
        logged_rank=[1, 2, 2, 1],
        click=[True, False, True, True],
        max_rank=3,
    )
    # pairs sorted by (query, document): (q1, 7) = 0, (q1, 8) = 1, (q2, 7) = 2
    np.testing.assert_array_equal(log.pair, [2, 0, 2, 1])
    np.testing.assert_array_equal(log.query, [1, 0, 1, 0])
    np.testing.assert_array_equal(log.rank, [0, 1, 1, 0])
    assert (log.n_queries, log.n_pairs, log.max_rank) == (2, 3, 3)
    shown, clicked, rate = cells(log, np.array([1.0, 1.0, 3.0, 1.0]))
    np.testing.assert_array_equal(shown, [[0, 1, 0], [1, 0, 0], [1, 3, 0]])
    np.testing.assert_array_equal(clicked, [[0, 0, 0], [1, 0, 0], [1, 3, 0]])
    np.testing.assert_array_equal(rate, [[0, 0, 0], [1, 0, 0], [1, 1, 0]])


def test_same_document_id_in_two_queries_is_two_pairs():
    log = check_bias_log([0, 1], [5, 5], [1, 1], [0, 1])
    assert log.n_pairs == 2


def test_pair_features_one_row_per_pair():
    log = check_bias_log([0, 0, 0], [3, 4, 3], [1, 2, 2], [1, 0, 1])
    features = np.array([[1.0, 2.0], [3.0, 4.0], [1.0, 2.0]])
    np.testing.assert_array_equal(pair_features(log, features), [[1.0, 2.0], [3.0, 4.0]])
    with pytest.raises(ValueError, match="features of row 2 differ"):
        pair_features(log, features + [[0, 0], [0, 0], [0, 1]])
