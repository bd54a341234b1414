"""``validate_params``: scikit-learn's decorator, with its per-call work done once.

scikit-learn's ``validate_params`` inspects the function's signature, binds the
arguments with ``Signature.bind`` and converts every constraint with
``make_constraint`` on each call. Here the signature, the names of the positional
parameters, the defaults and the constraint objects are computed once, at
decoration; a call binds its arguments into a dict and checks only the values that
are not a default already checked at decoration. Everything a caller sees is
scikit-learn's: a refused value is reported by scikit-learn's own
``validate_parameter_constraints`` (so the exception, ``InvalidParameterError``, and
the message text follow the installed scikit-learn), arguments that do not fit the
signature raise ``Signature.bind``'s ``TypeError``, the constraints are kept in
``_skl_parameter_constraints``, ``config_context(skip_parameter_validation=True)``
skips the checks, and with ``prefer_skip_nested_validation=True`` the public
functions called inside skip theirs (the outer call has validated).

This module and :mod:`._compat` (which re-exports the decorator) are the places that
import private scikit-learn helpers.
"""

from __future__ import annotations

import functools
import inspect
import re
from collections.abc import Callable
from numbers import Number
from typing import Any, TypeVar, cast

from sklearn import config_context, get_config
from sklearn.utils._param_validation import (
    InvalidParameterError,
    make_constraint,
    validate_parameter_constraints,
)

try:  # the dict that get_config copies and config_context changes (1.4 to 1.9 at least)
    from sklearn._config import _get_threadlocal_config
except ImportError:  # pragma: no cover - a scikit-learn without it: the public helpers
    _get_threadlocal_config = None

__all__ = ["InvalidParameterError", "validate_params"]

_F = TypeVar("_F", bound=Callable[..., Any])
_SKIP = "skip_parameter_validation"
_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def validate_params(
    parameter_constraints: dict[str, Any], *, prefer_skip_nested_validation: bool
) -> Callable[[_F], _F]:
    """Validate a function's arguments as scikit-learn's ``validate_params`` does.

    Parameters
    ----------
    parameter_constraints : dict
        ``{parameter name: list of constraints}``, as scikit-learn's decorator takes it
        (any constraint ``make_constraint`` accepts, or "no_validation").
    prefer_skip_nested_validation : bool
        If True, the functions and estimators that the decorated function calls skip
        their parameter validation.

    Returns
    -------
    decorator : callable
        The decorator.

    Examples
    --------
    >>> from numbers import Integral
    >>> from sklearn_ndcg._compat import Interval, validate_params
    >>> @validate_params(
    ...     {"k": [Interval(Integral, 1, None, closed="left")]},
    ...     prefer_skip_nested_validation=True,
    ... )
    ... def top(k):
    ...     return k
    >>> top(3)
    3
    >>> try:
    ...     top(0)
    ... except ValueError as error:  # InvalidParameterError, a ValueError and a TypeError
    ...     print(error)
    The 'k' parameter of top must be an int in the range [1, inf). Got 0 instead.
    """

    def decorator(func: _F) -> _F:
        # scikit-learn's name: its test of public functions reads the constraints here
        func._skl_parameter_constraints = parameter_constraints  # type: ignore[attr-defined]
        # the wrapper has func's signature (functools.wraps): type checkers see func's
        return cast(
            _F, _Validated(func, parameter_constraints, prefer_skip_nested_validation).wrapper
        )

    return decorator


