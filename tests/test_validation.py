"""Bad input: each case raises ValueError or TypeError with a message naming the argument."""

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from sklearn_ndcg import dcg_score, ndcg_score, query_scores

Y_TRUE_2D = [[3, 2, 1, 0, 0], [0, 1, 2, 0, 1]]
Y_SCORE_2D = [[0.5, 0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4, 0.5]]
Y_TRUE = [3, 2, 0, 1, 0]
Y_SCORE = [0.9, 0.1, 0.5, 0.4, 0.3]
QID = [7, 7, 7, 8, 8]


def _raising_gain(rel):
    raise RuntimeError("boom")


def _raising_discount(rank):
    raise RuntimeError("boom")


# (id, y_true, y_score, keywords, exception, match)
BAD_INPUT = [
    # shapes
    (
        "shapes_differ_2d",
        [[1, 0, 2]],
        [[1, 0]],
        {},
        ValueError,
        r"y_true has shape \(1, 3\) but y_score has shape \(1, 2\)",
    ),
    (
        "shapes_differ_1d",
        [1, 0, 2],
        [1, 0],
        {},
        ValueError,
        r"y_true has shape \(3,\) but y_score has shape \(2,\)",
    ),
    ("1d_vs_2d", [1, 0, 2], [[1, 0, 2]], {}, ValueError, r"y_true has shape .* y_score"),
    (
        "ragged_y_true",
        [[1, 0, 2], [1, 0]],
        [[1, 0, 2], [1, 0]],
        {},
        ValueError,
        "y_true could not be read as an array; is it ragged",
    ),
    (
        "ragged_y_score",
        [[1, 0, 2], [1, 0, 2]],
        [[1, 0, 2], [1, 0]],
        {},
        ValueError,
        "y_score could not be read as an array; is it ragged",
    ),
    (
        "3d_y_true",
        np.zeros((2, 2, 2)),
        np.zeros((2, 2, 2)),
        {},
        ValueError,
        r"y_true must be 1-D \(long format\) or 2-D",
    ),
    ("scalar_y_true", 1.0, 1.0, {}, ValueError, "y_true"),
    ("empty_1d", [], [], {}, ValueError, "y_true is empty"),
    ("empty_2d_rows", np.zeros((0, 3)), np.zeros((0, 3)), {}, ValueError, "y_true is empty"),
    ("empty_2d_columns", np.zeros((2, 0)), np.zeros((2, 0)), {}, ValueError, "y_true is empty"),
    # qid
    (
        "qid_too_short",
        Y_TRUE,
        Y_SCORE,
        {"qid": [1, 1, 2]},
        ValueError,
        "qid has 3 entries but y_true has 5",
    ),
    (
        "qid_too_long",
        Y_TRUE,
        Y_SCORE,
        {"qid": [1] * 6},
        ValueError,
        "qid has 6 entries but y_true has 5",
    ),
    (
        "qid_with_2d",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"qid": [1, 2]},
        ValueError,
        "qid is only used with 1-D",
    ),
    ("qid_2d", Y_TRUE, Y_SCORE, {"qid": np.ones((1, 5))}, ValueError, "qid must be 1-D"),
    (
        "qid_tuples",
        Y_TRUE,
        Y_SCORE,
        {"qid": [(1, "a")] * 5},
        TypeError,
        "qid holds tuples or lists",
    ),
    (
        "qid_nan",
        Y_TRUE,
        Y_SCORE,
        {"qid": [1.0, 1.0, np.nan, 2.0, 2.0]},
        ValueError,
        "qid contains missing values",
    ),
    (
        "qid_inf",
        Y_TRUE,
        Y_SCORE,
        {"qid": [1.0, 1.0, np.inf, 2.0, 2.0]},
        ValueError,
        "qid contains infinity",
    ),
    (
        "qid_none",
        Y_TRUE,
        Y_SCORE,
        {"qid": ["a", "a", None, "b", "b"]},
        ValueError,
        "qid contains missing values",
    ),
    (
        "qid_nan_object",
        Y_TRUE,
        Y_SCORE,
        {"qid": np.array(["a", "a", np.nan, "b", "b"], dtype=object)},
        ValueError,
        "qid contains missing values",
    ),
    (
        "qid_mixed_object",
        Y_TRUE,
        Y_SCORE,
        {"qid": np.array([1, 1, "a", "a", 2], dtype=object)},
        TypeError,
        "qid mixes values that cannot be compared",
    ),
    (
        "qid_mixed_list",
        Y_TRUE,
        Y_SCORE,
        {"qid": [1, 1, "1", "1", 2]},
        TypeError,
        "qid mixes values",
    ),
    (
        "qid_complex",
        Y_TRUE,
        Y_SCORE,
        {"qid": np.array([1, 1, 2, 2, 2]) * 1j},
        TypeError,
        "qid holds complex numbers",
    ),
    (
        "qid_sparse",
        Y_TRUE,
        Y_SCORE,
        {"qid": sp.csr_matrix([[1, 1, 1, 2, 2]])},
        (ValueError, TypeError),
        "qid",
    ),
    # non-finite, non-numeric values
    ("y_true_nan", [3, np.nan, 0], [1, 2, 3], {}, ValueError, "y_true contains NaN"),
    (
        "y_true_inf",
        [[3, np.inf, 0]],
        [[1, 2, 3]],
        {},
        ValueError,
        "y_true contains NaN or infinity",
    ),
    ("y_true_none", [3, None, 0], [1, 2, 3], {}, ValueError, "y_true contains missing values"),
    ("y_score_nan", [3, 1, 0], [1, np.nan, 3], {}, ValueError, "y_score contains NaN"),
    (
        "y_score_inf",
        [[3, 1, 0]],
        [[1, -np.inf, 3]],
        {},
        ValueError,
        "y_score contains NaN or infinity",
    ),
    (
        "y_true_strings",
        ["a", "b", "c"],
        [1, 2, 3],
        {},
        TypeError,
        "y_true holds <U1 values; numbers were expected",
    ),
    ("y_score_strings", [1, 2, 3], ["1", "2", "3"], {}, TypeError, "y_score holds <U1 values"),
    (
        "y_true_objects",
        np.array([{}, 1, 2], dtype=object),
        [1, 2, 3],
        {},
        TypeError,
        "y_true holds values that are not numbers",
    ),
    ("y_true_complex", [1 + 1j, 2, 3], [1, 2, 3], {}, TypeError, "y_true holds complex numbers"),
    ("y_score_complex", [1, 2, 3], [1, 2j, 3], {}, TypeError, "y_score holds complex numbers"),
    ("y_true_sparse", sp.csr_matrix(Y_TRUE_2D), Y_SCORE_2D, {}, (ValueError, TypeError), "y_true"),
    (
        "y_score_sparse",
        Y_TRUE_2D,
        sp.csr_matrix(Y_SCORE_2D),
        {},
        (ValueError, TypeError),
        "y_score",
    ),
    (
        "y_true_frame_of_strings",
        pd.DataFrame([["a", "b"]]),
        [[1, 2]],
        {},
        TypeError,
        "y_true holds values that are not numbers",
    ),
    # sample_weight
    (
        "weight_nan",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"sample_weight": [1.0, np.nan]},
        ValueError,
        "sample_weight contains NaN",
    ),
    (
        "weight_inf",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"sample_weight": [np.inf, 1.0]},
        ValueError,
        "sample_weight contains NaN or infinity",
    ),
    (
        "weight_negative",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"sample_weight": [1.0, -0.5]},
        ValueError,
        "sample_weight has negative values",
    ),
    (
        "weight_wrong_length_2d",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"sample_weight": [1.0, 2.0, 3.0]},
        ValueError,
        r"sample_weight has shape \(3,\) but 2 weights were expected, one per query",
    ),
    (
        "weight_per_query_in_long_format",
        Y_TRUE,
        Y_SCORE,
        {"qid": QID, "sample_weight": [1.0, 2.0]},
        ValueError,
        r"sample_weight has shape \(2,\) but 5 weights were expected, one per document",
    ),
    (
        "weight_2d",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"sample_weight": [[1.0, 2.0]]},
        ValueError,
        "sample_weight has shape",
    ),
    (
        "weight_varies_within_query",
        Y_TRUE,
        Y_SCORE,
        {"qid": QID, "sample_weight": [1.0, 1.0, 2.0, 3.0, 3.0]},
        ValueError,
        r"sample_weight must be the same for every document of a query.*\[7\]",
    ),
    (
        "weight_all_zero_2d",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"sample_weight": [0.0, 0.0]},
        ValueError,
        "sample_weight sums to zero",
    ),
    (
        "weight_all_zero_long",
        Y_TRUE,
        Y_SCORE,
        {"qid": QID, "sample_weight": [0.0] * 5},
        ValueError,
        "sample_weight sums to zero",
    ),
    (
        "weight_strings",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"sample_weight": ["a", "b"]},
        TypeError,
        "sample_weight holds",
    ),
    # k
    ("k_zero", Y_TRUE_2D, Y_SCORE_2D, {"k": 0}, ValueError, "'k' parameter"),
    ("k_negative", Y_TRUE_2D, Y_SCORE_2D, {"k": -2}, ValueError, "'k' parameter"),
    ("k_float", Y_TRUE_2D, Y_SCORE_2D, {"k": 2.0}, (ValueError, TypeError), "'k' parameter"),
    ("k_true", Y_TRUE_2D, Y_SCORE_2D, {"k": True}, TypeError, "'k' parameter"),
    ("k_false", Y_TRUE_2D, Y_SCORE_2D, {"k": False}, TypeError, "k"),
    ("k_numpy_bool", Y_TRUE_2D, Y_SCORE_2D, {"k": np.True_}, TypeError, "k"),
    ("k_string", Y_TRUE_2D, Y_SCORE_2D, {"k": "10"}, (ValueError, TypeError), "'k' parameter"),
    # option names
    ("gain_unknown", Y_TRUE_2D, Y_SCORE_2D, {"gain": "quadratic"}, ValueError, "'gain' parameter"),
    (
        "gain_number",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"gain": 2},
        (ValueError, TypeError),
        "'gain' parameter",
    ),
    (
        "discount_unknown",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"discount": "log10"},
        ValueError,
        "'discount' parameter",
    ),
    (
        "discount_number",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"discount": 2},
        (ValueError, TypeError),
        "'discount' parameter",
    ),
    ("ties_unknown", Y_TRUE_2D, Y_SCORE_2D, {"ties": "random"}, ValueError, "'ties' parameter"),
    (
        "ties_none",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"ties": None},
        (ValueError, TypeError),
        "'ties' parameter",
    ),
    (
        "ignore_ties_string",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"ignore_ties": "yes"},
        (ValueError, TypeError),
        "'ignore_ties' parameter",
    ),
    (
        "zero_division_other",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"zero_division": 0.5},
        ValueError,
        "'zero_division' parameter",
    ),
    (
        "zero_division_string",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"zero_division": "warn"},
        (ValueError, TypeError),
        "'zero_division' parameter",
    ),
    ("unknown_keyword", Y_TRUE_2D, Y_SCORE_2D, {"cutoff": 3}, TypeError, "cutoff"),
    ("log_base_in_ndcg", Y_TRUE_2D, Y_SCORE_2D, {"log_base": 10}, TypeError, "log_base"),
    # ties and ignore_ties together
    (
        "ties_and_ignore_ties_true",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"ties": "first", "ignore_ties": True},
        ValueError,
        "give either ties .* or scikit-learn's ignore_ties",
    ),
    (
        "ties_average_and_ignore_ties_false",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"ties": "average", "ignore_ties": False},
        ValueError,
        r"give either ties \(got 'average'\) or scikit-learn's ignore_ties \(got False\)",
    ),
    (
        "ties_optimistic_and_ignore_ties_true",
        Y_TRUE_2D,
        Y_SCORE_2D,
        {"ties": "optimistic", "ignore_ties": True},
        ValueError,
        "ignore_ties",
    ),
    # negative labels with a built-in gain
    (
        "negative_label_linear",
        [[3, -1, 0]],
        [[1, 2, 3]],
        {},
        ValueError,
        r"y_true has negative relevance labels \(min -1\)",
    ),
    (
        "negative_label_exponential",
        [3, -2, 0],
        [1, 2, 3],
        {"gain": "exponential"},
        ValueError,
        'y_true has negative relevance labels .* gain="exponential"',
    ),
    # exponential overflow
    (
        "exponential_overflow",
        [[1024, 0, 1]],
        [[1, 2, 3]],
        {"gain": "exponential"},
        ValueError,
        r'gain="exponential" overflows float64 for relevance label 1024',
    ),
    # each gain 2**1023 - 1 is finite, their discounted sum is not
    (
        "dcg_overflow",
        [[1023, 1023, 1023]],
        [[1, 2, 3]],
        {"gain": "exponential"},
        ValueError,
        r"DCG of some queries overflows float64",
    ),
    # mappings
    (
        "mapping_missing_labels",
        [3, 2, 0, 1, 5],
        Y_SCORE,
        {"gain": {0: 0.0, 1: 1.0, 2: 3.0}},
        ValueError,
        r"gain has no entry for the relevance labels \[3, 5\]",
    ),
    ("mapping_empty", Y_TRUE, Y_SCORE, {"gain": {}}, ValueError, "gain is an empty mapping"),
    (
        "mapping_string_keys",
        Y_TRUE,
        Y_SCORE,
        {"gain": {"a": 1.0}},
        TypeError,
        "gain as a mapping must map numeric",
    ),
    (
        "mapping_string_values",
        Y_TRUE,
        Y_SCORE,
        {"gain": {0: "zero"}},
        TypeError,
        "gain as a mapping must map numeric",
    ),
    (
        "mapping_nan_gain",
        Y_TRUE,
        Y_SCORE,
        {"gain": {0: 0.0, 1: np.nan, 2: 1.0, 3: 2.0}},
        ValueError,
        "gain as a mapping has NaN or infinite gains",
    ),
    (
        "mapping_inf_gain",
        Y_TRUE,
        Y_SCORE,
        {"gain": {0: 0.0, 1: 1.0, 2: 1.0, 3: np.inf}},
        ValueError,
        "gain as a mapping has NaN or infinite gains",
    ),
    # sequences (LightGBM's label_gain)
    (
        "sequence_non_integer_labels",
        [0.5, 1, 2],
        [1, 2, 3],
        {"gain": [0, 1, 3]},
        ValueError,
        r"gain as a sequence .* must hold non-negative integers; got \[0.5\]",
    ),
    (
        "sequence_negative_labels",
        [-1, 1, 2],
        [1, 2, 3],
        {"gain": [0, 1, 3]},
        ValueError,
        r"must hold non-negative integers; got \[-1\]",
    ),
    (
        "sequence_label_too_large",
        [0, 1, 5],
        [1, 2, 3],
        {"gain": [0, 1, 3]},
        ValueError,
        r"gain as a sequence has 3 entries \(labels 0..2\) but y_true has the label 5",
    ),
    (
        "sequence_empty",
        Y_TRUE,
        Y_SCORE,
        {"gain": []},
        ValueError,
        "gain as a sequence must be a non-empty 1-D",
    ),
    (
        "sequence_2d",
        Y_TRUE,
        Y_SCORE,
        {"gain": [[0, 1], [2, 3]]},
        ValueError,
        "gain as a sequence must be a non-empty 1-D",
    ),
    (
        "sequence_nan",
        Y_TRUE,
        Y_SCORE,
        {"gain": [0, 1, np.nan, 3]},
        ValueError,
        "gain as a sequence has NaN or infinite gains",
    ),
    (
        "sequence_strings",
        Y_TRUE,
        Y_SCORE,
        {"gain": ["a", "b", "c", "d"]},
        TypeError,
        "gain must be",
    ),
    # gain callables
    (
        "gain_callable_wrong_shape",
        Y_TRUE,
        Y_SCORE,
        {"gain": lambda r: r[:2]},
        ValueError,
        r"gain callable must return one gain per label, an array of shape \(5,\)",
    ),
    (
        "gain_callable_scalar",
        Y_TRUE,
        Y_SCORE,
        {"gain": lambda r: 1.0},
        ValueError,
        r"gain callable must return one gain per label.*got shape \(\)",
    ),
    (
        "gain_callable_nan",
        Y_TRUE,
        Y_SCORE,
        {"gain": lambda r: np.where(r == 2, np.nan, r)},
        ValueError,
        "gain callable returned NaN or infinite gains",
    ),
    (
        "gain_callable_inf",
        Y_TRUE,
        Y_SCORE,
        {"gain": lambda r: np.full(r.shape, np.inf)},
        ValueError,
        "gain callable returned NaN or infinite gains",
    ),
    (
        "gain_callable_strings",
        Y_TRUE,
        Y_SCORE,
        {"gain": lambda r: "abc"},
        TypeError,
        "gain callable must return numbers",
    ),
    (
        "gain_callable_raises",
        Y_TRUE,
        Y_SCORE,
        {"gain": _raising_gain},
        ValueError,
        "gain callable .* raised RuntimeError: boom",
    ),
    # discount callables
    (
        "discount_callable_wrong_shape",
        Y_TRUE,
        Y_SCORE,
        {"discount": lambda r: r[:1] * 1.0},
        ValueError,
        "discount callable must return one weight per rank",
    ),
    (
        "discount_callable_negative",
        Y_TRUE,
        Y_SCORE,
        {"discount": lambda r: 2.0 - r},
        ValueError,
        "discount callable must return finite, non-negative weights; got -1",
    ),
    (
        "discount_callable_nan",
        Y_TRUE,
        Y_SCORE,
        {"discount": lambda r: np.where(r == 2, np.nan, 1.0)},
        ValueError,
        "discount callable must return finite, non-negative weights; got nan for rank 2",
    ),
    (
        "discount_callable_inf",
        Y_TRUE,
        Y_SCORE,
        {"discount": lambda r: np.where(r == 3, np.inf, 1.0)},
        ValueError,
        "discount callable must return finite, non-negative weights; got inf for rank 3",
    ),
    (
        "discount_callable_strings",
        Y_TRUE,
        Y_SCORE,
        {"discount": lambda r: ["x"] * len(r)},
        TypeError,
        "discount callable must return numbers",
    ),
    (
        "discount_callable_raises",
        Y_TRUE,
        Y_SCORE,
        {"discount": _raising_discount},
        ValueError,
        "discount callable .* raised RuntimeError: boom",
    ),
]


