"""The ``trec-eval`` command and evaluate_run against trec_eval itself.

- trec_eval's own test files: set SKLEARN_NDCG_TREC_EVAL_TESTS to the ``test``
  directory of a trec_eval checkout (https://github.com/usnistgov/trec_eval;
  its files are not copied here). Each expected output is reproduced with the
  flags of trec_eval's Makefile (target ``quicktest``), ``-m all_trec`` being
  our default measures, and every ndcg and ndcg_cut line must come out
  exactly, in order.
- pytrec_eval (trec_eval's code as a Python extension, in the ``bench``
  extra): random runs and qrels with unjudged and unretrieved documents,
  queries missing on either side, tied scores and negative levels.
"""

import os
import re
import warnings
from pathlib import Path

import numpy as np
import pytest

from sklearn_ndcg import CONVENTIONS, TrecQrels, TrecRun, evaluate_run
from sklearn_ndcg.__main__ import main
from sklearn_ndcg._ir import measures_from, trec_eval_scores

TREC_EVAL_TESTS = os.environ.get("SKLEARN_NDCG_TREC_EVAL_TESTS")

# (expected output, qrels, run, flags), from trec_eval's Makefile
MAKEFILE_CASES = [
    ("out.test.a", "qrels.test", "results.test", []),
    ("out.test.a", "qrels.test.with-comments", "results.test", []),
    ("out.test.aq", "qrels.test", "results.test", ["-q"]),
    ("out.test.aqc", "qrels.test", "results.trunc", ["-q", "-c"]),
    ("out.test.aqcM", "qrels.test", "results.trunc", ["-q", "-c", "-M100"]),
    ("out.test.aql", "qrels.rel_level", "results.test", ["-q", "-l2"]),
    (
        "out.test.meas_params",
        "qrels.test",
        "results.test",
        ["-q", "-mndcg.1=3,2=9,4=4.5", "-mndcg_cut.10,20,23.4"],
    ),
]


def _is_ours(line: str) -> bool:
    """ndcg, ndcg_<level>=<gain>,... and ndcg_cut_<k>; not ndcg_rel, Rndcg and the rest."""
    name = line.split("\t", 1)[0].rstrip()
    return (
        name == "ndcg"
        or re.fullmatch(r"ndcg_cut_[0-9]+", name) is not None
        or (name.startswith("ndcg_") and "=" in name)
    )


@pytest.mark.skipif(
    TREC_EVAL_TESTS is None,
    reason="set SKLEARN_NDCG_TREC_EVAL_TESTS to the test directory of trec_eval",
)
@pytest.mark.parametrize("expected, qrels, run, flags", MAKEFILE_CASES)
def test_trec_eval_test_files(expected, qrels, run, flags, capsys):
    folder = Path(TREC_EVAL_TESTS)
    wanted = [line for line in (folder / expected).read_text().splitlines() if _is_ours(line)]
    status = main(["trec-eval", *flags, str(folder / qrels), str(folder / run)])
    got = capsys.readouterr().out.splitlines()
    matched = sum(a == b for a, b in zip(got, wanted))
    with capsys.disabled():
        print(f"\n{expected} ({' '.join([*flags, qrels, run])}): {matched}/{len(wanted)} lines")
    assert status == 0 and wanted
    assert got == wanted


# document ids of several lengths and cases, so that byte order matters
DOCNOS = np.array(["d1", "d10", "d2", "D2", "a", "B", "doc-11", "doc_9", "z", "Zz", "d01", "b"])


def _random_case(rng):
    """Random qrels and run: tuples of arrays and pytrec_eval's dicts."""
    qrels, run = [], []
    n_queries = int(rng.integers(1, 6))
    for i in range(n_queries + int(rng.integers(0, 2))):  # maybe a query of the run only
        qid = f"q{i}"
        judged = rng.choice(DOCNOS, size=int(rng.integers(1, 9)), replace=False)
        levels = rng.integers(-2, 4, size=judged.shape[0])
        levels[0] = max(levels[0], 0)  # trec_eval needs a level >= 0 in each query
        if i < n_queries:
            qrels += [(qid, d, int(v)) for d, v in zip(judged, levels)]
        if i > 0 and rng.random() < 0.15:
            continue  # a judged query without a ranking
        ranked = rng.choice(DOCNOS, size=int(rng.integers(1, DOCNOS.shape[0])), replace=False)
        scores = rng.integers(0, 3, size=ranked.shape[0]).astype(float)  # many ties
        if rng.random() < 0.3:
            scores = np.round(rng.normal(size=ranked.shape[0]), 1)
        run += [(qid, d, float(s)) for d, s in zip(ranked, scores)]
    qrels_dict, run_dict = {}, {}
    for qid, docno, level in qrels:
        qrels_dict.setdefault(qid, {})[docno] = level
    for qid, docno, score in run:
        run_dict.setdefault(qid, {})[docno] = score
    as_arrays = lambda rows: tuple(np.array(c, dtype=object) for c in zip(*rows))  # noqa: E731
    return as_arrays(qrels), as_arrays(run), qrels_dict, run_dict


