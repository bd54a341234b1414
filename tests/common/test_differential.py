"""Differential test: the package against an exact reference, on generated input of
every dtype a user really passes.

Each case draws ragged queries (1 to 5 documents, tied scores), options (k, gain,
discount, tie rule, zero_division, query weights) and a dtype for each of the query
ids, the labels and the scores: every integer width (ids at the extremes of the
range), float16/32/64, bool, Python objects, pandas nullable Int64/Float64/string/
categorical, datetimes with and without a time zone, scores beyond 2**53 (int64,
uint64, Python ints), and polars and pyarrow where installed. Every conversion keeps
the order of the canonical values it is made from, so that the expected values are
those of the canonical input:

- the exact reference ``tests/_reference.py`` (plain Python, one document at a
  time; tie rule "average" by enumerating every ordering of each tie group);
- the package itself on the same input as plain int64/float64 arrays.

Cases with a missing value injected into a nullable column must raise the
documented ``ValueError`` instead. The realistic cases (``REALISTIC``) add the
sizes of real data: more than 32 distinct query lengths (shared padded blocks), long
queries, chunked blocks, 2-D input, pools, document weights and min-max.
``python tests/test_differential.py`` runs the random cases and prints their
number and the worst relative error.
"""

from __future__ import annotations

import importlib.util
import math

import _reference as ref
import numpy as np
import pytest

from sklearn_ndcg import dcg_score, ndcg_score, query_scores
from sklearn_ndcg._engine import RankingOptions

N_BATCHES = 50
CASES_PER_BATCH = 100
TOLERANCE = 1e-12

pd = pytest.importorskip("pandas")
HAS_POLARS = importlib.util.find_spec("polars") is not None
HAS_PYARROW = importlib.util.find_spec("pyarrow") is not None

INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
QID_KINDS = [
    *INTS,
    *["float16", "float32", "float64", "bool", "str_list", "str_array", "int_list"],
    *["object_int", "pandas_Int64", "pandas_string", "pandas_category"],
    *["datetime64", "datetime_tz", "big_python_int"],
    *(["polars_int", "polars_str"] if HAS_POLARS else []),
    *(["pyarrow_str"] if HAS_PYARROW else []),
]
LABEL_KINDS = [*INTS, "float16", "float32", "float64", "bool", "list", "pandas_Int64"]
LABEL_KINDS += ["pandas_Float64", *(["polars"] if HAS_POLARS else [])]
SCORE_KINDS = [*INTS, "float16", "float32", "float64", "list", "pandas_Float64", "pandas_Int64"]
SCORE_KINDS += ["int64_ns", "uint64_high", "python_big", "longdouble"]
SCORE_KINDS += ["polars"] if HAS_POLARS else []
NULLABLE = {"pandas_Int64", "pandas_Float64", "pandas_string", "pandas_category", "str_list"}


# --- conversions from canonical values, each keeping their order ------------------


