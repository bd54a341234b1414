"""The strata and sampled flags of a JudgmentPool (stratified sampled pools)."""

import re

import numpy as np
import pytest

from sklearn_ndcg import JudgmentPool


def test_strata_and_default_sampled_flags():
    pool = JudgmentPool([1, 1, 2], [2, -1, 0], stratum=["a", "a", 3])
    assert pool.stratum.tolist() == ["a", "a", "3"]  # compared as strings
    assert pool.sampled.tolist() == [True, False, True]  # -1: pooled, not sampled
    assert not pool.stratum.flags.writeable and not pool.sampled.flags.writeable


def test_without_strata_nothing_changes():
    pool = JudgmentPool([1, 1], [1, 0])
    assert pool.stratum is None and pool.sampled is None


def test_explicit_flags_and_documents_outside_the_pool():
    stratum = np.array(["a", None, "a"], dtype=object)
    pool = JudgmentPool([1, 1, 1], [1, -1, 0], stratum=stratum, sampled=[True, False, False])
    assert pool.sampled.tolist() == [True, False, False]
    assert pool.stratum[1] is None  # outside the pool
    assert stratum.tolist() == ["a", None, "a"]  # not mutated


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"stratum": ["a", "b", "b"]}, "stratum 'a' of query 1 has no sampled document"),
        (
            {"stratum": ["a", "a", "b"], "sampled": [False, False, True]},
            "stratum 'a' of query 1 has no sampled document",
        ),
        (
            {"stratum": ["a", None, "a"], "sampled": [False, True, True]},
            "is sampled (sampled=True) but outside the pool",
        ),
        ({"stratum": ["a", np.nan, "a"]}, "is sampled (its level is not negative) but outside"),
        ({"stratum": ["a", "a", "a"], "sampled": [True, True, True]}, "level -1 is negative"),
        ({"stratum": ["a", "a"]}, "one stratum per judged document (3)"),
        ({"stratum": ["a", "a", "a"], "sampled": [1, 0, 1]}, "a 1-D boolean array"),
        ({"sampled": [True, True, True]}, "need its strata"),
    ],
)
def test_bad_strata(kwargs, message):
    """Levels -1 (pooled, not sampled), 0 and 1 of one query."""
    with pytest.raises(ValueError, match=re.escape(message)):
        JudgmentPool([1, 1, 1], [-1, 0, 1], **kwargs)
