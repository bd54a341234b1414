"""Strata of queries in bootstrap_ci, paired_test and compare_models (issues 23, 34).

References: hand computation (a stratified resample keeps each stratum's size, so
strata of constant values give a constant mean; the textbook standard error of a
stratified mean), scipy's ``ttest_rel`` on each stratum, and NumPy means.
"""

import numpy as np
import pytest
from scipy import stats

from sklearn_ndcg import QueryScores, bootstrap_ci, compare_models, paired_test

# below MIN_INTERVAL_QUERIES queries paired_test reports no interval, with this warning
# (tested in test_paired_calibration.py); these tests are about the rest of the result
pytestmark = pytest.mark.filterwarnings(
    "ignore:too few queries. no confidence interval:UserWarning"
)


def test_stratified_resamples_keep_the_stratum_sizes():
    # two strata of constant values: every stratified resample has the same mean
    values = np.r_[np.full(10, 0.9), np.full(30, 0.3)]
    strata = ["head"] * 10 + ["tail"] * 30
    # the head's own interval (10 queries) is Student's t interval, with a warning
    with pytest.warns(UserWarning, match="too few queries: .* below 25 queries \\(10 here\\)"):
        with pytest.warns(UserWarning, match="may cover less than its level below 40 queries"):
            result = bootstrap_ci(values, strata=strata, random_state=0)  # the tail: 30
    mean = (10 * 0.9 + 30 * 0.3) / 40  # hand computation
    assert result.mean == pytest.approx(mean)
    assert result.confidence_interval == pytest.approx((mean, mean))
    assert result.standard_error == pytest.approx(0.0, abs=1e-12)
    plain = bootstrap_ci(values, random_state=0)  # unstratified: the mix varies
    assert plain.confidence_interval[1] - plain.confidence_interval[0] > 0.1
    assert {k: r.mean for k, r in result.by_stratum.items()} == pytest.approx(
        {"head": 0.9, "tail": 0.3}
    )


def test_stratified_standard_error_is_the_textbook_one():
    rng = np.random.default_rng(0)
    head, tail = rng.uniform(0.6, 1.0, 40), rng.uniform(0.0, 0.6, 160)
    values = np.r_[head, tail]
    strata = np.r_[np.zeros(40), np.ones(160)]
    result = bootstrap_ci(values, strata=strata, n_resamples=40000, random_state=1)
    # Var of the stratified bootstrap mean: sum_h (n_h / n)**2 * var_h(ddof=0) / n_h
    n = 200
    expected = np.sqrt(sum((x.size / n) ** 2 * np.var(x) / x.size for x in (head, tail)))
    assert result.standard_error == pytest.approx(expected, rel=0.03)


def test_paired_test_by_stratum_is_scipy_on_each_stratum():
    rng = np.random.default_rng(2)
    b = rng.uniform(0.3, 0.9, 60)
    a = b + np.r_[rng.normal(0.03, 0.02, 40), rng.normal(-0.03, 0.02, 20)]
    strata = np.array(["head"] * 40 + ["tail"] * 20)
    result = paired_test(a, b, method="t", strata=strata)
    assert result.pvalue == pytest.approx(stats.ttest_rel(a, b).pvalue, rel=1e-12)
    for label in ("head", "tail"):
        mask = strata == label
        part = result.by_stratum[label]
        assert part.pvalue == pytest.approx(stats.ttest_rel(a[mask], b[mask]).pvalue, rel=1e-12)
        assert part.mean_difference == pytest.approx(np.mean(a[mask] - b[mask]))
    # a wins overall but loses on the tail queries
    assert result.mean_difference > 0 > result.by_stratum["tail"].mean_difference
    # sign flips are independent per query: strata do not change the randomization test
    plain = paired_test(a, b, random_state=0).pvalue
    assert paired_test(a, b, strata=strata, random_state=0).pvalue == plain


def test_compare_models_per_stratum_tables_show_a_hidden_loss():
    rng = np.random.default_rng(3)
    base = rng.uniform(0.3, 0.9, 90)
    strata = np.array(["head"] * 60 + ["tail"] * 30)
    scores = {
        "new": base + np.r_[np.full(60, 0.04), np.full(30, -0.03)] + rng.normal(0, 0.01, 90),
        "old": base,
    }
    comparison = compare_models(scores, method="t", margin=0.01, strata=strata)
    assert comparison.reference == "new"
    assert comparison.to_dict()["verdict"] == ["reference", "worse"]
    tail = comparison.by_stratum["tail"].to_dict()
    assert tail["name"] == ["old", "new"] and comparison.by_stratum["tail"].reference == "new"
    assert tail["verdict"] == ["better", "reference"]  # old beats new on the tail queries
    np.testing.assert_allclose(tail["mean"], [base[60:].mean(), scores["new"][60:].mean()])


