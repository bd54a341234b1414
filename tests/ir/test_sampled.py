"""read_sampled_qrels and evaluate_run(metric="infNDCG"): inputs and errors.

The values themselves are checked against sample_eval.pl in test_infndcg.py.
"""

import math

import numpy as np
import pytest

from sklearn_ndcg import SampledQrels, evaluate_run, read_sampled_qrels

# stratum A: a1 (level 1), a2 (0), a3 and a4 unsampled; stratum B: b1 (2), b2 (0)
QRELS = (
    ["q"] * 6,
    ["a1", "a2", "a3", "a4", "b1", "b2"],
    ["A"] * 4 + ["B"] * 2,
    [1, 0, -1, -1, 2, 0],
)
RUN = (["q"] * 4, ["a1", "a3", "b1", "x"], [4.0, 3.0, 2.0, 1.0])
BY_HAND = 3 / (2 + 1 / math.log2(3) + 1 / math.log2(4))  # see test_infndcg.test_by_hand


def test_read(tmp_path):
    path = tmp_path / "qrels"
    path.write_text("# pool\nq 0 a1 A 1\nq\t0 a3 A -1\n\nq 0 b1 B 2\n")
    qrels = read_sampled_qrels(path)
    assert isinstance(qrels, SampledQrels)
    assert qrels.qid.tolist() == ["q"] * 3 and qrels.docno.tolist() == ["a1", "a3", "b1"]
    assert qrels.stratum.tolist() == ["A", "A", "B"]
    assert qrels.relevance.tolist() == [1.0, -1.0, 2.0]


@pytest.mark.parametrize(
    "text, message",
    [
        ("q 0 a1 1\n", "line 1: 4 fields; expected 'qid iter docno stratum rel'"),
        ("q 0 a1 A 1\nq 0 a2 A 1.5\n", "line 2: the relevance '1.5' is not an integer"),
    ],
)
def test_read_malformed(tmp_path, text, message):
    path = tmp_path / "qrels"
    path.write_text(text)
    with pytest.raises(ValueError, match=f"{path}, {message}"):
        read_sampled_qrels(path)


def test_tuple_and_dataframe():
    assert evaluate_run(RUN, QRELS, metric="infNDCG").score == pytest.approx(BY_HAND, rel=1e-14)
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame(dict(zip(("qid", "docno", "stratum", "rel"), QRELS)))
    result = evaluate_run(
        pd.DataFrame(dict(zip(("qid", "docno", "score"), RUN))), frame, metric="infNDCG"
    )
    assert result.score == pytest.approx(BY_HAND, rel=1e-14)
    assert result.per_query.qid.tolist() == ["q"]
    with pytest.raises(ValueError, match="qrels has no column 'stratum' or 'category'"):
        evaluate_run(RUN, frame.drop(columns="stratum"), metric="infNDCG")


def test_missing_queries_zero():
    qrels = tuple(list(column) + [value] for column, value in zip(QRELS, ["r", "z", "S", 1]))
    assert evaluate_run(RUN, qrels, metric="infNDCG").per_query.qid.tolist() == ["q"]
    result = evaluate_run(RUN, qrels, metric="infNDCG", missing_queries="zero")
    assert result.per_query.qid.tolist() == ["q", "r"]
    assert result.per_query.score[1] == 0.0
    assert result.score == pytest.approx(BY_HAND / 2, rel=1e-14)


def test_inputs_not_mutated():
    qrels = tuple(
        np.array(column, dtype=object if i < 3 else float) for i, column in enumerate(QRELS)
    )
    copies = [column.copy() for column in qrels]
    evaluate_run(RUN, qrels, metric="infNDCG")
    for column, copy in zip(qrels, copies):
        np.testing.assert_array_equal(column, copy)


@pytest.mark.parametrize(
    "options",
    [
        {"k": 10},
        {"gain": "exponential"},
        {"ties": "docno"},
        {"unjudged": "drop"},
        {"bounds": True},
        {"zero_division": np.nan},
        {"discount": "reciprocal"},
    ],
)
def test_fixed_options_refused(options):
    name = next(iter(options))
    with pytest.raises(ValueError, match=f"{name}=.* cannot change them"):
        evaluate_run(RUN, QRELS, metric="infNDCG", **options)


@pytest.mark.parametrize(
    "qrels, error, message",
    [
        (QRELS[:2] + QRELS[3:], TypeError, "needs qrels with strata"),
        ((*QRELS[:2], ["A"] * 5, QRELS[3]), ValueError, "one of each per pooled document"),
        (
            (*QRELS[:2], ["A", "A", "C", "C", "B", "B"], QRELS[3]),
            ValueError,
            "stratum 'C' of query 'q'",
        ),
        ((*QRELS[:2], ["A", None, "A", "A", "B", "B"], QRELS[3]), ValueError, "outside the pool"),
        ((["z"] * 6, *QRELS[1:]), ValueError, "no query of the run is in the qrels"),
    ],
)
def test_bad_qrels(qrels, error, message):
    with pytest.raises(error, match=message):
        evaluate_run(RUN, qrels, metric="infNDCG")


def test_nan_score_refused():
    with pytest.raises(ValueError, match="run's score contains missing"):
        evaluate_run((RUN[0], RUN[1], [1.0, np.nan, 0.0, 0.0]), QRELS, metric="infNDCG")


def test_qrels_topics_with_a_leading_zero_are_refused():
    """sample_eval.pl strips leading zeros from the run's topics only: a qrels topic
    ``01`` is never evaluated by it; refused, named (issue 50)."""
    qrels = (["01", "2"], ["a", "b"], ["s", "s"], [1, 1])
    with pytest.raises(ValueError, match=r"leading zero \(\['01'\]\).*Write them without \('1'\)"):
        evaluate_run((["01"], ["a"], [1.0]), qrels, metric="infNDCG")


def test_run_topics_lose_their_leading_zeros():
    run = (["01", "01", "0"], ["a1", "b1", "x"], [2.0, 1.0, 1.0])
    qrels = (["1", "1", "0"], ["a1", "b1", "x"], ["A", "B", "A"], [1, 2, 1])
    result = evaluate_run(run, qrels, metric="infNDCG")
    assert result.per_query.qid.tolist() == ["0", "1"]  # '0' stays '0'
