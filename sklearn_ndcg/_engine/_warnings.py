"""The warnings the engine raises, without importing scikit-learn until one is raised.

``UndefinedMetricWarning`` is scikit-learn's own class
(:class:`sklearn.exceptions.UndefinedMetricWarning`), so that a user's filter on it
keeps working; importing scikit-learn takes longer than reading a typical TREC run,
so it is looked up only when asked for (a module ``__getattr__``, PEP 562) or when
:func:`warn_undefined` raises it.
"""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType
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


# the package's directory: the engine's parent
_PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def _user_stacklevel() -> int:
    """The ``stacklevel`` of the user's frame, for :func:`warnings.warn` called by the caller.

    The rule of ``sklearn_ndcg/_warn.py`` (which the engine may not import): past the
    package's frames, then past scikit-learn's and joblib's when a frame outside them
    lies beyond (a scorer called by a search), else the first frame outside the package.
    """
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    first_outside = level
    libraries = tuple(
        os.path.dirname(os.path.abspath(str(module.__file__))) + os.sep
        for module in map(sys.modules.get, ("sklearn", "joblib"))
        if module is not None and getattr(module, "__file__", None)
    )
    while frame is not None and libraries and frame.f_code.co_filename.startswith(libraries):
        frame, level = frame.f_back, level + 1
    return level if frame is not None else first_outside


def warn_undefined(message: str, stacklevel: int | None = None) -> None:
    """Warn with scikit-learn's ``UndefinedMetricWarning``, on the user's line.

    ``stacklevel`` counts from the caller of this function, as for
    :func:`warnings.warn` called there; by default, the user's frame (the first outside
    the package, see :func:`_user_stacklevel`).
    """
    level = _user_stacklevel() if stacklevel is None else stacklevel + 1
    warnings.warn(message, _undefined_metric_warning(), stacklevel=level)
