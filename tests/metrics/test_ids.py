"""_metrics/_ids.py: pytrec_eval's dicts as columns, ranked documents found among the
judged ones by id, trec_eval's reading of negative levels; hand-made cases (the dicts'
values against arrays and pytrec_eval: tests/metrics/test_query_scores_dicts.py)."""

import numpy as np
import pytest

from sklearn_ndcg._metrics._ids import dict_rows, match_ids, tables_of, trec_labels


def test_tables_of_writes_the_dicts_out():
    qid, docno, numbers = tables_of({"q1": {"a": 1, "bb": 2}, 7: {"é": 0.5}}, "qrels", "level")
    # ids as UTF-8 bytes (7 through str), one row per document in the dicts' order
    assert qid.tolist() == [b"q1", b"q1", b"7"]
    assert docno.tolist() == [b"a", b"bb", "é".encode()]
    assert numbers.tolist() == [1.0, 2.0, 0.5]


def test_match_ids_finds_each_ranked_document():
    ranked_q, ranked_d = np.array(["q2", "q1", "q1"]), np.array(["a", "a", "z"])
    pool_q, pool_d = np.array(["q1", "q2", "q3"]), np.array(["a", "a", "a"])
    matched = match_ids(ranked_q, ranked_d, pool_q, pool_d, "the run", "the qrels")
    assert matched.qids.tolist() == ["q1", "q2", "q3"]
    assert matched.ranked_query.tolist() == [1, 0, 0]
    assert matched.pool_query.tolist() == [0, 1, 2]
    assert matched.row.tolist() == [1, 0, -1]  # ("q1", "z") is not judged
    assert matched.ranked_docno.tolist() == [0, 0, 1]  # "a" < "z"


def test_match_ids_refuses_a_pair_twice():
    twice = np.array(["q", "q"]), np.array(["a", "a"])
    with pytest.raises(ValueError, match="the run lists document 'a' of query 'q' more than"):
        match_ids(*twice, np.array(["q"]), np.array(["a"]), "the run", "the qrels")


def test_trec_labels_read_negative_levels_as_unjudged_with_drop_or_bounds():
    label = np.array([-1.0, 0.0, np.nan, 2.0])
    assert trec_labels(label, "zero", False) is label
    for unjudged, bounds in (("drop", False), ("zero", True)):
        np.testing.assert_array_equal(trec_labels(label, unjudged, bounds), [np.nan, 0, np.nan, 2])


def test_dict_rows_in_trec_order():
    qrels = {"q": {"a": 1, "b": 0}, "p": {"x": 2}}
    run = {"q": {"a": 0.5, "c": 0.5, "b": 0.9}}
    rows = dict_rows(qrels, run, docno_ties=True)
    # by decreasing score, tied a and c by decreasing document id: b, c, a
    assert rows.score.tolist() == [0.9, 0.5, 0.5]
    np.testing.assert_array_equal(rows.label, [0.0, np.nan, 1.0])
    assert rows.ids[rows.qid].tolist() == ["q"] * 3
    assert sorted(rows.ids[rows.pool.qid].tolist()) == ["p", "q", "q"]
    assert sorted(rows.pool.y_true.tolist()) == [0.0, 1.0, 2.0]
