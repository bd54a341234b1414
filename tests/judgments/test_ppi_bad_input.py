"""Bad input to prediction_powered_mean and prediction_powered_difference: a clear
error naming the argument (the convention of tests/_bad_input.py)."""

import numpy as np
import pytest
from _bad_input import add_case, check_bad_input

from sklearn_ndcg import QueryScores, prediction_powered_difference, prediction_powered_mean

MODEL = {f"q{i}": 0.1 * i for i in range(1, 9)}
HUMAN = {"q1": 0.2, "q3": 0.25, "q5": 0.4}
MODEL_B = {q: v / 2 for q, v in MODEL.items()}
HUMAN_B = {q: v / 2 for q, v in HUMAN.items()}


def _scores(values, weight=None):
    qid = np.array(list(values))
    weight = np.ones(qid.shape[0]) if weight is None else np.asarray(weight, dtype=float)
    return QueryScores(qid, np.array(list(values.values()), dtype=float), weight)


def _mean(**kwargs):
    arguments = {"model_scores": MODEL, "human_scores": HUMAN, **kwargs}
    return lambda: prediction_powered_mean(**arguments)


def _difference(**kwargs):
    arguments = {
        "model_a": MODEL,
        "model_b": MODEL_B,
        "human_a": HUMAN,
        "human_b": HUMAN_B,
        **kwargs,
    }
    return lambda: prediction_powered_difference(**arguments)


