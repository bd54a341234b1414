"""SimplestCompetitiveRefit, and its deprecated name SimplestTiedRefit."""

import numpy as np
import pytest
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, PredefinedSplit

from sklearn_ndcg import (
    SimplestCompetitiveRefit,
    SimplestTiedRefit,
    make_ndcg_scorer,
    make_ranking,
)

X, Y, QID = make_ranking(n_queries=60, random_state=1)
CV = PredefinedSplit(QID % 3)


def test_picks_the_simplest_candidate_not_shown_different():
    grid = {"alpha": [0.1, 10.0, 1e4]}
    refit = SimplestCompetitiveRefit(
        Ridge(), X, Y, qid=QID, cv=CV, k=5, key=lambda p: -p["alpha"], random_state=0
    )
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(Ridge(), grid, cv=CV, scoring=make_ndcg_scorer(k=5), refit=refit).fit(
            X, Y, qid=QID
        )
    comparison = refit.comparison_
    tied_alphas = [float(name.split("=")[1]) for name in comparison.not_shown_different]
    assert search.best_params_["alpha"] == max(tied_alphas)
    assert search.best_index_ == refit.best_index_
    # the reference of the comparison is the search's best by mean NDCG@5
    best = int(np.argmax(search.cv_results_["mean_test_score"]))
    assert comparison.reference == f"alpha={grid['alpha'][best]!r}"


@pytest.mark.parametrize("margin", [None, 0.01])
def test_old_name_warns_and_picks_the_same(margin):
    grid = {"alpha": [0.1, 10.0, 1e4]}
    arguments = dict(qid=QID, cv=CV, k=5, key=lambda p: -p["alpha"], margin=margin, random_state=0)
    new = SimplestCompetitiveRefit(Ridge(), X, Y, **arguments)
    with pytest.warns(FutureWarning, match="SimplestCompetitiveRefit.*removed in 0.4"):
        old = SimplestTiedRefit(Ridge(), X, Y, **arguments)
    assert isinstance(old, SimplestCompetitiveRefit)
    with sklearn.config_context(enable_metadata_routing=True):
        for refit in (new, old):
            GridSearchCV(Ridge(), grid, cv=CV, scoring=make_ndcg_scorer(k=5), refit=refit).fit(
                X, Y, qid=QID
            )
    assert old.best_index_ == new.best_index_
    assert old.reason_ == new.reason_
    np.testing.assert_equal(old.comparison_.to_dict(), new.comparison_.to_dict())