@pytest.mark.parametrize(
    "y_true, y_score, keywords, exception, match",
    [case[1:] for case in BAD_INPUT],
    ids=[case[0] for case in BAD_INPUT],
)
def test_ndcg_score_bad_input(y_true, y_score, keywords, exception, match):
    with pytest.raises(exception, match=match):
        ndcg_score(y_true, y_score, **keywords)


# dcg_score shares the checks; ndcg-only keywords are left out
DCG_CASES = [case for case in BAD_INPUT if not {"zero_division", "log_base"} & set(case[3])]


@pytest.mark.parametrize(
    "y_true, y_score, keywords, exception, match",
    [case[1:] for case in DCG_CASES],
    ids=[case[0] for case in DCG_CASES],
)
def test_dcg_score_bad_input(y_true, y_score, keywords, exception, match):
    with pytest.raises(exception, match=match):
        dcg_score(y_true, y_score, **keywords)


QUERY_SCORES_CASES = [
    case
    for case in BAD_INPUT
    if not {"ignore_ties", "log_base", "cutoff"} & set(case[3])
    and not case[0].startswith("weight_all_zero")  # per-query values need no mean
]


@pytest.mark.parametrize(
    "y_true, y_score, keywords, exception, match",
    [case[1:] for case in QUERY_SCORES_CASES],
    ids=[case[0] for case in QUERY_SCORES_CASES],
)
def test_query_scores_bad_input(y_true, y_score, keywords, exception, match):
    with pytest.raises(exception, match=match):
        query_scores(y_true, y_score, **keywords)