def test_against_pytrec_eval(capsys):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(2024)
    n_cases = n_values = 0
    worst = 0.0
    names = ["ndcg", "ndcg_cut_5", "ndcg_cut_10"]
    while n_cases < 400:
        (q_qid, q_docno, level), (r_qid, r_docno, score), qrels_dict, run_dict = _random_case(rng)
        if not set(run_dict) & set(qrels_dict):
            continue  # nothing to evaluate
        n_cases += 1
        qrels = TrecQrels(q_qid, q_docno, level.astype(float))
        run = TrecRun(r_qid, r_docno, score.astype(float), np.full(r_qid.shape[0], "r", object))
        for judged_only in (False, True):
            plain = pytrec_eval.RelevanceEvaluator(
                qrels_dict, {"ndcg", "ndcg_cut.5,10"}, judged_docs_only_flag=judged_only
            ).evaluate(run_dict)
            qids = sorted(plain)
            expected = {name: np.array([plain[q][name] for q in qids]) for name in names}

            # the command's code path
            report = trec_eval_scores(
                qrels,
                run,
                measures_from([("ndcg", None), ("ndcg_cut", "5,10")]),
                judged_only=judged_only,
            )
            assert report.qid.tolist() == qids
            assert [name for name, _ in report.columns] == names
            pairs = [(values, expected[name]) for name, values in report.columns]

            # evaluate_run with the preset; with -J it drops negative levels too
            unjudged = "drop" if judged_only else "zero"
            for name, k in zip(names, (None, 5, 10)):
                with warnings.catch_warnings():  # random cases where nothing matches
                    warnings.filterwarnings("ignore", "no ranked document of the run is in")
                    result = evaluate_run(
                        run, qrels, k=k, unjudged=unjudged, **CONVENTIONS["trec_eval"]
                    )
                assert result.per_query.qid.tolist() == qids
                pairs.append((result.per_query.score, expected[name]))
                pairs.append((np.array([result.score]), np.array([expected[name].mean()])))
            means = [(np.array([v.mean()]), np.array([r.mean()])) for v, r in pairs[:3]]
            for values, reference in pairs + means:
                worst = max(worst, float(np.abs(values - reference).max()))
                n_values += values.shape[0]
    with capsys.disabled():
        print(f"\npytrec_eval: {n_cases} cases, {n_values} values compared, worst {worst:.3g}")
    assert worst <= 1e-12


TREC_EVAL_BINARY = None if TREC_EVAL_TESTS is None else Path(TREC_EVAL_TESTS).parent / "trec_eval"


@pytest.mark.skipif(
    TREC_EVAL_BINARY is None or not TREC_EVAL_BINARY.is_file(),
    reason="set SKLEARN_NDCG_TREC_EVAL_TESTS to the test directory of a built trec_eval",
)
def test_random_runs_against_the_binary(tmp_path, capsys):
    """The command's lines equal the real trec_eval's on random runs (issue 25)."""
    import subprocess

    rng = np.random.default_rng(25)
    n_files = n_lines = 0
    while n_files < 150:
        (q_qid, q_docno, level), (r_qid, r_docno, score), qrels_dict, run_dict = _random_case(rng)
        if not set(run_dict) & set(qrels_dict):
            continue
        n_files += 1
        lines = [f"{q} 0 {d} {v}\n" for q, d, v in zip(q_qid, q_docno, level)]
        (tmp_path / "qrels").write_text("".join(lines))
        lines = [f"{q} Q0 {d} 0 {s!r} r\n" for q, d, s in zip(r_qid, r_docno, score)]
        (tmp_path / "run").write_text("".join(lines))
        for flags in ([], ["-J"], ["-c"], ["-c", "-J"], ["-M", "3"]):
            argv = [*flags, "-q", "-m", "ndcg", "-m", "ndcg_cut.2,5,10"]
            argv += [str(tmp_path / "qrels"), str(tmp_path / "run")]
            real = subprocess.run([str(TREC_EVAL_BINARY), *argv], capture_output=True, text=True)
            if real.returncode:  # trec_eval 10.0 stops on a judged query without results
                continue
            assert main(["trec-eval", *argv]) == 0
            assert capsys.readouterr().out == real.stdout
            n_lines += len(real.stdout.splitlines())
    with capsys.disabled():
        print(f"\ntrec_eval binary: {n_files} random file pairs, {n_lines} lines identical")
    assert n_lines > 1000
