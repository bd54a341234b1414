"""The NDCG bounds at every edge (issue 34, problems 8-11): docno ties, every
``zero_division``, qrels with relevant documents only, negative levels.

Reference: brute force, every assignment of the levels to the unjudged documents of
small queries, NDCG written out by hand below (one order of the ranking: tied scores in
input order), the extremes over the assignments where NDCG is defined (with
``zero_division=np.nan`` an undefined one is left out; NaN for both if none is
defined). Checked against ``query_scores(bounds=True)``, ``evaluate_run(bounds=True)``
and the ``trec-eval -B`` report and lines.
"""

import itertools
import math
import warnings

import numpy as np
import pytest

from sklearn_ndcg import (
    CONVENTIONS,
    JudgmentPool,
    evaluate_run,
    query_scores,
    read_trec_qrels,
    read_trec_run,
)
from sklearn_ndcg.__main__ import main
from sklearn_ndcg._ir import measures_from, trec_eval_scores

ZERO_DIVISIONS = [0.0, 1.0, np.nan]


def _dcg(gains, k):
    return sum(g / math.log2(r + 2) for r, g in enumerate(gains[:k]))


def _ndcg_by_hand(ranked, pool_gains, k, zero_division):
    """NDCG@k of gains in ranked order over the ideal DCG@k of the pool's gains."""
    k = len(ranked) + len(pool_gains) if k is None else k
    ideal = _dcg(sorted(pool_gains, reverse=True), k)
    return _dcg(ranked, k) / ideal if ideal > 0 else zero_division


def _brute_force(ranked, pool_gains, levels, k, zero_division):
    """(lower, upper) over every assignment of ``levels`` (gains >= 0) to the None
    entries of ``ranked`` (gains in ranked order); an unjudged document joins the pool
    with its level."""
    unjudged = [i for i, g in enumerate(ranked) if g is None]
    values = []
    for assignment in itertools.product(levels, repeat=len(unjudged)):
        filled = list(ranked)
        for i, level in zip(unjudged, assignment):
            filled[i] = level
        values.append(_ndcg_by_hand(filled, pool_gains + list(assignment), k, zero_division))
    values = np.array(values, dtype=float)
    if np.isnan(values).all():
        return np.nan, np.nan
    return np.nanmin(values), np.nanmax(values)


def _random_query(rng, pool_levels):
    """A query: pool labels, and the ranked labels (None: unjudged), tie-free."""
    pool = rng.choice(pool_levels, size=int(rng.integers(1, 4))).tolist()
    n_ranked = int(rng.integers(1, 5))
    judged = rng.permutation(len(pool))[: int(rng.integers(0, min(len(pool), n_ranked) + 1))]
    ranked = [pool[i] for i in judged] + [None] * (n_ranked - len(judged))
    rng.shuffle(ranked)
    return pool, ranked


def _assert_same(got, expected, where):
    np.testing.assert_allclose(got, expected, rtol=0, atol=1e-12, equal_nan=True, err_msg=where)


@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
@pytest.mark.parametrize("pool_levels", [[0, 1, 2], [0, 0, 1], [1, 2], [1]])
def test_bounds_equal_brute_force_at_every_zero_division(zero_division, pool_levels):
    # [1] and [1, 2]: qrels of relevant documents only (MS MARCO); default levels add 0
    rng = np.random.default_rng(34)
    for case in range(150):
        pool, ranked = _random_query(rng, pool_levels)
        k = [None, 1, 2, 3][case % 4]
        explicit = case % 3 == 0
        levels = [0, 2] if explicit else sorted({0, *pool})
        result = query_scores(
            np.array([np.nan if g is None else g for g in ranked]),
            -np.arange(len(ranked), dtype=float),
            qid=np.zeros(len(ranked)),
            pool=JudgmentPool(np.zeros(len(pool)), pool),
            k=k,
            bounds=True,
            levels=levels if explicit else None,
            zero_division=zero_division,
        )
        low, high = _brute_force(ranked, pool, levels, k, zero_division)
        where = f"case {case}: pool {pool}, ranked {ranked}, k {k}, levels {levels}"
        _assert_same(result.lower, [low], where)
        _assert_same(result.upper, [high], where)
        if not np.isnan(result.score[0]):  # the unjudged at 0: one of the assignments
            assert low - 1e-12 <= result.score[0] <= high + 1e-12, where


