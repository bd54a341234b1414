"""Bad input to ndcg_score, dcg_score and query_scores: one table, one test.

The rows of ``METRIC_CASES`` run against ``ndcg_score``, ``dcg_score`` and
``query_scores`` alike, except where a keyword belongs to one of them only.
A row may be marked ``xfail(strict=True)`` (``xfail=`` reason) for a known
library shortcoming; none is at present.

Each row expects a ``ValueError`` or ``TypeError`` whose message names the
argument; the convention and the shared data are in ``tests/_bad_input.py``.
"""

import warnings
from functools import partial

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp
from _bad_input import (
    LONG,
    QID,
    S_2D,
    Y_2D,
    Y_SCORE,
    Y_TRUE,
    _raise,
    add_case,
    check_bad_input,
)

from sklearn_ndcg import dcg_score, ndcg_score, query_scores

CASES = []
_add = partial(add_case, CASES)

# five documents: two queries (7 and 8) in long format, or two rows of five
Y5 = [3, 2, 0, 1, 0]
S5 = [0.9, 0.1, 0.5, 0.4, 0.3]
QID5 = [7, 7, 7, 8, 8]
Y5_2D = [[3, 2, 1, 0, 0], [0, 1, 2, 0, 1]]
S5_2D = [[0.5, 0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4, 0.5]]


def _raising_gain(rel):
    raise RuntimeError("boom")


def _raising_discount(rank):
    raise RuntimeError("boom")


# --------------------------------------------------------------------------
# The metric functions: each (case class, id, args, keywords, exception, match)
# runs against ndcg_score, dcg_score and query_scores.
# --------------------------------------------------------------------------

