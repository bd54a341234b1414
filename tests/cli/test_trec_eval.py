"""The ``trec-eval`` command (``sklearn-ndcg trec-eval``, :mod:`sklearn_ndcg._cli._trec_eval`),
on the small run and qrels of tests/_trec_example.py, whose NDCG is computed by hand there.

trec_eval's own test files are compared in tests/common/test_trec_parity.py.
"""

import pytest
from _trec_example import Q1, Q1_JUDGED_ONLY, Q2, QRELS, RUN, D
from _trec_example import line as _line

from sklearn_ndcg.__main__ import main


def test_command_per_query_output(files, capsys):
    assert main(["trec-eval", "-q", "-m", "ndcg", "-m", "ndcg_cut.1", *files]) == 0
    out = capsys.readouterr().out
    # q1: nothing relevant at rank 1; q2: d5 (2) first, ideal 2
    assert out.splitlines() == [
        _line("ndcg", "q1", Q1),
        _line("ndcg_cut_1", "q1", 0.0),
        _line("ndcg", "q2", Q2),
        _line("ndcg_cut_1", "q2", 1.0),
        _line("ndcg", "all", (Q1 + Q2) / 2),
        _line("ndcg_cut_1", "all", 0.5),
    ]
    assert out.splitlines()[0] == "ndcg                  \tq1\t0.1377"


@pytest.mark.parametrize(
    "flags, expected",
    [
        ([], [_line("ndcg", "all", (Q1 + Q2) / 2)]),
        (["-c"], [_line("ndcg", "all", (Q1 + Q2) / 3)]),
        (["-J"], [_line("ndcg", "all", (Q1_JUDGED_ONLY + Q2) / 2)]),
        (["-c", "-q"], [_line("ndcg", q, v) for q, v in [("q1", Q1), ("q2", Q2), ("q3", 0)]]),
        # -M1: dX alone in q1, d5 alone in q2
        (["-M", "1", "-q"], [_line("ndcg", "q1", 0.0), _line("ndcg", "q2", 1.0)]),
        (["-l2", "-J"], [_line("ndcg", "all", (Q1_JUDGED_ONLY + Q2) / 2)]),
    ],
)
def test_command_flags(files, capsys, flags, expected):
    assert main(["trec-eval", "-mndcg", *flags, *files]) == 0
    assert capsys.readouterr().out.splitlines()[: len(expected)] == expected


def test_command_measure_parameters(files, capsys):
    # custom gains: level 0 gains -1 (counted in the DCG), level 3 gains 0.5; the
    # ideal holds the positive gains only: 1 (d2) and 0.5 (d3), in that order
    argv = ["trec-eval", "-q", "-m", "ndcg.0=-1,3=0.5", "-m", "ndcg_cut.2.9,1", *files]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    q1 = (-D[1] + D[2]) / (D[0] + 0.5 * D[1])  # dX 0, d1 -1, d2 1
    q2 = (2 * D[0] - D[1]) / (2 * D[0])  # d5 (2), then d4 (0, gain -1)
    assert lines[0] == _line("ndcg_0=-1,3=0.5", "q1", q1)
    assert lines[1:3] == [_line("ndcg_cut_1", "q1", 0.0), _line("ndcg_cut_2", "q1", 0.0)]
    assert lines[3] == _line("ndcg_0=-1,3=0.5", "q2", q2)
    assert lines[-3] == _line("ndcg_0=-1,3=0.5", "all", (q1 + q2) / 2)
    assert len(lines) == 9


