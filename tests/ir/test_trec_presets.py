"""The presets reproduce their tool in every entry point (issue 25).

``CONVENTIONS["trec_eval"]`` with :func:`evaluate_run`, with :func:`query_scores` and
:func:`ndcg_score` given the pool, and the ``trec-eval`` command give pytrec_eval's
per-query values (the reference: trec_eval's own C code, run by pytrec_eval) on the
same random qrels and run files, with ``-J`` and ``-c``; where the metric functions
lack the document ids that the tie rule needs, the preset raises instead of returning
another number. ``CONVENTIONS["ranx"]`` is checked against ranx itself.
"""

import warnings

import numpy as np
import pytest

from sklearn_ndcg import (
    CONVENTIONS,
    JudgmentPool,
    evaluate_run,
    make_ndcg_scorer,
    ndcg_score,
    query_scores,
    read_trec_qrels,
    read_trec_run,
)
from sklearn_ndcg._ir import measures_from, trec_eval_scores

# document ids of several lengths and cases, so that byte order matters
DOCNOS = np.array(["d1", "d10", "d2", "D2", "a", "B", "doc-11", "doc_9", "z", "Zz", "d01", "b"])
N_CASES = 150


def _random_files(rng, folder):
    """Random qrels and run files (many tied scores, negative levels); pytrec_eval's dicts."""
    qrels, run = {}, {}
    n_queries = int(rng.integers(1, 6))
    for i in range(n_queries + int(rng.integers(0, 2))):  # maybe a query of the run only
        qid = f"q{i}"
        judged = rng.choice(DOCNOS, size=int(rng.integers(1, 9)), replace=False)
        levels = rng.integers(-2, 4, size=judged.shape[0])
        levels[0] = max(levels[0], 0)  # trec_eval needs a level >= 0 in each query
        if i < n_queries:
            qrels[qid] = dict(zip(judged.tolist(), levels.tolist()))
        if i > 0 and rng.random() < 0.15:
            continue  # a judged query without a ranking
        ranked = rng.choice(DOCNOS, size=int(rng.integers(1, DOCNOS.shape[0])), replace=False)
        scores = rng.integers(0, 3, size=ranked.shape[0]).astype(float)  # many ties
        if rng.random() < 0.3:
            scores = np.round(rng.normal(size=ranked.shape[0]), 1)
        run[qid] = dict(zip(ranked.tolist(), scores.tolist()))
    lines = [f"{q} 0 {d} {v}\n" for q, docs in qrels.items() for d, v in docs.items()]
    (folder / "qrels").write_text("".join(lines))
    lines = [f"{q} Q0 {d} 0 {s!r} r\n" for q, docs in run.items() for d, s in docs.items()]
    (folder / "run").write_text("".join(lines))
    return qrels, run


def _tie_free(score, docno):
    """The user guide's recipe: trec_eval's order as a tie-free score (by score, then
    by decreasing document id), over all rows."""
    order = np.lexsort((docno, score))
    tie_free = np.empty(order.shape[0])
    tie_free[order] = np.arange(order.shape[0])
    return tie_free


def _expected(pytrec_eval, qrels, run, measure, judged_only, complete):
    if complete:  # -c: a judged query without results is an empty ranking
        run = {**{q: {} for q in qrels}, **run}
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, {measure}, judged_docs_only_flag=judged_only)
    key = measure.replace(".", "_")
    return {q: values[key] for q, values in evaluator.evaluate(run).items()}


