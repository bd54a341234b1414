"""make_counterfactual_dcg_scorer: what a search forgets to pass, and bad propensities."""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge

from sklearn_ndcg import make_counterfactual_dcg_scorer

# qid as the logged ranking (its meaning before 0.3), under its FutureWarning
pytestmark = pytest.mark.filterwarnings(
    "ignore:counterfactual_dcg\\(qid=...\\) without impression=:FutureWarning"
)

X = np.arange(8.0).reshape(4, 2)
CLICK = np.array([1.0, 0, 0, 1])


@pytest.mark.parametrize("routing", [True, False])
def test_missing_logged_rank_says_how_to_pass_it(routing):
    scorer = make_counterfactual_dcg_scorer([1.0, 0.5])
    model = Ridge().fit(X, CLICK)
    how = "Pass them with the data" if routing else "Metadata routing is disabled"
    with sklearn.config_context(enable_metadata_routing=routing):
        with pytest.raises(ValueError, match=f"needs logged_rank for every row.*{how}"):
            scorer(model, X, CLICK, qid=[1, 1, 2, 2])
        with pytest.raises(ValueError, match="needs qid and logged_rank"):
            scorer(model, X, CLICK)


def test_bad_propensity_is_refused_when_the_scorer_is_made():
    with pytest.raises(ValueError, match=r"propensity must lie in \(0, 1\]"):
        make_counterfactual_dcg_scorer([1.0, 0.0])


def test_bad_clicks_reach_the_error_of_counterfactual_dcg():
    scorer = make_counterfactual_dcg_scorer([1.0, 0.5])
    model = Ridge().fit(X, CLICK)
    with pytest.raises(ValueError, match="click must hold 0"):
        scorer(model, X, np.array([2.0, 0, 0, 1]), qid=[1, 1, 2, 2], logged_rank=[1, 2, 1, 2])
