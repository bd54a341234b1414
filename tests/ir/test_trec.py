"""TREC files and evaluate_run, on small made-up data.

The example run and qrels, with NDCG by hand, are in tests/_trec_example.py; the
``trec-eval`` command is tested in tests/cli/test_trec_eval.py. trec_eval's own
test files are compared in test_trec_parity.py.
"""

import math

import numpy as np
import pytest
from _trec_example import Q1, Q1_JUDGED_ONLY, Q2, D

from sklearn_ndcg import (
    TrecQrels,
    TrecRun,
    evaluate_run,
    ndcg_score,
    positive_part_gain,
    read_trec_qrels,
    read_trec_run,
)

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
    with pytest.raises(ValueError, match="negative relevance labels .*positive_part_gain"):
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
    """ties="docno" needs document ids: evaluate_run has them, the metrics do not
    (they refuse tied documents of different labels; tests/ir/test_trec_presets.py)."""
    from sklearn_ndcg import dcg_score, ndcg_score, query_scores

    for call in (
        lambda: ndcg_score([[1, 0]], [[1, 1]], ties="docno"),
        lambda: dcg_score([[1, 0]], [[1, 1]], ties="docno"),
        lambda: query_scores([[1, 0]], [[1, 1]], ties="docno"),
    ):
        with pytest.raises(ValueError, match="ties='docno'.*needs document ids.*evaluate_run"):
            call()
    run = (["q", "q"], ["a", "b"], [1.0, 1.0])
    qrels = (["q", "q"], ["a", "b"], [0, 1])
    # trec_eval orders tied scores by decreasing docno: b (gain 1) first
    assert evaluate_run(run, qrels, ties="docno").score == 1.0


@pytest.mark.parametrize("table", ["run", "qrels"])
def test_tables_changed_in_place_are_read_as_they_are_now(files, table):
    # evaluate_run takes a reader's columns as the bytes they were read from, unless
    # changed since: q1 then ranks d3 (level 3; the run's dX, or the qrels' d3 renamed
    # dX) first, d1 (0) second, d2 (1) third; hand computation, ideal 3, 1
    qrels, run = read_trec_qrels(files[0]), read_trec_run(files[1])
    before = evaluate_run(run, qrels, ties="docno")
    np.testing.assert_allclose(before.per_query.score, [Q1, Q2], rtol=1e-15)
    if table == "run":
        run.docno[0] = "d3"
    else:
        qrels.docno[2] = "dX"
    after = evaluate_run(run, qrels, ties="docno")
    expected = (3 * D[0] + D[2]) / (3 * D[0] + D[1])
    np.testing.assert_allclose(after.per_query.score, [expected, Q2], rtol=1e-15)


def test_empty_rankings_of_dicts_equal_pytrec_eval():
    # issue 56: pytrec_eval scores q1 (judged, empty ranking) 0; q3 (unjudged) left out
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q1": {"a": 1}, "q2": {"a": 1, "b": 0}}
    run = {"q1": {}, "q2": {"b": 2.0, "a": 1.0}, "q3": {}}
    names = {"map": "map", "ndcg_cut_10": "ndcg_cut.10", "recip_rank": "recip_rank"}
    names["P_5"] = "P.5"
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(names.values())).evaluate(run)
    results = evaluate_run(run, qrels, metric=list(names), ties="docno")
    for name, result in results.items():
        assert result.per_query.qid.tolist() == ["q1", "q2"]
        reference = [expected[q][name] for q in ("q1", "q2")]
        np.testing.assert_allclose(result.per_query.score, reference, atol=1e-12)
        assert result.score == pytest.approx(np.mean(reference), abs=1e-12)
    assert evaluate_run(run, qrels, metric="map").score == 0.25  # hand: (0 + 1/2) / 2


def test_ignore_identical_ids_at_every_door(tmp_path):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q1": {"d1": 1, "d2": 2}, "q2": {"d1": 1}, "q3": {"q3": 1}}
    run = {"q1": {"q1": 3.0, "d1": 1.0, "d2": 2.0}, "q2": {"q2": 1.0}, "q3": {"q3": 1.0}}
    by_hand = {q: {d: s for d, s in docs.items() if d != q} for q, docs in run.items()}
    expected = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(by_hand)
    reference = [expected[q]["recip_rank"] for q in ("q1", "q2", "q3")]
    assert reference == [1.0, 0.0, 0.0]  # q2 and q3 emptied: 0, as pytrec_eval
    rows = [(q, d, s) for q, docs in run.items() for d, s in docs.items()]
    lines = [f"{q} Q0 {d} 0 {s!r} r\n" for q, d, s in rows]
    (tmp_path / "run").write_text("".join(lines))
    tables = tuple(list(column) for column in zip(*rows))
    for given in (run, tables, tmp_path / "run"):
        result = evaluate_run(
            given, qrels, metric="recip_rank", ties="docno", ignore_identical_ids=True
        )
        assert result.per_query.qid.tolist() == ["q1", "q2", "q3"]
        np.testing.assert_allclose(result.per_query.score, reference, atol=1e-12)
    assert run["q1"] == {"q1": 3.0, "d1": 1.0, "d2": 2.0}  # not modified
    plain = evaluate_run(run, qrels, metric="recip_rank", ties="docno")
    assert plain.per_query.score.tolist() == [0.5, 0.0, 1.0]  # hand: q1's d2 at rank 2
