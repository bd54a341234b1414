"""validate_params: scikit-learn's decorator's behaviour, with its per-call work done once
and scikit-learn imported only for a refusal.

The reference is scikit-learn's own ``validate_params``, applied to the same function
(with the package's constraints as scikit-learn's objects, ``sklearn_constraints``):
every refusal must raise the same exception class with the same message, and
``skip_parameter_validation`` and ``prefer_skip_nested_validation`` must act the same.
The package's constraint classes give scikit-learn's verdicts; what they accept without
scikit-learn, scikit-learn accepts.
"""

import importlib
import inspect
import pickle
from numbers import Integral, Real

import numpy as np
import pytest
from sklearn import config_context, get_config
from sklearn.utils import _param_validation as sk_validation
from sklearn.utils._param_validation import Hidden, InvalidParameterError, MissingValues

import sklearn_ndcg
from sklearn_ndcg._validate_params import (
    HasMethods,
    Integers,
    Interval,
    Options,
    StrOptions,
    _predicate,
    sklearn_constraints,
    validate_params,
)


def _sklearn_decorator(constraints, **kwargs):
    return sk_validation.validate_params(sklearn_constraints(constraints), **kwargs)


DECORATORS = {"package": validate_params, "scikit-learn": _sklearn_decorator}

# one parameter per constraint kind; each row: constraints, then values that break them
CONSTRAINT_KINDS = {
    "interval": ([Interval(Integral, 1, None, closed="left")], [0, -3, 2.5, "3", None]),
    "closed_real": ([Interval(Real, 0, 1, closed="both"), None], [1.5, -0.1, np.inf, "x"]),
    "integers": ([Integers(1), None], [True, 0, 1.0]),
    "str_options": ([StrOptions({"a", "b"})], ["c", 1, None, ["a"]]),
    "deprecated": ([StrOptions({"a", "old"}, deprecated={"old"})], ["z"]),
    "callable": ([callable], [1, "f", None]),
    "none_or_array": (["array-like", None], [1, "text", 3.5]),
    "boolean": (["boolean"], [1, "yes", None, 0.0]),
    "integral_type": ([Integral], [1.0, "1", None]),
    "real_type": ([Real, str], [None, [1.0], object()]),
    "has_methods": ([HasMethods(["fit", "predict"])], [1, object(), "fit"]),
    "options": ([Options(Real, {0.0, 1.0}), "nan"], [0.5, "0", None, 2]),
    "hidden": ([StrOptions({"x"}), Hidden(StrOptions({"secret"}))], ["y", 1]),
    "random_state": (["random_state"], ["seed", 1.5]),
    "sparse": (["sparse matrix", None], [np.zeros((2, 2)), 1]),
    "verbose": (["verbose"], [-1, "loud"]),
    "cv": (["cv_object"], ["five", 1.5]),
    "missing": ([MissingValues(numeric_only=True)], ["x", None]),
    "mapping_type": ([dict, list, None], [(1, 2), "d"]),
}
CONSTRAINTS = {name: constraints for name, (constraints, _) in CONSTRAINT_KINDS.items()}
VALID = {  # a value each parameter accepts
    "interval": 1,
    "closed_real": 0.5,
    "integers": 2,
    "str_options": "a",
    "deprecated": "a",
    "callable": len,
    "none_or_array": None,
    "boolean": True,
    "integral_type": 3,
    "real_type": 1.0,
    "has_methods": sklearn_ndcg,  # replaced below by an object with fit and predict
    "options": 1.0,
    "hidden": "x",
    "random_state": None,
    "sparse": None,
    "verbose": 0,
    "cv": 5,
    "missing": np.nan,
    "mapping_type": None,
}


class _Model:
    def fit(self):
        return self

    def predict(self):
        return None


VALID["has_methods"] = _Model()
BAD_VALUES = [(name, value) for name, (_, values) in CONSTRAINT_KINDS.items() for value in values]


def _target(*names, defaults=None):
    """A function of keyword parameters ``names`` that returns its arguments."""
    defaults = defaults or {}
    parameters = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=defaults.get(name, None))
        for name in names
    ]

    def target(**kwargs):
        return kwargs

    target.__signature__ = inspect.Signature(parameters)
    return target


