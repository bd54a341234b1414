"""Bad input to NDCGCurveDisplay.

Each row expects a ``ValueError`` or ``TypeError`` whose message names the
argument; the convention and the shared data are in ``tests/_bad_input.py``.
"""

from functools import partial

import numpy as np
import pytest
import scipy.sparse as sp
from _bad_input import (
    FITTED,
    QID,
    S_2D,
    X_DOCS,
    Y_2D,
    Y_SCORE,
    Y_TRUE,
    _raise,
    add_case,
    check_bad_input,
)
from sklearn.linear_model import Ridge

from sklearn_ndcg import NDCGCurveDisplay

CASES = []
_add = partial(add_case, CASES)

# --------------------------------------------------------------------------
# NDCGCurveDisplay
# --------------------------------------------------------------------------


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt

    plt.close("all")


def _curve(y_true=Y_TRUE, y_score=Y_SCORE, **kw):
    import matplotlib

    matplotlib.use("Agg")
    kw.setdefault("qid", QID)
    return NDCGCurveDisplay.from_predictions(y_true, y_score, **kw)


for case_class, case_id, call, exc, match, xfail in [
    ("k", "ks_int", lambda: _curve(k=5), TypeError, "integers >= 1", None),
    ("k", "ks_empty", lambda: _curve(k=[]), ValueError, "k must be a non-empty", None),
    ("k", "ks_zero", lambda: _curve(k=[0, 1]), ValueError, "integers >= 1", None),
    ("k", "ks_floats", lambda: _curve(k=[1.5, 2]), ValueError, "integers >= 1", None),
    ("k", "ks_strings", lambda: _curve(k=["1", "2"]), ValueError, "integers >= 1", None),
    ("k", "ks_repeated", lambda: _curve(k=[2, 2]), ValueError, "integers >= 1", None),
    ("3d", "ks_2d", lambda: _curve(k=[[1, 2]]), ValueError, "integers >= 1", None),
    ("k", "ks_bools", lambda: _curve(k=[True, 2]), (ValueError, TypeError), "k", None),
    (
        "option",
        "spread_quantiles_reversed",
        lambda: _curve(spread_quantiles=(0.9, 0.1)),
        ValueError,
        "spread_quantiles must be two numbers with 0 <= lower <= upper <= 1",
        None,
    ),
    (
        "nonfinite",
        "spread_quantiles_nan",
        lambda: _curve(spread_quantiles=(np.nan, 0.5)),
        ValueError,
        "spread_quantiles must be two numbers",
        None,
    ),
    (
        "shape",
        "spread_quantiles_one",
        lambda: _curve(spread_quantiles=(0.5,)),
        ValueError,
        "spread_quantiles must be two numbers",
        None,
    ),
    (
        "option",
        "gain_unknown",
        lambda: _curve(gain="squared"),
        ValueError,
        "'gain' parameter",
        None,
    ),
    ("option", "ties_unknown", lambda: _curve(ties="max"), ValueError, "'ties' parameter", None),
    (
        "nonfinite",
        "y_true_nan",
        lambda: _curve(y_true=np.where(Y_TRUE > 2, np.nan, Y_TRUE)),
        ValueError,
        "y_true contains missing or infinite values",
        None,
    ),
    (
        "non_numeric",
        "y_score_strings",
        lambda: _curve(y_score=Y_SCORE.astype(str)),
        TypeError,
        "y_score holds",
        None,
    ),
    (
        "3d",
        "y_3d",
        lambda: _curve(np.ones((1, 2, 2)), np.ones((1, 2, 2)), qid=None),
        ValueError,
        r"y_true must be 1-D .* or 2-D",
        None,
    ),
    (
        "shape",
        "y_scalar",
        lambda: _curve(1.0, 1.0, qid=None),
        (ValueError, TypeError),
        "y_true",
        None,
    ),
    ("empty", "y_empty", lambda: _curve([], [], qid=None), ValueError, "y_true is empty", None),
    (
        "qid_length",
        "qid_short",
        lambda: _curve(qid=QID[:4]),
        ValueError,
        "qid has 4 entries but y_true has 6",
        None,
    ),
    (
        "qid_type",
        "qid_mixed",
        lambda: _curve(qid=[1, 1, "a", "a", 1, 1]),
        TypeError,
        "qid mixes values",
        None,
    ),
    (
        "qid_type",
        "qid_with_none",
        lambda: _curve(qid=[1, 1, None, 2, 2, 2]),
        (ValueError, TypeError),
        "qid",
        None,
    ),
    (
        "sparse",
        "y_true_sparse",
        lambda: _curve(sp.csr_matrix(Y_2D), S_2D, qid=None),
        (ValueError, TypeError),
        "y_true",
        None,
    ),
    (
        "weights",
        "weight_negative",
        lambda: _curve(sample_weight=-np.ones(6)),
        ValueError,
        "sample_weight has negative values",
        None,
    ),
    (
        "weights",
        "weight_all_zero",
        lambda: _curve(sample_weight=np.zeros(6)),
        ValueError,
        "sample_weight sums to zero",
        None,
    ),
    (
        "callable",
        "discount_callable_raises",
        lambda: _curve(discount=_raise),
        ValueError,
        "discount callable .* raised RuntimeError",
        None,
    ),
    (
        "huge",
        "exponential_overflow",
        lambda: _curve(y_true=Y_TRUE + 1100, gain="exponential"),
        ValueError,
        'gain="exponential" overflows float64',
        None,
    ),
    (
        "shape",
        "init_ndcg_length",
        lambda: NDCGCurveDisplay([1, 2, 3], [0.5, 0.6]),
        ValueError,
        r"ndcg needs one value per cutoff in k \(3\)",
        None,
    ),
    (
        "shape",
        "init_spread_shape",
        lambda: NDCGCurveDisplay([1, 2], [0.5, 0.6], spread=[0.4, 0.7]),
        ValueError,
        r"spread needs a lower and an upper edge per cutoff, shape \(2, 2\)",
        None,
    ),
    (
        "option",
        "plot_spread_without_spread",
        lambda: NDCGCurveDisplay([1, 2], [0.5, 0.6]).plot(show_spread=True),
        ValueError,
        "show_spread=True, but this display has no spread",
        None,
    ),
    (
        "option",
        "from_estimator_response_method",
        lambda: NDCGCurveDisplay.from_estimator(
            FITTED, X_DOCS, Y_TRUE, qid=QID, response_method="transform"
        ),
        ValueError,
        "response_method must be one of",
        None,
    ),
    (
        "option",
        "from_estimator_missing_method",
        lambda: NDCGCurveDisplay.from_estimator(
            FITTED, X_DOCS, Y_TRUE, qid=QID, response_method="decision_function"
        ),
        ValueError,
        "response_method='decision_function', but _FirstColumn has no",
        None,
    ),
    (
        "shape",
        "from_estimator_X_short",
        lambda: NDCGCurveDisplay.from_estimator(FITTED, X_DOCS[:3], Y_TRUE, qid=QID),
        ValueError,
        r"y_true has shape \(6,\) but y_score has shape \(3,\)",
        None,
    ),
    (
        "option",
        "from_estimator_not_fitted",
        lambda: NDCGCurveDisplay.from_estimator(Ridge(), X_DOCS, Y_TRUE, qid=QID),
        ValueError,
        "not fitted",
        None,
    ),
]:
    _add("NDCGCurveDisplay", case_class, case_id, call, exc, match, xfail)


@pytest.mark.parametrize("call, exception, match", CASES)
def test_bad_input(call, exception, match, capsys):
    check_bad_input(call, exception, match, capsys)
