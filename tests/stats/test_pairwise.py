"""compare_models over all pairs, blocked by query: Tukey's HSD, randomized Tukey (issue 23).

References: the two-way ANOVA table of statsmodels (``ols`` + ``anova_lm``) or sums
of squares computed here, :data:`scipy.stats.studentized_range`, exact enumeration of
the within-query permutations, :func:`scipy.stats.ttest_rel` with Holm's method written
here, and :func:`scipy.stats.tukey_hsd` (independent groups, as ranx applies it).
"""

import itertools

import numpy as np
import pytest
from scipy import stats

from sklearn_ndcg import (
    ModelComparisonDisplay,
    PairwiseComparison,
    compare_models,
    make_ranking,
    paired_test,
    query_scores,
)

NOISE = [0.3, 0.3, 0.3, 0.3, 0.9]  # the last model is worse


def _five_models(n_queries=100, seed=0):
    """Per-query NDCG@10 of 5 noisy rankers of make_ranking data (5 models x 100 queries).

    The rankers share most of their noise (some queries are hard for all of them), so
    the queries vary much more than the models: what blocking by query is for.
    """
    X, y, qid = make_ranking(n_queries=n_queries, random_state=seed)
    rng = np.random.default_rng(seed)
    shared = rng.normal(0, 1.5, y.shape[0])
    return {
        f"m{i}": query_scores(y, y + shared + rng.normal(0, noise, y.shape[0]), qid=qid, k=10)
        for i, noise in enumerate(NOISE)
    }


def _matrix(scores):
    return np.column_stack([np.asarray(v.score) for v in scores.values()])


def _residual_mean_square(matrix):
    """SS_total - SS_model - SS_query over (n - 1)(m - 1): the textbook decomposition."""
    n, m = matrix.shape
    grand = matrix.mean()
    ss_total = ((matrix - grand) ** 2).sum()
    ss_model = n * ((matrix.mean(axis=0) - grand) ** 2).sum()
    ss_query = m * ((matrix.mean(axis=1) - grand) ** 2).sum()
    return (ss_total - ss_model - ss_query) / ((n - 1) * (m - 1))


def _pairs(table):
    return list(zip(table["model_a"], table["model_b"]))


