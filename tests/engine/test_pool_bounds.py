"""Judged@k and the NDCG bounds over the unjudged documents (``bounds=True``, issue 25).

References: brute-force enumeration of every assignment of the levels to the unjudged
documents, with NDCG written out by hand below (tied scores: the mean over every order
of each tie group, enumerated too), on 1,000 random small cases; ir_measures'
``Judged@k`` (the bench extra).
"""

import itertools
import math

import numpy as np
import pytest

from sklearn_ndcg import (
    CONVENTIONS,
    JudgmentPool,
    evaluate_run,
    positive_part_gain,
    query_scores,
)


def _dcg(gains, k):
    return sum(g / math.log2(r + 2) for r, g in enumerate(gains[:k]))


def _ndcg_by_hand(labels, scores, pool_labels, k, tie_average):
    """NDCG@k of one query: the ranking's labels by decreasing score (tied scores in
    input order, or the mean over every order of each tie group), over the ideal DCG@k
    of the pool's labels."""
    k = len(labels) + len(pool_labels) if k is None else k
    ideal = _dcg(sorted(pool_labels, reverse=True), k)
    groups = itertools.groupby(
        sorted(range(len(scores)), key=lambda i: -scores[i]), key=lambda i: scores[i]
    )
    blocks = [list(members) for _, members in groups]
    if tie_average:
        orders = [
            [i for block in choice for i in block]
            for choice in itertools.product(*(itertools.permutations(b) for b in blocks))
        ]
    else:
        orders = [[i for block in blocks for i in block]]
    dcg = sum(_dcg([labels[i] for i in order], k) for order in orders) / len(orders)
    return dcg / ideal if ideal > 0 else 0.0


def _brute_force(labels, scores, pool_labels, levels, k, tie_average):
    unjudged = [i for i, label in enumerate(labels) if label is None]
    values = []
    for assignment in itertools.product(levels, repeat=len(unjudged)):
        filled = list(labels)
        for i, level in zip(unjudged, assignment):
            filled[i] = level
        values.append(_ndcg_by_hand(filled, scores, pool_labels + list(assignment), k, tie_average))
    return min(values), max(values)


def _random_case(rng):
    n_queries = int(rng.integers(1, 4))
    qid, y, score, pool_qid, pool_y = [], [], [], [], []
    for q in range(n_queries):
        pool = rng.integers(0, 3, size=int(rng.integers(1, 5))).tolist()
        n_ranked = int(rng.integers(1, 6))
        judged_rows = rng.choice(len(pool), size=min(len(pool), n_ranked), replace=False)
        labels = [pool[i] for i in judged_rows][: int(rng.integers(0, n_ranked + 1))]
        labels += [None] * (n_ranked - len(labels))  # unjudged
        rng.shuffle(labels)
        tied = rng.random() < 0.3
        scores = (rng.integers(0, 3, n_ranked) if tied else rng.permutation(n_ranked)).tolist()
        qid += [q] * n_ranked
        y += labels
        score += scores
        pool_qid += [q] * len(pool)
        pool_y += pool
    return qid, y, score, pool_qid, pool_y


def test_bounds_equal_brute_force_enumeration():
    rng = np.random.default_rng(2025)
    n_queries = n_strict = 0
    for case in range(1000):
        qid, y, score, pool_qid, pool_y = _random_case(rng)
        k = [None, 1, 2, 3][case % 4]
        ties = "average" if case % 3 else "first"
        levels = [0, 1, 2] if case % 5 else [0, 3]
        result = query_scores(
            np.array([np.nan if v is None else v for v in y]),
            np.array(score, dtype=float),
            qid=qid,
            pool=JudgmentPool(pool_qid, pool_y),
            k=k,
            ties=ties,
            bounds=True,
            levels=levels,
        )
        for i, q in enumerate(result.qid):
            rows = [r for r in range(len(qid)) if qid[r] == q]
            labels, scores = [y[r] for r in rows], [score[r] for r in rows]
            pool = [pool_y[r] for r in range(len(pool_qid)) if pool_qid[r] == q]
            low, high = _brute_force(labels, scores, pool, levels, k, ties == "average")
            assert result.lower[i] == pytest.approx(low, abs=1e-12), (case, q)
            assert result.upper[i] == pytest.approx(high, abs=1e-12), (case, q)
            assert low - 1e-12 <= result.score[i] <= high + 1e-12
            n_queries += 1
            n_strict += high - low > 1e-9
    print(f"\nbounds: {n_queries} queries of 1000 cases equal brute force; {n_strict} strict")
    assert n_strict > 100