def test_command_default_measures(files, capsys):
    assert main(["trec-eval", *files]) == 0
    names = [line.split("\t")[0].strip() for line in capsys.readouterr().out.splitlines()]
    assert names == ["ndcg"] + [f"ndcg_cut_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]


@pytest.mark.parametrize(
    "measure, match",
    [
        ("infAP", "unknown measure 'infAP'"),
        ("ndcg_rel", "unknown measure 'ndcg_rel'"),
        ("ndcg.", "no parameters after"),
        ("ndcg.1=x", "gain 'x' of level 1 is not a finite number"),
        ("ndcg.1", "'1' is not of the form level=gain"),
        ("ndcg.-1=2", "level -1 is negative"),
        ("ndcg.1=2,1=3", "level 1 more than one gain"),
        (
            "ndcg_cut.0,5",
            "the cutoffs of ndcg_cut.0,5 must be a non-empty list of distinct integers >= 1",
        ),
        (
            "ndcg_cut.5,5.5",
            "integers >= 1 (the cutoffs), e.g. [1, 5, 10]; got [5, 5]",
        ),
    ],
)
def test_command_bad_measure(files, capsys, measure, match):
    with pytest.raises(SystemExit) as exit_info:
        main(["trec-eval", "-m", measure, *files])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert "usage: sklearn-ndcg trec-eval" in err and match in err


@pytest.mark.parametrize(
    "qrels, run, argv, match",
    [
        (QRELS, RUN, ["-m", "ndcg_cut.5", "-m", "ndcg_cut.10"], "given twice with different"),
        (QRELS, RUN + "q1 Q0 d1 9 0.0 sys\n", [], "run lists document 'd1' of query 'q1'"),
        (QRELS, "q1 Q0 d1 1 nan sys\n", [], "score of document 'd1' of query 'q1' is not a"),
        (QRELS, "q1 Q0 d1 1\n", [], "run, line 1: 4 fields"),
        (QRELS, "q7 Q0 d1 1 1.0 sys\n", [], "no query of the run is in the qrels"),
        ("", RUN, [], "the qrels file has no entries"),
    ],
)
def test_command_bad_input(tmp_path, capsys, qrels, run, argv, match):
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    assert main(["trec-eval", *argv, str(tmp_path / "qrels"), str(tmp_path / "run")]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and match in captured.err
    assert captured.err.startswith("sklearn-ndcg trec-eval: ")


def test_command_missing_file(files, capsys):
    assert main(["trec-eval", files[0], files[1] + ".missing"]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "run.missing: No such file or directory" in err


def test_command_with_complete_queries_and_no_overlap(tmp_path, capsys):
    """-c evaluates every qrels query, even when the run has none of them (all 0)."""
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text("q7 Q0 d1 1 1.0 sys\n")
    paths = [str(tmp_path / "qrels"), str(tmp_path / "run")]
    assert main(["trec-eval", "-c", "-m", "ndcg", *paths]) == 0
    assert capsys.readouterr().out == _line("ndcg", "all", 0.0) + "\n"


def test_ignore_identical_ids_equals_the_binary_without_them(tmp_path, capsys):
    """--ignore-identical-ids: trec_eval's lines of the run without each query's own
    document (a query left without documents: as -c scores a judged query the run
    lacks, so the binary is given -c where one is emptied)."""
    import subprocess

    from _trec_dicts import trec_eval_binary

    binary = trec_eval_binary()
    if binary is None:
        pytest.skip("needs the trec_eval binary (SKLEARN_NDCG_TREC_EVAL)")
    qrels = "q1 0 d1 1\nq1 0 d2 2\nq1 0 q1 0\nq2 0 d1 1\nq3 0 d3 1\n"
    run = [("q1", "q1", 3.0), ("q1", "d1", 1.0), ("q1", "d2", 2.0), ("q2", "d1", 0.5)]
    run += [("q2", "q2", 1.0), ("q3", "d3", 1.0), ("q3", "q3", 2.0)]
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text("".join(f"{q} Q0 {d} 0 {s} r\n" for q, d, s in run))
    kept = [row for row in run if row[0] != row[1]]
    (tmp_path / "kept").write_text("".join(f"{q} Q0 {d} 0 {s} r\n" for q, d, s in kept))
    measures = ["-m", "map", "-m", "recip_rank", "-m", "P.1,5", "-m", "ndcg_cut.10"]
    for flags in ([], ["-c"], ["-J"], ["-M", "1"]):
        argv = [*flags, "-q", *measures]
        real = subprocess.run(
            [str(binary), *argv, str(tmp_path / "qrels"), str(tmp_path / "kept")],
            capture_output=True,
            text=True,
            check=True,
        )
        own = ["trec-eval", "--ignore-identical-ids", *argv]
        assert main([*own, str(tmp_path / "qrels"), str(tmp_path / "run")]) == 0
        assert capsys.readouterr().out == real.stdout
    # q2 emptied: scored 0, as the binary scores it with -c
    (tmp_path / "alone").write_text("q1 Q0 d1 0 1 r\nq2 Q0 q2 0 1 r\n")
    (tmp_path / "alone_kept").write_text("q1 Q0 d1 0 1 r\n")
    argv = ["-q", *measures, str(tmp_path / "qrels")]
    real = subprocess.run(
        [str(binary), "-c", *argv, str(tmp_path / "alone_kept")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert main(["trec-eval", "--ignore-identical-ids", *argv, str(tmp_path / "alone")]) == 0
    got = capsys.readouterr().out.splitlines()
    per_query = [line for line in real.stdout.splitlines() if "\tq3\t" not in line]
    assert [line for line in got if "\tall\t" not in line] == [
        line for line in per_query if "\tall\t" not in line
    ]
    assert "recip_rank            \tq2\t0.0000" in got


def test_levels_written_with_decimals_as_the_binary(tmp_path, capsys):
    """Qrels levels written 1.0 / 0.0 / 2.00 / -1.0: trec_eval's lines, byte for byte."""
    import subprocess

    from _trec_dicts import trec_eval_binary

    binary = trec_eval_binary()
    if binary is None:
        pytest.skip("needs the trec_eval binary (SKLEARN_NDCG_TREC_EVAL)")
    (tmp_path / "qrels").write_text(
        "q1 0 d1 1.0\nq1 0 d2 0.0\nq1 0 d3 2.00\nq2 0 d1 -1.0\nq2 0 d2 1.0\n"
    )
    run = "q1 Q0 d2 1 3 r\nq1 Q0 d1 2 2 r\nq1 Q0 d3 3 1 r\nq2 Q0 d1 1 2 r\nq2 Q0 d2 2 1 r\n"
    (tmp_path / "run").write_text(run)
    for flags in ([], ["-J"], ["-l", "2"]):
        argv = [*flags, "-q", "-m", "map", "-m", "ndcg", "-m", "P.2", "-m", "recip_rank"]
        argv += [str(tmp_path / "qrels"), str(tmp_path / "run")]
        real = subprocess.run([str(binary), *argv], capture_output=True, text=True, check=True)
        assert main(["trec-eval", *argv]) == 0
        assert capsys.readouterr().out == real.stdout
    (tmp_path / "half").write_text("q1 0 d1 0.5\n")
    assert main(["trec-eval", str(tmp_path / "half"), str(tmp_path / "run")]) == 2
    assert 'relevance="float"' in capsys.readouterr().err
