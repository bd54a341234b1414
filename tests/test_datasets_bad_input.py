"""Bad input to make_ranking.

Each row expects a ``ValueError`` or ``TypeError`` whose message names the
argument; the convention and the shared data are in ``tests/_bad_input.py``.
"""

from functools import partial

import numpy as np
import pytest
from _bad_input import add_case, check_bad_input

from sklearn_ndcg import make_ranking

CASES = []
_add = partial(add_case, CASES)

# --------------------------------------------------------------------------
# make_ranking
# --------------------------------------------------------------------------

for case_class, case_id, kw, exc, match, xfail in [
    ("k", "n_queries_zero", {"n_queries": 0}, ValueError, "'n_queries' parameter", None),
    (
        "k",
        "n_queries_float",
        {"n_queries": 10.0},
        (ValueError, TypeError),
        "'n_queries' parameter",
        None,
    ),
    (
        "k",
        "n_queries_string",
        {"n_queries": "10"},
        (ValueError, TypeError),
        "'n_queries' parameter",
        None,
    ),
    ("k", "n_queries_bool", {"n_queries": True}, (ValueError, TypeError), "n_queries", None),
    ("shape", "n_items_zero", {"n_items": 0}, ValueError, "'n_items' parameter", None),
    (
        "shape",
        "n_items_reversed",
        {"n_items": (5, 2)},
        ValueError,
        r"n_items must be an int >= 1 or a pair \(low, high\)",
        None,
    ),
    ("shape", "n_items_triple", {"n_items": (1, 2, 3)}, ValueError, "n_items must be", None),
    ("shape", "n_items_low_zero", {"n_items": [0, 3]}, ValueError, "n_items must be", None),
    ("non_numeric", "n_items_floats", {"n_items": (1.5, 3)}, ValueError, "n_items must be", None),
    (
        "non_numeric",
        "n_items_string",
        {"n_items": "5"},
        (ValueError, TypeError),
        "'n_items' parameter",
        None,
    ),
    ("k", "n_items_bool", {"n_items": True}, (ValueError, TypeError), "n_items", None),
    ("shape", "n_features_zero", {"n_features": 0}, ValueError, "'n_features' parameter", None),
    (
        "shape",
        "n_informative_too_many",
        {"n_features": 3, "n_informative": 4},
        ValueError,
        "n_informative=4 exceeds n_features=3",
        None,
    ),
    ("option", "n_levels_one", {"n_levels": 1}, ValueError, "'n_levels' parameter", None),
    ("nonfinite", "noise_nan", {"noise": np.nan}, ValueError, "'noise' parameter", None),
    ("nonfinite", "noise_inf", {"noise": np.inf}, ValueError, "'noise' parameter", None),
    ("weights", "noise_negative", {"noise": -0.1}, ValueError, "'noise' parameter", None),
    ("complex", "noise_complex", {"noise": 1j}, (ValueError, TypeError), "'noise' parameter", None),
    (
        "option",
        "random_state_string",
        {"random_state": "zero"},
        ValueError,
        "'random_state' parameter",
        None,
    ),
]:
    _add("make_ranking", case_class, case_id, lambda kw=kw: make_ranking(**kw), exc, match, xfail)


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
