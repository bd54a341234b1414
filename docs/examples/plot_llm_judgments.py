"""
=========================================================
Evaluating rankers with LLM labels and a human sample
=========================================================

Relevance labels from a language model cost little, so every query can be
judged; but the model's labels are biased, and a mean NDCG under them can be
off by more than the differences that matter. Human labels on a random sample
of the queries correct that: prediction-powered inference (PPI) takes the mean
under the model's labels and subtracts the model's mean error on the
human-labelled queries, with a confidence interval that holds however wrong the
model is. This example evaluates and compares two rankers on 2,000 queries, 100
of them judged by people, where the labelling model is lenient and favours one
ranker's style.
"""

# %%
# A simulated collection: 2,000 queries of 20 documents with true grades 0..3.
# Ranker ``a`` orders by the grade with noise; ranker ``b`` by a weaker signal
# of the grade plus a "style" feature that has nothing to do with relevance.
# The labelling model raises grades at random (lenience), and raises the grade
# of stylish documents more often: it likes what ``b`` likes.
import matplotlib.pyplot as plt
import numpy as np

from sklearn_ndcg import (
    QueryScores,
    bootstrap_ci,
    paired_test,
    prediction_powered_difference,
    prediction_powered_mean,
    query_scores,
)

rng = np.random.default_rng(0)
n_queries, n_docs = 2000, 20
share = rng.beta(1.2, 2.5, size=(n_queries, 1))
grade = rng.binomial(3, share * np.ones((n_queries, n_docs))).astype(float)
style = rng.random(grade.shape)
score_a = grade + rng.normal(0, 1.0, grade.shape)
score_b = 0.9 * grade + style + rng.normal(0, 1.0, grade.shape)
raised = (rng.random(grade.shape) < 0.35) | ((style > 0.7) & (rng.random(grade.shape) < 0.8))
llm_grade = np.minimum(grade + raised, 3)
confused = rng.random(grade.shape) < 0.15
llm_grade[confused] = rng.integers(0, 4, size=int(confused.sum()))

# %%
# NDCG\@10 of every query under the model's labels, and under human labels for
# a simple random sample of 100 queries (here the true grades; in practice the
# queries sent to assessors). The per-query values are ``QueryScores``.
llm_a = query_scores(llm_grade, score_a, k=10)
llm_b = query_scores(llm_grade, score_b, k=10)
judged = np.sort(rng.choice(n_queries, size=100, replace=False))
human_a = query_scores(grade[judged], score_a[judged], k=10)
human_b = query_scores(grade[judged], score_b[judged], k=10)
# query_scores numbers the rows of 2-D input 0, 1, ...: give the sample its own ids
human_a = QueryScores(judged, human_a.score, human_a.weight)
human_b = QueryScores(judged, human_b.score, human_b.weight)
truth_a = query_scores(grade, score_a, k=10).score.mean()
truth_b = query_scores(grade, score_b, k=10).score.mean()
print(f"true mean NDCG@10 (every query judged by people): a {truth_a:.4f}, b {truth_b:.4f}")

# %%
# The mean NDCG\@10 of ``a`` three ways: the model's labels alone, the 100 human
# labels alone, and prediction-powered (PPI++, the default, which weighs the
# model's values by how well they follow the human ones).
naive = bootstrap_ci(llm_a.score, random_state=0)
human_only = bootstrap_ci(human_a.score, random_state=0)
ppi = prediction_powered_mean(llm_a, human_a)
rows = {
    "LLM labels only": (naive.mean, naive.confidence_interval),
    "100 human labels": (human_only.mean, human_only.confidence_interval),
    "prediction-powered": (ppi.estimate, ppi.confidence_interval),
}
for name, (estimate, (low, high)) in rows.items():
    print(f"{name:>20}: {estimate:.4f}  95 % interval ({low:.4f}, {high:.4f})")
print(f"lambda_ = {ppi.lambda_:.3f}")

# %%
# Comparing the rankers with a margin of 0.01 (differences below it do not
# matter): the model's labels alone, the human labels alone, prediction-powered.
naive_test = paired_test(llm_a.score, llm_b.score, method="t", margin=0.01)
human_test = paired_test(human_a, human_b, method="t", margin=0.01)
ppi_test = prediction_powered_difference(llm_a, llm_b, human_a, human_b, margin=0.01)
print(f"true a - b: {truth_a - truth_b:+.4f}")
comparisons = {
    "LLM labels only": (
        naive_test.mean_difference,
        naive_test.confidence_interval,
        naive_test.verdict,
    ),
    "100 human labels": (
        human_test.mean_difference,
        human_test.confidence_interval,
        human_test.verdict,
    ),
    "prediction-powered": (ppi_test.estimate, ppi_test.confidence_interval, ppi_test.verdict),
}
for name, (estimate, (low, high), verdict) in comparisons.items():
    print(f"{name:>20}: a - b {estimate:+.4f}  ({low:+.4f}, {high:+.4f})  a is {verdict}")

# %%
fig, axes = plt.subplots(2, 1, figsize=(5, 5.5))
for ax, table, truth, title in [
    (axes[0], rows, truth_a, "mean NDCG@10 of a"),
    (axes[1], comparisons, truth_a - truth_b, "a - b"),
]:
    names = list(table)
    for i, name in enumerate(names):
        estimate, (low, high) = table[name][:2]
        ax.errorbar(estimate, i, xerr=[[estimate - low], [high - estimate]], fmt="o", capsize=4)
    ax.axvline(truth, color="black", linestyle="--", label="truth")
    ax.set_yticks(range(len(names)), names)
    ax.set_title(title)
    ax.invert_yaxis()
axes[1].axvspan(-0.01, 0.01, color="grey", alpha=0.2, label="margin")
axes[1].legend(loc="upper right")
fig.tight_layout()
plt.show()

# %%
# The model's labels alone give a narrow interval in the wrong place: it misses
# the true mean of ``a``, and it shows the rankers equivalent within the
# margin, when ``a`` is better by about 0.03. The 100 human labels alone are
# unbiased but wide. The prediction-powered interval holds the truth and is
# narrower than the human-only one, because the model's errors vary less than
# the NDCG itself; the comparison finds ``a`` better. The human sample must be
# drawn at random from the queries; the benchmark
# ``benchmarks/bench_prediction_powered.py`` repeats this simulation 1,000
# times and shows the prediction-powered intervals holding the truth 95 % of
# the time, where those of the model's labels alone never do.
