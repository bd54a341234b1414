"""The ``trec-eval`` command's page (docs/trec_eval.rst) against its ``--help``, and a
test for every departure from trec_eval that the help lists (issue 25).

Expected values are computed by hand in each test; where trec_eval behaves
otherwise, the comment says what trec_eval 10.0 does (from its source, in
form_res_rels.c and get_trec_results.c, and from running its binary).
"""

import argparse
import re
import textwrap
from pathlib import Path

import pytest
from _trec_example import line as _line

from sklearn_ndcg.__main__ import main
from sklearn_ndcg._cli._main import _TREC_EVAL_RULES, _parser

PAGE = Path(__file__).parents[2] / "docs" / "trec_eval.rst"
HEADER = "Where this command differs from trec_eval:"


def _trec_parser() -> argparse.ArgumentParser:
    (commands,) = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    return commands.choices["trec-eval"]


def _departures() -> list[str]:
    """The bullets of the help's list of departures, each as one line."""
    text = _TREC_EVAL_RULES.split(HEADER)[1]
    bullets = re.split(r"\n  - ", "\n" + text.strip("\n"))[1:]
    return [" ".join(bullet.split()) for bullet in bullets]


def test_page_holds_the_help_rules_verbatim():
    page = PAGE.read_text(encoding="utf-8")
    block = page.split(".. code-block:: text\n\n", 1)[1]
    assert textwrap.dedent(block) == _TREC_EVAL_RULES
    # and --help prints them as they are
    assert _TREC_EVAL_RULES in _trec_parser().format_help()


def test_page_lists_every_option_with_its_help():
    page = " ".join(PAGE.read_text(encoding="utf-8").split())
    options = [a for a in _trec_parser()._actions if a.option_strings and a.dest != "help"]
    assert len(options) == 9
    for action in options:
        name = action.option_strings[0] + (f" {action.metavar}" if action.metavar else "")
        assert f"``{name}``" in page
        assert " ".join(action.help.split()) in page, name


# ------------------------------------------------- one test per departure

DEPARTURE_TESTS = {
    "trec_eval sorts custom ndcg gains": "test_custom_gains_sorted_by_value",
    "Errors where trec_eval guesses": "test_errors_where_trec_eval_guesses",
    "A query of the qrels that the run lacks": "test_query_the_run_lacks_left_out",
    "Only -q, -n, -c, -J, -M, -l and -m": "test_only_these_options",
    "A query whose qrels hold negative levels only": "test_all_negative_query_scores_zero",
    "A (query, document) pair listed twice": "test_duplicate_refused_in_every_query",
    "A score must be a number": "test_scores_trec_eval_would_guess",
    "A UTF-8 byte-order mark": "test_byte_order_mark_skipped",
    "-B is this command's own": "test_bounds_option",
}


def test_every_departure_has_a_test():
    bullets = _departures()
    assert len(bullets) == len(DEPARTURE_TESTS)
    for start, name in DEPARTURE_TESTS.items():
        assert sum(b.startswith(start) for b in bullets) == 1, start
        assert callable(globals()[name])


def _run(tmp_path, capsys, qrels: str, run: str, *argv: str, raw: bytes = b""):
    (tmp_path / "qrels").write_bytes(raw + qrels.encode())
    (tmp_path / "run").write_bytes(raw + run.encode())
    try:
        status = main(["trec-eval", *argv, str(tmp_path / "qrels"), str(tmp_path / "run")])
    except SystemExit as exit_info:  # argparse's errors
        status = exit_info.code
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_custom_gains_sorted_by_value(tmp_path, capsys):
    # levels 1 and 2 gain 1.5 and 1.2; the run ranks level 1 first: the ideal order.
    # trec_eval truncates 1.5 - 1.2 to 0 in its comparison and may take them swapped.
    qrels = "q 0 a 1\nq 0 b 2\n"
    run = "q Q0 a 1 2 r\nq Q0 b 2 1 r\n"
    status, out, _ = _run(tmp_path, capsys, qrels, run, "-m", "ndcg.1=1.5,2=1.2")
    assert status == 0 and out == _line("ndcg_1=1.5,2=1.2", "all", 1.0) + "\n"


@pytest.mark.parametrize(
    "argv, qrels, match",
    [
        (["-m", "ndcg.1=2,1=3"], "q 0 a 1\n", "ndcg"),  # a repeated level
        (["-m", "ndcg.-1=2"], "q 0 a 1\n", "ndcg"),  # a negative level
        (["-m", "ndcg_cut.5", "-m", "ndcg_cut.10"], "q 0 a 1\n", "twice"),
        ([], "q 0 a 1.5\n", "is not an integer"),  # atol reads 1
        ([], "q 0 a x\n", "is not an integer"),  # atol reads 0
        (["-M", "0"], "q 0 a 1\n", "-M"),
    ],
)
def test_errors_where_trec_eval_guesses(tmp_path, capsys, argv, qrels, match):
    status, out, err = _run(tmp_path, capsys, qrels, "q Q0 a 1 1 r\n", *argv)
    assert status == 2 and out == "" and match in err


