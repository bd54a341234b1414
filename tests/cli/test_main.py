"""The command line's entry point (:mod:`sklearn_ndcg._cli._main`, ``python -m sklearn_ndcg``):
commands, arguments and exit statuses. Each command's own tests are in test_demo.py and
test_trec_eval.py.
"""

import subprocess
import sys

import pytest
from _trec_example import Q1, Q2
from _trec_example import line as _line

from sklearn_ndcg.__main__ import main


def test_python_m_trec_eval_help():
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_ndcg", "trec-eval", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: sklearn-ndcg trec-eval [-h] [-q] [-n] [-c] [-J] [-M N]")
    assert "truncates their" in result.stdout  # the custom-gain sorting difference


def test_python_m_trec_eval_runs(files):
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_ndcg", "trec-eval", "-m", "ndcg", *files],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == _line("ndcg", "all", (Q1 + Q2) / 2) + "\n"


@pytest.mark.parametrize(
    "argv, message",
    [
        ([], "the following arguments are required: COMMAND"),
        (["rank"], "argument COMMAND: invalid choice: 'rank'"),
        (["demo", "--n-queries", "0"], "argument --n-queries: expected a number >= 1, got 0"),
        (["demo", "-k", "two"], "argument -k/--k: expected a whole number, got 'two'"),
    ],
)
def test_bad_arguments_exit_with_status_2_and_the_usage(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: sklearn-ndcg") and message in err


def test_help_lists_both_commands(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: sklearn-ndcg [-h] COMMAND ...")
    assert "demo" in out and "trec-eval" in out