def test_nan_zero_division_gives_both_bounds_or_neither():
    # problem 9, by hand: the pool's one document is non-relevant, the unjudged second
    # document is beyond k=1. Labelled 0: no ideal DCG, NDCG undefined; labelled 1:
    # ideal 1, DCG 0, NDCG 0. The only defined value is 0: lower = upper = 0 (the old
    # code gave upper NaN, lower 0).
    pool = JudgmentPool([1], [0])
    result = query_scores(
        [0, np.nan], [2, 1], qid=[1, 1], pool=pool, k=1, bounds=True, levels=[0, 1],
        zero_division=np.nan,
    )  # fmt: skip
    assert np.isnan(result.score[0])  # the unjudged at level 0
    assert result.lower.tolist() == [0.0] and result.upper.tolist() == [0.0]
    # with levels {0} alone NDCG is undefined under every assignment: both NaN
    result = query_scores(
        [0, np.nan], [2, 1], qid=[1, 1], pool=pool, k=1, bounds=True, levels=[0],
        zero_division=np.nan,
    )  # fmt: skip
    assert np.isnan(result.lower[0]) and np.isnan(result.upper[0])
    # zero_division=1: labelled 0 gives 1, the upper bound
    result = query_scores(
        [0, np.nan], [2, 1], qid=[1, 1], pool=pool, k=1, bounds=True, levels=[0, 1]
    )
    assert result.lower.tolist() == [0.0] and result.upper.tolist() == [0.0]
    result = query_scores(
        [0, np.nan], [2, 1], qid=[1, 1], pool=pool, k=1, bounds=True, levels=[0, 1],
        zero_division=1.0,
    )  # fmt: skip
    assert result.lower.tolist() == [0.0] and result.upper.tolist() == [1.0]


def test_relevant_only_qrels_hold_the_score_within_the_bounds():
    # problem 10, by hand: the qrels list d1 (1) only; the run ranks an unjudged document
    # first and d1 second. Levels {0, 1}: labelled 0, NDCG = D2 / 1; labelled 1, the
    # ideal 1 + D2 and the DCG 1 + D2, NDCG 1. The old default levels {1} gave [1, 1],
    # excluding the measured D2.
    d2 = 1 / math.log2(3)
    pool = JudgmentPool([1], [1])
    result = query_scores([np.nan, 1], [2, 1], qid=[1, 1], pool=pool, bounds=True)
    assert result.score[0] == pytest.approx(d2, abs=1e-15)
    assert result.lower[0] == pytest.approx(d2, abs=1e-15) and result.upper[0] == 1.0
    run = (["q", "q"], ["x", "d1"], [2.0, 1.0])
    qrels = (["q"], ["d1"], [1])
    got = evaluate_run(run, qrels, bounds=True, **CONVENTIONS["trec_eval"]).per_query
    assert got.lower[0] == pytest.approx(d2, abs=1e-15) and got.upper[0] == 1.0


@pytest.mark.parametrize("k", [None, 2])
def test_docno_refuses_unjudged_tied_with_judged(k):
    # problem 8: an unjudged document tied with a judged non-relevant one at the top;
    # their order (by document id, unknown here) changes Judged@2 and the upper bound,
    # so each input order is refused, with the message of tied labels elsewhere
    pool = JudgmentPool([1, 1], [1, 0])
    for y_true in ([0, np.nan, 1], [np.nan, 0, 1]):
        with pytest.raises(ValueError, match="ties='docno' .* needs document ids"):
            query_scores(
                y_true, [1, 1, 2], qid=[1, 1, 1], pool=pool, bounds=True, ties="docno", k=k
            )
    # a tie group beyond the cutoff, or of unjudged documents only, orders nothing
    # that counts: accepted, as ties="first"
    for y_true, y_score, cut in (
        ([1, 0, np.nan], [3, 1, 1], 1),
        ([1, np.nan, np.nan], [3, 1, 1], k),
    ):
        got, first = (
            query_scores(y_true, y_score, qid=[1, 1, 1], pool=pool, bounds=True, ties=t, k=cut)
            for t in ("docno", "first")
        )
        for field in ("score", "judged", "lower", "upper"):
            np.testing.assert_array_equal(getattr(got, field), getattr(first, field))