def _both(func_factory, constraints, **decorator_kwargs):
    """The same function decorated by the package's and by scikit-learn's decorator."""
    decorator_kwargs.setdefault("prefer_skip_nested_validation", True)
    return {
        name: decorate(constraints, **decorator_kwargs)(func_factory())
        for name, decorate in DECORATORS.items()
    }


def _outcome(func, *args, **kwargs):
    try:
        return "returned", func(*args, **kwargs)
    except Exception as error:  # the class and the message are what is compared
        return type(error), str(error)


def _three(first, second, third, *, k=1, ties="average", weight=None):
    return first, second, third, k, ties, weight


THREE_CONSTRAINTS = {
    "first": ["array-like"],
    "second": ["array-like"],
    "third": [Interval(Real, 0, None, closed="left"), None],
    "k": [Integers(1), None],
    "ties": [StrOptions({"average", "first"})],
    "weight": ["array-like", None],
}


@pytest.mark.parametrize("name, value", BAD_VALUES)
def test_the_same_refusal_as_scikit_learn(name, value):
    functions = _both(lambda: _target(*CONSTRAINTS, defaults=VALID), CONSTRAINTS)
    ours, theirs = (_outcome(f, **{**VALID, name: value}) for f in functions.values())
    assert theirs[0] is InvalidParameterError, theirs  # the table holds refused values
    assert ours == theirs


@pytest.mark.parametrize("name", list(CONSTRAINTS))
def test_the_same_acceptance_as_scikit_learn(name):
    functions = _both(lambda: _target(*CONSTRAINTS, defaults=VALID), CONSTRAINTS)
    ours, theirs = (_outcome(f, **{**VALID, name: VALID[name]}) for f in functions.values())
    assert ours == theirs == ("returned", VALID)


@pytest.mark.parametrize(
    "args, kwargs",
    [
        (([1], [2], 0.5), {}),  # positional, defaults applied
        (([1], [2]), {"third": None, "k": 3}),
        (([1],), {"second": [2], "third": 2.0}),
        (([1], [2], -1.0), {}),  # refused, positionally
        (([1], [2], 1.0), {"k": 0}),  # the first refusal in signature order
        (([1], [2], "x"), {"k": 0, "ties": "z"}),
        (([1], [2]), {"third": 1.0, "ties": "z", "k": True}),
        ((1, [2], 1.0), {}),
        (([1], [2]), {}),  # a required argument missing: Signature.bind's TypeError
        (([1], [2], 1.0, 4), {}),  # too many positional arguments
        (([1], [2], 1.0), {"first": [3]}),  # one argument twice
        (([1], [2], 1.0), {"unknown": 1}),
        ((), {"first": [1], "second": [2], "third": 1.0, "k": None}),
    ],
)
def test_binding_as_scikit_learn(args, kwargs):
    functions = _both(lambda: _three, THREE_CONSTRAINTS)
    ours, theirs = (_outcome(f, *args, **kwargs) for f in functions.values())
    assert ours == theirs


def test_a_default_that_breaks_its_constraint_is_still_checked():
    def f(option="zzz", count=[]):  # noqa: B006 - a mutable default, checked on each call
        return option, count

    constraints = {"option": [StrOptions({"a"})], "count": [list]}
    functions = _both(lambda: f, constraints)
    ours, theirs = (_outcome(g) for g in functions.values())
    assert theirs[0] is InvalidParameterError
    assert ours == theirs


def test_decorated_function_keeps_its_name_doc_and_constraints():
    decorated = validate_params(THREE_CONSTRAINTS, prefer_skip_nested_validation=True)(_three)
    assert decorated.__name__ == "_three"
    assert decorated.__wrapped__ is _three
    assert decorated._skl_parameter_constraints is THREE_CONSTRAINTS
    assert inspect.signature(decorated) == inspect.signature(_three)


