"""The demo's verdict: a margin, one recommended candidate, and why (issue 23)."""

import numpy as np

from sklearn_ndcg import QueryScores, compare_models
from sklearn_ndcg._cli._demo import MARGIN, _verdict_report


def _scores(values):
    values = np.asarray(values, dtype=float)
    return QueryScores(np.arange(values.size), values, np.ones(values.size))


BASE = np.random.default_rng(0).uniform(0.4, 0.9, 300)
WIGGLE = np.tile([0.004, -0.004], 150)


def _text(report):
    """The report's words on one line: it wraps its sentences at 100 characters."""
    assert max(len(line) for line in report.splitlines()) <= 100
    return " ".join(report.split())


def test_recommends_the_fastest_candidate_shown_equivalent():
    per_query = {
        "big": _scores(BASE),
        "small": _scores(BASE - 0.001 + WIGGLE),  # mean 0.001 below, spread 0.004
        "tiny": _scores(BASE - 0.05 + WIGGLE),  # worse
    }
    comparison = compare_models(per_query, margin=MARGIN, random_state=0)
    assert comparison.to_dict()["verdict"] == ["reference", "equivalent", "worse"]
    report = _text(
        _verdict_report(comparison, per_query, 10, {"big": 2.0, "small": 0.5, "tiny": 0.1})
    )
    # "tiny" fits fastest but is worse: not recommended
    assert "Recommended: small. Its NDCG@10 is shown to be within 0.01 of the best (big)" in report
    assert "0.50 s per fold against 2.00 s" in report
    assert "tied" not in report and "told apart" not in report


def test_recommends_the_best_when_no_other_is_shown_equivalent():
    # 40 queries (enough for every interval), differences of ±0.2: neither shown
    # different nor shown within 0.01
    spread = np.tile([0.2, -0.2], 20)
    per_query = {"big": _scores(BASE[:40]), "small": _scores(BASE[:40] - 0.001 + spread)}
    comparison = compare_models(per_query, margin=MARGIN, random_state=0)
    assert comparison.to_dict()["verdict"] == ["reference", "inconclusive"]
    report = _verdict_report(comparison, per_query, 10, {"big": 2.0, "small": 0.5})
    text = _text(report)
    assert "Recommended: big, the best. No other candidate is shown to be within 0.01" in text
    # the legend explains the verdicts the table shows, and only those
    assert "  inconclusive  neither shown different from the best nor shown within 0.01" in report
    assert "  reference     the best mean" in report
    assert "  equivalent  " not in report and "  worse  " not in report


def test_recommends_the_best_when_it_is_also_the_fastest():
    per_query = {"big": _scores(BASE), "small": _scores(BASE - 0.001 + WIGGLE)}
    comparison = compare_models(per_query, margin=MARGIN, random_state=0)
    report = _text(_verdict_report(comparison, per_query, 10, {"big": 0.2, "small": 0.5}))
    assert "Recommended: big, the best. 1 other candidate(s) are shown to be within 0.01" in report
    assert "none fits faster (0.20 s per fold)" in report


def test_significant_but_equivalent_is_explained():
    """A candidate 0.002 below the best on every query: shown different (adjusted p < 0.05,
    "not shown different: no") and shown within 0.01 ("equivalent")."""
    per_query = {"big": _scores(BASE), "small": _scores(BASE - 0.002 + WIGGLE / 4)}
    comparison = compare_models(per_query, margin=MARGIN, random_state=0)
    table = comparison.to_dict()
    assert table["verdict"] == ["reference", "equivalent"]
    assert table["not_shown_different"] == [True, False]
    ranks = {"big": 1, "small": 2}
    report = _verdict_report(comparison, per_query, 10, {"big": 2.0, "small": 0.5}, ranks)
    row = next(line for line in report.splitlines() if line.startswith("small  "))
    assert row.split()[-2:] == ["no", "equivalent"]
    assert '"no" together with "equivalent" means significant but equivalent' in _text(report)
