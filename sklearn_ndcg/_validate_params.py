"""``validate_params``: scikit-learn's decorator, with its per-call work done once and
scikit-learn imported only when a value is refused.

scikit-learn's ``validate_params`` inspects the function's signature, binds the
arguments with ``Signature.bind`` and converts every constraint with
``make_constraint`` on each call. Here the signature, the names of the positional
parameters, the defaults and one predicate per constraint are computed once, at
decoration; a call binds its arguments into a dict and checks only the values that
are not a default already checked at decoration.

The constraints are this module's :class:`Interval`, :class:`Integers`,
:class:`Options`, :class:`StrOptions` and :class:`HasMethods` (scikit-learn's classes of
the same names, same arguments, same verdicts) and scikit-learn's strings, types,
``None`` and ``callable``. A value is accepted here only where scikit-learn's own
constraint surely accepts it; every other value goes to scikit-learn, imported then:
its constraint objects (:func:`sklearn_constraints`) give the verdict and its own
``validate_parameter_constraints`` the refusal, so the exception,
``InvalidParameterError``, and the message text follow the installed scikit-learn.
Arguments that do not fit the signature raise ``Signature.bind``'s ``TypeError``, the
constraints are kept in ``_skl_parameter_constraints``,
``config_context(skip_parameter_validation=True)`` skips the checks, and with
``prefer_skip_nested_validation=True`` the public functions called inside skip theirs
(the outer call has validated).

So a module whose checks are all accepted never imports scikit-learn:
``evaluate_run``, the TREC readers and ``RelevanceEvaluator`` cost numpy's import only,
as the ``trec-eval`` command does. This module and :mod:`._compat` are the places that
import private scikit-learn helpers (here only when a value is refused, when an
estimator's constraints are converted, and scikit-learn's configuration once it is
imported).
"""

from __future__ import annotations

import functools
import inspect
import math
import re
import sys
from collections.abc import Callable
from numbers import Integral, Number, Real
from typing import Any, TypeVar, cast

import numpy as np

__all__ = [
    "HasMethods",
    "Integers",
    "Interval",
    "Options",
    "StrOptions",
    "check_parameters",
    "sklearn_constraints",
    "validate_params",
]

_F = TypeVar("_F", bound=Callable[..., Any])
_SKIP = "skip_parameter_validation"
_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


class _Constraint:
    """A constraint of scikit-learn's, described without importing scikit-learn."""

    def is_satisfied_by(self, val) -> bool:  # pragma: no cover - each class has its own
        raise NotImplementedError

    def to_sklearn(self, skv):
        """scikit-learn's constraint object (``skv``: its ``_param_validation`` module)."""
        raise NotImplementedError  # pragma: no cover

    def __repr__(self) -> str:
        fields = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({fields})"


class Options(_Constraint):
    """scikit-learn's ``Options``: a finite set of instances of ``type``."""

    def __init__(self, type, options, *, deprecated=None):
        self.type = type
        self.options = options
        self.deprecated = deprecated or set()

    def is_satisfied_by(self, val) -> bool:
        return isinstance(val, self.type) and val in self.options

    def to_sklearn(self, skv):
        return skv.Options(self.type, self.options, deprecated=self.deprecated)


class StrOptions(Options):
    """scikit-learn's ``StrOptions``: a finite set of strings."""

    def __init__(self, options, *, deprecated=None):
        super().__init__(str, options, deprecated=deprecated)

    def to_sklearn(self, skv):
        return skv.StrOptions(self.options, deprecated=self.deprecated)


class Interval(_Constraint):
    """scikit-learn's ``Interval`` of ``type`` (``numbers.Integral`` or ``numbers.Real``)."""

    def __init__(self, type, left, right, *, closed):
        self.type = type
        self.left = left
        self.right = right
        self.closed = closed

    def is_satisfied_by(self, val) -> bool:
        if not isinstance(val, self.type):
            return False
        if not isinstance(val, Integral) and np.isnan(val):
            return False
        left = -np.inf if self.left is None else self.left
        right = np.inf if self.right is None else self.right
        if val < left or (val == left and self.closed in ("right", "neither")):
            return False
        return not (val > right or (val == right and self.closed in ("left", "neither")))

    def to_sklearn(self, skv):
        return skv.Interval(self.type, self.left, self.right, closed=self.closed)


