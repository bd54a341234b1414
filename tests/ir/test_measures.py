"""trec_eval's measures: one registry that the parsing, the defaults and the report
read; a measure added to it is parsed, reported and ordered with no other change."""

import numpy as np
import pytest
from _trec_example import Q1, Q2, write_files

from sklearn_ndcg._ir import (
    MEASURES,
    Request,
    _measures,
    measures_from,
    parse_measure,
    read_qrels_bytes,
    read_run_bytes,
    trec_eval_scores,
)
from sklearn_ndcg._ir._reported import Reported
from sklearn_ndcg._vocabulary import BINARY, NONE, Spec


@pytest.mark.parametrize("name", list(MEASURES))
def test_every_measure_parses(name):
    assert parse_measure(name) == (name, None)


def test_defaults_are_ndcg_and_ndcg_cut_in_registry_order():
    """ndcg and ndcg_cut by default (the command's output before issue 49); the rest,
    infNDCG among them (it reads qrels with strata), only with -m; the registry in
    trec_eval's order of its report (measures.c), infNDCG last."""
    assert list(MEASURES) == [
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank", "iprec_at_recall", "P", "recall", "ndcg", "ndcg_cut",
        "map_cut", "success", "infNDCG", "rbp",
    ]  # fmt: skip
    assert measures_from(None) == (Request("ndcg", None), Request("ndcg_cut", None))
    # the report follows the registry, whatever the order of -m
    given = measures_from(
        [("success", "1"), ("ndcg_cut", "10"), ("infNDCG", None), ("ndcg", None), ("map", None)]
    )
    assert [request.name for request in given] == [
        "map", "ndcg", "ndcg_cut", "success", "infNDCG"
    ]  # fmt: skip


@pytest.mark.parametrize(
    "text, names",
    [
        ("ndcg", ["ndcg"]),
        ("ndcg.1=3,2=9", ["ndcg_1=3,2=9"]),
        ("ndcg_cut", [f"ndcg_cut_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]),
        ("ndcg_cut.20,10,23.4", ["ndcg_cut_10", "ndcg_cut_20", "ndcg_cut_23"]),  # C's atol
        ("map", ["map"]),
        ("recip_rank", ["recip_rank"]),
        ("P", [f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]),
        ("P.10,5", ["P_5", "P_10"]),
        ("recall.100", ["recall_100"]),
        ("map_cut.10", ["map_cut_10"]),
        ("success", ["success_1", "success_5", "success_10"]),  # m_success.c's defaults
        # trec_eval ignores the parameters of a measure that takes none
        ("map.5", ["map"]),
        ("recip_rank.10", ["recip_rank"]),
        ("iprec_at_recall.0.5,.25", ["iprec_at_recall_0.50", "iprec_at_recall_0.25"]),
        ("rbp", ["rbp"]),
        ("rbp.p=0.95", ["rbp_p=0.95"]),
    ],
)
def test_names(text, names):
    name, params = parse_measure(text)
    assert MEASURES[name].names(params) == names


@pytest.mark.parametrize(
    "text, message",
    [
        ("infAP", "unknown measure 'infAP'; this command computes runid, num_q, "),
        ("rbp.q=2", "rbp parameter 'q=2' is not p=<persistence>"),
        ("rbp.p=1", "persistence p must be in"),
        ("P.0", "the cutoffs of P.0"),
        ("ndcg.", "has no parameters after the '.'"),
        ("ndcg.1", "not of the form level=gain"),
        ("ndcg.-1=2", "ndcg level -1 is negative"),
        ("ndcg.1=2,1=3", "level 1 more than one gain"),
        ("ndcg.1=inf", "not a finite number"),
        ("ndcg_cut.0", "distinct integers >= 1"),
        ("ndcg_cut.5,5", "distinct integers >= 1"),
    ],
)
def test_bad_measures(text, message):
    with pytest.raises(ValueError, match=message.replace(".", r"\.").replace("'", ".")):
        parse_measure(text)


def test_different_parameters_twice():
    with pytest.raises(ValueError, match="given twice with different parameters"):
        measures_from([("ndcg_cut", "5"), ("ndcg_cut", "10")])
    # given with and without parameters: the parameters, as in trec_eval
    assert measures_from([("ndcg_cut", None), ("ndcg_cut", "5")]) == (Request("ndcg_cut", "5"),)


class _Evaluated(Reported):
    """A made-up measure: 1 for each evaluated query."""

    usage = "evaluated"

    def check(self, params):
        pass

    def names(self, params):
        return ["evaluated"]

    def columns(self, staged, options, params, bound_levels):
        return [("evaluated", np.ones(staged.ids.shape[0]))]


def test_a_measure_added_to_the_registry(tmp_path, monkeypatch):
    spec = Spec("evaluated", NONE, None, BINARY)
    monkeypatch.setitem(_measures.MEASURES, "evaluated", _Evaluated(spec))
    qrels_path, run_path = write_files(tmp_path)
    qrels, run = read_qrels_bytes(qrels_path), read_run_bytes(run_path)
    assert parse_measure("evaluated") == ("evaluated", None)
    report = trec_eval_scores(qrels, run, measures_from([("evaluated", None), ("ndcg", None)]))
    assert [name for name, _ in report.columns] == ["ndcg", "evaluated"]
    # hand computation (tests/_trec_example.py): q3 is not ranked, q4 not judged
    assert report.qid.tolist() == ["q1", "q2"]
    np.testing.assert_allclose(report.columns[0][1], [Q1, Q2])
    np.testing.assert_array_equal(report.columns[1][1], [1.0, 1.0])


def test_bounds_are_refused_for_measures_of_binary_relevance(tmp_path):
    qrels_path, run_path = write_files(tmp_path)
    qrels, run = read_qrels_bytes(qrels_path), read_run_bytes(run_path)
    with pytest.raises(ValueError, match="P_5 has no bounds|P has no bounds"):
        trec_eval_scores(qrels, run, measures_from([("P", "5")]), bounds=True)


def test_relevance_level_is_read_by_the_binary_measures_only(tmp_path):
    """-l 2: only level 2 and above is relevant for P; ndcg unchanged."""
    qrels_path, run_path = write_files(tmp_path)
    qrels, run = read_qrels_bytes(qrels_path), read_run_bytes(run_path)
    measures = measures_from([("P", "1,2,3"), ("ndcg", None)])
    at_1 = dict(trec_eval_scores(qrels, run, measures).columns)
    at_2 = dict(trec_eval_scores(qrels, run, measures, relevance_level=2).columns)
    np.testing.assert_array_equal(at_1["ndcg"], at_2["ndcg"])
    assert (at_2["P_3"] <= at_1["P_3"]).all() and (at_2["P_3"] < at_1["P_3"]).any()