def test_docno_bounds_do_not_depend_on_the_input_order():
    # whatever ties="docno" accepts gives the same values for every order of the rows
    rng = np.random.default_rng(8)
    n_accepted = 0
    for case in range(200):
        pool, ranked = _random_query(rng, [0, 1, 2])
        y_true = np.array([np.nan if g is None else g for g in ranked])
        y_score = rng.integers(0, 2, len(ranked)).astype(float)  # ties
        options = dict(
            qid=np.zeros(len(ranked)), pool=JudgmentPool(np.zeros(len(pool)), pool),
            bounds=True, ties="docno", k=[None, 1, 2][case % 3],
        )  # fmt: skip
        outcomes = set()
        for order in itertools.permutations(range(len(ranked))):
            order = list(order)
            try:
                result = query_scores(y_true[order], y_score[order], **options)
            except ValueError:
                outcomes.add("refused")
                continue
            values = np.concatenate([result.score, result.judged, result.lower, result.upper])
            outcomes.add(tuple(np.round(values, 12).tolist()))
        assert len(outcomes) == 1, (case, ranked, y_score, outcomes)
        n_accepted += "refused" not in outcomes
    assert 20 < n_accepted < 200


def _files(rng, levels):
    qrels_lines, run_lines = [], []
    docs = [f"d{i}" for i in range(6)]
    for q in range(4):
        for d in rng.choice(docs, size=int(rng.integers(1, 4)), replace=False):
            qrels_lines.append(f"q{q} 0 {d} {int(rng.choice(levels))}\n")
        ranked = rng.choice(docs, size=int(rng.integers(1, 5)), replace=False)
        for d, s in zip(ranked, rng.integers(0, 3, ranked.shape[0])):  # ties
            run_lines.append(f"q{q} Q0 {d} 0 {s} r\n")
    return "".join(qrels_lines), "".join(run_lines)


def _brute_force_of_files(qrels_text, run_text, k, zero_division=0.0):
    """Per query (sorted ids) of the qrels the run holds: Judged@k, lower, upper, with
    trec_eval's order (decreasing score, then decreasing document id) and one rule for
    negative levels: in the pool but not judged, an unjudged document; the levels are
    0 and the qrels' levels that are not negative."""
    qrels = {}
    for line in qrels_text.splitlines():
        q, _, d, level = line.split()
        qrels.setdefault(q, {})[d] = int(level)
    levels = sorted({0, *(v for docs in qrels.values() for v in docs.values() if v >= 0)})
    run = {}
    for line in run_text.splitlines():
        q, _, d, _, s, _ = line.split()
        run.setdefault(q, []).append((float(s), d))
    out = {}
    for q in sorted(set(qrels) & set(run)):
        ranked = [d for _, d in sorted(run[q], reverse=True)]
        gains = [qrels[q][d] if qrels[q].get(d, -1) >= 0 else None for d in ranked]
        # the pool: the judged documents (a negative level gains 0: leaves the ideal alone)
        pool = [max(v, 0) for d, v in qrels[q].items() if not (v < 0 and d in ranked)]
        top = len(ranked) if k is None else min(k, len(ranked))
        judged = sum(g is not None for g in gains[:top]) / top
        out[q] = (judged, *_brute_force(gains, pool, levels, k, zero_division))
    return out


