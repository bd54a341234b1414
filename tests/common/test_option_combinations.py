"""Every combination of options the API allows, against the exact reference.

One table: entry point (``ndcg_score``, ``dcg_score``, ``query_scores`` for NDCG
and DCG, the multi-cutoff path ``at_cutoffs`` behind the scorers with several
``k``, and the scorers with one and with several ``k``) x pool (none, or one with
each ``unjudged`` x ``missing_queries``; the scorers take a pool through routing,
with the defaults of the two) x ``normalize`` (NDCG only) x weights (none,
``sample_weight``, ``document_weight``, both). Within each row: every tie rule x
``k`` (``log_base=e`` with ``k=3`` for DCG); a scorer routes its options to
``ndcg_score`` / ``dcg_score``, so its rows take four (ties, k) pairs. The
combination the API refuses (``sample_weight`` with ``missing_queries="zero"``) is
checked to raise. Then every unjudged marker the docs name (None, NaN, ``pd.NA``)
in every container, negative labels with min-max and DCG.

Expected values: ``tests/_reference.py`` (plain Python, one query at a time, the
definitions cited there), never the package.
"""

from __future__ import annotations

import itertools
import math

import _reference as ref
import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin

from sklearn_ndcg import (
    JudgmentPool,
    dcg_score,
    make_dcg_scorer,
    make_ndcg_scorer,
    ndcg_score,
    query_scores,
)
from sklearn_ndcg._engine import RankingOptions
from sklearn_ndcg._metrics._ndcg import at_cutoffs

RTOL, ATOL = 1e-12, 1e-13
TIES = list(RankingOptions.TIE_RULES)
KS = [None, 1, 3]
MULTI_KS = [1, 3, 100]
POOLS = {  # name -> (unjudged, missing_queries); None: no pool
    "no_pool": None,
    "pool_zero_drop": ("zero", "drop"),
    "pool_zero_zero": ("zero", "zero"),
    "pool_drop_drop": ("drop", "drop"),
    "pool_drop_zero": ("drop", "zero"),
}
WEIGHTS = ["unweighted", "sample_weight", "document_weight", "both_weights"]
ENTRIES = ["ndcg_score", "dcg_score", "query_scores_ndcg", "query_scores_dcg"]
ENTRIES += ["at_cutoffs_ndcg", "at_cutoffs_dcg", "ndcg_scorer", "dcg_scorer"]
ENTRIES += ["ndcg_scorer_multi_k", "dcg_scorer_multi_k"]
MULTI_K = {"at_cutoffs_ndcg", "at_cutoffs_dcg", "ndcg_scorer_multi_k", "dcg_scorer_multi_k"}


class _ScoresInX(RegressorMixin, BaseEstimator):
    """An estimator whose prediction is the first column of X: the scorers rank by it."""

    def fit(self, X, y):
        return self

    def predict(self, X):
        return np.asarray(X)[:, 0]


def _data(seed: int, *, pool: bool, negative: bool) -> dict:
    """Long-format ranking of 5 queries (1 to 7 documents, shuffled rows, tied scores),
    its document and query weights and, with ``pool``, unjudged documents (None) and a
    pool that judges the ranked labels plus unranked documents, two queries the
    ranking lacks, and not the last query (ranked but not judged, so left out)."""
    rng = np.random.default_rng(seed)
    sizes = [1, 3, 5, 7, 4]
    last = len(sizes) - 1
    codes = np.repeat(np.arange(len(sizes)), sizes)
    rng.shuffle(codes)
    qid = (codes * 7 + 100).tolist()
    labels = rng.integers(-1 if negative else 0, 4, codes.size).astype(float).tolist()
    labels[int(np.flatnonzero(codes == 2)[0])] = 3.0  # a relevant document in a query
    scores = rng.integers(0, 4, codes.size).tolist()  # heavy ties
    doc_weight = rng.choice([0.0, 0.5, 1.0, 2.0, 3.0], codes.size).tolist()
    query_weight = dict(zip(sorted(set(qid)), rng.uniform(0.5, 3.0, len(sizes))))
    data = dict(qid=qid, y=labels, score=scores, doc_weight=doc_weight)
    data["sample_weight"] = [float(query_weight[q]) for q in qid]
    if pool:
        judged_rows = [i for i in range(codes.size) if codes[i] != last]
        pool_qid = [qid[i] for i in judged_rows]
        pool_y = [labels[i] for i in judged_rows]
        for i in rng.choice(codes.size, 8, replace=False):  # unjudged ranked documents
            if labels[i] <= 0:
                labels[i] = None
        low = -1 if negative else 0
        for code in range(last):  # judged, never ranked (missed relevant and negatives)
            extra = rng.integers(low, 4, int(rng.integers(0, 4))).tolist()
            pool_qid += [code * 7 + 100] * len(extra)
            pool_y += [float(v) for v in extra]
        pool_qid += [3, 3, 5000, 5000]  # queries the ranking lacks
        pool_y += [2.0, 0.0, -1.0 if negative else 1.0, 1.0]
        data["pool"] = (pool_qid, pool_y)
    return data


