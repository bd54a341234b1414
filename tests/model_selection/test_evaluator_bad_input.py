"""Bad input to RankingEvaluator: parameters (checked in fit), fit and score.

Each row expects a ``ValueError`` or ``TypeError`` whose message names the
argument; the convention and the shared data are in ``tests/_bad_input.py``.
"""

from functools import partial

import numpy as np
import pytest
from _bad_input import QID, X_DOCS, Y_TRUE, add_case, check_bad_input
from sklearn.base import BaseEstimator, RegressorMixin
from sklearn.linear_model import Ridge

from sklearn_ndcg import RankingEvaluator, make_ranking

CASES = []
_add = partial(add_case, CASES)


class _Ranker(RegressorMixin, BaseEstimator):
    """A learning-to-rank model whose fit takes qid, like XGBRanker."""

    def fit(self, X, y, qid=None):
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def predict(self, X):
        return np.asarray(X, dtype=float)[:, 0]


_add(
    "RankingEvaluator",
    "fit-option",
    "normalize_unknown",
    lambda: RankingEvaluator(Ridge(), normalize="worst").fit(X_DOCS, Y_TRUE, qid=QID),
    ValueError,
    "'normalize' parameter",
)


# --------------------------------------------------------------------------
# RankingEvaluator: parameters (checked in fit, as scikit-learn does), fit, score
# --------------------------------------------------------------------------

X_RANK, Y_RANK, QID_RANK = make_ranking(
    n_queries=6, n_items=4, n_features=3, n_informative=2, random_state=0
)


def _evaluator_fit(params=None, estimator=None, X=X_RANK, y=Y_RANK, **fit_kw):
    model = RankingEvaluator(Ridge() if estimator is None else estimator, **(params or {}))
    return model.fit(X, y, **fit_kw)


def _evaluator_score(params=None, X=X_RANK, y=Y_RANK, **score_kw):
    model = _evaluator_fit(params, qid=QID_RANK)
    return model.score(X, y, **score_kw)


_add(
    "RankingEvaluator",
    "construction-option",
    "estimator_none",
    lambda: _evaluator_fit(estimator="not an estimator", qid=QID_RANK),
    ValueError,
    "'estimator' parameter",
)
for case_class, case_id, params, exc, match in [
    ("k", "k_zero", {"k": 0}, ValueError, "'k' parameter"),
    ("k", "k_float", {"k": 2.5}, (ValueError, TypeError), "'k' parameter"),
    ("k", "k_string", {"k": "5"}, (ValueError, TypeError), "'k' parameter"),
    ("option", "gain_unknown", {"gain": "quadratic"}, ValueError, "'gain' parameter"),
    (
        "option",
        "discount_unknown",
        {"discount": 3},
        (ValueError, TypeError),
        "'discount' parameter",
    ),
    ("option", "ties_unknown", {"ties": "random"}, ValueError, "'ties' parameter"),
    (
        "option",
        "zero_division_other",
        {"zero_division": "nan"},
        ValueError,
        "'zero_division' parameter",
    ),
]:
    _add(
        "RankingEvaluator",
        "construction-" + case_class,
        case_id,
        lambda params=params: _evaluator_fit(params, qid=QID_RANK),
        exc,
        match,
    )
_add(
    "RankingEvaluator",
    "construction-k",
    "k_bool",
    lambda: _evaluator_fit({"k": True}, qid=QID_RANK),
    TypeError,
    "'k' parameter",
)

