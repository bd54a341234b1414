"""The public API: what is exported, documented, validated and typed.

- ``sklearn_ndcg.__all__`` is exactly what ``docs/api.rst`` documents;
- every public function with ``validate_params`` passes scikit-learn's own
  parameter-validation check (the one scikit-learn runs over its public
  functions);
- public docstrings pass numpydoc's validation (needs the ``docs`` extra);
- the version is written once, and the package is marked as typed.
"""

import ast
import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import sklearn_ndcg
from sklearn_ndcg._validate_params import sklearn_constraints

ROOT = Path(__file__).resolve().parents[2]
API_PAGE = ROOT / "docs" / "api.rst"


def documented_names() -> list[str]:
    """The entries of the autosummary blocks of the API reference page."""
    names, in_block = [], False
    for line in API_PAGE.read_text().splitlines():
        if line.startswith(".. autosummary::"):
            in_block = True
        elif in_block and re.match(r"^   [A-Za-z_][\w.]*$", line):
            names.append(line.strip())
        elif in_block and line and not line.startswith("   "):
            in_block = False
    return names


def public_objects() -> list[tuple[str, object]]:
    """(dotted name, object) of every documented public function and class."""
    objects = []
    for name in documented_names():
        module, _, attribute = ("sklearn_ndcg." + name).rpartition(".")
        if module.endswith(".dask") and importlib.util.find_spec("dask") is None:
            continue  # at collection time: an importorskip here would skip the module
        if module.endswith(".spark") and importlib.util.find_spec("pyspark") is None:
            continue  # NDCGEvaluator and query_folds are defined with pyspark's classes
        objects.append(
            (f"{module}.{attribute}", getattr(importlib.import_module(module), attribute))
        )
    return objects


def test_all_is_the_api_reference():
    top_level = sorted(name for name in documented_names() if "." not in name)
    assert sorted(sklearn_ndcg.__all__) == top_level
    for submodule in ("dask", "spark"):
        names = sorted(
            name.split(".")[1] for name in documented_names() if name.startswith(f"{submodule}.")
        )
        source = (ROOT / "sklearn_ndcg" / f"{submodule}.py").read_text()
        (assignment,) = [
            node
            for node in ast.parse(source).body
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "__all__"
        ]
        assert sorted(ast.literal_eval(assignment.value)) == names, submodule


def _validated_functions() -> list[str]:
    return [
        name
        for name in sklearn_ndcg.__all__
        if inspect.isfunction(getattr(sklearn_ndcg, name))
        and hasattr(getattr(sklearn_ndcg, name), "_skl_parameter_constraints")
    ] + [
        "dask.ndcg_score",
        "dask.dcg_score",
        "spark.ndcg_score",
        "spark.dcg_score",
        "spark.query_scores",
        "spark.evaluate_run",
    ]


def test_every_validated_function_is_found():
    # a function that loses its validate_params would drop out of the next test silently
    assert set(_validated_functions()) >= {
        "ndcg_score",
        "dcg_score",
        "query_scores",
        "make_ndcg_scorer",
        "make_dcg_scorer",
        "make_ranking",
        "counterfactual_dcg",
        "make_counterfactual_dcg_scorer",
    }


@pytest.mark.parametrize("name", _validated_functions())
def test_scikit_learn_parameter_validation(name):
    """scikit-learn's check: every parameter has a constraint, and a wrong type
    or value of each gives scikit-learn's InvalidParameterError."""
    check = pytest.importorskip("sklearn.tests.test_public_functions")
    if name.startswith("dask."):
        pytest.importorskip("dask.dataframe")
        func = getattr(importlib.import_module("sklearn_ndcg.dask"), name.split(".")[1])
    elif name.startswith("spark."):  # importing sklearn_ndcg.spark never imports pyspark
        func = getattr(importlib.import_module("sklearn_ndcg.spark"), name.split(".")[1])
    else:
        func = getattr(sklearn_ndcg, name)
    params = [
        p
        for p in inspect.signature(func).parameters.values()
        if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]
    check._check_function_param_validation(
        func,
        func.__name__,
        [p.name for p in params],
        [p.name for p in params if p.default is p.empty],
        sklearn_constraints(func._skl_parameter_constraints),  # scikit-learn's objects
    )


# numpydoc checks left out, with the reason:
NUMPYDOC_IGNORE = {
    "GL08",  # the object has no docstring: namedtuple fields, inherited tuple methods
    "ES01",  # no extended summary: short accessors do not need one
    "SA01",  # no See Also section: not every method needs one
    "EX01",  # no Examples section: methods are shown in their class's example
    "RT02",  # the first line of Returns should be a type only: we name the value
    "SS05",  # summary starting with a verb in third person: "Fit", "Call" are imperative
    "PR01",  # **kwargs documented as a group, which numpydoc reports as undocumented
    "PR02",  # numpydoc reports the documented **kwargs as an unknown parameter
}


def _docstring_targets() -> list[str]:
    targets = []
    for dotted, obj in public_objects():
        if callable(obj) or inspect.isclass(obj):
            targets.append(dotted)
        if inspect.isclass(obj) and not issubclass(obj, tuple):
            for member, value in vars(obj).items():
                if not member.startswith("_") and (
                    callable(value) or isinstance(value, classmethod)
                ):
                    targets.append(f"{dotted}.{member}")
    return targets


@pytest.mark.parametrize("target", _docstring_targets())
def test_numpydoc_validation(target):
    validate = pytest.importorskip("numpydoc.validate")
    report = validate.validate(target)
    errors = [
        f"{code}: {message}" for code, message in report["errors"] if code not in NUMPYDOC_IGNORE
    ]
    assert not errors, f"{target}:\n" + "\n".join(errors)


def test_version_is_written_once():
    pyproject = (ROOT / "pyproject.toml").read_text()
    project_table = pyproject.split("\n[project]\n", 1)[1].split("\n[", 1)[0]
    assert 'dynamic = ["version"]' in project_table
    assert not re.search(r"^version\s*=", project_table, flags=re.MULTILINE)
    assert 'version = { attr = "sklearn_ndcg.__version__" }' in pyproject
    assert re.fullmatch(r"\d+\.\d+\.\d+(\.dev\d+)?", sklearn_ndcg.__version__)


def test_package_is_typed():
    assert (Path(sklearn_ndcg.__file__).parent / "py.typed").exists()
