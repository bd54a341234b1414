"""Each query's counts for the measures of binary relevance (``_engine/_counts.py``),
against hand counts of trec_eval's form_res_rels.c: ``num_ret`` (``-J``: the judged
ranked documents), ``num_rel`` and the judged non-relevant documents among the pool's
levels (negative: in the pool, unjudged), the largest level; and a query that retrieved
nothing: interpolated precision 0 / 0 where a recall level asks for no document."""

import numpy as np

from sklearn_ndcg._engine import JudgmentPool, RankingOptions, stage
from sklearn_ndcg._engine._counts import fill_unretrieved, pool_counts, ranked_counts
from sklearn_ndcg._engine._rank import relevant

# q1 ranks a (2), x (unjudged), b (-1: pooled, unjudged); its pool also holds c (0), d (1)
# q2 ranks e (0) only; its pool holds e (0) and f (3); q3 is judged, not ranked
POOL = JudgmentPool(
    np.array(["q1", "q1", "q1", "q1", "q2", "q2", "q3"]),
    np.array([2.0, -1.0, 0.0, 1.0, 0.0, 3.0, 1.0]),
)
LABEL = np.array([2.0, np.nan, np.nan, 0.0])  # b's -1 is unjudged when ranked
SCORE = np.array([3.0, 2.0, 1.0, 1.0])
QID = np.array(["q1", "q1", "q1", "q2"])


def _staged(missing_queries="drop"):
    options = RankingOptions(pool=POOL, missing_queries=missing_queries)
    return stage(LABEL, SCORE, options, qid=QID)


def test_pool_counts_by_hand():
    staged = _staged()
    pool_rel = relevant(staged.pool.y_true, 1.0)
    n_relevant = np.array([2.0, 1.0, 1.0])  # q1: a, d; q2: f; q3 (in the pool's order)
    counts = pool_counts(staged, pool_rel, n_relevant, judged_only=False)
    np.testing.assert_array_equal(counts.n_ret, [3.0, 1.0])
    np.testing.assert_array_equal(counts.n_rel, [2.0, 1.0])
    np.testing.assert_array_equal(counts.n_nonrel, [1.0, 1.0])  # c; e (b is unjudged)
    np.testing.assert_array_equal(counts.max_level, [2.0, 3.0])
    judged = pool_counts(staged, pool_rel, n_relevant, judged_only=True)
    np.testing.assert_array_equal(judged.n_ret, [1.0, 1.0])  # -J: a; e


def test_ranked_counts_by_hand():
    level = np.array([[2.0, 0.0, np.nan, 1.0], [0.0, np.nan, np.nan, np.nan]])
    counts = ranked_counts(level, relevant(level, 1.0), np.array([4, 1]))
    np.testing.assert_array_equal(counts.n_rel, [2.0, 0.0])
    np.testing.assert_array_equal(counts.n_nonrel, [1.0, 1.0])
    np.testing.assert_array_equal(counts.max_level, [2.0, 0.0])


def test_a_query_that_retrieved_nothing():
    """q3 (R = 1): lround(0.2 * 1) = 0 documents at 0.2, 0 / 0; lround(0.5) = 1 at 0.5."""
    sums = np.zeros((3, 2))
    requests = (("iprec_at_recall", (0.2, 0.5)),)
    fill_unretrieved(sums, requests, [2], np.array([0, 1]), np.array([2.0, 1.0, 1.0]))
    assert np.isnan(sums[2, 0]) and sums[2, 1] == 0.0
    np.testing.assert_array_equal(sums[:2], 0.0)
