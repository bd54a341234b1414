"""compare_models warns when too few resamples leave Holm nothing to reject (issue 50).

The reference is the test's own floor: a two-sided randomization p-value is at least
2 / (n_resamples + 1) (scipy's permutation_test counts the observed statistic and both
tails), so after Holm's or Bonferroni's correction over m pairs at least
2 m / (n_resamples + 1); the end-to-end case checks the adjusted p-values it reports.
"""

import warnings

import numpy as np
import pytest

from sklearn_ndcg import compare_models
from sklearn_ndcg._stats._compare import _warn_unreachable

RNG = np.random.default_rng(50)
SCORES = {f"m{i}": RNG.random(40) + 0.3 * i for i in range(5)}  # far apart: p at the floor


def test_five_models_all_pairs_with_199_resamples_warn_and_reject_nothing():
    with pytest.warns(UserWarning, match=r"over 10 pairs makes it 0\.1 > alpha=0\.05"):
        result = compare_models(SCORES, pairs="all", n_resamples=199, random_state=0)
    assert min(result.pairwise.to_dict()["pvalue"]) == pytest.approx(0.1)  # 10 * 2 / 200


@pytest.mark.parametrize(
    "method, correction, n_resamples, n_pairs, warns",
    [
        ("randomization", "holm", 1798, 45, True),  # 2 * 45 / 1799 > 0.05
        ("randomization", "holm", 1799, 45, False),  # 2 * 45 / 1800 = 0.05
        ("randomization", "bonferroni", 999, 45, True),
        ("bootstrap", "holm", 999, 45, False),  # 45 / 1000 < 0.05
        ("bootstrap", "holm", 898, 45, True),  # 45 / 899 > 0.05
        ("randomization", "fdr_bh", 999, 45, False),  # BH can reject at the floor
        ("t", "holm", 9, 45, False),  # no resamples
        ("randomization", None, 99, 45, False),
    ],
)
def test_the_floor(method, correction, n_resamples, n_pairs, warns):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _warn_unreachable(method, correction, n_resamples, n_pairs, 0.05)
    assert bool(caught) == warns