# (id, keywords, exception, match): keywords only dcg_score / query_scores take
DCG_ONLY = [
    ("log_base_one", {"log_base": 1}, ValueError, "'log_base' parameter"),
    ("log_base_below_one", {"log_base": 0.5}, ValueError, "'log_base' parameter"),
    ("log_base_zero", {"log_base": 0}, ValueError, "'log_base' parameter"),
    ("log_base_negative", {"log_base": -2.0}, ValueError, "'log_base' parameter"),
    ("log_base_nan", {"log_base": np.nan}, ValueError, "'log_base' parameter"),
    ("log_base_inf", {"log_base": np.inf}, ValueError, "'log_base' parameter"),
    ("log_base_string", {"log_base": "e"}, (ValueError, TypeError), "'log_base' parameter"),
    (
        "log_base_with_reciprocal",
        {"log_base": 10, "discount": "reciprocal"},
        ValueError,
        r"log_base=10 only applies to discount='log2'; got discount='reciprocal'",
    ),
    (
        "log_base_with_none",
        {"log_base": 10, "discount": "none"},
        ValueError,
        "log_base=10 only applies to discount='log2'",
    ),
    (
        "log_base_with_callable",
        {"log_base": 10, "discount": lambda r: 1.0 / r},
        ValueError,
        "log_base=10 only applies to discount='log2'",
    ),
    (
        "ties_and_ignore_ties",
        {"ties": "pessimistic", "ignore_ties": False},
        ValueError,
        "give either ties",
    ),
]


