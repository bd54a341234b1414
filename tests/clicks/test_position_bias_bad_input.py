"""Bad input to estimate_position_bias and PositionBiasDisplay.

Each row expects a ``ValueError`` or ``TypeError`` whose message names the argument;
the convention is in ``tests/_bad_input.py``.
"""

from functools import partial

import numpy as np
import pytest
from _bad_input import add_case, check_bad_input

from sklearn_ndcg import PositionBiasDisplay, estimate_position_bias

CASES = []
_add = partial(add_case, CASES)

# one query, two documents, shown by two rankers in opposite orders
LOG = {
    "qid": np.array([0, 0, 0, 0]),
    "doc": np.array([0, 1, 0, 1]),
    "logged_rank": np.array([1, 2, 2, 1]),
    "click": np.array([1, 0, 1, 1]),
}
LOGGER = np.array(["A", "A", "B", "B"])


def _estimate(**changes):
    kwargs = {**LOG, "n_bootstrap": 0, **changes}
    return estimate_position_bias(
        kwargs.pop("qid"),
        kwargs.pop("doc"),
        kwargs.pop("logged_rank"),
        kwargs.pop("click"),
        **kwargs,
    )


def _with(name, values, **changes):
    return lambda: _estimate(**{name: np.array(values)}, **changes)


