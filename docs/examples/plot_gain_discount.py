"""
==========================
Choosing gain and discount
==========================

The gain turns a relevance label into value: "linear" keeps the label,
"exponential" (``2**label - 1``) makes highly relevant documents count much
more. The discount sets how fast value fades down the list: "log2" slowly,
"reciprocal" fast, "none" not at all within the cutoff. This example scores two
models that make different kinds of mistakes under each combination.
"""

# %%
# Two rankers of the same queries: one that finds the very relevant documents
# but mixes up the rest, and one that orders the middle well but misses some
# top documents.
import matplotlib.pyplot as plt
import numpy as np

from sklearn_ndcg import make_ranking, ndcg_score

_, y, qid = make_ranking(n_queries=200, n_items=(10, 20), random_state=2)
rng = np.random.default_rng(2)
top_finder = np.where(y >= 3, 10.0, 0.0) + rng.normal(scale=2.0, size=y.shape)
middle_orderer = np.where(y >= 3, 0.0, y) + rng.normal(scale=0.3, size=y.shape)

# %%
gains = ["linear", "exponential"]
discounts = ["log2", "reciprocal", "none"]
fig, axes = plt.subplots(2, 1, figsize=(5, 6.5), sharex=True, sharey=True)
for ax, gain in zip(axes, gains):
    positions = np.arange(len(discounts))
    for offset, (name, score) in zip(
        (-0.2, 0.2), [("top finder", top_finder), ("middle orderer", middle_orderer)]
    ):
        values = [
            ndcg_score(y, score, qid=qid, k=10, gain=gain, discount=discount)
            for discount in discounts
        ]
        ax.bar(positions + offset, values, width=0.4, label=name)
    ax.set_xticks(positions, discounts)
    ax.set_title(f'gain="{gain}"')
    ax.set_ylabel("NDCG@10")
axes[1].set_xlabel("discount")
# one legend for both panels, below them, where it covers no bar
fig.legend(*axes[0].get_legend_handles_labels(), loc="lower center", ncol=2)
fig.tight_layout(rect=(0, 0.05, 1, 1))
plt.show()

# %%
# Exponential gain rewards the model that puts the most relevant documents on
# top; with linear gain the model that gets the bulk of the order right does
# relatively better. Choose the gain by what a user loses when a very relevant
# result is missing, and the discount by how far down the list users look.