def _count(monkeypatch, module, name):
    calls = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def test_no_constraint_is_made_at_decoration_nor_per_accepted_call(monkeypatch):
    made = _count(monkeypatch, sk_validation, "make_constraint")
    decorated = validate_params(THREE_CONSTRAINTS, prefer_skip_nested_validation=True)(_three)
    for _ in range(5):
        decorated([1], [2], 1.0, k=3, ties="first", weight=[1])
    assert made == []
    # a refusal: scikit-learn's constraint objects, made once and kept
    with pytest.raises(InvalidParameterError):
        decorated([1], [2], 1.0, k=0)
    assert made
    # the reference: scikit-learn's decorator makes every constraint on every call
    made.clear()
    _sklearn_decorator(THREE_CONSTRAINTS, prefer_skip_nested_validation=True)(_three)([1], [2], 1.0)
    assert len(made) == sum(map(len, THREE_CONSTRAINTS.values()))


def test_public_function_neither_makes_constraints_nor_inspects_per_call(monkeypatch):
    y_true, y_score = [[3, 2, 0, 1]], [[0.4, 0.3, 0.2, 0.1]]
    expected = sklearn_ndcg.ndcg_score(y_true, y_score, k=3)  # loads the module first
    made_by_sklearn = _count(monkeypatch, sk_validation, "make_constraint")
    signatures = _count(monkeypatch, inspect, "signature")
    bindings = _count(monkeypatch, inspect.Signature, "bind")
    assert sklearn_ndcg.ndcg_score(y_true, y_score, k=3, ties="first", qid=None) == expected
    assert sklearn_ndcg.dcg_score(y_true, y_score, gain="exponential") > 0
    assert made_by_sklearn == signatures == bindings == []
    # a refused value is reported by scikit-learn's own function, which makes its constraints
    with pytest.raises(InvalidParameterError, match="'k' parameter of ndcg_score"):
        sklearn_ndcg.ndcg_score(y_true, y_score, k=0)
    assert made_by_sklearn


def _every_package_constraint():
    """Each constraint of a validated public function of the package and of this file."""
    functions = []
    for module in ("sklearn_ndcg", "sklearn_ndcg.dask", "sklearn_ndcg.spark"):
        for name in importlib.import_module(module).__all__:
            try:  # the names of sklearn_ndcg.spark load where pyspark is installed
                functions.append(getattr(importlib.import_module(module), name))
            except ImportError:
                pass
    tables = [getattr(f, "_skl_parameter_constraints", {}) for f in functions]
    tables += [CONSTRAINTS, THREE_CONSTRAINTS]
    seen = {}
    for table in tables:
        for constraints in table.values():
            if not isinstance(constraints, str):
                for constraint in constraints:
                    seen.setdefault(_describe(constraint), constraint)
    return [pytest.param(seen[name], id=name) for name in sorted(seen)]


def _describe(constraint) -> str:
    """A name of the constraint that is the same in every process (test ids)."""
    if isinstance(constraint, Options):
        return f"{type(constraint).__name__}{sorted(map(str, constraint.options))}"
    if isinstance(constraint, Interval):
        c = constraint
        return f"{type(c).__name__}({c.type.__name__}, {c.left}, {c.right}, {c.closed})"
    if isinstance(constraint, HasMethods):
        return f"HasMethods{constraint.methods}"
    if isinstance(constraint, str):
        return constraint
    return getattr(constraint, "__name__", None) or type(constraint).__name__


class _Sparse:  # a class of scipy.sparse's module: "array-like" leaves it to scikit-learn
    __module__ = "scipy.sparse._csr"
    shape = (2, 2)

    def __len__(self):
        return 2


PROBES = [
    None, True, False, np.bool_(True), 0, 1, -1, 2, 5, 10, 2**32, np.int8(3), np.int64(-2),
    np.uint64(7), 0.0, 0.5, 1.0, 1.5, -0.1, np.float32(0.25), np.nan, np.inf, -np.inf,
    "average", "first", "docno", "zero", "drop", "ndcg", "exponential", "linear", "x", "",
    b"x", [1, 2], (1,), [], np.array([1.0, 2.0]), np.array(3.0), np.float64(2.0), {"a": 1},
    {1: 2.0}, len, np.mean, object(), _Model(), sklearn_ndcg, np.random.RandomState(0),
    _Sparse(), type, int, float, str,
]  # fmt: skip


