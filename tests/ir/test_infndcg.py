"""infNDCG of stratified sampled pools against NIST's sample_eval.pl and trec_eval.

- sample_eval.pl (Perl 5; NIST's script, not copied here): set
  SKLEARN_NDCG_SAMPLE_EVAL to its path (CI sets it to ../shared/sample_eval/
  sample_eval.pl); the tests run it on random stratified qrels and runs and compare
  its ``-q`` infNDCG lines, printed to 4 decimals, with the command's and
  evaluate_run's.
- trec_eval (the binary beside SKLEARN_NDCG_TREC_EVAL_TESTS): on complete judgments
  (every pooled document sampled, one stratum) infNDCG is trec_eval's ndcg.
- A case computed by hand.
"""

import math
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from sklearn_ndcg import (
    JudgmentPool,
    evaluate_run,
    query_scores,
    read_sampled_qrels,
    read_trec_run,
)
from sklearn_ndcg.__main__ import main
from sklearn_ndcg._ir import TrecQrels
from sklearn_ndcg._ir._infndcg import inferred_ndcg
from sklearn_ndcg._metrics._inferred import perl_text

SAMPLE_EVAL = os.environ.get("SKLEARN_NDCG_SAMPLE_EVAL")
TREC_EVAL_TESTS = os.environ.get("SKLEARN_NDCG_TREC_EVAL_TESTS")
TREC_EVAL = None if TREC_EVAL_TESTS is None else Path(TREC_EVAL_TESTS).parent / "trec_eval"

needs_sample_eval = pytest.mark.skipif(
    SAMPLE_EVAL is None or not Path(SAMPLE_EVAL).is_file() or shutil.which("perl") is None,
    reason="set SKLEARN_NDCG_SAMPLE_EVAL to NIST's sample_eval.pl (and install Perl 5)",
)
needs_trec_eval = pytest.mark.skipif(
    TREC_EVAL is None or not TREC_EVAL.is_file(),
    reason="set SKLEARN_NDCG_TREC_EVAL_TESTS to the test directory of a built trec_eval",
)


def _random_pool(
    rng, *, n_queries=6, max_level=3, n_strata=3, rate=0.4, complete=False, absent=True
):
    """sample_eval.pl's qrels lines (qid, docno, stratum, rel) and run lines (qid, docno,
    score): several strata and levels, unsampled documents (rel -1), a query of the pool
    absent from the run, a query of the run absent from the pool, documents of the run
    outside the pool, and tied scores."""
    qrels, run = [], []
    for q in range(1, n_queries + 1):
        n_pooled = int(rng.integers(5, 60))
        docs = [f"d{j:03d}" for j in rng.choice(300, n_pooled + 20, replace=False)]
        pooled, others = docs[:n_pooled], docs[n_pooled:]
        strata = rng.integers(1, n_strata + 1, n_pooled)
        strata[:n_strata] = np.arange(1, n_strata + 1)  # every stratum present
        first = {}
        for doc, stratum in zip(pooled, strata):
            level = int(rng.integers(0, max_level + 1))
            sampled = complete or rng.random() < rate or stratum not in first
            first.setdefault(stratum, doc)  # the first document of each stratum is sampled
            qrels.append((str(q), doc, "1" if complete else str(stratum), level if sampled else -1))
        if q == 2 and absent:
            continue  # absent from the run
        n_ranked = int(rng.integers(1, n_pooled + 1))
        ranked = [*rng.choice(pooled, n_ranked, replace=False), *others[: rng.integers(0, 10)]]
        for doc in ranked:
            run.append((str(q), doc, float(rng.integers(0, 8))))  # many ties
    run.append(("99", "dx", 1.0))  # a query without a pool
    return qrels, run


def _write(tmp_path, qrels, run):
    qrels_path, run_path = tmp_path / "qrels", tmp_path / "run"
    qrels_path.write_text("".join(f"{q} 0 {d} {s} {r}\n" for q, d, s, r in qrels))
    run_path.write_text("".join(f"{q} Q0 {d} {i} {s!r} run\n" for i, (q, d, s) in enumerate(run)))
    return qrels_path, run_path


def _lines(text: str, measure: str) -> dict[str, str]:
    """The printed value of each query (and 'all') of one measure."""
    fields = (line.split() for line in text.splitlines())
    return {f[1]: f[2] for f in fields if f and f[0] == measure}


