"""register_ir_measures (ir/_ir_measures.py): this package as a provider of ir_measures,
against ir_measures' own pytrec_eval provider (trec_eval's C code) to 1e-12 on random
integer qrels with tied scores; RR@k (which that provider lacks) from its RR; with
ties="average", independent of the order of the run's entries; the ImportError."""

import sys

import numpy as np
import pytest
from _trec_dicts import random_dicts

from sklearn_ndcg import register_ir_measures


def _measures(ir_measures):
    from ir_measures import AP, RR, P, R, Success, nDCG

    return [
        nDCG, nDCG @ 3, nDCG(judged_only=True) @ 5, RR, RR(rel=2), AP, AP @ 5, AP(rel=2),
        P @ 1, P(rel=2) @ 5, P(judged_only=True) @ 3, R @ 3, R(rel=2) @ 10, Success @ 1,
        Success(rel=3) @ 5,
    ]  # fmt: skip


def _per_query(provider, measures, qrels, run):
    return {(m.query_id, str(m.measure)): m.value for m in provider.iter_calc(measures, qrels, run)}


def test_registered_under_its_name():
    ir_measures = pytest.importorskip("ir_measures")
    provider = register_ir_measures()
    assert ir_measures.providers.registry["sklearn_ndcg"] is provider
    average = register_ir_measures(ties="average")
    assert ir_measures.providers.registry["sklearn_ndcg_average"] is average
    assert provider.supports(ir_measures.nDCG @ 10) and provider.supports(ir_measures.RR @ 10)
    assert not provider.supports(ir_measures.nDCG(gains={0: 1}))  # custom gains: others'
    assert not provider.supports(ir_measures.ERR)


def test_equals_the_pytrec_eval_provider():
    ir_measures = pytest.importorskip("ir_measures")
    pytest.importorskip("pytrec_eval")
    measures = _measures(ir_measures)
    provider = register_ir_measures()
    rng = np.random.default_rng(49)
    worst, n_values = 0.0, 0
    for _ in range(20):
        qrels, run = random_dicts(rng, 6, 12)
        if not qrels:
            continue
        expected = _per_query(ir_measures.pytrec_eval, measures, qrels, run)
        got = _per_query(provider, measures, qrels, run)
        assert got.keys() == expected.keys()  # queries the run lacks: 0, as ir_measures'
        for key, value in expected.items():
            worst = max(worst, abs(got[key] - value))
            n_values += 1
        aggregate = provider.calc_aggregate(measures, qrels, run)
        reference = ir_measures.pytrec_eval.calc_aggregate(measures, qrels, run)
        assert all(abs(aggregate[m] - reference[m]) <= 1e-12 for m in measures)
    assert n_values > 1000 and worst <= 1e-12


def test_rr_at_k_is_rr_cut_at_k():
    ir_measures = pytest.importorskip("ir_measures")
    pytest.importorskip("pytrec_eval")
    from ir_measures import RR

    provider = register_ir_measures()
    rng = np.random.default_rng(5)
    for _ in range(10):
        qrels, run = random_dicts(rng, 6, 12)
        if not qrels:
            continue
        rr = _per_query(ir_measures.pytrec_eval, [RR], qrels, run)
        got = _per_query(provider, [RR @ 3], qrels, run)
        # RR@3: the reciprocal rank where the first relevant document is in the top 3
        assert got == {(q, "RR@3"): (v if v >= 1 / 3 else 0.0) for (q, _), v in rr.items()}


def test_average_ties_do_not_depend_on_the_runs_order():
    ir_measures = pytest.importorskip("ir_measures")
    measures = _measures(ir_measures)
    provider = register_ir_measures(ties="average")
    rng = np.random.default_rng(11)
    qrels, run = random_dicts(rng, 6, 12)
    shuffled = {
        q: dict(sorted(docs.items(), key=lambda _: rng.random())) for q, docs in run.items()
    }
    renamed = {q: {f"x{d}": s for d, s in docs.items()} for q, docs in run.items()}
    renamed_qrels = {q: {f"x{d}": v for d, v in docs.items()} for q, docs in qrels.items()}
    first = _per_query(provider, measures, qrels, run)
    assert _per_query(provider, measures, qrels, shuffled) == pytest.approx(first, abs=1e-12)
    # ids that change the docno order change no value under "average"
    assert _per_query(provider, measures, renamed_qrels, renamed) == pytest.approx(first, abs=1e-12)


def test_without_ir_measures_the_error_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ir_measures", None)  # import fails
    with pytest.raises(ImportError, match=r"sklearn-ndcg\[irmeasures\]"):
        register_ir_measures()


def test_bad_ties():
    with pytest.raises(ValueError, match="ties"):
        register_ir_measures(ties="first")


def _unsupported(ir_measures):
    from ir_measures import ERR, Bpref, Judged, nDCG

    return [nDCG(gains={0: 0, 1: 1, 2: 10}), nDCG(dcg="exp-log2"), Judged @ 10, Bpref, ERR @ 5]


def test_unsupported_measures_raise_ir_measures_error():
    # ir_measures' providers raise ValueError("unsupported measure <measure>")
    ir_measures = pytest.importorskip("ir_measures")
    provider = register_ir_measures()
    qrels = {"q1": {"a": 1, "b": 2, "c": 0}}
    run = {"q1": {"a": 0.9, "b": 0.5, "c": 0.7}}
    for measure in _unsupported(ir_measures):
        assert not provider.supports(measure)
        for call in (provider.calc_aggregate, provider.iter_calc, provider.calc):
            with pytest.raises(ValueError, match=r"^unsupported measure ") as caught:
                call([ir_measures.nDCG @ 10, measure], qrels, run)
            assert str(caught.value) == f"unsupported measure {measure}"
        with pytest.raises(ValueError, match=r"^unsupported measure "):
            provider.evaluator([measure], qrels)
    # the same error as ir_measures' own providers give
    with pytest.raises(ValueError) as reference:
        ir_measures.pytrec_eval.calc_aggregate([ir_measures.Judged @ 10], qrels, run)
    with pytest.raises(ValueError) as ours:
        provider.calc_aggregate([ir_measures.Judged @ 10], qrels, run)
    assert str(ours.value) == str(reference.value)
