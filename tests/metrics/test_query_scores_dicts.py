"""query_scores of pytrec_eval's dicts (the qrels ``{qid: {docno: relevance}}`` as
y_true, the run ``{qid: {docno: score}}`` as y_score): the values of the same judgments
passed as arrays with their pool (rows written out by hand here, trec_eval's order of
tied scores by Python's ``sorted``), to 1e-12, for each measure; str and int query ids;
pytrec_eval itself (trec_eval's C code) for ties="docno"; errors."""

import copy

import numpy as np
import pytest
from _trec_dicts import random_dicts

from sklearn_ndcg import JudgmentPool, query_scores

METRICS = [
    "ndcg", "ndcg_cut_3", "dcg", "map", "map_cut_5", "recip_rank", "recip_rank_3", "P_5",
    "recall_3", "success_1",
]  # fmt: skip


def _arrays(qrels, run, trec_order):
    """The run's rows, each with its qrels label (NaN: unjudged), and the pool; with
    ``trec_order`` the rows of each query by decreasing score, tied scores by
    decreasing document id (trec_eval's order, kept by ties="first")."""
    rows = [
        (q, d, s, qrels.get(q, {}).get(d, np.nan))
        for q, docs in run.items()
        for d, s in docs.items()
    ]
    if trec_order:
        rows = sorted(rows, key=lambda row: (str(row[0]), -row[2], [-ord(c) for c in row[1]]))
    qid, _, score, label = zip(*rows)
    judged = [(q, level) for q, docs in qrels.items() for level in docs.values()]
    pool = JudgmentPool([q for q, _ in judged], [level for _, level in judged])
    return np.array(label), np.array(score), np.array(qid), pool


@pytest.mark.parametrize("key", [str, lambda q: f"q{q}"], ids=["int-like str", "str"])
@pytest.mark.parametrize("ties", ["average", "docno"])
def test_dicts_give_the_arrays_values(key, ties):
    rng = np.random.default_rng(49)
    worst, n_values = 0.0, 0
    for _ in range(15):
        qrels, run = random_dicts(rng, 5, 10, key=key, unjudged=0.5)
        if not set(run) & set(qrels):
            continue
        label, score, qid, pool = _arrays(qrels, run, trec_order=ties == "docno")
        got = query_scores(qrels, run, metric=METRICS, ties=ties)
        expected = query_scores(
            label, score, qid=qid, pool=pool, metric=METRICS,
            ties="first" if ties == "docno" else ties,
        )  # fmt: skip
        for name in METRICS:
            np.testing.assert_array_equal(got[name].qid, expected[name].qid)
            worst = max(worst, np.abs(got[name].score - expected[name].score).max())
            n_values += got[name].score.shape[0]
    assert n_values > 300 and worst <= 1e-12


def test_int_query_ids_keep_their_type_and_order():
    rng = np.random.default_rng(7)
    qrels, run = random_dicts(rng, 12, 10, key=int, unjudged=0.5)
    label, score, qid, pool = _arrays(qrels, run, trec_order=False)
    for metric in METRICS:
        got = query_scores(qrels, run, metric=metric)
        expected = query_scores(label, score, qid=qid, pool=pool, metric=metric)
        assert got.qid.dtype.kind == "i"
        np.testing.assert_array_equal(got.qid, expected.qid)  # 2 before 10, as numbers
        np.testing.assert_allclose(got.score, expected.score, rtol=1e-12, atol=1e-12)


def test_equals_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    # pytrec_eval's measure names -> query_scores' (trec_eval's -q lines)
    names = {"ndcg": "ndcg", "ndcg_cut.3": "ndcg_cut_3", "map": "map", "P.5": "P_5"}
    names.update({"recip_rank": "recip_rank", "recall.3": "recall_3", "success.1": "success_1"})
    rng = np.random.default_rng(3)
    worst, n_values = 0.0, 0
    for _ in range(15):
        qrels, run = random_dicts(rng, 5, 10, unjudged=0.5)
        expected = pytrec_eval.RelevanceEvaluator(qrels, set(names)).evaluate(run)
        if not expected:
            continue
        got = query_scores(qrels, run, metric=list(names.values()), ties="docno")
        for name in names.values():
            assert got[name].qid.tolist() == sorted(expected)
            reference = [expected[q][name] for q in got[name].qid]
            worst = max(worst, np.abs(got[name].score - reference).max())
            n_values += len(reference)
    assert n_values > 300 and worst <= 1e-12


