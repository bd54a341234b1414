"""QueryScores and QueryBounds: the per-query results as a frame, and their means.

Expected values come from hand arithmetic, shown in the comments.
"""

import math

import numpy as np
import pytest

from sklearn_ndcg import QueryBounds, QueryScores, query_scores


def test_to_frame():
    pd = pytest.importorskip("pandas")
    result = query_scores([1, 0, 0, 1], [2, 1, 2, 1], qid=["b", "b", "a", "a"])
    frame = result.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert frame.columns.tolist() == ["qid", "score", "weight"]
    assert frame["qid"].tolist() == ["a", "b"]
    # by hand: query a ranks its relevant document second, 1 / log2(3); b first, 1
    np.testing.assert_allclose(frame["score"], [1 / np.log2(3), 1.0], rtol=1e-15)
    assert frame["weight"].tolist() == [1.0, 1.0]


def test_to_frame_without_pandas(monkeypatch):
    import sys

    result = query_scores([1, 0], [2, 1], qid=[1, 1])
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="QueryScores.to_frame needs pandas"):
        result.to_frame()


def test_query_bounds_mean_is_weighted_and_skips_nan():
    bounds = QueryBounds(
        qid=np.array([1, 2, 3]),
        score=np.array([1.0, 0.5, np.nan]),
        weight=np.array([1.0, 3.0, 1.0]),
        judged=np.array([1.0, 0.5, 0.0]),
        lower=np.array([0.5, 0.25, np.nan]),
        upper=np.array([1.0, 1.0, np.nan]),
    )
    means = bounds.mean()
    # hand computation: weights 1 and 3 over the queries with a value (NaN left out)
    assert means["score"] == pytest.approx((1.0 + 3 * 0.5) / 4)
    assert means["lower"] == pytest.approx((0.5 + 3 * 0.25) / 4)
    assert means["upper"] == pytest.approx(1.0)
    # judged has no NaN: all three queries count
    assert means["judged"] == pytest.approx((1.0 + 3 * 0.5 + 0.0) / 5)
    assert not math.isnan(means["judged"])


def test_query_score_arrays_are_float_and_checked():
    from sklearn_ndcg import QueryScores
    from sklearn_ndcg._metrics import query_score_arrays

    qid, score, weight = query_score_arrays(QueryScores([2, 1], [1, 0], [1, 1]), "a")
    assert qid.tolist() == [2, 1] and score.dtype == weight.dtype == np.float64
    # one qid too many: the shapes (2,), (1,) and (1,) named in the error
    with pytest.raises(ValueError, match=r"a is a QueryScores whose .* shapes \(2,\), \(1,\)"):
        query_score_arrays(QueryScores([1, 2], [0.5], [1.0]), "a")


@pytest.mark.parametrize("ties", ["average", "first", "docno"])
def test_each_result_says_its_tie_rule(ties):
    import pickle

    from sklearn_ndcg import evaluate_run

    qrels, run = {"q": {"a": 1, "b": 0}}, {"q": {"a": 1.0, "b": 1.0}}
    result = evaluate_run(run, qrels, ties=ties)
    assert result.ties == result.per_query.ties == ties
    assert f"ties={ties!r}" in repr(result) and f"ties={ties!r}" in repr(result.per_query)
    assert query_scores(qrels, run, metric=["map"], ties=ties)["map"].ties == ties
    if ties != "docno":  # arrays: tied documents of different labels need ids
        assert query_scores([1, 0], [1, 1], qid=[0, 0], ties=ties).ties == ties
    values = result.per_query
    assert pickle.loads(pickle.dumps(values)).ties == ties
    assert values._replace(score=values.score * 0).ties == ties
    qid, score, weight = values  # still the named tuple of three fields
    assert QueryScores([1], [0.5], [1.0]).ties is None  # built by hand: not said
