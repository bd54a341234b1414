"""The one place that imports private scikit-learn helpers.

``validate_params`` is the package's own decorator (:mod:`._validate_params`), which does
scikit-learn's checks with scikit-learn's constraints and messages at a cost per call
proportional to the arguments given.
"""

from numbers import Integral

import numpy as np
from sklearn.base import _fit_context
from sklearn.metrics._scorer import _Scorer
from sklearn.model_selection._split import GroupsConsumerMixin  # splitters requesting groups
from sklearn.utils import _safe_indexing
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    Options,
    StrOptions,
    validate_parameter_constraints,
)
from sklearn.utils.metadata_routing import _routing_enabled
from sklearn.utils.validation import _num_samples

from ._validate_params import InvalidParameterError, validate_params

# How to install an extra, for a user of a package index and of a checkout alike: the one
# form of every message that names an extra (the docs write it the same way).
INSTALL_HINT = 'pip install "sklearn-ndcg[{extra}]" (or pip install ".[{extra}]" from a checkout)'


class Integers(Interval):
    """``Interval(Integral, ...)`` that refuses booleans, which are Integral too."""

    def __init__(self, left, right=None, *, closed="left"):
        super().__init__(Integral, left, right, closed=closed)

    def is_satisfied_by(self, val):
        return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)


try:  # scikit-learn >= 1.6
    from sklearn.utils import get_tags
except ImportError:  # pragma: no cover - scikit-learn 1.4 and 1.5
    get_tags = None

try:  # scikit-learn < 1.6
    from sklearn.utils._tags import _safe_tags
except ImportError:
    _safe_tags = None

__all__ = [
    "GroupsConsumerMixin",
    "HasMethods",
    "Integers",
    "InvalidParameterError",
    "Interval",
    "Options",
    "StrOptions",
    "_fit_context",
    "_num_samples",
    "_routing_enabled",
    "_safe_indexing",
    "_safe_tags",
    "_Scorer",
    "get_tags",
    "validate_parameter_constraints",
    "validate_params",
]
