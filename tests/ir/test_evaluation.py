"""evaluate_run from file paths: the ``trec-eval`` command's path (its readers, its join,
the run evaluated block by block) gives exactly what evaluate_run gives on the tables
``read_trec_run`` and ``read_trec_qrels`` return, and the command's (and trec_eval's)
lines.

References: trec_eval's own test files and the NIST binary (set
SKLEARN_NDCG_TREC_EVAL_TESTS to the ``test`` directory of a built trec_eval), and the
hand-computed example of tests/_trec_example.py.
"""

import os
import subprocess
import warnings
from pathlib import Path

import numpy as np
import pytest
from _trec_example import Q1, Q2, QRELS, RUN

from sklearn_ndcg import (
    CONVENTIONS,
    evaluate_run,
    positive_part_gain,
    read_sampled_qrels,
    read_trec_qrels,
    read_trec_run,
)
from sklearn_ndcg.__main__ import main
from sklearn_ndcg._ir import _read

TREC_EVAL_TESTS = os.environ.get("SKLEARN_NDCG_TREC_EVAL_TESTS")
BINARY = None if TREC_EVAL_TESTS is None else Path(TREC_EVAL_TESTS).parent / "trec_eval"
TREC = CONVENTIONS["trec_eval"]


def _same(from_paths, from_tables):
    """The same queries, and every per-query field and the mean equal to float64's last
    bits (NaN where NaN): the engine sums a query's discounted gains with those of the
    queries of its block (a matrix product), so that which queries share a call can
    move the last bit, as in the command's streaming (tests/cli)."""
    assert type(from_paths.per_query) is type(from_tables.per_query)
    for name, got, expected in zip(
        from_paths.per_query._fields, from_paths.per_query, from_tables.per_query
    ):
        if name == "qid":
            assert got.tolist() == expected.tolist()
        else:
            np.testing.assert_allclose(got, expected, rtol=1e-14, atol=1e-15, err_msg=name)
    np.testing.assert_allclose(from_paths.score, from_tables.score, rtol=1e-14, atol=1e-15)


def _both(run_path, qrels_path, **options):
    """evaluate_run from the paths, and from the tables read from them."""
    from_paths = evaluate_run(str(run_path), Path(qrels_path), **options)
    tables = read_trec_run(run_path), read_trec_qrels(qrels_path)
    from_tables = evaluate_run(*tables, **options)
    _same(from_paths, from_tables)
    return from_paths


def _lines(name, result):
    """trec_eval's per-query lines of one measure, from evaluate_run's values."""
    return [
        f"{name:<22}\t{qid}\t{value:6.4f}"
        for qid, value in zip(result.per_query.qid, result.per_query.score)
    ]


def _command(flags, qrels_path, run_path, capsys):
    assert main(["trec-eval", *flags, str(qrels_path), str(run_path)]) == 0
    return capsys.readouterr().out.splitlines()


def test_hand_computed_example(files):
    qrels_path, run_path = files
    result = _both(run_path, qrels_path, **TREC)
    assert result.per_query.qid.tolist() == ["q1", "q2"]
    np.testing.assert_allclose(result.per_query.score, [Q1, Q2], rtol=1e-15)
    assert result.score == pytest.approx((Q1 + Q2) / 2, rel=1e-15)


# (qrels, run, evaluate_run's options, trec_eval's flags)
TREC_EVAL_CASES = [
    ("qrels.test", "results.test", {}, []),
    ("qrels.test", "results.test", {"unjudged": "drop"}, ["-J"]),
    ("qrels.test", "results.trunc", {"missing_queries": "zero"}, ["-c"]),
    ("qrels.test.with-comments", "results.test", {}, []),
    ("qrels.rel_level", "results.test", {}, []),
]


@pytest.mark.skipif(TREC_EVAL_TESTS is None, reason="set SKLEARN_NDCG_TREC_EVAL_TESTS")
@pytest.mark.parametrize("qrels, run, options, flags", TREC_EVAL_CASES)
def test_trec_eval_test_files(qrels, run, options, flags, capsys):
    folder = Path(TREC_EVAL_TESTS)
    qrels_path, run_path = folder / qrels, folder / run
    argv = [*flags, "-q", "-m", "ndcg", "-m", "ndcg_cut.10,100"]
    got = _command(argv, qrels_path, run_path, capsys)
    expected = []
    for name, k in (("ndcg", None), ("ndcg_cut_10", 10), ("ndcg_cut_100", 100)):
        result = _both(run_path, qrels_path, k=k, **options, **TREC)
        expected += _lines(name, result)
        mean = float(next(line for line in got if line.startswith(f"{name:<22}\tall")).split()[-1])
        assert result.score == pytest.approx(mean, abs=5e-5)
    per_query = [line for line in got if "\tall\t" not in line]
    assert sorted(per_query) == sorted(expected)
    if BINARY is not None and BINARY.is_file():
        real = subprocess.run(
            [str(BINARY), *argv, str(qrels_path), str(run_path)], capture_output=True, text=True
        )
        assert real.returncode == 0
        assert sorted(line for line in real.stdout.splitlines() if "\tall\t" not in line) == (
            sorted(expected)
        )


