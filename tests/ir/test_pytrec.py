"""RelevanceEvaluator (ir/_pytrec.py), pytrec_eval's interface: equal to pytrec_eval
itself (pytrec-eval-terrier, trec_eval's C code, in the ``bench`` extra) to 1e-12 on
random integer qrels with tied scores; with ``ties="average"`` independent of the order
of the run's entries (a hypothesis property); float judgments; errors."""

import numpy as np
import pytest
from _trec_dicts import random_dicts
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_ndcg import RelevanceEvaluator, evaluate_run

MEASURES = {
    "ndcg",
    "ndcg_cut.3,10",
    "map",
    "map_cut.2,5",
    "recip_rank",
    "P.1,5",
    "recall.3,100",
    "success.1,5",
}


def test_equals_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(49)
    n_values, worst = 0, 0.0
    for _ in range(60):
        qrels, run = random_dicts(rng, int(rng.integers(1, 5)), 12, score_levels=4)
        if not qrels:
            continue
        for level, judged_only in ((1, False), (2, False), (1, True)):
            options = {"relevance_level": level, "judged_docs_only_flag": judged_only}
            expected = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, **options).evaluate(run)
            got = RelevanceEvaluator(qrels, MEASURES, **options).evaluate(run)
            assert got.keys() == expected.keys()
            for qid, values in expected.items():
                assert got[qid].keys() == values.keys()
                for name, value in values.items():
                    worst = max(worst, abs(got[qid][name] - value))
                    n_values += 1
    assert n_values > 3000 and worst <= 1e-12


def test_family_names_and_keys():
    qrels = {"q": {"a": 1}}
    got = RelevanceEvaluator(qrels, {"P", "success", "ndcg_cut"}).evaluate({"q": {"a": 1.0}})
    assert list(got["q"]) == [
        *(f"P_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)),
        *(f"ndcg_cut_{k}" for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)),
        "success_1", "success_5", "success_10",
    ]  # fmt: skip
    # hand computation: the one relevant document at rank 1
    assert got["q"]["P_5"] == 0.2 and got["q"]["success_1"] == 1.0


def test_unjudged_queries_are_left_out():
    evaluator = RelevanceEvaluator({"q": {"a": 1}}, ["map"])
    assert evaluator.evaluate({"other": {"a": 1.0}}) == {}
    assert evaluator.evaluate({"q": {"a": 1.0}, "other": {"b": 2.0}}) == {"q": {"map": 1.0}}


@settings(max_examples=40, deadline=None)
@given(
    labels=st.lists(st.integers(0, 2), min_size=1, max_size=8),
    scores=st.lists(st.integers(0, 2), min_size=8, max_size=8),
    seed=st.integers(0, 2**32 - 1),
)
def test_average_ties_never_depend_on_the_order_of_the_run(labels, scores, seed):
    """Shuffling the entries of the run (and of the qrels) changes no value."""
    docs = [f"d{i}" for i in range(len(labels))]
    qrels = {"q": dict(zip(docs, labels)), "r": {"d0": 1}}
    run = {"q": {d: float(s) for d, s in zip(docs, scores)}, "r": {"d0": 1.0, "d1": 1.0}}
    measures = {"map", "recip_rank", "P.1,3", "recall.2", "success.1", "ndcg_cut.2", "ndcg"}
    expected = RelevanceEvaluator(qrels, measures, ties="average").evaluate(run)
    rng = np.random.default_rng(seed)
    shuffled = {q: dict(rng.permutation(list(d.items())).tolist()) for q, d in run.items()}
    shuffled = {q: {d: float(s) for d, s in items.items()} for q, items in shuffled.items()}
    got = RelevanceEvaluator(qrels, measures, ties="average").evaluate(shuffled)
    for qid, values in expected.items():
        for name, value in values.items():
            assert got[qid][name] == pytest.approx(value, abs=1e-12)


def test_float_judgments():
    """Float levels (refused by pytrec_eval): relevant from the relevance level on; equal
    to the same judgments passed to evaluate_run as arrays."""
    qrels = {"q": {"a": 0.5, "b": 1.5, "c": 0.0}}
    run = {"q": {"a": 3.0, "b": 2.0, "c": 1.0}}
    got = RelevanceEvaluator(qrels, {"recip_rank", "ndcg"}, relevance_level=1).evaluate(run)
    assert got["q"]["recip_rank"] == 0.5  # hand computation: b (1.5) at rank 2
    arrays = evaluate_run(
        (["q"] * 3, ["a", "b", "c"], [3.0, 2.0, 1.0]),
        (["q"] * 3, ["a", "b", "c"], [0.5, 1.5, 0.0]),
        ties="docno",
    )
    assert got["q"]["ndcg"] == pytest.approx(arrays.score, abs=1e-15)