def test_query_scores_take_a_mapping_or_sorted_order():
    rng = np.random.default_rng(4)
    qid = rng.permutation(30) + 100
    a = QueryScores(qid, rng.uniform(0, 1, 30), np.ones(30))
    b = QueryScores(qid, rng.uniform(0, 1, 30), np.ones(30))
    mapping = {int(q): ("odd" if q % 2 else "even") for q in qid}
    in_sorted_order = [mapping[q] for q in sorted(mapping)]
    by_mapping = paired_test(a, b, method="t", strata=mapping)
    by_order = paired_test(a, b, method="t", strata=in_sorted_order)
    assert by_mapping.by_stratum == by_order.by_stratum
    odd = qid % 2 == 1
    expected = np.mean(a.score[odd] - b.score[odd])
    assert by_mapping.by_stratum["odd"].mean_difference == pytest.approx(expected)


@pytest.mark.parametrize(
    "call, error, message",
    [
        (lambda: bootstrap_ci([0.1, 0.2, 0.3], strata=["a", "b"]), ValueError, "shape"),
        (lambda: bootstrap_ci([0.1, 0.2, 0.3], strata={0: "a"}), TypeError, "mapping"),
        (
            lambda: paired_test([0.1, 0.2, 0.3], [0.2, 0.1, 0.5], strata=["a", "a", "b"]),
            ValueError,
            r"strata \['b'\] have fewer than 2 queries",
        ),
        (
            lambda: bootstrap_ci(QueryScores([1, 2], [0.1, 0.2], [1.0, 1.0]), strata={1: "a"}),
            ValueError,
            r"no stratum for the queries \[2\]",
        ),
    ],
)
def test_bad_strata(call, error, message):
    with pytest.raises(error, match=message):
        call()


# every public function that takes strata= (grep "strata" in sklearn_ndcg/), on 6 queries
_V = np.linspace(0.1, 0.6, 6)
TAKE_STRATA = {
    "bootstrap_ci": lambda strata: bootstrap_ci(_V, strata=strata, random_state=0),
    "paired_test": lambda strata: paired_test(_V, _V[::-1], strata=strata, random_state=0),
    "compare_models": lambda strata: compare_models(
        {"x": _V, "y": _V[::-1]}, strata=strata, random_state=0
    ),
    "compare_models(pairs)": lambda strata: compare_models(
        {"x": _V, "y": _V[::-1], "z": _V**2}, reference=None, strata=strata, random_state=0
    ),
}
BAD_STRATA = {
    "1 and '1'": ([1, 1, 1, "1", "1", "1"], r"mixes labels of 2 kinds: 1 \(number\), '1' \(text\)"),
    "True and 1": ([True, True, True, 1, 1, 1], r"mixes labels of 2 kinds"),
    "NaN": ([1.0, 1.0, 1.0, np.nan, 2.0, 2.0], r"holds 1 missing label\(s\).*at position 3"),
    "NaN in a float array": (
        np.array([1.0, 1, 1, 2, 2, np.nan]),
        r"holds 1 missing label.*position 5",
    ),
    "None": (["a", "a", "a", None, "b", "b"], r"holds 1 missing label\(s\).*at position 3"),
    "all NaN": ([np.nan] * 6, r"holds 6 missing label\(s\)"),
}


@pytest.mark.parametrize("labels, message", BAD_STRATA.values(), ids=BAD_STRATA.keys())
@pytest.mark.parametrize("call", TAKE_STRATA.values(), ids=TAKE_STRATA.keys())
def test_strata_of_mixed_kinds_or_missing_labels_are_refused(call, labels, message):
    with pytest.raises(ValueError, match=r"^strata " + message):
        call(labels)


# six queries: the small-sample fallback of the stratified interval warns, beside the point
@pytest.mark.filterwarnings("ignore:too few queries:UserWarning")
@pytest.mark.parametrize("call", TAKE_STRATA.values(), ids=TAKE_STRATA.keys())
def test_strata_of_one_kind_are_taken(call):
    # int and float are one kind (1 == 1.0 names one stratum), as are str and numpy's str
    for labels in (
        [1, 1, 1, 2.0, 2.0, 2.0],
        ["a"] * 3 + [np.str_("b")] * 3,
        [False] * 3 + [True] * 3,
    ):
        assert len(call(labels).by_stratum) == 2


def test_strata_from_pandas_with_missing_labels_are_refused():
    pd = pytest.importorskip("pandas")
    for labels in (
        pd.Series(["a", "a", "a", "b", "b", pd.NA], dtype="string"),
        pd.Series(pd.Categorical(["a", "a", "a", "b", "b", None])),
    ):
        with pytest.raises(ValueError, match=r"strata holds 1 missing label.*position 5"):
            bootstrap_ci(_V, strata=labels, random_state=0)


def test_strata_mapping_names_the_query_id():
    qid = np.array([30, 10, 20, 40, 50, 60])
    a, b = QueryScores(qid, _V, np.ones(6)), QueryScores(qid, _V[::-1], np.ones(6))
    with pytest.raises(ValueError, match=r"missing label\(s\).*at query id 20"):
        paired_test(a, b, strata={10: "x", 20: None, 30: "x", 40: "y", 50: "y", 60: "y"})
    with pytest.raises(ValueError, match=r"mixes labels of 2 kinds"):
        paired_test(a, b, strata={10: "x", 20: "x", 30: "x", 40: 1, 50: 1, 60: 1})
