"""Bad input to tie_diagnostics.

Each row expects a ``ValueError`` or ``TypeError`` whose message names the
argument; the convention and the shared data are in ``tests/_bad_input.py``.
"""

from functools import partial

import pytest
from _bad_input import LONG, Y_SCORE, Y_TRUE, add_case, check_bad_input

from sklearn_ndcg import tie_diagnostics

CASES = []
_add = partial(add_case, CASES)

# tie_diagnostics takes the metric's input and options (issue 17)
for case_id, kw, exc, match in [
    ("shapes_differ", {"y_score": Y_SCORE[:4]}, ValueError, r"y_true has shape \(6,\)"),
    ("k_zero", {"k": 0}, ValueError, "'k' parameter"),
    ("ties_not_an_option", {"ties": "first"}, TypeError, "ties"),
    ("normalize_unknown", {"normalize": "max"}, ValueError, "'normalize' parameter"),
    ("qid_missing_value", {"qid": [7, 7, None, 8, 8, 8]}, ValueError, "qid contains missing"),
]:
    _add(
        "tie_diagnostics",
        "option",
        case_id,
        lambda kw=kw: tie_diagnostics(**{"y_true": Y_TRUE, "y_score": Y_SCORE, **LONG, **kw}),
        exc,
        match,
    )


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
