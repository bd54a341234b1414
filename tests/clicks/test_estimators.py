"""The registry of counterfactual estimators: what each needs, its value per row, and
the checks that read it (issue 47, item 7)."""

import numpy as np
import pytest

from sklearn_ndcg._clicks._counterfactual import PARAMS
from sklearn_ndcg._clicks._estimators import ESTIMATORS, check_estimator_input, normaliser


def test_the_registry_is_the_list_of_choices():
    # the parameter's allowed values are the registry's names, not a copy of them
    assert PARAMS["estimator"][0].options == set(ESTIMATORS)
    assert {name: e.needs for name, e in ESTIMATORS.items()} == {
        "ips": None,
        "snips": "logging_probability",
        "dr": "reward_model",
    }


def test_row_values_by_hand():
    click = np.array([1.0, 0.0, 1.0])
    weight = np.array([1.0, 2.0, 4.0])
    discount = np.array([1.0, 0.5, 0.25])
    new = np.array([0.5, 1.0, 0.25])
    propensity = np.array([1.0, 0.5, 0.25])
    reward = np.array([0.2, 0.4, 0.8])
    ips = ESTIMATORS["ips"].row_values(click, weight, discount, new, propensity, reward)
    np.testing.assert_array_equal(ips, [1.0, 0.0, 1.0])
    dr = ESTIMATORS["dr"].row_values(click, weight, discount, new, propensity, reward)
    # new * r + w * d * (c - a * r): 0.1 + 0.8, 0.4 - 0.2, 0.2 + 0.8
    np.testing.assert_allclose(dr, [0.9, 0.2, 1.0], rtol=1e-15)
    assert normaliser(ESTIMATORS["snips"], np.array([0.5, 1.5, 4.0])) == 2.0
    assert normaliser(ESTIMATORS["ips"], np.array([0.5, 1.5, 4.0])) == 1.0


@pytest.mark.parametrize(
    "name, probability, reward, match",
    [
        ("snips", None, None, 'estimator="snips" needs logging_probability: the self-normal'),
        ("dr", None, None, 'estimator="dr" needs reward_model: the doubly robust'),
        ("ips", None, [0.1], 'reward_model is only used by estimator="dr"; got estimator'),
    ],
)
def test_checks_name_what_is_missing(name, probability, reward, match):
    with pytest.raises(ValueError, match=match):
        check_estimator_input(name, probability, reward)
