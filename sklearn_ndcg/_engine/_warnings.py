"""The warnings the engine raises, without importing scikit-learn until one is raised.

``UndefinedMetricWarning`` is scikit-learn's own class
(:class:`sklearn.exceptions.UndefinedMetricWarning`), so that a user's filter on it
keeps working; importing scikit-learn takes longer than reading a typical TREC run,
so it is looked up only when asked for (a module ``__getattr__``, PEP 562) or when
:func:`warn_undefined` raises it.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sklearn.exceptions import UndefinedMetricWarning

__all__ = ["UndefinedMetricWarning", "warn_undefined"]


def _undefined_metric_warning() -> type[Warning]:
    from sklearn.exceptions import UndefinedMetricWarning

    return UndefinedMetricWarning


def __getattr__(name: str):
    if name == "UndefinedMetricWarning":
        return _undefined_metric_warning()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def warn_undefined(message: str, stacklevel: int) -> None:
    """Warn with scikit-learn's ``UndefinedMetricWarning``.

    ``stacklevel`` counts from the caller of this function, as for
    :func:`warnings.warn` called there.
    """
    warnings.warn(message, _undefined_metric_warning(), stacklevel=stacklevel + 1)