def _random_files(folder: Path, rng, *, grouped: bool, negative: bool):
    """A run with ties, queries the qrels lack and queries in any order (grouped or
    not), and qrels with queries the run lacks (and negative levels)."""
    run_lines = []
    for q in rng.permutation(30):
        docs = rng.choice(60, size=int(rng.integers(1, 25)), replace=False)
        scores = rng.integers(0, 5, docs.shape[0]) / 2  # many ties
        run_lines += [f"q{q:02d} Q0 d{d} 1 {s} sys\n" for d, s in zip(docs, scores)]
    if not grouped:
        order = rng.permutation(len(run_lines))
        run_lines = [run_lines[i] for i in order]
    low = -1 if negative else 0
    qrels_lines = [
        f"q{q:02d} 0 d{d} {rng.integers(low, 4)}\n"
        for q in range(5, 38)
        for d in rng.choice(60, size=int(rng.integers(1, 12)), replace=False)
    ]
    (folder / "run").write_text("".join(run_lines))
    (folder / "qrels").write_text("".join(qrels_lines))
    return folder / "run", folder / "qrels"


OPTIONS = {
    "trec_eval": TREC,
    "-J": {**TREC, "unjudged": "drop"},
    "-c": {**TREC, "missing_queries": "zero"},
    "-c -J k=5": {**TREC, "missing_queries": "zero", "unjudged": "drop", "k": 5},
    "bounds": {**TREC, "bounds": True, "k": 5},
    "bounds levels -c": {
        **TREC,
        "bounds": True,
        "levels": [0, 1, 2, 3, 4],
        "missing_queries": "zero",
    },
    "average ties": {"gain": positive_part_gain},
    "bounds average ties": {"gain": positive_part_gain, "bounds": True},
    "dcg first reciprocal": {
        "metric": "dcg",
        "ties": "first",
        "discount": "reciprocal",
        "gain": positive_part_gain,
    },  # fmt: skip
    "nan minmax": {"zero_division": np.nan, "normalize": "minmax", "k": 3},
    "pessimistic exponential": {"ties": "pessimistic", "gain": positive_part_gain, "k": 10},
}


@pytest.mark.parametrize("grouped", [True, False], ids=["grouped", "not grouped"])
@pytest.mark.parametrize("options", list(OPTIONS.values()), ids=list(OPTIONS))
def test_random_runs_paths_equal_tables(tmp_path, monkeypatch, grouped, options):
    """Exactly the same values, read in blocks of a few lines (many blocks) or whole."""
    rng = np.random.default_rng(38)
    for _case in range(3):
        run_path, qrels_path = _random_files(tmp_path, rng, grouped=grouped, negative=True)
        for chunk_size in (64, 1 << 20):
            monkeypatch.setattr(_read, "CHUNK_SIZE", chunk_size)
            _both(run_path, qrels_path, **options)


@pytest.mark.skipif(BINARY is None or not BINARY.is_file(), reason="no trec_eval binary")
def test_random_runs_against_the_binary(tmp_path, monkeypatch):
    """Per-query lines of evaluate_run from paths equal the NIST binary's."""
    rng = np.random.default_rng(3838)
    monkeypatch.setattr(_read, "CHUNK_SIZE", 200)
    n_lines = 0
    for _case in range(20):
        run_path, qrels_path = _random_files(tmp_path, rng, grouped=True, negative=True)
        for flags, options in (
            ([], {}),
            (["-J"], {"unjudged": "drop"}),
            (["-c"], {"missing_queries": "zero"}),
        ):
            argv = [*flags, "-q", "-m", "ndcg", "-m", "ndcg_cut.3"]
            real = subprocess.run(
                [str(BINARY), *argv, str(qrels_path), str(run_path)],
                capture_output=True,
                text=True,
            )
            if real.returncode:  # trec_eval 10.0 stops on a judged query without results
                continue
            expected = sorted(line for line in real.stdout.splitlines() if "\tall\t" not in line)
            got = []
            for name, k in (("ndcg", None), ("ndcg_cut_3", 3)):
                got += _lines(name, evaluate_run(run_path, qrels_path, k=k, **options, **TREC))
            assert sorted(got) == expected
            n_lines += len(expected)
    assert n_lines > 500


SAMPLED_QRELS = """\
q1 0 d1 top 2
q1 0 d2 top -1
q1 0 d3 deep 0
q1 0 d4 deep 1
q2 0 d5 top 1
q2 0 d6 deep -1
q2 0 d8 deep 0
q3 0 d7 top 1
"""
SAMPLED_RUN = """\
q1 Q0 d2 1 0.9 sys
q1 Q0 d1 2 0.8 sys
q1 Q0 d9 3 0.7 sys
q1 Q0 d4 4 0.7 sys
q2 Q0 d6 1 0.5 sys
q2 Q0 d5 2 0.2 sys
"""


