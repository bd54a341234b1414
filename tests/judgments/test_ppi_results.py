"""The result types of the prediction-powered estimators: fields and printing."""

import numpy as np

from sklearn_ndcg import (
    PredictionPoweredComparison,
    PredictionPoweredResult,
    prediction_powered_difference,
    prediction_powered_mean,
)

MODEL = {"q1": 0.9, "q2": 0.8, "q3": 0.7, "q4": 0.95, "q5": 0.6, "q6": 0.85, "q7": 0.75}
HUMAN = {"q1": 0.8, "q3": 0.55, "q5": 0.5}


def test_mean_result_fields_and_text():
    result = prediction_powered_mean(MODEL, HUMAN, power_tuning=False)
    assert isinstance(result, PredictionPoweredResult)
    assert result._fields == (
        "estimate",
        "confidence_interval",
        "standard_error",
        "lambda_",
        "n_labelled",
        "n_unlabelled",
        "confidence_level",
    )
    assert (result.lambda_, result.n_labelled, result.n_unlabelled) == (1.0, 3, 4)
    # hand computation: mean(0.8, 0.95, 0.85, 0.75) - mean(0.1, 0.15, 0.1)
    assert str(result).startswith(f"{0.8375 - 0.35 / 3:.4f} (95% interval ")
    assert "3 human-labelled and 4 model-labelled queries, lambda 1.000" in str(result)


def test_comparison_result_fields_and_text():
    result = prediction_powered_difference(
        MODEL, MODEL, HUMAN, {q: v - 0.1 for q, v in HUMAN.items()}, power_tuning=False
    )
    assert isinstance(result, PredictionPoweredComparison)
    assert result.margin is None and result.verdict is None
    assert result.equivalence_interval is None
    # hand computation: the model sees no difference; the people see 0.1 on every query
    assert np.isclose(result.estimate, 0.1)
    assert str(result).startswith("a - b = +0.1000 (95% interval ")
    assert not str(result).endswith(": None")
