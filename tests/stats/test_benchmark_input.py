"""The input of compare_benchmark (_stats/_benchmark_input.py): dicts of per-query values,
long tables, and the refusals of missing cells, each naming the dataset and the model."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_equal

from sklearn_ndcg import QueryScores
from sklearn_ndcg._ir._trec import RunEvaluation
from sklearn_ndcg._stats._benchmark_input import benchmark_data

COLUMNS = dict(dataset="dataset", model="model", query="qid", value="score")


def _scores():
    return {
        "d1": {
            "a": QueryScores(np.array([3, 1, 2]), np.array([0.1, 0.2, 0.3]), np.ones(3)),
            "b": QueryScores(np.array([1, 2, 3]), np.array([0.5, 0.6, 0.7]), np.ones(3)),
        },
        "d2": {"b": [0.1, 0.2], "a": [0.3, 0.4]},
    }


def test_dict_aligned_by_query_id_and_position():
    data = benchmark_data(_scores(), **COLUMNS)
    assert data.datasets == ["d1", "d2"] and data.models == ["a", "b"]
    # d1 sorted by query id: a's values of queries 1, 2, 3 are 0.2, 0.3, 0.1
    assert_equal(data.values[0], [[0.2, 0.5], [0.3, 0.6], [0.1, 0.7]])
    assert_equal(data.values[1], [[0.3, 0.1], [0.4, 0.2]])
    assert_equal(data.weights[1], [1, 1])


def test_run_evaluation_and_float32_accepted():
    scores = _scores()
    scores["d2"]["a"] = RunEvaluation(
        0.35, QueryScores(np.arange(2), np.float32([0.3, 0.4]), np.ones(2))
    )
    scores["d2"]["b"] = QueryScores(np.arange(2), np.array([1, 0]), np.ones(2))
    data = benchmark_data(scores, **COLUMNS)
    assert data.values[1].dtype == np.float64
    assert_allclose(data.values[1], [[0.3, 1], [0.4, 0]], rtol=1e-7)


@pytest.mark.parametrize(
    ("change", "error", "match"),
    [
        (lambda s: s["d2"].pop("a"), ValueError, "dataset 'd2' has no values of model 'a'"),
        (lambda s: s["d2"].update(c=[1, 2]), ValueError, "dataset 'd1' has no values of model 'c'"),
        (
            lambda s: s["d1"].update(b=QueryScores(np.array([1, 2, 4]), np.ones(3), np.ones(3))),
            ValueError,
            r"scores\['d1'\]\['b'\] and scores\['d1'\]\['a'\] cover different queries of "
            r"dataset 'd1'; these query ids are in only one of them: \[3, 4\]",
        ),
        (
            lambda s: s["d2"].update(a=[1, 2, 3]),
            ValueError,
            r"scores\['d2'\]\['b'\] has 2 queries but scores\['d2'\]\['a'\] has 3",
        ),
        (lambda s: s["d2"].update(a=[np.nan, 1]), ValueError, "dataset 'd2', model 'a'"),
        (
            lambda s: s["d2"].update(a=QueryScores(np.arange(2), np.ones(2), np.ones(2))),
            TypeError,
            r"scores\['d2'\] mixes QueryScores",
        ),
        (lambda s: s.update(d3=[1, 2]), TypeError, r"scores\['d3'\] must be a dict"),
        (lambda s: s.pop("d2"), ValueError, "1 dataset"),
        (lambda s: s.update(d2={"a": [1], "b": [2]}), ValueError, "dataset 'd2' has 1 query"),
    ],
)
def test_refusals_name_dataset_and_model(change, error, match):
    scores = _scores()
    change(scores)
    with pytest.raises(error, match=match):
        benchmark_data(scores, **COLUMNS)


def _long(frame_module):
    rows = [
        ("d1", "a", 1, 0.2),
        ("d1", "b", 1, 0.5),
        ("d1", "a", 2, 0.3),
        ("d1", "b", 2, 0.6),
        ("d1", "a", 3, 0.1),
        ("d1", "b", 3, 0.7),
        ("d2", "a", 0, 0.3),
        ("d2", "a", 1, 0.4),
        ("d2", "b", 0, 0.1),
        ("d2", "b", 1, 0.2),
    ]
    return frame_module.DataFrame(
        {
            name: [row[i] for row in rows]
            for i, name in enumerate(["dataset", "model", "qid", "score"])
        }
    )


@pytest.mark.parametrize("module", ["pandas", "polars"])
def test_long_table_equals_dict(module):
    frames = pytest.importorskip(module)
    data = benchmark_data(_long(frames), **COLUMNS)
    expected = benchmark_data(_scores(), **COLUMNS)
    assert data.datasets == expected.datasets and data.models == expected.models
    for got, want in zip(data.values, expected.values):
        assert_equal(got, want)


def test_long_table_refusals():
    pd = pytest.importorskip("pandas")
    frame = _long(pd)
    with pytest.raises(ValueError, match=r"query='query' is not a column of scores"):
        benchmark_data(frame, **dict(COLUMNS, query="query"))
    with pytest.raises(ValueError, match="lists query 1 of dataset 'd2' more than once"):
        benchmark_data(pd.concat([frame, frame.tail(1)]), **COLUMNS)
    with pytest.raises(ValueError, match="dataset 'd2' has no values of model 'b'"):
        benchmark_data(frame[~((frame.dataset == "d2") & (frame.model == "b"))], **COLUMNS)
    with pytest.raises(TypeError, match="scores must be a dict"):
        benchmark_data([1, 2], **COLUMNS)
