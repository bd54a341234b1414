"""The command's readers: ids as numpy bytes, the same values as the public readers."""

import gc

import numpy as np
from _trec_example import write_files

from sklearn_ndcg import read_trec_qrels, read_trec_run
from sklearn_ndcg._ir import TrecQrels, TrecRun, _tables, read_qrels_bytes, read_run_bytes
from sklearn_ndcg._ir._tables import read_bytes


def test_bytes_readers_match_the_public_readers(tmp_path):
    qrels_path, run_path = write_files(tmp_path)
    run, qrels = read_run_bytes(run_path), read_qrels_bytes(qrels_path)
    assert isinstance(run, TrecRun) and isinstance(qrels, TrecQrels)
    assert run.qid.dtype.kind == run.docno.dtype.kind == qrels.qid.dtype.kind == "S"
    assert run.run_id is None
    text_run, text_qrels = read_trec_run(run_path), read_trec_qrels(qrels_path)
    assert [q.decode() for q in run.qid.tolist()] == text_run.qid.tolist()
    assert [d.decode() for d in run.docno.tolist()] == text_run.docno.tolist()
    np.testing.assert_array_equal(run.score, text_run.score)
    assert [d.decode() for d in qrels.docno.tolist()] == text_qrels.docno.tolist()
    np.testing.assert_array_equal(qrels.relevance, text_qrels.relevance)


def test_the_readers_columns_remember_their_bytes_until_changed(tmp_path):
    qrels_path, run_path = write_files(tmp_path)
    run, qrels = read_trec_run(run_path), read_trec_qrels(qrels_path)
    raw_run, raw_qrels = read_run_bytes(run_path), read_qrels_bytes(qrels_path)
    for column, raw in [(run.qid, raw_run.qid), (run.docno, raw_run.docno)] + [
        (qrels.qid, raw_qrels.qid),
        (qrels.docno, raw_qrels.docno),
    ]:
        np.testing.assert_array_equal(read_bytes(column), raw)
    assert read_bytes(run.docno.copy()) is None  # not a reader's column
    assert read_bytes(np.array(run.docno.tolist(), dtype=object)) is None
    run.docno[1] = "".join(["d", "1"])  # an equal str: the bytes still hold
    np.testing.assert_array_equal(read_bytes(run.docno), raw_run.docno)
    run.docno[1] = "d9"  # changed in place
    assert read_bytes(run.docno) is None
    assert read_bytes(run.qid) is not None


def test_a_forgotten_column_leaves_no_entry(tmp_path):
    _, run_path = write_files(tmp_path)
    gc.collect()
    before = len(_tables._READ_BYTES)
    run = read_trec_run(run_path)
    assert len(_tables._READ_BYTES) == before + 2  # qid and docno
    del run
    gc.collect()
    assert len(_tables._READ_BYTES) == before