@pytest.mark.parametrize(
    "keywords, exception, match",
    [case[1:] for case in DCG_ONLY],
    ids=[case[0] for case in DCG_ONLY],
)
def test_dcg_score_bad_keywords(keywords, exception, match):
    with pytest.raises(exception, match=match):
        dcg_score(Y_TRUE_2D, Y_SCORE_2D, **keywords)


@pytest.mark.parametrize(
    "keywords, match",
    [
        ({"metric": "map"}, "'metric' parameter"),
        (
            {"metric": "dcg", "log_base": 10, "discount": "reciprocal"},
            "log_base=10 only applies to discount='log2'",
        ),
        (
            {"metric": "ndcg", "log_base": 10, "discount": "reciprocal"},
            "log_base=10 only applies to discount='log2'",
        ),
        ({"log_base": 1.0}, "'log_base' parameter"),
        ({"ignore_ties": True}, "ignore_ties"),
    ],
)
def test_query_scores_bad_keywords(keywords, match):
    with pytest.raises((ValueError, TypeError), match=match):
        query_scores(Y_TRUE_2D, Y_SCORE_2D, **keywords)


def test_zero_weights_with_undefined_queries_still_an_error():
    """All-zero weights are an error, whatever zero_division does."""
    with pytest.raises(ValueError, match="sample_weight sums to zero"):
        ndcg_score(
            [1, 0, 0, 0],
            [1, 2, 3, 4],
            qid=[1, 1, 2, 2],
            sample_weight=[0, 0, 0, 0],
            zero_division=np.nan,
        )


