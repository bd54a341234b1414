"""
========================
Tuning a model by NDCG@k
========================

A grid search ranks candidates by NDCG\\@10 computed query by query on each fold.
Folds keep queries whole (``GroupKFold``) and metadata routing hands each fold's
query ids to the scorer. See :ref:`model_selection` for the steps.
"""

# %%
import matplotlib.pyplot as plt
import pandas as pd
import sklearn
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import GridSearchCV, GroupKFold

from sklearn_ndcg import make_ndcg_scorer, make_ranking

sklearn.set_config(enable_metadata_routing=True)
X, y, qid = make_ranking(n_queries=80, n_items=(5, 20), random_state=3)

# %%
# Two metrics: NDCG\@10 picks the model (``refit``), NDCG\@3 is reported too.
search = GridSearchCV(
    HistGradientBoostingRegressor(max_iter=20, random_state=0),
    {"max_depth": [2, None], "learning_rate": [0.1, 0.3]},
    scoring={"ndcg@10": make_ndcg_scorer(k=10), "ndcg@3": make_ndcg_scorer(k=3)},
    refit="ndcg@10",
    cv=GroupKFold(3),
)
search.fit(X, y, groups=qid, qid=qid)
print("best:", search.best_params_)

# %%
# ``cv_results_`` has one row per candidate, with the mean and standard
# deviation over folds of each metric.
results = pd.DataFrame(search.cv_results_)
columns = [
    "param_max_depth",
    "param_learning_rate",
    "mean_test_ndcg@10",
    "std_test_ndcg@10",
    "mean_test_ndcg@3",
    "rank_test_ndcg@10",
]
print(results[columns].round(3).to_string(index=False))

# %%
# The search picks ``max_depth=None, learning_rate=0.3``, ranked 1 by mean
# NDCG\@10 (0.879), but the runner-up (``max_depth=2, learning_rate=0.3``,
# 0.878) is about 0.001 behind, and the fold-to-fold standard deviation of the
# winner (0.018) is far larger than that gap. The plot shows each candidate's
# mean NDCG\@10 with a bar of one standard deviation over the folds.
labels = [
    f"depth={d}, lr={lr}"
    for d, lr in zip(results["param_max_depth"], results["param_learning_rate"])
]
fig, ax = plt.subplots()
ax.errorbar(
    results["mean_test_ndcg@10"], range(len(labels)), xerr=results["std_test_ndcg@10"], fmt="o"
)
ax.set_yticks(range(len(labels)), labels)
ax.set_xlabel("NDCG@10 (mean ± std over folds)")
ax.set_title("Grid search candidates by NDCG@10 (3 folds)")
fig.tight_layout()
plt.show()

# %%
# All four bars overlap, and those of the three best candidates almost
# entirely: with three folds, the search's choice among them cannot be told
# from the noise of the folds. The "best" parameters may be a coin toss among
# near-ties, which is the case
# that :ref:`statistics` warns about: compare the candidates query by query
# (:func:`~sklearn_ndcg.search_query_scores`,
# :func:`~sklearn_ndcg.compare_models`) before reporting a winner, or refit the
# simplest candidate shown within a margin of the best
# (:class:`~sklearn_ndcg.SimplestCompetitiveRefit` with ``margin=0.01``).

sklearn.set_config(enable_metadata_routing=False)
