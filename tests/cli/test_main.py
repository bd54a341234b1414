"""The command line's entry point (:mod:`sklearn_ndcg._cli._main`, ``python -m sklearn_ndcg``):
commands, arguments and exit statuses. Each command's own tests are in test_demo.py and
test_trec_eval.py.
"""

import subprocess
import sys

from _trec_example import Q1, Q2
from _trec_example import line as _line


def test_python_m_trec_eval_help():
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_ndcg", "trec-eval", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("usage: sklearn-ndcg trec-eval [-h] [-q] [-c] [-J] [-M N]")
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
