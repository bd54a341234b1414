"""
=====================================================
Which models does a benchmark of datasets tell apart?
=====================================================

A leaderboard ranks models by their mean NDCG\\@10 over the datasets of a
benchmark, however small the gaps. Here five models are evaluated on six
synthetic datasets, query by query (:func:`~sklearn_ndcg.cross_val_query_scores`),
and :func:`~sklearn_ndcg.compare_benchmark` says which ranks the benchmark
supports: simultaneous rank intervals, the set of models tied with the best,
and Friedman's test with Nemenyi's pairs, drawn by
:class:`~sklearn_ndcg.CriticalDifferenceDisplay`. See
:ref:`benchmark-verdicts` for the method and the two questions it answers.
"""

# %%
# Per-query NDCG on every dataset
# -------------------------------
# Six datasets of 200 queries that differ in how noisy their labels are and
# how many documents a query holds; five models, each scored out of fold on
# every query of every dataset (three folds that keep queries whole).
import matplotlib.pyplot as plt
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.linear_model import Ridge
from sklearn.model_selection import GroupKFold
from sklearn.neighbors import KNeighborsRegressor

from sklearn_ndcg import (
    CriticalDifferenceDisplay,
    compare_benchmark,
    cross_val_query_scores,
    make_ranking,
)

models = {
    "ridge": Ridge(),
    "ridge(alpha=1e4)": Ridge(alpha=1e4),
    "knn(20)": KNeighborsRegressor(20),
    "knn(100)": KNeighborsRegressor(100),
    "hgb": HistGradientBoostingRegressor(max_iter=50, max_depth=3, random_state=0),
}
benchmark = {}
for seed in range(6):
    X, y, qid = make_ranking(
        n_queries=200, n_items=(5, 10 + 10 * seed), noise=0.3 + 0.1 * seed, random_state=seed
    )
    benchmark[f"set{seed}"] = {
        name: cross_val_query_scores(model, X, y, qid=qid, cv=GroupKFold(3), k=10)
        for name, model in models.items()
    }

# %%
# The verdicts
# ------------
# Over *these* six datasets (the default ``unit="queries"``: the datasets are
# fixed, their queries resampled), each model's mean, its average rank over
# the datasets, its simultaneous 95 % rank interval and its verdict:
comparison = compare_benchmark(benchmark, random_state=0)
print(comparison)
print("tied with the best:", comparison.tied_with_best)

# %%
# ``rank_low`` and ``rank_high`` bound each model's place in the order of the
# true means, all at once with probability 0.95; the models whose interval
# reaches rank 1 form ``tied_with_best``. Friedman's test and Nemenyi's pairs
# use the average ranks instead, which ignore by how much a model wins a
# dataset: with six datasets they tell few pairs apart.
print(comparison.pairwise_frame().round(3))

# %%
# Over *datasets like these* (``unit="datasets"``: the datasets are resampled
# too), the intervals are wider, since a model's advantage on some datasets
# and disadvantage on others now count as noise:
print(compare_benchmark(benchmark, unit="datasets", random_state=0))

# %%
# The critical-difference diagram and the rank intervals
# ------------------------------------------------------
# Above: Demšar's diagram, each model at its average rank, with Nemenyi's
# critical difference and a line under each group of models no pair of which
# is told apart. Below: each model's simultaneous rank interval by mean.
# (one panel above the other: both stay legible on a phone)
fig, (top, bottom) = plt.subplots(2, 1, figsize=(5, 7))
display = CriticalDifferenceDisplay.from_comparison(comparison, ax=top)
display.plot_ranks(ax=bottom)
fig.tight_layout(h_pad=2.5)  # the diagram's axis label apart from the plot below
plt.show()

# %%
# The sentence a paper would write
# --------------------------------
table = comparison.to_dict()
best, low, high = table["name"][0], table["ci_low"][0], table["ci_high"][0]
others = [name for name in comparison.tied_with_best if name != best]
worse = [name for name, v in zip(table["name"], table["verdict"]) if v == "worse than the best"]
print(
    f"Over the {len(comparison.datasets)} datasets, {best} has the highest mean NDCG@10 "
    f"({table['mean'][0]:.3f}, 95 % CI {low:.3f}-{high:.3f}); "
    + (f"it is not shown better than {', '.join(others)}" if others else "it is shown best")
    + f" (95 % simultaneous rank intervals), and {', '.join(worse) or 'no model'} "
    f"{'is' if len(worse) == 1 else 'are'} shown worse than the best; Friedman's test on "
    f"the average ranks gives p = {comparison.friedman.pvalue:.3g}."
)
