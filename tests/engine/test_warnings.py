"""The engine's warnings are scikit-learn's classes, looked up only when needed; the
engine imports neither scikit-learn nor scipy, and still refuses sparse input."""

import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ndcg import ndcg_score
from sklearn_ndcg._engine import _warnings
from sklearn_ndcg._engine._validation import check_qid


def test_undefined_metric_warning_is_scikit_learns():
    assert _warnings.UndefinedMetricWarning is UndefinedMetricWarning
    assert issubclass(_warnings.UndefinedMetricWarning, UserWarning)


def test_unknown_attribute():
    with pytest.raises(AttributeError, match="no attribute 'OtherWarning'"):
        _warnings.OtherWarning  # noqa: B018


def test_warn_undefined_points_at_the_caller():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        _warnings.warn_undefined("undefined here", stacklevel=1)
    (warning,) = caught
    assert warning.category is UndefinedMetricWarning
    assert str(warning.message) == "undefined here"
    assert warning.filename == __file__


def test_metric_warns_with_scikit_learns_class():
    # one query without a relevant document, its NDCG left out: nothing is left
    with pytest.warns(UndefinedMetricWarning, match="every query was left out"):
        assert np.isnan(ndcg_score([[0, 0]], [[1, 2]], zero_division=np.nan))


def test_engine_imports_neither_scikit_learn_nor_scipy():
    code = (
        "import sys, sklearn_ndcg._engine._pipeline, sklearn_ndcg._engine._pool\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & {'sklearn', 'scipy'}))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "[]", result.stderr


def test_sparse_query_ids_are_still_refused():
    with pytest.raises(TypeError, match="qid is a sparse matrix"):
        check_qid(sp.csr_matrix(np.ones((1, 3))), 3)
