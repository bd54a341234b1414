"""Mutation testing of the engine and metric modules (issue 28).

Each mutant changes one node of one module's syntax tree; the runner writes the
mutated module into a private copy of the package and its tests (``/tmp``, never the work
tree), runs a pytest selection there with ``-x -q`` and records whether the
suite failed (killed) or passed (survived). Mutations (code only: docstrings, error
messages, annotations, ``raise`` and ``assert`` statements are left alone):

- comparison swaps: ``<``/``<=``, ``>``/``>=``, ``==``/``!=``, ``is``/``is not``,
  ``in``/``not in``;
- arithmetic and bitwise swaps: ``+``/``-``, ``*``/``/``, ``//`` -> ``/``,
  ``**`` -> ``*``, ``%`` -> ``//``, ``&``/``|``, also in augmented assignments;
  ``and``/``or``; ``not x`` -> ``x``; ``-x`` -> ``x``;
- constants: an integer or float ``c`` -> ``c + 1`` and ``c - 1``, ``True``/``False``;
  ``np.inf`` -> ``-np.inf`` and ``-np.inf`` -> ``np.inf``;
- numpy name swaps: ``maximum``/``minimum``, ``max``/``min``, ``argmax``/``argmin``,
  ``any``/``all``;
- a keyword argument dropped from a call (``where=``, ``out=``, ``axis=`` ...);
- ``return <value>`` -> ``return None``.

The selection per module is its own test files first (they fail fastest), then
``tests/engine``, ``tests/metrics`` and the cross-cutting oracles of ``tests/common``
(differential, properties, option grid, parity with scikit-learn); not the benchmark
smoke tests, not the slow peers. Why not mutmut 3: it runs, for every surviving
mutant, every test that reaches the mutated function (the whole suite for the gain
or the aggregation: minutes per mutant on 2 shared cores) and has no sampling; this
runner samples, orders the selection so killed mutants stop at the first failing
test, and keeps the work tree untouched.

Usage (see CONTRIBUTING.md, "Mutation testing")::

    python tests/mutation.py --sample 25 --seed 0 --log /tmp/mutation.jsonl
    python tests/mutation.py --module _gain --list          # every mutant of a module
    python tests/mutation.py --module _gain --show 12       # one mutant as a diff
    python tests/mutation.py --module _gain --mutant 12     # run one mutant
    python tests/mutation.py --resume /tmp/mutation.jsonl --log /tmp/after.jsonl
    python tests/mutation.py --report /tmp/mutation.jsonl /tmp/after.jsonl

``--resume`` re-runs only the mutants that survived in an earlier log (adding tests
cannot revive a killed mutant), but not those listed as equivalent, and prints the
table of the whole sample. Surviving
mutants listed in ``tests/MUTANTS.md`` (module, line:col, mutation) count as equivalent;
the score is killed / (mutants - equivalent). They are not run (a surviving mutant takes
the whole selection: minutes) unless ``--run-equivalent`` is given. ``--report`` prints
the table of several logs, a mutant's last line counting (a sample, then its re-run).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "sklearn_ndcg"
MODULES = {
    "_gain": "_engine/_gain.py",
    "_discount": "_engine/_discount.py",
    "_ties": "_engine/_ties.py",
    "_aggregate": "_engine/_aggregate.py",
    "_queries": "_engine/_queries.py",
    "_sort": "_engine/_sort.py",
    "_validation": "_engine/_validation.py",
    "_pool": "_engine/_pool.py",
    "_pool_bounds": "_engine/_pool_bounds.py",
    "_pipeline": "_engine/_pipeline.py",
    "_ndcg": "_metrics/_ndcg.py",
    "_query_scores": "_metrics/_query_scores.py",
}
COMMON = [
    "tests/common/test_differential*.py",
    "tests/common/test_properties.py",
    "tests/common/test_option_grid*.py",
    "tests/common/test_sklearn_parity.py",
]
EQUIVALENTS = ROOT / "tests" / "MUTANTS.md"

_COMPARE = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
}
_BINARY = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.FloorDiv: ast.Div,
    ast.Pow: ast.Mult,
    ast.Mod: ast.FloorDiv,
    ast.BitAnd: ast.BitOr,
    ast.BitOr: ast.BitAnd,
}
_BOOL = {ast.And: ast.Or, ast.Or: ast.And}
_NAMES = {
    "maximum": "minimum",
    "minimum": "maximum",
    "max": "min",
    "min": "max",
    "argmax": "argmin",
    "argmin": "argmax",
    "any": "all",
    "all": "any",
}
_SYMBOL = {
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Is: "is",
    ast.IsNot: "is not",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.Div: "/",
    ast.FloorDiv: "//",
    ast.Pow: "**",
    ast.Mod: "%",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.And: "and",
    ast.Or: "or",
}


def _is_inf(node):
    return isinstance(node, ast.Attribute) and node.attr == "inf"


def _is_docstring(parent, node):
    return (
        isinstance(parent, ast.Expr)
        and isinstance(node, ast.Constant)
        and isinstance(node.value, str)
    )


def _mutations(node, parent):
    """The mutations of one node: (description, function returning the new node)."""
    out = []
    if isinstance(node, ast.Compare):
        for i, op in enumerate(node.ops):
            new = _COMPARE.get(type(op))
            if new:

                def make(n, i=i, new=new):
                    n.ops[i] = new()
                    return n

                out.append((f"`{_SYMBOL[type(op)]}` -> `{_SYMBOL[new]}`", make))
    elif isinstance(node, (ast.BinOp, ast.AugAssign)):
        new = _BINARY.get(type(node.op))
        if new:

            def make(n, new=new):
                n.op = new()
                return n

            out.append((f"`{_SYMBOL[type(node.op)]}` -> `{_SYMBOL[new]}`", make))
    elif isinstance(node, ast.BoolOp):
        new = _BOOL[type(node.op)]

        def make(n, new=new):
            n.op = new()
            return n

        out.append((f"`{_SYMBOL[type(node.op)]}` -> `{_SYMBOL[new]}`", make))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        out.append(("`not x` -> `x`", lambda n: n.operand))
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        if _is_inf(node.operand):
            out.append(("`-inf` -> `inf`", lambda n: n.operand))
        elif not isinstance(node.operand, ast.Constant):
            out.append(("`-x` -> `x`", lambda n: n.operand))
    elif isinstance(node, ast.Constant) and type(node.value) is bool:
        out.append((f"`{node.value}` -> `{not node.value}`", lambda n: ast.Constant(not n.value)))
    elif isinstance(node, ast.Constant) and type(node.value) in (int, float):
        v = node.value
        out.append((f"`{v!r}` -> `{v + 1!r}`", lambda n: ast.Constant(n.value + 1)))
        out.append((f"`{v!r}` -> `{v - 1!r}`", lambda n: ast.Constant(n.value - 1)))
    elif _is_inf(node) and not (
        isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.USub)
    ):
        out.append(("`inf` -> `-inf`", lambda n: ast.UnaryOp(ast.USub(), n)))
    elif isinstance(node, ast.Attribute) and node.attr in _NAMES:
        new = _NAMES[node.attr]

        def make(n, new=new):
            n.attr = new
            return n

        out.append((f"`.{node.attr}` -> `.{new}`", make))
    elif isinstance(node, ast.Call):
        for i, kw in enumerate(node.keywords):
            if kw.arg is not None:

                def make(n, i=i):
                    del n.keywords[i]
                    return n

                out.append((f"drop `{kw.arg}=`", make))
    elif isinstance(node, ast.Return) and node.value is not None:
        if not (isinstance(node.value, ast.Constant) and node.value.value is None):

            def make(n):
                n.value = ast.Constant(None)
                return n

            out.append(("`return x` -> `return None`", make))
    return out


def _walk(tree):
    """(path, node, parent) for each mutable node; path = the fields and indices from the root."""
    skip = {"annotation", "returns", "type_comment", "decorator_list"}

    def visit(node, path, parent):
        if isinstance(node, (ast.Raise, ast.Assert, ast.Import, ast.ImportFrom)):
            return
        if _is_docstring(parent, node) or isinstance(node, ast.JoinedStr):
            return
        yield path, node, parent
        for field, value in ast.iter_fields(node):
            if field in skip:
                continue
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        yield from visit(item, (*path, (field, i)), node)
            elif isinstance(value, ast.AST):
                yield from visit(value, (*path, (field, None)), node)

    yield from visit(tree, (), None)


def _get(tree, path):
    node = tree
    for field, i in path:
        node = getattr(node, field) if i is None else getattr(node, field)[i]
    return node


def _set(tree, path, new):
    parent = _get(tree, path[:-1])
    field, i = path[-1]
    if i is None:
        setattr(parent, field, new)
    else:
        getattr(parent, field)[i] = new


def mutants(module):
    """The mutants of a module: dicts with id, module, line, mutation, code; ``source(m)``
    gives a mutant's module source."""
    source = (PACKAGE / MODULES[module]).read_text()
    lines = source.splitlines()
    found = []
    for path, node, parent in _walk(ast.parse(source)):
        for index, (description, _) in enumerate(_mutations(node, parent)):
            found.append(
                {
                    "module": module,
                    "id": len(found),
                    "line": node.lineno,
                    "col": node.col_offset + 1,
                    "mutation": description,
                    "code": lines[node.lineno - 1].strip(),
                    "where": (path, index),
                }
            )
    seen = set()
    for m in found:  # the key names a mutant in tests/MUTANTS.md and in the logs
        m["key"] = f"{m['line']}:{m['col']} {m['mutation']}"
        while m["key"] in seen:
            m["key"] += "'"
        seen.add(m["key"])
    return found


