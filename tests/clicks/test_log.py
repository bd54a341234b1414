"""Tests for the checks of a click log (each error names its argument) and the new ranks."""

import numpy as np
import pytest
from numpy.testing import assert_array_equal

from sklearn_ndcg import counterfactual_dcg
from sklearn_ndcg._clicks._log import check_log, check_propensity, new_ranks

# qid as the logged ranking (its meaning before 0.3), under its FutureWarning
pytestmark = pytest.mark.filterwarnings(
    "ignore:counterfactual_dcg\\(qid=...\\) without impression=:FutureWarning"
)

GOOD = dict(
    click=[1, 0, 0, 1],
    y_score=[0.5, 0.2, 0.9, 0.1],
    qid=[1, 1, 2, 2],
    logged_rank=[1, 2, 1, 2],
    propensity=[1.0, 0.5],
)


def _with(**changes):
    return {**GOOD, **changes}


@pytest.mark.parametrize(
    "changes, match",
    [
        (dict(click=[1, 0, 2, 1]), r"click must hold 0 \(no click\) or 1 \(click\); got 2\.0"),
        (dict(click=[1, 0, -1, 1]), "click must hold 0"),
        (dict(click=[1, 0, 0.5, 1]), "click must hold 0"),
        (dict(click=[1, 0, np.nan, 1]), "click holds NaN"),
        (dict(click=[]), "click is empty"),
        (dict(click=[[1, 0, 0, 1]]), "click must be 1-D"),
        (dict(click=["a", "b", "c", "d"]), "click must hold numbers"),
        (dict(logged_rank=[1, 2, 0, 1]), r"logged_rank must hold whole ranks from 1.*got 0\.0"),
        (dict(logged_rank=[1, 2, -1, 1]), "logged_rank must hold whole ranks from 1"),
        (dict(logged_rank=[1, 2, 1.5, 1]), "logged_rank must hold whole ranks"),
        (dict(logged_rank=[1, 2, np.nan, 1]), "logged_rank holds NaN"),
        (
            dict(logged_rank=[1, 2, 1, 3]),
            "logged_rank reaches 3, but propensity covers ranks 1 to 2",
        ),
        (dict(logged_rank=[1, 1, 1, 2]), "logged_rank repeats rank 1 in query 1"),
        (dict(propensity=[1.0, 0.0]), r"propensity must lie in \(0, 1\].*got 0\.0 at rank 2"),
        (dict(propensity=[1.2, 0.5]), r"propensity must lie in \(0, 1\].*at rank 1"),
        (dict(propensity=[1.0, -0.5]), "propensity must lie in"),
        (dict(propensity=[[1.0, 0.5]]), "propensity must be a 1-D array"),
        (dict(propensity=[]), "propensity must be a 1-D array"),
        (dict(propensity="high"), "propensity must be a 1-D array"),
        (dict(y_score=[1, 2, 3]), "y_score has 3 entries but click has 4"),
        (dict(y_score=[1, 2, np.inf, 3]), "y_score holds NaN or infinite"),
        (dict(qid=[1, 1, 2]), "qid has 3 entries but click has 4"),
        (dict(logged_rank=[1, 2, 1]), "logged_rank has 3 entries but click has 4"),
        (dict(logging_probability=[0.5, 0.5, 0.5]), "logging_probability has 3 entries"),
        (
            dict(logging_probability=[0.5, 0.5, 0.0, 1.0]),
            r"logging_probability must lie in \(0, 1\]",
        ),
        (dict(logging_probability=[0.5, 0.5, 1.5, 1.0]), "logging_probability must lie in"),
    ],
)
def test_bad_input_names_the_argument(changes, match):
    with pytest.raises(ValueError, match=match):
        counterfactual_dcg(**_with(**changes))


def test_reward_model_length():
    with pytest.raises(ValueError, match="reward_model has 2 entries but click has 4"):
        counterfactual_dcg(**GOOD, estimator="dr", reward_model=[0.1, 0.2])


def test_a_document_the_log_never_showed():
    # a row without a logged position (rank beyond the propensity's ranks) is refused:
    # the rows the new ranker scores are exactly the logged rows
    with pytest.raises(ValueError, match="count as documents the log never showed"):
        counterfactual_dcg(**_with(logged_rank=[1, 2, 1, 9]))


def test_propensity_object():
    class Bias:
        propensity = [1.0, 0.5]

    assert_array_equal(check_propensity(Bias()), [1.0, 0.5])
    with pytest.raises(ValueError, match="propensity must lie in"):
        check_propensity(type("Bias", (), {"propensity": [1.0, 2.0]})())


def test_new_ranks_of_tie_groups():
    log = check_log(
        [0, 0, 0, 0, 0], [1, 3, 3, 2, 7], [0, 0, 0, 0, 1], [1, 2, 3, 4, 1], [1, 1, 1, 1], None, None
    )
    ranks = new_ranks(log)
    # query 0 scores 1, 3, 3, 2: the tied 3s share ranks 1-2, then 2 at 3, 1 at 4
    assert_array_equal(ranks.first, [4, 1, 1, 3, 1])
    assert_array_equal(ranks.last, [4, 2, 2, 3, 1])
    d = 1 / np.log2(1 + np.arange(1, 5))
    np.testing.assert_allclose(
        ranks.expected_discount(None), [d[3], (d[0] + d[1]) / 2, (d[0] + d[1]) / 2, d[2], d[0]]
    )
    np.testing.assert_allclose(ranks.expected_discount(1), [0, d[0] / 2, d[0] / 2, 0, d[0]])
    np.testing.assert_allclose(ranks.probability_at(np.array([4, 2, 3, 3, 1])), [1, 0.5, 0, 1, 1])


@pytest.mark.parametrize("n_ranks", [2, 50])  # keys counted, or sorted when too many
@pytest.mark.parametrize("qid", [[1, 1, 2, 2], ["b", "b", "a", "a"], [2, 2, 1, 1]])
def test_repeated_rank_found_either_way(n_ranks, qid):
    query = qid[2]
    with pytest.raises(ValueError, match=f"logged_rank repeats rank 2 in query {query!r}"):
        counterfactual_dcg(**_with(qid=qid, logged_rank=[1, 2, 2, 2], propensity=np.ones(n_ranks)))