@pytest.mark.parametrize(
    "qrels, measures, error, message",
    [
        ([("q", "a", 1)], {"map"}, ValueError, "query_relevance"),
        ({"q": [1]}, {"map"}, TypeError, "query_relevance must be a dict of dicts"),
        ({"q": {"a": "x"}}, {"map"}, TypeError, "holds a relevance that is not a number"),
        ({"q": {"a": float("nan")}}, {"map"}, ValueError, "not finite"),
        ({"q": {"a": 1}}, {"infAP"}, ValueError, "unknown measure 'infAP'"),
        ({"q": {"a": 1}}, set(), TypeError, "non-empty set of names"),
    ],
)
def test_bad_input(qrels, measures, error, message):
    with pytest.raises(error, match=message):
        RelevanceEvaluator(qrels, measures)


def test_bad_run():
    evaluator = RelevanceEvaluator({"q": {"a": 1}}, {"map"})
    with pytest.raises(TypeError, match="scores must be a dict of dicts"):
        evaluator.evaluate([("q", "a", 1.0)])
    run = {"q": {"a": 1.0}}
    evaluator.evaluate(run)
    assert run == {"q": {"a": 1.0}}  # not modified


def _assert_close(got, expected, tolerance=1e-12):
    """The same queries and measures, the values within ``tolerance``."""
    assert got.keys() == expected.keys()
    for qid, values in expected.items():
        assert got[qid].keys() == values.keys()
        assert got[qid] == pytest.approx(values, abs=tolerance)


EMPTY_RUNS = [
    {"q1": {}, "q2": {"a": 1.0}},  # the case: mean MAP 0.5
    {"q1": {}, "q2": {"a": 1.0}, "q3": {}},  # q3 has no judgments: left out
    {"q1": {}},  # only an empty ranking
    {"q3": {}},  # nothing judged
    {"q1": {}, "q3": {"a": 1.0}},
]


@pytest.mark.parametrize("run", EMPTY_RUNS)
@pytest.mark.parametrize("judged_only", [False, True])
def test_empty_rankings_equal_pytrec_eval(run, judged_only):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"a": 1}}
    options = {"judged_docs_only_flag": judged_only}
    expected = pytrec_eval.RelevanceEvaluator(qrels, MEASURES, **options).evaluate(run)
    for ties in ("docno", "average"):
        got = RelevanceEvaluator(qrels, MEASURES, ties=ties, **options).evaluate(run)
        _assert_close(got, expected)
    # ids that are not str: the tables' path
    numbered = {int(q[1:]): docs for q, docs in run.items()}
    got = RelevanceEvaluator({1: qrels["q1"], 2: qrels["q2"]}, MEASURES, **options)
    _assert_close(got.evaluate(numbered), {q[1:]: values for q, values in expected.items()})


def test_empty_rankings_of_random_runs_equal_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(56)
    n_empty = 0
    for _ in range(40):
        qrels, run = random_dicts(rng, 5, 10)
        run = {q: ({} if rng.random() < 0.3 else docs) for q, docs in run.items()}
        run.update({q: {} for q in qrels if rng.random() < 0.2})
        n_empty += sum(not docs for q, docs in run.items() if q in qrels)
        expected = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)
        _assert_close(RelevanceEvaluator(qrels, MEASURES).evaluate(run), expected)
    assert n_empty > 20


def _with_own_ids(rng):
    """Random dicts whose runs rank the query's own id (a document of the corpus)."""
    qrels, run = random_dicts(rng, 5, 8)
    run = {q: ({q: float(rng.integers(0, 4)), **docs} if rng.random() < 0.7 else docs)
           for q, docs in run.items()}  # fmt: skip
    if rng.random() < 0.5 and run:  # a ranking of the query alone: emptied
        first = next(iter(run))
        run[first] = {first: 1.0}
    return qrels, run