def source(mutant):
    """The source of the module with ``mutant`` applied."""
    tree = ast.parse((PACKAGE / MODULES[mutant["module"]]).read_text())
    path, index = mutant["where"]
    target = _get(tree, path)
    parent = _get(tree, path[:-1]) if path else None
    new = _mutations(target, parent)[index][1](target)
    if new is not target:
        _set(tree, path, new)
    return ast.unparse(ast.fix_missing_locations(tree))


def selection(module):
    own = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(f"tests/*/test{module}*.py"))
    rest = ["tests/engine", "tests/metrics"]
    for pattern in COMMON:
        rest += sorted(str(p.relative_to(ROOT)) for p in ROOT.glob(pattern))
    return own + rest


def equivalents():
    """{(module, key)} from the table of tests/MUTANTS.md: module, line:col, mutation."""
    found = set()
    if EQUIVALENTS.exists():
        for row in EQUIVALENTS.read_text().splitlines():
            cells = [c.strip() for c in row.strip().strip("|").split("|")]
            if len(cells) >= 3 and re.fullmatch(r"`_\w+\.py`", cells[0]):
                found.add((cells[0].strip("`").removesuffix(".py"), f"{cells[1]} {cells[2]}"))
    return found


def with_keys(records):
    """Records of a log with the keys of their mutants (by id: the code must not have
    moved since the log was written)."""
    current = {module: mutants(module) for module in {r["module"] for r in records}}
    for r in records:
        m = current[r["module"]][r["id"]]
        if (m["line"], m["mutation"]) != (r["line"], r["mutation"]):
            sys.exit(f"{r['module']} #{r['id']} is no longer {r['mutation']} at line {r['line']}")
        r["key"] = m["key"]
    return records