def test_tukey_equals_an_anova_table_and_the_studentized_range():
    smf = pytest.importorskip("statsmodels.formula.api", reason="needs statsmodels (test)")
    sm_anova = pytest.importorskip("statsmodels.stats.anova")
    pd = pytest.importorskip("pandas")
    scores = _five_models()
    matrix = _matrix(scores)
    n, m = matrix.shape
    long = pd.DataFrame(
        {
            "score": matrix.ravel(),
            "query": np.repeat(np.arange(n), m),
            "model": np.tile(list(scores), n),
        }
    )
    table = sm_anova.anova_lm(smf.ols("score ~ C(model) + C(query)", data=long).fit())
    ms_residual = table.loc["Residual", "mean_sq"]
    df_residual = table.loc["Residual", "df"]
    assert df_residual == (n - 1) * (m - 1)
    comparison = compare_models(scores, pairs="all", method="tukey")
    pairwise = comparison.pairwise.to_dict()
    names = list(scores)
    means = matrix.mean(axis=0)
    for (a, b), d, p in zip(_pairs(pairwise), pairwise["mean_difference"], pairwise["pvalue"]):
        diff = means[names.index(a)] - means[names.index(b)]
        q = abs(diff) / np.sqrt(ms_residual / n)
        np.testing.assert_allclose(d, diff, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(p, stats.studentized_range.sf(q, m, df_residual), rtol=1e-9)
    # the worse model is worse than all four others, the others not shown different
    worse = [v for (a, b), v in zip(_pairs(pairwise), pairwise["verdict"]) if b == "m4"]
    assert worse == ["better"] * 4
    others = [v for (a, b), v in zip(_pairs(pairwise), pairwise["verdict"]) if "m4" not in (a, b)]
    assert set(others) == {"not shown different"}


def test_tukey_against_hand_sums_of_squares_and_independent_groups():
    scores = _five_models(seed=3)
    matrix = _matrix(scores)
    n, m = matrix.shape
    comparison = compare_models(scores, pairs="all", method="tukey")
    pairwise = comparison.pairwise.to_dict()
    means = matrix.mean(axis=0)
    se = np.sqrt(_residual_mean_square(matrix) / n)
    expected = [
        stats.studentized_range.sf(abs(means[i] - means[j]) / se, m, (n - 1) * (m - 1))
        for i, j in itertools.combinations(range(m), 2)
    ]
    np.testing.assert_allclose(pairwise["pvalue"], expected, rtol=1e-9)
    if hasattr(stats, "tukey_hsd"):  # scipy >= 1.8: models as independent groups (ranx)
        independent = stats.tukey_hsd(*matrix.T).pvalue
        blocked = np.ones((m, m))
        for (i, j), p in zip(itertools.combinations(range(m), 2), expected):
            blocked[i, j] = blocked[j, i] = p
        # as independent groups (ranx) no pair differs; blocked by query, the worst model
        # is worse than all four others
        assert independent[np.triu_indices(m, 1)].min() > 0.05
        assert blocked[4, :4].max() < 0.001


def test_randomized_tukey_equals_exact_enumeration_on_a_small_case():
    # 3 models x 4 queries: all (3!)**4 = 1296 within-query permutations
    matrix = np.array([[0.9, 0.5, 0.6], [0.8, 0.4, 0.7], [0.7, 0.6, 0.5], [0.95, 0.3, 0.6]])
    scores = {name: matrix[:, j] for j, name in enumerate("abc")}
    means = matrix.mean(axis=0)
    spreads = []
    for orders in itertools.product(list(itertools.permutations(range(3))), repeat=4):
        permuted = np.array([row[list(order)] for row, order in zip(matrix, orders)])
        spreads.append(np.ptp(permuted.mean(axis=0)))
    spreads = np.array(spreads)
    exact = [
        np.mean(spreads >= abs(means[i] - means[j]) - 1e-12)
        for i, j in itertools.combinations(range(3), 2)
    ]
    got = compare_models(
        scores, pairs="all", method="randomized_tukey", n_resamples=40000, random_state=0
    ).pairwise.to_dict()["pvalue"]
    # Monte Carlo error of 40000 draws: sd <= 0.0025
    np.testing.assert_allclose(got, exact, atol=0.0125)


def _holm(p):
    """Holm's step-down adjustment, written out."""
    order = np.argsort(p)
    adjusted = np.empty(len(p))
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p) - rank) * p[i]))
        adjusted[i] = running
    return adjusted


def test_all_pairs_with_a_paired_test_is_holm_over_ttest_rel():
    scores = _five_models(n_queries=60, seed=1)
    matrix = _matrix(scores)
    raw = [
        stats.ttest_rel(matrix[:, i], matrix[:, j]).pvalue
        for i, j in itertools.combinations(range(5), 2)
    ]
    comparison = compare_models(scores, pairs="all", method="t")
    np.testing.assert_allclose(comparison.pairwise.to_dict()["pvalue"], _holm(raw), rtol=1e-12)
    # the main table's rows come from the pairs with the reference, signs turned
    table = comparison.to_dict()
    pairwise = comparison.pairwise.to_dict()
    ref = comparison.reference
    for name, difference, verdict in zip(table["name"], table["difference"], table["verdict"]):
        if name == ref:
            assert verdict == "reference"
            continue
        k = _pairs(pairwise).index(tuple(sorted((name, ref))))
        sign = 1 if pairwise["model_a"][k] == name else -1
        assert difference == pytest.approx(sign * pairwise["mean_difference"][k])
        flip = {"better": "worse", "worse": "better"}
        pair_verdict = pairwise["verdict"][k]
        assert verdict == (pair_verdict if sign > 0 else flip.get(pair_verdict, pair_verdict))


