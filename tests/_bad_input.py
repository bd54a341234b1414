"""The bad-input convention, shared by the ``test_*_bad_input.py`` files of each feature.

Each row calls one entry point with one bad input and expects a ``ValueError``
or ``TypeError`` whose message names the argument (the demo's command line
instead exits with status 2 and says what is wrong on stderr, as argparse
does). No row may end in an ``IndexError``, a numpy internal error, a silent
NaN or a number. A feature's file builds its ``CASES`` with :func:`add_case`
and runs them with :func:`check_bad_input`; ``tests/common/test_bad_input.py``
guards the total.
"""

import re

import numpy as np
import pytest
from sklearn.base import BaseEstimator, RegressorMixin

Y_TRUE = np.array([3, 2, 0, 1, 0, 2])
Y_SCORE = np.array([0.9, 0.1, 0.5, 0.4, 0.3, 0.2])
QID = np.array([7, 7, 7, 8, 8, 8])
LONG = {"qid": QID}
Y_2D = [[3, 2, 1, 0], [0, 1, 2, 0]]
S_2D = [[0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4]]


def _raise(_):
    raise RuntimeError("inside the callable")


class _FirstColumn(RegressorMixin, BaseEstimator):
    """A fitted regressor whose prediction is the first column of X."""

    def fit(self, X, y):
        self.n_features_in_ = np.asarray(X).shape[1]
        return self

    def predict(self, X):
        return np.asarray(X, dtype=float)[:, 0]


X_DOCS = Y_SCORE[:, np.newaxis]  # _FirstColumn predicts Y_SCORE from it
FITTED = _FirstColumn().fit(X_DOCS, Y_TRUE)


def add_case(cases, entry, case_class, case_id, thunk, exception, match, xfail=None):
    """Append one row, with id ``entry-case_class-case_id``, to ``cases``."""
    marks = [pytest.mark.xfail(strict=True, reason=xfail)] if xfail else []
    cases.append(
        pytest.param(thunk, exception, match, marks=marks, id=f"{entry}-{case_class}-{case_id}")
    )


def check_bad_input(call, exception, match, capsys):
    """Run one row: the exception type and message it expects, and nothing worse."""
    if exception is SystemExit:
        with pytest.raises(SystemExit) as info:
            call()
        assert info.value.code == 2
        assert re.search(match, capsys.readouterr().err), "stderr does not explain"
        return
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    error = info.value
    # never an IndexError (numpy's AxisError is both), nor numpy's own errors
    assert not isinstance(error, IndexError), repr(error)
    assert not type(error).__module__.startswith("numpy"), repr(error)
    assert isinstance(error, exception), repr(error)
    assert re.search(match, str(error)), f"{match!r} not in {str(error)!r}"