METRIC_CASES = [
    # per-document weights (issue 17)
    (
        "document_weight",
        "wrong_shape",
        (Y_TRUE, Y_SCORE),
        {**LONG, "document_weight": [1.0, 2.0]},
        ValueError,
        r"document_weight has shape \(2,\) but y_true has shape \(6,\)",
    ),
    (
        "document_weight",
        "wrong_shape_2d",
        (Y_2D, S_2D),
        {"document_weight": [1.0, 1.0, 1.0, 1.0]},
        ValueError,
        r"document_weight has shape \(4,\) but y_true has shape \(2, 4\)",
    ),
    (
        "document_weight",
        "negative",
        (Y_TRUE, Y_SCORE),
        {**LONG, "document_weight": [1, 1, -1, 1, 1, 1]},
        ValueError,
        # the place: row 2 (0-based) of the input, whose query is QID[2] = 7
        r"document_weight has negative values at 1 position\(s\) of the flattened input "
        r"\(e.g. 2\); the first is in row 2, of query 7;",
    ),
    (
        "document_weight",
        "nan",
        (Y_TRUE, Y_SCORE),
        {**LONG, "document_weight": [1, 1, np.nan, 1, 1, 1]},
        ValueError,
        "document_weight contains missing or infinite values",
    ),
    (
        "document_weight",
        "strings",
        (Y_TRUE, Y_SCORE),
        {**LONG, "document_weight": ["a"] * 6},
        TypeError,
        "document_weight holds <U1 values",
    ),
    # min-max normalisation (issue 17): an option of NDCG only
    ("normalize", "unknown", (Y_2D, S_2D), {"normalize": "max"}, ValueError, "'normalize'"),
    ("normalize", "none", (Y_2D, S_2D), {"normalize": None}, ValueError, "'normalize'"),
    # wrong shapes and lengths
    (
        "shape",
        "y_score_shorter",
        (Y_TRUE, Y_SCORE[:4]),
        LONG,
        ValueError,
        r"y_true has shape \(6,\) but y_score has shape \(4,\)",
    ),
    (
        "shape",
        "transposed_2d",
        (Y_2D, np.transpose(S_2D)),
        {},
        ValueError,
        r"y_true has shape \(2, 4\) but y_score has shape \(4, 2\)",
    ),
    (
        "shape",
        "shapes_differ_2d",
        ([[1, 0, 2]], [[1, 0]]),
        {},
        ValueError,
        r"y_true has shape \(1, 3\) but y_score has shape \(1, 2\)",
    ),
    (
        "shape",
        "shapes_differ_1d",
        ([1, 0, 2], [1, 0]),
        {},
        ValueError,
        r"y_true has shape \(3,\) but y_score has shape \(2,\)",
    ),
    ("shape", "1d_vs_2d", ([1, 0, 2], [[1, 0, 2]]), {}, ValueError, r"y_true has shape .* y_score"),
    ("shape", "scalar_y_true", (1.0, 1.0), {}, ValueError, "y_true"),
    (
        "shape",
        "qid_with_2d",
        (Y5_2D, S5_2D),
        {"qid": [1, 2]},
        ValueError,
        "qid is only used with 1-D",
    ),
    # ragged lists
    (
        "ragged",
        "ragged_rows",
        ([[1, 0], [1]], [[1, 2], [3]]),
        {},
        ValueError,
        "y_true could not be read as an array; is it ragged",
    ),
    (
        "ragged",
        "ragged_nested",
        ([[1, [2]]], [[1, 2]]),
        {},
        ValueError,
        "y_true could not be read as an array",
    ),
    (
        "ragged",
        "ragged_y_true",
        ([[1, 0, 2], [1, 0]], [[1, 0, 2], [1, 0]]),
        {},
        ValueError,
        "y_true could not be read as an array; is it ragged",
    ),
    (
        "ragged",
        "ragged_y_score",
        ([[1, 0, 2], [1, 0, 2]], [[1, 0, 2], [1, 0]]),
        {},
        ValueError,
        "y_score could not be read as an array; is it ragged",
    ),
    # empty inputs
    ("empty", "empty_lists", ([], []), {"qid": []}, ValueError, "y_true is empty"),
    ("empty", "empty_rows", ([[]], [[]]), {}, ValueError, "y_true is empty"),
    ("empty", "empty_1d", ([], []), {}, ValueError, "y_true is empty"),
    (
        "empty",
        "empty_2d_rows",
        (np.zeros((0, 3)), np.zeros((0, 3))),
        {},
        ValueError,
        "y_true is empty",
    ),
    (
        "empty",
        "empty_2d_columns",
        (np.zeros((2, 0)), np.zeros((2, 0))),
        {},
        ValueError,
        "y_true is empty",
    ),
    # NaN / inf anywhere
    (
        "nonfinite",
        "y_true_nan_2d",
        ([[1, np.nan]], [[1, 2]]),
        {},
        ValueError,
        "y_true contains missing or infinite values",
    ),
    (
        "nonfinite",
        "y_score_inf",
        (Y_TRUE, np.where(Y_SCORE > 0.8, np.inf, Y_SCORE)),
        LONG,
        ValueError,
        "y_score contains missing or infinite values",
    ),
    (
        "nonfinite",
        "y_score_pandas_na",
        (Y_TRUE, pd.array([1, None, 2, 3, 4, 5], "Float64")),
        LONG,
        ValueError,
        "y_score contains missing or infinite values",
    ),
    (
        "nonfinite",
        "qid_nan",
        (Y_TRUE, Y_SCORE),
        {"qid": [1.0, 1.0, np.nan, 2.0, 2.0, 2.0]},
        ValueError,
        "qid contains missing values",
    ),
    (
        "nonfinite",
        "weight_inf",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "sample_weight": [np.inf] * 3 + [1.0] * 3},
        ValueError,
        "sample_weight contains missing or infinite values",
    ),
    (
        "nonfinite",
        "qid_nan_five_docs",
        (Y5, S5),
        {"qid": [1.0, 1.0, np.nan, 2.0, 2.0]},
        ValueError,
        "qid contains missing values",
    ),
    (
        "nonfinite",
        "qid_inf",
        (Y5, S5),
        {"qid": [1.0, 1.0, np.inf, 2.0, 2.0]},
        ValueError,
        "qid contains infinity",
    ),
    (
        "nonfinite",
        "y_true_nan",
        ([3, np.nan, 0], [1, 2, 3]),
        {},
        ValueError,
        "y_true contains missing or infinite values",
    ),
    (
        "nonfinite",
        "y_true_inf",
        ([[3, np.inf, 0]], [[1, 2, 3]]),
        {},
        ValueError,
        "y_true contains missing or infinite values",
    ),
    (
        "nonfinite",
        "y_true_none",
        ([3, None, 0], [1, 2, 3]),
        {},
        ValueError,
        "y_true contains missing or infinite values",
    ),
    (
        "nonfinite",
        "y_score_nan",
        ([3, 1, 0], [1, np.nan, 3]),
        {},
        ValueError,
        "y_score contains missing or infinite values",
    ),
    (
        "nonfinite",
        "y_score_minus_inf_2d",
        ([[3, 1, 0]], [[1, -np.inf, 3]]),
        {},
        ValueError,
        "y_score contains missing or infinite values",
    ),
    # strings or objects where numbers belong
    (
        "non_numeric",
        "y_true_words",
        (["high", "low"], [1, 2]),
        {},
        TypeError,
        "y_true holds <U4 values; numbers were expected",
    ),
    (
        "non_numeric",
        "y_score_bytes",
        ([1, 0], [b"1", b"2"]),
        {},
        TypeError,
        "y_score holds |S1 values; numbers were expected",
    ),
    (
        "non_numeric",
        "y_true_dicts",
        (np.array([{}, {}], dtype=object), [1, 2]),
        {},
        TypeError,
        "y_true holds values that are not numbers",
    ),
    (
        "non_numeric",
        "y_true_set",
        ({1, 2}, [1, 2]),
        {},
        TypeError,
        "y_true holds values that are not numbers",
    ),
    (
        "non_numeric",
        "y_true_datetimes",
        (np.array(["2020-01-01", "2020-01-02"], dtype="datetime64[D]"), [1, 2]),
        {},
        TypeError,
        "y_true",
    ),
    (
        "non_numeric",
        "weight_words",
        (Y_2D, S_2D),
        {"sample_weight": ["a", "b"]},
        TypeError,
        "sample_weight holds",
    ),
    (
        "non_numeric",
        "y_true_strings",
        (["a", "b", "c"], [1, 2, 3]),
        {},
        TypeError,
        "y_true holds <U1 values; numbers were expected",
    ),
    (
        "non_numeric",
        "y_score_strings",
        ([1, 2, 3], ["1", "2", "3"]),
        {},
        TypeError,
        "y_score holds <U1 values",
    ),
    (
        "non_numeric",
        "y_true_objects",
        (np.array([{}, 1, 2], dtype=object), [1, 2, 3]),
        {},
        TypeError,
        "y_true holds values that are not numbers",
    ),
    (
        "non_numeric",
        "y_true_frame_of_strings",
        (pd.DataFrame([["a", "b"]]), [[1, 2]]),
        {},
        TypeError,
        "y_true holds values that are not numbers",
    ),
    # complex numbers
    (
        "complex",
        "y_true_complex_2d",
        ([[1, 2j]], [[1, 2]]),
        {},
        TypeError,
        "y_true holds complex numbers",
    ),
    (
        "complex",
        "y_score_complex",
        (Y_TRUE, Y_SCORE * 1j),
        LONG,
        TypeError,
        "y_score holds complex numbers",
    ),
    (
        "complex",
        "weight_complex",
        (Y_2D, S_2D),
        {"sample_weight": [1j, 1]},
        TypeError,
        "sample_weight holds complex numbers",
    ),
    (
        "complex",
        "y_true_complex",
        ([1 + 1j, 2, 3], [1, 2, 3]),
        {},
        TypeError,
        "y_true holds complex numbers",
    ),
    (
        "complex",
        "y_score_one_complex",
        ([1, 2, 3], [1, 2j, 3]),
        {},
        TypeError,
        "y_score holds complex numbers",
    ),
    # 3-D arrays
    (
        "3d",
        "y_true_3d",
        (np.ones((2, 3, 1)), np.ones((2, 3, 1))),
        {},
        ValueError,
        r"y_true must be 1-D \(long format\) or 2-D",
    ),
    (
        "3d",
        "y_score_3d",
        (np.ones((2, 3)), np.ones((2, 3, 1))),
        {},
        ValueError,
        r"y_score must be 1-D .* or 2-D|y_true has shape \(2, 3\) but y_score",
    ),
    (
        "3d",
        "3d_y_true",
        (np.zeros((2, 2, 2)), np.zeros((2, 2, 2))),
        {},
        ValueError,
        r"y_true must be 1-D \(long format\) or 2-D",
    ),
    # sparse matrices: scikit-learn's ndcg_score rejects them too
    ("sparse", "y_true_csr", (sp.csr_matrix(Y_2D), S_2D), {}, (ValueError, TypeError), "y_true"),
    ("sparse", "y_score_coo", (Y_2D, sp.coo_matrix(S_2D)), {}, (ValueError, TypeError), "y_score"),
    (
        "sparse",
        "weight_csr",
        (Y_2D, S_2D),
        {"sample_weight": sp.csr_matrix([[1, 1]])},
        (ValueError, TypeError),
        "sample_weight",
    ),
    (
        "sparse",
        "qid_sparse",
        (Y5, S5),
        {"qid": sp.csr_matrix([[1, 1, 1, 2, 2]])},
        (ValueError, TypeError),
        "qid",
    ),
    (
        "sparse",
        "y_true_sparse",
        (sp.csr_matrix(Y5_2D), S5_2D),
        {},
        (ValueError, TypeError),
        "y_true",
    ),
    (
        "sparse",
        "y_score_sparse",
        (Y5_2D, sp.csr_matrix(S5_2D)),
        {},
        (ValueError, TypeError),
        "y_score",
    ),
    # non-finite, negative and all-zero weights
    (
        "weights",
        "weight_negative",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "sample_weight": [-1.0] * 6},
        ValueError,
        r"sample_weight has negative values at 6 position\(s\) of the flattened input "
        r"\(e.g. 0, 1, 2, 3, 4, \.\.\.\); the first is in row 0, of query 7;",
    ),
    (
        "weights",
        "weight_nan_2d",
        (Y_2D, S_2D),
        {"sample_weight": [np.nan, 1.0]},
        ValueError,
        "sample_weight contains missing or infinite values",
    ),
    (
        "weights",
        "weight_all_zero",
        (Y_2D, S_2D),
        {"sample_weight": [0, 0]},
        ValueError,
        "sample_weight sums to zero",
    ),
    (
        "weights",
        "weight_scalar",
        (Y_2D, S_2D),
        {"sample_weight": 2.0},
        (ValueError, TypeError),
        "sample_weight",
    ),
    (
        "weights",
        "weight_nan",
        (Y5_2D, S5_2D),
        {"sample_weight": [1.0, np.nan]},
        ValueError,
        "sample_weight contains missing or infinite values",
    ),
    (
        "weights",
        "weight_inf",
        (Y5_2D, S5_2D),
        {"sample_weight": [np.inf, 1.0]},
        ValueError,
        "sample_weight contains missing or infinite values",
    ),
    (
        "weights",
        "weight_negative_2d",
        (Y5_2D, S5_2D),
        {"sample_weight": [1.0, -0.5]},
        ValueError,
        # one weight per query (row) of 2-D input: the second
        r"sample_weight has negative values at 1 position\(s\) .*; the first is in row 1;",
    ),
    (
        "weights",
        "weight_wrong_length_2d",
        (Y5_2D, S5_2D),
        {"sample_weight": [1.0, 2.0, 3.0]},
        ValueError,
        r"sample_weight has shape \(3,\) but 2 weights were expected, one per query",
    ),
    (
        "weights",
        "weight_per_query_in_long_format",
        (Y5, S5),
        {"qid": QID5, "sample_weight": [1.0, 2.0]},
        ValueError,
        r"sample_weight has shape \(2,\) but 5 weights were expected, one per document",
    ),
    (
        "weights",
        "weight_2d",
        (Y5_2D, S5_2D),
        {"sample_weight": [[1.0, 2.0]]},
        ValueError,
        "sample_weight has shape",
    ),
    (
        "weights",
        "weight_varies_within_query",
        (Y5, S5),
        {"qid": QID5, "sample_weight": [1.0, 1.0, 2.0, 3.0, 3.0]},
        ValueError,
        r"sample_weight must be the same for every document of a query.*\[7\]",
    ),
    (
        "weights",
        "weight_all_zero_2d",
        (Y5_2D, S5_2D),
        {"sample_weight": [0.0, 0.0]},
        ValueError,
        "sample_weight sums to zero",
    ),
    (
        "weights",
        "weight_all_zero_long",
        (Y5, S5),
        {"qid": QID5, "sample_weight": [0.0] * 5},
        ValueError,
        "sample_weight sums to zero",
    ),
    # k of every wrong type
    ("k", "k_zero", (Y_2D, S_2D), {"k": 0}, ValueError, "'k' parameter"),
    ("k", "k_negative", (Y_2D, S_2D), {"k": -1}, ValueError, "'k' parameter"),
    ("k", "k_half", (Y_2D, S_2D), {"k": 1.5}, (ValueError, TypeError), "'k' parameter"),
    (
        "k",
        "k_numpy_float",
        (Y_2D, S_2D),
        {"k": np.float64(2.0)},
        (ValueError, TypeError),
        "'k' parameter",
    ),
    ("k", "k_string", (Y_2D, S_2D), {"k": "2"}, (ValueError, TypeError), "'k' parameter"),
    ("k", "k_list", (Y_2D, S_2D), {"k": [2]}, (ValueError, TypeError), "'k' parameter"),
    ("k", "k_complex", (Y_2D, S_2D), {"k": 2j}, (ValueError, TypeError), "'k' parameter"),
    ("k", "k_bool", (Y_2D, S_2D), {"k": True}, TypeError, "'k' parameter"),
    ("k", "k_numpy_bool", (Y_2D, S_2D), {"k": np.False_}, TypeError, "k"),
    ("k", "k_minus_two", (Y5_2D, S5_2D), {"k": -2}, ValueError, "'k' parameter"),
    ("k", "k_float", (Y5_2D, S5_2D), {"k": 2.0}, (ValueError, TypeError), "'k' parameter"),
    ("k", "k_false", (Y5_2D, S5_2D), {"k": False}, TypeError, "k"),
    ("k", "k_numpy_true", (Y5_2D, S5_2D), {"k": np.True_}, TypeError, "k"),
    ("k", "k_string_ten", (Y5_2D, S5_2D), {"k": "10"}, (ValueError, TypeError), "'k' parameter"),
    # unknown option names
    ("option", "gain_unknown", (Y_2D, S_2D), {"gain": "exp"}, ValueError, "'gain' parameter"),
    (
        "option",
        "discount_unknown",
        (Y_2D, S_2D),
        {"discount": "log"},
        ValueError,
        "'discount' parameter",
    ),
    ("option", "ties_unknown", (Y_2D, S_2D), {"ties": "min"}, ValueError, "'ties' parameter"),
    (
        "option",
        "zero_division_half",
        (Y_2D, S_2D),
        {"zero_division": 0.5},
        ValueError,
        "'zero_division' parameter",
    ),
    (
        "option",
        "replace_undefined_by_half",
        (Y_2D, S_2D),
        {"replace_undefined_by": 0.5},
        ValueError,
        "'replace_undefined_by' parameter",
    ),
    (
        "option",
        "replace_undefined_by_with_zero_division",
        (Y_2D, S_2D),
        {"replace_undefined_by": 1.0, "zero_division": 1.0},
        ValueError,
        "zero_division and replace_undefined_by are two names",
    ),
    (
        "option",
        "misspelt_keyword",
        (Y_2D, S_2D),
        {"sample_weights": [1, 1]},
        TypeError,
        "sample_weights",
    ),
    (
        "option",
        "gain_quadratic",
        (Y5_2D, S5_2D),
        {"gain": "quadratic"},
        ValueError,
        "'gain' parameter",
    ),
    (
        "option",
        "gain_number",
        (Y5_2D, S5_2D),
        {"gain": 2},
        (ValueError, TypeError),
        "'gain' parameter",
    ),
    (
        "option",
        "discount_log10",
        (Y5_2D, S5_2D),
        {"discount": "log10"},
        ValueError,
        "'discount' parameter",
    ),
    (
        "option",
        "discount_number",
        (Y5_2D, S5_2D),
        {"discount": 2},
        (ValueError, TypeError),
        "'discount' parameter",
    ),
    ("option", "ties_random", (Y5_2D, S5_2D), {"ties": "random"}, ValueError, "'ties' parameter"),
    (
        "option",
        "ties_none",
        (Y5_2D, S5_2D),
        {"ties": None},
        (ValueError, TypeError),
        "'ties' parameter",
    ),
    (
        "option",
        "ignore_ties_string",
        (Y5_2D, S5_2D),
        {"ignore_ties": "yes"},
        (ValueError, TypeError),
        "'ignore_ties' parameter",
    ),
    (
        "option",
        "zero_division_string",
        (Y5_2D, S5_2D),
        {"zero_division": "warn"},
        (ValueError, TypeError),
        "'zero_division' parameter",
    ),
    ("option", "unknown_keyword", (Y5_2D, S5_2D), {"cutoff": 3}, TypeError, "cutoff"),
    ("option", "log_base_in_ndcg", (Y5_2D, S5_2D), {"log_base": 10}, TypeError, "log_base"),
    # ties and ignore_ties together
    (
        "option",
        "ties_and_ignore_ties_true",
        (Y5_2D, S5_2D),
        {"ties": "first", "ignore_ties": True},
        ValueError,
        "give either ties .* or scikit-learn's ignore_ties",
    ),
    (
        "option",
        "ties_average_and_ignore_ties_false",
        (Y5_2D, S5_2D),
        {"ties": "average", "ignore_ties": False},
        ValueError,
        r"give either ties \(got 'average'\) or scikit-learn's ignore_ties \(got False\)",
    ),
    (
        "option",
        "ties_optimistic_and_ignore_ties_true",
        (Y5_2D, S5_2D),
        {"ties": "optimistic", "ignore_ties": True},
        ValueError,
        "ignore_ties",
    ),
    # bad mappings and callables
    (
        "mapping",
        "mapping_missing_label",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "gain": {0: 0.0, 1: 1.0, 3: 7.0}},
        ValueError,
        # Y_TRUE = [3, 2, 0, 1, 0, 2]: label 2 at rows 1 and 5, of query 7 and 8
        r"gain has no entry for the relevance labels \[2\].* at 2 position\(s\) of the "
        r"flattened input \(e.g. 1, 5\); the first is in row 1, of query 7\.",
    ),
    (
        "mapping",
        "mapping_nan",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "gain": {0: 0, 1: 1, 2: np.nan, 3: 3}},
        ValueError,
        "gain as a mapping has NaN",
    ),
    (
        "mapping",
        "mapping_object_values",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "gain": {0: [], 1: 1, 2: 2, 3: 3}},
        TypeError,
        "gain as a mapping must map numeric",
    ),
    (
        "mapping",
        "mapping_missing_labels",
        ([3, 2, 0, 1, 5], S5),
        {"gain": {0: 0.0, 1: 1.0, 2: 3.0}},
        ValueError,
        r"gain has no entry for the relevance labels \[3, 5\]",
    ),
    ("mapping", "mapping_empty", (Y5, S5), {"gain": {}}, ValueError, "gain is an empty mapping"),
    (
        "mapping",
        "mapping_string_keys",
        (Y5, S5),
        {"gain": {"a": 1.0}},
        TypeError,
        "gain as a mapping must map numeric",
    ),
    (
        "mapping",
        "mapping_string_values",
        (Y5, S5),
        {"gain": {0: "zero"}},
        TypeError,
        "gain as a mapping must map numeric",
    ),
    (
        "mapping",
        "mapping_nan_gain",
        (Y5, S5),
        {"gain": {0: 0.0, 1: np.nan, 2: 1.0, 3: 2.0}},
        ValueError,
        "gain as a mapping has NaN or infinite gains",
    ),
    (
        "mapping",
        "mapping_inf_gain",
        (Y5, S5),
        {"gain": {0: 0.0, 1: 1.0, 2: 1.0, 3: np.inf}},
        ValueError,
        "gain as a mapping has NaN or infinite gains",
    ),
    (
        "callable",
        "gain_callable_raises",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "gain": _raise},
        ValueError,
        "gain callable .* raised RuntimeError: inside the callable",
    ),
    (
        "callable",
        "gain_callable_2d",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "gain": lambda r: r[:, np.newaxis]},
        ValueError,
        r"gain callable must return one gain per label, an array of shape \(6,\)",
    ),
    (
        "callable",
        "gain_callable_none",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "gain": lambda r: None},
        (ValueError, TypeError),
        "gain callable",
    ),
    (
        "callable",
        "gain_callable_nan",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "gain": lambda r: np.where(r == 2, np.nan, r)},
        ValueError,
        r"gain callable returned NaN .* at 2 position\(s\) of the flattened input "
        r"\(e.g. 1, 5\); the first is in row 1, of query 7;",
    ),
    (
        "callable",
        "discount_callable_raises",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "discount": _raise},
        ValueError,
        "discount callable .* raised RuntimeError",
    ),
    (
        "callable",
        "discount_callable_short",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "discount": lambda r: 1.0 / r[1:]},
        ValueError,
        "discount callable must return one weight per rank",
    ),
    (
        "callable",
        "discount_callable_negative",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "discount": lambda r: -1.0 / r},
        ValueError,
        "discount callable must return finite, non-negative weights",
    ),
    (
        "callable",
        "discount_callable_nan",
        (Y_TRUE, Y_SCORE),
        {"qid": QID, "discount": lambda r: np.where(r > 2, np.inf, 1.0)},
        ValueError,
        "discount callable must return finite, non-negative weights",
    ),
    (
        "callable",
        "gain_callable_wrong_shape",
        (Y5, S5),
        {"gain": lambda r: r[:2]},
        ValueError,
        r"gain callable must return one gain per label, an array of shape \(5,\)",
    ),
    (
        "callable",
        "gain_callable_scalar",
        (Y5, S5),
        {"gain": lambda r: 1.0},
        ValueError,
        r"gain callable must return one gain per label.*got shape \(\)",
    ),
    (
        "callable",
        "gain_callable_nan_one_query",
        (Y5, S5),
        {"gain": lambda r: np.where(r == 2, np.nan, r)},
        ValueError,
        "gain callable returned NaN or infinite gains",
    ),
    (
        "callable",
        "gain_callable_inf",
        (Y5, S5),
        {"gain": lambda r: np.full(r.shape, np.inf)},
        ValueError,
        "gain callable returned NaN or infinite gains",
    ),
    (
        "callable",
        "gain_callable_strings",
        (Y5, S5),
        {"gain": lambda r: "abc"},
        TypeError,
        "gain callable must return numbers",
    ),
    (
        "callable",
        "gain_callable_raises_boom",
        (Y5, S5),
        {"gain": _raising_gain},
        ValueError,
        "gain callable .* raised RuntimeError: boom",
    ),
    (
        "callable",
        "discount_callable_wrong_shape",
        (Y5, S5),
        {"discount": lambda r: r[:1] * 1.0},
        ValueError,
        "discount callable must return one weight per rank",
    ),
    (
        "callable",
        "discount_callable_goes_negative",
        (Y5, S5),
        {"discount": lambda r: 2.0 - r},
        ValueError,
        "discount callable must return finite, non-negative weights; got -1",
    ),
    (
        "callable",
        "discount_callable_nan_at_rank_2",
        (Y5, S5),
        {"discount": lambda r: np.where(r == 2, np.nan, 1.0)},
        ValueError,
        "discount callable must return finite, non-negative weights; got nan for rank 2",
    ),
    (
        "callable",
        "discount_callable_inf",
        (Y5, S5),
        {"discount": lambda r: np.where(r == 3, np.inf, 1.0)},
        ValueError,
        "discount callable must return finite, non-negative weights; got inf for rank 3",
    ),
    (
        "callable",
        "discount_callable_strings",
        (Y5, S5),
        {"discount": lambda r: ["x"] * len(r)},
        TypeError,
        "discount callable must return numbers",
    ),
    (
        "callable",
        "discount_callable_raises_boom",
        (Y5, S5),
        {"discount": _raising_discount},
        ValueError,
        "discount callable .* raised RuntimeError: boom",
    ),
    # huge labels with exponential gain
    (
        "huge",
        "exponential_label_1024",
        ([1024, 0], [1, 2]),
        {"gain": "exponential"},
        ValueError,
        'gain="exponential" overflows float64 for relevance label 1024',
    ),
    (
        "huge",
        "exponential_label_1e300",
        ([[1e300, 0]], [[1, 2]]),
        {"gain": "exponential"},
        ValueError,
        'gain="exponential" overflows float64',
    ),
    (
        "huge",
        "exponential_dcg_overflow",
        ([1023, 1023, 1023], [1, 2, 3]),
        {"gain": "exponential"},
        ValueError,
        "DCG of some queries overflows float64",
    ),
    (
        "huge",
        "linear_dcg_overflow",
        ([1e308, 1e308, 1e308], [1, 2, 3]),
        {},
        ValueError,
        "DCG of some queries overflows float64",
    ),
    (
        "huge",
        "exponential_overflow",
        ([[1024, 0, 1]], [[1, 2, 3]]),
        {"gain": "exponential"},
        ValueError,
        r'gain="exponential" overflows float64 for relevance label 1024',
    ),
    # each gain 2**1023 - 1 is finite, their discounted sum is not
    (
        "huge",
        "dcg_overflow",
        ([[1023, 1023, 1023]], [[1, 2, 3]]),
        {"gain": "exponential"},
        ValueError,
        r"DCG of some queries overflows float64",
    ),
    # mixed-type query ids
    (
        "qid_type",
        "qid_int_and_str",
        (Y_TRUE, Y_SCORE),
        {"qid": [1, 1, "1", "1", 2, 2]},
        TypeError,
        "qid mixes values",
    ),
    (
        "qid_type",
        "qid_object_mixed",
        (Y_TRUE, Y_SCORE),
        {"qid": np.array([1, 1, 2.5, "a", "a", (1,)], dtype=object)},
        TypeError,
        "qid mixes values that cannot be compared",
    ),
    (
        "qid_type",
        "qid_none",
        (Y_TRUE, Y_SCORE),
        {"qid": [1, 1, None, 2, 2, 2]},
        ValueError,
        "qid contains missing values",
    ),
    (
        "qid_type",
        "qid_complex",
        (Y_TRUE, Y_SCORE),
        {"qid": QID * 1j},
        TypeError,
        "qid holds complex numbers",
    ),
    (
        "qid_type",
        "qid_tuples",
        (Y5, S5),
        {"qid": [(1, "a")] * 5},
        TypeError,
        "qid holds tuples or lists",
    ),
    (
        "qid_type",
        "qid_none_among_strings",
        (Y5, S5),
        {"qid": ["a", "a", None, "b", "b"]},
        ValueError,
        "qid contains missing values",
    ),
    (
        "qid_type",
        "qid_nan_object",
        (Y5, S5),
        {"qid": np.array(["a", "a", np.nan, "b", "b"], dtype=object)},
        ValueError,
        "qid contains missing values",
    ),
    (
        "qid_type",
        "qid_mixed_object",
        (Y5, S5),
        {"qid": np.array([1, 1, "a", "a", 2], dtype=object)},
        TypeError,
        "qid mixes values that cannot be compared",
    ),
    (
        "qid_type",
        "qid_mixed_list",
        (Y5, S5),
        {"qid": [1, 1, "1", "1", 2]},
        TypeError,
        "qid mixes values",
    ),
    (
        "qid_type",
        "qid_complex_five_docs",
        (Y5, S5),
        {"qid": np.array([1, 1, 2, 2, 2]) * 1j},
        TypeError,
        "qid holds complex numbers",
    ),
    # qid of the wrong length
    (
        "qid_length",
        "qid_short",
        (Y_TRUE, Y_SCORE),
        {"qid": QID[:5]},
        ValueError,
        "qid has 5 entries but y_true has 6",
    ),
    (
        "qid_length",
        "qid_2d",
        (Y_TRUE, Y_SCORE),
        {"qid": QID.reshape(2, 3)},
        ValueError,
        r"qid must be 1-D .* got shape \(2, 3\)",
    ),
    (
        "qid_length",
        "qid_scalar_string",
        (Y_TRUE, Y_SCORE),
        {"qid": "q1"},
        (ValueError, TypeError),
        "qid",
    ),
    (
        "qid_length",
        "qid_too_short",
        (Y5, S5),
        {"qid": [1, 1, 2]},
        ValueError,
        "qid has 3 entries but y_true has 5",
    ),
    (
        "qid_length",
        "qid_too_long",
        (Y5, S5),
        {"qid": [1] * 6},
        ValueError,
        "qid has 6 entries but y_true has 5",
    ),
    (
        "qid_length",
        "qid_2d_one_row",
        (Y5, S5),
        {"qid": np.ones((1, 5))},
        ValueError,
        "qid must be 1-D",
    ),
    # negative labels with a built-in gain
    (
        "negative_label",
        "negative_label_linear",
        ([[3, -1, 0]], [[1, 2, 3]]),
        {},
        ValueError,
        r"y_true has negative relevance labels \(min -1\) at 1 position\(s\) of the "
        r"flattened input \(e.g. 1\); the first is in query \(row\) 0, document 1;",
    ),
    (
        "negative_label",
        "negative_label_exponential",
        ([3, -2, 0], [1, 2, 3]),
        {"gain": "exponential"},
        ValueError,
        'y_true has negative relevance labels .* gain="exponential"',
    ),
    # sequences (LightGBM's label_gain)
    (
        "sequence",
        "sequence_non_integer_labels",
        ([0.5, 1, 2], [1, 2, 3]),
        {"gain": [0, 1, 3]},
        ValueError,
        r"gain as a sequence .* must hold non-negative integers; got \[0.5\]",
    ),
    (
        "sequence",
        "sequence_negative_labels",
        ([-1, 1, 2], [1, 2, 3]),
        {"gain": [0, 1, 3]},
        ValueError,
        r"must hold non-negative integers; got \[-1\]",
    ),
    (
        "sequence",
        "sequence_label_too_large",
        ([0, 1, 5], [1, 2, 3]),
        {"gain": [0, 1, 3]},
        ValueError,
        r"gain as a sequence has 3 entries \(labels 0..2\) but y_true has the label 5",
    ),
    (
        "sequence",
        "sequence_empty",
        (Y5, S5),
        {"gain": []},
        ValueError,
        "gain as a sequence must be a non-empty 1-D",
    ),
    (
        "sequence",
        "sequence_2d",
        (Y5, S5),
        {"gain": [[0, 1], [2, 3]]},
        ValueError,
        "gain as a sequence must be a non-empty 1-D",
    ),
    (
        "sequence",
        "sequence_nan",
        (Y5, S5),
        {"gain": [0, 1, np.nan, 3]},
        ValueError,
        "gain as a sequence has NaN or infinite gains",
    ),
    (
        "sequence",
        "sequence_strings",
        (Y5, S5),
        {"gain": ["a", "b", "c", "d"]},
        TypeError,
        "gain must be",
    ),
]

