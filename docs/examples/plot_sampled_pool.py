"""
================================================
Sampled pools: infNDCG against the alternatives
================================================

TREC tracks with large pools judge only a random sample of each stratum of the
pool, and report the *inferred* NDCG (infNDCG) that NIST's ``sample_eval.pl``
computes. Here we simulate such a pool, for which we also know the full
judgments, and compare infNDCG with the two estimates the package gives
without strata: the condensed list (``unjudged="drop"``) and unjudged documents
counted as non-relevant (``unjudged="zero"``). See :ref:`sampled_pools`.
"""

# %%
# A test collection, pooled and sampled
# -------------------------------------
# Each of 40 queries has 1000 candidate documents with graded relevance (0 to
# 3, about 20 % relevant). Three systems rank them with independent noise; the
# pool is the union of their top 100, split into three strata by the best rank
# a system gives a document (1-10, 11-30, 31-100). The sample draws 30 % of each
# stratum; only the sample is judged (relevance -1: pooled, not sampled). We
# evaluate the first system, and keep the full judgments of the pool as the
# truth.
import matplotlib.pyplot as plt
import numpy as np

from sklearn_ndcg import CONVENTIONS, bootstrap_ci, evaluate_run

rng = np.random.default_rng(36)
n_queries, n_candidates = 40, 1000
quality = rng.normal(size=(n_queries, n_candidates))
level = np.clip(np.floor((quality - np.quantile(quality, 0.8)) * 2 + 1), 0, 3).astype(int)
scores = quality[None] + rng.normal(size=(3, n_queries, n_candidates))
best_rank = (np.argsort(np.argsort(-scores, axis=2), axis=2) + 1).min(axis=0)

qid = np.repeat([f"q{q:02d}" for q in range(n_queries)], n_candidates).astype(object)
docno = np.tile([f"d{j:04d}" for j in range(n_candidates)], n_queries).astype(object)
run = (qid, docno, scores[0].ravel())
pooled = best_rank.ravel() <= 100
stratum = np.searchsorted([10, 30, 100], best_rank.ravel()[pooled])
full = (qid[pooled], docno[pooled], level.ravel()[pooled])
truth = evaluate_run(run, full, **CONVENTIONS["trec_eval"]).per_query.score
print(f"pooled documents per query: {pooled.sum() / n_queries:.0f}")
print(f"full-judgment NDCG of the run: {truth.mean():.4f}")


def sample(rng):
    """Sampled qrels: 30 % of each stratum of each query judged, the rest -1."""
    judged = np.zeros(stratum.shape[0], dtype=bool)
    cell = np.searchsorted(np.unique(full[0]), full[0]) * 3 + stratum
    for members in np.split(
        np.argsort(cell, kind="stable"), np.flatnonzero(np.diff(np.sort(cell))) + 1
    ):
        judged[rng.choice(members, max(1, round(0.3 * members.shape[0])), replace=False)] = True
    return (*full[:2], stratum, np.where(judged, full[2], -1))


def estimates(sampled):
    """Per-query infNDCG, condensed-list NDCG and unjudged-as-0 NDCG."""
    plain = (sampled[0], sampled[1], sampled[3])
    return {
        "infNDCG": evaluate_run(run, sampled, metric="infNDCG").per_query.score,
        'condensed ("drop")': evaluate_run(
            run, plain, unjudged="drop", **CONVENTIONS["trec_eval"]
        ).per_query.score,
        'unjudged as 0 ("zero")': evaluate_run(
            run, plain, unjudged="zero", **CONVENTIONS["trec_eval"]
        ).per_query.score,
    }


# %%
# Many samples of the same pool
# -----------------------------
# We draw 30 samples of the same pool and compute the three estimates from each:
# their error against the full judgments shows each estimator's bias (the mean
# error) and its noise (the spread).
draws = [estimates(sample(rng)) for _ in range(30)]
names = list(draws[0])
errors = {name: np.concatenate([d[name] - truth for d in draws]) for name in names}
for name in names:
    error = errors[name]
    print(f"{name:>24}: bias {error.mean():+.4f}, sd per query {error.std(ddof=1):.4f}")

fig, (top, bottom) = plt.subplots(2, 1, figsize=(5, 7))
top.boxplot([errors[name] for name in names], showfliers=False)
# each label on two lines: three fit side by side in a figure 5 in wide
top.set_xticks(
    range(1, len(names) + 1), [name.replace(" (", "\n(") for name in names], fontsize="small"
)
top.axhline(0, color="grey", lw=0.8)
top.set_ylabel("estimate - full-judgment\nNDCG (per query)")
top.set_title("Per-query error over 30 samples")
means = np.array([[d[name].mean() for d in draws] for name in names])
for name, values in zip(names, means):
    bottom.hist(values, bins=15, alpha=0.6, label=name)
bottom.axvline(truth.mean(), color="black", lw=1.5, label="full judgments")
bottom.set_xlabel(f"mean NDCG over the {n_queries} queries")
bottom.set_title("The mean over queries, per sample")
bottom.legend(fontsize="small")
fig.tight_layout()

# %%
# An interval for the mean infNDCG
# --------------------------------
# From one sample, ``bootstrap_ci`` takes the per-query infNDCG as it is. The
# interval holds the spread of the queries and the sampling noise of each
# query's estimate.
one = evaluate_run(run, sample(np.random.default_rng(1)), metric="infNDCG")
interval = bootstrap_ci(one.per_query, random_state=0).confidence_interval
print(f"mean infNDCG {one.score:.4f}, 95 % interval ({interval[0]:.4f}, {interval[1]:.4f})")
plt.show()

# %%
# What the output shows
# ---------------------
# Counting the unjudged documents as non-relevant reads 70 % of the pool as
# non-relevant and underestimates NDCG by about 0.28; its box sits far below 0
# and its means far left of the full-judgment mean. infNDCG's errors centre on 0
# (bias -0.004) but spread widely for a single query (sd 0.086); averaged over
# the 40 queries the noise shrinks, and its histogram of means surrounds the
# full-judgment mean. The condensed list's error is less than half as spread
# (sd 0.039), and its bias is as small here (-0.005; the benchmark
# ``benchmarks/bench_sampled_judgments.py`` finds -0.002 over 10,000 queries).
# Use infNDCG for numbers comparable with ``sample_eval.pl``'s and means over
# many queries, the condensed list for one query or few.