def test_query_the_run_lacks_left_out(tmp_path, capsys):
    # q2 is judged but not ranked: left out of the mean (1 for q1), 0 with -c
    qrels = "q1 0 a 1\nq2 0 b 1\n"
    run = "q1 Q0 a 1 1 r\n"
    assert _run(tmp_path, capsys, qrels, run, "-m", "ndcg")[1] == _line("ndcg", "all", 1) + "\n"
    out = _run(tmp_path, capsys, qrels, run, "-c", "-m", "ndcg")[1]
    assert out == _line("ndcg", "all", 0.5) + "\n"


def test_only_these_options(tmp_path, capsys):
    status, out, err = _run(
        tmp_path, capsys, "q 0 a 1\n", "q Q0 a 1 1 r\n", "-Z", "z"
    )  # trec_eval's
    assert status == 2 and out == "" and "-Z" in err
    # -l changes nothing here
    plain = _run(tmp_path, capsys, "q 0 a 1\nq 0 b 2\n", "q Q0 a 1 2 r\nq Q0 b 2 1 r\n")
    level = _run(tmp_path, capsys, "q 0 a 1\nq 0 b 2\n", "q Q0 a 1 2 r\nq Q0 b 2 1 r\n", "-l2")
    assert plain == level


def test_all_negative_query_scores_zero(tmp_path, capsys):
    # q2's judgments are all -1 (pooled, not judged): no positive ideal DCG, NDCG 0.
    # trec_eval 10.0 allocates max_rel + 1 levels for a query: here it scores 0 too (q1
    # allocated them), with q2 alone it stops with "Can't calculate measure" (exit 4),
    # and with a level -3 after q1 it crashes (segmentation fault)
    qrels = "q1 0 a 1\nq2 0 b -1\nq2 0 c -1\n"
    run = "q1 Q0 a 1 1 r\nq2 Q0 b 1 2 r\nq2 Q0 c 2 1 r\n"
    status, out, _ = _run(tmp_path, capsys, qrels, run, "-q", "-m", "ndcg")
    assert status == 0
    assert out.splitlines() == [
        _line("ndcg", "q1", 1.0),
        _line("ndcg", "q2", 0.0),
        _line("ndcg", "all", 0.5),
    ]


@pytest.mark.parametrize("where", ["run", "qrels"])
def test_duplicate_refused_in_every_query(tmp_path, capsys, where):
    # the duplicate is in q9, which is not evaluated (the qrels, or the run, lack it)
    qrels = "q1 0 a 1\n" + ("q9 0 z 1\nq9 0 z 0\n" if where == "qrels" else "")
    run = "q1 Q0 a 1 1 r\n" + ("q9 Q0 z 1 2 r\nq9 Q0 z 2 1 r\n" if where == "run" else "")
    status, out, err = _run(tmp_path, capsys, qrels, run)
    assert status == 2 and out == ""
    assert f"{where} lists document 'z' of query 'q9' more than once" in err


@pytest.mark.parametrize("score", ["1x", "0x10", "1_000"])
def test_scores_trec_eval_would_guess(tmp_path, capsys, score):
    status, out, err = _run(tmp_path, capsys, "q 0 a 1\n", f"q Q0 a 1 {score} r\n")
    assert status == 2 and out == ""
    assert f"the score '{score}' is not a number" in err


def test_byte_order_mark_skipped(tmp_path, capsys):
    # with the mark read as part of the id, q1 of each file would be '\ufeffq1'
    qrels = "q1 0 a 1\nq1 0 b 0\n"
    run = "q1 Q0 b 1 2 r\nq1 Q0 a 2 1 r\n"
    plain = _run(tmp_path, capsys, qrels, run, "-q", "-m", "ndcg")
    marked = _run(tmp_path, capsys, qrels, run, "-q", "-m", "ndcg", raw=b"\xef\xbb\xbf")
    assert plain == marked
    assert plain[1].splitlines()[0] == _line("ndcg", "q1", 0.6309)  # 1 / log2(3)


def test_bounds_option(tmp_path, capsys):
    # q: d1 (2) first, x (unjudged) second, d2 (0) third; the pool holds 2 and 0. By
    # hand, with levels {0, 2} for x: 0 gives 1; 2 gives (2 + 2 D2) / (2 + 2 D2) = 1 too,
    # so lower = upper = 1 and Judged@2 = 1/2. The names carry '@', unlike trec_eval's.
    qrels = "q 0 d1 2\nq 0 d2 0\n"
    run = "q Q0 d1 1 3 r\nq Q0 x 2 2 r\nq Q0 d2 3 1 r\n"
    status, out, _ = _run(tmp_path, capsys, qrels, run, "-B", "-m", "ndcg_cut.2")
    assert status == 0
    assert out.splitlines() == [
        _line("ndcg_cut_2", "all", 1.0),
        _line("ndcg_cut_2@judged", "all", 0.5),
        _line("ndcg_cut_2@lower", "all", 1.0),
        _line("ndcg_cut_2@upper", "all", 1.0),
    ]
    status, out, err = _run(tmp_path, capsys, qrels, run, "-B", "-J")
    assert status == 2 and out == "" and "-J removes" in err
