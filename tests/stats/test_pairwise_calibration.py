"""Tukey's HSD with a margin under the rules of every other path (issue 34, Deliver 1).

The equivalence interval of a pair follows :func:`paired_test`'s TOST rule: the
simultaneous ``1 - 2 alpha`` Tukey interval from ``FULL_TOST_QUERIES`` queries on,
``1 - alpha`` below; no "equivalent" below ``MIN_EQUIVALENCE_QUERIES`` queries.

References: the Tukey interval computed here from the textbook two-way ANOVA sums of
squares and :data:`scipy.stats.studentized_range`; for the false-equivalence rate, a
simulation of heavy-tailed per-query NDCG differences with a known true difference (the
"heavy" scenario of ``benchmarks/_calibration_data.py``, in small).
"""

import numpy as np
import pytest
from _stats_data import heavy_tailed_pair
from scipy import stats

from sklearn_ndcg import compare_models
from sklearn_ndcg._stats._methods import FULL_TOST_QUERIES, MIN_EQUIVALENCE_QUERIES

FEW = "ignore:too few queries:UserWarning"


def _three_models(n_queries, seed=0):
    """Three close models on ``n_queries`` queries; a and b within about 0.005."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.3, 0.9, n_queries)
    return {
        "a": base + rng.normal(0, 0.01, n_queries),
        "b": base + 0.003 + rng.normal(0, 0.01, n_queries),
        "c": base - 0.05 + rng.normal(0, 0.01, n_queries),
    }


def _tukey_half_width(scores, level):
    """Half width of the simultaneous ``level`` Tukey interval: by hand."""
    matrix = np.column_stack(list(scores.values()))
    n, m = matrix.shape
    grand = matrix.mean()
    ss_total = ((matrix - grand) ** 2).sum()
    ss_model = n * ((matrix.mean(axis=0) - grand) ** 2).sum()
    ss_query = m * ((matrix.mean(axis=1) - grand) ** 2).sum()
    df = (n - 1) * (m - 1)
    ms_residual = (ss_total - ss_model - ss_query) / df
    return stats.studentized_range.ppf(level, m, df) * np.sqrt(ms_residual / n)


def _verdict_ab(scores, margin):
    comparison = compare_models(scores, pairs="all", method="tukey", margin=margin)
    pairwise = comparison.pairwise.to_dict()
    assert (pairwise["model_a"][0], pairwise["model_b"][0]) == ("a", "b")
    return pairwise["verdict"][0]


def test_tukey_equivalence_below_full_tost_queries_is_the_one_minus_alpha_interval():
    # on main the simultaneous 1 - 2 alpha interval at every n: "equivalent" here
    n = 100
    assert MIN_EQUIVALENCE_QUERIES <= n < FULL_TOST_QUERIES
    scores = _three_models(n)
    d = abs(np.mean(scores["a"] - scores["b"]))
    narrow, wide = _tukey_half_width(scores, 0.90), _tukey_half_width(scores, 0.95)
    assert wide > 1.1 * narrow
    between = d + (narrow + wide) / 2  # inside the 1 - 2 alpha interval, not the 1 - alpha
    assert _verdict_ab(scores, between) == "inconclusive"
    assert _verdict_ab(scores, d + 1.01 * wide) == "equivalent"


def test_tukey_equivalence_from_full_tost_queries_is_the_one_minus_two_alpha_interval():
    scores = _three_models(FULL_TOST_QUERIES)
    d = abs(np.mean(scores["a"] - scores["b"]))
    narrow, wide = _tukey_half_width(scores, 0.90), _tukey_half_width(scores, 0.95)
    assert _verdict_ab(scores, d + (narrow + wide) / 2) == "equivalent"
    assert _verdict_ab(scores, d + 0.99 * narrow) != "equivalent"


def test_tukey_cannot_say_equivalent_below_min_equivalence_queries():
    # on main: "equivalent" on 20 queries, without a warning
    small = {
        name: values[: MIN_EQUIVALENCE_QUERIES - 1] for name, values in _three_models(40).items()
    }
    with pytest.warns(UserWarning, match="too few queries: 29 queries cannot show scores"):
        comparison = compare_models(small, pairs="all", method="tukey", margin=0.05)
    verdicts = comparison.pairwise.to_dict()["verdict"]
    assert verdicts[0] == "inconclusive"  # a, b: inside the margin, but too few queries
    assert verdicts[1:] == ["better", "better"]  # a and b better than c: from the test
    enough = {name: values[:MIN_EQUIVALENCE_QUERIES] for name, values in _three_models(40).items()}
    assert _verdict_ab(enough, 0.05) == "equivalent"


def test_tukey_constant_differences_below_min_equivalence_queries_are_not_equivalent():
    # 10 queries, every pair's differences constant: the exact one-sided sign-flip
    # test (3 / 2**10) would show them within 0.01, but 10 queries are too few; the
    # two-sided one (3 * 2 / 2**10 < 0.05) shows a difference
    a = np.linspace(0.2, 0.8, 10)
    scores = {"a": a, "b": a + 0.001, "c": a + 0.002}
    with pytest.warns(UserWarning) as record:
        comparison = compare_models(scores, pairs="all", method="tukey", margin=0.01)
    messages = [str(w.message) for w in record]
    assert any("undefined without residual variance" in m for m in messages)
    assert any(m.startswith("too few queries: 10 queries cannot show") for m in messages)
    assert comparison.pairwise.to_dict()["verdict"] == ["worse"] * 3


def test_tukey_equivalence_with_nan_counts_each_pairs_queries():
    # c is NaN on 2 queries: its pairs have 29 queries (too few), a-b keeps 31
    scores = {name: values[:31].copy() for name, values in _three_models(40).items()}
    scores["c"] = scores["b"] + 0.001 * np.sin(np.arange(31))
    scores["c"][:2] = np.nan
    with pytest.warns(UserWarning, match="too few queries: 29 queries cannot show"):
        comparison = compare_models(scores, pairs="all", method="tukey", margin=0.05)
    assert comparison.pairwise.to_dict()["verdict"] == [
        "equivalent",
        "inconclusive",
        "inconclusive",
    ]


def test_two_models_studentized_range_by_students_t():
    # Tukey's HSD of 2 models takes its p-value from Student's t (exact: the range of 2
    # means is sqrt(2) |t|); reference: scipy's numerical integration
    rng = np.random.default_rng(5)
    base = rng.uniform(0.2, 0.8, 25)
    scores = {"a": base + rng.normal(0, 0.05, 25), "b": base + rng.normal(0.02, 0.05, 25)}
    pvalue = compare_models(scores, pairs="all", method="tukey").pairwise.to_dict()["pvalue"]
    matrix = np.column_stack(list(scores.values()))
    d = matrix[:, 0] - matrix[:, 1]
    q = abs(d.mean()) / np.sqrt(np.var(d, ddof=1) / 2 / 25)  # MS_residual = var(d) / 2
    assert pvalue[0] == pytest.approx(stats.studentized_range.sf(q, 2, 24), rel=1e-7)
    assert pvalue[0] == pytest.approx(stats.ttest_rel(*matrix.T).pvalue, rel=1e-12)


# --- the false-equivalence rate at the margin, heavy-tailed differences ----------------


@pytest.mark.filterwarnings(FEW)
@pytest.mark.parametrize("n", [40, 100])
def test_tukey_false_equivalence_at_the_margin_holds_alpha_on_heavy_tails(n):
    # the true a - b is the margin: "equivalent" is an error. Two models, where Tukey's
    # interval is the paired t interval (the tightest case; with more models the
    # simultaneous interval is wider). The 1 - 2 alpha interval gave 0.07-0.08 here.
    shift, reps = 0.15, 1000
    margin = float(np.mean(np.subtract(*heavy_tailed_pair(12345, 1, 400_000, shift))))
    assert 0.025 < margin < 0.035
    a, b = heavy_tailed_pair(7 + n, reps, n, shift)
    equivalent = [
        compare_models(
            {"a": x, "b": y}, pairs="all", method="tukey", margin=margin, n_resamples=99
        ).pairwise.columns["verdict"][0]
        == "equivalent"
        for x, y in zip(a, b)
    ]
    # binomial sd at 0.05 over 1,000: 0.0069; allowance 2 sd. The same simulation with
    # 20,000 replicates (the interval by hand): 0.043 (n=40) and 0.034 (n=100), against
    # 0.071 and 0.064 with the 1 - 2 alpha interval of before
    assert np.mean(equivalent) <= 0.05 + 0.014
