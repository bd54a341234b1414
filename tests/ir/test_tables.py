"""The command's readers: ids as numpy bytes, the same values as the public readers."""

import numpy as np
from _trec_example import write_files

from sklearn_ndcg import read_trec_qrels, read_trec_run
from sklearn_ndcg._ir import TrecQrels, TrecRun, read_qrels_bytes, read_run_bytes


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