_add(
    "RankingEvaluator.fit",
    "shape",
    "y_none",
    lambda: _evaluator_fit(y=None),
    ValueError,
    "requires y to be passed",
)
_add(
    "RankingEvaluator.fit",
    "nonfinite",
    "y_nan",
    lambda: _evaluator_fit(y=np.where(Y_RANK > 1, np.nan, Y_RANK)),
    ValueError,
    "y contains NaN",
)
_add(
    "RankingEvaluator.fit",
    "qid_length",
    "ranker_qid_short",
    lambda: _evaluator_fit(estimator=_Ranker(), qid=QID_RANK[:-1]),
    ValueError,
    "qid has 23 entries but y has 24",
)
_add(
    "RankingEvaluator.fit",
    "qid_length",
    "ranker_qid_missing",
    lambda: _evaluator_fit(estimator=_Ranker()),
    ValueError,
    "fit needs qid",
)
_add(
    "RankingEvaluator.fit",
    "qid_type",
    "ranker_qid_mixed",
    lambda: _evaluator_fit(estimator=_Ranker(), qid=[1, "a"] * 12),
    TypeError,
    "qid mixes values",
)
_add(
    "RankingEvaluator.fit",
    "qid_length",
    "regressor_qid_short",
    lambda: _evaluator_fit(qid=QID_RANK[:3]),
    ValueError,
    "qid has 3 entries",
)
_add(
    "RankingEvaluator.fit",
    "qid_type",
    "regressor_qid_mixed",
    lambda: _evaluator_fit(qid=[1, "a"] * 12),
    TypeError,
    "qid mixes values",
)
_add(
    "RankingEvaluator.fit",
    "weights",
    "weight_negative",
    lambda: _evaluator_fit(qid=QID_RANK, sample_weight=-np.ones(24)),
    ValueError,
    "sample_weight has negative values",
)
_add(
    "RankingEvaluator.fit",
    "weights",
    "weight_all_zero",
    lambda: _evaluator_fit(qid=QID_RANK, sample_weight=np.zeros(24)),
    ValueError,
    "[Ss]ample.weight",
)
_add(
    "RankingEvaluator.fit",
    "weights",
    "weight_nan",
    lambda: _evaluator_fit(qid=QID_RANK, sample_weight=np.full(24, np.nan)),
    ValueError,
    "sample_weight contains missing or infinite values",
)

_add(
    "RankingEvaluator.score",
    "qid_length",
    "qid_short",
    lambda: _evaluator_score(qid=QID_RANK[:5]),
    ValueError,
    "qid has 5 entries but y_true has 24",
)
_add(
    "RankingEvaluator.score",
    "shape",
    "y_short",
    lambda: _evaluator_score(y=Y_RANK[:5], qid=QID_RANK[:5]),
    ValueError,
    r"y_true has shape \(5,\) but y_score has shape \(24,\)",
)
_add(
    "RankingEvaluator.score",
    "nonfinite",
    "y_inf",
    lambda: _evaluator_score(y=np.where(Y_RANK > 1, np.inf, Y_RANK), qid=QID_RANK),
    ValueError,
    "y_true contains missing or infinite values",
)
_add(
    "RankingEvaluator.score",
    "non_numeric",
    "y_strings",
    lambda: _evaluator_score(y=Y_RANK.astype(str), qid=QID_RANK),
    TypeError,
    "y_true holds",
)
_add(
    "RankingEvaluator.score",
    "weights",
    "weight_negative",
    lambda: _evaluator_score(qid=QID_RANK, sample_weight=-np.ones(24)),
    ValueError,
    "sample_weight has negative values",
)
_add(
    "RankingEvaluator.score",
    "weights",
    "weight_all_zero",
    lambda: _evaluator_score(qid=QID_RANK, sample_weight=np.zeros(24)),
    ValueError,
    "sample_weight sums to zero",
)
_add(
    "RankingEvaluator.score",
    "qid_type",
    "qid_mixed",
    lambda: _evaluator_score(qid=[1, "a"] * 12),
    TypeError,
    "qid mixes values",
)
_add(
    "RankingEvaluator.score",
    "mapping",
    "mapping_missing_label",
    lambda: _evaluator_score({"gain": {0: 0.0}}, qid=QID_RANK),
    ValueError,
    "gain has no entry for the relevance labels",
)
_add(
    "RankingEvaluator.score",
    "huge",
    "exponential_overflow",
    lambda: _evaluator_score({"gain": "exponential"}, y=Y_RANK + 2000, qid=QID_RANK),
    ValueError,
    'gain="exponential" overflows float64',
)
_add(
    "RankingEvaluator.score",
    "k",
    "k_bool",
    lambda: _evaluator_score({"k": np.True_}, qid=QID_RANK),
    TypeError,
    "k",
)
_add(
    "RankingEvaluator.score",
    "shape",
    "not_fitted",
    lambda: RankingEvaluator(Ridge()).score(X_RANK, Y_RANK, qid=QID_RANK),
    ValueError,
    "not fitted",
)


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
