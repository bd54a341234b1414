"""compare_models and the corrections for multiple comparisons (_stats/_compare.py), against
scipy, statsmodels-free hand computation and paired_test itself."""

import numpy as np
import pytest
from _stats_data import models as _models
from _stats_data import scores as _scores
from numpy.testing import assert_allclose, assert_equal
from scipy import stats

from sklearn_ndcg._stats._compare import compare_models
from sklearn_ndcg._stats._model_comparison import ModelComparison

# --- randomization -----------------------------------------------------------


# --- compare_models ------------------------------------------------------------------


def test_compare_models():
    scores = _models()
    # the best is selected, so its comparisons are corrected for the 6 pairs of 4 models:
    # enough resamples for a p-value below 0.01 / 6
    comparison = compare_models(scores, n_resamples=9999, random_state=0)
    assert isinstance(comparison, ModelComparison)
    assert comparison.reference == "best"
    table = comparison.to_dict()
    assert table["name"][0] in ("best", "same")  # equal means: input order
    assert table["name"][-1] == "worse"
    assert table["mean"] == sorted(table["mean"], reverse=True)
    row = {name: i for i, name in enumerate(table["name"])}
    assert table["not_shown_different"][row["best"]]
    assert table["not_shown_different"][row["same"]]
    assert table["adjusted_pvalue"][row["same"]] == 1.0
    assert not table["not_shown_different"][row["worse"]]
    assert table["adjusted_pvalue"][row["worse"]] < 0.01
    assert np.isnan(table["pvalue"][row["best"]]) and np.isnan(table["effect_size"][row["best"]])
    assert table["difference"][row["worse"]] == pytest.approx(
        scores["worse"].mean() - scores["best"].mean()
    )
    assert table["mean"][row["close"]] == pytest.approx(scores["close"].mean())
    for i in range(4):
        assert table["ci_low"][i] <= table["mean"][i] <= table["ci_high"][i]
    assert comparison.not_shown_different == [
        n for n, t in zip(table["name"], table["not_shown_different"]) if t
    ]
    assert comparison.confidence_level == 0.95
    assert (comparison.method, comparison.correction) == ("randomization", "holm")


def test_compare_models_reference_and_corrections():
    scores = _models()
    raw = compare_models(
        scores, reference="worse", correction=None, n_resamples=999, random_state=0
    )
    assert raw.reference == "worse"
    table = raw.to_dict()
    assert table["not_shown_different"] == [name == "worse" for name in table["name"]]
    assert_equal(table["adjusted_pvalue"], table["pvalue"])
    # bonferroni with 3 comparisons: 3 * p, capped at 1 (hand computation)
    bonferroni = compare_models(
        scores, reference="worse", correction="bonferroni", n_resamples=999, random_state=0
    ).to_dict()
    assert_allclose(
        bonferroni["adjusted_pvalue"][:3], np.minimum(3 * np.array(table["pvalue"][:3]), 1)
    )


def test_compare_models_query_scores():
    scores = _models()
    qid = np.arange(20)
    order = np.random.default_rng(1).permutation(20)
    aligned = {name: _scores(v[order], qid[order]) for name, v in scores.items()}
    assert_equal(
        compare_models(aligned, n_resamples=999, random_state=0).to_dict(),
        compare_models(scores, n_resamples=999, random_state=0).to_dict(),
    )


# --- reproducibility --------------------------------------------------------------


@pytest.mark.filterwarnings("ignore:too few queries:UserWarning")  # margin on 20 queries
def test_baseline_is_the_deprecated_spelling_of_reference():
    scores = _models()
    new = compare_models(scores, reference="worse", n_resamples=299, margin=0.01, random_state=0)
    with pytest.warns(FutureWarning, match=r"reference=.*removed in 0\.4"):
        old = compare_models(scores, baseline="worse", n_resamples=299, margin=0.01, random_state=0)
    assert old.reference == new.reference == "worse"
    assert_equal(old.to_dict(), new.to_dict())
    with pytest.raises(ValueError, match="give reference only"):
        compare_models(scores, baseline="worse", reference="best")
    with pytest.raises(ValueError, match=r"reference='nope' is not a model in scores"):
        compare_models(scores, reference="nope")


def _equal_systems(rng, n_queries, n_models):
    """Per-query NDCG of equally good systems: bounded in [0, 1], skewed, with many exact 0s
    and 1s (about 10 % each), correlated through the difficulty of each query."""
    hard = rng.normal(0, 1, (n_queries, 1))
    noise = rng.normal(0, 0.6, (n_queries, n_models))
    values = stats.norm.cdf(1.2 * hard + noise) * 1.3 - 0.15
    return np.round(np.clip(values, 0, 1), 4)


@pytest.mark.slow
@pytest.mark.parametrize("n_models, n_replicates", [(5, 600), (10, 300)])
def test_against_the_best_holds_the_family_wise_error(n_models, n_replicates):
    # issue 34: against the best (highest mean), Holm over the k - 1 comparisons called
    # some equal model worse 0.07-0.098 of the time with 5 models, 0.14-0.17 with 10
    rng = np.random.default_rng(n_models)
    false_worse = 0
    for _ in range(n_replicates):
        values = _equal_systems(rng, 50, n_models)
        comparison = compare_models(
            {f"m{i}": values[:, i] for i in range(n_models)},
            method="t",
            n_resamples=49,
            random_state=int(rng.integers(2**31)),
        )
        false_worse += "worse" in comparison.to_dict()["verdict"]
    # at most alpha plus 3 Monte Carlo standard errors
    bound = 0.05 + 3 * np.sqrt(0.05 * 0.95 / n_replicates)
    assert false_worse / n_replicates <= bound


def test_a_fixed_reference_keeps_the_comparisons_with_it():
    values = _equal_systems(np.random.default_rng(0), 30, 4)
    scores = {f"m{i}": values[:, i] for i in range(4)}
    fixed = compare_models(scores, method="t", reference="m0", n_resamples=49, random_state=0)
    pvalues = [stats.ttest_rel(values[:, i], values[:, 0]).pvalue for i in range(1, 4)]
    holm = dict(zip(["m1", "m2", "m3"], _holm(np.array(pvalues))))
    table = fixed.to_dict()
    for name, adjusted in zip(table["name"], table["adjusted_pvalue"]):
        if name != "m0":
            assert adjusted == pytest.approx(holm[name])


def test_against_the_best_corrects_for_every_pair():
    values = _equal_systems(np.random.default_rng(1), 30, 4)
    scores = {f"m{i}": values[:, i] for i in range(4)}
    best = compare_models(scores, method="t", n_resamples=49, random_state=0)
    b = int(best.reference[1:])
    pairs = [(i, j) for i in range(4) for j in range(i + 1, 4)]
    adjusted = _holm(
        np.array([stats.ttest_rel(values[:, i], values[:, j]).pvalue for i, j in pairs])
    )
    expected = {f"m{j if i == b else i}": p for (i, j), p in zip(pairs, adjusted) if b in (i, j)}
    table = best.to_dict()
    for name, p in zip(table["name"], table["adjusted_pvalue"]):
        if name != best.reference:
            assert p == pytest.approx(expected[name])


def _holm(p):
    """Holm's step-down adjustment, written out (statsmodels' multipletests "holm")."""
    order = np.argsort(p)
    m = p.size
    adjusted = np.empty_like(p)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p[index]))
        adjusted[index] = running
    return adjusted
