"""The run in blocks of whole queries and each block's qrels (the streaming that the
trec-eval command and evaluate_run from paths share)."""

import numpy as np
import pytest

from sklearn_ndcg._ir import read_qrels_bytes, read_run_bytes
from sklearn_ndcg._ir._stream import NotGrouped, QrelsIndex, query_blocks

RUN = "".join(
    f"q{q} Q0 d{d} {d} {10 - d}.5 sys\n"
    for q, n in ((3, 4), (1, 2), (22, 5), (2, 1))
    for d in range(n)
)


@pytest.mark.parametrize("chunk_size", [1, 7, 30, 100, None])
def test_blocks_hold_whole_queries_in_file_order(tmp_path, chunk_size):
    path = tmp_path / "run"
    path.write_text("# a comment\n\n" + RUN)
    whole = read_run_bytes(path)
    blocks = list(query_blocks(path, chunk_size=chunk_size))
    for field in ("qid", "docno", "score"):
        got = np.concatenate([getattr(block, field) for block in blocks])
        np.testing.assert_array_equal(got, getattr(whole, field))
    queries = [set(block.qid.tolist()) for block in blocks]
    for i, first in enumerate(queries):  # no query split between two blocks
        assert all(first.isdisjoint(other) for other in queries[i + 1 :])
    if chunk_size == 1:  # a chunk a line: every query complete in a block of its own
        assert [block.qid[0] for block in blocks] == [b"q3", b"q1", b"q22", b"q2"]


@pytest.mark.parametrize("chunk_size", [1, 30, None])
def test_a_query_in_two_places_is_not_grouped(tmp_path, chunk_size):
    path = tmp_path / "run"
    path.write_text(RUN + "q3 Q0 x 1 0.1 sys\n")
    with pytest.raises(NotGrouped):
        list(query_blocks(path, chunk_size=chunk_size))


def test_an_empty_run_has_no_block(tmp_path):
    path = tmp_path / "run"
    path.write_text("# nothing\n")
    assert list(query_blocks(path)) == []


def test_qrels_of_a_block_and_of_the_queries_a_run_lacks(tmp_path):
    path = tmp_path / "qrels"
    path.write_text("q2 0 a 1\nq1 0 b 0\nq2 0 c 2\nq9 0 d 1\nq10 0 e 3\n")
    index = QrelsIndex(read_qrels_bytes(path))
    block = index.of(np.array([b"q2", b"q2", b"q5", b"q10"]))
    assert block.docno.tolist() == [b"a", b"c", b"e"]  # file order
    assert block.relevance.tolist() == [1.0, 2.0, 3.0]
    assert index.of(np.array([b"q5"])) is None
    assert index.without(np.array([b"q2", b"q10"])).docno.tolist() == [b"b", b"d"]
