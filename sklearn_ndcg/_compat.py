"""The one place that imports private scikit-learn helpers, but for parameter validation.

The constraints and the ``validate_params`` decorator are :mod:`._validate_params`'s: it
imports scikit-learn's private ``_param_validation`` only where it is needed (a value
refused, an estimator's constraints converted), so that checked calls of the TREC tools
never import scikit-learn.
"""

from sklearn.base import _fit_context
from sklearn.metrics._scorer import _Scorer
from sklearn.model_selection._split import GroupsConsumerMixin  # splitters requesting groups
from sklearn.utils import _safe_indexing
from sklearn.utils.metadata_routing import _routing_enabled
from sklearn.utils.validation import _num_samples

# How to install an extra, for a user of a package index and of a checkout alike: the one
# form of every message that names an extra (the docs write it the same way).
INSTALL_HINT = 'pip install "sklearn-ndcg[{extra}]" (or pip install ".[{extra}]" from a checkout)'

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
    "INSTALL_HINT",
    "_fit_context",
    "_num_samples",
    "_routing_enabled",
    "_safe_indexing",
    "_safe_tags",
    "_Scorer",
    "get_tags",
]
