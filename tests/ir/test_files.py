"""read_trec_run and read_trec_qrels (ir/_files.py): the float judgments of
``relevance="float"``; the readers' other cases are in test_trec.py and test_read.py."""

import numpy as np
import pytest

from sklearn_ndcg import evaluate_run, query_scores, read_trec_qrels, read_trec_run


def _write(tmp_path, qrels: str, run: str):
    (tmp_path / "qrels").write_text(qrels)
    (tmp_path / "run").write_text(run)
    return tmp_path / "qrels", tmp_path / "run"


QRELS = "q1 0 a 0.5\nq1 0 b 2.25\nq1 0 c 0\nq2 0 a 1\n"
RUN = "q1 Q0 a 1 3 r\nq1 Q0 b 2 2 r\nq1 Q0 c 3 2 r\nq2 Q0 a 1 1 r\n"


def test_integer_by_default_refuses_floats(tmp_path):
    qrels_path, _ = _write(tmp_path, QRELS, RUN)
    with pytest.raises(ValueError, match="line 1: the relevance '0.5' is not an integer"):
        read_trec_qrels(qrels_path)


def test_float_relevance_is_read_exactly(tmp_path):
    qrels_path, _ = _write(tmp_path, QRELS, RUN)
    qrels = read_trec_qrels(qrels_path, relevance="float")
    assert qrels.relevance.tolist() == [0.5, 2.25, 0.0, 1.0]
    assert qrels.docno.tolist() == ["a", "b", "c", "a"]


@pytest.mark.parametrize("bad", ["nan", "inf"])
def test_float_relevance_must_be_finite(tmp_path, bad):
    qrels_path, _ = _write(tmp_path, f"q1 0 a {bad}\n", RUN)
    with pytest.raises(ValueError, match="relevance must be a finite number|not a number"):
        read_trec_qrels(qrels_path, relevance="float")


@pytest.mark.parametrize("metric", ["ndcg", "ndcg_cut_2", "map", "P_2", "recip_rank", "recall_1"])
@pytest.mark.parametrize("ties", ["average", "docno"])
def test_float_qrels_from_a_file_equal_the_arrays(tmp_path, metric, ties):
    """The same judgments read with the option, passed as a table, and passed as arrays
    with a pool give the same values."""
    qrels_path, run_path = _write(tmp_path, QRELS, RUN)
    qrels, run = read_trec_qrels(qrels_path, relevance="float"), read_trec_run(run_path)
    from_file = evaluate_run(run, qrels, metric=metric, ties=ties)
    from_dicts = evaluate_run(
        {"q1": {"a": 3.0, "b": 2.0, "c": 2.0}, "q2": {"a": 1.0}},
        {"q1": {"a": 0.5, "b": 2.25, "c": 0.0}, "q2": {"a": 1.0}},
        metric=metric,
        ties=ties,
    )
    assert from_file.score == from_dicts.score
    if ties == "average":  # arrays: labels joined by hand, the pool of the judgments
        from sklearn_ndcg import JudgmentPool

        pool = JudgmentPool(["q1", "q1", "q1", "q2"], [0.5, 2.25, 0.0, 1.0])
        arrays = query_scores(
            [0.5, 2.25, 0.0, 1.0],
            [3.0, 2.0, 2.0, 1.0],
            qid=["q1", "q1", "q1", "q2"],
            pool=pool,
            metric=metric,
        )
        np.testing.assert_allclose(from_file.per_query.score, arrays.score, rtol=0, atol=1e-15)


@pytest.mark.parametrize(
    "text, expected",
    [("1.0", 1.0), ("2.00", 2.0), ("-1.0", -1.0), ("0.0", 0.0), ("3.", 3.0), ("+1.0", 1.0)],
)
def test_integral_decimal_levels_are_integers(tmp_path, text, expected):
    # trec_eval reads the level with atol: "2.00" is 2
    path = tmp_path / "qrels"
    path.write_text(f"q 0 a {text}\nq 0 b 1\n")
    assert read_trec_qrels(path).relevance.tolist() == [expected, 1.0]


@pytest.mark.parametrize("text", ["0.5", "1.5", "1e0", "-0.25"])
def test_other_decimal_levels_are_refused_naming_float(tmp_path, text):
    path = tmp_path / "qrels"
    path.write_text(f"q 0 a 1\nq 0 b {text}\n")
    message = rf"line 2: the relevance '{text}' is not an integer .*relevance=\"float\""
    with pytest.raises(ValueError, match=message):
        read_trec_qrels(path)
    with pytest.raises(ValueError, match=message):
        evaluate_run((["q"], ["a"], [1.0]), path)
    assert read_trec_qrels(path, relevance="float").relevance.tolist() == [1.0, float(text)]