def test_tukey_with_a_margin_uses_the_simultaneous_interval():
    rng = np.random.default_rng(0)
    base = rng.uniform(0.3, 0.9, 200)
    scores = {
        "a": base + rng.normal(0, 0.01, 200),
        "b": base + rng.normal(0, 0.01, 200),
        "c": base - 0.05 + rng.normal(0, 0.01, 200),
    }
    matrix = np.column_stack(list(scores.values()))
    n, m = matrix.shape
    # hand computation: simultaneous 95 % Tukey interval of each difference (the TOST
    # at alpha / 2 per side below 250 queries, as paired_test)
    half = stats.studentized_range.ppf(0.95, m, (n - 1) * (m - 1)) * np.sqrt(
        _residual_mean_square(matrix) / n
    )
    means = matrix.mean(axis=0)
    comparison = compare_models(scores, pairs="all", method="tukey", margin=0.01)
    verdicts = dict(
        zip(_pairs(comparison.pairwise.to_dict()), comparison.pairwise.columns["verdict"])
    )
    assert (abs(means[0] - means[1]) + half < 0.01) == (verdicts[("a", "b")] == "equivalent")
    assert verdicts[("a", "b")] == "equivalent"
    assert verdicts[("a", "c")] == "better" and verdicts[("b", "c")] == "better"
    assert comparison.equivalent == [n for n in comparison.columns["name"] if n != "c"]


def test_pairwise_table_frame_and_matrix():
    pd = pytest.importorskip("pandas")
    scores = _five_models(n_queries=40)
    pairwise = compare_models(scores, pairs="all", method="tukey").pairwise
    assert isinstance(pairwise, PairwiseComparison)
    frame = pairwise.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert frame.columns.tolist() == ["model_a", "model_b", "mean_difference", "pvalue", "verdict"]
    assert frame.shape == (10, 5)
    difference, pvalue = pairwise.matrix(list(scores))
    np.testing.assert_array_equal(difference, -difference.T)
    np.testing.assert_array_equal(pvalue, pvalue.T)
    assert "All pairs of models (tukey" in str(pairwise)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(method="tukey"), "compares every pair of models; pass pairs='all'"),
        (dict(method="randomized_tukey"), "pass pairs='all'"),
        (dict(method="randomized_tukey", pairs="all", margin=0.01), "margin is not available"),
        (dict(pairs="some"), "'pairs' parameter"),
    ],
)
def test_bad_all_pairs_arguments(kwargs, message):
    scores = {"a": [0.1, 0.2, 0.3], "b": [0.2, 0.3, 0.1]}
    with pytest.raises(ValueError, match=message):
        compare_models(scores, **kwargs)


def test_tukey_refuses_weighted_queries():
    from sklearn_ndcg import QueryScores

    a = QueryScores(np.arange(4), np.array([0.1, 0.5, 0.3, 0.9]), np.array([1.0, 2, 1, 1]))
    b = QueryScores(np.arange(4), np.array([0.2, 0.4, 0.3, 0.6]), np.array([1.0, 2, 1, 1]))
    with pytest.raises(ValueError, match="weighs its queries unequally"):
        compare_models({"a": a, "b": b}, pairs="all", method="tukey")


def test_display_draws_verdicts_and_the_pairwise_matrix():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    scores = _five_models()
    display = ModelComparisonDisplay.from_query_scores(
        scores, method="tukey", pairs="all", margin=0.01
    )
    labels = [bars.get_label() for bars in display.errorbars_]
    assert labels[0].startswith("reference")
    assert "shown worse than" in " ".join(labels)
    assert set(display.verdicts_) <= {"reference", "equivalent", "inconclusive", "worse", "better"}
    display.plot_pairwise()
    assert display.pairwise_image_.get_array().shape == (5, 5)
    texts = [t.get_text() for t in display.pairwise_ax_.texts]
    assert len(texts) == 20 and sum(t.endswith("*") for t in texts) >= 8  # m4 row and column
    with pytest.raises(ValueError, match="no comparison of all pairs"):
        ModelComparisonDisplay.from_query_scores(scores, method="t").plot_pairwise()
    with pytest.warns(FutureWarning, match="not_shown_different"):
        ModelComparisonDisplay(["a"], [0.5], [[0.4, 0.6]], tied=[True])


def test_alpha_is_the_deprecated_spelling_of_confidence_level():
    comparison = compare_models(_five_models(), pairs="all", method="tukey", confidence_level=0.9)
    pairwise = comparison.pairwise
    assert pairwise.confidence_level == 0.9
    with pytest.warns(FutureWarning, match=r"confidence_level.*removed in 0\.4"):
        assert pairwise.alpha == 1 - 0.9
    new = PairwiseComparison(pairwise.columns, "tukey", confidence_level=0.75)
    with pytest.warns(FutureWarning, match=r"confidence_level.*removed in 0\.4"):
        old = PairwiseComparison(pairwise.columns, "tukey", alpha=0.25)
    assert old.confidence_level == new.confidence_level == 0.75
    assert str(old) == str(new)