@pytest.mark.parametrize("missing_queries, flags", [("drop", []), ("zero", ["-c"])])
def test_infndcg_from_paths(tmp_path, capsys, missing_queries, flags):
    (tmp_path / "qrels").write_text(SAMPLED_QRELS)
    (tmp_path / "run").write_text(SAMPLED_RUN)
    qrels_path, run_path = tmp_path / "qrels", tmp_path / "run"
    options = {"metric": "infNDCG", "missing_queries": missing_queries}
    from_paths = evaluate_run(run_path, qrels_path, **options)
    from_tables = evaluate_run(read_trec_run(run_path), read_sampled_qrels(qrels_path), **options)
    _same(from_paths, from_tables)
    got = _command([*flags, "-q", "-m", "infNDCG"], qrels_path, run_path, capsys)
    assert [line for line in got if "\tall\t" not in line] == _lines("infNDCG", from_paths)


def test_run_path_with_qrels_table_and_the_reverse(files):
    qrels_path, run_path = files
    expected = evaluate_run(read_trec_run(run_path), read_trec_qrels(qrels_path), **TREC)
    _same(evaluate_run(run_path, read_trec_qrels(qrels_path), **TREC), expected)
    _same(evaluate_run(read_trec_run(run_path), qrels_path, **TREC), expected)


def _write(tmp_path, run: str, qrels: str = QRELS):
    (tmp_path / "run").write_text(run)
    (tmp_path / "qrels").write_text(qrels)
    return tmp_path / "run", tmp_path / "qrels"


@pytest.mark.parametrize(
    "run, qrels, options, message",
    [
        ("", QRELS, {}, "run is empty; at least one document is needed"),
        ("# nothing\n", QRELS, {}, "run is empty"),
        (RUN, "", {}, "qrels is empty; at least one document is needed"),
        ("q9 Q0 d1 1 1 sys\n", QRELS, {}, "no query of the run is in the qrels .*'q9'.*'q1'"),
        (RUN + "q1 Q0 d1 9 0.5 sys\n", QRELS, {}, "run lists document 'd1' of query 'q1' more"),
        ("q9 Q0 d1 1 1 s\nq9 Q0 d1 2 0 s\n" + RUN, QRELS, {}, "run lists document 'd1' of "),
        (RUN, QRELS + "q1 0 d1 2\n", {}, "qrels lists document 'd1' of query 'q1' more"),
        ("q1 Q0 d1 1 nan sys\n", QRELS, {}, "score of document 'd1' of query 'q1' is nan"),
        (RUN, QRELS.replace("d4 0", "d4 -1"), {"gain": "linear"}, "negative relevance labels"),
        (RUN, QRELS, {**TREC, "levels": [0, 1]}, "levels is the judgment scale of bounds"),
        ("q1 Q0 d1 1 sys\n", QRELS, {}, r"run, line 1: 5 fields; expected 'qid Q0 docno"),
    ],
)
def test_errors_from_paths(tmp_path, run, qrels, options, message):
    run_path, qrels_path = _write(tmp_path, run, qrels)
    with pytest.raises(ValueError, match=message):
        evaluate_run(run_path, qrels_path, **options)


def test_nothing_matches_warns_from_paths(tmp_path):
    run_path, qrels_path = _write(tmp_path, "q1 Q0 zz 1 1 sys\n")
    with pytest.warns(UserWarning, match="the run's docno are str, the qrels' docno str"):
        result = evaluate_run(run_path, qrels_path, **TREC)
    assert result.per_query.score.tolist() == [0.0]


def test_inputs_not_mutated_and_paths_unchanged(tmp_path):
    run_path, qrels_path = _write(tmp_path, RUN)
    before = run_path.read_bytes(), qrels_path.read_bytes()
    qrels = read_trec_qrels(qrels_path)
    copies = [column.copy() for column in qrels]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        evaluate_run(run_path, qrels, **TREC)
    for column, copy in zip(qrels, copies):
        np.testing.assert_array_equal(column, copy)
    assert (run_path.read_bytes(), qrels_path.read_bytes()) == before


@pytest.mark.parametrize("run_as_path", [False, True])
@pytest.mark.parametrize("as_path", [False, True])
def test_negative_levels_name_their_count_first_row_and_query(tmp_path, as_path, run_as_path):
    # two negative levels; the first in the qrels' order is the line of d4 (row 3); the
    # message is the one of every door (query_scores and ndcg_score too)
    qrels_text = QRELS.replace("d4 0", "d4 -1") + "q2 0 d9 -3\n"
    lines = qrels_text.splitlines()
    negative = [i for i, line in enumerate(lines) if int(line.split()[3]) < 0]
    run_path, qrels_path = _write(tmp_path, RUN, qrels_text)
    qrels = qrels_path if as_path else read_trec_qrels(qrels_path)
    first = lines[negative[0]].split()[0]
    message = (
        rf"qrels has negative relevance labels \(min -3\) at {len(negative)} position\(s\) "
        rf"of the flattened input \(e.g. {negative[0]}, .*\); the first is in row "
        rf"{negative[0]}, of query '{first}'; gain=\"linear\" does not accept them .* pass "
        "gain=positive_part_gain"
    )
    with pytest.raises(ValueError, match=message):
        evaluate_run(run_path if run_as_path else read_trec_run(run_path), qrels, gain="linear")
