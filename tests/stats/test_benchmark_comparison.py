"""BenchmarkComparison (_stats/_benchmark_comparison.py): its table, frames and text."""

import numpy as np
import pytest

from sklearn_ndcg import compare_benchmark


def _comparison():
    rng = np.random.default_rng(0)
    scores = {
        d: {"x": rng.uniform(size=20) + 0.2, "y": rng.uniform(size=20), "z": rng.uniform(size=20)}
        for d in ["a", "b", "c"]
    }
    return compare_benchmark(scores, n_resamples=99, random_state=0)


def test_to_dict_is_a_copy():
    comparison = _comparison()
    table = comparison.to_dict()
    table["name"].append("w")
    assert len(comparison.to_dict()["name"]) == 3 and table["name"][0] == "x"
    assert list(table) == [
        "name",
        "mean",
        "ci_low",
        "ci_high",
        "rank",
        "rank_low",
        "rank_high",
        "verdict",
    ]


def test_frames():
    pytest.importorskip("pandas")
    comparison = _comparison()
    frame = comparison.to_frame()
    assert frame["name"].tolist() == comparison.to_dict()["name"]
    assert frame["rank_low"].dtype.kind == "i"
    pairs = comparison.pairwise_frame()
    names = comparison.to_dict()["name"]
    assert pairs.index.tolist() == names and pairs.columns.tolist() == names
    np.testing.assert_equal(pairs.to_numpy(), comparison.pairwise_pvalues)


def test_text():
    text = str(_comparison())
    assert text.startswith("Models over 3 datasets (unit='queries'")
    assert "rank_low" in text.splitlines()[1]
    assert "best" in text.splitlines()[2]