class _Validated:
    """What a decorated function needs on each call, computed at decoration."""

    def __init__(self, func, parameter_constraints, prefer_skip_nested_validation: bool):
        self.func = func
        self.constraints = parameter_constraints
        self.name = func.__qualname__
        self.prefer_skip = bool(prefer_skip_nested_validation)
        self.signature = inspect.signature(func)
        parameters = self.signature.parameters.values()
        self.variadic = any(p.kind in _VARIADIC for p in parameters)
        named = [p for p in parameters if p.kind not in _VARIADIC]
        self.positional = tuple(p.name for p in named if p.kind in _POSITIONAL)
        self.keywords = frozenset(
            p.name for p in named if p.kind is not inspect.Parameter.POSITIONAL_ONLY
        )
        self.n_named = len(named)
        self.defaults = {p.name: p.default for p in named if p.default is not p.empty}
        # (name, constraint objects, default known to pass or a marker) in signature
        # order, the order in which scikit-learn checks and so reports the first refusal
        checks = []
        for p in named:
            if p.name in ("self", "cls") or p.name not in parameter_constraints:
                continue
            constraints = parameter_constraints[p.name]
            if isinstance(constraints, str) and constraints == "no_validation":
                continue
            objects = tuple(make_constraint(c) for c in constraints)
            passed = _UNCHECKED
            if p.default is not p.empty and _immutable(p.default):
                if any(c.is_satisfied_by(p.default) for c in objects):
                    passed = p.default
            checks.append((p.name, objects, passed))
        self.checks = tuple(checks)
        self.wrapper = functools.wraps(func)(self.make_wrapper())

    def make_wrapper(self):
        """The function that replaces ``func``: check, then call with nested checks off."""
        func, bind, checks, name = self.func, self.bind, self.checks, self.name
        constraints_of, prefer_skip = self.constraints, self.prefer_skip

        def wrapper(*args, **kwargs):
            config = _config()
            if config[_SKIP]:
                return func(*args, **kwargs)
            values = bind(args, kwargs)
            for param, constraints, passed in checks:
                value = values[param]
                if value is passed:
                    continue
                for constraint in constraints:
                    if constraint.is_satisfied_by(value):
                        break
                else:  # scikit-learn's own function raises, with its message
                    validate_parameter_constraints(constraints_of, {param: value}, name)
            try:
                if not prefer_skip:
                    return func(*args, **kwargs)
                with _skipping(config):
                    return func(*args, **kwargs)
            except InvalidParameterError as e:
                # as scikit-learn's decorator: an inner refusal is reported under this name
                message = re.sub(
                    r"parameter of \w+ must be", f"parameter of {name} must be", str(e)
                )
                raise InvalidParameterError(message) from e

        return wrapper

    def bind(self, args: tuple, kwargs: dict) -> dict:
        """The arguments by name, defaults included, as ``Signature.bind`` maps them."""
        positional = self.positional
        if self.variadic or len(args) > len(positional):
            return self.bind_slowly(args, kwargs)
        values = dict(self.defaults)
        values.update(zip(positional, args))
        if kwargs:
            keywords = self.keywords
            given = positional[: len(args)]
            for key in kwargs:
                if key not in keywords or key in given:
                    return self.bind_slowly(args, kwargs)
            values.update(kwargs)
        if len(values) < self.n_named:  # a required argument is missing
            return self.bind_slowly(args, kwargs)
        return values

    def bind_slowly(self, args: tuple, kwargs: dict) -> dict:
        """``Signature.bind``: its TypeError for arguments that do not fit, as scikit-learn."""
        bound = self.signature.bind(*args, **kwargs)
        bound.apply_defaults()
        return {
            name: value
            for name, value in bound.arguments.items()
            if self.signature.parameters[name].kind not in _VARIADIC
        }


class _Unchecked:
    """The marker of a parameter whose default is checked on every call."""


_UNCHECKED = _Unchecked()


def _immutable(value) -> bool:
    """Whether a default keeps the verdict it had at decoration (None, str, number)."""
    return value is None or isinstance(value, (str, bytes, Number, type))


if _get_threadlocal_config is not None:
    _config = _get_threadlocal_config

    class _skipping:
        """``config_context(skip_parameter_validation=True)`` entered where it was False."""

        __slots__ = ("config",)

        def __init__(self, config):
            self.config = config

        def __enter__(self):
            self.config[_SKIP] = True

        def __exit__(self, *exc_info):
            self.config[_SKIP] = False

else:  # pragma: no cover - through the public helpers, as scikit-learn's decorator

    def _config():
        return get_config()

    def _skipping(config):  # type: ignore[no-redef]  # the other branch's class, as a function
        return config_context(skip_parameter_validation=True)
