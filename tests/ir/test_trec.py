"""TREC files, evaluate_run and the ``trec-eval`` command, on small made-up data.

Expected values by hand (log2 discount, ranks from 1): ``D[r - 1]`` is the
discount of rank r. trec_eval's own test files are compared in
test_trec_parity.py.
"""

import math
import subprocess
import sys

import numpy as np
import pytest

from sklearn_ndcg import (
    TrecQrels,
    TrecRun,
    evaluate_run,
    ndcg_score,
    positive_part_gain,
    read_trec_qrels,
    read_trec_run,
)
from sklearn_ndcg.__main__ import main

D = [1 / math.log2(r + 1) for r in range(1, 20)]

# q1: d3 (level 3) is judged but not retrieved, dX is retrieved but not judged;
# q2: d4 and d5 tie; q3 is judged but not in the run; q4 is in the run only
QRELS = """\
q1 0 d1 0
q1 0 d2 1
q1 0 d3 3
q2 0 d5 2
q2 0 d4 0
q3 0 d9 1
"""
RUN = """\
q1 Q0 dX 1 3.0 sys
q1 Q0 d1 2 2.0 sys
q1 Q0 d2 3 1.0 sys
q2 Q0 d4 1 1.0 sys
q2 Q0 d5 2 1.0 sys
q4 Q0 d1 1 1.0 sys
"""
# hand computation, unjudged dX gaining 0 at rank 1, d1 (0) at 2, d2 (1) at 3;
# ideal from the qrels: 3, 1
Q1 = D[2] / (3 * D[0] + D[1])
Q1_JUDGED_ONLY = D[1] / (3 * D[0] + D[1])  # dX removed: d2 moves to rank 2
Q2 = 1.0  # tie broken by decreasing docno: d5 (2) before d4 (0)


@pytest.fixture
def files(tmp_path):
    (tmp_path / "qrels").write_text(QRELS)
    (tmp_path / "run").write_text(RUN)
    return str(tmp_path / "qrels"), str(tmp_path / "run")


# ---------------------------------------------------------------- readers


def test_read_run_and_qrels(files):
    qrels, run = read_trec_qrels(files[0]), read_trec_run(files[1])
    assert isinstance(run, TrecRun) and isinstance(qrels, TrecQrels)
    assert run.qid.dtype == object and run.docno.dtype == object
    assert run.qid.tolist() == ["q1", "q1", "q1", "q2", "q2", "q4"]
    assert run.docno.tolist() == ["dX", "d1", "d2", "d4", "d5", "d1"]
    assert run.score.dtype == np.float64 and run.score.tolist() == [3, 2, 1, 1, 1, 1]
    assert run.run_id.tolist() == ["sys"] * 6
    assert qrels.relevance.dtype == np.float64
    assert qrels.relevance.tolist() == [0, 1, 3, 2, 0, 1]


def test_comments_blank_lines_and_whitespace(tmp_path):
    path = tmp_path / "run"
    path.write_bytes(
        b"# a comment\n"
        b"\n"
        b"   \t \n"
        b"  # an indented comment\n"
        b"q1\tQ0\td1\t1\t2.5\tsys  extra fields are ignored\r\n"
        b"q1 Q0  d2 2 -1e-3 sys\n"
        b"q1 Q0 d3 3 inf sys"  # no newline at the end
    )
    run = read_trec_run(path)
    assert run.docno.tolist() == ["d1", "d2", "d3"]
    assert run.score.tolist() == [2.5, -0.001, math.inf]
    qrels_path = tmp_path / "qrels"
    qrels_path.write_text("# judged by a\n1 0 d1 +2\n\n1 0 d2 -1\r\n")
    qrels = read_trec_qrels(qrels_path)
    assert qrels.qid.tolist() == ["1", "1"] and qrels.relevance.tolist() == [2, -1]


@pytest.mark.parametrize(
    "reader, text, match",
    [
        (read_trec_run, "q1 Q0 d1 1 2.0 sys\nq1 Q0 d2 2 1.0\n", "line 2: 5 fields"),
        (read_trec_run, "\n# c\nq1 Q0 d1 1 high sys\n", "line 3: the score 'high' is not"),
        (read_trec_qrels, "q1 0 d1 1\nq1 0 d2 1 extra\n", "line 2: 5 fields"),
        (read_trec_qrels, "q1 0 d1\n", "line 1: 3 fields"),
        (read_trec_qrels, "q1 0 d1 1\n\nq1 0 d2 1.5\n", "line 3: the relevance '1.5' is not"),
    ],
)
def test_malformed_line_names_file_and_line(tmp_path, reader, text, match):
    path = tmp_path / "input.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=f"input.txt, {match}"):
        reader(path)


