"""evaluate_run with trec_eval's measure names (ir/_trec.py): a list of names, the
relevance level, negative levels, pytrec_eval's dicts, the files' path; hand
computation on tests/_trec_example.py's run."""

import numpy as np
import pytest
from _trec_example import write_files

from sklearn_ndcg import evaluate_run, positive_part_gain, read_trec_qrels, read_trec_run


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


NAMES = ["ndcg_cut_10", "map", "recip_rank", "P_10", "recall_100", "ndcg", "ndcg_cut_5"]


def _random_run(seed: int, negative: bool):
    """A random run with tied scores and its qrels (some levels negative: in the pool,
    not judged; some judged documents not ranked; a judged query the run lacks)."""
    rng = np.random.default_rng(seed)
    qid = np.repeat([f"q{q}" for q in range(12)], 15)
    docno = np.array([f"d{rng.integers(0, 40)}_{i}" for i in range(qid.shape[0])])
    score = rng.integers(0, 4, qid.shape[0]).astype(float)  # heavy ties
    judged = rng.random(qid.shape[0]) < 0.7
    low = -1 if negative else 0
    level = rng.integers(low, 3, qid.shape[0]).astype(float)
    extra_q, extra_d = np.array(["q0", "q3", "q99"]), np.array(["x1", "x2", "x3"])
    qrels = (
        np.concatenate([qid[judged], extra_q]),
        np.concatenate([docno[judged], extra_d]),
        np.concatenate([level[judged], [2.0, 1.0, 1.0]]),
    )
    return (qid, docno, score), qrels


def _as_dicts(table):
    nested: dict = {}
    for q, d, v in zip(*table):
        nested.setdefault(str(q), {})[str(d)] = float(v)
    return nested


def _write_tables(tmp_path, run, qrels):
    run_path, qrels_path = tmp_path / "run.txt", tmp_path / "qrels.txt"
    run_path.write_text("".join(f"{q} Q0 {d} 0 {float(s)!r} sys\n" for q, d, s in zip(*run)))
    qrels_path.write_text("".join(f"{q} 0 {d} {int(v)}\n" for q, d, v in zip(*qrels)))
    return run_path, qrels_path


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", ["average", "docno"])
@pytest.mark.parametrize("missing_queries", ["drop", "zero"])
@pytest.mark.parametrize("negative", [False, True])
@pytest.mark.parametrize("door", ["tables", "dicts", "files"])
def test_a_list_equals_each_name_alone_to_the_last_bit(
    tmp_path, seed, ties, missing_queries, negative, door
):
    # one join and one staging for the list; each name alone as before: the same bits
    run, qrels = _random_run(seed, negative)
    if door == "dicts":
        run, qrels = _as_dicts(run), _as_dicts(qrels)
    elif door == "files":
        run, qrels = _write_tables(tmp_path, run, qrels)
    options = {"ties": ties, "missing_queries": missing_queries}
    if negative:  # trec_eval's gain (a preset): negative levels count 0 in NDCG
        options["gain"] = positive_part_gain
    together = evaluate_run(run, qrels, metric=NAMES, **options)
    assert list(together) == NAMES
    for name in NAMES:
        alone = evaluate_run(run, qrels, metric=name, **options)
        np.testing.assert_array_equal(together[name].per_query.qid, alone.per_query.qid)
        np.testing.assert_array_equal(together[name].per_query.score, alone.per_query.score)
        assert together[name].score == alone.score or np.isnan(alone.score)
        assert together[name].ties == alone.ties == ties


def test_a_list_reads_a_run_file_once(tmp_path, monkeypatch):
    # the file path streams the run once for the whole list, not once per name
    from sklearn_ndcg._ir import _trec

    run, qrels = _write_tables(tmp_path, *_random_run(0, False))
    calls = []
    blocks = _trec.query_blocks
    monkeypatch.setattr(_trec, "query_blocks", lambda path: calls.append(path) or blocks(path))
    evaluate_run(run, qrels, metric=NAMES)
    assert len(calls) == 1
