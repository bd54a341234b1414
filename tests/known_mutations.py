"""The mutations of issue 28's "Done when": each must make the test suite fail.

Run ``python tests/known_mutations.py`` (or name some: ``python tests/known_mutations.py
M1 M6``). Each mutation is applied alone to a private copy of the package and its
tests (under ``/tmp``; the work tree is never touched), then a selection of the suite
runs there with ``-x`` (no benchmark smoke test in it): the mutation is *caught* when it
fails. The script prints the first failing test of each and exits 1 if any survives.

The edits are exact text replacements; a mutation whose text is no longer in its
module (the code moved on) is reported as ``MISSING`` and fails the run too, so the
list stays true.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# name: (module, text, replacement)
MUTATIONS = {
    "M1 gains padded with +inf instead of -inf in the block gather": (
        "_engine/_aggregate.py",
        "block_gain = take(gain, block, queries.layout, -np.inf)",
        "block_gain = take(gain, block, queries.layout, np.inf)",
    ),
    "M2 where= dropped in the worst-order negation": (
        "_engine/_ties.py",
        "np.negative(gain, where=gain != -np.inf, out=",
        "np.negative(gain, out=",
    ),
    "M3 min-max NDCG ignores document_weight": (
        "_engine/_pipeline.py",
        "if result.worst is not None and document_weight is None:",
        "if result.worst is not None:",
    ),
    "M4 the multi-cutoff path ignores document_weight": (
        "_engine/_pipeline.py",
        'worst=metric == "ndcg" and normalize == "minmax",\n'
        "            document_weight=staged.document_weight,",
        'worst=metric == "ndcg" and normalize == "minmax",\n            document_weight=None,',
    ),
    "M5 the pool ignores document_weight (one cutoff)": (
        "_engine/_pool.py",
        "                discounts,\n                document_weight=staged.document_weight,",
        "                discounts,\n                document_weight=None,",
    ),
    "M6 the pool ignores document_weight (several cutoffs)": (
        "_engine/_pool.py",
        "                ks,\n                document_weight=staged.document_weight,",
        "                ks,\n                document_weight=None,",
    ),
    "M7 the pool ignores sample_weight": (
        "_engine/_pool.py",
        "weight = query_weights(data.sample_weight, queries)",
        "weight = query_weights(None, queries)",
    ),
    "M8 the pool's worst DCG disabled under min-max": (
        "_engine/_pool.py",
        '    negative = normalize == "minmax"\n',
        "    negative = False\n",
    ),
    "M9 the None-as-unjudged conversion broken (a list with None crashes)": (
        "_engine/_validation.py",
        "if missing.shape[0] and not missing_ok:",
        "if missing.shape[0]:",
    ),
    "M10 the None-as-unjudged conversion broken (missing labels become 0)": (
        "_engine/_validation.py",
        "array.reshape(-1)[missing] = np.nan",
        "array.reshape(-1)[missing] = 0.0",
    ),
}

# Part of the suite, cheapest first; the benchmark smoke tests are not in it.
SELECTION = [
    "tests/common/test_option_combinations.py",
    "tests/engine",
    "tests/metrics",
    "tests/common/test_differential.py",
    "tests/common/test_differential_pool.py",
    "tests/common/test_benchmark_values.py",
]


def run(name: str, module: str, text: str, replacement: str) -> bool:
    """Whether the selection fails with the mutation applied (printed either way)."""
    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder)
        shutil.copytree(ROOT / "sklearn_ndcg", copy / "sklearn_ndcg")
        shutil.copytree(ROOT / "tests", copy / "tests")
        shutil.copytree(ROOT / "benchmarks", copy / "benchmarks")  # test_benchmark_values
        shutil.copy(ROOT / "pyproject.toml", copy / "pyproject.toml")
        path = copy / "sklearn_ndcg" / module
        source = path.read_text()
        if source.count(text) != 1:
            print(f"MISSING  {name}: the text is not (once) in sklearn_ndcg/{module}")
            return False
        path.write_text(source.replace(text, replacement))
        environment = {**os.environ, "PYTHONPATH": str(copy), "OMP_NUM_THREADS": "1"}
        command = [sys.executable, "-m", "pytest", *SELECTION, "-x", "-q", "-m", "not slow"]
        command += ["-p", "no:cacheprovider", "--no-header", "--tb=no"]
        result = subprocess.run(command, cwd=copy, env=environment, capture_output=True, text=True)
    failed = [line for line in result.stdout.splitlines() if line.startswith(("FAILED", "ERROR"))]
    caught = result.returncode == 1 and bool(failed)
    print(f"{'caught' if caught else 'SURVIVED'}  {name}: {failed[0] if failed else ''}")
    return caught


def main(names: list[str]) -> int:
    chosen = [n for n in MUTATIONS if not names or n.split()[0] in names]
    results = [run(name, *MUTATIONS[name]) for name in chosen]
    print(f"{sum(results)} of {len(results)} mutations caught")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
