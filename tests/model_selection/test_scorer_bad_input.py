"""Bad input to make_ndcg_scorer and make_dcg_scorer, at construction and when called.

Each row expects a ``ValueError`` or ``TypeError`` whose message names the
argument; the convention and the shared data are in ``tests/_bad_input.py``.
"""

from functools import partial

import numpy as np
import pytest
import scipy.sparse as sp
import sklearn
from _bad_input import (
    FITTED,
    QID,
    X_DOCS,
    Y_TRUE,
    _raise,
    add_case,
    check_bad_input,
)

from sklearn_ndcg import make_dcg_scorer, make_ndcg_scorer

CASES = []
_add = partial(add_case, CASES)

# --------------------------------------------------------------------------
# Scorers, at construction
# --------------------------------------------------------------------------

SCORER_OPTIONS = [
    ("k", "k_zero", {"k": 0}, ValueError, "'k' parameter"),
    ("k", "k_float", {"k": 3.0}, (ValueError, TypeError), "'k' parameter"),
    ("k", "k_string", {"k": "10"}, (ValueError, TypeError), "'k' parameter"),
    ("k", "k_bool", {"k": True}, TypeError, "'k' parameter"),
    ("k", "k_repeated_cutoffs", {"k": (5, 5)}, ValueError, "list of distinct integers >= 1"),
    ("k", "k_cutoff_zero", {"k": [0, 5]}, ValueError, "list of distinct integers >= 1"),
    ("option", "gain_unknown", {"gain": "ndcg"}, ValueError, "'gain' parameter"),
    ("option", "gain_number", {"gain": 2.0}, (ValueError, TypeError), "'gain' parameter"),
    ("option", "discount_unknown", {"discount": "exp"}, ValueError, "'discount' parameter"),
    ("option", "ties_unknown", {"ties": None}, (ValueError, TypeError), "'ties' parameter"),
    (
        "option",
        "response_method_unknown",
        {"response_method": "transform"},
        ValueError,
        "'response_method' parameter",
    ),
    (
        "option",
        "response_method_empty",
        {"response_method": ()},
        ValueError,
        "response_method must be one of",
    ),
    (
        "option",
        "response_method_bad_in_tuple",
        {"response_method": ("predict", "score")},
        ValueError,
        "response_method must be one of",
    ),
    ("option", "positional_gain", {"_positional": (10, "exponential")}, TypeError, "positional"),
]
for name, maker in (("make_ndcg_scorer", make_ndcg_scorer), ("make_dcg_scorer", make_dcg_scorer)):
    for case_class, case_id, kw, exc, match in SCORER_OPTIONS:
        if "_positional" in kw:
            thunk = lambda maker=maker, kw=kw: maker(*kw["_positional"])  # noqa: E731
        else:
            thunk = lambda maker=maker, kw=kw: maker(**kw)  # noqa: E731
        _add(name, "construction-" + case_class, case_id, thunk, exc, match)
_add(
    "make_ndcg_scorer",
    "construction-option",
    "zero_division_two",
    lambda: make_ndcg_scorer(zero_division=2),
    ValueError,
    "'zero_division' parameter",
)
_add(
    "make_ndcg_scorer",
    "construction-option",
    "normalize_unknown",
    lambda: make_ndcg_scorer(normalize="worst"),
    ValueError,
    "'normalize' parameter",
)
_add(
    "make_dcg_scorer",
    "construction-option",
    "zero_division_for_dcg",
    lambda: make_dcg_scorer(zero_division=0.0),
    TypeError,
    "zero_division",
)


# --------------------------------------------------------------------------
# Scorers, when called (with metadata routing on, as a search calls them)
# --------------------------------------------------------------------------


def _score(maker_kw=None, X=X_DOCS, y=Y_TRUE, dcg=False, **metadata):
    scorer = (make_dcg_scorer if dcg else make_ndcg_scorer)(**(maker_kw or {}))
    with sklearn.config_context(enable_metadata_routing=True):
        return scorer(FITTED, X, y, **metadata)