class Integers(Interval):
    """``Interval(Integral, ...)`` that refuses booleans, which are Integral too."""

    def __init__(self, left, right=None, *, closed="left"):
        super().__init__(Integral, left, right, closed=closed)

    def is_satisfied_by(self, val) -> bool:
        return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)

    def to_sklearn(self, skv):
        return _sklearn_integers(skv)(self.left, self.right, closed=self.closed)


class HasMethods(_Constraint):
    """scikit-learn's ``HasMethods``: objects with these methods."""

    def __init__(self, methods):
        self.methods = [methods] if isinstance(methods, str) else methods

    def is_satisfied_by(self, val) -> bool:
        return all(callable(getattr(val, method, None)) for method in self.methods)

    def to_sklearn(self, skv):
        return skv.HasMethods(self.methods)


@functools.cache
def _sklearn_integers(skv):
    class Integers(skv.Interval):
        """scikit-learn's ``Interval(Integral, ...)`` refusing booleans."""

        def __init__(self, left, right=None, *, closed="left"):
            super().__init__(Integral, left, right, closed=closed)

        def is_satisfied_by(self, val):
            return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)

    return Integers


def _sklearn_validation():
    """scikit-learn's ``_param_validation`` module, imported at the first need."""
    from sklearn.utils import _param_validation

    return _param_validation


def sklearn_constraints(constraints: dict) -> dict:
    """``{name: constraints}`` with this module's classes as scikit-learn's objects.

    For what reads constraints with scikit-learn's own functions: an estimator's
    ``_parameter_constraints`` and scikit-learn's test of public functions.
    """
    skv = _sklearn_validation()
    return {
        name: value if isinstance(value, str) else [_to_sklearn(c, skv) for c in value]
        for name, value in constraints.items()
    }


def _to_sklearn(constraint, skv):
    if isinstance(constraint, _Constraint):
        return constraint.to_sklearn(skv)
    if isinstance(constraint, skv.Hidden):  # scikit-learn's wrapper of one of ours
        return skv.Hidden(_to_sklearn(constraint.constraint, skv))
    return constraint


def check_parameters(constraints: dict, values: dict, caller_name: str) -> None:
    """scikit-learn's ``validate_parameter_constraints`` of this module's constraints."""
    _sklearn_validation().validate_parameter_constraints(
        sklearn_constraints(constraints), values, caller_name
    )


def _never(val) -> bool:
    return False


def _array_like(val) -> bool:
    """scikit-learn's "array-like", where it surely holds (sparse matrices go to it)."""
    if not (hasattr(val, "__len__") or hasattr(val, "shape") or hasattr(val, "__array__")):
        return False
    return not np.isscalar(val) and not type(val).__module__.startswith("scipy.sparse")


def _boolean(val) -> bool:
    return isinstance(val, (bool, np.bool_))


def _nan(val) -> bool:
    return not isinstance(val, Integral) and isinstance(val, Real) and math.isnan(val)


def _random_state(val) -> bool:
    if val is None or isinstance(val, np.random.RandomState):
        return True
    return isinstance(val, Integral) and 0 <= int(val) <= 2**32 - 1


_STRINGS = {
    "array-like": _array_like,
    "boolean": _boolean,
    "nan": _nan,
    "random_state": _random_state,
}


def _predicate(constraint) -> Callable[[Any], bool]:
    """True where scikit-learn's constraint surely accepts a value; False sends the
    value to scikit-learn (other strings, scikit-learn's own objects)."""
    if isinstance(constraint, _Constraint):
        return constraint.is_satisfied_by
    if constraint is None:
        return _is_none
    if constraint is callable:
        return callable
    if isinstance(constraint, type):
        return functools.partial(_instance_of, kind=constraint)
    if isinstance(constraint, str):
        return _STRINGS.get(constraint, _never)
    return getattr(constraint, "is_satisfied_by", _never)


def _is_none(val) -> bool:
    return val is None


def _instance_of(val, kind) -> bool:
    return isinstance(val, kind)


