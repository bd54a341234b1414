"""pytrec_eval's spellings of the measures (``_ir/_spellings.py``): every spelling and
nickname pytrec_eval reads gives RelevanceEvaluator pytrec_eval's keys and values
(pytrec_eval itself the reference, skipped without it), and its messages speak of
RelevanceEvaluator."""

import pytest

from sklearn_ndcg import RelevanceEvaluator
from sklearn_ndcg._ir._spellings import NICKNAMES, pytrec_measures
from sklearn_ndcg._vocabulary import BY_NAME


def test_nicknames_are_pytrec_evals():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    assert {name: set(names) for name, names in NICKNAMES.items()} == {
        name: set(names) for name, names in pytrec_eval.supported_nicknames.items()
    }


def test_official_nickname_expands_in_the_vocabulary_order():
    measures = pytrec_measures(["official"], where="RelevanceEvaluator (measures=)")
    names = [request.name for request in measures]
    assert names == list(NICKNAMES["official"])
    assert all(request.pytrec_eval for request in measures)
    assert all(BY_NAME[name].official for name in names)


@pytest.mark.parametrize(
    "measures",
    [
        {"ndcg_cut_10"},
        {"ndcg_cut_5,10", "P_5"},
        {"P.5", "P_10", "P"},
        {"recall_5", "recall.10,100", "map_cut_5", "success_1,5"},
        {"map", "recip_rank", "ndcg", "ndcg_cut.10", "ndcg_cut_20"},
        {"P_5x"},  # pytrec_eval reads the parameters from the start of the name
    ],
)
def test_pytrec_eval_spellings(measures):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q1": {"a": 1, "b": 2, "c": 0}, "q2": {"a": 1}}
    run = {"q1": {"a": 0.3, "b": 0.5, "c": 0.9, "d": 0.1}, "q2": {"b": 1.0, "a": 0.5}}
    expected = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    got = RelevanceEvaluator(qrels, measures).evaluate(run)
    assert got.keys() == expected.keys()
    for qid, values in expected.items():
        assert got[qid].keys() == values.keys()
        assert got[qid] == pytest.approx(values, abs=1e-12)


@pytest.mark.parametrize(
    "measures, message",
    [
        ({"Rprec_x"}, r"unknown measure 'Rprec_x'; RelevanceEvaluator \(measures=\) computes"),
        ({"ndcg.1=x"}, r"not a finite number"),
        ({"ndcg.x"}, r"not of the form level=gain; RelevanceEvaluator \(measures=\) computes"),
        ({"P."}, r"no parameters after the '.'; RelevanceEvaluator \(measures=\) computes"),
        ({"set"}, r"nickname 'set' stands for .*RelevanceEvaluator \(measures=\) lacks"),
        ({"infNDCG"}, r"RelevanceEvaluator \(measures=\) cannot compute infNDCG"),
        ({"P.0"}, "cutoffs"),
    ],
)
def test_messages_speak_of_relevance_evaluator(measures, message):
    with pytest.raises(ValueError, match=message) as caught:
        RelevanceEvaluator({"q": {"a": 1}}, measures)
    assert "this command" not in str(caught.value)
