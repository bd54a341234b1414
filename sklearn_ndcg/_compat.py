"""The one place that imports private scikit-learn helpers."""

from sklearn.base import _fit_context
from sklearn.utils import _safe_indexing
from sklearn.utils._param_validation import (
    HasMethods,
    Interval,
    Options,
    StrOptions,
    validate_params,
)
from sklearn.utils.metadata_routing import _routing_enabled

try:  # scikit-learn >= 1.6
    from sklearn.utils import get_tags
except ImportError:  # pragma: no cover - scikit-learn 1.4 and 1.5
    get_tags = None

try:  # scikit-learn < 1.6
    from sklearn.utils._tags import _safe_tags
except ImportError:
    _safe_tags = None

__all__ = [
    "HasMethods",
    "Interval",
    "Options",
    "StrOptions",
    "_fit_context",
    "_routing_enabled",
    "_safe_indexing",
    "_safe_tags",
    "get_tags",
    "validate_params",
]
