"""pytrec_eval's dicts joined by dict lookups (ir/_dicts.py): the rows, labels and
trec_eval's order of tied scores equal those of the tables' join (ir/_join.py, hashed
bytes), to the last bit of every measure; ids that are not all ``str`` go the tables'
way."""

import numpy as np
import pytest

from sklearn_ndcg import RelevanceEvaluator
from sklearn_ndcg._ir._dicts import join_dicts, qrels_levels
from sklearn_ndcg._ir._join import join_run, trec_order
from sklearn_ndcg._ir._measures import measures_from, parse_measure
from sklearn_ndcg._ir._pytrec import tables_of
from sklearn_ndcg._ir._report import trec_eval_scores
from sklearn_ndcg._ir._tables import TrecQrels, TrecRun

MEASURES = ("ndcg", "ndcg_cut.3,10", "map", "recip_rank", "P.1,5", "recall.100", "success.1")


def _random_dicts(rng, ids):
    qrels, run = {}, {}
    for q in range(int(rng.integers(1, 12))):
        docs = rng.permutation(ids)[: int(rng.integers(1, len(ids)))]
        qrels[f"q{q}"] = {d: int(rng.integers(-1, 4)) for d in docs if rng.random() < 0.6}
        run[f"q{q}"] = {d: float(rng.integers(0, 4)) for d in docs if rng.random() < 0.8}
    run["unjudged"] = {ids[0]: 1.0}
    return qrels, run


def _tables(nested, name):
    return tables_of(nested, name, "number")


@pytest.mark.parametrize(
    "ids",
    [
        [f"d{i}" for i in range(30)],
        ["d\udcff", "dé", "d€", "a", "b", "d\u0100", "d\udc80", "Z", "é", "e"],
    ],
    ids=["ascii", "utf-8 and surrogate escapes"],
)
@pytest.mark.parametrize("ties", ["docno", "average"])
def test_values_equal_the_tables_join(ids, ties):
    """Every measure, to the last bit, with the run joined from the tables."""
    rng = np.random.default_rng(4)
    measures = measures_from([parse_measure(text) for text in MEASURES])
    for _ in range(15):
        qrels, run = _random_dicts(rng, ids)
        expected = trec_eval_scores(
            TrecQrels(*_tables(qrels, "qrels")),
            TrecRun(*_tables(run, "run"), None),
            measures,
            ties=ties,
        )
        evaluator = RelevanceEvaluator(qrels, set(MEASURES), ties=ties)
        assert evaluator._levels is not None  # the dicts' way
        values = evaluator.evaluate(run)
        # a judged query with an empty ranking scores 0 (the tables hold none of it)
        empty = {q for q, docs in run.items() if not docs and qrels.get(q)}
        assert all(set(values[q].values()) == {0.0} for q in empty)
        values = {q: row for q, row in values.items() if q not in empty}
        assert list(values) == expected.qid.tolist()
        for name, column in expected.columns:
            assert [values[q][name] for q in values] == column.tolist()


def test_tie_free_scores_rank_as_trec_order():
    """The scores of ``ties="docno"`` rank each query as the tables' permutation does:
    tied scores by decreasing document id."""
    qrels = {"q": {"b": 1}, "r": {"a": 2}}
    run = {"q": {"a": 0.5, "c": 0.5, "b": 0.5, "d": 0.25}, "r": {"a": 0.5, "z": 0.5}}
    joined, score, permutation = join_dicts(qrels_levels(qrels), run, True)
    assert permutation is None
    tables = join_run(*_tables(run, "run")[:2], TrecQrels(*_tables(qrels, "qrels")))
    order = trec_order(tables, _tables(run, "run")[2])
    np.testing.assert_array_equal(joined.run_qid, tables.run_qid)
    np.testing.assert_array_equal(joined.label, tables.label)
    for code in np.unique(joined.run_qid):
        rows = np.flatnonzero(joined.run_qid == code)
        by_score = rows[np.argsort(-score[rows], kind="stable")]
        by_permutation = [row for row in order if tables.run_qid[row] == code]
        assert by_score.tolist() == by_permutation  # c, b, a, then d


def test_ids_not_all_str_go_the_tables_way():
    assert qrels_levels({1: {"a": 1}}) is None
    assert qrels_levels({"q": {2: 1}}) is None
    assert qrels_levels({"q": {"a": "x"}}) is None
    levels = qrels_levels({"q": {"a": 1}})
    assert join_dicts(levels, {"q": {3: 1.0}}, True) is None
    assert join_dicts(levels, {"q": {"a": float("inf")}}, True) is None
    # the tables compare ids as text: 2 and "2" are one document
    values = RelevanceEvaluator({"q": {2: 1}}, {"P.1"}).evaluate({"q": {"2": 1.0}})
    assert values == {"q": {"P_1": 1.0}}


def test_qrels_are_copied():
    """Changing the qrels after the evaluator is made changes nothing, as in pytrec_eval."""
    qrels = {"q": {"a": 1, "b": 0}}
    evaluator = RelevanceEvaluator(qrels, {"P.1"})
    qrels["q"]["b"] = 1
    assert evaluator.evaluate({"q": {"b": 1.0, "a": 0.5}}) == {"q": {"P_1": 0.0}}
    assert evaluator.qrels_.relevance.tolist() == [1.0, 0.0]
