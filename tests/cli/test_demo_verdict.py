"""The demo's verdict: a margin, one recommended candidate, and why (issue 23)."""

import numpy as np

from sklearn_ndcg import QueryScores, compare_models
from sklearn_ndcg._cli._demo import MARGIN, _verdict_report


def _scores(values):
    values = np.asarray(values, dtype=float)
    return QueryScores(np.arange(values.size), values, np.ones(values.size))


BASE = np.random.default_rng(0).uniform(0.4, 0.9, 300)
WIGGLE = np.tile([0.004, -0.004], 150)


def test_recommends_the_fastest_candidate_shown_equivalent():
    per_query = {
        "big": _scores(BASE),
        "small": _scores(BASE - 0.001 + WIGGLE),  # mean 0.001 below, spread 0.004
        "tiny": _scores(BASE - 0.05 + WIGGLE),  # worse
    }
    comparison = compare_models(per_query, margin=MARGIN, random_state=0)
    assert comparison.to_dict()["verdict"] == ["reference", "equivalent", "worse"]
    report = _verdict_report(comparison, per_query, 10, {"big": 2.0, "small": 0.5, "tiny": 0.1})
    # "tiny" fits fastest but is worse: not recommended
    assert "Recommended: small. Its NDCG@10 is shown to be within 0.01 of the best (big)" in report
    assert "0.50 s per fold against 2.00 s" in report
    assert "tied" not in report and "told apart" not in report


def test_recommends_the_best_when_no_other_is_shown_equivalent():
    spread = np.tile([0.2, -0.2], 3)
    per_query = {"big": _scores(BASE[:6]), "small": _scores(BASE[:6] - 0.001 + spread)}
    comparison = compare_models(per_query, margin=MARGIN, random_state=0)
    assert comparison.to_dict()["verdict"] == ["reference", "inconclusive"]
    report = _verdict_report(comparison, per_query, 10, {"big": 2.0, "small": 0.5})
    assert "Recommended: big, the best. No other candidate is shown to be within 0.01" in report
    assert "inconclusive = the queries show neither" in report


def test_recommends_the_best_when_it_is_also_the_fastest():
    per_query = {"big": _scores(BASE), "small": _scores(BASE - 0.001 + WIGGLE)}
    comparison = compare_models(per_query, margin=MARGIN, random_state=0)
    report = _verdict_report(comparison, per_query, 10, {"big": 0.2, "small": 0.5})
    assert "Recommended: big, the best. 1 other candidate(s) are shown to be within 0.01" in report
    assert "none fits faster (0.20 s per fold)" in report