def test_trec_eval_preset_in_every_entry_point(tmp_path):
    pytrec_eval = pytest.importorskip(
        "pytrec_eval", reason="needs the bench extra (pytrec-eval-terrier)"
    )
    rng = np.random.default_rng(25)
    n_cases = n_values = n_refused = 0
    worst = 0.0
    while n_cases < N_CASES:
        qrels_dict, run_dict = _random_files(rng, tmp_path)
        if not set(run_dict) & set(qrels_dict):
            continue  # nothing to evaluate
        n_cases += 1
        run, qrels = read_trec_run(tmp_path / "run"), read_trec_qrels(tmp_path / "qrels")
        # the labels of the ranked documents, joined by hand; NaN where not judged
        label = np.array([qrels_dict.get(q, {}).get(d, np.nan) for q, d in zip(run.qid, run.docno)])
        tie_free = _tie_free(run.score, run.docno)
        pool = JudgmentPool(qrels.qid, qrels.relevance)
        for judged_only in (False, True):
            for complete in (False, True):
                flags = {
                    "unjudged": "drop" if judged_only else "zero",
                    "missing_queries": "zero" if complete else "drop",
                }
                # -J: a negative level is "pooled, not judged" (NaN) for the metric functions
                y = np.where(label < 0, np.nan, label) if judged_only else label
                for k, measure in ((None, "ndcg"), (5, "ndcg_cut.5"), (10, "ndcg_cut.10")):
                    expected = _expected(
                        pytrec_eval, qrels_dict, run_dict, measure, judged_only, complete
                    )
                    qids = sorted(expected)
                    want = np.array([expected[q] for q in qids])
                    preset = {"k": k, **flags, **CONVENTIONS["trec_eval"]}
                    with warnings.catch_warnings():  # random cases where nothing matches
                        warnings.filterwarnings("ignore", "no ranked document of the run is in")
                        result = evaluate_run(run, qrels, **preset)
                    got = {"evaluate_run": result.per_query.score}
                    pooled = query_scores(y, tie_free, qid=run.qid, pool=pool, **preset)
                    got["query_scores"] = pooled.score
                    assert pooled.qid.tolist() == qids
                    mean = ndcg_score(y, tie_free, qid=run.qid, pool=pool, **preset)
                    got["ndcg_score"] = np.array([mean])
                    want_by = {name: want for name in got}
                    want_by["ndcg_score"] = np.array([want.mean()])
                    assert result.per_query.qid.tolist() == qids
                    for name, values in got.items():
                        np.testing.assert_allclose(values, want_by[name], rtol=1e-12, atol=1e-12)
                        worst = max(worst, float(np.abs(values - want_by[name]).max()))
                        n_values += values.shape[0]
                    # tied scores: the order by document id is unknown here
                    try:
                        raw = query_scores(y, run.score, qid=run.qid, pool=pool, **preset).score
                    except ValueError as error:
                        assert "ties='docno'" in str(error)
                        n_refused += 1
                    else:  # no tie decided anything: the same values
                        np.testing.assert_allclose(raw, want, rtol=1e-12, atol=1e-12)
                # the command, every measure at once
                report = trec_eval_scores(
                    qrels,
                    run,
                    measures_from([("ndcg", None), ("ndcg_cut", "5,10")]),
                    judged_only=judged_only,
                    complete=complete,
                )
                for name, values in report.columns:
                    measure = name.replace("ndcg_cut_", "ndcg_cut.")
                    expected = _expected(
                        pytrec_eval, qrels_dict, run_dict, measure, judged_only, complete
                    )
                    assert report.qid.tolist() == sorted(expected)
                    want = np.array([expected[q] for q in report.qid])
                    np.testing.assert_allclose(values, want, rtol=1e-12, atol=1e-12)
                    n_values += values.shape[0]
    print(
        f"\ntrec_eval preset: {n_cases} random file pairs, {n_values} values equal to "
        f"pytrec_eval (largest difference {worst:.1e}); tied scores refused without "
        f"document ids {n_refused} times"
    )
    assert n_refused > 0  # the data has ties that decide


def test_trec_eval_preset_in_a_scorer():
    # tie-free scores: the scorer gives the same value as ndcg_score; tied ones raise
    from sklearn.linear_model import LinearRegression

    X = np.array([[3.0], [2.0], [1.0], [2.5], [0.5]])
    y, qid = np.array([0.0, 1.0, 2.0, 1.0, 0.0]), np.array([1, 1, 1, 2, 2])
    model = LinearRegression().fit(X, -X[:, 0])  # predicts -x: tie-free
    scorer = make_ndcg_scorer(k=2, **CONVENTIONS["trec_eval"])
    expected = ndcg_score(y, -X[:, 0], qid=qid, k=2, **CONVENTIONS["sklearn"])
    assert scorer(model, X, y, qid=qid) == pytest.approx(expected, rel=1e-12)
    tied = LinearRegression().fit(X, np.zeros(5))  # every score the same
    with pytest.raises(ValueError, match="ties='docno'.*needs document ids"):
        scorer(tied, X, y, qid=qid)


