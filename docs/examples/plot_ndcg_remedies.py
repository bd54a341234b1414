"""
========================================================
Remedies for NDCG's flaws: bad documents and tied scores
========================================================

Two things NDCG does not handle well, and what this package offers for each:

- **Bad documents.** With labels good (1), fair (0) and bad (-1), a gain
  that maps bad to 0 cannot tell a bad document from a fair one, and a
  negative gain makes NDCG (DCG / ideal DCG) unbounded below.
  ``normalize="minmax"`` (Gienapp et al., 2020) measures the DCG from the
  worst ordering's instead of from 0, as a share of the distance between the
  worst and the best ordering, so that NDCG stays between 0 (worst) and 1
  (best).
- **Tied scores.** A model with coarse scores ties many documents, and how
  the ties are ordered decides part of its NDCG. ``show_tie_range=True`` of
  :class:`~sklearn_ndcg.NDCGCurveDisplay` draws the range that the order of
  tied documents alone can move the curve, and
  :func:`~sklearn_ndcg.tie_diagnostics` gives the numbers per query.

See :ref:`minmax` and :ref:`tie_diagnostics` in the user guide.
"""

# %%
# Good, fair and bad: every ordering of one query
# -----------------------------------------------
# One query with one good, one fair and one bad document. The three documents
# can be ranked in six ways; we score each with DCG / ideal DCG (gain 1, 0, -1)
# and with the min-max normalisation (the built-in linear gain, which takes the
# negative label when ``normalize="minmax"``).
from itertools import permutations

import matplotlib.pyplot as plt
import numpy as np
from sklearn.linear_model import Ridge
from sklearn.model_selection import GroupShuffleSplit

from sklearn_ndcg import NDCGCurveDisplay, make_ranking, ndcg_score, tie_diagnostics

labels = np.array([[1, 0, -1]])  # good, fair, bad
name = {1: "good", 0: "fair", -1: "bad"}
penalise = {1: 1.0, 0: 0.0, -1: -1.0}

orderings, ideal, minmax = [], [], []
for order in permutations(range(3)):
    # the document at position i of ``order`` gets rank i + 1: score 3, 2, 1
    scores = np.empty((1, 3))
    scores[0, list(order)] = [3, 2, 1]
    orderings.append("\n".join(name[labels[0, i]] for i in order))
    ideal.append(ndcg_score(labels, scores, gain=penalise))
    minmax.append(ndcg_score(labels, scores, normalize="minmax"))

fig, ax = plt.subplots(figsize=(5, 4.2))
x = np.arange(len(orderings))
ax.bar(x - 0.2, ideal, width=0.4, label="DCG / ideal DCG (gain 1, 0, -1)")
ax.bar(x + 0.2, minmax, width=0.4, label='normalize="minmax"')
ax.axhline(0, color="black", linewidth=0.8)
ax.axhline(1, color="gray", linewidth=0.8, linestyle=":")
ax.set_xticks(x, orderings)
ax.set_xlabel("ranking, top to bottom")
ax.set_ylabel("NDCG")
ax.set_title("The six orderings of one good,\none fair and one bad document")
ax.set_ylim(-1.1, 2.0)  # room for the legend above the bars
ax.legend(loc="upper right")
fig.tight_layout()
plt.show()

# %%
# Both normalisations give 1 to the best ranking (good, fair, bad) and put
# the six rankings in the same order: for one query, both are the DCG shifted
# and scaled by numbers of the query alone. But DCG / ideal DCG is negative
# whenever the bad document is ranked above the good one, down to -1 for the
# reversed ranking (bad, fair, good), and nothing bounds it below in general.
# The min-max form gives the worst ranking exactly 0 and keeps every ranking
# in [0, 1]:
for ranking, low, high in zip(orderings, ideal, minmax):
    print(f"{ranking.replace(chr(10), ', '):17s}  ideal {low:7.4f}   minmax {high:.4f}")

# %%
# Coarse scores: the tie range of NDCG@k
# --------------------------------------
# A linear model is fitted on half of the queries of a synthetic ranking
# problem and scores the other half. Its continuous scores tie no documents;
# the same scores rounded to the nearest integer (the labels run from 0 to 4)
# take only a handful of values, as a classifier or a model with coarse output
# would.
X, y, qid = make_ranking(n_queries=200, n_items=(10, 30), random_state=0)
train, test = next(GroupShuffleSplit(test_size=0.5, random_state=0).split(X, y, qid))
continuous = Ridge().fit(X[train], y[train]).predict(X[test])
coarse = np.round(continuous)
print(f"distinct scores: {np.unique(continuous).size} continuous, {np.unique(coarse).size} rounded")

ks = range(1, 21)
display = NDCGCurveDisplay.from_predictions(
    y[test], continuous, qid=qid[test], k=ks, name="continuous scores", show_tie_range=True
)
rounded = NDCGCurveDisplay.from_predictions(
    y[test],
    coarse,
    qid=qid[test],
    k=ks,
    name="rounded scores",
    show_tie_range=True,
    ax=display.ax_,
)
display.ax_.set_ylim(0.4, 1)
display.ax_.set_xticks([1, 5, 10, 15, 20])
display.ax_.set_title("NDCG@k with the range left open by tied scores")
display.figure_.tight_layout()
plt.show()

# %%
# The continuous scores have no ties, so their tie range has no width and the
# hatched band collapses onto the curve. The rounded scores take only five
# values, so most queries have large groups of tied documents at the top:
# their curve (``ties="average"``, the expected NDCG over all orders of the
# tied documents) lies below the continuous one at every k, and the hatched
# band around it is wide, from about 0.50 to 0.96 at k=1 and still from 0.75
# to 0.97 at k=20. Its upper edge is above the continuous curve, but no model
# earns it: the optimistic rule orders tied documents by their true labels.
# Where the band is this wide, libraries that break ties differently (input
# order in LightGBM and XGBoost, pessimistic in CatBoost) can report very
# different NDCG for the same predictions.
print("k:                    ", rounded.k_[[0, 4, 9, 19]])
print("continuous NDCG@k:    ", display.ndcg_[[0, 4, 9, 19]].round(3))
print("rounded NDCG@k:       ", rounded.ndcg_[[0, 4, 9, 19]].round(3))
print("rounded, pessimistic: ", rounded.tie_range_[0, [0, 4, 9, 19]].round(3))
print("rounded, optimistic:  ", rounded.tie_range_[1, [0, 4, 9, 19]].round(3))

# %%
# :func:`~sklearn_ndcg.tie_diagnostics` gives the same bounds per query, and
# says how often the top ``k`` is cut through a group of tied documents, so
# that even which documents count in NDCG@k depends on the tie order. For the
# rounded scores that is the case in 80% of the queries at k=10, and the tie
# order alone moves a query's NDCG\@10 by 0.32 on average; for the continuous
# scores both are 0:
for scores, label in [(continuous, "continuous"), (coarse, "rounded")]:
    result = tie_diagnostics(y[test], scores, qid=qid[test], k=10)
    print(
        f"{label:10s}: top 10 cut through a tie in {result.cut_share:.0%} of the "
        f"queries; mean spread of NDCG@10 {result.mean_spread:.3f}"
    )

# %%
# The two printed lines put numbers on the hatched band: with continuous
# scores no query's top 10 is cut through a tie and the tie order changes
# nothing (spread 0.000); with the rounded scores 80% of the queries are cut
# through a tie, and the tie order alone moves a query's NDCG\@10 by 0.322 on
# average.
