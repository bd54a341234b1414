"""The trec-eval command evaluates a run grouped by query chunk by chunk: the same
report as the whole run at once (``trec_eval_scores``, itself checked against
trec_eval in tests/common/test_trec_parity.py), at every chunk size, with every
option; a run that is not grouped is read whole; the run's checks still hold in
chunks that hold no judged query."""

import io

import numpy as np
import pytest

from sklearn_ndcg._cli._trec_eval import run_trec_eval
from sklearn_ndcg._ir import (
    measures_from,
    read_qrels_bytes,
    read_run_bytes,
    streamed_scores,
    trec_eval_scores,
)

MEASURES = measures_from([("ndcg", None), ("ndcg_cut", "1,3,10")])


def _files(tmp_path, rng, grouped=True):
    """A run of 12 queries in random order (ties, queries the qrels lack) and qrels
    (queries the run lacks, negative levels)."""
    run_lines = []
    for q in rng.permutation(12):
        docs = rng.choice(40, size=rng.integers(1, 15), replace=False)
        scores = rng.integers(0, 4, docs.shape[0]) / 2
        run_lines += [f"q{q} Q0 d{d} 1 {s} sys\n" for d, s in zip(docs, scores)]
    if not grouped:
        run_lines.append(run_lines[0].replace("Q0 d", "Q0 x"))  # its query again, at the end
    qrels_lines = [
        f"q{q} 0 d{d} {rng.integers(-1, 4)}\n"
        for q in range(3, 16)
        for d in rng.choice(40, size=8, replace=False)
    ]
    (tmp_path / "run").write_text("".join(run_lines))
    (tmp_path / "qrels").write_text("".join(qrels_lines))
    return tmp_path / "qrels", tmp_path / "run"


def _same_report(got, expected):
    assert got.qid.tolist() == expected.qid.tolist()
    assert [name for name, _ in got.columns] == [name for name, _ in expected.columns]
    for (_, a), (_, b) in zip(got.columns, expected.columns):
        np.testing.assert_allclose(a, b, rtol=0, atol=1e-15)


OPTIONS = [{}, {"complete": True}, {"judged_only": True}, {"max_docs": 3}]


@pytest.mark.parametrize("options", OPTIONS, ids=["plain", "c", "J", "M3"])
@pytest.mark.parametrize("seed", range(3))
def test_chunks_give_the_whole_run_report(tmp_path, seed, options):
    qrels_path, run_path = _files(tmp_path, np.random.default_rng(seed))
    qrels = read_qrels_bytes(qrels_path)
    expected = trec_eval_scores(qrels, read_run_bytes(run_path), MEASURES, **options)
    for chunk_size in (1, 7, 50, 200, None):  # queries and lines split across chunks
        got = streamed_scores(qrels, run_path, MEASURES, chunk_size=chunk_size, **options)
        _same_report(got, expected)


def test_run_not_grouped_by_query_is_read_whole(tmp_path):
    qrels_path, run_path = _files(tmp_path, np.random.default_rng(0), grouped=False)
    qrels = read_qrels_bytes(qrels_path)
    assert streamed_scores(qrels, run_path, MEASURES, chunk_size=30) is None
    expected = trec_eval_scores(qrels, read_run_bytes(run_path), MEASURES)
    out = io.StringIO()
    run_trec_eval(str(qrels_path), str(run_path), MEASURES, per_query=True, out=out)
    assert f"\t{expected.qid[0]}\t" in out.getvalue()
    mean = np.mean(expected.columns[0][1])
    assert (
        out.getvalue().splitlines()[-len(expected.columns)]
        == f"ndcg                  \tall\t{mean:6.4f}"
    )


@pytest.mark.parametrize(
    "run, match",
    [
        ("q1 Q0 a 1 1 s\nu Q0 b 1 1 s\nu Q0 b 2 0 s\n", "run lists document 'b' of query 'u'"),
        ("q1 Q0 a 1 1 s\nu Q0 b 1 nan s\n", "score of document 'b' of query 'u' is not a number"),
        ("u Q0 a 1 1 s\n", "no query of the run is in the qrels"),
        ("# nothing\n", "the run file has no entries"),
    ],
)
def test_checks_of_chunks_without_judged_queries(tmp_path, run, match):
    (tmp_path / "run").write_text(run)
    (tmp_path / "qrels").write_text("q1 0 a 1\n")
    qrels = read_qrels_bytes(tmp_path / "qrels")
    for chunk_size in (1, None):
        with pytest.raises(ValueError, match=match):
            streamed_scores(qrels, tmp_path / "run", MEASURES, chunk_size=chunk_size)


def test_duplicates_in_qrels_of_queries_the_run_lacks_are_refused(tmp_path):
    (tmp_path / "run").write_text("q1 Q0 a 1 1 s\n")
    (tmp_path / "qrels").write_text("q1 0 a 1\nq9 0 z 1\nq9 0 z 0\n")
    qrels = read_qrels_bytes(tmp_path / "qrels")
    with pytest.raises(ValueError, match="qrels lists document 'z' of query 'q9'"):
        streamed_scores(qrels, tmp_path / "run", MEASURES)