def test_round_trip(tmp_path):
    rng = np.random.default_rng(0)
    qid = rng.choice(["301", "q-7", "Ä"], size=50).astype(object)
    docno = np.array([f"doc{i}" for i in range(50)], dtype=object)
    score = rng.normal(size=50) * 10.0 ** rng.integers(-20, 20, size=50)
    level = rng.integers(-1, 4, size=50)
    lines = (
        f"{q} Q0 {d} {r} {float(s)!r} run-{q}\n"
        for r, (q, d, s) in enumerate(zip(qid, docno, score))
    )
    (tmp_path / "run").write_text("".join(lines), encoding="utf-8")
    (tmp_path / "qrels").write_text(
        "".join(f"{q} 0 {d} {v}\n" for q, d, v in zip(qid, docno, level)), encoding="utf-8"
    )
    run, qrels = read_trec_run(tmp_path / "run"), read_trec_qrels(tmp_path / "qrels")
    assert run.qid.tolist() == qid.tolist() and run.docno.tolist() == docno.tolist()
    np.testing.assert_array_equal(run.score, score)  # exact: repr round-trips
    assert run.run_id.tolist() == [f"run-{q}" for q in qid]
    assert qrels.qid.tolist() == qid.tolist() and qrels.relevance.tolist() == level.tolist()


def test_empty_file(tmp_path):
    (tmp_path / "empty").write_text("# nothing\n\n")
    assert read_trec_run(tmp_path / "empty").qid.shape == (0,)
    assert read_trec_qrels(tmp_path / "empty").relevance.shape == (0,)


# ---------------------------------------------------------------- evaluate_run


def test_missed_relevant_document_counts_in_the_ideal():
    """Pool ideal (trec_eval) against list ideal: d3 (level 3) was not retrieved."""
    run = (["q"] * 2, ["d1", "d2"], [2.0, 1.0])
    qrels = (["q"] * 3, ["d1", "d2", "d3"], [0, 1, 3])
    # hand computation: DCG = 1 / log2(3); ideal of the qrels 3 + 1 / log2(3)
    expected = D[1] / (3 + D[1])
    assert round(expected, 3) == 0.174
    assert evaluate_run(run, qrels).score == pytest.approx(expected, rel=1e-15)
    list_based = ndcg_score([[0, 1]], [[2, 1]])  # ideal of the retrieved labels only
    assert round(list_based, 3) == 0.631


def test_evaluate_run_on_files(files):
    qrels, run = read_trec_qrels(files[0]), read_trec_run(files[1])
    result = evaluate_run(run, qrels, ties="docno")
    assert result.per_query.qid.tolist() == ["q1", "q2"]  # q3 not run, q4 not judged
    np.testing.assert_allclose(result.per_query.score, [Q1, Q2], rtol=1e-15)
    assert result.score == pytest.approx((Q1 + Q2) / 2, rel=1e-15)
    np.testing.assert_array_equal(result.per_query.weight, [1.0, 1.0])


def test_judged_only_and_missing_queries(files):
    qrels, run = read_trec_qrels(files[0]), read_trec_run(files[1])
    judged_only = evaluate_run(run, qrels, ties="docno", unjudged="drop")
    np.testing.assert_allclose(judged_only.per_query.score, [Q1_JUDGED_ONLY, Q2], rtol=1e-15)
    zero = evaluate_run(run, qrels, ties="docno", missing_queries="zero")
    assert zero.per_query.qid.tolist() == ["q1", "q2", "q3"]
    np.testing.assert_allclose(zero.per_query.score, [Q1, Q2, 0.0], rtol=1e-15)
    assert zero.score == pytest.approx((Q1 + Q2) / 3, rel=1e-15)


def test_ties_docno_and_first():
    """Tied scores: trec_eval orders by decreasing document id, "first" by input order."""
    qrels = (["q"] * 3, ["a", "B", "c"], [1, 0, 2])
    run = (["q"] * 3, ["a", "B", "c"], [1.0, 1.0, 1.0])
    # byte order: "B" < "a" < "c"; decreasing: c (2), a (1), B (0)
    docno = evaluate_run(run, qrels, ties="docno")
    assert docno.score == 1.0
    # input order: a (1), B (0), c (2)
    first = evaluate_run(run, qrels, ties="first")
    assert first.score == pytest.approx((D[0] + 2 * D[2]) / (2 * D[0] + D[1]), rel=1e-15)
    # the mean over the orders of the tied group: the mean gain 1 at every rank
    average = evaluate_run(run, qrels)
    assert average.score == pytest.approx(sum(D[:3]) / (2 * D[0] + D[1]), rel=1e-15)
    # ties="docno" is only a tie rule: distinct scores rank first
    run = (["q"] * 3, ["a", "B", "c"], [3.0, 2.0, 1.0])
    assert evaluate_run(run, qrels, ties="docno").score == evaluate_run(run, qrels).score


