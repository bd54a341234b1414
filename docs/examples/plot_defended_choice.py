"""
.. _tutorial:

=======================================================
Tutorial: from data with query ids to a defended choice
=======================================================

The whole job in one script: rows of documents with their query ids go in; a model
comes out with a reason for choosing it and its NDCG\\@10 on queries it never saw, with
an interval, ready for a report. The steps:

1. hold out whole queries (a group-aware split);
2. search the candidates by NDCG\\@10, fold by fold, keeping queries whole;
3. get each candidate's out-of-fold NDCG\\@10 *per query*;
4. compare the best candidates with the best one query by query, with a margin of what
   does not matter, and read the verdicts;
5. refit the recommended candidate, the simplest one shown as good as the best;
6. score it on the held-out queries, beside the model with the best mean, and write
   the sentence of the report.

Before anything else: every split of this tutorial keeps queries whole (``GroupKFold``
and ``GroupShuffleSplit`` with ``groups=qid``). scikit-learn's default ``cv`` splits rows,
cuts queries between training and test and returns scores that look ordinary and are
too high; the scorers cannot see it (:ref:`folds`).

:ref:`model_selection` and :ref:`statistics` explain each step in depth.
"""

# %%
# 1. Hold out whole queries
# -------------------------
# :func:`~sklearn_ndcg.make_ranking` draws 240 queries of graded documents (labels
# 0..4). ``GroupShuffleSplit`` splits by query id, so every query lies wholly on one
# side: a quarter of the queries are held out, and nothing below looks at them until
# the last step. Splitting rows instead of queries would put documents of one query on
# both sides and flatter every model.

import textwrap

import matplotlib.pyplot as plt
import numpy as np
import sklearn
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import GridSearchCV, GroupKFold, GroupShuffleSplit

from sklearn_ndcg import (
    SimplestCompetitiveRefit,
    bootstrap_ci,
    make_ndcg_scorer,
    make_ranking,
    paired_test,
    query_scores,
    search_query_scores,
)

X, y, qid = make_ranking(n_queries=240, random_state=0)
split = GroupShuffleSplit(n_splits=1, test_size=0.25, random_state=0)
train, test = next(split.split(X, y, groups=qid))
X_train, y_train, qid_train = X[train], y[train], qid[train]
X_test, y_test, qid_test = X[test], y[test], qid[test]
n_train, n_test = len(np.unique(qid_train)), len(np.unique(qid_test))
print(f"{n_train} training queries ({len(train)} documents)")
print(f"{n_test} held-out queries ({len(test)} documents)")

# %%
# 2. A search by NDCG\@10 that can defend its choice
# --------------------------------------------------
# ``make_ndcg_scorer(k=10)`` scores each fold query by query; metadata routing hands
# it the fold's query ids (the ``set_config`` line), and ``GroupKFold`` keeps every
# query in one fold. The candidates are gradient-boosted trees of growing depth: the
# deeper, the slower to fit and the more to go wrong on new data, so among candidates
# as good as the best, the shallowest is preferred.
#
# ``refit=`` says which candidate the search refits on all the training queries.
# ``refit=True`` would take the best mean over the folds, even when the runner-up is
# behind by less than the noise. :class:`~sklearn_ndcg.SimplestCompetitiveRefit`
# takes the simplest candidate (smallest ``key``) *shown* to be within ``margin`` of
# the best, from the tests of step 4.

sklearn.set_config(enable_metadata_routing=True)  # routes qid to the scorer

model = HistGradientBoostingRegressor(max_iter=60, early_stopping=False, random_state=0)
cv = GroupKFold(n_splits=3)
refit = SimplestCompetitiveRefit(
    model,
    X_train,
    y_train,
    qid=qid_train,
    cv=cv,
    k=10,  # the NDCG@10 of each query, as the scorer computes it
    margin=0.01,  # differences of NDCG@10 below 0.01 do not matter here
    key=lambda params: params["max_depth"],  # shallower is simpler
    n_candidates=4,
    random_state=0,
)
search = GridSearchCV(
    model,
    {"max_depth": [3, 5, 8, 12]},
    scoring=make_ndcg_scorer(k=10),
    cv=cv,
    refit=refit,
)
search.fit(X_train, y_train, groups=qid_train, qid=qid_train)

results = search.cv_results_
order = np.argsort(results["rank_test_score"], kind="stable")
print("rank  max_depth  NDCG@10 mean ± std over 3 folds")
for i in order:
    print(
        f"{results['rank_test_score'][i]:>4}  {results['param_max_depth'][i]:>9}  "
        f"{results['mean_test_score'][i]:.4f} ± {results['std_test_score'][i]:.4f}"
    )
best_mean_params = results["params"][order[0]]

# %%
# The means of the deeper candidates differ by less than their standard deviation over
# the folds. Three folds are a poor unit of comparison; the queries are a better one.
#
# 3. Out-of-fold NDCG\@10 per query
# ---------------------------------
# Under ``GroupKFold`` every training query is in a test fold exactly once, so each
# candidate has one out-of-fold NDCG\@10 per query, from the model that did not see
# it. :func:`~sklearn_ndcg.search_query_scores` refits the best candidates on the
# search's folds and returns these values (``SimplestCompetitiveRefit`` computed the
# same for its comparison); here those of the best mean:

per_query = search_query_scores(search, X_train, y_train, qid=qid_train, n_candidates=1, k=10)
((name, values),) = per_query.items()
print(f"{name}: {values.qid.size} queries, mean {values.score.mean():.4f}")
for q, score in zip(values.qid[:5], values.score[:5]):
    print(f"  query {q:>3}  NDCG@10 {score:.4f}")

