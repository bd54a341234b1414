"""Tests for CounterfactualResult: its fields, and its per-query values as a frame."""

import numpy as np
import pytest

from sklearn_ndcg import CounterfactualResult, counterfactual_dcg

# qid as the logged ranking (its meaning before 0.3), under its FutureWarning
pytestmark = pytest.mark.filterwarnings(
    "ignore:counterfactual_dcg\\(qid=...\\) without impression=:FutureWarning"
)


def test_fields_and_frame():
    result = counterfactual_dcg(
        [1, 0, 0, 1],
        [2, 1, 1, 2],
        qid=["x", "x", "y", "y"],
        logged_rank=[1, 2, 1, 2],
        propensity=[1.0, 0.5],
    )
    assert CounterfactualResult._fields == (
        "estimate",
        "confidence_interval",
        "per_query",
        "effective_sample_size",
        "max_weight",
        "estimator",
        "confidence_level",
        "clipped_fraction",
    )
    # hand computation: query x keeps its click at rank 1 (1); query y moves its click
    # from rank 2 (weight 2) to rank 1
    np.testing.assert_allclose(result.per_query.score, [1.0, 2.0])
    assert result.estimate == 1.5
    pd = pytest.importorskip("pandas")
    frame = result.per_query.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame["qid"]) == ["x", "y"]