def test_ignore_identical_ids_equals_pytrec_eval_without_them():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(5376)
    n_dropped = 0
    for _ in range(40):
        qrels, run = _with_own_ids(rng)
        by_hand = {q: {d: s for d, s in docs.items() if d != q} for q, docs in run.items()}
        n_dropped += sum(q in docs for q, docs in run.items())
        expected = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(by_hand)
        given = {q: dict(docs) for q, docs in run.items()}
        got = RelevanceEvaluator(qrels, MEASURES, ignore_identical_ids=True).evaluate(run)
        _assert_close(got, expected)
        assert run == given  # not modified
    assert n_dropped > 50


def test_ignore_identical_ids_as_beir():
    # BEIR's EvaluateRetrieval.evaluate (ignore_identical_ids=True by default) drops
    # the query's own document ranked first: the relevant one is then first
    qrels = {"q1": {"d1": 1}}
    run = {"q1": {"q1": 2.0, "d1": 1.0, "d2": 0.5}}
    measures = {"ndcg_cut.10", "recip_rank"}
    beir = RelevanceEvaluator(qrels, measures, ignore_identical_ids=True).evaluate(run)
    assert beir == {"q1": {"recip_rank": 1.0, "ndcg_cut_10": 1.0}}
    plain = RelevanceEvaluator(qrels, measures).evaluate(run)
    # hand computation: d1 at rank 2
    assert plain == {"q1": {"recip_rank": 0.5, "ndcg_cut_10": pytest.approx(1 / np.log2(3))}}


# scores distinct in float64 that round to one float32 (1 + 2**-24 is half an ulp)
FLOAT32_TIES = [1.00000001, 1.0 + 2**-24, 1.0 + 3 * 2**-26]


def _float32_case(rng):
    qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2, "d4": 0}, "q2": {"e1": 1, "e2": 0}}
    run = {
        "q1": {"d1": float(rng.choice(FLOAT32_TIES)), "d2": 1.0, "d3": 0.5, "d4": 0.5 + 1e-9},
        "q2": {"e1": 16777217.0, "e2": 16777216.0},  # 2**24 + 1 rounds to 2**24
    }
    return qrels, run


def test_float32_scores_equal_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(32)
    for _ in range(5):
        qrels, run = _float32_case(rng)
        expected = pytrec_eval.RelevanceEvaluator(qrels, MEASURES).evaluate(run)
        got = RelevanceEvaluator(qrels, MEASURES, score_dtype="float32").evaluate(run)
        _assert_close(got, expected)
        assert RelevanceEvaluator(qrels, MEASURES).evaluate(run) != expected  # float64


def test_float32_default_equals_the_binary(tmp_path):
    import subprocess

    from _trec_dicts import trec_eval_binary

    binary = trec_eval_binary()
    if binary is None:
        pytest.skip("needs the trec_eval binary (SKLEARN_NDCG_TREC_EVAL)")
    qrels, run = _float32_case(np.random.default_rng(32))
    lines = [f"{q} 0 {d} {v}\n" for q, docs in qrels.items() for d, v in docs.items()]
    (tmp_path / "qrels").write_text("".join(lines))
    lines = [f"{q} Q0 {d} 0 {s!r} r\n" for q, docs in run.items() for d, s in docs.items()]
    (tmp_path / "run").write_text("".join(lines))
    argv = [str(binary), "-q", "-m", "map", "-m", "recip_rank", "-m", "ndcg"]
    out = subprocess.run([*argv, str(tmp_path / "qrels"), str(tmp_path / "run")],
                         capture_output=True, text=True, check=True).stdout  # fmt: skip
    expected: dict = {}
    for line in out.splitlines():
        name, qid, value = line.split()
        if qid != "all":
            expected.setdefault(qid, {})[name] = float(value)
    got = RelevanceEvaluator(qrels, {"map", "recip_rank", "ndcg"}).evaluate(run)
    _assert_close(got, expected, 5e-5)  # the binary prints 4 decimals
    float32 = RelevanceEvaluator(qrels, {"map"}, score_dtype="float32").evaluate(run)
    assert float32["q2"]["map"] == 0.5 and expected["q2"]["map"] == 1.0


@pytest.mark.parametrize(
    "option, message",
    [
        ({"ignore_identical_ids": "yes"}, "ignore_identical_ids"),
        ({"score_dtype": "float16"}, "score_dtype"),
    ],
)
def test_bad_harness_options(option, message):
    with pytest.raises(ValueError, match=message):
        RelevanceEvaluator({"q": {"a": 1}}, {"map"}, **option)
