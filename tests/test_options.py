"""Tests of the option vocabulary in _options.py: aliases, defaults, the cutoff check."""

import numpy as np
import pytest

from sklearn_ndcg import JudgmentPool
from sklearn_ndcg._engine import RankingOptions
from sklearn_ndcg._options import (
    DEFAULT_MISSING_QUERIES,
    DEFAULT_TIES,
    DEFAULT_UNJUDGED,
    check_cutoffs,
    check_pool_options,
    resolve_ties,
)

TIE_RULES = RankingOptions.TIE_RULES


@pytest.mark.parametrize(
    "ties, ignore_ties, expected",
    [
        (DEFAULT_TIES, None, "average"),
        (DEFAULT_TIES, True, "argsort"),  # scikit-learn's order, close to "first"
        (DEFAULT_TIES, False, "average"),
        ("first", None, "first"),
        ("average", None, "average"),
        ("optimistic", None, "optimistic"),
        ("pessimistic", None, "pessimistic"),
    ],
)
def test_resolve_ties(ties, ignore_ties, expected):
    assert resolve_ties(ties, ignore_ties) == expected
    assert type(resolve_ties(ties, ignore_ties)) is str


@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("ignore_ties", [True, False])
def test_resolve_ties_rejects_both(ties, ignore_ties):
    with pytest.raises(ValueError, match="give either ties"):
        resolve_ties(ties, ignore_ties)


def test_default_ties_is_average():
    assert DEFAULT_TIES == "average"
    assert type(DEFAULT_TIES) is not str  # told apart from an explicit "average"


CUTOFF_MESSAGE = "must be a non-empty list of distinct integers >= 1"


@pytest.mark.parametrize(
    "ks, expected",
    [
        ([5, 1, 3], [1, 3, 5]),
        ((2,), [2]),
        (range(1, 4), [1, 2, 3]),
        (np.array([10, 5], dtype=np.int32), [5, 10]),
    ],
)
def test_check_cutoffs_sorts(ks, expected):
    result = check_cutoffs(ks, name="ks")
    assert result.tolist() == expected
    assert result.dtype == np.intp


@pytest.mark.parametrize(
    "ks",
    [[], [0, 1], [-1], [2, 2], [1.5], ["1"], [True, 2], [[1, 2]], np.array([1.0, 2.0])],
)
@pytest.mark.parametrize("name", ["k", "ks", "the cutoffs of ndcg_cut.0"])
def test_check_cutoffs_one_message(ks, name):
    with pytest.raises(ValueError, match=f"^{name} {CUTOFF_MESSAGE}"):
        check_cutoffs(ks, name=name)


@pytest.mark.parametrize("ks", [5, np.int64(5), 2.0, "5"])
def test_check_cutoffs_refuses_a_single_value(ks):
    with pytest.raises(TypeError, match=f"ks {CUTOFF_MESSAGE}.*for one cutoff"):
        check_cutoffs(ks, name="ks")


def test_check_cutoffs_none():
    assert check_cutoffs(None) is None
    assert check_cutoffs(None, name="ks", none_means_up_to=3).tolist() == [1, 2, 3]


def test_check_pool_options():
    pool = JudgmentPool(qid=[1], y_true=[1])
    check_pool_options(None, DEFAULT_UNJUDGED, DEFAULT_MISSING_QUERIES)
    check_pool_options(pool, "drop", "zero")
    check_pool_options(pool, "zero", "drop")
    with pytest.raises(ValueError, match="unjudged='zero' only applies with a pool"):
        check_pool_options(None, "zero", DEFAULT_MISSING_QUERIES)
    with pytest.raises(ValueError, match="unjudged='drop' and missing_queries='zero' only"):
        check_pool_options(None, "drop", "zero")


@pytest.mark.parametrize(
    "metric, k, expected",
    [
        ("P_10", None, [("P_10", "P", 10)]),
        ("P.10", None, [("P_10", "P", 10)]),  # pytrec_eval's spelling
        ("ndcg", 5, [("ndcg_cut_5", "ndcg", 5)]),
        ("map", None, [("map", "map", None)]),
        (
            ["map_cut_3", "recip_rank"],
            None,
            [("map_cut_3", "map", 3), ("recip_rank", "recip_rank", None)],
        ),
    ],
)
def test_metric_names(metric, k, expected):
    """trec_eval's names of the measures (issue 49): the name, the metric, the cutoff."""
    from sklearn_ndcg._options import metric_names

    assert [tuple(name)[:3] for name in metric_names(metric, k)] == expected
