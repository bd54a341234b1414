"""The batch kernels against scipy: Wilcoxon's p-values, all rows at once, are scipy's."""

import warnings

import numpy as np
from _stats_data import WILCOXON_AS_SCIPY

from sklearn_ndcg._stats._batch import wilcoxon_pvalues


def _quiet(function, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return function(*args, **kwargs)


@WILCOXON_AS_SCIPY
def test_batch_wilcoxon_equals_scipy_with_ties_and_zeros():
    """The batched exact permutation p-values are scipy.stats.wilcoxon's, bit for bit."""
    from scipy import stats

    rng = np.random.default_rng(1)
    # with ties or zeros scipy enumerates all 2**n sign changes up to n = 13, one Python
    # call each (about 4 s a row at 13; 40 rows took five minutes), and is normal from
    # 14: one row at 13, more on either side
    for n, rows in ((3, 40), (6, 40), (9, 10), (13, 1), (14, 40)):
        d = np.round(rng.normal(0, 0.1, (rows, n)), 1)
        d[d.any(axis=1) == 0, 0] = 0.1  # scipy is undefined on all-zero rows
        for alternative in ("two-sided", "greater"):
            statistic, pvalue = wilcoxon_pvalues(d, alternative)
            reference = np.array(
                [_quiet(stats.wilcoxon, r, alternative=alternative)[:2] for r in d]
            )
            np.testing.assert_array_equal(statistic, reference[:, 0])
            np.testing.assert_array_equal(pvalue, reference[:, 1])
