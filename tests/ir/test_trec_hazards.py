"""Pool and TREC inputs that used to become wrong numbers without a word (issue 25).

Each test fails on the code before the fix: the hazard is refused with a message
naming the argument at fault, warned about, or computed right. Reference values
are computed by hand in the tests.
"""

import math
import warnings

import numpy as np
import pytest

from sklearn_ndcg import (
    JudgmentPool,
    evaluate_run,
    ndcg_score,
    query_scores,
    read_trec_qrels,
    read_trec_run,
)
from sklearn_ndcg._ir import measures_from, trec_eval_scores

D2, D3 = 1 / math.log2(3), 1 / math.log2(4)  # discounts of ranks 2 and 3

# ------------------------------------------ min-max NDCG of a query never ranked


def test_unranked_query_scores_zero_with_minmax_and_a_negative_pool():
    # query 2 is judged (levels -1 and 1) but not ranked: "zero" scores it 0. The
    # worst DCG of its pool is -1 + 1 * D2 < 0, so a DCG of 0 used to give
    # (0 - worst) / (ideal - worst) = 0.39 instead.
    pool = JudgmentPool(qid=[1, 1, 2, 2], y_true=[1, 0, -1, 1])
    result = query_scores(
        [1.0, 0.0], [2, 1], qid=[1, 1], pool=pool, normalize="minmax", missing_queries="zero"
    )
    assert result.qid.tolist() == [1, 2]
    assert result.score.tolist() == [1.0, 0.0]


def test_unranked_query_scores_zero_with_minmax_in_evaluate_run():
    # plain TREC qrels: level -1 in query q2, which the run lacks
    run = (["q1", "q1"], ["a", "b"], [2.0, 1.0])
    qrels = (["q1", "q1", "q2", "q2"], ["a", "b", "c", "d"], [1, 0, -1, 1])
    result = evaluate_run(run, qrels, normalize="minmax", missing_queries="zero")
    assert result.per_query.qid.tolist() == ["q1", "q2"]
    assert result.per_query.score.tolist() == [1.0, 0.0]
    assert result.score == 0.5


# ------------------------------------------------- query ids compared exactly

BIG = 2**53  # float64 cannot tell BIG from BIG + 1


@pytest.mark.parametrize(
    "ranking_dtype, pool_dtype",
    [(np.int64, np.uint64), (np.uint64, np.int64), (np.uint64, np.int32)],
)
def test_query_ids_beyond_float64_precision_match_exactly(ranking_dtype, pool_dtype):
    # the ranking's query BIG + 1 is not in the pool; BIG is, with one relevant
    # document. Through float64 the two merged, and BIG + 1 was scored against BIG.
    small = pool_dtype is np.int32
    first, second = (7, 8) if small else (BIG, BIG + 1)
    pool = JudgmentPool(qid=np.array([first, first], dtype=pool_dtype), y_true=[1, 0])
    qid = np.array([first, first, second, second], dtype=ranking_dtype)
    result = query_scores([0, 1, 1, 1], [2, 1, 2, 1], qid=qid, pool=pool)
    assert result.qid.dtype == ranking_dtype  # the ranking's ids, not float64
    assert result.qid.tolist() == [first]
    assert result.score.tolist() == pytest.approx([D2])  # relevant document second


def test_query_id_the_pool_lacks_is_not_matched_with_its_float64_neighbour():
    pool = JudgmentPool(qid=np.array([BIG], dtype=np.uint64), y_true=[1])
    with pytest.raises(ValueError, match="no query of the ranking is in the pool"):
        ndcg_score([1], [1.0], qid=np.array([BIG + 1], dtype=np.int64), pool=pool)
    pool = JudgmentPool(qid=np.array([float(BIG)]), y_true=[1])
    with pytest.raises(ValueError, match="no query of the ranking is in the pool"):
        ndcg_score([1], [1.0], qid=np.array([BIG + 1], dtype=np.int64), pool=pool)


@pytest.mark.parametrize("ranking_dtype", [np.int8, np.int16, np.uint8, np.uint32, np.int64])
@pytest.mark.parametrize("pool_dtype", [np.int32, np.uint16, np.uint64, np.float32])
def test_query_ids_of_every_integer_width_match(ranking_dtype, pool_dtype):
    pool = JudgmentPool(qid=np.array([3, 3, 5], dtype=pool_dtype), y_true=[1, 0, 1])
    qid = np.array([5, 3, 3], dtype=ranking_dtype)
    result = query_scores([1, 0, 1], [1, 2, 1], qid=qid, pool=pool)
    assert result.qid.tolist() == [3, 5]
    # query 3: its one relevant document second; query 5: perfect
    assert result.score.tolist() == pytest.approx([D2, 1.0])


# ------------------------------------------------ labels checked against the pool


