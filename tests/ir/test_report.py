"""trec_eval's report from files: the hand-computed example, streamed or read whole,
with -c, -J and -B (the values themselves are checked against trec_eval in
tests/common/test_trec_parity.py)."""

import numpy as np
import pytest
from _trec_example import Q1, Q1_JUDGED_ONLY, Q2, write_files

from sklearn_ndcg._ir import (
    evaluate_files,
    measures_from,
    read_qrels_bytes,
    read_run_bytes,
    streamed_scores,
    trec_eval_scores,
)

NDCG = measures_from([("ndcg", None)])


@pytest.mark.parametrize(
    "options, qid, expected",
    [
        # hand computation (tests/_trec_example.py)
        ({}, ["q1", "q2"], [Q1, Q2]),
        ({"judged_only": True}, ["q1", "q2"], [Q1_JUDGED_ONLY, Q2]),
        ({"complete": True}, ["q1", "q2", "q3"], [Q1, Q2, 0.0]),  # q3 judged, not ranked
    ],
)
def test_example(tmp_path, options, qid, expected):
    qrels_path, run_path = write_files(tmp_path)
    report = evaluate_files(qrels_path, run_path, NDCG, **options)
    assert report.qid.tolist() == qid
    ((name, values),) = report.columns
    assert name == "ndcg"
    np.testing.assert_allclose(values, expected)
    whole = trec_eval_scores(
        read_qrels_bytes(qrels_path), read_run_bytes(run_path), NDCG, **options
    )
    assert whole.qid.tolist() == qid
    np.testing.assert_array_equal(whole.columns[0][1], values)


def test_bounds_read_the_whole_run(tmp_path):
    qrels_path, run_path = write_files(tmp_path)
    report = evaluate_files(qrels_path, run_path, NDCG, bounds=True)
    names = [name for name, _ in report.columns]
    assert names == ["ndcg", "ndcg@judged", "ndcg@lower", "ndcg@upper"]
    values = dict(report.columns)
    assert np.all(values["ndcg@lower"] <= values["ndcg"] + 1e-12)
    assert np.all(values["ndcg"] <= values["ndcg@upper"] + 1e-12)
    # q1 ranks dX unjudged among 3 documents; every document of q2 is judged
    np.testing.assert_allclose(values["ndcg@judged"], [2 / 3, 1.0])


def test_streaming_refuses_a_run_not_grouped_by_query(tmp_path):
    qrels_path, run_path = write_files(tmp_path)
    lines = (tmp_path / "run").read_text().splitlines(keepends=True)
    (tmp_path / "run").write_text(lines[1] + lines[3] + lines[0] + "".join(lines[2:3] + lines[4:]))
    qrels = read_qrels_bytes(qrels_path)
    assert streamed_scores(qrels, run_path, NDCG) is None
    report = evaluate_files(qrels_path, run_path, NDCG)  # read whole instead
    np.testing.assert_allclose(report.columns[0][1], [Q1, Q2])
