"""The ``trec-eval`` command's measures beside NDCG (map, map_cut, recip_rank, P,
recall, success) against the real trec_eval 10.0 binary, byte for byte: random runs
with tied scores and unjudged documents under -q, -c, -J, -M and -l, and trec_eval's own
test runs (its ``test`` folder). Skipped unless SKLEARN_NDCG_TREC_EVAL_TESTS names the
``test`` directory of a built trec_eval (as tests/common/test_trec_parity.py)."""

import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

from sklearn_ndcg.__main__ import main

TESTS = os.environ.get("SKLEARN_NDCG_TREC_EVAL_TESTS")
BINARY = None if TESTS is None else Path(TESTS).parent / "trec_eval"
needs_binary = pytest.mark.skipif(
    BINARY is None or not BINARY.is_file(),
    reason="set SKLEARN_NDCG_TREC_EVAL_TESTS to the test directory of a built trec_eval",
)

MEASURES = ["-m", "map", "-m", "recip_rank", "-m", "P.1,2,5", "-m", "recall.2,10"]
MEASURES += ["-m", "success.1,3", "-m", "map_cut.2,5", "-m", "ndcg_cut.3"]
FLAGS = [[], ["-J"], ["-c"], ["-l", "2"], ["-M", "3"], ["-c", "-J", "-l", "2"]]


def _compare(argv, capsys) -> int:
    real = subprocess.run([str(BINARY), *argv], capture_output=True, text=True)
    if real.returncode:  # trec_eval 10.0 stops on a judged query without results
        return 0
    assert main(["trec-eval", *argv]) == 0
    assert capsys.readouterr().out == real.stdout, argv
    return len(real.stdout.splitlines())


@needs_binary
def test_random_runs_with_ties(tmp_path, capsys):
    rng = np.random.default_rng(49)
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    n_lines = 0
    for _ in range(20):
        if not _random_files(rng, qrels, run):
            continue
        for flags in FLAGS:
            n_lines += _compare([*flags, "-q", *MEASURES, str(qrels), str(run)], capsys)
    assert n_lines > 1000


@needs_binary
@pytest.mark.parametrize(
    "qrels, run, flags",
    [
        ("qrels.test", "results.test", ["-q"]),
        ("qrels.test", "results.trunc", ["-q", "-c"]),
        ("qrels.test", "results.trunc", ["-q", "-c", "-M100"]),
        ("qrels.rel_level", "results.test", ["-q", "-l2"]),
        ("qrels.test", "results.test", ["-J"]),
    ],
)
def test_trec_eval_test_runs(qrels, run, flags, capsys):
    """trec_eval's own runs, every measure with its default cutoffs."""
    folder = Path(TESTS)
    measures = ["-m", "map", "-m", "recip_rank", "-m", "P", "-m", "recall"]
    measures += ["-m", "map_cut", "-m", "success", "-m", "ndcg_cut"]
    argv = [*flags, *measures, str(folder / qrels), str(folder / run)]
    assert _compare(argv, capsys) > 0


OFFICIAL = ["-m", "official", "-m", "iprec_at_recall.0.25,0.33,1", "-m", "num_rel_ret"]
# trec_eval's own flags of its official set; -n with -q prints the queries' lines alone
OFFICIAL_FLAGS = [[], ["-J"], ["-c"], ["-l", "2"], ["-M", "3"], ["-c", "-J", "-l", "2"], ["-n"]]


def _random_files(rng, qrels, run, levels=(-1, 4)):
    judged, ranked = [], []
    for q in range(rng.integers(1, 5)):
        for d in range(rng.integers(1, 12)):
            if rng.random() < 0.7:
                judged.append(f"{q} 0 d{d} {rng.integers(*levels)}\n")
            if rng.random() < 0.8:  # few distinct scores: many ties
                ranked.append(f"{q} Q0 d{d} 0 {rng.integers(0, 4)} run{q}\n")
    qrels.write_text("".join(judged))
    run.write_text("".join(ranked))
    return bool(judged and ranked)


@needs_binary
def test_official_set_random_runs(tmp_path, capsys):
    """-m official (runid, num_q, the counts, gm_map, Rprec, bpref, iprec_at_recall...)
    byte for byte, with -q, -c, -J, -M, -l and -n."""
    rng = np.random.default_rng(56)
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    n_lines = 0
    for _ in range(25):
        if not _random_files(rng, qrels, run):
            continue
        for flags in OFFICIAL_FLAGS:
            n_lines += _compare([*flags, "-q", *OFFICIAL, str(qrels), str(run)], capsys)
    assert n_lines > 2000


@needs_binary
@pytest.mark.parametrize("measure", [["-m", "rbp"], ["-m", "rbp.p=0.95"]])
def test_rbp_random_runs(measure, tmp_path, capsys):
    """rbp alone on graded levels (trec_eval normalizes gains by the largest level); with
    every official measure on levels 0 and 1 (m_rbp.c's normalization starts from
    uninitialized values, which only binary levels cannot reach)."""
    rng = np.random.default_rng(57)
    qrels, run = tmp_path / "qrels", tmp_path / "run"
    n_lines = 0
    for _ in range(15):
        if _random_files(rng, qrels, run):
            for flags in OFFICIAL_FLAGS:
                n_lines += _compare([*flags, "-q", *measure, str(qrels), str(run)], capsys)
        if _random_files(rng, qrels, run, levels=(0, 2)):
            argv = ["-q", *OFFICIAL, *measure, str(qrels), str(run)]
            n_lines += _compare(argv, capsys)
    assert n_lines > 300


@needs_binary
@pytest.mark.parametrize(
    "qrels, run, flags",
    [
        ("qrels.test", "results.test", []),
        ("qrels.test", "results.test", ["-q"]),
        ("qrels.test", "results.trunc", ["-q", "-c"]),
        ("qrels.test", "results.trunc", ["-q", "-c", "-M100"]),
        ("qrels.rel_level", "results.test", ["-q", "-l2"]),
        ("qrels.test", "results.test", ["-J", "-q"]),
        ("qrels.test", "results.test", ["-n", "-q"]),
    ],
)
def test_official_set_test_runs(qrels, run, flags, capsys):
    """trec_eval's own runs: -m official prints what the binary prints without -m."""
    folder = Path(TESTS)
    files = [str(folder / qrels), str(folder / run)]
    real = subprocess.run([str(BINARY), *flags, *files], capture_output=True, text=True)
    assert main(["trec-eval", *flags, "-m", "official", *files]) == 0
    assert capsys.readouterr().out == real.stdout
    assert _compare([*flags, "-m", "recip_rank.5", "-m", "bpref", "-m", "rbp", *files], capsys)
