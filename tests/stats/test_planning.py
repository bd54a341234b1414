"""Planning: required_queries, detectable_difference, generalizability_study (issue 23).

References: statsmodels' power of the paired t-test (``TTestPower``, a one-sample
t-test on the differences), and the two-way ANOVA mean squares and G-study formulas
(Brennan 2001) computed by hand on a small matrix.
"""

import numpy as np
import pytest

from sklearn_ndcg import (
    GeneralizabilityStudy,
    QueryScores,
    detectable_difference,
    generalizability_study,
    required_queries,
)

RNG = np.random.default_rng(0)
B = RNG.uniform(0.3, 0.9, 30)
A = B + RNG.normal(0.01, 0.04, 30)
SD = np.std(A - B, ddof=1)


@pytest.mark.parametrize("delta", [0.005, 0.01, 0.02, 0.05])
@pytest.mark.parametrize("power, alpha", [(0.8, 0.05), (0.9, 0.01), (0.5, 0.1)])
def test_required_queries_is_statsmodels_paired_t_power(delta, power, alpha):
    smp = pytest.importorskip("statsmodels.stats.power", reason="needs statsmodels (test)")
    n = required_queries(A, B, delta=delta, power=power, confidence_level=1 - alpha)
    exact = smp.TTestPower().solve_power(effect_size=delta / SD, alpha=alpha, power=power)
    assert n == max(2, int(np.ceil(exact - 1e-6)))
    # and it is the smallest such n: statsmodels' power at n reaches the target, at n - 1 not
    power_at = smp.TTestPower().power
    assert power_at(effect_size=delta / SD, nobs=n, alpha=alpha) >= power - 1e-9
    if n > 2:
        assert power_at(effect_size=delta / SD, nobs=n - 1, alpha=alpha) < power


@pytest.mark.parametrize("n_queries", [5, 20, 50, 200, 1000])
@pytest.mark.parametrize("power", [0.8, 0.95])
def test_detectable_difference_is_statsmodels_paired_t_power(n_queries, power):
    smp = pytest.importorskip("statsmodels.stats.power", reason="needs statsmodels (test)")
    got = detectable_difference(A, B, n_queries=n_queries, power=power)
    # statsmodels' power of the paired t-test at that difference is the target ...
    reached = smp.TTestPower().power(effect_size=got / SD, nobs=n_queries, alpha=0.05)
    np.testing.assert_allclose(reached, power, atol=1e-9)
    # ... and its own root finder (tolerance ~1e-5) lands on the same difference
    effect = smp.TTestPower().solve_power(nobs=n_queries, alpha=0.05, power=power)
    np.testing.assert_allclose(got, effect * SD, rtol=1e-4)


def test_required_and_detectable_are_inverse():
    for n in (10, 37, 120):
        delta = detectable_difference(A, B, n_queries=n)
        assert required_queries(A, B, delta=delta * 1.000001) <= n
        assert required_queries(A, B, delta=delta * 0.99) > n


def test_planning_takes_query_scores_and_refuses_what_it_cannot_plan():
    qid = np.arange(30)
    a = QueryScores(qid, A, np.ones(30))
    b = QueryScores(qid[::-1], B[::-1], np.ones(30))  # aligned by query id
    assert required_queries(a, b, delta=0.01) == required_queries(A, B, delta=0.01)
    with pytest.raises(ValueError, match="no variance"):
        required_queries(B + 0.1, B, delta=0.01)
    with pytest.raises(ValueError, match="weigh their queries unequally"):
        w = np.linspace(1, 2, 30)
        required_queries(QueryScores(qid, A, w), QueryScores(qid, B, w), delta=0.01)
    with pytest.raises(ValueError, match="more than 10000000 queries"):
        required_queries(A, B, delta=1e-6)
    with pytest.raises(ValueError, match="'delta' parameter"):
        required_queries(A, B, delta=0)
    with pytest.raises(ValueError, match="'n_queries' parameter"):
        detectable_difference(A, B, n_queries=1)


# hand-made 4 queries x 3 models (rows: queries)
MATRIX = np.array(
    [
        [0.50, 0.60, 0.55],
        [0.30, 0.45, 0.35],
        [0.70, 0.80, 0.70],
        [0.40, 0.55, 0.50],
    ]
)