def test_float_judgments_and_inputs_untouched():
    qrels = {"q": {"a": 0.5, "b": 2.25, "c": 0.0}}
    run = {"q": {"a": 0.3, "b": 0.1, "z": 0.9}}
    before = copy.deepcopy((qrels, run))
    got = query_scores(qrels, run)
    # hand computation: gains 0 (z, unjudged), 0.5, 2.25 at ranks 1-3; ideal 2.25, 0.5
    dcg = 0.5 / np.log2(3) + 2.25 / np.log2(4)
    assert got.qid.tolist() == ["q"]
    assert got.score[0] == pytest.approx(dcg / (2.25 + 0.5 / np.log2(3)), rel=1e-12)
    assert (qrels, run) == before


@pytest.mark.parametrize(
    ("y_true", "y_score", "options", "error", "match"),
    [
        ({"q": {"a": 1}}, [0.5], {}, TypeError, "dicts together"),
        ([1], {"q": {"a": 0.5}}, {}, TypeError, "dicts together"),
        ({"q": {"a": 1}}, {"q": {"a": 0.5}}, {"qid": ["q"]}, ValueError, "qid is not read"),
        ({"q": {"a": 1}}, {"q": {"a": 0.5}}, {"sample_weight": [1.0]}, ValueError, "sample_weight"),
        ({"q": {"a": 1}}, {"q": {"a": 0.5}}, {"metric": "infNDCG"}, ValueError, "strata"),
        ({"q": {"a": 1}}, {}, {}, ValueError, "y_score holds no document"),
        ({"q": {"a": 1}}, {"q": {"a": "high"}}, {}, TypeError, "y_score holds a score that is not"),
        ({"q": [1]}, {"q": {"a": 0.5}}, {}, TypeError, "y_true must be a dict of dicts"),
    ],
)
def test_bad_dicts(y_true, y_score, options, error, match):
    with pytest.raises(error, match=match):
        query_scores(y_true, y_score, **options)


# pytrec_eval's names of the measures that trec_eval -q prints
_PYTREC = {"map": "map", "ndcg": "ndcg", "recip_rank": "recip_rank", "P_5": "P.5"}
_PYTREC.update({"ndcg_cut_3": "ndcg_cut.3", "recall_3": "recall.3", "success_1": "success.1"})


@pytest.mark.parametrize(
    "run",
    [
        {"q1": {}, "q2": {"a": 1.0}},  # issue 56: q1 scores 0, mean MAP 0.5
        {"q1": {}, "q2": {"a": 1.0}, "q3": {}},  # q3 unjudged: left out
        {"q1": {}, "q3": {"a": 2.0}, "q2": {"b": 1.0, "a": 0.5}},
    ],
)
def test_empty_rankings_equal_pytrec_eval(run):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels = {"q1": {"a": 1}, "q2": {"a": 1, "b": 0}}
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(_PYTREC.values())).evaluate(run)
    results = query_scores(qrels, run, metric=list(_PYTREC), ties="docno")
    for name, values in results.items():
        assert values.qid.tolist() == sorted(expected)
        reference = [expected[q][name] for q in sorted(expected)]
        np.testing.assert_allclose(values.score, reference, atol=1e-12)
    assert query_scores(qrels, run, metric="map", ties="docno").qid.tolist() == sorted(expected)


def test_ignore_identical_ids_equals_pytrec_eval_without_them():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    rng = np.random.default_rng(642)
    for _ in range(30):
        qrels, run = random_dicts(rng, 5, 8)
        run = {q: {q: 3.0, **docs} if rng.random() < 0.7 else docs for q, docs in run.items()}
        if run:
            run[next(iter(run))] = {next(iter(run)): 1.0}  # emptied: scores as empty
        given = copy.deepcopy(run)
        by_hand = {q: {d: s for d, s in docs.items() if d != q} for q, docs in run.items()}
        expected = pytrec_eval.RelevanceEvaluator(qrels, set(_PYTREC.values())).evaluate(by_hand)
        if not expected:
            continue
        results = query_scores(
            qrels, run, metric=list(_PYTREC), ties="docno", ignore_identical_ids=True
        )
        assert run == given  # not modified
        for name, values in results.items():
            assert values.qid.tolist() == sorted(expected)
            reference = [expected[q][name] for q in sorted(expected)]
            np.testing.assert_allclose(values.score, reference, atol=1e-12)


def test_ignore_identical_ids_needs_dicts():
    with pytest.raises(ValueError, match="ignore_identical_ids compares document ids"):
        query_scores([1, 0], [0.5, 0.2], qid=[1, 1], ignore_identical_ids=True)