# keywords dcg_score does not take, or takes with another meaning (log_base is
# an unknown keyword to ndcg_score but a valid option of dcg_score)
NDCG_ONLY = {"zero_division", "replace_undefined_by", "log_base", "normalize"}
# keywords query_scores takes with another meaning (log_base is a valid option
# of it) or rejects with its own message (ignore_ties): its rows follow the loop
NOT_QUERY_SCORES = {"ignore_ties", "log_base"}


def _one_flat_query(y_true, y_score) -> bool:
    """Whether a row's input is one query in 1-D (long format without qid)."""
    with warnings.catch_warnings():  # numpy < 1.24 warns on ragged input, later raises
        warnings.simplefilter("error")
        try:
            return np.ndim(y_true) == 1 and np.shape(y_true) == np.shape(y_score)
        except (ValueError, AttributeError, Warning):  # ragged or unusual: leave it as it is
            return False


for case_class, case_id, args, kw, exc, match, *xfail in METRIC_CASES:
    if "qid" not in kw and len(args) == 2 and _one_flat_query(*args):
        kw = {**kw, "qid": [0] * len(args[0])}  # one query: 1-D input needs qid
    for name, fn in (
        ("ndcg_score", ndcg_score),
        ("dcg_score", dcg_score),
        ("query_scores", query_scores),
    ):
        if name == "dcg_score" and NDCG_ONLY & set(kw):
            continue
        if name == "query_scores" and NOT_QUERY_SCORES & set(kw):
            continue
        if name == "query_scores" and case_id.startswith("weight_all_zero"):
            continue  # per-query values need no mean: zero weights are fine there
        _add(
            name,
            case_class,
            case_id,
            lambda fn=fn, args=args, kw=kw: fn(*args, **kw),
            exc,
            match,
            *xfail,
        )