def test_generalizability_study_equals_hand_computed_anova():
    n, m = MATRIX.shape
    # hand computation: grand mean 1.6 / 3; model means 0.475, 0.6, 0.525; query means
    # 0.55, 0.3667, 0.7333, 0.4833
    grand = 1.6 / 3
    model_means = np.array([0.475, 0.6, 0.525])
    query_means = np.array([0.55, 1.1 / 3, 2.2 / 3, 1.45 / 3])
    ms_model = n * ((model_means - grand) ** 2).sum() / (m - 1)
    ms_query = m * ((query_means - grand) ** 2).sum() / (n - 1)
    ss_total = ((MATRIX - grand) ** 2).sum()
    ss_residual = ss_total - ms_model * (m - 1) - ms_query * (n - 1)
    ms_residual = ss_residual / ((n - 1) * (m - 1))
    study = generalizability_study({f"s{j}": MATRIX[:, j] for j in range(m)})
    assert isinstance(study, GeneralizabilityStudy)
    assert (study.n_models, study.n_queries) == (3, 4)
    # expected mean squares: E[MS_s] = σ²e + n σ²s, E[MS_q] = σ²e + m σ²q
    np.testing.assert_allclose(study.model_variance, (ms_model - ms_residual) / n, rtol=1e-12)
    np.testing.assert_allclose(study.query_variance, (ms_query - ms_residual) / m, rtol=1e-12)
    np.testing.assert_allclose(study.residual_variance, ms_residual, rtol=1e-12)
    s, q, e = study.model_variance, study.query_variance, study.residual_variance
    for n_prime in (1, 4, 50):
        # Brennan (2001): Eρ² = σ²s / (σ²s + σ²e / n'), Φ = σ²s / (σ²s + (σ²q + σ²e) / n')
        np.testing.assert_allclose(study.e_rho2(n_prime), s / (s + e / n_prime), rtol=1e-12)
        np.testing.assert_allclose(study.phi(n_prime), s / (s + (q + e) / n_prime), rtol=1e-12)
    np.testing.assert_allclose(study.e_rho2([1, 4]), [s / (s + e), s / (s + e / 4)])
    target = study.queries_for(0.95)
    assert study.e_rho2(target) >= 0.95 > study.e_rho2(target - 1)


def test_generalizability_study_against_statsmodels_anova():
    smf = pytest.importorskip("statsmodels.formula.api", reason="needs statsmodels (test)")
    sm_anova = pytest.importorskip("statsmodels.stats.anova")
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(1)
    matrix = rng.uniform(0, 1, (25, 4)) + np.array([0.0, 0.05, 0.1, 0.0])
    long = pd.DataFrame(
        {
            "y": matrix.ravel(),
            "q": np.repeat(np.arange(25), 4),
            "s": np.tile(np.arange(4), 25),
        }
    )
    table = sm_anova.anova_lm(smf.ols("y ~ C(s) + C(q)", data=long).fit())
    study = generalizability_study({j: matrix[:, j] for j in range(4)})
    ms = table["mean_sq"]
    np.testing.assert_allclose(study.residual_variance, ms["Residual"], rtol=1e-10)
    np.testing.assert_allclose(
        study.model_variance, max(0.0, (ms["C(s)"] - ms["Residual"]) / 25), rtol=1e-10
    )
    np.testing.assert_allclose(study.query_variance, (ms["C(q)"] - ms["Residual"]) / 4, rtol=1e-10)


def test_negative_variance_estimates_are_zero():
    # identical model means: MS_model = 0 < MS_residual, so σ²s is estimated negative
    matrix = np.array([[0.5, 0.6], [0.6, 0.5], [0.3, 0.4], [0.4, 0.3]])
    study = generalizability_study({"a": matrix[:, 0], "b": matrix[:, 1]})
    assert study.model_variance == 0.0
    assert study.e_rho2(100) == 0.0
    with pytest.raises(ValueError, match="no variance between the models"):
        study.queries_for(0.9)
    with pytest.raises(ValueError, match="at least 2 models"):
        generalizability_study({"a": matrix[:, 0]})


@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.25])
def test_alpha_is_the_deprecated_spelling_of_confidence_level(alpha):
    with pytest.warns(FutureWarning, match=r"confidence_level=1 - alpha.*removed in 0\.4"):
        old_n = required_queries(A, B, delta=0.01, alpha=alpha)
    with pytest.warns(FutureWarning, match=r"confidence_level=1 - alpha.*removed in 0\.4"):
        old_d = detectable_difference(A, B, n_queries=50, alpha=alpha)
    new_n = required_queries(A, B, delta=0.01, confidence_level=1 - alpha)
    new_d = detectable_difference(A, B, n_queries=50, confidence_level=1 - alpha)
    assert old_n == new_n
    assert old_d == pytest.approx(new_d, rel=1e-12)
    if alpha == 0.05:  # the default: the same numbers, bit for bit
        assert old_d == detectable_difference(A, B, n_queries=50)
        assert old_n == required_queries(A, B, delta=0.01)
    with pytest.raises(ValueError, match="give confidence_level only"):
        required_queries(A, B, delta=0.01, alpha=alpha, confidence_level=0.9)