def _pools_of(entry: str) -> list[str]:
    """The pool rows an entry point takes: the scorers get a pool through metadata
    routing and have no ``unjudged`` or ``missing_queries`` (their defaults apply)."""
    if "scorer" in entry or entry.startswith("at_cutoffs"):
        return ["no_pool", "pool_zero_drop"]
    return list(POOLS)


def _combinations():
    for entry in ENTRIES:
        metric = "dcg" if "dcg" in entry.replace("ndcg", "") else "ndcg"
        normalizes = ["ideal"] if metric == "dcg" else ["ideal", "minmax"]
        for pool, normalize, weights in itertools.product(_pools_of(entry), normalizes, WEIGHTS):
            yield pytest.param(
                entry, pool, normalize, weights, id=f"{entry}-{pool}-{normalize}-{weights}"
            )


def _call(entry, data, *, pool, unjudged, missing_queries, weights, normalize, ties, k, log_base):
    """The package's value(s) for one combination: a float, a dict {qid: value} or a
    dict {"ndcg@k": value}."""
    y = np.array([np.nan if v is None else v for v in data["y"]])
    score = np.array(data["score"], dtype=float)
    qid = np.array(data["qid"])
    metric = "dcg" if "dcg" in entry.replace("ndcg", "") else "ndcg"
    options = dict(qid=qid, ties=ties)
    if weights in ("sample_weight", "both_weights"):
        options["sample_weight"] = np.array(data["sample_weight"])
    if weights in ("document_weight", "both_weights"):
        options["document_weight"] = np.array(data["doc_weight"])
    if metric == "ndcg":
        options["normalize"] = normalize
    pool_options = {}
    if pool is not None:
        pool_options = dict(pool=pool, unjudged=unjudged, missing_queries=missing_queries)
    if entry in ("ndcg_score", "dcg_score"):
        function = ndcg_score if entry == "ndcg_score" else dcg_score
        extra = {"log_base": log_base} if metric == "dcg" else {}
        return function(y, score, k=k, **options, **pool_options, **extra)
    if entry.startswith("query_scores"):
        result = query_scores(
            y, score, metric=metric, k=k, log_base=log_base, **options, **pool_options
        )
        return {q: (v, w) for q, v, w in zip(result.qid.tolist(), result.score, result.weight)}
    if entry.startswith("at_cutoffs"):
        if pool is not None:
            options["pool"] = pool
        values, _ = at_cutoffs(y, score, np.array(MULTI_KS), metric=metric, **options)
        ids = sorted(set(data["qid"]))
        return {f"{metric}@{c}": dict(zip(ids, values[:, j])) for j, c in enumerate(MULTI_KS)}
    make = make_ndcg_scorer if metric == "ndcg" else make_dcg_scorer
    scorer_options = {
        "k": MULTI_KS if entry.endswith("multi_k") else k,
        "ties": options.pop("ties"),
    }
    if metric == "ndcg":
        scorer_options["normalize"] = options.pop("normalize")
    scorer = make(**scorer_options)
    X = score[:, np.newaxis]
    return scorer(_ScoresInX(), X, y, **options, **({} if pool is None else {"pool": pool}))


