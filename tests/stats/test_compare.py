"""compare_models and the corrections for multiple comparisons (_stats/_compare.py), against
scipy, statsmodels-free hand computation and paired_test itself."""

import sys

import numpy as np
import pytest
from _stats_data import scores as _scores
from numpy.testing import assert_allclose, assert_array_equal, assert_equal
from scipy import stats

from sklearn_ndcg._stats._compare import ModelComparison, _adjust, _fdr_bh, compare_models

# --- randomization -----------------------------------------------------------


def test_corrections_by_hand():
    p = np.array([0.01, 0.04, 0.03, 0.20])
    # hand computation, m = 4 comparisons
    # bonferroni: each times 4
    assert_allclose(_adjust(p, "bonferroni"), [0.04, 0.16, 0.12, 0.80])
    # holm: sorted 0.01*4 = 0.04, 0.03*3 = 0.09, 0.04*2 = 0.08 -> 0.09 (monotone), 0.20*1
    assert_allclose(_adjust(p, "holm"), [0.04, 0.09, 0.09, 0.20])
    # BH: sorted 0.01*4/1 = 0.04, 0.03*4/2 = 0.06, 0.04*4/3 = 0.0533, 0.20*4/4 = 0.20;
    # running minimum from the largest: 0.06 -> 0.0533
    assert_allclose(_adjust(p, "fdr_bh"), [0.04, 0.16 / 3, 0.16 / 3, 0.20])
    assert_array_equal(_adjust(p, None), p)
    # capped at 1: bonferroni 3 * 0.5; holm 3 * 0.5 and 2 * 0.6; BH 0.9 * 3/3
    p = np.array([0.5, 0.6, 0.9])
    assert_array_equal(_adjust(p, "bonferroni"), [1.0, 1.0, 1.0])
    assert_array_equal(_adjust(p, "holm"), [1.0, 1.0, 1.0])
    assert_allclose(_adjust(p, "fdr_bh"), [0.9, 0.9, 0.9])


def test_bh_without_scipy_function_is_the_same(monkeypatch):
    # the direct computation (scipy < 1.11) gives the hand-computed values too
    monkeypatch.delattr(stats, "false_discovery_control", raising=False)
    assert_allclose(
        _adjust(np.array([0.01, 0.04, 0.03, 0.20]), "fdr_bh"), [0.04, 0.16 / 3, 0.16 / 3, 0.20]
    )


@pytest.mark.skipif(
    not hasattr(stats, "false_discovery_control"), reason="scipy < 1.11: no false_discovery_control"
)
@pytest.mark.parametrize("seed", range(5))
def test_bh_equals_scipy_false_discovery_control(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=rng.integers(1, 30)) ** 3
    p[: p.size // 3] = p[-1]  # ties
    assert_array_equal(_fdr_bh(p), stats.false_discovery_control(p, method="bh"))


# --- compare_models ------------------------------------------------------------------


def _models():
    """Four models on 20 queries: the best, a copy, one a little below, one far below."""
    rng = np.random.default_rng(7)
    best = np.round(rng.uniform(0.3, 0.9, size=20), 2)
    return {
        "worse": best - 0.25 + rng.normal(0, 0.02, size=20),
        "best": best,
        "same": best.copy(),
        "close": best + 0.03 * (-1) ** np.arange(20) - 0.005,  # mean 0.005 lower
    }


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
    assert comparison.alpha == pytest.approx(0.05)
    assert (comparison.method, comparison.correction) == ("randomization", "holm")


def test_compare_models_baseline_and_corrections():
    scores = _models()
    raw = compare_models(scores, baseline="worse", correction=None, n_resamples=999, random_state=0)
    assert raw.reference == "worse"
    table = raw.to_dict()
    assert table["not_shown_different"] == [name == "worse" for name in table["name"]]
    assert_equal(table["adjusted_pvalue"], table["pvalue"])
    # bonferroni with 3 comparisons: 3 * p, capped at 1 (hand computation)
    bonferroni = compare_models(
        scores, baseline="worse", correction="bonferroni", n_resamples=999, random_state=0
    ).to_dict()
    assert_allclose(
        bonferroni["adjusted_pvalue"][:3], np.minimum(3 * np.array(table["pvalue"][:3]), 1)
    )


def test_compare_models_table():
    comparison = compare_models(_models(), n_resamples=999, random_state=0)
    text = str(comparison)
    assert text == repr(comparison)
    lines = text.splitlines()
    assert lines[0].startswith("Models compared with 'best' (randomization test")
    assert lines[1].split() == list(comparison.to_dict())
    assert len(lines) == 2 + 4
    # columns aligned: every value ends where its header ends
    header_end = lines[1].index("difference") + len("difference")
    assert all(line[header_end - 1] != " " for line in lines[2:])
    print("\n" + text)


def test_compare_models_to_frame():
    pd = pytest.importorskip("pandas")
    comparison = compare_models(_models(), n_resamples=999, random_state=0)
    frame = comparison.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert frame.shape == (4, 10)  # + verdict
    assert frame["name"].tolist() == comparison.to_dict()["name"]


def test_to_frame_without_pandas(monkeypatch):
    comparison = compare_models(_models(), n_resamples=99, random_state=0)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="needs pandas"):
        comparison.to_frame()


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
