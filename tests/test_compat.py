"""_compat: the version shims; the one integer constraint of the package (_validate_params)."""

import numpy as np
import pytest
import sklearn

from sklearn_ndcg._compat import INSTALL_HINT, _safe_tags, get_tags
from sklearn_ndcg._validate_params import Integers, sklearn_constraints

SKLEARN_VERSION = tuple(int(part) for part in sklearn.__version__.split(".")[:2])


@pytest.mark.parametrize(
    "value, ok",
    [
        (1, True),
        (np.int64(7), True),
        (0, False),  # below the interval
        (2.0, False),  # a float, not an integer
        (True, False),  # bool is Integral, but never a count
        (np.bool_(True), False),
    ],
)
def test_integers_refuse_booleans(value, ok):
    assert Integers(1, None).is_satisfied_by(value) is ok
    # and so does its scikit-learn form, which estimators check with
    (theirs,) = sklearn_constraints({"k": [Integers(1, None)]})["k"]
    assert theirs.is_satisfied_by(value) is ok


def test_a_way_to_read_tags_on_every_version():
    # scikit-learn 1.6 added get_tags; before it, tags are read with _safe_tags
    assert (get_tags is not None) == (SKLEARN_VERSION >= (1, 6))
    assert get_tags is not None or _safe_tags is not None


def test_install_hint_names_the_extra_for_an_index_and_a_checkout():
    assert INSTALL_HINT.format(extra="plot") == (
        'pip install "sklearn-ndcg[plot]" (or pip install ".[plot]" from a checkout)'
    )