def _expected(
    entry, data, *, pool, unjudged, missing_queries, weights, normalize, ties, k, log_base
):
    metric = "dcg" if "dcg" in entry.replace("ndcg", "") else "ndcg"
    options = dict(metric=metric, normalize=normalize, ties=ties, log_base=log_base)
    if weights in ("sample_weight", "both_weights"):
        options["sample_weight"] = data["sample_weight"]
    if weights in ("document_weight", "both_weights"):
        options["document_weight"] = data["doc_weight"]
    if pool is not None:
        options.update(pool=data["pool"], unjudged=unjudged, missing_queries=missing_queries)
    if metric == "ndcg":
        options["log_base"] = None
    if entry in MULTI_K:
        per_k = {
            f"{metric}@{c}": ref.evaluate(data["y"], data["score"], qid=data["qid"], k=c, **options)
            for c in MULTI_KS
        }
        if entry.startswith("at_cutoffs"):
            return {key: {q: v for q, (v, _) in value.items()} for key, value in per_k.items()}
        return {key: ref.mean(value) for key, value in per_k.items()}
    per_query = ref.evaluate(data["y"], data["score"], qid=data["qid"], k=k, **options)
    if entry.startswith("query_scores"):
        return per_query
    return ref.mean(per_query)


def _assert_same(got, expected, what):
    if isinstance(expected, dict):
        assert isinstance(got, dict) and sorted(got) == sorted(expected), what
        for key in expected:
            _assert_same(got[key], expected[key], f"{what} [{key}]")
        return
    if isinstance(expected, tuple):
        for g, e in zip(got, expected):
            _assert_same(g, e, what)
        return
    if math.isnan(expected):
        assert math.isnan(got), what
        return
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=ATOL, err_msg=what)


@pytest.mark.parametrize("entry, pool_name, normalize, weights", list(_combinations()))
def test_combination_against_reference(entry, pool_name, normalize, weights):
    metric = "dcg" if "dcg" in entry.replace("ndcg", "") else "ndcg"
    pool_options = POOLS[pool_name]
    seed = [ENTRIES.index(entry), list(POOLS).index(pool_name), WEIGHTS.index(weights)]
    data = _data(seed, pool=pool_options is not None, negative=normalize == "minmax")
    unjudged, missing_queries = pool_options or ("zero", "drop")
    pool = None if pool_options is None else JudgmentPool(*data["pool"])
    refused = pool is not None and missing_queries == "zero"
    refused = refused and weights in ("sample_weight", "both_weights")
    rules = itertools.product(TIES, KS)
    if entry in MULTI_K:  # their cutoffs are MULTI_KS
        rules = [(ties, None) for ties in TIES]
    elif "scorer" in entry:  # a scorer routes its options to ndcg_score / dcg_score,
        rules = zip(TIES, [None, 1, 3, 3])  # whose rows take every ties x k
    for ties, k in rules:
        # the base of the logarithm matters for DCG only (it cancels in NDCG)
        log_base = math.e if metric == "dcg" and entry in ENTRIES[:4] and k == 3 else None
        combination = dict(
            pool=pool, unjudged=unjudged, missing_queries=missing_queries, weights=weights,
            normalize=normalize, ties=ties, k=k, log_base=log_base,
        )  # fmt: skip
        what = f"{entry} ties={ties} k={k} log_base={log_base}"
        if refused:  # no document carries the weight of a query added from the pool
            with pytest.raises(ValueError, match="sample_weight"):
                _call(entry, data, **combination)
            continue
        got = _call(entry, data, **combination)
        _assert_same(got, _expected(entry, data, **combination), what)


# --- every unjudged marker in every container -------------------------------------

pd = pytest.importorskip("pandas")

