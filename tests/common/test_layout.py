"""The tree is the architecture: counts and import rules read from the source.

The package's imports are parsed with ``ast`` (every ``import`` and ``from ... import``,
inside functions and ``TYPE_CHECKING`` blocks too), relative imports resolved, into a graph
of the package's modules. A package's ``__init__`` is a module of its own; importing a
submodule is not counted as importing its parent packages.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "sklearn_ndcg"
TESTS = ROOT / "tests"


def _module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _imports(name, path):
    """The package's modules that module ``name`` imports."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = name.split(".")
                # a module's level-1 base is its package; a package's is itself
                drop = node.level - 1 if is_package else node.level
                base = base[: len(base) - drop]
                if node.module:
                    base = [*base, *node.module.split(".")]
                source = ".".join(base)
            else:
                source = node.module
            # `from package import submodule` imports the submodule; any other name
            # comes from the module itself
            targets = [
                f"{source}.{alias.name}" if f"{source}.{alias.name}" in MODULES else source
                for alias in node.names
            ]
        else:
            continue
        found.update(t for t in targets if t in MODULES and t != name)
    return found


GRAPH = {name: _imports(name, path) for name, path in MODULES.items()}


def _find_cycle(graph):
    """One import cycle as a list of modules, or None."""
    state = {}  # absent: not visited; 1: on the current path; 2: done
    path = []

    def visit(node):
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            cycle = visit(node)
            if cycle:
                return cycle
    return None


def test_graph_sees_the_imports():
    """The parser finds relative, absolute and nested imports (else every rule below is void)."""
    assert "sklearn_ndcg._engine._validation" in GRAPH["sklearn_ndcg._engine._gain"]
    assert "sklearn_ndcg._cli._main" in GRAPH["sklearn_ndcg.__main__"]
    assert len(GRAPH["sklearn_ndcg"]) >= 5
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None


def test_few_files_at_the_top():
    top = sorted(path.name for path in PACKAGE.glob("*.py"))
    assert len(top) <= 12, top


@pytest.mark.parametrize(
    "subpackage",
    sorted(path.parent.name for path in PACKAGE.glob("_*/__init__.py")),
)
def test_each_subpackage_has_a_test_folder(subpackage):
    folder = TESTS / subpackage.removeprefix("_")
    assert folder.is_dir(), f"sklearn_ndcg/{subpackage}/ has no tests/{folder.name}/"
    assert any(folder.glob("test_*.py")), f"tests/{folder.name}/ has no test file"


def test_no_module_imports_a_module_that_imports_it():
    mutual = sorted(
        (a, b) for a, targets in GRAPH.items() for b in targets if a < b and a in GRAPH[b]
    )
    assert not mutual, mutual


def test_no_import_cycle():
    cycle = _find_cycle(GRAPH)
    assert cycle is None, " -> ".join(cycle)


def test_engine_imports_only_the_engine():
    outside = sorted(
        (name, target)
        for name, targets in GRAPH.items()
        if name.startswith("sklearn_ndcg._engine")
        for target in targets
        if not target.startswith("sklearn_ndcg._engine")
    )
    assert not outside, outside


def _in_cli(name: str) -> bool:
    """Whether module ``name`` is ``_cli`` or inside it (``_clicks`` is not)."""
    return name == "sklearn_ndcg._cli" or name.startswith("sklearn_ndcg._cli.")


def test_in_cli():
    assert _in_cli("sklearn_ndcg._cli") and _in_cli("sklearn_ndcg._cli._main")
    assert not _in_cli("sklearn_ndcg._clicks._click_scorer")


def test_only_main_imports_the_command_line():
    importers = sorted(
        (name, target)
        for name, targets in GRAPH.items()
        if not _in_cli(name) and name != "sklearn_ndcg.__main__"
        for target in targets
        if _in_cli(target)
    )
    assert not importers, importers


def test_command_line_enters_ir_by_its_door():
    """``_cli`` imports ``sklearn_ndcg._ir`` itself, never one of its private modules."""
    private = sorted(
        (name, target)
        for name, targets in GRAPH.items()
        if _in_cli(name)
        for target in targets
        if target.startswith("sklearn_ndcg._ir.")
    )
    assert not private, private
    assert "sklearn_ndcg._ir" in GRAPH["sklearn_ndcg._cli._trec_eval"]


