"""
======================================================
Which tuned candidates are really worse than the best?
======================================================

A grid search picks the candidate with the highest mean NDCG\\@10, however
small its lead. Here a ridge model and gradient-boosted trees are tuned on the
same folds; then the best candidates are evaluated again query by query
(:func:`~sklearn_ndcg.search_query_scores`), compared with the best one by
paired tests corrected for the number of comparisons
(:func:`~sklearn_ndcg.compare_models`), and drawn with
:class:`~sklearn_ndcg.ModelComparisonDisplay`. See :ref:`statistics` for the
tests and how to read them.
"""

# %%
# The search
# ----------
# 300 synthetic queries, five ``GroupKFold`` folds, and five candidates: a
# ridge model with three penalties and gradient-boosted trees of depth 2 and
# of unlimited depth, each wrapped in :class:`~sklearn_ndcg.RankingEvaluator`
# so that the search ranks them by NDCG\@10. The numbers below, and the
# conclusions drawn from them, are those of the scikit-learn release that
# built this page: another release may deal the queries into other folds
# (``GroupKFold`` changed in 1.9) and fit the trees slightly differently.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import sklearn
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, GroupKFold

from sklearn_ndcg import (
    ModelComparisonDisplay,
    RankingEvaluator,
    compare_models,
    make_ranking,
    paired_test,
    search_query_scores,
)

sklearn.set_config(enable_metadata_routing=True)
X, y, qid = make_ranking(n_queries=300, random_state=0)

grid = [
    {"estimator": [Ridge()], "estimator__alpha": [0.1, 10.0, 1000.0]},
    {
        "estimator": [HistGradientBoostingRegressor(random_state=0)],
        "estimator__max_depth": [2, None],
    },
]
search = GridSearchCV(RankingEvaluator(Ridge(), k=10), grid, cv=GroupKFold(5))
search.fit(X, y, groups=qid, qid=qid)


def describe(params):
    """A short name for a candidate, e.g. ``Ridge(alpha=10.0)``."""
    name = type(params["estimator"]).__name__.replace("HistGradientBoostingRegressor", "HGB")
    inner = ", ".join(
        f"{key.removeprefix('estimator__')}={value}"
        for key, value in sorted(params.items())
        if key != "estimator"
    )
    return f"{name}({inner})"


results = pd.DataFrame(
    {
        "candidate": [describe(params) for params in search.cv_results_["params"]],
        "mean NDCG@10": search.cv_results_["mean_test_score"],
        "std over folds": search.cv_results_["std_test_score"],
        "rank": search.cv_results_["rank_test_score"],
    }
).sort_values("rank")
print(results.round(4).to_string(index=False))

# %%
# The search picks ``Ridge(alpha=10.0)``, ahead of ``Ridge(alpha=0.1)`` by
# about 0.00002. The four best candidates lie within 0.002 of each other, and
# the standard deviation over the folds is about 0.01 for each: the fold
# scores cannot say whether any of them is really better.
#
# Query by query
# --------------
# :func:`~sklearn_ndcg.search_query_scores` refits the best candidates on the
# search's own folds (``GroupKFold`` is deterministic) and returns the
# NDCG\@10 of every query from the fold that tested it. The search ranked
# with :class:`~sklearn_ndcg.RankingEvaluator`'s own score rather than a
# scorer, so the cutoff is given again with ``k=10``.
scores = search_query_scores(search, X, y, qid=qid, n_candidates=5, k=10, describe=describe)
comparison = compare_models(scores, margin=0.01, random_state=0)
columns = ["name", "mean", "difference", "adjusted_pvalue", "not_shown_different", "verdict"]
print(comparison.to_frame()[columns].round(4).to_string(index=False))

