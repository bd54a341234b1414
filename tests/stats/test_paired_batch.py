"""paired_batch: each row equals paired_test of that row; the FWER shortcut equals compare_models.

The reference is the package's own per-call path (paired_test, compare_models), itself
checked against scipy in test_paired.py / test_compare.py: the batch must reproduce it
exactly (same resamples for a given seed), so the benchmark measures the code users run.
"""

import warnings

import numpy as np
import pytest

from sklearn_ndcg import compare_models, paired_test
from sklearn_ndcg._stats._batch import against_best_verdicts
from sklearn_ndcg._stats._methods import PAIRED_METHODS
from sklearn_ndcg._stats._paired_batch import paired_batch
from sklearn_ndcg._stats._query_values import _seeds


def _rows(n, reps=6, seed=0):
    """Per-query NDCG-like values with ties, zeros, a constant row and an all-zero row."""
    rng = np.random.default_rng(seed + n)
    a = np.round(rng.uniform(0, 1, (reps, n)), 2)
    b = np.where(rng.random((reps, n)) < 0.4, a, np.round(rng.uniform(0, 1, (reps, n)), 2))
    b[0] = a[0]  # all differences 0
    b[1] = a[1] - 0.1  # constant differences
    b[1, 0] = a[1, 0] - (0.3 - 0.2)  # equal up to rounding
    return a, b


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


def _same(x, y):
    np.testing.assert_allclose(np.asarray(x, float), np.asarray(y, float), rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("method", PAIRED_METHODS)
@pytest.mark.parametrize("n", [3, 10, 40, 120])
@pytest.mark.parametrize("alternative", ["two-sided", "less"])
def test_batch_rows_equal_paired_test(method, n, alternative):
    a, b = _rows(n)
    margin = 0.05 if alternative == "two-sided" else None
    options = dict(method=method, n_resamples=999, alternative=alternative, margin=margin)
    batch = paired_batch(a, b, random_state=7, **options)
    for i in range(a.shape[0]):
        one = _quiet(paired_test, a[i], b[i], random_state=7, **options)
        assert batch.pvalue[i] == pytest.approx(one.pvalue, rel=1e-12, abs=0)
        _same(batch.statistic[i], one.statistic)
        _same(batch.mean_difference[i], one.mean_difference)
        _same(batch.confidence_interval[i], one.confidence_interval)
        if margin is not None:
            assert batch.verdict[i] == one.verdict
            _same(batch.equivalence_interval[i], one.equivalence_interval)


@pytest.mark.parametrize("n", [10, 40, 120])
def test_batch_weighted_bootstrap_rows_equal_paired_test(n):
    from sklearn_ndcg import QueryScores

    a, b = _rows(n)
    weight = np.random.default_rng(n).uniform(0.5, 2.0, n)
    batch = paired_batch(a, b, method="bootstrap", weight=weight, n_resamples=999, random_state=3)
    qid = np.arange(n)
    for i in range(a.shape[0]):
        one = _quiet(
            paired_test,
            QueryScores(qid, a[i], weight),
            QueryScores(qid, b[i], weight),
            method="bootstrap",
            n_resamples=999,
            random_state=3,
        )
        assert batch.pvalue[i] == one.pvalue
        _same(batch.mean_difference[i], one.mean_difference)
        _same(batch.confidence_interval[i], one.confidence_interval)


def test_batch_refuses_weights_for_unweighted_methods():
    a, b = _rows(10)
    with pytest.raises(ValueError, match="does not take query weights"):
        paired_batch(a, b, method="t", weight=np.arange(1.0, 11.0))


def _systems(k, n, reps, seed):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0, 1, (reps, 1, n))
    return np.clip(np.round(base + rng.normal(0, 0.15, (reps, k, n)), 2), 0, 1)


def _pair_pvalues(systems, method, seed_of):
    """p-values of every pair (i < j) of each replicate, each pair with its own seed."""
    reps, k, _ = systems.shape
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    out = np.empty((reps, len(pairs)))
    for r in range(reps):
        seeds = seed_of(r, len(pairs))
        for p, ((i, j), seed) in enumerate(zip(pairs, seeds)):
            out[r, p] = paired_batch(
                systems[r, i][None],
                systems[r, j][None],
                method=method,
                n_resamples=999,
                random_state=seed,
            ).pvalue[0]
    return out


@pytest.mark.parametrize("method", PAIRED_METHODS)
@pytest.mark.parametrize("n", [8, 45])
def test_against_best_verdicts_equal_compare_models(method, n):
    """The benchmark's FWER shortcut (batch p-values of all pairs, Holm, verdicts against
    the model with the highest mean) says what compare_models says, replicate by replicate."""
    k, reps = 5, 4
    systems = _systems(k, n, reps, seed=n)
    systems[0, 2] = systems[0, 1] + 0.2  # a clear winner: some verdicts are "worse"

    def compare_seeds(r, count):  # the seeds compare_models gives its pairs
        return _seeds(_seeds(r, 2 * k + 2)[-1], count)

    pvalues = _pair_pvalues(systems, method, compare_seeds)
    if n == 8:  # exact for every method: one seed for every row gives the same p-values
        pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
        a = np.concatenate([systems[:, i] for i, _ in pairs])
        b = np.concatenate([systems[:, j] for _, j in pairs])
        shared = paired_batch(a, b, method=method, n_resamples=999, random_state=0).pvalue
        np.testing.assert_array_equal(shared.reshape(len(pairs), reps).T, pvalues)
    verdicts = against_best_verdicts(systems, pvalues, 0.05, "holm")
    called = 0
    for r in range(reps):
        comparison = _quiet(
            compare_models,
            {f"s{j}": systems[r, j] for j in range(k)},
            method=method,
            n_resamples=999,
            random_state=r,
        )
        expected = [v for v in comparison.to_dict()["verdict"] if v != "reference"]
        names = comparison.to_dict()["name"][1:]
        order = sorted(range(k - 1), key=lambda m: names[m])
        assert [expected[m] for m in order] == verdicts[r]
        called += sum(v in ("better", "worse") for v in verdicts[r])
    if n == 45:  # on 8 queries Holm over 10 pairs cannot reject (smallest p 2 / 2**8)
        assert called > 0  # the check can fail: some verdicts are not "not shown different"