# %%
# 4. Verdicts with a margin
# -------------------------
# :func:`~sklearn_ndcg.compare_models` (run by the refit rule) tests each candidate
# against the best, query by query (a paired randomization test, Holm-adjusted for the
# several comparisons), and, given the margin, also tests whether the difference is
# smaller than 0.01 (two one-sided tests). Each row gets a verdict:
#
# - *equivalent*: shown within 0.01 of the best: as good, for this purpose;
# - *worse*: shown lower than the best, and not shown within the margin;
# - *inconclusive*: neither; more queries would tell;
# - *not shown different* (``yes``) only says the test found no difference, which is
#   not "as good": with few queries a real difference goes unseen.
#
# The two tests answer different questions, so a row can read *not shown different:
# no* and *verdict: equivalent*: **significant but equivalent**. The difference is
# real (the queries show it), and it is shown to be smaller than the margin, so it
# does not matter. Such a candidate may be chosen; one merely "not shown different"
# may not.

comparison = refit.comparison_
table = comparison.to_dict()
print(
    f"{'candidate':<13} {'mean':>6} {'difference':>10} {'adj. p':>7}  not shown different  verdict"
)
for i, name in enumerate(table["name"]):
    p = table["adjusted_pvalue"][i]
    same = "yes" if table["not_shown_different"][i] else "no"
    print(
        f"{name:<13} {table['mean'][i]:6.4f} {table['difference'][i]:>10.4f} "
        f"{'-' if np.isnan(p) else f'{p:.4f}':>7}  {same:>19}  {table['verdict'][i]}"
    )
print()
print(textwrap.fill(refit.reason_, 88, break_on_hyphens=False))

# %%
# The refit rule chose among the rows marked *equivalent* (the best included) the one
# with the smallest ``max_depth``, and says why in ``reason_``.
#
# 5. and 6. The recommended model on held-out queries, beside the best mean's
# ------------------------------------------------------------------------------
# ``search.best_estimator_`` is the recommended candidate refitted on all the
# training queries. For comparison, the candidate with the best mean is refitted on the
# same queries. Both are scored on the held-out queries, each with a 95 % bootstrap
# interval over the queries (:func:`~sklearn_ndcg.bootstrap_ci`), and against each other
# query by query (:func:`~sklearn_ndcg.paired_test`, with the same margin).

recommended = search.best_estimator_
best_mean = clone(model).set_params(**best_mean_params).fit(X_train, y_train)
held_out = {}
for label, fitted in [("recommended", recommended), ("best mean", best_mean)]:
    scores = query_scores(y_test, fitted.predict(X_test), qid=qid_test, k=10)
    interval = bootstrap_ci(scores, random_state=0).confidence_interval
    held_out[label] = (fitted.max_depth, scores, interval)
    print(
        f"held-out NDCG@10, {label:<11} (max_depth={fitted.max_depth}): "
        f"{scores.score.mean():.4f}, 95% CI [{interval[0]:.4f}, {interval[1]:.4f}]"
    )
difference = paired_test(
    held_out["recommended"][1], held_out["best mean"][1], margin=0.01, random_state=0
)
print(
    f"recommended - best mean: {difference.mean_difference:+.4f}, "
    f"p = {difference.pvalue:.3f}, verdict: {difference.verdict}"
)

# %%
# The two intervals overlap widely: on queries that neither model saw, the simpler model
# ranks about as well as the one with the best mean. The paired test on the held-out
# queries says the same in its own terms (with only 60 queries it may not *show* them
# equivalent: the margin is tight for so few). The figure shows both intervals.

fig, ax = plt.subplots(figsize=(5, 2.6))
for row, (_, scores, interval) in enumerate(held_out.values()):
    mean = scores.score.mean()
    ax.errorbar(mean, row, xerr=[[mean - interval[0]], [interval[1] - mean]], fmt="o")
    ax.annotate(f"{mean:.3f}", (mean, row), textcoords="offset points", xytext=(0, 8))
ax.set_yticks(range(len(held_out)), [f"{k}\n(max_depth={v[0]})" for k, v in held_out.items()])
ax.set_ylim(-0.6, len(held_out) - 0.4)
ax.set_xlabel(f"NDCG@10 on {n_test} held-out queries (95% bootstrap interval)")
fig.tight_layout()
plt.show()

# %%
# The sentence of the report
# --------------------------
# What was chosen, why, and how well it does on data the choice never saw, with the
# number of queries behind each claim:

depth, scores, (low, high) = held_out["recommended"]
best_depth, best_scores, (best_low, best_high) = held_out["best mean"]
if depth == best_depth:
    why = (
        f"the best mean out-of-fold NDCG@10 on {n_train} queries (no shallower candidate "
        "is shown within 0.01 of it)"
    )
else:
    why = (
        f"the shallowest candidate whose out-of-fold NDCG@10 on {n_train} queries is shown "
        f"within 0.01 of the best mean's (max_depth={best_depth})"
    )
sentence = (
    f"We chose gradient-boosted trees of max_depth={depth}, {why}. On {n_test} held-out "
    f"queries its NDCG@10 is {scores.score.mean():.3f} (95% bootstrap CI {low:.3f} to "
    f"{high:.3f}), against {best_scores.score.mean():.3f} ({best_low:.3f} to "
    f"{best_high:.3f}) for max_depth={best_depth}."
)
print(textwrap.fill(sentence, 88, break_on_hyphens=False))

sklearn.set_config(enable_metadata_routing=False)
