"""SimplestCompetitiveRefit checks that it compares what the search scored (issue 50).

The reference is the search itself: its ``cv_results_["mean_test_score"]``, the mean
of its scorer's values on its folds, which the rule's out-of-fold per-query NDCG
reproduces (the mean of each fold's queries, then of the folds) only when given the
search's data, folds and metric options.
"""

import warnings

import pytest
import sklearn
from sklearn.linear_model import Ridge
from sklearn.model_selection import GridSearchCV, KFold, PredefinedSplit

from sklearn_ndcg import SimplestCompetitiveRefit, make_ndcg_scorer, make_ranking

X, Y, QID = make_ranking(n_queries=30, random_state=1)
CV = PredefinedSplit(QID % 3)
GRID = {"alpha": [0.1, 1e4]}


def _search(refit, k=10):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with sklearn.config_context(enable_metadata_routing=True):
            GridSearchCV(Ridge(), GRID, cv=CV, scoring=make_ndcg_scorer(k=k), refit=refit).fit(
                X, Y, qid=QID
            )
    return [str(w.message) for w in caught if "other scores than the search" in str(w.message)]


def _refit(X=X, y=Y, qid=QID, cv=CV, **options):
    return SimplestCompetitiveRefit(
        Ridge(),
        X,
        y,
        qid=qid,
        cv=cv,
        key=lambda p: -p["alpha"],
        n_resamples=99,
        random_state=0,
        **options,
    )


def test_the_search_s_options_are_silent():
    assert _search(_refit(k=10)) == []


@pytest.mark.parametrize(
    "refit",
    [
        pytest.param(lambda: _refit(k=5), id="k=5 behind k=10"),
        pytest.param(lambda: _refit(), id="no k behind k=10"),
        pytest.param(
            lambda: _refit(
                X=X[:300], y=Y[:300], qid=QID[:300], cv=PredefinedSplit(QID[:300] % 3), k=10
            ),
            id="300 rows",
        ),
        pytest.param(lambda: _refit(k=10, gain="exponential"), id="other gain"),
    ],
)
def test_other_options_or_rows_warn(refit):
    (message,) = _search(refit())
    assert "mean_test_score" in message and "k=10 for make_ndcg_scorer(k=10)" in message


def test_a_splitter_that_cuts_queries_is_refused():
    with pytest.raises(ValueError, match="GroupKFold with groups=qid"):
        _search(_refit(cv=KFold(3), k=10))


def test_unknown_and_bad_options_name_the_rule():
    with pytest.raises(TypeError, match=r"unknown options \['cutoff'\]"):
        _search(_refit(cutoff=10))
    with pytest.raises(ValueError, match="'k' parameter of SimplestCompetitiveRefit"):
        _search(_refit(k=0))