# --- at the edges (issue 34, problem 5) ----------------------------------------------


def _constant_differences(n_queries):
    """Three models whose differences are the same on every query up to rounding."""
    a = np.array([0.5, 0.7, 0.3, 0.1, 0.9, 0.2])[:n_queries]
    return {"a": a, "b": a + 0.1, "c": a + 0.2}  # a + 0.1 - a is 0.1 only up to rounding


@pytest.mark.parametrize("method", ["tukey", "randomized_tukey"])
def test_constant_differences_warn_and_carry_no_more_than_the_queries(method):
    scores = _constant_differences(4)
    with pytest.warns(UserWarning, match="undefined without residual variance"):
        comparison = compare_models(scores, pairs="all", method=method, n_resamples=999)
    pairwise = comparison.pairwise.to_dict()
    # the exact randomization test of 4 queries: 2 / 2**4, times the 3 pairs
    np.testing.assert_allclose(pairwise["pvalue"], [3 * 2 / 16] * 3)
    assert pairwise["verdict"] == ["not shown different"] * 3
    # as paired_test: infinite effect sizes for equal non-zero differences (not -6e15)
    assert comparison.to_dict()["effect_size"][1:] == [-np.inf, -np.inf]  # b, a below c


def test_constant_differences_on_two_queries_are_not_shown_equivalent():
    a = np.array([0.5, 0.7])
    scores = {"a": a, "b": a + 0.001, "c": a + 0.002}
    with pytest.warns(UserWarning, match="undefined without residual variance"):
        comparison = compare_models(scores, pairs="all", method="tukey", margin=0.01)
    # 2 queries: the exact one-sided test can go no lower than 1 / 4 > 0.05
    assert comparison.pairwise.to_dict()["verdict"] == ["inconclusive"] * 3


def test_effect_sizes_of_every_pair_follow_paired_test():
    scores = _five_models(n_queries=30)
    comparison = compare_models(scores, pairs="all", method="tukey")
    table = comparison.to_dict()
    for name, effect in zip(table["name"], table["effect_size"]):
        if name != comparison.reference:
            expected = paired_test(scores[name], scores[comparison.reference]).effect_size
            assert effect == pytest.approx(expected)


def test_nan_in_one_model_leaves_only_its_pairs():
    rng = np.random.default_rng(0)
    matrix = np.clip(rng.normal(0.6, 0.2, (12, 1)) + rng.normal(0, 0.05, (12, 3)), 0, 1)
    matrix[0, 2] = np.nan  # model c is undefined on query 0
    scores = dict(zip("abc", matrix.T))
    pairwise = compare_models(scores, pairs="all", method="tukey").pairwise.to_dict()
    difference = dict(zip(_pairs(pairwise), pairwise["mean_difference"]))
    pvalue = dict(zip(_pairs(pairwise), pairwise["pvalue"]))
    assert difference[("a", "b")] == pytest.approx(np.mean(matrix[:, 0] - matrix[:, 1]))
    assert difference[("a", "c")] == pytest.approx(np.mean(matrix[1:, 0] - matrix[1:, 2]))
    # residual mean square of the queries every model defines; each pair's own n
    ms = _residual_mean_square(matrix[1:])
    df = (11 - 1) * (3 - 1)
    for (a, b), n in [(("a", "b"), 12), (("a", "c"), 11), (("b", "c"), 11)]:
        q = abs(difference[(a, b)]) / np.sqrt(ms / n)
        assert pvalue[(a, b)] == pytest.approx(stats.studentized_range.sf(q, 3, df), rel=1e-6)
    randomized = compare_models(
        scores, pairs="all", method="randomized_tukey", n_resamples=999, random_state=0
    ).pairwise.to_dict()
    assert dict(zip(_pairs(randomized), randomized["mean_difference"])) == pytest.approx(difference)
    assert all(0 < p <= 1 for p in randomized["pvalue"])
