"""Bad input to the command line: exit status 2 and a message on stderr, as argparse does."""

from functools import partial

import pytest
from _bad_input import add_case, check_bad_input

from sklearn_ndcg.__main__ import main

CASES = []
_add = partial(add_case, CASES)

# --------------------------------------------------------------------------
# The demo's command line: exit status 2 and a message on stderr
# --------------------------------------------------------------------------

for case_class, case_id, argv, match, xfail in [
    ("option", "no_command", [], "the following arguments are required: COMMAND", None),
    ("option", "unknown_command", ["train"], "invalid choice: 'train'", None),
    (
        "option",
        "unknown_option",
        ["demo", "--n-query", "5"],
        "unrecognized arguments|ambiguous option",
        None,
    ),
    ("k", "k_zero", ["demo", "-k", "0"], "argument -k/--k: expected a number >= 1", None),
    ("k", "k_float", ["demo", "--k", "2.5"], "argument -k/--k: expected a whole number", None),
    ("k", "k_word", ["demo", "-k", "ten"], "argument -k/--k: expected a whole number", None),
    ("empty", "k_empty", ["demo", "-k", ""], "argument -k/--k: expected a whole number", None),
    (
        "shape",
        "n_queries_negative",
        ["demo", "--n-queries=-3"],
        "argument --n-queries: expected a number >= 1",
        None,
    ),
    (
        "nonfinite",
        "n_queries_nan",
        ["demo", "--n-queries", "nan"],
        "argument --n-queries: expected a whole number",
        None,
    ),
    (
        "shape",
        "n_splits_one",
        ["demo", "--n-splits", "1"],
        "argument --n-splits: expected a number >= 2",
        None,
    ),
    (
        "shape",
        "n_jobs_zero",
        ["demo", "--n-jobs", "0"],
        "argument --n-jobs: expected a number >= 1",
        None,
    ),
    ("non_numeric", "seed_word", ["demo", "--seed", "abc"], "argument --seed", None),
    (
        "shape",
        "n_queries_too_few_for_split",
        ["demo", "--n-queries", "1", "--no-ltr", "--quiet"],
        "n-queries",
        None,
    ),
    (
        "shape",
        "n_queries_fewer_than_splits",
        ["demo", "--n-queries", "2", "--no-ltr", "--quiet"],
        "n-queries",
        None,
    ),
]:
    _add("demo_cli", case_class, case_id, lambda argv=argv: main(argv), SystemExit, match, xfail)


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
