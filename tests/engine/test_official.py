"""trec_eval's official measures beside the cutoff families (``_engine/_official.py``):
the counts, R-precision, bpref, interpolated precision, gm_map's log of average
precision and rank-biased precision, against their C loops transcribed line by line
from trec_eval 10.0 (m_Rprec.c, m_bpref.c, m_iprec_at_recall.c, m_gm_map.c, m_rbp.c)
on random pools, and ``ties="average"`` against the brute-force mean over every order
of the tied documents. (The binary itself: tests/cli/test_trec_eval_measures.py.)"""

import itertools
import math

import numpy as np
import pytest

from sklearn_ndcg._engine import JudgmentPool, RankingOptions, query_values, stage

LINEAR = ("num_ret", "num_rel", "num_rel_ret", "Rprec", "bpref", "rbp")
FRACTIONS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


def _c_loops(levels: list, pool: list, level: int = 1) -> dict:
    """trec_eval's values of one ranking (levels top first, None: not in the qrels)
    against its pool's levels (negative: in the pool, unjudged)."""
    rel_levels = [lv for lv in pool if lv >= 0]
    num_rel = sum(lv >= level for lv in rel_levels)
    num_nonrel = sum(lv < level for lv in rel_levels)
    rel = [lv is not None and lv >= level for lv in levels]
    num_ret, num_rel_ret = len(levels), sum(rel)
    out = {"num_ret": num_ret, "num_rel": num_rel, "num_rel_ret": num_rel_ret}
    look = min(num_ret, num_rel)  # m_Rprec.c
    out["Rprec"] = sum(rel[:look]) / num_rel if look else 0.0
    nonrel_so_far, bpref = 0, 0.0  # m_bpref.c
    for lv in levels:
        if lv is None or lv < 0:
            continue
        if lv < level:
            nonrel_so_far += 1
        elif nonrel_so_far > 0:
            bpref += 1.0 - min(nonrel_so_far, num_rel) / min(num_nonrel, num_rel)
        else:
            bpref += 1.0
    out["bpref"] = bpref / num_rel if num_rel else bpref
    found, ap = 0, 0.0  # m_gm_map.c
    for i, r in enumerate(rel):
        if r:
            found += 1
            ap += found / (i + 1)
    ap = ap / num_rel if found else ap
    out["gm_map"] = math.log(max(ap, 0.00001))
    cutoffs = [math.floor(f * num_rel + 0.5) for f in FRACTIONS]  # m_iprec_at_recall.c
    values = [0.0] * len(cutoffs)
    current = len(cutoffs) - 1
    while current >= 0 and cutoffs[current] > num_rel_ret:
        current -= 1
    int_precis = num_rel_ret / num_ret
    so_far = num_rel_ret
    i = num_ret
    while i > 0 and so_far > 0:
        int_precis = max(int_precis, so_far / i)
        if rel[i - 1]:
            while current >= 0 and so_far == cutoffs[current]:
                values[current] = int_precis
                current -= 1
            so_far -= 1
        i -= 1
    while current >= 0:
        values[current] = int_precis
        current -= 1
    out["iprec_at_recall"] = values
    top = max([lv for lv in pool if lv >= 0], default=0)  # m_rbp.c, gains in [0, 1]
    total, weight = 0.0, 1.0
    for lv in levels:
        gain = 0.0 if lv is None or lv <= 0 else (lv / top if top > 1 else lv)
        total += gain * weight
        weight *= 0.9
    out["rbp"] = 0.1 * total
    return out


def _evaluate(qid, label, score, pool_qid, pool_level, name, ties="first", level=1.0):
    options = RankingOptions(
        metric=name, ties=ties, pool=JudgmentPool(pool_qid, pool_level), relevance_level=level
    )
    staged = stage(label, score, options, qid=qid)
    params = (0.9,) if name == "rbp" else None  # rbp's persistence: trec_eval's default
    return query_values(staged, options, measures=((name, params),)).values[:, 0]