@pytest.mark.parametrize("k", [None, 3, 10])
def test_ranx_preset_with_evaluate_run(tmp_path, k):
    ranx = pytest.importorskip("ranx", reason="needs the bench extra (ranx)")
    rng = np.random.default_rng(7)
    qrels_dict, run_dict = {}, {}
    for i in range(12):
        judged = rng.choice(DOCNOS, size=6, replace=False)
        qrels_dict[f"q{i}"] = dict(zip(judged.tolist(), rng.integers(-1, 4, 6).tolist()))
        qrels_dict[f"q{i}"][judged[0]] = 2  # a relevant document in every query
        if i < 10:  # two judged queries without results
            ranked = rng.choice(DOCNOS, size=8, replace=False)
            run_dict[f"q{i}"] = dict(zip(ranked.tolist(), rng.permutation(8).tolist()))
    run = tuple(
        np.array(column, dtype=object)
        for column in zip(
            *[(q, d, float(s)) for q, docs in run_dict.items() for d, s in docs.items()]
        )
    )
    qrels = tuple(
        np.array(column, dtype=object)
        for column in zip(*[(q, d, v) for q, docs in qrels_dict.items() for d, v in docs.items()])
    )
    metric = "ndcg" if k is None else f"ndcg@{k}"
    expected = ranx.evaluate(
        ranx.Qrels(qrels_dict), ranx.Run(run_dict), metric, make_comparable=True
    )
    got = evaluate_run(run, qrels, k=k, missing_queries="zero", **CONVENTIONS["ranx"])
    assert got.per_query.qid.shape[0] == 12
    assert got.score == pytest.approx(float(expected), rel=1e-12)


def test_docno_ties_without_document_ids_refused_only_where_they_decide():
    # hand cases: a tie group of labels 0, 0, 0, 1 cut by k=2 decides (its relevant
    # member may or may not reach the top 2), though the first three rows are all 0
    with pytest.raises(ValueError, match="ties='docno'"):
        ndcg_score([[0, 0, 0, 1]], [[1, 1, 1, 1]], k=2, ties="docno")
    # tied documents of one label, or ties below the cutoff, decide nothing: "first"
    for y, s, k in (([[1, 1, 0]], [[2, 2, 1]], None), ([[2, 0, 0]], [[3, 1, 1]], 1)):
        got = ndcg_score(y, s, k=k, ties="docno")
        assert got == ndcg_score(y, s, k=k, ties="first") == 1.0


def test_recommender_and_elasticsearch_presets_with_evaluate_run():
    # Hand computation with the tools' published formulas (see the comments of
    # CONVENTIONS in sklearn_ndcg/_conventions.py). Users u1, u2 (held-out items:
    # label 1) and u3 (held out, never recommended); recommendations in rank order.
    import math

    qrels = (["u1", "u1", "u2", "u3"], ["i1", "i2", "i3", "i4"], [1, 1, 1, 1])
    run = (["u1"] * 3 + ["u2"] * 3, ["i9", "i1", "i2", "i3", "i8", "i7"], [3, 2, 1, 3, 2, 1])
    d = [1 / math.log2(r + 1) for r in range(1, 4)]
    # RecBole / Recommenders NDCG@2: DCG over min(|R(u)|, 2) ones; u3 counts 0
    u1, u2 = d[1] / (d[0] + d[1]), d[0] / d[0]
    got = evaluate_run(run, qrels, k=2, missing_queries="zero", **CONVENTIONS["recommender"])
    assert got.per_query.qid.tolist() == ["u1", "u2", "u3"]
    np.testing.assert_allclose(got.per_query.score, [u1, u2, 0.0], rtol=1e-15, atol=0)
    # Elasticsearch _rank_eval dcg, normalize: gains 2**rating - 1, unrated hits 0,
    # ideal over the rated documents, cut at k = 3 (each request returns 3 hits)
    qrels = (["r1", "r1", "r2"], ["a", "b", "c"], [2, 1, 3])
    run = (["r1"] * 3 + ["r2"] * 3, ["x", "b", "a", "c", "y", "z"], [3, 2, 1, 3, 2, 1])
    r1 = (1 * d[1] + 3 * d[2]) / (3 * d[0] + 1 * d[1])
    got = evaluate_run(run, qrels, k=3, **CONVENTIONS["elasticsearch"])
    np.testing.assert_allclose(got.per_query.score, [r1, 1.0], rtol=1e-15, atol=0)