def qid_values(kind: str, n: int) -> list:
    """``n`` distinct, increasing query ids of ``kind`` (canonical: 0 .. n-1)."""
    if kind in INTS:
        info = np.iinfo(kind)
        # spread from the bottom to the top of the range: narrow ids used to wrap
        low, high = int(info.min), int(info.max)
        return [low + (high - low) * j // (n - 1) for j in range(n)] if n > 1 else [0]
    if kind.startswith("float"):
        return [-1.5 + 0.5 * j for j in range(n)]
    if kind == "bool":
        return [False, True][:n]
    if kind in ("str_list", "str_array", "pandas_string", "pandas_category", "polars_str"):
        return [f"q{j:03d}" for j in range(n)]
    if kind == "pyarrow_str":
        return [f"q{j:03d}" for j in range(n)]
    if kind in ("datetime64", "datetime_tz"):
        return [np.datetime64("2024-03-30T12:00", "ns") + np.timedelta64(j, "h") for j in range(n)]
    if kind == "big_python_int":
        return [2**64 - 2**40 + j for j in range(n)]  # 64-bit hashes above 2**63
    return list(range(-3, n - 3))  # int_list, object_int, pandas_Int64, polars_int


def as_qid(kind: str, ids: list, missing: int | None):
    """The per-row ids as the user would pass them; ``missing``: row set to NA."""
    if kind in INTS or kind.startswith("float") or kind == "bool":
        array = np.array(ids, dtype=kind)
        if missing is not None and kind.startswith("float"):
            array[missing] = np.nan
        return array
    if kind == "str_list":
        return [None if i == missing else v for i, v in enumerate(ids)]
    if kind == "str_array":
        return np.array(ids)
    if kind in ("int_list", "big_python_int"):
        return list(ids)
    if kind == "object_int":
        return np.array(ids, dtype=object)
    if kind in ("pandas_Int64", "pandas_string", "pandas_category"):
        dtype = {"pandas_Int64": "Int64", "pandas_string": "string"}.get(kind, "category")
        series = pd.Series(ids, dtype="object")
        if missing is not None:
            series[missing] = None
        return series.astype(dtype)
    if kind == "datetime64":
        return np.array(ids, dtype="datetime64[ns]")
    if kind == "datetime_tz":
        return pd.Series(pd.to_datetime(ids)).dt.tz_localize("Europe/Paris")
    if kind in ("polars_int", "polars_str"):
        import polars as pl

        return pl.Series("qid", ids)
    if kind == "pyarrow_str":
        import pyarrow as pa

        return pa.array(ids)
    raise ValueError(kind)


def as_labels(kind: str, labels: list, missing: int | None):
    if kind in ("pandas_Int64", "pandas_Float64"):
        series = pd.Series(labels, dtype=kind.split("_")[1])
        if missing is not None:
            series[missing] = pd.NA
        return series
    if kind == "list":
        return list(labels)
    if kind == "polars":
        import polars as pl

        return pl.Series("label", labels)
    return np.array(labels, dtype=kind)


def as_scores(kind: str, scores: list, missing: int | None):
    """Scores of ``kind`` from canonical small ints (ties included), order kept."""
    if kind in INTS or kind.startswith("float"):
        values = np.array(scores, dtype=kind)
        return values * np.array(0.25, dtype=kind) if kind.startswith("float") else values
    if kind == "int64_ns":  # nanosecond timestamps 100 ns apart, beyond 2**53
        return np.int64(1_700_000_000_000_000_000) + 100 * np.array(scores, dtype=np.int64)
    if kind == "uint64_high":
        return np.uint64(2**63 + 7) + np.array(scores, dtype=np.uint64)
    if kind == "python_big":
        return [2**70 + s for s in scores]
    if kind == "longdouble":
        return np.longdouble(1) + np.array(scores, dtype=np.longdouble) * np.longdouble(2) ** -60
    if kind == "list":
        return [s / 3 for s in scores]
    if kind in ("pandas_Int64", "pandas_Float64"):
        series = pd.Series(scores, dtype=kind.split("_")[1])
        if missing is not None:
            series[missing] = pd.NA
        return series
    if kind == "polars":
        import polars as pl

        return pl.Series("score", scores)
    raise ValueError(kind)


# --- cases ------------------------------------------------------------------------


def make_case(rng: np.random.Generator) -> dict:
    n_queries = int(rng.integers(1, 6))
    qid_kind = str(rng.choice(QID_KINDS))
    if qid_kind == "bool":
        n_queries = min(n_queries, 2)
    sizes = rng.integers(1, 6, n_queries)
    codes = np.repeat(np.arange(n_queries), sizes)
    rng.shuffle(codes)  # queries not contiguous
    n = codes.size
    label_kind = str(rng.choice(LABEL_KINDS))
    high = 2 if label_kind == "bool" else 4
    labels = [int(v) for v in rng.integers(0, high, n)]
    scores = [int(v) for v in rng.integers(0, 4, n)]  # many ties
    options = {
        "k": [None, 1, 2, 3, 5][rng.integers(5)],
        "gain": [*RankingOptions.GAINS, {0: 0.0, 1: 1.0, 2: 3.0, 3: 7.0}][
            rng.integers(len(RankingOptions.GAINS) + 1)
        ],
        "discount": RankingOptions.DISCOUNTS[rng.integers(len(RankingOptions.DISCOUNTS))],
        "ties": RankingOptions.TIE_RULES[rng.integers(len(RankingOptions.TIE_RULES))],
    }
    zero_division = [0.0, 1.0, np.nan][rng.integers(3)]
    weights = (
        [1.0, 2.5, 1e-3, 4.0][rng.integers(4)] * (1.0 + codes % 3) if rng.random() < 0.3 else None
    )
    score_kind = str(rng.choice(SCORE_KINDS))
    missing = None
    if rng.random() < 0.1:
        nullable = [k for k in (qid_kind, label_kind, score_kind) if k in NULLABLE]
        if nullable:
            missing = (str(rng.choice(nullable)), int(rng.integers(n)))
    return dict(
        codes=codes, n_queries=n_queries, labels=labels, scores=scores, options=options,
        zero_division=zero_division, weights=weights, qid_kind=qid_kind,
        label_kind=label_kind, score_kind=score_kind, missing=missing,
    )  # fmt: skip


def run_case(case: dict) -> float:
    """Check one case; return its worst relative error against the reference."""
    ids = qid_values(case["qid_kind"], case["n_queries"])
    missing = case["missing"]
    row = {kind: None for kind in ("qid", "label", "score")}
    if missing is not None:
        for role, kind in (("qid", case["qid_kind"]), ("label", case["label_kind"]),
                           ("score", case["score_kind"])):  # fmt: skip
            if kind == missing[0]:
                row[role] = missing[1]
    qid = as_qid(case["qid_kind"], [ids[c] for c in case["codes"]], row["qid"])
    y_true = as_labels(case["label_kind"], case["labels"], row["label"])
    y_score = as_scores(case["score_kind"], case["scores"], row["score"])
    options, weights = case["options"], case["weights"]
    if missing is not None:
        with pytest.raises(ValueError, match="missing"):
            ndcg_score(y_true, y_score, qid=qid, sample_weight=weights, **options)
        return 0.0

    codes = case["codes"]
    zero_division = case["zero_division"]
    expected_ndcg = ref.ndcg(
        case["labels"], case["scores"], qid=codes, sample_weight=weights,
        zero_division=zero_division, **options,
    )  # fmt: skip
    expected_dcg = ref.dcg(
        case["labels"], case["scores"], qid=codes, sample_weight=weights, **options
    )
    per_query = ref.per_query_ndcg(
        case["labels"], case["scores"], qid=codes, zero_division=zero_division, **options
    )
    with np.errstate(all="ignore"), _no_undefined_warning():
        got_ndcg = ndcg_score(
            y_true, y_score, qid=qid, sample_weight=weights, zero_division=zero_division, **options
        )
        plain_ndcg = ndcg_score(
            np.array(case["labels"], dtype=np.int64), np.array(case["scores"], dtype=np.float64),
            qid=codes.astype(np.int64), sample_weight=weights, zero_division=zero_division,
            **options,
        )  # fmt: skip
        got_dcg = dcg_score(y_true, y_score, qid=qid, sample_weight=weights, **options)
        got_per_query = query_scores(
            y_true, y_score, qid=qid, zero_division=zero_division, **options
        )
    assert len(got_per_query.qid) == case["n_queries"]
    expected_per_query = [per_query[j] for j in range(case["n_queries"])]
    pairs = [(got_ndcg, expected_ndcg), (plain_ndcg, expected_ndcg), (got_dcg, expected_dcg)]
    pairs += list(zip(got_per_query.score.tolist(), expected_per_query))
    worst = 0.0
    for got, expected in pairs:
        if math.isnan(expected):
            assert math.isnan(got), (case, got, expected)
            continue
        error = abs(got - expected) / max(abs(expected), 1e-300) if expected else abs(got)
        assert error <= TOLERANCE, (case, got, expected)
        worst = max(worst, error)
    # the same input as plain int64/float64 arrays gives the same number
    assert got_ndcg == pytest.approx(plain_ndcg, rel=1e-15, nan_ok=True), case
    return worst


class _no_undefined_warning:
    """All queries left out (zero_division=nan) warn by design; not the subject here."""

    def __enter__(self):
        import warnings

        self._context = warnings.catch_warnings()
        self._context.__enter__()
        from sklearn.exceptions import UndefinedMetricWarning

        warnings.simplefilter("ignore", UndefinedMetricWarning)

    def __exit__(self, *exc):
        return self._context.__exit__(*exc)


@pytest.mark.parametrize("batch", range(N_BATCHES))
def test_differential(batch):
    rng = np.random.default_rng([2026, batch])
    for _ in range(CASES_PER_BATCH):
        run_case(make_case(rng))


def test_every_dtype_is_drawn():
    # the generator must reach every kind, or the harness tests less than it claims
    rng = np.random.default_rng([2026, 0])
    cases = [make_case(rng) for _ in range(N_BATCHES * CASES_PER_BATCH // 4)]
    assert {c["qid_kind"] for c in cases} == set(QID_KINDS)
    assert {c["label_kind"] for c in cases} == set(LABEL_KINDS)
    assert {c["score_kind"] for c in cases} == set(SCORE_KINDS)
    assert any(c["missing"] for c in cases)


if __name__ == "__main__":
    n_cases, worst = 0, 0.0
    for batch in range(N_BATCHES):
        rng = np.random.default_rng([2026, batch])
        for _ in range(CASES_PER_BATCH):
            worst = max(worst, run_case(make_case(rng)))
            n_cases += 1
    print(f"{n_cases} cases; worst relative error against the exact reference: {worst:.3g}")


# --- realistic sizes: every path of the engine ---------------------------------------
#
# Many queries of many lengths: beyond 32 distinct sizes queries share padded blocks
# (``_EXACT_WIDTHS`` and ``_bucket_widths`` in ``_engine/_queries.py``), and a block of
# more than ``MAX_CELLS`` cells is cut into chunks. Each case is one layout:
# rows interleaved ("shuffled"), each query contiguous with unsorted ids ("grouped"),
# equal-size sorted queries read as one matrix ("dense"), 2-D input ("2d"); long
# queries (150 and 300 documents), one-document queries, queries without a relevant
# document, heavy ties (a handful of distinct scores). Query ids close together above
# 2**53 (int64, uint64) or strings; integer scores between 2**53 and 2**54 (float64
# would merge neighbours). Expected values: ``tests/_reference.py``.

REALISTIC = {  # id -> options of the case
    "shuffled-int64_above_2p53-float_ties-average-k10-minmax-document_weight": dict(
        layout="shuffled", qid="int64_2p53", score="float_ties", ties="average", k=10,
        normalize="minmax", document_weight=True,
    ),
    "shuffled-uint64_top-int_2p53_2p54-first-kNone-ideal-sample_weight": dict(
        layout="shuffled", qid="uint64_top", score="int_2p53", ties="first", k=None,
        sample_weight=True,
    ),
    "grouped-str-float_ties-pessimistic-k1-minmax": dict(
        layout="grouped", qid="str", score="float_ties", ties="pessimistic", k=1,
        normalize="minmax",
    ),
    "grouped-int64_above_2p53-int_2p53_2p54-optimistic-k100-exponential-both_weights": dict(
        layout="grouped", qid="int64_2p53", score="int_2p53", ties="optimistic", k=100,
        gain="exponential", sample_weight=True, document_weight=True,
    ),
    "shuffled-int64_above_2p53-float_ties-average-kNone-reciprocal-pool_drop_zero-minmax": dict(
        layout="shuffled", qid="int64_2p53", score="float_ties", ties="average", k=None,
        discount="reciprocal", pool=("drop", "zero"), normalize="minmax", document_weight=True,
    ),
    "grouped-uint64_top-float_ties-first-k10-pool_zero_drop-sample_weight": dict(
        layout="grouped", qid="uint64_top", score="float_ties", ties="first", k=10,
        pool=("zero", "drop"), sample_weight=True,
    ),
    "dense_chunked-int64_above_2p53-float_ties-average-k10-minmax": dict(
        layout="dense", qid="int64_2p53", score="float_ties", ties="average", k=10,
        normalize="minmax", document_weight=True,
    ),
    "2d-float_ties-average-k5-both_weights": dict(
        layout="2d", score="float_ties", ties="average", k=5, sample_weight=True,
        document_weight=True,
    ),
    "2d-int_2p53_2p54-pessimistic-kNone-minmax": dict(
        layout="2d", score="int_2p53", ties="pessimistic", k=None, normalize="minmax",
    ),
}  # fmt: skip
CUTOFFS = [1, 10, 100]


def _realistic_sizes(rng, layout: str) -> list[int]:
    if layout == "dense":  # 560 x 250 = 140,000 cells: two chunks of one block
        return [250] * 560
    if layout == "2d":
        return [60] * 25
    distinct = rng.choice(np.arange(2, 80), 38, replace=False).tolist()  # > 32 sizes
    return [1, 1, 1, *distinct, 5, 5, 17, 150, 300]  # one-document and long queries


def make_realistic_case(name: str) -> dict:
    spec = REALISTIC[name]
    rng = np.random.default_rng([2028, list(REALISTIC).index(name)])
    sizes = _realistic_sizes(rng, spec["layout"])
    n_queries = len(sizes)
    codes = np.repeat(np.arange(n_queries), sizes)
    low = -1 if spec.get("normalize") == "minmax" else 0
    labels = rng.choice([low, 0, 0, 0, 1, 1, 2, 3, 4], codes.size).astype(float)
    labels[np.isin(codes, [2, 7])] = 0.0  # no relevant document: zero_division
    canonical_scores = rng.integers(0, 7, codes.size)  # heavy ties
    if spec["layout"] == "shuffled":
        order = rng.permutation(codes.size)
    elif spec["layout"] == "grouped":  # contiguous queries, ids in no order
        order = np.concatenate([np.flatnonzero(codes == c) for c in rng.permutation(n_queries)])
    else:
        order = np.arange(codes.size)
    codes, labels, canonical_scores = codes[order], labels[order], canonical_scores[order]
    case = dict(spec, codes=codes, labels=labels.tolist(), n_queries=n_queries, sizes=sizes)
    if spec["score"] == "int_2p53":  # neighbours above 2**53 that float64 would merge
        case["scores"] = [2**53 + int(s) for s in canonical_scores]
        case["y_score"] = np.array(case["scores"], dtype=np.int64)
    else:
        case["scores"] = (canonical_scores * 0.5).tolist()
        case["y_score"] = np.array(case["scores"])
    ids = {
        "int64_2p53": [2**53 + j for j in range(n_queries)],  # consecutive, beyond 2**53
        "uint64_top": [2**64 - 1 - n_queries + j for j in range(n_queries)],
        "str": [f"query-{j:04d}" for j in range(n_queries)],
    }.get(spec.get("qid"), list(range(n_queries)))
    case["qid"] = [ids[c] for c in codes]
    dtype = {"int64_2p53": np.int64, "uint64_top": np.uint64}.get(spec.get("qid"))
    case["qid_array"] = np.array(case["qid"], dtype=dtype)
    if spec.get("sample_weight"):
        per_query = rng.uniform(0.1, 3.0, n_queries)
        case["sample_weight"] = per_query[codes].tolist()
    if spec.get("document_weight"):
        case["document_weight"] = rng.choice([0.0, 0.5, 1.0, 2.5], codes.size).tolist()
    if spec.get("pool"):
        judged = ~np.isin(codes, [3, 11])  # ranked queries the pool lacks: left out
        pool_qid = [q for q, j in zip(case["qid"], judged) if j]
        pool_y = [y for y, j in zip(case["labels"], judged) if j]
        for q in rng.choice(np.setdiff1d(np.arange(n_queries), [3, 11]), 20, replace=False):
            # judged documents the ranking lacks
            pool_qid += [ids[q]] * 3
            pool_y += rng.choice([low, 0, 2, 4], 3).astype(float).tolist()
        pool_qid += [ids[0] - 1 if isinstance(ids[0], int) else "zz"] * 2  # not ranked
        pool_y += [2.0, 1.0]
        unjudged = rng.random(codes.size) < 0.15
        case["labels"] = [None if u and y <= 0 else y for u, y in zip(unjudged, labels.tolist())]
        case["pool_data"] = (pool_qid, pool_y)
    return case


def _realistic_inputs(case):
    """The package's inputs: long format, or 2-D rows for the "2d" layout."""
    if case["layout"] != "2d":
        y = np.array([np.nan if v is None else v for v in case["labels"]])
        options = {"qid": case["qid_array"]}
        for name in ("sample_weight", "document_weight"):
            if name in case:
                options[name] = np.array(case[name])
        return y, case["y_score"], options
    shape = (case["n_queries"], case["sizes"][0])
    options = {}
    if "sample_weight" in case:
        options["sample_weight"] = np.array(case["sample_weight"]).reshape(shape)[:, 0]
    if "document_weight" in case:
        options["document_weight"] = np.array(case["document_weight"]).reshape(shape)
    return np.array(case["labels"]).reshape(shape), case["y_score"].reshape(shape), options


@pytest.mark.parametrize("name", list(REALISTIC))
def test_differential_realistic(name):
    from sklearn_ndcg import JudgmentPool
    from sklearn_ndcg._metrics._ndcg import at_cutoffs

    case = make_realistic_case(name)
    y, y_score, options = _realistic_inputs(case)
    common = dict(ties=case["ties"], gain=case.get("gain", "linear"))
    common["discount"] = case.get("discount", "log2")
    normalize = case.get("normalize", "ideal")
    pool_options, ref_pool = {}, {}
    if case.get("pool"):
        unjudged, missing_queries = case["pool"]
        pool_options = dict(
            pool=JudgmentPool(*case["pool_data"]), unjudged=unjudged,
            missing_queries=missing_queries,
        )  # fmt: skip
        ref_pool = dict(pool_options, pool=case["pool_data"])
    ref_options = {
        name: case[name] for name in ("sample_weight", "document_weight") if name in case
    }
    qid = None if case["layout"] == "2d" else case["qid"]
    if qid is None:  # nested rows for the reference
        width = case["sizes"][0]
        ref_options = {
            "sample_weight": options["sample_weight"].tolist() if "sample_weight" in case else None,
            "document_weight": options["document_weight"].tolist()
            if "document_weight" in case
            else None,
        }
        rows = [case["labels"][i : i + width] for i in range(0, len(case["labels"]), width)]
        score_rows = [case["scores"][i : i + width] for i in range(0, len(case["scores"]), width)]
    else:
        rows, score_rows = case["labels"], case["scores"]

    def expected(metric, k):
        return ref.evaluate(
            rows, score_rows, qid=qid, metric=metric, normalize=normalize, k=k,
            **common, **ref_options, **ref_pool,
        )  # fmt: skip

    for metric in ("ndcg", "dcg"):
        extra = {"normalize": normalize} if metric == "ndcg" else {}
        if metric == "dcg" and normalize == "minmax":  # negative labels: the built-in
            with pytest.raises(ValueError, match="negative"):  # gains refuse them in DCG
                dcg_score(y, y_score, k=case["k"], **common, **options, **pool_options)
            continue
        want = expected(metric, case["k"])
        got = query_scores(
            y, y_score, metric=metric, k=case["k"], **common, **options, **pool_options, **extra
        )
        ids = sorted(want)
        assert got.qid.tolist() == ids, name
        np.testing.assert_allclose(
            got.score, [want[q][0] for q in ids], rtol=TOLERANCE, atol=1e-13, err_msg=metric
        )
        function = ndcg_score if metric == "ndcg" else dcg_score
        np.testing.assert_allclose(
            function(y, y_score, k=case["k"], **common, **options, **pool_options, **extra),
            ref.mean(want), rtol=TOLERANCE, atol=1e-13, err_msg=f"{metric} mean",
        )  # fmt: skip
        if case.get("pool") and case["pool"] != ("zero", "drop"):
            continue  # the multi-cutoff path takes a pool with the default options only
        pool_only = {"pool": pool_options["pool"]} if pool_options else {}
        values, _ = at_cutoffs(
            y, y_score, np.array(CUTOFFS), metric=metric, **common, **options, **pool_only,
            **extra,
        )  # fmt: skip
        for j, cutoff in enumerate(CUTOFFS):
            at_k = expected(metric, cutoff)
            np.testing.assert_allclose(
                values[:, j], [at_k[q][0] for q in ids], rtol=TOLERANCE, atol=1e-13,
                err_msg=f"{metric}@{cutoff}",
            )  # fmt: skip


def test_realistic_cases_reach_every_engine_path():
    """The realistic cases take the paths they claim: shared padded blocks (more than
    _EXACT_WIDTHS distinct sizes), chunks of MAX_CELLS, float64-merging ids and scores."""
    from sklearn_ndcg._engine import _queries

    long_cases = [make_realistic_case(n) for n in REALISTIC if not n.startswith(("2d", "dense"))]
    for case in long_cases:
        assert len(set(case["sizes"])) > _queries._EXACT_WIDTHS
        assert max(case["sizes"]) >= 300 and min(case["sizes"]) == 1
    dense = make_realistic_case(next(n for n in REALISTIC if n.startswith("dense")))
    assert dense["codes"].size > _queries.MAX_CELLS
    big = make_realistic_case(next(n for n in REALISTIC if "int_2p53" in n))
    assert len(set(big["scores"])) > len({float(s) for s in big["scores"]})
    ids = make_realistic_case(next(n for n in REALISTIC if "int64_above" in n))["qid"]
    assert len(set(ids)) > len({float(q) for q in ids})


@pytest.mark.parametrize("name", [n for n in REALISTIC if "pool" not in n])
def test_tie_diagnostics_realistic(name):
    """tie_diagnostics on the realistic cases: the pessimistic and optimistic NDCG of
    the reference, and whether the top k ends inside a tie group (the k-th and the
    (k+1)-th largest scores of a query of more than k documents are equal)."""
    from sklearn_ndcg import tie_diagnostics

    case = make_realistic_case(name)
    y, y_score, options = _realistic_inputs(case)
    options.pop("document_weight", None)
    k = case["k"] or 10
    normalize = case.get("normalize", "ideal")
    gain = case.get("gain", "linear")
    got = tie_diagnostics(y, y_score, k=k, gain=gain, normalize=normalize, **options)
    if case["layout"] == "2d":
        width = case["sizes"][0]
        queries = {
            i: (
                case["labels"][i * width : (i + 1) * width],
                case["scores"][i * width : (i + 1) * width],
            )
            for i in range(case["n_queries"])
        }
    else:
        queries = {}
        for q, label, score in zip(case["qid"], case["labels"], case["scores"]):
            queries.setdefault(q, ([], []))
            queries[q][0].append(label)
            queries[q][1].append(score)
    ids = sorted(queries)
    assert got.qid.tolist() == ids
    for field in ("pessimistic", "optimistic"):
        want = [
            ref.query_value(*queries[q], ties=field, k=k, gain=gain, normalize=normalize)
            for q in ids
        ]
        np.testing.assert_allclose(getattr(got, field), want, rtol=TOLERANCE, atol=1e-13)
    cut = []
    for q in ids:
        ranked = sorted(queries[q][1], reverse=True)
        cut.append(len(ranked) > k and ranked[k - 1] == ranked[k])
    assert got.cut.tolist() == cut