def test_explicit_ties_without_ignore_ties_is_fine():
    # the default of ties is a sentinel: only the pair ties + ignore_ties is an error
    for ties in ("average", "first", "optimistic", "pessimistic"):
        ndcg_score(Y_TRUE_2D, Y_SCORE_2D, ties=ties)
        dcg_score(Y_TRUE_2D, Y_SCORE_2D, ties=ties, ignore_ties=None)
    ndcg_score(Y_TRUE_2D, Y_SCORE_2D, ignore_ties=True)
    ndcg_score(Y_TRUE_2D, Y_SCORE_2D, ignore_ties=False)


def test_negative_labels_accepted_by_mapping_and_callable():
    """Only the built-in gains reject negative labels."""
    y_true, y_score = [1, 0, -1], [3, 2, 1]
    ndcg_score(y_true, y_score, gain={1: 1.0, 0: 0.0, -1: -1.0})
    ndcg_score(y_true, y_score, gain=lambda r: r)
    dcg_score(y_true, y_score, gain=lambda r: r + 1)


def test_errors_leave_inputs_unchanged():
    y_true = np.array([3.0, 2.0, 0.0, 1.0, 0.0])
    weight = np.array([1.0, 1.0, 2.0, 3.0, 3.0])
    with pytest.raises(ValueError, match="sample_weight must be the same"):
        ndcg_score(y_true, Y_SCORE, qid=QID, sample_weight=weight)
    assert y_true.tolist() == [3.0, 2.0, 0.0, 1.0, 0.0]
    assert weight.tolist() == [1.0, 1.0, 2.0, 3.0, 3.0]
