"""Property-based tests: random ragged input over every option, against the slow reference.

Hypothesis draws long-format input (queries of 1..6 documents, rows interleaved,
query ids as ints, negative ints or strings), labels and scores of every dtype
(int, bool, float32, float64), and every option: gain x discount x ties x k x
zero_division x sample_weight. Expected values come from ``tests/_reference.py``,
which follows the definitions one query and one permutation at a time; the
invariance and bound tests compare the library only with itself under a change
that must not matter, or with a bound that must hold.

The examples are derandomized, so a failure reproduces on every run.
"""

import math
import warnings

import _reference as ref
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ndcg import dcg_score, ndcg_score, query_scores
from sklearn_ndcg._engine import RankingOptions

settings.register_profile(
    "sklearn_ndcg_properties",
    max_examples=60,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
PROFILE = settings.get_profile("sklearn_ndcg_properties")

RTOL = 1e-12
ATOL = 1e-13


def _squared(rel):
    return np.asarray(rel, dtype=float) ** 2 + 0.5 * np.asarray(rel, dtype=float)


def _reciprocal_sqrt(rank):
    return 1.0 / np.sqrt(np.asarray(rank, dtype=float))


# name -> (gain, needs non-negative integer labels, non-negative gains)
GAINS = {
    "linear": "linear",
    "exponential": "exponential",
    "mapping": {0: 0.0, 1: 1.0, 2: 2.5, 3: 7.0, 4: 0.5},  # not monotone
    "signed_mapping": {-1: -1.0, 0: 0.0, 1: 1.0, 2: 3.0, 3: 3.0, 4: 10.0},
    "sequence": [0.0, 1.0, 3.0, 7.0, 15.0],
    "callable": _squared,
}
DISCOUNTS = {
    "log2": "log2",
    "reciprocal": "reciprocal",
    "none": "none",
    "callable": _reciprocal_sqrt,
}
TIES = list(RankingOptions.TIE_RULES)
DTYPES = [np.int64, np.int32, np.bool_, np.float32, np.float64]


@st.composite
def ragged(draw, *, gain_names=tuple(GAINS), label_dtypes=tuple(DTYPES), many=False):
    """Long-format input, options included, as a dict of keyword arguments.

    With ``many``, half the examples add 34 queries of 34 distinct lengths (1 to 40
    documents, drawn from a seed): beyond ``_EXACT_WIDTHS`` (32) distinct sizes the
    engine pads queries into shared blocks, a path small inputs never take."""
    gain_name = draw(st.sampled_from(gain_names))
    label_dtype = draw(st.sampled_from(label_dtypes))
    score_dtype = draw(st.sampled_from(DTYPES))
    sizes = draw(st.lists(st.integers(1, 6), min_size=1, max_size=5))
    n_rows = sum(sizes)

    low_label = -1 if gain_name == "signed_mapping" else 0
    high_label = 1 if label_dtype is np.bool_ else 4
    if label_dtype is np.bool_:
        low_label = 0
    labels = draw(st.lists(st.integers(low_label, high_label), min_size=n_rows, max_size=n_rows))
    # few distinct scores: ties within queries are common
    if score_dtype is np.bool_:
        scores = draw(st.lists(st.booleans(), min_size=n_rows, max_size=n_rows))
    elif score_dtype in (np.float32, np.float64):
        scores = draw(
            st.lists(
                st.sampled_from([-1e5, -2.5, -0.0, 0.0, 0.1, 0.3, 1.0, 1.0 + 2**-20, 7.75]),
                min_size=n_rows,
                max_size=n_rows,
            )
        )
    else:
        scores = draw(st.lists(st.integers(-3, 3), min_size=n_rows, max_size=n_rows))

    id_kind = draw(st.sampled_from(["int", "negative", "string"]))
    raw_ids = draw(
        st.lists(
            st.integers(-(10**6), 10**6), min_size=len(sizes), max_size=len(sizes), unique=True
        )
    )
    if id_kind == "negative":
        ids = [-abs(i) - 1 for i in raw_ids]
        ids = list(dict.fromkeys(ids))
        raw_ids = raw_ids[: len(ids)]
        sizes = sizes[: len(ids)]
    elif id_kind == "string":
        ids = [f"q{i}" for i in raw_ids]
    else:
        ids = raw_ids
    n_rows = sum(sizes)
    labels, scores = labels[:n_rows], scores[:n_rows]
    qid = [q for q, n in zip(ids, sizes) for _ in range(n)]
    bulk = np.random.default_rng(draw(st.integers(0, 2**32 - 1))) if many else None
    if bulk is not None and draw(st.booleans()):
        bulk_sizes = bulk.permutation(np.arange(1, 41))[:34].tolist()
        bulk_ids = [2 * 10**6 + j for j in range(len(bulk_sizes))]
        bulk_ids = {"negative": [-i for i in bulk_ids], "string": [f"b{i}" for i in bulk_ids]}.get(
            id_kind, bulk_ids
        )
        n_bulk = sum(bulk_sizes)
        labels += bulk.integers(low_label, high_label + 1, n_bulk).tolist()
        if score_dtype is np.bool_:
            scores += bulk.integers(0, 2, n_bulk).astype(bool).tolist()
        elif score_dtype in (np.float32, np.float64):
            scores += bulk.choice([-2.5, 0.0, 0.1, 0.3, 1.0, 7.75], n_bulk).tolist()
        else:
            scores += bulk.integers(-3, 4, n_bulk).tolist()
        qid += [q for q, n in zip(bulk_ids, bulk_sizes) for _ in range(n)]
        ids, sizes = ids + bulk_ids, sizes + bulk_sizes
        n_rows += n_bulk
    else:
        bulk = None

    weighted = draw(st.booleans())
    if weighted:
        per_query = draw(
            st.lists(
                st.sampled_from([0.0, 0.25, 1.0, 3.0, 0.1]), min_size=len(ids), max_size=len(ids)
            )
        )
        if not any(per_query):
            per_query[0] = 1.0
        by_id = dict(zip(ids, per_query))
        weight = np.array([by_id[q] for q in qid])
    else:
        weight = None

    # interleave the rows of the queries
    order = bulk.permutation(n_rows) if bulk is not None else draw(st.permutations(range(n_rows)))
    y_true = np.array(labels)[order].astype(label_dtype)
    y_score = np.array(scores)[order].astype(score_dtype)
    qid = np.array(qid)[order]
    if weight is not None:
        weight = weight[order]
    return {
        "y_true": y_true,
        "y_score": y_score,
        "qid": qid,
        "sample_weight": weight,
        "gain_name": gain_name,
        "gain": GAINS[gain_name],
        "discount": DISCOUNTS[draw(st.sampled_from(list(DISCOUNTS)))],
        "ties": draw(st.sampled_from(TIES)),
        "k": draw(st.sampled_from([None, 1, 2, 3, 5, 100])),
        "zero_division": draw(st.sampled_from([0.0, 1.0, np.nan])),
    }


def _options(case):
    return {name: case[name] for name in ("gain", "discount", "ties", "k")}


def _call(fn, *args, **kwargs):
    """Call ``fn``; an UndefinedMetricWarning is allowed only for a NaN result."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = fn(*args, **kwargs)
    others = [w for w in caught if not issubclass(w.category, UndefinedMetricWarning)]
    assert not others, [str(w.message) for w in others]
    if caught:
        assert math.isnan(value), "UndefinedMetricWarning with a defined result"
    return value


@PROFILE
@given(case=ragged(many=True))
def test_engine_equals_reference(case):
    """ndcg_score, dcg_score and query_scores equal the slow reference."""
    y_true, y_score, qid = case["y_true"], case["y_score"], case["qid"]
    weight, zero_division = case["sample_weight"], case["zero_division"]
    options = _options(case)

    expected_per_query = ref.per_query_ndcg(
        y_true, y_score, qid=qid, zero_division=zero_division, **options
    )
    result = query_scores(
        y_true, y_score, qid=qid, zero_division=zero_division, sample_weight=weight, **options
    )
    assert result.qid.tolist() == sorted(expected_per_query)
    np.testing.assert_allclose(
        result.score,
        [expected_per_query[q] for q in result.qid.tolist()],
        rtol=RTOL,
        atol=ATOL,
        equal_nan=True,
    )

    expected = ref.ndcg(
        y_true, y_score, qid=qid, sample_weight=weight, zero_division=zero_division, **options
    )
    got = _call(
        ndcg_score,
        y_true,
        y_score,
        qid=qid,
        sample_weight=weight,
        zero_division=zero_division,
        **options,
    )
    assert isinstance(got, float)
    np.testing.assert_allclose(got, expected, rtol=RTOL, atol=ATOL, equal_nan=True)

    expected_dcg = ref.dcg(y_true, y_score, qid=qid, sample_weight=weight, **options)
    got_dcg = dcg_score(y_true, y_score, qid=qid, sample_weight=weight, **options)
    np.testing.assert_allclose(got_dcg, expected_dcg, rtol=RTOL, atol=ATOL)
    dcg_per_query = query_scores(y_true, y_score, qid=qid, metric="dcg", **options)
    np.testing.assert_allclose(
        dcg_per_query.score,
        [ref.dcg(y_true[qid == q], y_score[qid == q], **options) for q in dcg_per_query.qid],
        rtol=RTOL,
        atol=ATOL,
    )


@st.composite
def rectangular(draw):
    """2-D input (n_queries, n_documents) with its options."""
    n_queries = draw(st.integers(1, 5))
    n_docs = draw(st.integers(2, 6))  # 2-D input has at least 2 documents per query
    label_dtype = draw(st.sampled_from(DTYPES))
    high = 1 if label_dtype is np.bool_ else 4
    y_true = np.array(
        draw(
            st.lists(st.integers(0, high), min_size=n_queries * n_docs, max_size=n_queries * n_docs)
        )
    )
    y_score = np.array(
        draw(st.lists(st.integers(-2, 2), min_size=n_queries * n_docs, max_size=n_queries * n_docs))
    )
    weight = draw(
        st.one_of(
            st.none(),
            st.lists(st.sampled_from([0.5, 1.0, 2.0]), min_size=n_queries, max_size=n_queries),
        )
    )
    return {
        "y_true": y_true.reshape(n_queries, n_docs).astype(label_dtype),
        "y_score": (
            y_score.reshape(n_queries, n_docs).astype(
                draw(st.sampled_from([np.float32, np.float64, np.int64]))
            )
        ),
        "sample_weight": weight,
        "gain": GAINS[
            draw(st.sampled_from(["linear", "exponential", "mapping", "sequence", "callable"]))
        ],
        "discount": DISCOUNTS[draw(st.sampled_from(list(DISCOUNTS)))],
        "ties": draw(st.sampled_from(TIES)),
        "k": draw(st.sampled_from([None, 1, 2, 4, 50])),
        "zero_division": draw(st.sampled_from([0.0, 1.0, np.nan])),
        "id_kind": draw(st.sampled_from(["int", "negative", "string"])),
        "order": draw(st.randoms(use_true_random=False)),
    }


@PROFILE
@given(case=rectangular())
def test_2d_and_long_format_agree(case):
    """Row i of a 2-D input is the query of id i in long format, rows interleaved."""
    y_true, y_score, weight = case["y_true"], case["y_score"], case["sample_weight"]
    options = _options(case)
    n_queries, n_docs = y_true.shape
    names = {
        "int": np.arange(n_queries),
        "negative": np.arange(n_queries) - 1000,  # negative, increasing
        "string": np.array([f"r{i:03d}" for i in range(n_queries)]),
    }[case["id_kind"]]
    qid = np.repeat(names, n_docs)
    long_weight = None if weight is None else np.repeat(weight, n_docs)
    # interleave the queries; each query keeps its documents in order (ties="first")
    slots = list(range(n_queries * n_docs))
    case["order"].shuffle(slots)
    order = np.empty(n_queries * n_docs, dtype=np.intp)
    for row in range(n_queries):
        taken = sorted(slots[row * n_docs : (row + 1) * n_docs])
        order[taken] = np.arange(row * n_docs, (row + 1) * n_docs)
    long_true, long_score, qid = y_true.ravel()[order], y_score.ravel()[order], qid[order]
    if long_weight is not None:
        long_weight = long_weight[order]

    for zd in (case["zero_division"],):
        wide = _call(ndcg_score, y_true, y_score, sample_weight=weight, zero_division=zd, **options)
        long = _call(
            ndcg_score,
            long_true,
            long_score,
            qid=qid,
            sample_weight=long_weight,
            zero_division=zd,
            **options,
        )
        np.testing.assert_allclose(long, wide, rtol=RTOL, atol=ATOL, equal_nan=True)
    np.testing.assert_allclose(
        dcg_score(long_true, long_score, qid=qid, sample_weight=long_weight, **options),
        dcg_score(y_true, y_score, sample_weight=weight, **options),
        rtol=RTOL,
        atol=ATOL,
    )
    per_row = query_scores(y_true, y_score, zero_division=case["zero_division"], **options)
    per_id = query_scores(
        long_true, long_score, qid=qid, zero_division=case["zero_division"], **options
    )
    # ids sort like the rows for every id kind used here
    np.testing.assert_allclose(per_id.score, per_row.score, rtol=RTOL, atol=ATOL, equal_nan=True)
    # and the default options agree with the slow reference on 2-D input
    np.testing.assert_allclose(
        per_row.score,
        [
            ref.query_ndcg(t, s, zero_division=case["zero_division"], **options)
            for t, s in zip(y_true.astype(float), y_score.astype(float))
        ],
        rtol=RTOL,
        atol=ATOL,
        equal_nan=True,
    )


def _order_keeping_shuffle(qid, rnd):
    """A permutation of the rows that keeps the order of rows within each query."""
    slots = list(range(len(qid)))
    rnd.shuffle(slots)
    order = np.empty(len(qid), dtype=np.intp)
    # each query takes the slots its rows landed on, in its own order
    for q in dict.fromkeys(qid.tolist()):
        rows = np.flatnonzero(qid == q)
        taken = sorted(slots[i] for i in rows)
        order[taken] = rows
    return order


@PROFILE
@given(case=ragged(), rnd=st.randoms(use_true_random=False))
def test_invariances(case, rnd):
    """Row shuffles, query relabelling and increasing score transforms change nothing."""
    y_true, y_score, qid = case["y_true"], case["y_score"], case["qid"]
    weight, zd = case["sample_weight"], case["zero_division"]
    options = _options(case)
    base = _call(
        ndcg_score, y_true, y_score, qid=qid, sample_weight=weight, zero_division=zd, **options
    )
    base_dcg = dcg_score(y_true, y_score, qid=qid, sample_weight=weight, **options)

    # row shuffle: any permutation, except that "first" must keep the order of
    # the rows within each query
    if case["ties"] == "first":
        order = _order_keeping_shuffle(qid, rnd)
    else:
        order = np.arange(len(qid))
        rnd.shuffle(order)
    w = None if weight is None else weight[order]
    shuffled = _call(
        ndcg_score,
        y_true[order],
        y_score[order],
        qid=qid[order],
        sample_weight=w,
        zero_division=zd,
        **options,
    )
    np.testing.assert_allclose(shuffled, base, rtol=RTOL, atol=ATOL, equal_nan=True)
    np.testing.assert_allclose(
        dcg_score(y_true[order], y_score[order], qid=qid[order], sample_weight=w, **options),
        base_dcg,
        rtol=RTOL,
        atol=ATOL,
    )

    # relabel the queries: an injective map to ids of another kind and order
    unique = list(dict.fromkeys(qid.tolist()))
    targets = list(range(len(unique)))
    rnd.shuffle(targets)
    for mapping in (
        {q: f"z{t}" for q, t in zip(unique, targets)},
        {q: -7 * t - 1 for q, t in zip(unique, targets)},
        {q: 10**12 + t for q, t in zip(unique, targets)},
    ):
        relabelled = np.array([mapping[q] for q in qid.tolist()])
        np.testing.assert_allclose(
            _call(
                ndcg_score,
                y_true,
                y_score,
                qid=relabelled,
                sample_weight=weight,
                zero_division=zd,
                **options,
            ),
            base,
            rtol=RTOL,
            atol=ATOL,
            equal_nan=True,
        )
        per_query = query_scores(y_true, y_score, qid=relabelled, zero_division=zd, **options)
        original = query_scores(y_true, y_score, qid=qid, zero_division=zd, **options)
        by_id = dict(zip(original.qid.tolist(), original.score.tolist()))
        np.testing.assert_allclose(
            per_query.score,
            [by_id[{v: q for q, v in mapping.items()}[t]] for t in per_query.qid.tolist()],
            rtol=RTOL,
            atol=ATOL,
            equal_nan=True,
        )

    # strictly increasing score transforms keep every order and every tie
    score = y_score.astype(np.float64)
    for transformed in (score + 1000.0, 3.0 * score - 2.0, np.arctan(score / 1e6), np.cbrt(score)):
        np.testing.assert_allclose(
            _call(
                ndcg_score,
                y_true,
                transformed,
                qid=qid,
                sample_weight=weight,
                zero_division=zd,
                **options,
            ),
            base,
            rtol=RTOL,
            atol=ATOL,
            equal_nan=True,
        )


@PROFILE
@given(case=ragged(gain_names=("linear", "exponential", "mapping", "sequence", "callable")))
def test_bounds(case):
    """optimistic >= average >= pessimistic, per query; 0 <= NDCG <= 1."""
    y_true, y_score, qid = case["y_true"], case["y_score"], case["qid"]
    options = _options(case)
    del options["ties"]
    per_rule = {
        ties: query_scores(y_true, y_score, qid=qid, ties=ties, **options).score for ties in TIES
    }
    slack = 1e-12
    assert (per_rule["optimistic"] >= per_rule["average"] - slack).all()
    assert (per_rule["average"] >= per_rule["pessimistic"] - slack).all()
    for ties, values in per_rule.items():
        assert (per_rule["optimistic"] >= values - slack).all(), ties
        assert (values >= per_rule["pessimistic"] - slack).all(), ties
        # non-negative gains: NDCG in [0, 1], with no rounding past the ends
        assert ((values >= 0.0) & (values <= 1.0)).all(), (ties, values)
    for ties in TIES:
        dcgs = query_scores(y_true, y_score, qid=qid, ties=ties, metric="dcg", **options).score
        assert (dcgs >= 0.0).all()


@PROFILE
@given(case=ragged(gain_names=("linear", "exponential", "mapping", "sequence", "callable")))
def test_perfect_ranking_scores_one(case):
    """Ranking by the gain itself gives NDCG 1 for every query with a relevant document."""
    y_true, qid = case["y_true"], case["qid"]
    options = _options(case)
    gain = case["gain"]
    labels = y_true.astype(np.float64)
    if isinstance(gain, str):
        gains = labels if gain == "linear" else 2.0**labels - 1
    elif isinstance(gain, dict):
        gains = np.array([gain[v] for v in labels.tolist()])
    elif callable(gain):
        gains = gain(labels)
    else:
        gains = np.asarray(gain)[labels.astype(int)]
    result = query_scores(y_true, gains, qid=qid, zero_division=np.nan, **options)
    has_relevant = np.array([(gains[qid == q] > 0).any() for q in result.qid.tolist()])
    # with ties the documents tie only with documents of equal gain, so every
    # tie rule gives the ideal order
    np.testing.assert_allclose(result.score[has_relevant], 1.0, rtol=0, atol=1e-15)
    assert np.isnan(result.score[~has_relevant]).all()
