"""
=============================================
How many queries does a test collection need?
=============================================

Before judging thousands of documents, plan how many queries the comparison
of your models needs. From a small pilot, topic-set-size design
(:func:`~sklearn_ndcg.required_queries`, :func:`~sklearn_ndcg.detectable_difference`)
says how many queries a paired t-test needs to detect a difference that
matters, and a generalizability study
(:func:`~sklearn_ndcg.generalizability_study`) how stable the ranking of the
models would be on any number of queries. See :ref:`statistics_planning`.
"""

# %%
# A pilot
# -------
# 60 synthetic queries and four rankers, each cross-validated with folds that
# keep queries whole; :func:`~sklearn_ndcg.cross_val_query_scores` gives the
# out-of-fold NDCG\@10 of every query.
import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import Ridge
from sklearn.model_selection import PredefinedSplit
from sklearn.neighbors import KNeighborsRegressor

from sklearn_ndcg import (
    cross_val_query_scores,
    detectable_difference,
    generalizability_study,
    make_ranking,
    required_queries,
)

X, y, qid = make_ranking(n_queries=60, random_state=0)
cv = PredefinedSplit(qid % 3)
models = {
    "ridge": Ridge(),
    "ridge(alpha=1e4)": Ridge(alpha=1e4),
    "knn(20)": KNeighborsRegressor(20),
    "knn(100)": KNeighborsRegressor(100),
}
pilot = {name: cross_val_query_scores(m, X, y, qid=qid, cv=cv, k=10) for name, m in models.items()}
for name, values in pilot.items():
    print(f"{name:17} mean NDCG@10 {values.score.mean():.4f}")

# %%
# Queries to detect a difference
# ------------------------------
# The ridge model against the nearest-neighbours model of 100 neighbours: the
# standard deviation of their per-query differences in the pilot sets how
# many queries a two-sided paired t-test at the 5% level needs to detect a
# true mean difference ``delta`` four times out of five (power 0.8).
a, b = pilot["ridge"], pilot["knn(100)"]
for delta in [0.005, 0.01, 0.02, 0.05]:
    print(f"delta {delta:<6} {required_queries(a, b, delta=delta):>6} queries")

# %%
# Halving the difference to detect quadruples the queries: the number grows
# with ``1 / delta**2``. The inverse question, what a collection of a given
# size can detect, is :func:`~sklearn_ndcg.detectable_difference`:
sizes = np.array([25, 50, 100, 200, 400, 800, 1600])
fig, ax = plt.subplots(figsize=(5, 3.5))
for power in [0.5, 0.8, 0.95]:
    detectable = [detectable_difference(a, b, n_queries=int(n), power=power) for n in sizes]
    ax.plot(sizes, detectable, marker="o", label=f"power {power}")
ax.set_xscale("log")
ax.set_xlabel("queries in the collection")
ax.set_ylabel("detectable NDCG@10 difference")
ax.set_title("ridge vs knn(100): what a paired t-test detects")
ax.legend()
fig.tight_layout()
plt.show()

# %%
# With 100 queries, differences below about 0.016 NDCG\@10 mostly go
# undetected between these two models (at power 0.8); 800 queries detect
# about 0.006.
#
# How stable is the ranking of the models?
# ----------------------------------------
# A generalizability study splits the variance of the per-query values of all
# four models into the models, the queries and their interaction (with
# error). ``e_rho2(n)`` says how stable the ranking of the models would be on
# ``n`` queries, ``phi(n)`` how stable their absolute scores.
study = generalizability_study(pilot)
print(
    f"variance: models {study.model_variance:.2e}, queries {study.query_variance:.2e}, "
    f"residual {study.residual_variance:.2e}"
)
print(f"queries for E(rho^2) = 0.95: {study.queries_for(0.95)}")
n = np.arange(5, 401)
fig, ax = plt.subplots(figsize=(5, 3.5))
ax.plot(n, study.e_rho2(n), label="E(rho^2): ranking of the models")
ax.plot(n, study.phi(n), label="Phi: absolute scores")
ax.axhline(0.95, color="gray", linestyle=":")
ax.set_xlabel("queries in the collection")
ax.set_ylabel("reliability")
ax.set_ylim(0, 1.02)
ax.legend(loc="lower right")
fig.tight_layout()
plt.show()

# %%
# The queries vary far more than the models, so the absolute NDCG of a model
# needs many more queries to be stable (Phi) than the order of the models
# (E(rho^2)). Both estimates come from a 60-query pilot and are themselves
# uncertain; plan with some slack, and check the verdicts on the final
# collection with :func:`~sklearn_ndcg.compare_models`.
