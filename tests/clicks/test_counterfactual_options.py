"""counterfactual_dcg's options: refused values and combinations, each error naming them."""

import pytest
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_ndcg import counterfactual_dcg

# qid as the logged ranking (its meaning before 0.3), under its FutureWarning
pytestmark = pytest.mark.filterwarnings(
    "ignore:counterfactual_dcg\\(qid=...\\) without impression=:FutureWarning"
)

LOG = dict(
    click=[1, 0, 0, 1],
    y_score=[0.5, 0.2, 0.9, 0.1],
    qid=[1, 1, 2, 2],
    logged_rank=[1, 2, 1, 2],
    propensity=[1.0, 0.5],
)


@pytest.mark.parametrize(
    "options, match",
    [
        (dict(estimator="dr"), 'estimator="dr" needs reward_model'),
        (dict(reward_model=[0.1] * 4), 'reward_model is only used by estimator="dr"'),
        (dict(estimator="snips"), 'estimator="snips" needs logging_probability'),
    ],
)
def test_combinations(options, match):
    with pytest.raises(ValueError, match=match):
        counterfactual_dcg(**LOG, **options)


@pytest.mark.parametrize(
    "options, match",
    [
        (dict(estimator="naive"), "'estimator' parameter"),
        (dict(clip=0.0), "'clip' parameter"),
        (dict(clip=1.5), "'clip' parameter"),
        (dict(k=0), "'k' parameter"),
        (dict(confidence_level=1.0), "'confidence_level' parameter"),
        (dict(normalize="yes"), "'normalize' parameter"),
    ],
)
def test_option_values(options, match):
    with pytest.raises(InvalidParameterError, match=match):
        counterfactual_dcg(**LOG, **options)