def test_extremes_are_not_all_zero_or_all_top():
    # a relevant unjudged document low in the ranking lowers NDCG through the ideal,
    # so "all unjudged at the top level" is not the upper bound: hand computation
    pool = JudgmentPool(qid=[1, 1], y_true=[1, 0])
    result = query_scores(
        [1, 0, np.nan], [3, 2, 1], qid=[1, 1, 1], pool=pool, bounds=True, levels=[0, 1]
    )
    assert result.score.tolist() == [1.0]  # unjudged gains 0
    assert result.upper.tolist() == [1.0]  # labelled 0
    d2, d3 = 1 / math.log2(3), 1 / math.log2(4)
    assert result.lower[0] == pytest.approx((1 + d3) / (1 + d2), abs=1e-15)  # labelled 1
    # and the lowest level is not the lower bound: an unjudged first document labelled 0
    # loses more than one labelled 2 would
    pool = JudgmentPool(qid=[1, 1], y_true=[2, 0])
    result = query_scores([np.nan, 2], [2, 1], qid=[1, 1], pool=pool, bounds=True)
    assert result.lower[0] == pytest.approx(2 * d2 / 2, abs=1e-15)
    assert result.upper[0] == 1.0


def test_judged_at_k_equals_ir_measures():
    ir_measures = pytest.importorskip("ir_measures", reason="needs the bench extra (ir-measures)")
    rng = np.random.default_rng(5)
    qrels, run = [], []
    docs = [f"d{i}" for i in range(15)]
    for q in range(30):
        for d in rng.choice(docs, size=int(rng.integers(1, 8)), replace=False):
            qrels.append(ir_measures.Qrel(f"q{q}", str(d), int(rng.integers(-1, 3))))
        ranked = rng.choice(docs, size=int(rng.integers(1, 15)), replace=False)
        for d, s in zip(ranked, rng.permutation(ranked.shape[0])):
            run.append(ir_measures.ScoredDoc(f"q{q}", str(d), float(s)))
    as_tuple = lambda rows, field: tuple(  # noqa: E731
        np.array([getattr(r, name) for r in rows], dtype=dtype)
        for name, dtype in (("query_id", object), ("doc_id", object), (field, float))
    )
    # a negative level is in the pool but not judged (trec_eval's reading, that of -J and
    # of -B); ir_measures counts every qrels entry as judged: it gets the judged ones
    judgments = [qrel for qrel in qrels if qrel.relevance >= 0]
    for k in (1, 5, 10, 20):
        expected = {
            m.query_id: m.value
            for m in ir_measures.iter_calc([ir_measures.Judged @ k], judgments, run)
        }
        got = evaluate_run(
            as_tuple(run, "score"),
            as_tuple(qrels, "relevance"),
            k=k,
            bounds=True,
            **CONVENTIONS["trec_eval"],
        ).per_query
        # a query of negative levels only is not in ir_measures' judgments: Judged@k 0
        unjudged_only = {q.query_id for q in qrels} - {q.query_id for q in judgments}
        assert sorted([*expected, *unjudged_only]) == got.qid.tolist()
        want = [expected.get(q, 0.0) for q in got.qid]
        np.testing.assert_allclose(got.judged, want, rtol=0, atol=1e-12)