for case_class, case_id, call, exc, match in [
    ("click", "two", _with("click", [1, 0, 2, 1]), ValueError, r"click must be 0 or 1 .* row 2"),
    ("click", "negative", _with("click", [1, -1, 0, 1]), ValueError, "click must be 0 or 1"),
    ("click", "half", _with("click", [1, 0.5, 0, 1]), ValueError, "click must be 0 or 1"),
    ("click", "nan", _with("click", [1, np.nan, 0, 1]), ValueError, "click has NaN at row 1"),
    ("click", "strings", _with("click", ["1", "0", "0", "1"]), TypeError, "click must be 0 or 1"),
    (
        "logged_rank",
        "zero",
        _with("logged_rank", [0, 1, 2, 1]),
        ValueError,
        "logged_rank must hold whole numbers >= 1",
    ),
    (
        "logged_rank",
        "negative",
        _with("logged_rank", [1, -2, 2, 1]),
        ValueError,
        "logged_rank .* row 1",
    ),
    (
        "logged_rank",
        "fraction",
        _with("logged_rank", [1, 1.5, 2, 1]),
        ValueError,
        "logged_rank must hold whole numbers",
    ),
    (
        "logged_rank",
        "nan",
        _with("logged_rank", [1, np.nan, 2, 1]),
        ValueError,
        "logged_rank has NaN",
    ),
    (
        "logged_rank",
        "no_rank_one",
        _with("logged_rank", [2, 3, 3, 2]),
        ValueError,
        "logged_rank never is 1",
    ),
    (
        "logged_rank",
        "strings",
        _with("logged_rank", ["1", "2", "2", "1"]),
        TypeError,
        "logged_rank must be numbers",
    ),
    ("qid", "nan", _with("qid", [0.0, np.nan, 0.0, 0.0]), ValueError, "qid has NaN at row 1"),
    ("qid", "2d", _with("qid", [[0, 0], [0, 0]]), ValueError, "qid must be 1-D"),
    (
        "qid",
        "empty",
        lambda: estimate_position_bias([], [], [], [], n_bootstrap=0),
        ValueError,
        "qid is empty",
    ),
    (
        "qid",
        "mixed_types",
        _with("qid", np.array([0, "a", 0, 0], dtype=object)),
        TypeError,
        "qid must hold values of one sortable type",
    ),
    ("doc", "nan", _with("doc", [0.0, 1.0, np.nan, 1.0]), ValueError, "doc has NaN at row 2"),
    (
        "doc",
        "object_nan",
        _with("doc", np.array(["a", float("nan"), "a", "b"], dtype=object)),
        ValueError,
        "doc has NaN at row 1",
    ),
    ("doc", "length", _with("doc", [0, 1, 0]), ValueError, "doc has 3 entries but qid has 4"),
    (
        "click",
        "length",
        _with("click", [0, 1, 0, 1, 1]),
        ValueError,
        "click has 5 entries but qid has 4",
    ),
    (
        "max_rank",
        "below_largest",
        lambda: _estimate(max_rank=1),
        ValueError,
        "max_rank=1 is below the largest logged_rank, 2",
    ),
    ("max_rank", "zero", lambda: _estimate(max_rank=0), ValueError, "max_rank"),
    ("method", "unknown", lambda: _estimate(method="ips"), ValueError, "'method' parameter"),
    (
        "logger",
        "harvesting_single_logger",
        lambda: _estimate(method="harvesting", logger=["A"] * 4),
        ValueError,
        "at least two logging rankers; logger has the single label 'A'",
    ),
    (
        "logger",
        "length",
        lambda: _estimate(method="harvesting", logger=["A", "B"]),
        ValueError,
        "logger has 2 entries but qid has 4",
    ),
    (
        "logger",
        "nan",
        lambda: _estimate(method="harvesting", logger=[0.0, np.nan, 1.0, 1.0]),
        ValueError,
        "logger has NaN at row 1",
    ),
    (
        "method",
        "swap_without_logger",
        lambda: _estimate(method="swap"),
        ValueError,
        "method='swap' needs logger=",
    ),
    (
        "logger",
        "swap_label_one",
        lambda: _estimate(method="swap", logger=[1, 1, 2, 2]),
        ValueError,
        "logger has the label 1",
    ),
    (
        "logger",
        "swap_label_beyond",
        lambda: _estimate(method="swap", logger=[3, 0, 3, 3]),
        ValueError,
        "logger has the label 3",
    ),
    (
        "logger",
        "swap_strings",
        lambda: _estimate(method="swap", logger=LOGGER),
        ValueError,
        "logger must hold, for method='swap'",
    ),
    (
        "logger",
        "swap_misplaced",
        lambda: _estimate(method="swap", logger=[2, 2, 2, 2], logged_rank=np.array([1, 2, 3, 1])),
        ValueError,
        "row 2 belongs to the randomized pair \\(1, 2\\)",
    ),
    (
        "method",
        "em_unidentified",
        lambda: _estimate(logged_rank=np.array([1, 2, 1, 2])),
        ValueError,
        "never shows a \\(query, document\\) pair at two different ranks",
    ),
    (
        "features",
        "wrong_rows",
        lambda: _estimate(features=np.zeros((3, 2))),
        ValueError,
        "features must have shape \\(n_samples, n_features\\) with n_samples = 4",
    ),
    (
        "features",
        "1d",
        lambda: _estimate(features=np.zeros(4)),
        ValueError,
        "features must have shape",
    ),
    (
        "features",
        "nan",
        lambda: _estimate(features=np.array([[0.0], [np.nan], [0.0], [1.0]])),
        ValueError,
        "features has NaN",
    ),
    (
        "features",
        "differ_within_pair",
        lambda: _estimate(features=np.array([[0.0], [1.0], [0.5], [1.0]])),
        ValueError,
        "features of row 2 differ",
    ),
    (
        "features",
        "strings",
        lambda: _estimate(features=[["a"], ["b"], ["a"], ["b"]]),
        TypeError,
        "features must be numbers",
    ),
    (
        "features",
        "not_em",
        lambda: _estimate(method="harvesting", logger=LOGGER, features=np.zeros((4, 1))),
        ValueError,
        "features is a relevance model of method='em' only",
    ),
    (
        "confidence_level",
        "one",
        lambda: _estimate(confidence_level=1.0),
        ValueError,
        "'confidence_level' parameter",
    ),
    (
        "n_bootstrap",
        "negative",
        lambda: _estimate(n_bootstrap=-1),
        ValueError,
        "'n_bootstrap' parameter",
    ),
    (
        "random_state",
        "string",
        lambda: _estimate(random_state="0"),
        ValueError,
        "'random_state' parameter",
    ),
    ("max_iter", "zero", lambda: _estimate(max_iter=0), ValueError, "'max_iter' parameter"),
    ("tol", "zero", lambda: _estimate(tol=0.0), ValueError, "'tol' parameter"),
]:
    _add("estimate_position_bias", case_class, case_id, call, exc, match)


for case_class, case_id, call, exc, match in [
    (
        "propensity",
        "2d",
        lambda: PositionBiasDisplay([[1.0, 0.5]]),
        ValueError,
        "propensity must be 1-D",
    ),
    ("propensity", "empty", lambda: PositionBiasDisplay([]), ValueError, "propensity must be 1-D"),
    (
        "confidence_interval",
        "shape",
        lambda: PositionBiasDisplay([1.0, 0.5], confidence_interval=[1.0, 0.5]),
        ValueError,
        r"confidence_interval needs .* shape \(2, 2\)",
    ),
    (
        "position_bias",
        "array",
        lambda: PositionBiasDisplay.from_position_bias(np.array([1.0, 0.5])),
        TypeError,
        "position_bias must be the result of estimate_position_bias",
    ),
]:
    _add("PositionBiasDisplay", case_class, case_id, call, exc, match)


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