def _random_pool(rng):
    qid, label, score, pool_qid, pool_level = [], [], [], [], []
    for q in range(6):
        for d in range(rng.integers(1, 9)):
            judged = rng.random() < 0.75
            lv = int(rng.integers(-1, 4))
            if judged:
                pool_qid.append(q)
                pool_level.append(lv)
            if rng.random() < 0.8 or not judged:
                qid.append(q)
                label.append(lv if judged and lv >= 0 else np.nan)
                score.append(float(rng.permutation(100)[0]) + d / 1000)  # tie-free
    return (np.array(qid), np.array(label, float), np.array(score))


def test_each_measure_equals_its_c_loop():
    rng = np.random.default_rng(56)
    for _ in range(30):
        qid, label, score = [], [], []
        pool_qid, pool_level = [], []
        expected = []
        for q in range(5):
            n = int(rng.integers(1, 9))
            levels = rng.integers(-1, 4, size=n)
            in_pool = rng.random(n) < 0.75
            ranked = rng.random(n) < 0.8
            ranked[0] = True
            order = rng.permutation(n)
            for rank, d in enumerate(order[ranked[order]]):
                qid.append(q)
                label.append(levels[d] if in_pool[d] and levels[d] >= 0 else np.nan)
                score.append(100.0 - rank)
            pool_qid.extend([q] * int(in_pool.sum()))
            pool_level.extend(levels[in_pool].tolist())
            pool_qid.append(q)  # every query judged: one more relevant document
            pool_level.append(1)
            ranked_levels = [int(levels[d]) if in_pool[d] else None for d in order[ranked[order]]]
            expected.append(_c_loops(ranked_levels, [*levels[in_pool].tolist(), 1]))
        args = (np.array(qid), np.array(label, float), np.array(score))
        pool = (np.array(pool_qid), np.array(pool_level, float))
        for name in (*LINEAR, "gm_map"):
            got = _evaluate(*args, *pool, name)
            want = [e[name] for e in expected]
            np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15, err_msg=name)
        options = RankingOptions(metric="map", ties="first", pool=JudgmentPool(*pool))
        staged = stage(args[1], args[2], options, qid=args[0])
        requests = (("iprec_at_recall", FRACTIONS),)
        got = query_values(staged, options, measures=requests).values
        want = [e["iprec_at_recall"] for e in expected]
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


def _brute_force(rel_level, score, name, pool):
    values = []
    for permutation in itertools.permutations(range(len(score))):
        order = sorted(range(len(score)), key=lambda i: (-score[i], permutation.index(i)))
        values.append(_c_loops([rel_level[i] for i in order], pool)[name])
    return float(np.mean(values))


@pytest.mark.parametrize("name", LINEAR)
def test_average_is_the_mean_over_every_order_of_the_ties(name):
    rng = np.random.default_rng(57)
    for _ in range(20):
        levels = rng.integers(-1, 3, size=int(rng.integers(1, 7))).astype(float)
        label = np.where(levels >= 0, levels, np.nan)
        score = rng.integers(0, 3, levels.shape[0]).astype(float)
        pool = [*levels.tolist(), 2.0, 0.0]  # judged beyond the ranking too
        qid = np.zeros(levels.shape[0], int)
        got = _evaluate(
            qid, label, score, np.zeros(len(pool), int), np.array(pool), name, "average"
        )
        ranked = [None if np.isnan(v) else int(v) for v in label]
        expected = _brute_force(ranked, list(score), name, [int(p) for p in pool])
        assert got[0] == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("name", ["iprec_at_recall", "gm_map"])
def test_order_dependent_measures_refuse_mixed_ties_under_average(name):
    qid, score = np.zeros(3, int), np.array([1.0, 1.0, 0.5])
    options = RankingOptions(metric=name, ties="average")
    staged = stage(np.array([1.0, 0.0, 1.0]), score, options, qid=qid)
    params = FRACTIONS if name == "iprec_at_recall" else None
    with pytest.raises(ValueError, match="ties='docno'.*ties='first'"):
        query_values(staged, options, measures=((name, params),))
    # ties of equal relevance have one value whatever their order: computed
    staged = stage(np.array([1.0, 1.0, 0.0]), score, options, qid=qid)
    assert query_values(staged, options, measures=((name, params),)).values.shape == (
        1,
        1 if name == "gm_map" else 11,
    )