CALL_CASES = [
    (
        "shape",
        "y_shorter_than_X",
        {"y": Y_TRUE[:4], "qid": QID[:4]},
        ValueError,
        r"y_true has shape \(4,\) but y_score has shape \(6,\)",
    ),
    ("shape", "qid_missing", {}, ValueError, "got 1-D y .* but no qid"),
    (
        "3d",
        "y_3d",
        {"y": np.zeros((6, 1, 1)), "qid": QID},
        ValueError,
        r"y_true must be 1-D .* or 2-D",
    ),
    (
        "sparse",
        "y_sparse",
        {"y": sp.csr_matrix(Y_TRUE), "qid": QID},
        (ValueError, TypeError),
        "y_true",
    ),
    (
        "empty",
        "empty",
        {"X": X_DOCS[:0], "y": Y_TRUE[:0], "qid": QID[:0]},
        ValueError,
        "y_true is empty",
    ),
    (
        "nonfinite",
        "predictions_nan",
        {"X": np.where(X_DOCS > 0.8, np.nan, X_DOCS), "qid": QID},
        ValueError,
        "y_score contains missing or infinite values",
    ),
    (
        "nonfinite",
        "y_inf",
        {"y": np.where(Y_TRUE > 2, np.inf, Y_TRUE), "qid": QID},
        ValueError,
        "y_true contains missing or infinite values",
    ),
    (
        "non_numeric",
        "y_strings",
        {"y": Y_TRUE.astype(str), "qid": QID},
        TypeError,
        "y_true holds <U21 values",
    ),
    (
        "complex",
        "y_complex",
        {"y": Y_TRUE * 1j, "qid": QID},
        TypeError,
        "y_true holds complex numbers",
    ),
    (
        "weights",
        "weight_negative",
        {"qid": QID, "sample_weight": -np.ones(6)},
        ValueError,
        "sample_weight has negative values",
    ),
    (
        "weights",
        "weight_nan",
        {"qid": QID, "sample_weight": np.full(6, np.nan)},
        ValueError,
        "sample_weight contains missing or infinite values",
    ),
    (
        "weights",
        "weight_all_zero",
        {"qid": QID, "sample_weight": np.zeros(6)},
        ValueError,
        "sample_weight sums to zero",
    ),
    (
        "huge",
        "exponential_overflow",
        {"maker_kw": {"gain": "exponential"}, "y": Y_TRUE * 1000, "qid": QID},
        ValueError,
        'gain="exponential" overflows float64 for relevance label 3000',
    ),
    (
        "mapping",
        "mapping_missing_label",
        {"maker_kw": {"gain": {0: 0, 1: 1}}, "qid": QID},
        ValueError,
        r"gain has no entry for the relevance labels \[2, 3\]",
    ),
    (
        "mapping",
        "mapping_nan_gain",
        {"maker_kw": {"gain": {0: 0, 1: 1, 2: 2, 3: np.nan}}, "qid": QID},
        ValueError,
        "gain as a mapping has NaN",
    ),
    (
        "callable",
        "gain_callable_raises",
        {"maker_kw": {"gain": _raise}, "qid": QID},
        ValueError,
        "gain callable .* raised RuntimeError",
    ),
    (
        "callable",
        "discount_callable_negative",
        {"maker_kw": {"discount": lambda r: 1.0 - r}, "qid": QID},
        ValueError,
        "discount callable must return finite, non-negative weights",
    ),
    (
        "callable",
        "discount_callable_wrong_shape",
        {"maker_kw": {"discount": lambda r: np.ones(2)}, "qid": QID},
        ValueError,
        "discount callable must return one weight per rank",
    ),
    ("qid_type", "qid_mixed", {"qid": [1, 1, "a", "a", 1, "a"]}, TypeError, "qid mixes values"),
    (
        "qid_length",
        "qid_long",
        {"qid": np.arange(8)},
        ValueError,
        "qid with 8 entries for 6 documents",
    ),
]
for name, dcg in (("ndcg_scorer_call", False), ("dcg_scorer_call", True)):
    for case_class, case_id, kw, exc, match in CALL_CASES:
        _add(name, case_class, case_id, lambda kw=kw, dcg=dcg: _score(dcg=dcg, **kw), exc, match)


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
