"""Tests of _stats/_table.py: the result tables' columns, text, frames and verdicts.

Expected texts and verdicts are written by hand from the rules in the docstrings.
"""

import numpy as np
import pytest

from sklearn_ndcg._stats._table import Table, format_cell, format_table, verdict


def test_a_renamed_column_is_found_under_its_old_name_with_a_warning():
    table = Table(name=["a"], not_shown_different=[True])
    with pytest.warns(FutureWarning, match="'tied_with_reference' is now 'not_shown_different'"):
        assert table["tied_with_reference"] == [True]
    with pytest.raises(KeyError):
        table["no_such_column"]


@pytest.mark.parametrize(
    "column, value, text",
    [
        ("name", 0.5, "0.5"),  # names as they are
        ("mean", 0.123456, "0.1235"),  # 4 decimals
        ("pvalue", 0.000123456, "0.0001235"),  # 4 significant digits
        ("adjusted_pvalue", 0.5, "0.5"),
        ("not_shown_different", True, "yes"),
        ("not_shown_different", np.False_, "no"),
        ("effect_size", np.nan, "-"),
        ("verdict", "worse", "worse"),
    ],
)
def test_format_cell(column, value, text):
    assert format_cell(column, value) == text


def test_format_table_aligns_names_left_and_numbers_right():
    text = format_table("T", {"name": ["a", "bbb"], "mean": [0.5, 0.25], "verdict": ["x", "yy"]})
    assert text.splitlines() == [
        "T",
        "name    mean  verdict",
        "a     0.5000  x",
        "bbb   0.2500  yy",
    ]


@pytest.mark.parametrize(
    "mean, pvalue, interval, margin, expected",
    [
        (0.001, 0.9, (-0.005, 0.007), 0.01, "equivalent"),  # interval inside (-0.01, 0.01)
        (0.001, 0.9, (-0.012, 0.007), 0.01, "inconclusive"),  # reaches past -0.01
        (0.05, 0.001, (0.03, 0.07), 0.01, "better"),
        (-0.05, 0.001, (-0.07, -0.03), 0.01, "worse"),
        (0.001, 0.9, (-0.005, 0.007), None, "not shown different"),  # no margin
        (-0.05, 0.001, (-0.07, -0.03), None, "worse"),
        # equivalence is decided first: a tiny, significant difference inside the margin
        (0.002, 0.001, (0.001, 0.003), 0.01, "equivalent"),
    ],
)
def test_verdict(mean, pvalue, interval, margin, expected):
    assert verdict(mean, pvalue, 0.05, interval, margin) == expected