@pytest.mark.parametrize(
    "levels",
    [[0, 1, 2], [-1, 0, 1, 2], [-2, -1, 1], [1, 2]],
    ids=["plain", "neg", "neg-pos", "pos"],
)
def test_evaluate_run_and_the_command_equal_brute_force(tmp_path, levels):
    # problems 10 and 11: negative levels are unjudged in evaluate_run(bounds=True) as in
    # trec-eval -B; qrels of relevant documents only still bound with level 0
    rng = np.random.default_rng(len(levels) * 7 + levels[0])
    for case in range(12):
        qrels_text, run_text = _files(rng, levels)
        (tmp_path / "qrels").write_text(qrels_text)
        (tmp_path / "run").write_text(run_text)
        qrels, run = read_trec_qrels(tmp_path / "qrels"), read_trec_run(tmp_path / "run")
        report = dict(
            trec_eval_scores(qrels, run, measures_from([("ndcg_cut", "2,5")]), bounds=True).columns
        )
        for k in (2, 5):
            expected = _brute_force_of_files(qrels_text, run_text, k)
            want = np.array([expected[q] for q in sorted(expected)]).reshape(-1, 3)
            got = evaluate_run(run, qrels, k=k, bounds=True, **CONVENTIONS["trec_eval"]).per_query
            assert got.qid.tolist() == sorted(expected)
            for column, field in enumerate(("judged", "lower", "upper")):
                where = f"case {case}, k {k}, {field}:\n{qrels_text}\n{run_text}"
                _assert_same(getattr(got, field), want[:, column], where)
                _assert_same(report[f"ndcg_cut_{k}@{field}"], want[:, column], where)
            assert (got.lower - 1e-12 <= got.score).all() and (got.score <= got.upper + 1e-12).all()


@pytest.mark.parametrize("zero_division", ZERO_DIVISIONS)
def test_evaluate_run_bounds_at_every_zero_division(tmp_path, zero_division):
    rng = np.random.default_rng(91)
    for _ in range(8):
        qrels_text, run_text = _files(rng, [-1, 0, 0, 1])
        (tmp_path / "qrels").write_text(qrels_text)
        (tmp_path / "run").write_text(run_text)
        qrels, run = read_trec_qrels(tmp_path / "qrels"), read_trec_run(tmp_path / "run")
        options = {**CONVENTIONS["trec_eval"], "zero_division": zero_division}
        got = evaluate_run(run, qrels, k=2, bounds=True, **options).per_query
        expected = _brute_force_of_files(qrels_text, run_text, 2, zero_division)
        want = np.array([expected[q] for q in got.qid.tolist()]).reshape(-1, 3)
        _assert_same(got.lower, want[:, 1], f"{qrels_text}\n{run_text}")
        _assert_same(got.upper, want[:, 2], f"{qrels_text}\n{run_text}")


def test_command_lines_with_negative_levels(tmp_path, capsys):
    # problem 11's four lines, by hand: d2 (-1) is in the pool but not judged, so
    # Judged@2 = 1/2 in the command and in evaluate_run (the old evaluate_run said 1).
    # Levels {0, 1} for d2: 0 gives NDCG 1; 1 gives (1 + D2) / (1 + D2) = 1.
    (tmp_path / "qrels").write_text("q 0 d1 1\nq 0 d2 -1\n")
    (tmp_path / "run").write_text("q Q0 d1 1 2 r\nq Q0 d2 2 1 r\n")
    assert main(["trec-eval", "-q", "-B", "-m", "ndcg_cut.2", *(
        str(tmp_path / name) for name in ("qrels", "run"))]) == 0  # fmt: skip
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    values = {(name.strip(), q): float(v) for name, q, v in lines}
    assert values[("ndcg_cut_2@judged", "q")] == 0.5
    assert values[("ndcg_cut_2@lower", "q")] == values[("ndcg_cut_2@upper", "q")] == 1.0
    got = evaluate_run(
        read_trec_run(tmp_path / "run"), read_trec_qrels(tmp_path / "qrels"), k=2, bounds=True,
        **CONVENTIONS["trec_eval"],
    ).per_query  # fmt: skip
    assert got.judged.tolist() == [0.5]
    assert got.lower.tolist() == [1.0] and got.upper.tolist() == [1.0]


# Spark's evaluate_run and the trec-eval command's -B lines, against the same brute force


def _spark_frames(spark, qrels_text, run_text):
    run = [line.split() for line in run_text.splitlines()]
    qrels = [line.split() for line in qrels_text.splitlines()]
    return (
        spark.createDataFrame(
            [(q, d, float(s)) for q, _, d, _, s, _ in run], "qid string, docno string, score double"
        ),
        spark.createDataFrame(
            [(q, d, int(v)) for q, _, d, v in qrels], "qid string, docno string, relevance int"
        ),
    )


