"""
========================================
Choosing between two rankers from clicks
========================================

A click log records what users clicked among the documents an old ranker showed them.
Its clicks crowd at the top positions, because that is where users look, so the NDCG of
the clicks favours any new ranker that agrees with the old one. Here a simulated log of
2,000 queries shaped like a real one (most queries seen once, a few dozens of times; 10
documents each, examination falling as ``rank ** -1.5``) judges two rankers: one that
copies the logger, and one that is truly better. The position bias is estimated from the
log itself; the naive click NDCG and the counterfactual DCG
(:func:`~sklearn_ndcg.counterfactual_dcg`) are each compared query by query with
:func:`~sklearn_ndcg.paired_test`, beside the true DCG\\@10 that the simulation knows.
See :ref:`clicks_guide` for the estimators and their assumptions.
"""

# %%
# The log and the two rankers
# ---------------------------
# :func:`~sklearn_ndcg.make_click_log` simulates graded relevance 0..4, the click
# probability of an examined document rising with its grade (that probability is the
# relevance the estimators target), a logger that ranks by a noisy grade (``X[:, 0]``)
# with fresh noise in every session, and a candidate that ranks by a less noisy one
# (``X[:, 1]``).
import matplotlib.pyplot as plt
import numpy as np

from sklearn_ndcg import (
    counterfactual_dcg,
    estimate_position_bias,
    make_click_log,
    paired_test,
    query_scores,
)

log = make_click_log(2000, 10, sessions="zipf", logger_noise=2.0, eta=1.5, random_state=0)
rankers = {"copies the logger": log.X[:, 0], "new ranker": log.X[:, 1]}
truth = {name: log.true_dcg(score, k=10) for name, score in rankers.items()}
print({name: round(value, 3) for name, value in truth.items()})

# %%
# The position bias, from the log itself
# --------------------------------------
# The same document of a query sits at different ranks in different sessions; harvesting
# those interventions gives the examination probability of each rank, with intervals
# from a bootstrap over queries.
bias = estimate_position_bias(log.qid, log.doc, log.logged_rank, log.click, random_state=0)
print("estimated:", bias.propensity[:5].round(3), "true:", log.propensity[:5].round(3))

# %%
# The naive verdict: NDCG of the clicks
# -------------------------------------
naive = {
    name: query_scores(log.click, score, qid=log.impression, k=10)
    for name, score in rankers.items()
}
test = paired_test(naive["new ranker"], naive["copies the logger"], method="t")
print(f"click NDCG@10, new - copy: {test.mean_difference:+.3f}, p = {test.pvalue:.2g}")

# %%
# The click NDCG calls the copy of the logger significantly better: the logger put the
# clicked documents on top, so any ranker that agrees with it "finds" them there.
#
# The counterfactual verdict
# --------------------------
# Each click is weighted by the inverse of the estimated examination probability of the
# position it was logged at, and moved to the position the new ranker gives it; the
# impressions of a query are averaged, so that queries are the unit of the test, and the
# interval carries the propensities' own uncertainty.
counterfactual = {
    name: counterfactual_dcg(
        log.click,
        score,
        qid=log.qid,
        impression=log.impression,
        logged_rank=log.logged_rank,
        propensity=bias,
        k=10,
    )
    for name, score in rankers.items()
}
test = paired_test(
    counterfactual["new ranker"].per_query,
    counterfactual["copies the logger"].per_query,
    method="t",
)
print(f"counterfactual DCG@10, new - copy: {test.mean_difference:+.3f}, p = {test.pvalue:.2g}")
print(f"true DCG@10, new - copy: {truth['new ranker'] - truth['copies the logger']:+.3f}")

# %%
# The counterfactual DCG reverses the verdict, and its difference is close to the true
# one. Its intervals hold the truth; the click NDCG is on another scale altogether (and
# normalised), which is why it is drawn on its own axis.
fig, (top, bottom) = plt.subplots(2, 1, figsize=(5, 6.5))
names = list(rankers)
position = np.arange(len(names))
estimate = [counterfactual[name].estimate for name in names]
low, high = np.array([counterfactual[name].confidence_interval for name in names]).T
top.errorbar(
    position,
    estimate,
    yerr=[np.subtract(estimate, low), np.subtract(high, estimate)],
    fmt="o",
    capsize=4,
    label="counterfactual DCG@10 (95 % CI)",
)
top.scatter(
    position, [truth[name] for name in names], marker="x", color="k", zorder=3, label="true DCG@10"
)
top.set_xticks(position, names)
top.set_xlim(-0.5, 1.5)
top.legend(loc="lower right")
top.set_title("Counterfactual estimate and truth")
bottom.bar(position, [naive[name].score.mean() for name in names], color="tab:gray")
bottom.set_xticks(position, names)
bottom.set_title("Naive click NDCG@10")
fig.tight_layout()

# %%
# When the click model is wrong
# -----------------------------
# The estimate is unbiased when examination depends on the position only (the
# position-based model) and the propensities are right. Under the cascade model users
# scan from the top and stop at their first click, so what they examine depends on the
# documents above. The same estimator, with the same propensities, is then far off:
cascade = make_click_log(
    2000, 10, sessions="zipf", logger_noise=2.0, eta=1.5, click_model="cascade", random_state=0
)
for name, score in rankers.items():
    result = counterfactual_dcg(
        cascade.click,
        score,
        qid=cascade.qid,
        impression=cascade.impression,
        logged_rank=cascade.logged_rank,
        propensity=log.propensity,
        k=10,
    )
    low, high = result.confidence_interval
    print(
        f"{name}: estimate {result.estimate:.3f} [{low:.3f}, {high:.3f}], truth {truth[name]:.3f}"
    )

# %%
# The intervals no longer hold the truth. Estimate the propensities under the click
# model that fits the users, or check the position-based model on the log (for
# instance, on randomized swaps) before trusting the estimate.
