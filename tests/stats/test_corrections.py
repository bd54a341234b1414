"""The corrections for multiple comparisons, by hand and against scipy."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats

from sklearn_ndcg._stats._corrections import _adjust, _fdr_bh


def test_corrections_by_hand():
    p = np.array([0.01, 0.04, 0.03, 0.20])
    # hand computation, m = 4 comparisons
    # bonferroni: each times 4
    assert_allclose(_adjust(p, "bonferroni"), [0.04, 0.16, 0.12, 0.80])
    # holm: sorted 0.01*4 = 0.04, 0.03*3 = 0.09, 0.04*2 = 0.08 -> 0.09 (monotone), 0.20*1
    assert_allclose(_adjust(p, "holm"), [0.04, 0.09, 0.09, 0.20])
    # BH: sorted 0.01*4/1 = 0.04, 0.03*4/2 = 0.06, 0.04*4/3 = 0.0533, 0.20*4/4 = 0.20;
    # running minimum from the largest: 0.06 -> 0.0533
    assert_allclose(_adjust(p, "fdr_bh"), [0.04, 0.16 / 3, 0.16 / 3, 0.20])
    assert_array_equal(_adjust(p, None), p)
    # capped at 1: bonferroni 3 * 0.5; holm 3 * 0.5 and 2 * 0.6; BH 0.9 * 3/3
    p = np.array([0.5, 0.6, 0.9])
    assert_array_equal(_adjust(p, "bonferroni"), [1.0, 1.0, 1.0])
    assert_array_equal(_adjust(p, "holm"), [1.0, 1.0, 1.0])
    assert_allclose(_adjust(p, "fdr_bh"), [0.9, 0.9, 0.9])


def test_bh_without_scipy_function_is_the_same(monkeypatch):
    # the direct computation (scipy < 1.11) gives the hand-computed values too
    monkeypatch.delattr(stats, "false_discovery_control", raising=False)
    assert_allclose(
        _adjust(np.array([0.01, 0.04, 0.03, 0.20]), "fdr_bh"), [0.04, 0.16 / 3, 0.16 / 3, 0.20]
    )


@pytest.mark.skipif(
    not hasattr(stats, "false_discovery_control"), reason="scipy < 1.11: no false_discovery_control"
)
@pytest.mark.parametrize("seed", range(5))
def test_bh_equals_scipy_false_discovery_control(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=rng.integers(1, 30)) ** 3
    p[: p.size // 3] = p[-1]  # ties
    assert_array_equal(_fdr_bh(p), stats.false_discovery_control(p, method="bh"))
