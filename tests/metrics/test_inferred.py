"""query_scores(None, y_score, qid=, docno=, pool=, metric="infNDCG"): infNDCG from
arrays with query and document ids.

Its values against sample_eval.pl itself are in tests/ir/test_infndcg.py (the same
random pools); here: a case computed by hand, equality with evaluate_run(...,
metric="infNDCG") on random pools (which needs no Perl), ids of other types, and bad
input (the convention of tests/_bad_input.py).
"""

import math

import numpy as np
import pytest
from _bad_input import add_case, check_bad_input

from sklearn_ndcg import JudgmentPool, evaluate_run, query_scores

# one query; stratum A: a1 (level 1), a2 (0), a3 and a4 unsampled; stratum B: b1
# (level 2), b2 (0) -- the case of tests/ir/test_infndcg.py::test_by_hand
POOL_QID = ["q"] * 6
DOCNO = ["a1", "a2", "a3", "a4", "b1", "b2"]
LEVEL = [1.0, 0.0, -1.0, -1.0, 2.0, 0.0]
STRATUM = ["A", "A", "A", "A", "B", "B"]
POOL = JudgmentPool(POOL_QID, LEVEL, stratum=STRATUM, docno=DOCNO)
RUN_DOCNO = ["a1", "a3", "b1", "x"]
RUN_SCORE = [4.0, 3.0, 2.0, 1.0]


def _inferred(y_true=None, y_score=RUN_SCORE, **options):
    arguments = {"qid": ["q"] * 4, "docno": RUN_DOCNO, "pool": POOL, "metric": "infNDCG"}
    return query_scores(y_true, y_score, **{**arguments, **options})


def test_by_hand():
    """Ideal DCG: level 2 estimated 1 * 2/2 = 1 document, level 1 1 * 4/2 = 2. Ranked
    a1, a3, b1, x (x outside the pool): in A 2 ranked, 1 sampled, DCG 1/log2(2); in B
    1 ranked, 1 sampled, DCG 2/log2(4); estimated DCG 2 * 1 / 1 + 1 * 1 / 1 = 3."""
    result = _inferred()
    expected = 3 / (2 + 1 / math.log2(3) + 1 / math.log2(4))
    assert result.qid.tolist() == ["q"]
    assert result.score[0] == pytest.approx(expected, rel=1e-14)
    assert result.weight.tolist() == [1.0]
    # tied scores rank by decreasing docno: x, b1 (rank 2), a3, a1 (rank 4)
    tied = _inferred(y_score=[1.0] * 4)
    dcg = 2 * (1 / math.log2(5)) / 1 + 1 * (2 / math.log2(3)) / 1
    assert tied.score[0] == pytest.approx(dcg / (2 + 1 / math.log2(3) + 0.5), rel=1e-14)


def _random_pool(rng, n_queries=8):
    """Pool columns (qid, docno, stratum, level) and run columns (qid, docno, score):
    several strata and levels, unsampled documents, a query of the pool absent from
    the run, one of the run absent from the pool, documents outside the pool, ties."""
    pool, run = [], []
    for q in range(n_queries):
        docs = [f"d{j}" for j in rng.choice(200, 50, replace=False)]
        n_pooled = int(rng.integers(3, 40))
        for i, doc in enumerate(docs[:n_pooled]):
            stratum = i % 3
            sampled = i < 3 or rng.random() < 0.4
            pool.append((q, doc, str(stratum), int(rng.integers(0, 4)) if sampled else -1))
        if q == 1:
            continue
        ranked = rng.choice(docs, int(rng.integers(1, 50)), replace=False)
        run.extend((q, doc, float(rng.integers(0, 6))) for doc in ranked)
    run.append((99, "dx", 1.0))
    return [list(column) for column in zip(*pool)], [list(column) for column in zip(*run)]


@pytest.mark.parametrize("missing_queries", ["drop", "zero"])
@pytest.mark.parametrize("seed", range(6))
def test_equals_evaluate_run(seed, missing_queries):
    """The same values as evaluate_run's (the trec-eval command's path, checked against
    sample_eval.pl), with integer query ids returned as the caller gave them."""
    (qid, docno, stratum, level), (run_qid, run_docno, score) = _random_pool(
        np.random.default_rng([36, seed])
    )
    pool = JudgmentPool(qid, level, stratum=stratum, docno=docno)
    result = query_scores(
        None,
        score,
        qid=run_qid,
        docno=run_docno,
        pool=pool,
        metric="infNDCG",
        missing_queries=missing_queries,
    )
    expected = evaluate_run(
        (run_qid, run_docno, score),
        (qid, docno, stratum, level),
        metric="infNDCG",
        missing_queries=missing_queries,
    ).per_query
    assert result.qid.dtype.kind == "i"
    assert result.qid.tolist() == sorted(result.qid.tolist())  # by id, 2 before 10
    by_text = dict(zip(expected.qid.tolist(), expected.score.tolist()))
    assert {str(q): v for q, v in zip(result.qid.tolist(), result.score.tolist())} == by_text
    assert (1 in result.qid.tolist()) == (missing_queries == "zero")


def test_ids_compared_as_text():
    """Query and document ids match as text, as sample_eval.pl reads them."""
    pool = JudgmentPool([7, 7, 7], [1, 0, 1], stratum=["s", "s", "s"], docno=[10, 11, 12])
    numbers = query_scores(
        None, [3, 2, 1], qid=[7, 7, 7], docno=[12, 11, 10], pool=pool, metric="infNDCG"
    )
    text = query_scores(
        None, [3, 2, 1], qid=["7"] * 3, docno=["12", "11", "10"], pool=pool, metric="infNDCG"
    )
    # by hand: levels 1, 0, 1 at ranks 1, 2, 3; every document sampled
    expected = (1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3))
    assert numbers.score.tolist() == text.score.tolist() == [pytest.approx(expected, rel=1e-14)]
    assert numbers.qid.tolist() == [7] and text.qid.tolist() == ["7"]


