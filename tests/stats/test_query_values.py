"""Per-query values aligned by query id or position; pairs with NaN left out."""

import numpy as np
import pytest
from _stats_data import pair as _pair
from _stats_data import scores as _scores

from sklearn_ndcg._stats._paired import paired_test


@pytest.mark.filterwarnings("ignore:too few queries:UserWarning")  # bootstrap: < 40 queries
@pytest.mark.parametrize("method", ["randomization", "t", "wilcoxon", "bootstrap"])
def test_query_scores_are_aligned_by_qid(method):
    a, b = _pair(3, 12)
    qid = np.arange(100, 112)
    by_position = paired_test(a, b, method=method, random_state=0)
    order = np.random.default_rng(0).permutation(12)
    shuffled = paired_test(
        _scores(a, qid), _scores(b[order], qid[order]), method=method, random_state=0
    )
    assert shuffled == by_position


def test_query_scores_with_different_ids_raise():
    a, b = _pair(0, 4)
    with pytest.raises(ValueError, match=r"in only one of them: \[3, 9\]"):
        paired_test(_scores(a, [0, 1, 2, 3]), _scores(b, [0, 1, 2, 9]))
    with pytest.raises(ValueError, match="weigh some queries differently"):
        paired_test(_scores(a, [0, 1, 2, 3]), _scores(b, [0, 1, 2, 3], [1, 1, 1, 2]))
    with pytest.raises(ValueError, match="query ids more than once"):
        paired_test(_scores(a, [0, 1, 1, 3]), _scores(b, [0, 1, 1, 3]))
    with pytest.raises(TypeError, match="both be QueryScores"):
        paired_test(_scores(a, [0, 1, 2, 3]), b)


@pytest.mark.filterwarnings("ignore:too few queries:UserWarning")  # bootstrap: < 40 queries
@pytest.mark.parametrize("method", ["randomization", "t", "wilcoxon", "bootstrap"])
def test_nan_pairs_are_dropped(method):
    a, b = _pair(4, 10)
    expected = paired_test(a[2:], b[2:], method=method, random_state=0)
    a_nan, b_nan = a.copy(), b.copy()
    a_nan[0], b_nan[1] = np.nan, np.nan
    result = paired_test(a_nan, b_nan, method=method, random_state=0)
    assert result == expected
    assert result.n_queries == 8
