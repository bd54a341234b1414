"""compare_models and the corrections for multiple comparisons (_stats/_compare.py), against
scipy, statsmodels-free hand computation and paired_test itself."""

import numpy as np
import pytest
from _stats_data import models as _models
from _stats_data import scores as _scores
from numpy.testing import assert_allclose, assert_equal

from sklearn_ndcg._stats._compare import compare_models
from sklearn_ndcg._stats._model_comparison import ModelComparison

# --- randomization -----------------------------------------------------------


# --- compare_models ------------------------------------------------------------------


def test_compare_models():
    scores = _models()
    comparison = compare_models(scores, n_resamples=999, random_state=0)
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
    new = compare_models(scores, reference="worse", n_resamples=99, margin=0.01, random_state=0)
    with pytest.warns(FutureWarning, match=r"reference=.*removed in 0\.4"):
        old = compare_models(scores, baseline="worse", n_resamples=99, margin=0.01, random_state=0)
    assert old.reference == new.reference == "worse"
    assert_equal(old.to_dict(), new.to_dict())
    with pytest.raises(ValueError, match="give reference only"):
        compare_models(scores, baseline="worse", reference="best")
    with pytest.raises(ValueError, match=r"reference='nope' is not a model in scores"):
        compare_models(scores, reference="nope")