@pytest.mark.filterwarnings(*__import__("_spark_session").SPARK_WARNINGS)
def test_spark_evaluate_run_bounds_equal_brute_force(spark, tmp_path):
    # negative levels, qrels of relevant documents only, tied scores (docno order), every
    # zero_division; a few queries each, all cases in few Spark jobs
    from sklearn_ndcg import spark as ndcg_spark

    rng = np.random.default_rng(3411)
    cases = [
        (levels, zero_division)
        for levels in ([0, 1, 2], [-1, 0, 1, 2], [-2, -1, 1], [1, 2])
        for zero_division in ZERO_DIVISIONS
    ]
    for levels, zero_division in cases:
        qrels_text, run_text = _files(rng, levels)
        run, qrels = _spark_frames(spark, qrels_text, run_text)
        options = {**CONVENTIONS["trec_eval"], "zero_division": zero_division}
        got = ndcg_spark.evaluate_run(run, qrels, k=2, bounds=True, **options)
        rows = sorted(got.per_query.collect(), key=lambda row: row["qid"])
        expected = _brute_force_of_files(qrels_text, run_text, 2, zero_division)
        where = f"levels {levels}, zero_division {zero_division}:\n{qrels_text}\n{run_text}"
        assert [row["qid"] for row in rows] == sorted(expected), where
        for column, field in enumerate(("judged", "lower", "upper")):
            want = [expected[row["qid"]][column] for row in rows]
            _assert_same([row[field] for row in rows], want, f"{field}, {where}")
        # the same mean as the in-memory evaluate_run (which may warn that nothing matches)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            memory = evaluate_run(
                read_trec_run_text(tmp_path, run_text),
                read_trec_qrels_text(tmp_path, qrels_text),
                k=2,
                bounds=True,
                **options,
            )
        assert got.score == pytest.approx(memory.score, abs=1e-12, nan_ok=True), where


@pytest.mark.filterwarnings(*__import__("_spark_session").SPARK_WARNINGS)
def test_spark_evaluate_run_bounds_refusals(spark):
    from sklearn_ndcg import spark as ndcg_spark

    run, qrels = _spark_frames(spark, "q 0 d1 1\n", "q Q0 d1 0 1 r\n")
    with pytest.raises(ValueError, match='bounds=True needs unjudged="zero"'):
        ndcg_spark.evaluate_run(run, qrels, bounds=True, unjudged="drop")
    with pytest.raises(ValueError, match="levels is the judgment scale of bounds=True"):
        ndcg_spark.evaluate_run(run, qrels, levels=[0, 1])


def read_trec_run_text(tmp_path, text):
    (tmp_path / "run").write_text(text)
    return read_trec_run(tmp_path / "run")


def read_trec_qrels_text(tmp_path, text):
    (tmp_path / "qrels").write_text(text)
    return read_trec_qrels(tmp_path / "qrels")


def test_command_bounds_lines_equal_brute_force(tmp_path, capsys):
    # the trec-eval command's own -q -B lines (not only its report function); it prints
    # four decimals as trec_eval, and scores a query without relevant document 0
    rng = np.random.default_rng(77)
    for case in range(9):
        qrels_text, run_text = _files(rng, [[-1, 0, 1, 2], [1, 2], [0, 0, 1]][case % 3])
        (tmp_path / "qrels").write_text(qrels_text)
        (tmp_path / "run").write_text(run_text)
        args = ["trec-eval", "-q", "-B", "-m", "ndcg_cut.2"]
        assert main([*args, str(tmp_path / "qrels"), str(tmp_path / "run")]) == 0
        lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
        values = {(name.strip(), q): float(v) for name, q, v in lines}
        expected = _brute_force_of_files(qrels_text, run_text, 2)
        for q, want in expected.items():
            where = f"case {case}, query {q}:\n{qrels_text}\n{run_text}"
            got = [values[(f"ndcg_cut_2@{field}", q)] for field in ("judged", "lower", "upper")]
            np.testing.assert_allclose(got, want, rtol=0, atol=5e-5, err_msg=where)