def run_one(mutant, tests, workdir, timeout):
    """Run the selection in a copy of the project in ``workdir`` with the mutant written in."""
    target = workdir / "sklearn_ndcg" / MODULES[mutant["module"]]
    original = target.read_text()
    target.write_text(source(mutant))
    env = dict(os.environ, PYTHONPATH=str(workdir), PYTHONDONTWRITEBYTECODE="1")
    env.setdefault("OMP_NUM_THREADS", "1")
    # Fail loudly (exit 99) if the package were not the mutated copy.
    check = (
        "import sys, sklearn_ndcg, pytest; "
        f"sklearn_ndcg.__file__.startswith({str(workdir)!r}) or sys.exit(99); "
        "sys.exit(pytest.main(sys.argv[1:]))"
    )
    command = [sys.executable, "-c", check, "-x", "-q", "-p", "no:cacheprovider", *tests]
    start = time.monotonic()
    try:
        rc = subprocess.run(
            command, cwd=workdir, env=env, capture_output=True, timeout=timeout
        ).returncode
        if rc == 99:
            sys.exit("the tests did not import the mutated copy of sklearn_ndcg")
        status = "survived" if rc == 0 else "killed"
    except subprocess.TimeoutExpired:
        rc, status = None, "timeout"  # counted as killed
    finally:
        target.write_text(original)
    return status, rc, round(time.monotonic() - start, 1)