def test_cutoff_dcg_and_negative_levels():
    run = (["q"] * 3, ["d1", "d2", "d3"], [3.0, 2.0, 1.0])
    qrels = (["q"] * 4, ["d1", "d2", "d3", "d4"], [-1, 2, 1, 3])
    # positive part: gains 0, 2, 1 ranked; ideal 3, 2, 1 (the -1 gains 0)
    result = evaluate_run(run, qrels, gain=positive_part_gain, k=2)
    assert result.score == pytest.approx(2 * D[1] / (3 * D[0] + 2 * D[1]), rel=1e-15)
    dcg = evaluate_run(run, qrels, gain=positive_part_gain, metric="dcg")
    assert dcg.score == pytest.approx(2 * D[1] + D[2], rel=1e-15)
    with pytest.raises(ValueError, match="negative relevance levels .*positive_part_gain"):
        evaluate_run(run, qrels)


def test_every_input_kind_gives_the_same_result(files):
    qrels, run = read_trec_qrels(files[0]), read_trec_run(files[1])
    expected = evaluate_run(run, qrels, ties="docno")
    kinds = [(tuple(run[:3]), tuple(qrels)), ((list(run.qid), run.docno, list(run.score)), qrels)]
    pd = pytest.importorskip("pandas")
    run_frame = pd.DataFrame({"qid": run.qid, "docno": run.docno, "score": run.score})
    qrels_frame = pd.DataFrame({"qid": qrels.qid, "docno": qrels.docno, "relevance": qrels[2]})
    kinds.append((run_frame, qrels_frame))
    aliases = qrels_frame.rename(
        columns={"qid": "query_id", "docno": "doc_id", "relevance": "label"}
    )
    kinds.append((run_frame.rename(columns={"qid": "q_id", "docno": "docid"}), aliases))
    kinds.append((run_frame.astype({"qid": "string"}), qrels_frame.astype({"relevance": "Int64"})))
    for run_input, qrels_input in kinds:
        got = evaluate_run(run_input, qrels_input, ties="docno")
        assert got.score == expected.score
        assert got.per_query.qid.tolist() == expected.per_query.qid.tolist()
        np.testing.assert_array_equal(got.per_query.score, expected.per_query.score)


def test_polars_input(files):
    pl = pytest.importorskip("polars")
    qrels, run = read_trec_qrels(files[0]), read_trec_run(files[1])
    expected = evaluate_run(run, qrels, ties="docno")
    run_frame = pl.DataFrame({"qid": list(run.qid), "docno": list(run.docno), "score": run.score})
    qrels_frame = pl.DataFrame(
        {"query_id": list(qrels.qid), "doc_id": list(qrels.docno), "relevance": qrels[2]}
    )
    got = evaluate_run(run_frame, qrels_frame, ties="docno")
    assert got.score == expected.score
    assert got.per_query.qid.tolist() == expected.per_query.qid.tolist()


def test_numeric_ids_are_compared_as_strings():
    run = ([7, 7, 10], [1, 2, 1], [2.0, 1.0, 5.0])
    qrels = (["7", "7", "10"], ["1", "2", "1"], [0, 1, 1])
    result = evaluate_run(run, qrels)
    assert result.per_query.qid.tolist() == ["10", "7"]  # string order
    np.testing.assert_allclose(result.per_query.score, [1.0, D[1]], rtol=1e-15)


def test_inputs_are_not_changed():
    qid, docno = np.array(["q", "q"], dtype=object), np.array(["b", "a"], dtype=object)
    score, level = np.array([1.0, 1.0]), np.array([1.0, 0.0])
    copies = [a.copy() for a in (qid, docno, score, level)]
    evaluate_run((qid, docno, score), (qid, docno, level), ties="docno", unjudged="drop")
    for array, copy in zip((qid, docno, score, level), copies):
        np.testing.assert_array_equal(array, copy)


