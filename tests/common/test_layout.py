"""The tree is the architecture: counts and import rules read from the source.

The package's imports are parsed with ``ast`` (every ``import`` and ``from ... import``,
inside functions and ``TYPE_CHECKING`` blocks too), relative imports resolved, into a graph
of the package's modules. A package's ``__init__`` is a module of its own; importing a
submodule is not counted as importing its parent packages.
"""

import ast
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


def test_only_main_imports_the_command_line():
    importers = sorted(
        (name, target)
        for name, targets in GRAPH.items()
        if not name.startswith("sklearn_ndcg._cli") and name != "sklearn_ndcg.__main__"
        for target in targets
        if target.startswith("sklearn_ndcg._cli")
    )
    assert not importers, importers