def validate_params(
    parameter_constraints: dict[str, Any], *, prefer_skip_nested_validation: bool
) -> Callable[[_F], _F]:
    """Validate a function's arguments as scikit-learn's ``validate_params`` does.

    Parameters
    ----------
    parameter_constraints : dict
        ``{parameter name: list of constraints}``, as scikit-learn's decorator takes it
        (this module's constraint classes, any other constraint ``make_constraint``
        accepts, or "no_validation").
    prefer_skip_nested_validation : bool
        If True, the functions and estimators that the decorated function calls skip
        their parameter validation.

    Returns
    -------
    decorator : callable
        The decorator.

    Examples
    --------
    >>> from sklearn_ndcg._validate_params import Integers, validate_params
    >>> @validate_params({"k": [Integers(1)]}, prefer_skip_nested_validation=True)
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
        # (through sklearn_constraints)
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
        # (name, predicates, default known to pass or a marker) in signature order, the
        # order in which scikit-learn checks and so reports the first refusal
        checks = []
        for p in named:
            if p.name in ("self", "cls") or p.name not in parameter_constraints:
                continue
            constraints = parameter_constraints[p.name]
            if isinstance(constraints, str) and constraints == "no_validation":
                continue
            predicates = tuple(_predicate(c) for c in constraints)
            passed = _UNCHECKED
            if p.default is not p.empty and _immutable(p.default):
                if any(accepts(p.default) for accepts in predicates):
                    passed = p.default
            checks.append((p.name, predicates, passed))
        self.checks = tuple(checks)
        self.wrapper = functools.wraps(func)(self.make_wrapper())

    def make_wrapper(self):
        """The function that replaces ``func``: check, then call with nested checks off."""
        func, bind, checks, name = self.func, self.bind, self.checks, self.name
        prefer_skip, check_slowly = self.prefer_skip, self.check_slowly

        def wrapper(*args, **kwargs):
            config = _config()
            if config[_SKIP]:
                return func(*args, **kwargs)
            values = bind(args, kwargs)
            for param, predicates, passed in checks:
                value = values[param]
                if value is passed:
                    continue
                for accepts in predicates:
                    if accepts(value):
                        break
                else:  # scikit-learn's verdict, and its refusal
                    check_slowly(param, value)
            try:
                if not prefer_skip:
                    return func(*args, **kwargs)
                with _skipping(config):
                    return func(*args, **kwargs)
            except (ValueError, TypeError) as e:
                # as scikit-learn's decorator: an inner refusal is reported under this name
                validation = sys.modules.get("sklearn.utils._param_validation")
                if validation is None or not isinstance(e, validation.InvalidParameterError):
                    raise
                message = re.sub(
                    r"parameter of \w+ must be", f"parameter of {name} must be", str(e)
                )
                raise validation.InvalidParameterError(message) from e

        return wrapper

    def check_slowly(self, param: str, value) -> None:
        """scikit-learn's check of a value the predicates did not surely accept."""
        if not any(c.is_satisfied_by(value) for c in self.made[param]):
            check_parameters({param: self.constraints[param]}, {param: value}, self.name)

    @functools.cached_property
    def made(self) -> dict:
        """scikit-learn's constraint objects of each parameter, made at the first need."""
        skv = _sklearn_validation()
        return {
            name: [skv.make_constraint(c) for c in constraints]
            for name, constraints in sklearn_constraints(self.constraints).items()
            if not isinstance(constraints, str)
        }

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


def _config() -> dict:
    """scikit-learn's thread-local configuration, the dict that ``config_context``
    changes; where scikit-learn is not imported, nothing can have set it: a default."""
    module = sys.modules.get("sklearn._config")
    if module is None:
        return {_SKIP: False}
    local = getattr(module, "_get_threadlocal_config", None)  # 1.4 to 1.9 at least
    # without it, a copy (get_config): read right, and the nested functions check again
    return local() if local is not None else module.get_config()  # pragma: no branch


class _skipping:
    """``skip_parameter_validation`` set for the call, in the dict it was False in."""

    __slots__ = ("config",)

    def __init__(self, config):
        self.config = config

    def __enter__(self):
        self.config[_SKIP] = True

    def __exit__(self, *exc_info):
        self.config[_SKIP] = False
