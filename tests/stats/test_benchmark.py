"""compare_benchmark (_stats/_benchmark.py): the table's numbers against hand computation,
Friedman against scipy, the pairs against scikit-posthocs, and the verdicts' rules."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_equal
from scipy import stats

from sklearn_ndcg import QueryScores, compare_benchmark

DATASETS = ["d0", "d1", "d2", "d3", "d4", "d5"]


def _scores(seed=0, shifts=(0.06, 0.05, 0.0, -0.1)):
    rng = np.random.default_rng(seed)
    scores = {}
    for d, dataset in enumerate(DATASETS):
        n = 40 + 10 * d
        base = rng.uniform(0.2, 0.8, n)
        scores[dataset] = {
            f"m{j}": np.clip(base + shift + rng.normal(0, 0.1, n), 0, 1)
            for j, shift in enumerate(shifts)
        }
    return scores


def test_table_by_hand():
    scores = _scores()
    comparison = compare_benchmark(scores, n_resamples=499, random_state=0)
    table = comparison.to_dict()
    # hand: each model's mean on each dataset, averaged with each dataset counted once
    means = np.array([[np.mean(scores[d][m]) for m in table["name"]] for d in DATASETS])
    assert_allclose(table["mean"], means.mean(axis=0), rtol=1e-12)
    assert table["mean"] == sorted(table["mean"], reverse=True)
    assert_allclose(comparison.dataset_means, means, rtol=1e-12)
    # hand: ranks within each dataset, 1 = best, averaged
    ranks = np.array([stats.rankdata(-row) for row in means]).mean(axis=0)
    assert_allclose(table["rank"], ranks, rtol=1e-12)
    assert table["name"][:2] == ["m0", "m1"] and table["name"][-1] == "m3"
    assert all(lo <= m <= hi for lo, m, hi in zip(table["ci_low"], table["mean"], table["ci_high"]))
    assert table["verdict"][0] == "best"
    assert table["verdict"][-1] == "worse than the best"
    assert table["rank_low"][-1] == table["rank_high"][-1] == 4
    # the set tied with the best: exactly the models whose rank interval reaches 1
    assert comparison.tied_with_best == [
        n for n, lo in zip(table["name"], table["rank_low"]) if lo == 1
    ]
    assert comparison.tied_with_best[0] == "m0"
    assert comparison.datasets == DATASETS


def test_friedman_and_nemenyi_equal_references():
    sp = pytest.importorskip("scikit_posthocs")
    comparison = compare_benchmark(_scores(1), n_resamples=99, random_state=0)
    matrix = comparison.dataset_means
    expected = stats.friedmanchisquare(*matrix.T)  # reference: scipy
    assert_allclose(comparison.friedman.statistic, expected.statistic, rtol=1e-12)
    assert_allclose(comparison.friedman.pvalue, expected.pvalue, rtol=1e-12)
    reference = sp.posthoc_nemenyi_friedman(matrix).to_numpy()  # reference: scikit-posthocs
    assert_allclose(comparison.pairwise_pvalues, reference, rtol=1e-10, atol=1e-14)
    holm = compare_benchmark(_scores(1), n_resamples=99, random_state=0, posthoc="holm")
    assert holm.posthoc == "holm"
    assert not np.allclose(holm.pairwise_pvalues, reference)


def test_weights_queries_pools_the_queries():
    scores = _scores()
    comparison = compare_benchmark(scores, weights="queries", n_resamples=99, random_state=0)
    table = comparison.to_dict()
    # hand: the mean over every query of the benchmark
    pooled = [np.mean(np.concatenate([scores[d][m] for d in DATASETS])) for m in table["name"]]
    assert_allclose(table["mean"], pooled, rtol=1e-12)


def test_query_scores_float32_and_no_mutation():
    scores = _scores()
    copies = {d: {m: v.copy() for m, v in cells.items()} for d, cells in scores.items()}
    as_query_scores = {
        d: {
            m: QueryScores(
                np.arange(v.shape[0])[::-1], v[::-1].astype(np.float32), np.ones(v.shape[0])
            )
            for m, v in cells.items()
        }
        for d, cells in scores.items()
    }
    a = compare_benchmark(scores, n_resamples=99, random_state=3).to_dict()
    b = compare_benchmark(as_query_scores, n_resamples=99, random_state=3).to_dict()
    assert_allclose(a["mean"], b["mean"], rtol=1e-6)
    assert a["name"] == b["name"]
    for d in DATASETS:
        for m in scores[d]:
            assert_equal(scores[d][m], copies[d][m])


def test_all_equal_models_tied_and_reproducible():
    rng = np.random.default_rng(5)
    scores = {d: dict.fromkeys(["a", "b", "c"], rng.uniform(size=30)) for d in DATASETS}
    comparison = compare_benchmark(scores, n_resamples=99, random_state=0)
    assert comparison.tied_with_best == ["a", "b", "c"]
    assert comparison.to_dict()["rank_high"] == [3, 3, 3]
    assert np.isnan(comparison.friedman.statistic)
    again = compare_benchmark(_scores(), n_resamples=99, random_state=0, unit="datasets")
    same = compare_benchmark(_scores(), n_resamples=99, random_state=0, unit="datasets")
    assert again.to_dict() == same.to_dict()


def test_datasets_unit_wider_than_queries_unit():
    # with large dataset x model interactions the two-level bootstrap's intervals are wider
    scores = _scores(2)
    rng = np.random.default_rng(0)
    for d in DATASETS:
        for m in scores[d]:
            scores[d][m] = np.clip(scores[d][m] + rng.normal(0, 0.05), 0, 1)
    fixed = compare_benchmark(scores, n_resamples=499, random_state=0).to_dict()
    drawn = compare_benchmark(scores, unit="datasets", n_resamples=499, random_state=0).to_dict()
    width = lambda t: np.subtract(t["ci_high"], t["ci_low"])  # noqa: E731
    assert (width(drawn) > width(fixed)).all()


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"unit": "models"}, "unit"),
        ({"weights": "documents"}, "weights"),
        ({"posthoc": "tukey"}, "posthoc"),
        ({"confidence_level": 1.5}, "confidence_level"),
    ],
)
def test_bad_options(kwargs, match):
    with pytest.raises(ValueError, match=match):
        compare_benchmark(_scores(), **kwargs)


def test_means_ranks_and_friedman_invariant_to_the_order_of_datasets_and_models():
    scores = _scores(4)
    shuffled = {d: dict(reversed(list(scores[d].items()))) for d in reversed(DATASETS)}
    a = compare_benchmark(scores, n_resamples=99, random_state=0)
    b = compare_benchmark(shuffled, n_resamples=99, random_state=0)
    ta, tb = a.to_dict(), b.to_dict()
    assert ta["name"] == tb["name"]
    assert_allclose(ta["mean"], tb["mean"], rtol=1e-12)
    assert_allclose(ta["rank"], tb["rank"], rtol=1e-12)
    assert_allclose(a.friedman.statistic, b.friedman.statistic, rtol=1e-12)
    assert_allclose(a.pairwise_pvalues, b.pairwise_pvalues, rtol=1e-12)


def test_integer_values_and_two_level_pooled_mean():
    rng = np.random.default_rng(7)
    scores = {d: {m: rng.integers(0, 2, 20 + i) for m in "abc"} for i, d in enumerate(DATASETS)}
    comparison = compare_benchmark(scores, unit="datasets", weights="queries", n_resamples=99)
    table = comparison.to_dict()
    # hand: the mean of every query of the benchmark, each dataset pooled
    pooled = [np.mean(np.concatenate([scores[d][m] for d in DATASETS])) for m in table["name"]]
    assert_allclose(table["mean"], pooled, rtol=1e-12)