CASES = []
M, D = "prediction_powered_mean", "prediction_powered_difference"
for name, call in [(M, _mean), (D, _difference)]:
    first, second = ("model_scores", "human_scores") if name == M else ("model_a", "human_a")
    add_case(
        CASES,
        name,
        "subset",
        "human-query-not-in-model",
        call(
            **{second: {**HUMAN, "q99": 0.5}}
            if name == M
            else dict(human_a={**HUMAN, "q99": 0.5}, human_b={**HUMAN_B, "q99": 0.5})
        ),
        ValueError,
        rf"{second} holds queries that are not in {first}: \['q99'\]",
    )
    add_case(
        CASES,
        name,
        "subset",
        "id-of-another-type",
        call(
            **{second: {1: 0.2, 3: 0.25}}
            if name == M
            else dict(human_a={1: 0.2, 3: 0.25}, human_b={1: 0.1, 3: 0.1})
        ),
        ValueError,
        rf"{second} holds queries that are not in {first}: \[1, 3\]",
    )
    one = {"q1": 0.2}
    add_case(
        CASES,
        name,
        "size",
        "one-human-query",
        call(**{second: one} if name == M else dict(human_a=one, human_b={"q1": 0.1})),
        ValueError,
        rf"{second} holds 1 human-labelled queries; .* at least 2",
    )
    add_case(
        CASES,
        name,
        "size",
        "no-human-query",
        call(**{second: {}} if name == M else dict(human_a={}, human_b={})),
        ValueError,
        rf"{second} holds 0 human-labelled queries",
    )
    add_case(
        CASES,
        name,
        "size",
        "every-query-human-labelled",
        call(**{second: MODEL} if name == M else dict(human_a=MODEL, human_b=MODEL_B)),
        ValueError,
        rf"every query of {first} is in {second}",
    )
    add_case(
        CASES,
        name,
        "value",
        "nan-model-value",
        call(**{first: {**MODEL, "q2": np.nan}}),
        ValueError,
        rf"{first} holds NaN or infinite values for the queries \['q2'\]",
    )
    add_case(
        CASES,
        name,
        "value",
        "nan-human-value",
        call(**{second: {**HUMAN, "q3": np.nan}}),
        ValueError,
        rf"{second} holds NaN or infinite values for the queries \['q3'\]",
    )
    add_case(
        CASES,
        name,
        "value",
        "infinite-model-value",
        call(**{first: {**MODEL, "q4": np.inf}}),
        ValueError,
        rf"{first} holds NaN or infinite values",
    )
    add_case(
        CASES,
        name,
        "value",
        "text-value",
        call(**{first: {**MODEL, "q4": "high"}}),
        TypeError,
        rf"{first} must map each query id to one number",
    )
    add_case(
        CASES,
        name,
        "value",
        "sequence-value",
        call(**{first: {q: [v, v] for q, v in MODEL.items()}}),
        ValueError,
        rf"{first} must map each query id to one number",
    )
    add_case(
        CASES,
        name,
        "type",
        "array",
        call(**{first: np.array(list(MODEL.values()))}),
        TypeError,
        rf"{first} must be a QueryScores \(from query_scores\), a pair \(qid, values\) of "
        "arrays or a mapping from query id to value; got ndarray",
    )
    # the pair (qid, values) of arrays
    ids, values = list(MODEL), list(MODEL.values())
    add_case(
        CASES,
        name,
        "pair",
        "pair-human-query-not-in-model",
        call(
            **{second: (["q1", "q3", "q99"], [0.2, 0.25, 0.5])}
            if name == M
            else dict(human_a=(["q1", "q99"], [0.2, 0.5]), human_b=(["q1", "q99"], [0.1, 0.2]))
        ),
        ValueError,
        rf"{second} holds queries that are not in {first}: \['q99'\]",
    )
    add_case(
        CASES,
        name,
        "pair",
        "pair-one-human-query",
        call(
            **{second: (["q1"], [0.2])}
            if name == M
            else dict(human_a=(["q1"], [0.2]), human_b=(["q1"], [0.1]))
        ),
        ValueError,
        rf"{second} holds 1 human-labelled queries; .* at least 2",
    )
    add_case(
        CASES,
        name,
        "pair",
        "pair-lengths-differ",
        call(**{first: (ids, values[:-1])}),
        ValueError,
        rf"{first} is a pair \(qid, values\) of shapes \(8,\) and \(7,\); give two 1-D",
    )
    add_case(
        CASES,
        name,
        "pair",
        "pair-2d-values",
        call(**{first: (ids, np.ones((8, 2)))}),
        ValueError,
        rf"{first} is a pair \(qid, values\) of shapes \(8,\) and \(8, 2\)",
    )
    add_case(
        CASES,
        name,
        "pair",
        "pair-text-values",
        call(**{first: (ids, ["high"] * 8)}),
        TypeError,
        rf"{first} is a pair \(qid, values\) whose values are not numbers",
    )
    add_case(
        CASES,
        name,
        "pair",
        "pair-nan-value",
        call(**{first: (ids, [np.nan, *values[1:]])}),
        ValueError,
        rf"{first} holds NaN or infinite values for the queries \['q1'\]",
    )
    add_case(
        CASES,
        name,
        "pair",
        "pair-duplicate-ids",
        call(**{first: (["q1", *ids[:-1]], values)}),
        ValueError,
        rf"{first} holds some query ids more than once",
    )
    add_case(
        CASES,
        name,
        "pair",
        "tuple-of-three-arrays",
        call(**{first: (ids, values, values)}),
        TypeError,
        rf"{first} must be a QueryScores .* got tuple of length 3",
    )
    add_case(
        CASES,
        name,
        "weights",
        "unequal-weights",
        call(**{first: _scores(MODEL, weight=np.arange(1, 9))}),
        ValueError,
        rf"{first} weighs its queries unequally",
    )
    bad = QueryScores(np.array(["q1", "q1", "q2"]), np.zeros(3), np.ones(3))
    add_case(
        CASES,
        name,
        "ids",
        "duplicate-query-ids",
        call(**{first: bad}),
        ValueError,
        rf"{first} holds some query ids more than once",
    )
    ragged = QueryScores(np.array(["q1", "q2"]), np.zeros(3), np.ones(2))
    add_case(
        CASES,
        name,
        "shape",
        "ragged-query-scores",
        call(**{first: ragged}),
        ValueError,
        rf"{first} is a QueryScores whose qid, score and weight have",
    )
    add_case(
        CASES,
        name,
        "option",
        "confidence-level-1",
        call(confidence_level=1.0),
        ValueError,
        r"'confidence_level' parameter .* must be a float in the range \(0.0, 1.0\)",
    )
    add_case(
        CASES,
        name,
        "option",
        "power-tuning-text",
        call(power_tuning="yes"),
        ValueError,
        r"'power_tuning' parameter .* must be an instance of 'bool'",
    )

add_case(
    CASES,
    D,
    "pairs",
    "model-b-other-queries",
    _difference(model_b={**MODEL_B, "q77": 0.1}),
    ValueError,
    r"model_a and model_b must hold the same queries .*\['q77'\]",
)
add_case(
    CASES,
    D,
    "pairs",
    "human-b-other-queries",
    _difference(human_b={"q1": 0.1, "q3": 0.1, "q7": 0.2}),
    ValueError,
    r"human_a and human_b must hold the same queries .*\['q5', 'q7'\]",
)
add_case(
    CASES,
    D,
    "option",
    "margin-zero",
    _difference(margin=0.0),
    ValueError,
    r"'margin' parameter .* must be a float in the range \(0.0, inf\) or None",
)
add_case(
    CASES,
    D,
    "option",
    "margin-negative",
    _difference(margin=-0.01),
    ValueError,
    r"'margin' parameter",
)


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