@pytest.mark.parametrize("constraint", _every_package_constraint())
def test_what_the_package_accepts_scikit_learn_accepts(constraint):
    """Every value a predicate accepts without scikit-learn, scikit-learn's constraint
    accepts; the package's own classes give scikit-learn's verdict on every value."""
    accepts = _predicate(constraint)
    theirs = sk_validation.make_constraint(sklearn_constraints({"p": [constraint]})["p"][0])
    for value in PROBES:
        ours, reference = accepts(value), theirs.is_satisfied_by(value)
        assert not ours or reference, (value, "accepted here, refused by scikit-learn")
        if isinstance(constraint, (Interval, Options, HasMethods)):
            assert ours == reference, value


@pytest.mark.parametrize("decorator", list(DECORATORS))
def test_skip_parameter_validation_skips(decorator):
    decorated = DECORATORS[decorator](THREE_CONSTRAINTS, prefer_skip_nested_validation=True)(_three)
    with config_context(skip_parameter_validation=True):
        assert decorated("a", "b", -1.0, k=0) == ("a", "b", -1.0, 0, "average", None)
        assert get_config()["skip_parameter_validation"] is True
    assert get_config()["skip_parameter_validation"] is False
    with pytest.raises(InvalidParameterError):
        decorated("a", "b", -1.0, k=0)


def _nested(decorator, prefer_skip, inner_raises=False):
    """An outer decorated function that calls an inner one with a value it refuses."""
    seen = []

    def inner(k):
        seen.append(get_config()["skip_parameter_validation"])
        if inner_raises:
            raise RuntimeError("inner failed")
        return k

    def outer(k):
        seen.append(get_config()["skip_parameter_validation"])
        return inner(k - 5)

    # plain names, as the package's functions have (messages name the __qualname__)
    inner.__qualname__, outer.__qualname__ = "inner", "outer"
    inner = DECORATORS[decorator]({"k": [Integers(1)]}, prefer_skip_nested_validation=True)(inner)
    outer = DECORATORS[decorator]({"k": [Integers(1)]}, prefer_skip_nested_validation=prefer_skip)(
        outer
    )
    return outer, seen


@pytest.mark.parametrize("prefer_skip", [True, False])
def test_nested_validation_as_scikit_learn(prefer_skip):
    outcomes = {}
    for decorator in DECORATORS:
        outer, seen = _nested(decorator, prefer_skip)
        outcomes[decorator] = (_outcome(outer, 3), seen, get_config()["skip_parameter_validation"])
    assert outcomes["package"] == outcomes["scikit-learn"]
    if prefer_skip:  # the outer call validated; the inner one runs unchecked
        assert outcomes["package"] == (("returned", -2), [True, True], False)
    else:  # the inner refusal, reported under the outer function's name
        kind, message = outcomes["package"][0]
        assert kind is InvalidParameterError
        assert message.startswith("The 'k' parameter of outer must be")


def test_configuration_restored_after_an_error():
    for decorator in DECORATORS:
        outer, seen = _nested(decorator, True, inner_raises=True)
        with pytest.raises(RuntimeError, match="inner failed"):
            outer(7)
        assert seen == [True, True]
        assert get_config()["skip_parameter_validation"] is False


def test_package_functions_called_inside_validate_once():
    """A public function called inside a validated call does not validate again: its
    k=0 reaches the function's body (which refuses it in its own words)."""
    seen = []

    @validate_params({"k": [Integers(1)]}, prefer_skip_nested_validation=True)
    def outer(k):
        seen.append(get_config()["skip_parameter_validation"])
        # k=0 would be refused by a validating call: here it reaches the function
        with pytest.raises(ValueError, match="k must be a positive integer") as raised:
            sklearn_ndcg.ndcg_score([[1, 0]], [[0.2, 0.1]], k=0)
        return raised.value

    error = outer(1)
    assert seen == [True]
    assert not isinstance(error, InvalidParameterError)  # the engine's own refusal
    assert get_config()["skip_parameter_validation"] is False


def test_decorated_functions_pickle_by_reference():
    assert pickle.loads(pickle.dumps(sklearn_ndcg.ndcg_score)) is sklearn_ndcg.ndcg_score
