import dataclasses

import numpy as np
import pytest

from sklearn_ndcg import ndcg_score
from sklearn_ndcg._engine import RankingOptions
from sklearn_ndcg._options import DEFAULT_TIES, ranking_options


def test_options_are_immutable():
    options = RankingOptions(k=3)
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.k = 5
    assert not hasattr(options, "__dict__")  # slots: no stray attribute either
    changed = options.replace(ties="first")
    assert (options.ties, changed.ties, changed.k) == ("average", "first", 3)


def test_the_lists_live_in_one_place():
    from sklearn_ndcg import _options
    from sklearn_ndcg._engine import _discount, _gain, _ties

    assert RankingOptions.TIE_RULES == ("average", "first", "optimistic", "pessimistic")
    assert _options.TIE_RULES is RankingOptions.TIE_RULES
    assert _gain.GAINS is _options.GAINS is RankingOptions.GAINS
    assert _discount.DISCOUNTS is _options.DISCOUNTS is RankingOptions.DISCOUNTS
    assert _ties.DOCNO_TIES == _options.DOCNO == RankingOptions.DOCNO_TIES
    assert _options.UNJUDGED is RankingOptions.UNJUDGED
    assert _options.MISSING_QUERIES is RankingOptions.MISSING_QUERIES


@pytest.mark.parametrize(
    "keywords, expected",
    [
        ({"ignore_ties": True}, {"ties": RankingOptions.ARGSORT_TIES}),
        ({"ignore_ties": False}, {"ties": "average"}),
        ({"ties": "first"}, {"ties": "first"}),
        ({"replace_undefined_by": 1.0}, {"zero_division": 1.0}),
        ({}, {"ties": "average", "zero_division": 0.0, "unjudged": "zero"}),
    ],
)
def test_aliases_resolve(keywords, expected):
    options = ranking_options(**keywords)
    for name, value in expected.items():
        assert getattr(options, name) == value
    assert type(options.ties) is str  # the default's marker class does not travel down


@pytest.mark.parametrize(
    "keywords, message",
    [
        ({"ties": "first", "ignore_ties": True}, "give either ties"),
        ({"zero_division": 1.0, "replace_undefined_by": 0.0}, "two names for the same option"),
        ({"unjudged": "drop"}, "only applies with a pool"),
        ({"log_base": 10, "discount": "reciprocal"}, "only applies to discount='log2'"),
    ],
)
def test_bad_combinations_are_refused(keywords, message):
    with pytest.raises(ValueError, match=message):
        ranking_options(**keywords)


def test_default_ties_is_told_apart():
    assert ranking_options(ties=DEFAULT_TIES, ignore_ties=True).ties == "argsort"


def test_built_once_per_call(monkeypatch):
    from sklearn_ndcg._metrics import _ndcg

    built = []
    original = _ndcg.ranking_options
    monkeypatch.setattr(
        _ndcg, "ranking_options", lambda *a, **kw: built.append(1) or original(*a, **kw)
    )
    ndcg_score(np.array([[1, 0, 2]]), np.array([[0.3, 0.2, 0.1]]))
    assert built == [1]


def test_normalization_and_log_base_follow_the_metric():
    assert RankingOptions(metric="dcg", log_base=10).dcg_log_base == 10
    assert RankingOptions(metric="ndcg", log_base=10).dcg_log_base is None
    assert RankingOptions(metric="dcg").normalization is None
    assert RankingOptions(normalize="minmax").normalization == "minmax"