def test_bounds_refused_where_they_do_not_apply():
    pool = JudgmentPool(qid=[1, 1], y_true=[1, 0])
    y, s, q = [1, np.nan], [2, 1], [1, 1]
    for options, match in [
        ({}, "bounds=True needs a pool"),
        ({"pool": pool, "unjudged": "drop"}, 'unjudged="zero"'),
        ({"pool": pool, "normalize": "minmax"}, 'normalize="ideal"'),
        ({"pool": pool, "ties": "optimistic"}, "ties"),
        ({"pool": pool, "metric": "dcg"}, 'metric="ndcg"'),
        ({"pool": pool, "levels": [[0, 1]]}, "levels must be"),
        ({"pool": JudgmentPool([1, 1], [1, -1]), "gain": positive_part_gain, "levels": [-1]}, ""),
    ]:
        if not match:  # positive_part_gain maps -1 to 0: accepted
            query_scores(y, s, qid=q, bounds=True, **options)
            continue
        with pytest.raises(ValueError, match=match):
            query_scores(y, s, qid=q, bounds=True, **options)
    with pytest.raises(ValueError, match="gains that are not negative"):
        query_scores(y, s, qid=q, pool=pool, bounds=True, levels=[-1, 1], gain={-1: -1, 0: 0, 1: 1})
    with pytest.raises(ValueError, match="levels is the judgment scale"):
        query_scores(y, s, qid=q, pool=pool, levels=[0, 1])


def test_command_prints_the_bounds_of_evaluate_run(tmp_path):
    # the same files through trec-eval -B and evaluate_run(bounds=True); levels >= 0
    # (the command, as trec_eval, reads negative levels as unjudged)
    from sklearn_ndcg import read_trec_qrels, read_trec_run
    from sklearn_ndcg._ir import measures_from, trec_eval_scores

    rng = np.random.default_rng(11)
    for _ in range(20):
        docs = [f"d{i}" for i in range(8)]
        qrels_lines, run_lines = [], []
        for q in range(4):
            for d in rng.choice(docs, size=int(rng.integers(1, 5)), replace=False):
                qrels_lines.append(f"q{q} 0 {d} {int(rng.integers(0, 3))}\n")
            ranked = rng.choice(docs, size=int(rng.integers(1, 8)), replace=False)
            for d, s in zip(ranked, rng.integers(0, 3, ranked.shape[0])):  # ties
                run_lines.append(f"q{q} Q0 {d} 0 {s} r\n")
        (tmp_path / "qrels").write_text("".join(qrels_lines))
        (tmp_path / "run").write_text("".join(run_lines))
        qrels, run = read_trec_qrels(tmp_path / "qrels"), read_trec_run(tmp_path / "run")
        report = dict(
            trec_eval_scores(qrels, run, measures_from([("ndcg_cut", "2,5")]), bounds=True).columns
        )
        for k in (2, 5):
            got = evaluate_run(run, qrels, k=k, bounds=True, **CONVENTIONS["trec_eval"]).per_query
            for field in ("judged", "lower", "upper"):
                np.testing.assert_allclose(
                    report[f"ndcg_cut_{k}@{field}"], getattr(got, field), rtol=0, atol=1e-12
                )


def test_bounds_of_unranked_queries_and_too_many_multisets():
    # missing_queries="zero": a judged query never ranked scores 0, bounds 0, judged 0
    pool = JudgmentPool(qid=[1, 1, 2], y_true=[1, 0, 1])
    result = query_scores(
        [1, np.nan], [2, 1], qid=[1, 1], pool=pool, bounds=True, missing_queries="zero"
    )
    assert result.qid.tolist() == [1, 2]
    assert result.judged.tolist() == [0.5, 0.0]
    assert result.lower.tolist() == [1.0, 0.0] and result.upper.tolist() == [1.0, 0.0]
    # 80 unjudged documents in the top and 9 levels: C(88, 80) multisets, refused
    pool = JudgmentPool(qid=np.zeros(9), y_true=np.arange(9))
    with pytest.raises(ValueError, match="pass a smaller k or fewer levels"):
        query_scores(np.full(80, np.nan), np.arange(80.0), qid=np.zeros(80), pool=pool, bounds=True)