# unsorted query ids are not an error: the same number as sorted ones
# (checked in the safety and property tests); query_scores' own option:
_add(
    "query_scores",
    "option",
    "metric_unknown",
    lambda: query_scores(Y_2D, S_2D, metric="ap"),
    ValueError,
    "unknown metric 'ap'",
)
_add(
    "dcg_score",
    "option",
    "log_base_one",
    lambda: dcg_score(Y_2D, S_2D, log_base=1.0),
    ValueError,
    "'log_base' parameter",
)
# all-zero weights are an error, whatever zero_division does
_add(
    "ndcg_score",
    "weights",
    "weight_all_zero_with_zero_division_nan",
    lambda: ndcg_score(
        [1, 0, 0, 0],
        [1, 2, 3, 4],
        qid=[1, 1, 2, 2],
        sample_weight=[0, 0, 0, 0],
        zero_division=np.nan,
    ),
    ValueError,
    "sample_weight sums to zero",
)

# (case class, id, keywords, exception, match): keywords only dcg_score takes
for case_class, case_id, kw, exc, match in [
    ("option", "log_base_int_one", {"log_base": 1}, ValueError, "'log_base' parameter"),
    ("option", "log_base_below_one", {"log_base": 0.5}, ValueError, "'log_base' parameter"),
    ("option", "log_base_zero", {"log_base": 0}, ValueError, "'log_base' parameter"),
    ("option", "log_base_negative", {"log_base": -2.0}, ValueError, "'log_base' parameter"),
    ("nonfinite", "log_base_nan", {"log_base": np.nan}, ValueError, "'log_base' parameter"),
    ("nonfinite", "log_base_inf", {"log_base": np.inf}, ValueError, "'log_base' parameter"),
    (
        "option",
        "log_base_string",
        {"log_base": "e"},
        (ValueError, TypeError),
        "'log_base' parameter",
    ),
    (
        "option",
        "log_base_with_reciprocal",
        {"log_base": 10, "discount": "reciprocal"},
        ValueError,
        r"log_base=10 only applies to discount='log2'; got discount='reciprocal'",
    ),
    (
        "option",
        "log_base_with_none",
        {"log_base": 10, "discount": "none"},
        ValueError,
        "log_base=10 only applies to discount='log2'",
    ),
    (
        "option",
        "log_base_with_callable",
        {"log_base": 10, "discount": lambda r: 1.0 / r},
        ValueError,
        "log_base=10 only applies to discount='log2'",
    ),
    (
        "option",
        "ties_pessimistic_and_ignore_ties_false",
        {"ties": "pessimistic", "ignore_ties": False},
        ValueError,
        "give either ties",
    ),
]:
    _add("dcg_score", case_class, case_id, lambda kw=kw: dcg_score(Y5_2D, S5_2D, **kw), exc, match)

# keywords of query_scores: metric, and log_base with metric; ignore_ties is
# scikit-learn's keyword, which query_scores does not take
for case_id, kw, match in [
    ("metric_mrr", {"metric": "mrr"}, "unknown metric 'mrr'"),
    ("metric_p_without_cutoff", {"metric": "P"}, "'P' needs a cutoff"),
    (
        "metric_dcg_log_base_with_reciprocal",
        {"metric": "dcg", "log_base": 10, "discount": "reciprocal"},
        "log_base=10 only applies to discount='log2'",
    ),
    (
        "metric_ndcg_log_base_with_reciprocal",
        {"metric": "ndcg", "log_base": 10, "discount": "reciprocal"},
        "log_base=10 only applies to discount='log2'",
    ),
    ("log_base_one", {"log_base": 1.0}, "'log_base' parameter"),
    ("ignore_ties", {"ignore_ties": True}, "ignore_ties"),
]:
    _add(
        "query_scores",
        "option",
        case_id,
        lambda kw=kw: query_scores(Y5_2D, S5_2D, **kw),
        (ValueError, TypeError),
        match,
    )


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