def _sample_eval(qrels_path, run_path) -> dict[str, str]:
    out = subprocess.run(
        ["perl", SAMPLE_EVAL, "-q", str(qrels_path), str(run_path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return _lines(out, "infNDCG")


def _query_scores(qrels, run, **options) -> dict[str, str]:
    """query_scores(metric="infNDCG") on the arrays of the same lines, printed as
    sample_eval.pl prints them."""
    qid, docno, stratum, level = zip(*qrels)
    pool = JudgmentPool(qid, level, stratum=stratum, docno=docno)
    run_qid, run_docno, score = zip(*run)
    result = query_scores(
        None, score, qid=run_qid, docno=run_docno, pool=pool, metric="infNDCG", **options
    )
    ours = {str(q): f"{v:6.4f}" for q, v in zip(result.qid, result.score)}
    ours["all"] = f"{result.score.mean():6.4f}"
    return ours


def _command(qrels_path, run_path, capsys, *flags) -> str:
    status = main(["trec-eval", "-q", "-m", "infNDCG", *flags, str(qrels_path), str(run_path)])
    assert status == 0
    return capsys.readouterr().out


@needs_sample_eval
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("max_level", [1, 3, 12])
def test_equals_sample_eval_on_random_pools(tmp_path, capsys, seed, max_level):
    """Each query's infNDCG and the mean, to sample_eval.pl's 4 printed decimals; levels
    up to 12 order by their text in the ideal DCG (10, 11, 12 between 1 and 2)."""
    rng = np.random.default_rng([36, seed, max_level])
    qrels, run = _random_pool(rng, max_level=max_level, n_strata=1 + seed % 4)
    qrels_path, run_path = _write(tmp_path, qrels, run)
    expected = _sample_eval(qrels_path, run_path)
    assert "2" not in expected and "99" not in expected and len(expected) > 3
    assert _lines(_command(qrels_path, run_path, capsys), "infNDCG") == expected
    result = evaluate_run(read_trec_run(run_path), read_sampled_qrels(qrels_path), metric="infNDCG")
    ours = {q: f"{v:6.4f}" for q, v in zip(result.per_query.qid, result.per_query.score)}
    ours["all"] = f"{result.score:6.4f}"
    assert ours == expected
    assert _query_scores(qrels, run) == expected


@needs_sample_eval
@pytest.mark.parametrize("levels", [[0, 1, 2, 3], [0, 2, 1]])
def test_equals_sample_eval_past_the_depth(tmp_path, capsys, levels):
    """Large pools: more than 1000 estimated relevant documents, so the ideal DCG stops at
    rank 1000, but each later level still adds one rank past it, as the script's loop
    does; the run ranks 1500 documents, of which the first 1000 count."""
    rng = np.random.default_rng(1000 + len(levels))
    qrels, run = [], []
    for q in ("1", "2", "3"):
        for j in range(2500):
            sampled = rng.random() < 0.5 or j < 3
            level = int(rng.choice(levels)) if sampled else -1
            qrels.append((q, f"doc{j}", str(j % 3), level))
        run.extend((q, f"doc{j}", float(rng.integers(0, 50))) for j in rng.permutation(2500)[:1500])
    qrels_path, run_path = _write(tmp_path, qrels, run)
    expected = _sample_eval(qrels_path, run_path)
    assert _lines(_command(qrels_path, run_path, capsys), "infNDCG") == expected
    assert _query_scores(qrels, run) == expected


def test_by_hand():
    """One query; stratum A: a1 (level 1), a2 (0), a3 and a4 unsampled; stratum B: b1
    (level 2), b2 (0). Ideal DCG: level 2 estimated 1 * 2/2 = 1 document, level 1
    1 * 4/2 = 2: 2/log2(2) + 1/log2(3) + 1/log2(4). Ranked a1, a3, b1, x (x outside
    the pool): 3 pooled ranked; in A 2 ranked, 1 sampled, DCG 1/log2(2); in B 1 ranked, 1
    sampled, DCG 2/log2(4). Estimated DCG 2 * 1 / 1 + 1 * 1 / 1 = 3."""
    pool_qid = ["q"] * 6
    docno = ["a1", "a2", "a3", "a4", "b1", "b2"]
    level = [1.0, 0.0, -1.0, -1.0, 2.0, 0.0]
    stratum = ["A", "A", "A", "A", "B", "B"]
    run = (["q"] * 4, ["a1", "a3", "b1", "x"], [4.0, 3.0, 2.0, 1.0])
    expected = 3 / (2 + 1 / math.log2(3) + 1 / math.log2(4))
    result = evaluate_run(run, (pool_qid, docno, stratum, level), metric="infNDCG")
    assert result.score == pytest.approx(expected, rel=1e-14)
    # the same through the pool's arrays: explicit sampled flags
    pool = JudgmentPool(pool_qid, level, stratum=stratum, sampled=np.array(level) >= 0)
    qrels = TrecQrels(np.array(pool_qid, object), np.array(docno, object), np.array(level))
    run_arrays = [np.array(run[0], object), np.array(run[1], object), np.array(run[2])]
    inferred = inferred_ndcg(*run_arrays, qrels, pool)
    assert inferred.qid.tolist() == ["q"] and inferred.value[0] == result.score
    # tied scores rank by decreasing docno: b1 before a3 before a1
    tied = evaluate_run(
        (run[0], run[1], [1.0] * 4), (pool_qid, docno, stratum, level), metric="infNDCG"
    )
    # x, b1 (rank 2), a3, a1 (rank 4): in A 2 ranked, 1 sampled; in B 1 and 1
    dcg = 2 * (1 / math.log2(5)) / 1 + 1 * (2 / math.log2(3)) / 1
    assert tied.score == pytest.approx(dcg / (2 + 1 / math.log2(3) + 0.5), rel=1e-14)


def test_levels_order_by_their_text():
    """Perl's ``reverse sort`` of the hash keys: 9, 2, 10, 1 (text, not value)."""
    texts = sorted((perl_text(level) for level in (1.0, 2.0, 9.0, 10.0)), reverse=True)
    assert texts == ["9", "2", "10", "1"]
    assert perl_text(0.5) == "0.5"


@needs_trec_eval
@pytest.mark.parametrize("seed", range(8))
def test_complete_judgments_equal_trec_eval_ndcg(tmp_path, capsys, seed):
    """Every pooled document sampled, one stratum: infNDCG is NDCG, and its lines equal
    trec_eval's ndcg lines exactly (also the mean; queries as trec_eval evaluates them)."""
    rng = np.random.default_rng([2008, seed])
    # trec_eval 10.0 stops on a query of the qrels that the run lacks: none here
    qrels, run = _random_pool(rng, complete=True, absent=False)
    qrels_path, run_path = _write(tmp_path, qrels, run)
    trec_qrels = tmp_path / "qrels.trec"
    trec_qrels.write_text("".join(f"{q} 0 {d} {r}\n" for q, d, _, r in qrels))
    real = subprocess.run(
        [str(TREC_EVAL), "-q", "-m", "ndcg", str(trec_qrels), str(run_path)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    ours = _command(qrels_path, run_path, capsys)
    assert _lines(ours, "infNDCG") == _lines(real, "ndcg")
    assert ours.replace("infNDCG", "ndcg   ") == real
    if SAMPLE_EVAL is not None and Path(SAMPLE_EVAL).is_file() and shutil.which("perl"):
        assert _sample_eval(qrels_path, run_path) == _lines(real, "ndcg")


def test_other_measures_read_the_same_qrels(tmp_path, capsys):
    """With infNDCG, ndcg reads the same file without strata (-1: pooled, not judged),
    as trec-eval reads the qrels without the stratum column."""
    qrels, run = _random_pool(np.random.default_rng(7))
    qrels_path, run_path = _write(tmp_path, qrels, run)
    trec_qrels = tmp_path / "qrels.trec"
    trec_qrels.write_text("".join(f"{q} 0 {d} {r}\n" for q, d, _, r in qrels))
    both = _command(qrels_path, run_path, capsys, "-m", "ndcg")
    assert main(["trec-eval", "-q", "-m", "ndcg", str(trec_qrels), str(run_path)]) == 0
    alone = capsys.readouterr().out
    assert _lines(both, "ndcg") == _lines(alone, "ndcg")
    assert set(_lines(both, "infNDCG")) == set(_lines(alone, "ndcg"))
    # -c: the pool's query the run lacks scores 0 and counts in the mean
    complete = _lines(_command(qrels_path, run_path, capsys, "-c"), "infNDCG")
    assert complete["2"] == "0.0000" and len(complete) == len(_lines(both, "infNDCG")) + 1


def test_not_a_default_measure(tmp_path, capsys):
    qrels_path, run_path = _write(tmp_path, [("1", "a", "0", 1)], [("1", "a", 1.0)])
    (tmp_path / "plain").write_text("1 0 a 1\n")
    assert main(["trec-eval", str(tmp_path / "plain"), str(run_path)]) == 0
    assert "infNDCG" not in capsys.readouterr().out


@pytest.mark.parametrize(
    "qrels_text, flags, message",
    [
        ("1 0 a 1\n", [], "line 1: 4 fields; expected 'qid iter docno stratum rel'"),
        ("1 0 a s 1\n1 0 b s\n", [], "line 2: 4 fields"),
        ("1 0 a s 1 x\n", [], "line 1: 6 fields"),
        ("1 0 a s x\n", [], "line 1: the relevance 'x' is not an integer"),
        ("1 0 a s 1\n1 0 b t -1\n", [], "stratum 't' of query '1' has no sampled document"),
        ("1 0 a s 1\n1 0 a s 0\n", [], "more than once"),
        ("1 0 a s 1\n", ["-J"], "-J cannot be combined"),
        ("1 0 a s 1\n", ["-M", "5"], "-M cannot be combined"),
        ("1 0 a s 1\n", ["-B"], "-B cannot be combined"),
        ("7 0 a s 1\n", [], "no query of the run is in the qrels"),
    ],
)
def test_bad_files(tmp_path, capsys, qrels_text, flags, message):
    """Errors name the file (and its line where it has one), exit status 2."""
    (tmp_path / "qrels").write_text(qrels_text)
    (tmp_path / "run").write_text("1 Q0 a 1 2.0 r\n1 Q0 b 2 1.0 r\n")
    argv = ["trec-eval", "-m", "infNDCG", *flags, str(tmp_path / "qrels"), str(tmp_path / "run")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err
    if "line" in message or "stratum" in message:
        assert str(tmp_path / "qrels") in err


def test_parameters_refused(capsys):
    with pytest.raises(SystemExit):
        main(["trec-eval", "-m", "infNDCG.5", "q", "r"])
    assert "infNDCG takes no parameters" in capsys.readouterr().err


def test_inputs_not_mutated():
    level = np.array([1.0, -1.0, 2.0])
    stratum = np.array(["s", "s", "t"], dtype=object)
    before = level.copy(), stratum.copy()
    pool = JudgmentPool(["q"] * 3, level, stratum=stratum)
    run = (np.array(["q", "q"], object), np.array(["b", "a"], object), np.array([1.0, 1.0]))
    qrels = TrecQrels(np.array(["q"] * 3, object), np.array(["a", "b", "c"], object), level)
    inferred_ndcg(*run, qrels, pool)
    np.testing.assert_array_equal(level, before[0])
    np.testing.assert_array_equal(stratum, before[1])


@needs_sample_eval
def test_zero_padded_run_topics_match_as_sample_eval_matches_them(tmp_path, capsys):
    """Issue 50: the run writes topics ``01``, ``02``, the qrels ``1``, ``2``; the
    script strips the run's leading zeros and evaluates both (it was dropped here)."""
    rng = np.random.default_rng(50)
    qrels, run = _random_pool(rng, n_queries=3, absent=False)
    padded = [(f"0{q}", d, s) for q, d, s in run]
    qrels_path, run_path = _write(tmp_path, qrels, padded)
    expected = _sample_eval(qrels_path, run_path)
    assert {"1", "2", "3"} <= set(expected)  # the script evaluates the padded topics
    assert _lines(_command(qrels_path, run_path, capsys), "infNDCG") == expected


@needs_sample_eval
def test_a_level_with_a_leading_zero_is_refused(tmp_path, capsys):
    """Issue 50: ``02`` is a grade of its own to sample_eval.pl (1.0361 where ``2`` gives
    1.0000 on these lines): neither value would be the other's, so the file is refused."""
    qrels = [("1", "a", "s", "02"), ("1", "b", "s", "1"), ("1", "c", "s", "2")]
    run = [("1", "a", 3.0), ("1", "c", 2.0), ("1", "b", 1.0)]
    qrels_path, run_path = _write(tmp_path, qrels, run)
    assert _sample_eval(qrels_path, run_path)["1"] == "1.0361"  # the script's own reading
    with pytest.raises(ValueError, match=r"line 1: the relevance '02' has a leading zero"):
        read_sampled_qrels(qrels_path)
    assert main(["trec-eval", "-m", "infNDCG", str(qrels_path), str(run_path)]) != 0
    assert "write 2" in capsys.readouterr().err