# %%
# Each candidate is compared with the best, ``Ridge(alpha=10.0)``, by the
# paired randomization test over the 300 queries, and the p-values are
# adjusted by Holm's method for the four comparisons. ``margin=0.01`` says
# that differences of NDCG\@10 below 0.01 do not matter, and each candidate
# gets a verdict:
#
# - ``Ridge(alpha=0.1)`` and ``HGB(max_depth=None)`` are *equivalent* to the
#   best: the 300 queries show their NDCG\@10 to be within 0.01 of it.
# - ``HGB(max_depth=2)`` is *worse*, by 0.01 NDCG\@10 on average.
# - ``Ridge(alpha=1000.0)`` is significantly different (adjusted p 0.02), by
#   only 0.0007 on average: it ranks 276 of the 300 queries exactly as the
#   best does, and of the other 24 it ranks 18 worse and 6 better. So lopsided
#   a split is unlikely to be chance, but the difference is shown to be far
#   smaller than the margin, and the verdict is *equivalent*. Significant is
#   not the same as important.
#
# So the search's choice among the equivalent candidates is arbitrary: prefer
# the one that is cheapest to run or easiest to maintain (here a ridge model
# over the trees), and report its NDCG on held-out queries rather than its
# cross-validated score, which the selection makes optimistic.
#
# The comparison drawn
# --------------------
# :class:`~sklearn_ndcg.ModelComparisonDisplay` draws each candidate's mean
# NDCG\@10 with its bootstrap confidence interval, best at the top, grouped
# in the legend by verdict; the hollow point is the one shown worse.
fig, ax = plt.subplots(figsize=(5, 5))
ModelComparisonDisplay.from_comparison(comparison, ax=ax)
ax.set_xlabel("mean NDCG@10 (confidence interval)")
ax.locator_params(axis="x", nbins=4)
# the legend under the plot, where it covers no candidate
ax.legend(loc="upper center", bbox_to_anchor=(0.3, -0.2), fontsize="small")
fig.suptitle("Out-of-fold NDCG@10 over 300 queries")
fig.tight_layout()
plt.show()

# %%
# The intervals of all five overlap, even those of the significantly worse
# candidates: each interval is that of one model's mean on its own, and it is
# wide because queries differ a lot in difficulty. The tests are paired, so
# the difficulty of a query cancels out in each difference. The intervals of
# the *differences* from the best (:func:`~sklearn_ndcg.paired_test`, 95%,
# not adjusted for the number of comparisons) show it:
reference = comparison.reference
others = [name for name in comparison.to_dict()["name"] if name != reference]
tests = [paired_test(scores[name], scores[reference], random_state=0) for name in others]
for name, test in zip(others, tests):
    low, high = test.confidence_interval
    same = int(np.sum(scores[name].score == scores[reference].score))
    print(
        f"{name:20} {test.mean_difference:+.4f}  [{low:+.4f}, {high:+.4f}]  "
        f"equal on {same} of {test.n_queries} queries"
    )

fig, ax = plt.subplots(figsize=(5, 3.5))
position = -np.arange(len(others))
means = np.array([test.mean_difference for test in tests])
intervals = np.array([test.confidence_interval for test in tests])
ax.errorbar(
    means, position, xerr=[means - intervals[:, 0], intervals[:, 1] - means], fmt="o", capsize=3
)
ax.axvline(0, color="gray", linestyle=":")
ax.set_yticks(position, others)
ax.set_xlabel(f"NDCG@10 minus that of\n{reference} (95% interval)")
ax.locator_params(axis="x", nbins=4)
fig.tight_layout()
plt.show()

# %%
# The intervals of ``HGB(max_depth=2)`` and ``Ridge(alpha=1000.0)`` lie below
# 0. ``Ridge(alpha=0.1)`` ranks 299 of the 300 queries exactly as the best
# does, so its difference is 0 but for one query. The interval of
# ``HGB(max_depth=None)`` straddles 0: it may be up to about 0.004 better or
# 0.008 worse than the best. Not shown different would only say that the 300
# queries cannot tell; with the margin of 0.01, its equivalence interval lies inside
# (-0.01, 0.01), which shows the two to be equivalent.

sklearn.set_config(enable_metadata_routing=False)
