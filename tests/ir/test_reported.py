"""The capabilities of the ``trec-eval`` registry's entries (``_ir/_reported.py``), read
from the vocabulary: what trec_eval 10.0 prints per query and on its ``all`` line (its
measures' ``print_single`` and ``calc_avg`` functions: m_num_q.c, m_gm_map.c, m_runid.c
print nothing per query; the counts print as "%ld" and sum)."""

import pytest

from sklearn_ndcg._ir import MEASURES
from sklearn_ndcg._ir._reported import Reported
from sklearn_ndcg._vocabulary import BY_NAME


@pytest.mark.parametrize(
    "name, per_query, integer, summary",
    [
        ("runid", False, False, "name"),
        ("num_q", False, True, "count"),
        ("num_ret", True, True, "sum"),
        ("num_rel_ret", True, True, "sum"),
        ("gm_map", False, False, "geometric"),
        ("map", True, False, "mean"),
        ("P", True, False, "mean"),
    ],
)
def test_what_trec_eval_prints(name, per_query, integer, summary):
    measure = MEASURES[name]
    assert (measure.per_query, measure.integer, measure.summary) == (per_query, integer, summary)


def test_capabilities_come_from_the_entry():
    reported = Reported(BY_NAME["ndcg_cut"])
    assert reported.in_default and reported.bounded and not reported.sampled_pool
    assert reported.rank_requests(None) is None
    assert Reported(BY_NAME["infNDCG"]).sampled_pool
    assert not Reported(BY_NAME["rbp"]).bounded  # -B bounds NDCG only
    assert [name for name, m in MEASURES.items() if m.in_default] == ["ndcg", "ndcg_cut"]
