"""evaluate_run with trec_eval's measure names (ir/_trec.py): a list of names, the
relevance level, negative levels, pytrec_eval's dicts, the files' path; hand
computation on tests/_trec_example.py's run."""

import numpy as np
import pytest
from _trec_example import write_files

from sklearn_ndcg import evaluate_run, read_trec_qrels, read_trec_run


def test_a_list_of_names_from_the_files_and_the_tables(tmp_path):
    qrels_path, run_path = write_files(tmp_path)
    names = ["map", "P_2", "recip_rank", "ndcg_cut_2"]
    from_paths = evaluate_run(run_path, qrels_path, metric=names, ties="docno")
    tables = evaluate_run(
        read_trec_run(run_path), read_trec_qrels(qrels_path), metric=names, ties="docno"
    )
    assert list(from_paths) == names
    # hand computation: q1 ranks dX (unjudged), d1 (0), d2 (1), 2 relevant in the qrels;
    # q2 ranks d5 (2) first (ties by decreasing docno), 1 relevant
    np.testing.assert_allclose(from_paths["map"].per_query.score, [(1 / 3) / 2, 1.0])
    np.testing.assert_allclose(from_paths["P_2"].per_query.score, [0.0, 0.5])
    np.testing.assert_allclose(from_paths["recip_rank"].per_query.score, [1 / 3, 1.0])
    for name in names:
        np.testing.assert_allclose(
            tables[name].per_query.score, from_paths[name].per_query.score, atol=1e-15
        )


def test_relevance_level_and_negative_levels():
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    qrels = {"q": {"a": -1, "b": 1, "c": 2}}  # a: in the pool, not judged
    assert evaluate_run(run, qrels, metric="recip_rank").score == 0.5
    assert evaluate_run(run, qrels, metric="recip_rank", relevance_level=2).score == 1 / 3
    # -J: a removed, b moves to rank 1
    assert evaluate_run(run, qrels, metric="recip_rank", unjudged="drop").score == 1.0
    with pytest.raises(ValueError, match="negative relevance labels"):
        evaluate_run(run, qrels, metric="ndcg")  # NDCG's named gains refuse them


def test_unknown_name():
    with pytest.raises(ValueError, match="unknown metric 'mrr'"):
        evaluate_run({"q": {"a": 1.0}}, {"q": {"a": 1}}, metric="mrr")