@pytest.mark.parametrize(
    "run, qrels, error, match",
    [
        (
            (["q", "q"], ["d", "d"], [1, 2]),
            None,
            ValueError,
            "run lists document 'd' of query 'q' more than once",
        ),
        (
            None,
            (["q", "q"], ["d", "d"], [1, 0]),
            ValueError,
            "qrels lists document 'd' of query 'q' more than once",
        ),
        ((["q"], ["d"]), None, TypeError, "tuple \\(qid, docno, score\\) .* got tuple of length 2"),
        ([["q"], ["d"], [1]], None, TypeError, "run must be a TrecRun, .* got list"),
        (None, (["q"], ["d"], [1], [0]), TypeError, "qrels must be a TrecQrels"),
        ((["q"], ["d", "e"], [1.0, 2.0]), None, ValueError, "run has 1 qid, 2 docno and 2"),
        (([], [], []), None, ValueError, "run is empty"),
        ((["q"], [None], [1.0]), None, ValueError, "run's docno has missing values"),
        ((["q"], ["d"], [np.nan]), None, ValueError, "run's score contains missing"),
        (None, (["q"], ["d"], [np.nan]), ValueError, "qrels' relevance contains missing"),
        ((["x"], ["d"], [1.0]), None, ValueError, "no query of the run is in the qrels"),
        (
            TrecQrels(np.array(["q"], dtype=object), np.array(["d"], dtype=object), np.ones(1)),
            None,
            TypeError,
            "run is a TrecQrels; a TrecRun was expected",
        ),
    ],
)
def test_bad_input(run, qrels, error, match):
    run = (["q", "q"], ["d", "e"], [2.0, 1.0]) if run is None else run
    qrels = (["q"], ["d"], [1]) if qrels is None else qrels
    with pytest.raises(error, match=match):
        evaluate_run(run, qrels)


def test_dataframe_without_a_column_lists_what_was_expected():
    pd = pytest.importorskip("pandas")
    run = pd.DataFrame({"query": ["q"], "docno": ["d"], "score": [1.0]})
    with pytest.raises(ValueError, match="run has no column 'qid' or 'query_id' or 'q_id'.*qid, "):
        evaluate_run(run, (["q"], ["d"], [1]))


# ---------------------------------------------------------------- the command


def _line(name, qid, value):
    return f"{name:<22}\t{qid}\t{value:6.4f}"


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
        ("map", "unknown measure 'map'"),
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


def test_unjudged_is_the_one_name_of_trec_eval_J(files):
    """evaluate_run takes unjudged= as the metrics do; judged_only= warns for one release."""
    qrels, run = read_trec_qrels(files[0]), read_trec_run(files[1])
    dropped = evaluate_run(run, qrels, ties="docno", unjudged="drop")
    with pytest.warns(FutureWarning, match="judged_only was renamed unjudged"):
        old = evaluate_run(run, qrels, ties="docno", judged_only=True)
    np.testing.assert_array_equal(old.per_query.score, dropped.per_query.score)
    with pytest.warns(FutureWarning, match="use unjudged='zero' instead of judged_only=False"):
        old = evaluate_run(run, qrels, ties="docno", judged_only=False)
    np.testing.assert_allclose(old.per_query.score, [Q1, Q2], rtol=1e-15)  # hand values above
    for unjudged in ("zero", "drop"):
        with pytest.raises(ValueError, match="judged_only is the deprecated name of unjudged"):
            evaluate_run(run, qrels, unjudged=unjudged, judged_only=True)


def test_judged_only_warning_points_at_the_caller(files):
    qrels, run = read_trec_qrels(files[0]), read_trec_run(files[1])
    with pytest.warns(FutureWarning) as record:
        evaluate_run(run, qrels, judged_only=True)
    assert record[0].filename == __file__


def test_ties_docno_is_refused_without_document_ids():
    """ties="docno" needs document ids: evaluate_run has them, the metrics do not."""
    from sklearn_ndcg import dcg_score, make_ndcg_scorer, ndcg_score, query_scores

    for call in (
        lambda: ndcg_score([[1, 0]], [[1, 1]], ties="docno"),
        lambda: dcg_score([[1, 0]], [[1, 1]], ties="docno"),
        lambda: query_scores([[1, 0]], [[1, 1]], ties="docno"),
        lambda: make_ndcg_scorer(ties="docno"),
    ):
        with pytest.raises(ValueError, match="ties='docno'.*needs document ids.*evaluate_run"):
            call()
    run = (["q", "q"], ["a", "b"], [1.0, 1.0])
    qrels = (["q", "q"], ["a", "b"], [0, 1])
    # trec_eval orders tied scores by decreasing docno: b (gain 1) first
    assert evaluate_run(run, qrels, ties="docno").score == 1.0
