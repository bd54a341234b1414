"""RelevanceEvaluator against pytrec_eval on trec_eval's official measures (runid,
num_q, the counts, map, gm_map's per-query log, Rprec, bpref, recip_rank,
iprec_at_recall, P), on random dicts with ties, unjudged and negative levels. Skipped
without pytrec_eval (the bench extra). pytrec_eval bundles trec_eval 9, whose recall
cutoffs of iprec_at_recall round as ``(long)(fraction * R + 0.9)``: RelevanceEvaluator
computes them so (the vocabulary's ``pytrec_eval_metric``), the command as trec_eval
10.0 (``lround``, tests/cli/test_trec_eval_measures.py)."""

import numpy as np
import pytest

from sklearn_ndcg import RelevanceEvaluator

pytrec_eval = pytest.importorskip("pytrec_eval")

OFFICIAL = {"runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map"}
OFFICIAL |= {"Rprec", "bpref", "recip_rank", "iprec_at_recall", "P"}


@pytest.mark.parametrize("seed", range(5))
def test_official_set_equals_pytrec_eval(seed):
    rng = np.random.default_rng(seed)
    qrels = {
        f"q{i}": {f"d{j}": int(rng.integers(-1, 4)) for j in range(12) if rng.random() < 0.7}
        for i in range(30)
    }
    run = {
        f"q{i}": {f"d{j}": float(rng.integers(0, 8)) for j in range(15) if rng.random() < 0.8}
        for i in range(30)
    }
    qrels = {q: judged for q, judged in qrels.items() if judged}
    run = {q: ranked for q, ranked in run.items() if ranked}
    expected = pytrec_eval.RelevanceEvaluator(qrels, OFFICIAL).evaluate(run)
    got = RelevanceEvaluator(qrels, OFFICIAL).evaluate(run)
    assert got.keys() == expected.keys()
    for qid, values in expected.items():
        assert got[qid].keys() == values.keys()
        for name, value in values.items():
            expected_value = pytest.approx(value, rel=1e-12, abs=1e-12, nan_ok=True)
            assert got[qid][name] == expected_value, (qid, name)


def test_a_run_of_empty_rankings_scores_as_with_other_queries():
    """A judged query with an empty ranking has the same values whether the run ranks
    other queries or none: num_rel its relevant documents (2), gm_map the log of the
    floor (1e-5, m_gm_map.c), interpolated precision 0 / 0 where a level asks for no
    document (lround(0.0 * 2) = 0) and 0 at 0.5 (1 document), the rest 0."""
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 1}}
    measures = {"num_rel", "gm_map", "iprec_at_recall.0,0.5", "P_5", "map"}
    evaluator = RelevanceEvaluator(qrels, measures)
    alone = evaluator.evaluate({"q1": {}})["q1"]
    beside = evaluator.evaluate({"q1": {}, "q2": {"c": 1.0}})["q1"]
    assert alone == pytest.approx(beside, nan_ok=True)
    assert alone["num_rel"] == 2.0 and alone["gm_map"] == pytest.approx(np.log(1e-5))
    assert np.isnan(alone["iprec_at_recall_0.00"]) and alone["iprec_at_recall_0.50"] == 0.0
    assert alone["P_5"] == alone["map"] == 0.0
