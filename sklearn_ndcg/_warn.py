"""Warnings attributed to the user's line, however deep in the package they are raised.

Python shows a warning once per line it is attributed to (the default filter), so a
warning attributed to a line of the package is shown once per process: a second call
from another line of the user's script would be silent. :func:`warn` walks the stack
past the package's own frames (and past scikit-learn's and joblib's, when a user's
frame lies beyond them, as for a scorer called by ``GridSearchCV``) and warns with the
``stacklevel`` of the first frame outside them.

The engine (``_engine/``), which imports nothing else of the package, applies the same
rule to its one warning (``_engine/_aggregate.py``).
"""

from __future__ import annotations

import os
import sys
import warnings
from types import FrameType

__all__ = ["user_stacklevel", "warn"]

_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _library_dirs() -> tuple[str, ...]:
    """The directories of scikit-learn and joblib, whose frames may stand between."""
    dirs = []
    for name in ("sklearn", "joblib"):
        module = sys.modules.get(name)
        path = getattr(module, "__file__", None)
        if path:
            dirs.append(os.path.dirname(os.path.abspath(path)) + os.sep)
    return tuple(dirs)


def user_stacklevel() -> int:
    """The ``stacklevel`` of the user's frame, for :func:`warnings.warn` called by the caller.

    The first frame outside the package is the user's, unless scikit-learn's or joblib's
    frames follow it and a frame outside all three lies beyond them; a stack without
    such a frame (a joblib worker's) gives the first frame outside the package.
    """
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    first_outside = level
    libraries = _library_dirs()
    while frame is not None and libraries and frame.f_code.co_filename.startswith(libraries):
        frame, level = frame.f_back, level + 1
    return level if frame is not None else first_outside


def warn(message: str, category: type[Warning] = UserWarning) -> None:
    """:func:`warnings.warn`, attributed to the user's line (see :func:`user_stacklevel`)."""
    warnings.warn(message, category, stacklevel=user_stacklevel())