def test_inputs_not_mutated():
    score = np.array(RUN_SCORE)
    docno = np.array(RUN_DOCNO, dtype=object)
    before = score.copy(), docno.copy()
    _inferred(y_score=score, docno=docno)
    np.testing.assert_array_equal(score, before[0])
    np.testing.assert_array_equal(docno, before[1])


CASES = []
Q = "query_scores"
PLAIN = JudgmentPool(POOL_QID, [1, 0, 0, 0, 2, 0])
UNNAMED = JudgmentPool(POOL_QID, LEVEL, stratum=STRATUM)
for option, value in [
    ("k", 10),
    ("gain", "exponential"),
    ("discount", "reciprocal"),
    ("ties", "first"),
    ("zero_division", 1.0),
    ("normalize", "minmax"),
    ("unjudged", "drop"),
    ("sample_weight", [1.0] * 4),
    ("document_weight", [1.0] * 4),
    ("bounds", True),
]:
    add_case(
        CASES,
        Q,
        "fixed-option",
        option,
        lambda option=option, value=value: _inferred(**{option: value}),
        ValueError,
        rf"metric=\"infNDCG\" follows sample_eval.pl's rules .* {option}=",
    )
add_case(
    CASES,
    Q,
    "labels",
    "y-true-given",
    lambda: _inferred(y_true=[1, 0, 2, 0]),
    ValueError,
    r"reads the levels, strata and sampled flags .* from the pool, by document id; "
    "pass None as y_true",
)
add_case(
    CASES,
    Q,
    "labels",
    "y-true-none-for-ndcg",
    lambda: query_scores(None, [1.0, 2.0], qid=[1, 1]),
    ValueError,
    r"y_true is None; only metric=\"infNDCG\" reads the labels from the pool",
)
add_case(
    CASES,
    Q,
    "pool",
    "docno-for-ndcg",
    lambda: query_scores([1, 0], [1.0, 2.0], qid=[1, 1], docno=["a", "b"]),
    ValueError,
    r"docno is read only with metric=\"infNDCG\"",
)
for case_id, pool, what in [
    ("no-pool", None, "no pool"),
    ("pool-without-strata", PLAIN, "a pool without strata"),
    ("pool-without-docno", UNNAMED, "a pool without document ids"),
]:
    add_case(
        CASES,
        Q,
        "pool",
        case_id,
        lambda pool=pool: _inferred(pool=pool),
        ValueError,
        rf"needs a pool judged by stratified sampling, with document ids: .*; got {what}",
    )
add_case(
    CASES,
    Q,
    "ids",
    "no-docno",
    lambda: _inferred(docno=None),
    ValueError,
    r"needs the query id \(qid=\) and the document id \(docno=\) .*; docno is None",
)
add_case(
    CASES,
    Q,
    "ids",
    "no-qid",
    lambda: _inferred(qid=None),
    ValueError,
    r"; qid is None",
)
add_case(
    CASES,
    Q,
    "ids",
    "docno-length",
    lambda: _inferred(docno=RUN_DOCNO[:3]),
    ValueError,
    r"qid has 4 entries, docno 3 and y_score 4",
)
add_case(
    CASES,
    Q,
    "ids",
    "docno-missing",
    lambda: _inferred(docno=["a1", None, "b1", "x"]),
    ValueError,
    r"docno has missing values .* at row 1",
)
add_case(
    CASES,
    Q,
    "ids",
    "ranked-twice",
    lambda: _inferred(docno=["a1", "a3", "a1", "x"]),
    ValueError,
    r"the ranking \(qid, docno\) lists document 'a1' of query 'q' more than once",
)
add_case(
    CASES,
    Q,
    "ids",
    "pooled-twice",
    lambda: _inferred(
        pool=JudgmentPool(["q", "q"], [1, 0], stratum=["s", "s"], docno=["a1", "a1"])
    ),
    ValueError,
    r"the pool lists document 'a1' of query 'q' more than once",
)
add_case(
    CASES,
    Q,
    "ids",
    "no-query-in-pool",
    lambda: _inferred(qid=["z"] * 4),
    ValueError,
    r"no query of the ranking is in the pool .* do the query ids match\?",
)
add_case(
    CASES,
    Q,
    "shape",
    "empty-ranking",
    lambda: _inferred(y_score=[], qid=[], docno=[]),
    ValueError,
    r"y_score is empty; metric=\"infNDCG\" needs at least one ranked document",
)
add_case(
    CASES,
    Q,
    "shape",
    "two-dimensional-scores",
    lambda: _inferred(y_score=[[4.0, 3.0, 2.0, 1.0]]),
    ValueError,
    r"takes long-format input: y_score must be 1-D",
)
add_case(
    CASES,
    Q,
    "pool",
    "pool-docno-length",
    lambda: JudgmentPool(["q"], [1], stratum=["s"], docno=["a", "b"]),
    ValueError,
    r"the pool's docno must be 1-D with one document id per judged document \(1\)",
)
add_case(
    CASES,
    Q,
    "pool",
    "pool-docno-missing",
    lambda: JudgmentPool(["q", "q"], [1, 0], stratum=["s", "s"], docno=["a", np.nan]),
    ValueError,
    r"the pool's docno has missing values .* at row 1",
)
add_case(
    CASES,
    Q,
    "option",
    "metric-unknown",
    lambda: _inferred(metric="infndcg"),
    ValueError,
    r"unknown metric 'infndcg'",
)


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
