"""query_scores: one NDCG (or DCG) per query, with the query ids and weights.

Expected values come from ``ndcg_score`` (whose mean it must reproduce), from
``tests/data/seed-examples.md`` or from hand arithmetic.
"""

import math

import numpy as np
import pytest

from sklearn_ndcg import QueryScores, ndcg_score, query_scores


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("zero_division", [0.0, 1.0, np.nan])
def test_query_scores_weighted_mean_is_ndcg_score(seed, zero_division, random_ragged):
    y_true, y_score, qid = random_ragged(1000 + seed)
    rng = np.random.default_rng(seed)
    ids = np.unique(qid)
    per_query = dict(zip(ids, rng.uniform(0.1, 2, size=ids.size)))
    sample_weight = np.array([per_query[q] for q in qid])
    for weight in (None, sample_weight):
        result = query_scores(
            y_true, y_score, qid=qid, k=3, sample_weight=weight, zero_division=zero_division
        )
        assert isinstance(result, QueryScores)
        assert result.qid.tolist() == sorted(set(qid.tolist()))
        expected_weight = [per_query[q] for q in ids] if weight is not None else 1.0
        np.testing.assert_array_equal(result.weight, np.broadcast_to(expected_weight, ids.shape))
        kept = ~np.isnan(result.score)
        mean = np.average(result.score[kept], weights=result.weight[kept])
        assert mean == pytest.approx(
            ndcg_score(
                y_true, y_score, qid=qid, k=3, sample_weight=weight, zero_division=zero_division
            ),
            rel=1e-14,
        )


def test_query_scores_ids_sorted_and_follow_their_queries():
    y_true = [3, 0, 1, 0, 2, 2]
    y_score = [1, 2, 1, 2, 0, 1]
    qid = ["b", "b", "c", "c", "a", "a"]
    result = query_scores(y_true, y_score, qid=qid)
    assert result.qid.tolist() == ["a", "b", "c"]
    # hand computation, per query, by the reference definition
    np.testing.assert_allclose(
        result.score,
        [1.0, 3 / np.log2(3) / 3, 1 / np.log2(3)],
        rtol=1e-15,
    )
    np.testing.assert_array_equal(result.weight, [1.0, 1.0, 1.0])


def test_query_scores_2d_and_dcg():
    y_true = [[3, 2, 1, 0, 0], [0, 0, 0, 0, 0], [5, 5, 4, 3, 2]]
    y_score = [[3, 2, 0, 0, 1], [1, 2, 3, 4, 5], [3, 1, 5, 2, 4]]
    result = query_scores(y_true, y_score, sample_weight=[1.0, 2.0, 0.5])
    assert result.qid.tolist() == [0, 1, 2]
    np.testing.assert_allclose(
        result.score,
        # tests/data/seed-examples.md, examples 1 (scikit-learn call) and 2 (k=5); no relevant doc
        [0.980840401274087, 0.0, 0.899165948196969109318662500767],
        rtol=1e-14,
    )
    np.testing.assert_array_equal(result.weight, [1.0, 2.0, 0.5])
    dcg = query_scores(y_true, y_score, metric="dcg", k=2, log_base=10)
    # hand computation: DCG@2 with log10 discount is DCG@2 (log2) * log2(10);
    # tests/data/seed-examples.md, example 2, DCG@2 = 5.2618595071429148...
    np.testing.assert_allclose(
        dcg.score,
        [(3 + 2 / np.log2(3)) * np.log2(10), 0.0, 5.26185950714291487419905422869 * np.log2(10)],
        rtol=1e-14,
    )


def test_query_scores_ndcg_ignores_log_base():
    y_true, y_score = [[3, 2, 1, 0, 0]], [[3, 2, 0, 0, 1]]
    for base in (math.e, 10.0):
        assert query_scores(y_true, y_score, log_base=base).score[0] == pytest.approx(
            0.980840401274087, rel=1e-14
        )


@pytest.mark.parametrize(
    "options, named",
    [
        ({"unjudged": "drop"}, "unjudged='drop'"),
        ({"unjudged": "zero"}, "unjudged='zero'"),  # the default's value, given explicitly
        ({"missing_queries": "zero"}, "missing_queries='zero'"),
        ({"missing_queries": "drop"}, "missing_queries='drop'"),
    ],
)
@pytest.mark.parametrize("function", ["ndcg_score", "dcg_score", "query_scores"])
def test_pool_options_without_pool_are_refused(function, options, named):
    """unjudged= and missing_queries= mean nothing without a pool: refused, not ignored."""
    import sklearn_ndcg

    with pytest.raises(ValueError, match=f"{named} only applies with a pool"):
        getattr(sklearn_ndcg, function)([1, 0], [2, 1], qid=[1, 1], **options)


def test_pool_options_with_pool_are_accepted():
    from sklearn_ndcg import JudgmentPool

    pool = JudgmentPool(qid=[1, 1], y_true=[1, 1])
    # by hand: DCG 1 (the relevant document first), ideal DCG from the pool 1 + 1/log2(3)
    value = ndcg_score([1, 0], [2, 1], qid=[1, 1], pool=pool, unjudged="zero")
    assert value == pytest.approx(1 / (1 + 1 / np.log2(3)), rel=1e-15)


@pytest.mark.parametrize("levels", [[0, None], [0, np.nan], [1, np.inf]])
def test_bounds_refuse_missing_or_infinite_levels(levels):
    """levels are read as float64 numbers: None is NaN, refused like NaN (a ValueError
    naming levels, not numpy's TypeError of an object array)."""
    from sklearn_ndcg import JudgmentPool

    pool = JudgmentPool(qid=[1, 1], y_true=[1, 0])
    with pytest.raises(ValueError, match="levels must be a non-empty 1-D array of finite"):
        query_scores([1, np.nan], [2, 1], qid=[1, 1], pool=pool, bounds=True, levels=levels)