MARKERS = {"None": None, "NaN": float("nan"), "pd.NA": pd.NA}
CONTAINERS = {  # name -> (build from a list of labels and markers, markers it holds)
    "list": (list, ("None", "NaN", "pd.NA")),
    "ndarray_object": (lambda v: np.array(v, dtype=object), ("None", "NaN", "pd.NA")),
    "ndarray_float": (lambda v: np.array(v, dtype=float), ("None", "NaN")),
    "series_object": (lambda v: pd.Series(v, dtype=object), ("None", "NaN", "pd.NA")),
    "series_float": (lambda v: pd.Series(v, dtype=float), ("None", "NaN")),
    "series_Float64": (lambda v: pd.Series(v, dtype="Float64"), ("None", "NaN", "pd.NA")),
    "series_Int64": (lambda v: pd.Series(v, dtype="Int64"), ("None", "NaN", "pd.NA")),
}
MARKER_ENTRIES = ["ndcg_unjudged_zero", "ndcg_unjudged_drop", "dcg_score", "ndcg_scorer_multi_k"]


def _marker_cases():
    for container, (_, markers) in CONTAINERS.items():
        for marker, entry in itertools.product(markers, MARKER_ENTRIES):
            yield pytest.param(container, marker, entry, id=f"{container}-{marker}-{entry}")


@pytest.mark.parametrize("container, marker, entry", list(_marker_cases()))
def test_unjudged_marker_in_container(container, marker, entry):
    """A missing label marks an unjudged document, whatever marker and container
    (the docs of ``pool``: NaN, None, ``pd.NA``); the input is not modified."""
    data = _data([99, len(entry)], pool=True, negative=False)
    labels = [MARKERS[marker] if v is None else int(v) for v in data["y"]]
    y_true = CONTAINERS[container][0](labels)
    before = pd.Series(y_true, dtype=object).copy()
    pool, qid, score = JudgmentPool(*data["pool"]), np.array(data["qid"]), data["score"]
    options = dict(ties="average", k=3)
    if entry == "ndcg_scorer_multi_k":
        got = make_ndcg_scorer(k=MULTI_KS)(
            _ScoresInX(), np.array(score, dtype=float)[:, np.newaxis], y_true, qid=qid, pool=pool
        )
        expected = {
            f"ndcg@{c}": ref.mean(
                ref.evaluate(data["y"], score, qid=data["qid"], pool=data["pool"], k=c)
            )
            for c in MULTI_KS
        }
    else:
        metric = "dcg" if entry == "dcg_score" else "ndcg"
        unjudged = "drop" if entry.endswith("drop") else "zero"
        function = dcg_score if metric == "dcg" else ndcg_score
        got = function(y_true, score, qid=qid, pool=pool, unjudged=unjudged, **options)
        expected = ref.mean(
            ref.evaluate(
                data["y"],
                score,
                qid=data["qid"],
                pool=data["pool"],
                metric=metric,
                unjudged=unjudged,
                **options,
            )  # fmt: skip
        )
    _assert_same(got, expected, f"{container} {marker} {entry}")
    pd.testing.assert_series_equal(pd.Series(y_true, dtype=object), before)


# --- negative labels ----------------------------------------------------------------


@pytest.mark.parametrize("k", KS, ids=[f"k{k}" for k in KS])
def test_negative_labels_minmax_and_dcg(k):
    """Min-max NDCG takes negative labels with the built-in gains (docs of
    ``normalize``); DCG ignores ``normalize``, so the built-in gains refuse them
    there, while a mapping with negative gains gives the reference DCG."""
    y = [1, -1, 0, 2, -1, 0, 1, -1]
    score = [3, 3, 2, 1, 0, 2, 2, 1]
    qid = [1, 1, 1, 1, 2, 2, 2, 2]
    expected = ref.evaluate(y, score, qid=qid, normalize="minmax", k=k)
    got = query_scores(y, score, qid=qid, normalize="minmax", k=k)
    _assert_same(dict(zip(got.qid.tolist(), zip(got.score, got.weight))), expected, "minmax")
    with pytest.raises(ValueError, match="negative relevance labels"):
        query_scores(y, score, qid=qid, metric="dcg", normalize="minmax", k=k)
    signed = {-1: -1.0, 0: 0.0, 1: 1.0, 2: 3.0}
    expected = ref.evaluate(y, score, qid=qid, metric="dcg", gain=signed, k=k)
    got = query_scores(y, score, qid=qid, metric="dcg", gain=signed, k=k, normalize="minmax")
    _assert_same(dict(zip(got.qid.tolist(), zip(got.score, got.weight))), expected, "dcg")