def table(results):
    equivalent = equivalents()
    rows = []
    totals = [0, 0, 0, 0]
    for module in MODULES:
        mine = [r for r in results if r["module"] == module]
        if not mine:
            continue
        n = len(mine)
        killed = sum(r["status"] in ("killed", "timeout") for r in mine)
        eq = sum(
            r["status"] in ("survived", "equivalent") and (module, r["key"]) in equivalent
            for r in mine
        )
        survived = n - killed - eq
        for j, v in enumerate((n, killed, survived, eq)):
            totals[j] += v
        rows.append((module, n, killed, survived, eq))
    rows.append(("total", *totals))
    lines = [
        "| module | mutants | killed | survived | equivalent | score |",
        "|---|---|---|---|---|---|",
    ]
    for module, n, killed, survived, eq in rows:
        score = 100 * killed / (n - eq) if n > eq else 100.0
        lines.append(f"| {module} | {n} | {killed} | {survived} | {eq} | {score:.1f} % |")
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--module", action="append", choices=list(MODULES))
    parser.add_argument("--sample", type=int, help="mutants drawn per module (default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    parser.add_argument("--show", type=int, metavar="ID", help="print one mutant as a diff")
    parser.add_argument("--mutant", type=int, action="append", metavar="ID", help="run these")
    parser.add_argument("--tests", nargs="+", help="pytest selection (default: per module)")
    parser.add_argument("--resume", type=Path, help="re-run the survivors of this log")
    parser.add_argument("--log", type=Path, help="append one JSON line per mutant run")
    parser.add_argument(
        "--report", type=Path, nargs="+", metavar="LOG", help="print the table of these logs"
    )
    parser.add_argument(
        "--run-equivalent", action="store_true", help="run the mutants of MUTANTS.md too"
    )
    parser.add_argument(
        "--timeout", type=float, default=1800.0, help="seconds per mutant (counted killed)"
    )
    args = parser.parse_args(argv)
    modules = args.module or list(MODULES)

    if args.report:
        latest = {}
        for log in args.report:
            for line in log.read_text().splitlines():
                if line:
                    record = json.loads(line)
                    latest[record["module"], record["id"]] = record
        records = list(latest.values())  # keyed when written, else by today's code
        print(table(records if all("key" in r for r in records) else with_keys(records)))
        return 0

    if args.show is not None:
        (module,) = modules
        mutant = mutants(module)[args.show]
        before = ast.unparse(ast.parse((PACKAGE / MODULES[module]).read_text()))
        sys.stdout.writelines(
            difflib.unified_diff(
                before.splitlines(True), source(mutant).splitlines(True), module, "mutant"
            )
        )
        return 0

    previous = []
    if args.resume:
        previous = [json.loads(line) for line in args.resume.read_text().splitlines() if line]
        previous = with_keys(previous)
        modules = [m for m in MODULES if any(r["module"] == m for r in previous)]

    equivalent = equivalents()
    chosen = []
    for module in modules:
        found = mutants(module)
        if args.resume:
            again = {
                r["id"]
                for r in previous
                if r["module"] == module
                and r["status"] == "survived"
                and (module, r["key"]) not in equivalent
            }
            found = [m for m in found if m["id"] in again]
        elif args.mutant:
            found = [found[i] for i in args.mutant]
        elif args.sample and args.sample < len(found):
            found = sorted(
                random.Random(f"{args.seed}{module}").sample(found, args.sample),
                key=lambda m: m["id"],
            )
        chosen += found
    if args.list:
        for m in chosen:
            print(f"{m['module']} #{m['id']} {m['key']}   {m['code']}")
        print(f"{len(chosen)} mutants")
        return 0

    rerun = {(m["module"], m["id"]) for m in chosen}
    results = [r for r in previous if (r["module"], r["id"]) not in rerun]
    with tempfile.TemporaryDirectory(prefix="mutation-") as tmp:
        workdir = Path(tmp)
        skip = shutil.ignore_patterns("__pycache__", ".hypothesis", "_build")
        for name in ("sklearn_ndcg", "tests"):
            shutil.copytree(ROOT / name, workdir / name, ignore=skip)
        for name in ("conftest.py", "pyproject.toml"):
            shutil.copy(ROOT / name, workdir / name)
        for k, mutant in enumerate(chosen, 1):
            tests = args.tests or selection(mutant["module"])
            if (mutant["module"], mutant["key"]) in equivalent and not args.run_equivalent:
                status, rc, seconds = "equivalent", None, 0.0  # listed: not run
            else:
                status, rc, seconds = run_one(mutant, tests, workdir, args.timeout)
            record = {k: mutant[k] for k in ("module", "id", "key", "line", "mutation", "code")}
            record.update(status=status, rc=rc, seconds=seconds)
            results.append(record)
            print(
                f"[{k}/{len(chosen)}] {mutant['module']} #{mutant['id']} "
                f"{mutant['key']}: {status} ({seconds} s)"
                f"   {mutant['code']}",
                flush=True,
            )
            if args.log:
                with args.log.open("a") as f:
                    f.write(json.dumps(record) + "\n")
    print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