# ------------------------------------------------- tests mirror the tree, module by module
#
# sklearn_ndcg/_m.py has tests/test_m.py; sklearn_ndcg/_X/_m.py (and _X/_Y/_m.py) has
# tests/X/test_m.py. A feature file beside it is named after the module too:
# tests/X/test_m_<feature>.py (test_ndcg_long_format.py, test_scorer_bad_input.py), so that
# a reader sees which module each file is for. tests/common/ holds the suites that cut
# across modules and is free of the rule.

# Subpackages tested by one file named after the subpackage: tests/model_selection/
# test_learners.py covers every learner adapter of _model_selection/_learners/ (they share
# one interface, checked row by row over the installed libraries).
ONE_TEST_FILE = {"_model_selection/_learners"}

# Modules without a test file of their own, and why.
EXEMPT = {
    # `python -m sklearn_ndcg` is run (in a subprocess) by tests/cli/test_main.py, the
    # tests of the command line it hands over to
    "__main__",
}


def _tested_name(path):
    """The test file a package module needs, relative to tests/, or None if exempt."""
    relative = path.relative_to(PACKAGE)
    if path.name == "__init__.py" or relative.with_suffix("").as_posix() in EXEMPT:
        return None
    folders = relative.parent.parts
    subpackage = "/".join(folders)
    if subpackage in ONE_TEST_FILE:
        folders, stem = folders[:-1], folders[-1]
    else:
        stem = path.stem
    if len(folders) > 1:  # a nested subpackage's modules are tested in its top folder
        folders = folders[:1]
    return "/".join([*(f.removeprefix("_") for f in folders), f"test_{stem.lstrip('_')}.py"])


def _module_names(folder):
    """The names a test file in tests/``folder`` may be named after (None: top level)."""
    expected = [_tested_name(path) for path in PACKAGE.rglob("*.py")]
    names = set()
    for name in filter(None, expected):
        *parts, file_name = name.split("/")
        if (parts[0] if parts else None) == folder:
            names.add(file_name.removeprefix("test_").removesuffix(".py"))
    return names


def _is_named_after(test_file, names):
    stem = test_file.removeprefix("test_").removesuffix(".py")
    return any(stem == name or stem.startswith(f"{name}_") for name in names)


def test_the_rule_reads_the_tree():
    """The expected names come out as documented (else the two tests below are void)."""
    assert _tested_name(PACKAGE / "_engine" / "_validation.py") == "engine/test_validation.py"
    assert _tested_name(PACKAGE / "dask.py") == "test_dask.py"
    assert _tested_name(PACKAGE / "_options.py") == "test_options.py"
    learner = PACKAGE / "_model_selection" / "_learners" / "_lightgbm.py"
    assert _tested_name(learner) == "model_selection/test_learners.py"
    assert _tested_name(PACKAGE / "__main__.py") is None
    assert _tested_name(PACKAGE / "_engine" / "__init__.py") is None
    assert {
        "ndcg", "query_scores", "measure_scores", "inferred", "results", "diagnostics", "ids",
        "frame_checks", "levels",
    } == _module_names("metrics")  # fmt: skip
    assert _is_named_after("test_ndcg_long_format.py", {"ndcg"})
    assert not _is_named_after("test_normalize.py", {"ndcg"})
    assert not _is_named_after("test_ndcgx.py", {"ndcg"})


@pytest.mark.parametrize(
    "module",
    sorted(
        path.relative_to(PACKAGE).as_posix() for path in PACKAGE.rglob("*.py") if _tested_name(path)
    ),
)
def test_each_module_has_its_test_file(module):
    expected = _tested_name(PACKAGE / module)
    assert (TESTS / expected).is_file(), f"sklearn_ndcg/{module} has no tests/{expected}"


@pytest.mark.parametrize(
    "test_file",
    sorted(
        path.relative_to(TESTS).as_posix()
        for path in TESTS.rglob("test_*.py")
        if path.relative_to(TESTS).parts[0] != "common"
    ),
)
def test_each_test_file_is_named_after_a_module(test_file):
    *folders, name = test_file.split("/")
    if len(folders) > 1:
        pytest.fail(f"tests/{test_file}: test files sit in tests/, tests/common/ or tests/X/")
    folder = folders[0] if folders else None
    if folder is not None:
        assert (PACKAGE / f"_{folder}" / "__init__.py").is_file(), (
            f"tests/{folder}/ mirrors no subpackage sklearn_ndcg/_{folder}/"
        )
    names = _module_names(folder)
    assert _is_named_after(name, names), (
        f"tests/{test_file} is named after no module of "
        f"{'sklearn_ndcg/_' + folder if folder else 'sklearn_ndcg'}: name it "
        f"test_<module>[_<feature>].py with <module> one of {sorted(names)}, "
        "or move a cross-cutting suite to tests/common/"
    )


