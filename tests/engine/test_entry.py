import math

import numpy as np
import pytest

from sklearn_ndcg._engine import JudgmentPool, RankingOptions, query_values, stage

# hand computation: one query, labels 3, 2, 0, 1 ranked by scores 4, 3, 2, 1
DCG = 3 + 2 / math.log2(3) + 0 + 1 / math.log2(5)
IDEAL = 3 + 2 / math.log2(3) + 1 / math.log2(4)
Y, S, Q = [3, 2, 0, 1], [4, 3, 2, 1], [7, 7, 7, 7]


@pytest.mark.parametrize("metric, expected", [("ndcg", DCG / IDEAL), ("dcg", DCG)])
def test_stage_then_sum(metric, expected):
    options = RankingOptions(metric=metric)
    result = query_values(stage(Y, S, options, qid=Q), options)
    assert result.ids.tolist() == [7]
    assert result.values[0] == pytest.approx(expected)
    assert result.weight is None and result.bounds is None


def test_many_cutoffs_from_one_staging():
    options = RankingOptions()
    staged = stage(Y, S, options, qid=Q)
    values = query_values(staged, options, ks=np.array([1, 4])).values
    # hand computation: NDCG@1 = 3 / 3
    np.testing.assert_allclose(values, [[1.0, DCG / IDEAL]])


def test_a_pool_stages_and_bounds():
    pool = JudgmentPool([7, 7, 7], [3, 2, 1])
    options = RankingOptions(pool=pool)
    staged = stage([3, 2, np.nan, 1], S, options, qid=Q)
    result = query_values(staged, options, levels=np.array([0.0, 1.0]))
    # hand computation: the unjudged third document gains 0; the ideal DCG is the pool's
    assert result.values[0] == pytest.approx(DCG / IDEAL)
    assert result.bounds.lower[0] <= result.values[0] <= result.bounds.upper[0]
