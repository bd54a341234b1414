"""Agreement with ``sklearn.metrics.ndcg_score`` and ``dcg_score`` on 2-D input.

Default options, ``k``, ``sample_weight``, ``log_base`` and scikit-learn's
``ignore_ties`` keyword, on random 2-D input with and without tied scores.
Expected values come from scikit-learn.
"""

import math

import numpy as np
import pytest
from sklearn import metrics as skm

from sklearn_ndcg import dcg_score, ndcg_score

RTOL = 1e-12
SEEDS = range(12)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [False, True], ids=["no_ties", "ties"])
def test_defaults_agree_with_scikit_learn(seed, ties, random_2d):
    y_true, y_score, _ = random_2d(seed, ties)
    np.testing.assert_allclose(
        ndcg_score(y_true, y_score), skm.ndcg_score(y_true, y_score), rtol=RTOL
    )
    np.testing.assert_allclose(
        dcg_score(y_true, y_score), skm.dcg_score(y_true, y_score), rtol=RTOL
    )
    np.testing.assert_allclose(
        ndcg_score(y_true, y_score, ignore_ties=False),
        skm.ndcg_score(y_true, y_score, ignore_ties=False),
        rtol=RTOL,
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [False, True], ids=["no_ties", "ties"])
@pytest.mark.parametrize("k", [1, 2, 5, 50])
def test_k_and_sample_weight_agree_with_scikit_learn(seed, ties, k, random_2d):
    y_true, y_score, weight = random_2d(seed, ties)
    for sample_weight in (None, weight):
        np.testing.assert_allclose(
            ndcg_score(y_true, y_score, k=k, sample_weight=sample_weight),
            skm.ndcg_score(y_true, y_score, k=k, sample_weight=sample_weight),
            rtol=RTOL,
        )
        np.testing.assert_allclose(
            dcg_score(y_true, y_score, k=k, sample_weight=sample_weight),
            skm.dcg_score(y_true, y_score, k=k, sample_weight=sample_weight),
            rtol=RTOL,
        )


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("ties", [False, True], ids=["no_ties", "ties"])
@pytest.mark.parametrize("log_base", [2, math.e, 10, 1.5])
def test_dcg_log_base_agrees_with_scikit_learn(seed, ties, log_base, random_2d):
    y_true, y_score, weight = random_2d(seed, ties)
    np.testing.assert_allclose(
        dcg_score(y_true, y_score, log_base=log_base, k=3, sample_weight=weight),
        skm.dcg_score(y_true, y_score, log_base=log_base, k=3, sample_weight=weight),
        rtol=RTOL,
    )
    np.testing.assert_allclose(
        dcg_score(y_true, y_score, log_base=log_base),
        skm.dcg_score(y_true, y_score, log_base=log_base),
        rtol=RTOL,
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("k", [None, 1, 3])
def test_ignore_ties_agrees_with_scikit_learn_without_ties(seed, k, random_2d):
    """On tie-free scores, ties="first" == ignore_ties=True == scikit-learn's."""
    y_true, y_score, weight = random_2d(seed, ties=False)
    expected_ndcg = skm.ndcg_score(y_true, y_score, k=k, ignore_ties=True)
    expected_dcg = skm.dcg_score(y_true, y_score, k=k, ignore_ties=True, sample_weight=weight)
    for options in ({"ties": "first"}, {"ignore_ties": True}, {"ignore_ties": False}, {}):
        np.testing.assert_allclose(
            ndcg_score(y_true, y_score, k=k, **options), expected_ndcg, rtol=RTOL
        )
        np.testing.assert_allclose(
            dcg_score(y_true, y_score, k=k, sample_weight=weight, **options),
            expected_dcg,
            rtol=RTOL,
        )


@pytest.mark.parametrize("seed", range(10))
def test_ignore_ties_means_scikit_learns_order_and_average(seed, random_2d):
    """ignore_ties=True orders ties as scikit-learn, False is "average" (also with ties)."""
    y_true, y_score, _ = random_2d(seed, ties=True)
    np.testing.assert_allclose(
        ndcg_score(y_true, y_score, ignore_ties=True),
        skm.ndcg_score(y_true, y_score, ignore_ties=True),
        rtol=RTOL,
    )
    assert ndcg_score(y_true, y_score, ignore_ties=False) == ndcg_score(
        y_true, y_score, ties="average"
    )
    np.testing.assert_allclose(
        dcg_score(y_true, y_score, ignore_ties=True),
        skm.dcg_score(y_true, y_score, ignore_ties=True),
        rtol=RTOL,
    )