def test_labels_the_pool_does_not_hold_are_refused():
    # three relevant ranked documents, a pool holding one: NDCG was 2.13
    pool = JudgmentPool(qid=[1, 1, 1], y_true=[1, 0, 0])
    with pytest.raises(ValueError, match=r"y_true contradicts the pool: query 1 .* row 2"):
        ndcg_score([1, 1, 1], [3, 2, 1], qid=[1, 1, 1], pool=pool)
    # a label the pool does not hold at all, in the second of two queries
    pool = JudgmentPool(qid=["a", "b", "b"], y_true=[1, 0, 1])
    with pytest.raises(ValueError, match=r"query 'b' .* labelled 2 .* row 2"):
        query_scores([1, 0, 2], [3, 2, 1], qid=["a", "b", "b"], pool=pool)


def test_labels_the_pool_holds_are_accepted():
    # unjudged (NaN) documents, a query the pool lacks, and labels in any order
    pool = JudgmentPool(qid=[1, 1, 1, 2], y_true=[0, 2, 1, 1])
    result = query_scores(
        [np.nan, 1, 2, 5], [4, 3, 2, 1], qid=[1, 1, 1, 3], pool=pool, missing_queries="zero"
    )
    ideal = 2 + D2
    assert result.score.tolist() == pytest.approx([(D2 + 2 * D3) / ideal, 0.0])


# --------------------------------------------------- ids of different types


def test_warning_when_no_ranked_document_is_judged():
    run = ([1, 1], [1.0, 2.0], [2.0, 1.0])  # float document ids: "1.0", "2.0"
    qrels = ([1, 1], [1, 2], [1, 0])  # integer ones: "1", "2"
    with pytest.warns(UserWarning, match="run's docno are float64, the qrels' docno int64"):
        result = evaluate_run(run, qrels)
    assert result.score == 0.0


def test_no_warning_when_some_ranked_document_is_judged():
    run = ([1, 1], [1, 3], [2.0, 1.0])
    qrels = ([1, 1], [1, 2], [1, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert evaluate_run(run, qrels).score == 1.0


# --------------------------------------------------------------- the readers


def test_python_only_score_spelling_is_refused(tmp_path):
    path = tmp_path / "run"
    path.write_text("1 Q0 a 1 2.5 r\n1 Q0 b 2 1_000 r\n")
    with pytest.raises(ValueError, match=r"line 2: the score '1_000' is not a number"):
        read_trec_run(path)


@pytest.mark.parametrize("which", ["run", "qrels", "both"])
def test_byte_order_mark_is_stripped(tmp_path, which):
    bom = b"\xef\xbb\xbf"
    run_text = b"1 Q0 a 1 2 r\n1 Q0 b 2 1 r\n2 Q0 c 1 1 r\n"
    qrels_text = b"1 0 a 0\n1 0 b 1\n2 0 c 1\n"
    (tmp_path / "run").write_bytes(bom * (which != "qrels") + run_text)
    (tmp_path / "qrels").write_bytes(bom * (which != "run") + qrels_text)
    run, qrels = read_trec_run(tmp_path / "run"), read_trec_qrels(tmp_path / "qrels")
    assert run.qid.tolist() == ["1", "1", "2"] and qrels.qid.tolist() == ["1", "1", "2"]
    result = evaluate_run(run, qrels)
    assert result.per_query.score.tolist() == pytest.approx([D2, 1.0])  # query 1 kept
    # the command reads its files with the same readers
    report = trec_eval_scores(qrels, run, measures_from([("ndcg", None)]))
    assert report.qid.tolist() == ["1", "2"]


# ------------------------------------------------------------ document weights


@pytest.mark.parametrize("with_pool", [False, True])
def test_overflow_from_document_weight_names_it(with_pool):
    pool = JudgmentPool(qid=[1, 1, 1], y_true=[1, 1, 1]) if with_pool else None
    with pytest.raises(ValueError, match="document_weight .* use smaller document weights"):
        ndcg_score([1, 1, 1], [3, 2, 1], qid=[1, 1, 1], pool=pool, document_weight=[1e308] * 3)


def test_overflow_from_the_gain_still_names_the_gain():
    with pytest.raises(ValueError, match="gain='linear'"):
        ndcg_score([[2000, 1]], [[1, 2]], gain="exponential", document_weight=[[1, 1]])


def test_graded_labels_that_are_not_integers_are_checked_too():
    # the check counts (query, label) pairs of any label values, e.g. 0.5 and 2.5
    pool = JudgmentPool(qid=[1, 1, 1], y_true=[2.5, 0.5, 0.0])
    result = query_scores([0.5, 2.5], [2, 1], qid=[1, 1], pool=pool)
    assert result.score.tolist() == pytest.approx([(0.5 + 2.5 * D2) / (2.5 + 0.5 * D2)])
    with pytest.raises(ValueError, match=r"query 1 has 2 ranked documents labelled 0.5"):
        query_scores([0.5, 0.5], [2, 1], qid=[1, 1], pool=pool)
