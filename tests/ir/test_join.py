"""join_run and trec_order against plain Python references (a dict of (qid, docno)
pairs; a sort of each query by decreasing score, then decreasing document id as
bytes), also with a hash so weak that nearly every pair collides: the hash only
finds candidates, every match and duplicate is checked byte for byte."""

import numpy as np
import pytest

from sklearn_ndcg import TrecQrels
from sklearn_ndcg._ir import _join
from sklearn_ndcg._ir._join import join_run, trec_order


def _weak_hash(code, words):
    """Eight values for all pairs: collisions everywhere."""
    return (code.astype(np.uint64) + words[:, 0]) % np.uint64(8)


@pytest.fixture(params=["strong", "weak"])
def hashing(request, monkeypatch):
    if request.param == "weak":
        monkeypatch.setattr(_join, "_hash", _weak_hash)
    return request.param


def _random_tables(rng, as_bytes):
    n_queries = 6
    qids = ["q1", "q10", "q2", "\u00e9", "q1\u00e9", "b"][:n_queries]
    docs = [f"d{i}" for i in range(30)] + ["d" * 20 + "x", "d" * 20 + "y", "\u00e9"]
    run = sorted({(str(rng.choice(qids)), str(rng.choice(docs))) for _ in range(150)})
    qrels = sorted({(str(rng.choice(qids)), str(rng.choice(docs))) for _ in range(80)})
    rng.shuffle(run)

    def column(pairs, i):
        values = [pair[i] for pair in pairs]
        if as_bytes:
            return np.array([value.encode() for value in values])
        return np.array(values, dtype=object)

    run_qid, run_docno = column(run, 0), column(run, 1)
    relevance = rng.integers(-1, 4, len(qrels)).astype(np.float64)
    qrels_table = TrecQrels(column(qrels, 0), column(qrels, 1), relevance)
    return run, run_qid, run_docno, qrels, qrels_table


@pytest.mark.parametrize("as_bytes", [False, True])
@pytest.mark.parametrize("seed", range(4))
def test_join_matches_a_dictionary(hashing, as_bytes, seed):
    rng = np.random.default_rng(seed)
    run, run_qid, run_docno, qrels, qrels_table = _random_tables(rng, as_bytes)
    joined = join_run(run_qid, run_docno, qrels_table)
    judged = dict(zip(qrels, qrels_table.relevance.tolist()))
    expected = [judged.get(pair, np.nan) for pair in run]
    np.testing.assert_array_equal(joined.label, expected)
    # query codes number the ids of both tables in byte-wise order
    ids = sorted({q for q, _ in run} | {q for q, _ in qrels}, key=str.encode)
    assert joined.qids.tolist() == ids
    assert [ids[c] for c in joined.run_qid] == [q for q, _ in run]
    assert [ids[c] for c in joined.qrels_qid] == [q for q, _ in qrels]


@pytest.mark.parametrize("table", ["run", "qrels"])
def test_duplicates_are_found_exactly(hashing, table):
    qid = np.array([b"q1", b"q2", b"q1", b"q1"])
    docno = np.array([b"a", b"a", b"b", b"c"])
    unique = TrecQrels(qid, docno, np.zeros(4))
    join_run(qid, docno, unique)  # same docno in two queries: no duplicate
    twice = np.array([b"q1", b"q2", b"q1", b"q1"]), np.array([b"a", b"a", b"b", b"a"])
    run, qrels = (twice, (qid, docno)) if table == "run" else ((qid, docno), twice)
    with pytest.raises(ValueError, match=f"^{table} lists document 'a' of query 'q1' more than"):
        join_run(*run, TrecQrels(*qrels, np.zeros(4)))


def _trec_eval_ranking(qid, docno, score):
    """Rows of each query by decreasing score, ties by decreasing docno bytes."""
    rows = sorted(range(len(qid)), key=lambda i: (qid[i], -score[i], [-b for b in docno[i]] + [1]))
    return [(qid[i], docno[i]) for i in rows]


@pytest.mark.parametrize("seed", range(4))
def test_trec_order_ranks_ties_by_decreasing_docno(hashing, seed):
    rng = np.random.default_rng(seed)
    n = 200
    qid = np.array([f"q{i}".encode() for i in rng.integers(0, 5, n)])
    docno = np.array([f"d{i}{'z' * (i % 11)}".encode() for i in rng.permutation(n)])
    score = rng.integers(0, 6, n).astype(np.float64)
    score[rng.random(n) < 0.1] = -0.0  # ties with 0.0
    joined = join_run(qid, docno, TrecQrels(qid[:1], docno[:1], np.ones(1)))
    permutation = trec_order(joined, score)
    assert permutation is not None
    q, d, s = qid[permutation], docno[permutation], score[permutation]
    # the engine's ties="first": a stable sort by query, then decreasing score
    rows = np.lexsort((np.arange(n), -s, joined.run_qid[permutation]))
    expected = _trec_eval_ranking(qid.tolist(), docno.tolist(), (score + 0.0).tolist())
    assert [(q[i], d[i]) for i in rows] == expected


def test_trec_order_leaves_untied_runs_alone():
    qid, docno = np.array([b"q", b"q", b"r"]), np.array([b"a", b"b", b"a"])
    joined = join_run(qid, docno, TrecQrels(qid, docno, np.ones(3)))
    assert trec_order(joined, np.array([1.0, 2.0, 1.0])) is None