# ------------------------------------------------------------- the engine's one door

ENGINE = "sklearn_ndcg._engine"


def test_engine_exports_at_most_thirteen_names():
    """Issue 33's twelve, and the one error for negative labels that every door shares
    (issue 56)."""
    import sklearn_ndcg._engine as engine

    assert len(engine.__all__) <= 13, engine.__all__
    assert all(hasattr(engine, name) for name in engine.__all__)


def test_only_the_engine_imports_its_modules():
    """Outside ``_engine/``, modules import ``sklearn_ndcg._engine`` only, never a module in it."""
    inside = sorted(
        (name, target)
        for name, targets in GRAPH.items()
        if not name.startswith(f"{ENGINE}.") and name != ENGINE
        for target in targets
        if target.startswith(f"{ENGINE}.")
    )
    assert not inside, inside


def test_the_graph_sees_imports_of_the_door():
    assert ENGINE in GRAPH["sklearn_ndcg._metrics._ndcg"]


# ------------------------------------------------------------- the metrics' door

METRICS = "sklearn_ndcg._metrics"


def test_only_the_metrics_import_their_modules():
    """Outside ``_metrics/``, modules import ``sklearn_ndcg._metrics`` only, never a module
    in it; the package's entrance aside, which names each public name's own module (its
    lazy ``_SOURCES``)."""
    inside = sorted(
        (name, target)
        for name, targets in GRAPH.items()
        if not name.startswith(f"{METRICS}.") and name not in (METRICS, "sklearn_ndcg")
        for target in targets
        if target.startswith(f"{METRICS}.")
    )
    assert not inside, inside


def test_the_graph_sees_imports_of_the_metrics_door():
    assert METRICS in GRAPH["sklearn_ndcg._stats._paired"]


def test_metrics_door_names_load():
    """Each name of the door loads from its module (``_SOURCES``), and none is missing."""
    import sklearn_ndcg._metrics as metrics

    assert metrics.__all__ == sorted(metrics._SOURCES)
    assert all(getattr(metrics, name) is not None for name in metrics.__all__)


def test_no_module_over_650_lines():
    """Rooms of a readable size: a module that grows past 650 lines is split along its
    seams (issue 33)."""
    lines = {
        path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in PACKAGE.rglob("*.py")
    }
    long = sorted((name, n) for name, n in lines.items() if n > 650)
    assert not long, long


def test_options_travel_typed():
    """Options are one ``RankingOptions`` value below the entry points, not a dict."""
    loose = sorted(
        path.relative_to(ROOT).as_posix()
        for path in PACKAGE.rglob("*.py")
        if "options=dict(" in path.read_text(encoding="utf-8")
    )
    assert not loose, loose


# ------------------------------------- click logs: a use of the data path, not a second one

CLICKS = "sklearn_ndcg._clicks"
SORTS = {"argsort", "sort", "lexsort", "unique"}  # np.<name>(...) sorts or groups rows
METHOD_SORTS = {"argsort", "sort"}  # <array>.<name>(...) sorts rows
# Modules of _clicks free of the rule, and why.
CLICKS_EXEMPT = {
    "_simulate.py",  # a data generator: it draws the logs (random orders), scores none
    "_make_log.py",  # make_click_log: draws the logged orders (random permutations), scores none
}


def _sorting_calls(source: str) -> list[str]:
    """The calls of ``source`` that sort or group rows: ``np.sort(...)``, ``np.unique(...)``
    (also as ``numpy.``), ``x.argsort(...)``, ``x.sort(...)``, with their line numbers."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        attr, owner = node.func.attr, node.func.value
        numpy = isinstance(owner, ast.Name) and owner.id in {"np", "numpy"}
        if (numpy and attr in SORTS) or (not numpy and attr in METHOD_SORTS):
            found.append(f"line {node.lineno}: {ast.unparse(node.func)}(...)")
    return found


def test_the_sorting_check_sees_sorts():
    source = "np.argsort(a)\nnumpy.unique(b)\nx.y.argsort()\nz.sort(axis=1)\nnp.lexsort(k)\n"
    assert len(_sorting_calls(source)) == 5
    assert not _sorting_calls("np.argmax(a)\nsorted(b)\nnp.searchsorted(a, v)\n")


@pytest.mark.parametrize(
    "module",
    sorted(
        path.name for path in (PACKAGE / "_clicks").glob("*.py") if path.name not in CLICKS_EXEMPT
    ),
)
def test_clicks_neither_sort_nor_group_rows(module):
    """``_clicks`` reaches the engine through its door for grouping, sorting and DCG
    (issue 47): click estimates are DCGs of weighted clicks, not a second engine."""
    calls = _sorting_calls((PACKAGE / "_clicks" / module).read_text(encoding="utf-8"))
    assert not calls, (
        f"sklearn_ndcg/_clicks/{module} sorts or groups rows itself ({'; '.join(calls)}); "
        "use the engine's door: Queries.of(...).codes(), stage(...).tie_groups(), "
        "query_values(...)"
    )
    name = f"{CLICKS}.{module.removesuffix('.py')}".removesuffix(".__init__")
    private = sorted(t for t in GRAPH[name] if t.startswith(f"{ENGINE}."))
    assert not private, f"{name} imports {private}: import sklearn_ndcg._engine (the door) only"


# The one module that may import private parts of each upstream package (a module or a
# name starting with "_"), where the import is probed and has a public fallback or a
# version switch; CONTRIBUTING's "Private dependencies" lists each with its test.
PRIVATE_IMPORTS = {
    "sklearn": {"sklearn_ndcg._compat", "sklearn_ndcg._validate_params"},
    "scipy": {"sklearn_ndcg._engine._sort"},
}


def _private_imports(path):
    """``(top-level package, imported name)`` of each private import of ``path``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names = [(alias.name, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names = [(node.module, f"{node.module}.{alias.name}") for alias in node.names]
        else:
            continue
        for module, full in names:
            if any(part.startswith("_") for part in full.split(".")):
                found.append((module.split(".")[0], full))
    return found


def test_private_upstream_imports_stay_in_their_module():
    """No module imports a private module or name of scipy or scikit-learn but the one
    named for it in PRIVATE_IMPORTS."""
    found = {
        (top, name, module)
        for module, path in MODULES.items()
        for top, name in _private_imports(path)
        if top in PRIVATE_IMPORTS
    }
    stray = sorted(
        (module, name) for top, name, module in found if module not in PRIVATE_IMPORTS[top]
    )
    assert not stray, stray
    # the rule sees them: each named module has its private import
    assert {module for _, _, module in found} == set().union(*PRIVATE_IMPORTS.values())
    assert ("scipy", "scipy.sparse._sparsetools.coo_tocsr") in _private_imports(
        MODULES["sklearn_ndcg._engine._sort"]
    )


def _contributing_section(heading):
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_contributing_lists_each_private_dependency():
    """Each private import of scipy or scikit-learn has its row (probe, fallback, test) in
    CONTRIBUTING's "Private dependencies": the name, or its private module."""
    section = _contributing_section("Private dependencies")
    found = {name for path in MODULES.values() for top, name in _private_imports(path)}
    assert found
    missing = sorted(
        name
        for name in found
        if name.split(".")[0] in PRIVATE_IMPORTS
        and name not in section
        and name.rsplit(".", 1)[0] not in section
    )
    assert not missing, missing


def test_contributing_layout_table_names_every_room():
    """Each subpackage and top-level module of the package (but the entrances) is in a
    row of CONTRIBUTING's layout table, and each name there is in the tree."""
    table = _contributing_section("How the code is laid out").split("\n\n")[1]
    named = set()
    for row in table.splitlines()[2:]:
        named.update(re.findall(r"`([\w.]+/?)`", row.split(" | ")[0]))
    rooms = {f"{p.name}/" for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()}
    rooms |= {p.name for p in PACKAGE.glob("*.py")} - {"__init__.py", "__main__.py"}
    assert named == rooms, (sorted(rooms - named), sorted(named - rooms))
