"""The entrance is light: ``import sklearn_ndcg`` and the ``trec-eval`` command import
neither scikit-learn, scipy, pandas nor matplotlib (each checked in a fresh
interpreter), while every public name still loads on first use."""

import subprocess
import sys

import numpy as np
import pytest
from _trec_example import write_files

import sklearn_ndcg

HEAVY = ("sklearn", "scipy", "pandas", "matplotlib")

# prints the heavy top-level packages imported by the code that runs before it
_REPORT = f"import sys; print(sorted({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r})))"


def _heavy_after(code):
    result = subprocess.run(
        [sys.executable, "-c", f"{code}\n{_REPORT}"], capture_output=True, text=True, check=True
    )
    return result.stdout.strip().splitlines()


def _command(arguments, arrow_min_bytes=None):
    """Python code running ``python -m sklearn_ndcg`` with ``arguments`` (no exit)."""
    force = (
        ""
        if arrow_min_bytes is None
        else (f"import sklearn_ndcg._ir._read as r; r.ARROW_MIN_BYTES = {arrow_min_bytes}\n")
    )
    return (
        "import runpy, sys\n"
        f"{force}"
        f"sys.argv = ['sklearn-ndcg', *{arguments!r}]\n"
        "try:\n"
        "    runpy.run_module('sklearn_ndcg', run_name='__main__', alter_sys=True)\n"
        "except SystemExit as exit:\n"
        "    assert not exit.code, exit.code\n"
    )


def test_import_is_light():
    assert _heavy_after("import sklearn_ndcg") == ["[]"]


@pytest.mark.parametrize(
    "arrow_min_bytes",
    [None, pytest.param(0, id="pyarrow-parser")],
)
def test_trec_eval_command_is_light(tmp_path, arrow_min_bytes):
    """The command on small files, also with pyarrow's score parser (where installed)."""
    if arrow_min_bytes == 0:
        pytest.importorskip("pyarrow", reason="pyarrow (the trec extra) is not installed")
    qrels, run = write_files(tmp_path)
    arguments = ["trec-eval", "-q", "-m", "ndcg", "-m", "ndcg_cut.5,10", qrels, run]
    output = _heavy_after(_command(arguments, arrow_min_bytes))
    assert output[-1] == "[]"
    assert any(row.startswith("ndcg_cut_10") for row in output[:-1]), output


def test_trec_eval_command_is_light_on_a_typical_run(tmp_path):
    """50 queries of 1,000 ranked documents and 300 judged ones, the lines of both files
    in shuffled order: the rows are sorted into queries by numpy alone (scipy's
    counting sort only where scipy is loaded already)."""
    rng = np.random.default_rng(0)
    qid = np.repeat(np.arange(101, 151), 1000)
    docno = np.concatenate([rng.permutation(5000)[:1000] for _ in range(50)])
    run = [f"{q} Q0 doc{d} 0 {s:.6f} sys\n" for q, d, s in zip(qid, docno, rng.random(qid.size))]
    judged_qid = np.repeat(np.arange(101, 151), 300)
    judged = np.concatenate([rng.permutation(5000)[:300] for _ in range(50)])
    levels = rng.integers(0, 3, judged.size)
    qrels = [f"{q} 0 doc{d} {r}\n" for q, d, r in zip(judged_qid, judged, levels)]
    paths = []
    for name, lines in (("qrels", qrels), ("run", run)):
        path = tmp_path / name
        path.write_text("".join(lines[i] for i in rng.permutation(len(lines))))
        paths.append(str(path))
    output = _heavy_after(_command(["trec-eval", "-m", "ndcg", *paths]))
    assert output[-1] == "[]"
    assert any(row.startswith("ndcg ") for row in output[:-1]), output


def test_trec_tools_in_python_are_light(tmp_path):
    """evaluate_run of paths and of the readers' tables, and RelevanceEvaluator of dicts,
    checked arguments included, import numpy alone: their cost at 1M lines is the
    evaluation, not scikit-learn's import (issue 51's floor against trec_eval)."""
    qrels, run = write_files(tmp_path)
    code = (
        "from sklearn_ndcg import CONVENTIONS, RelevanceEvaluator, evaluate_run\n"
        "from sklearn_ndcg import read_trec_qrels, read_trec_run\n"
        f"a = evaluate_run({run!r}, {qrels!r}, k=10, **CONVENTIONS['trec_eval'])\n"
        f"b = evaluate_run(read_trec_run({run!r}), read_trec_qrels({qrels!r}), k=10,\n"
        "                 **CONVENTIONS['trec_eval'])\n"
        "assert abs(a.score - b.score) < 1e-12, (a.score, b.score)\n"
        f"c = evaluate_run({run!r}, {qrels!r}, metric=['map', 'P_10'], ties='docno')\n"
        "e = RelevanceEvaluator({'q': {'a': 1, 'b': 0}}, {'map', 'ndcg_cut.10'})\n"
        "assert e.evaluate({'q': {'a': 0.5, 'b': 0.7}})['q']['map'] == 0.5\n"
    )
    assert _heavy_after(code) == ["[]"]
    # a refused argument still gets scikit-learn's error (imported then)
    refused = subprocess.run(
        [sys.executable, "-c", f"{code}evaluate_run({run!r}, {qrels!r}, unjudged='keep')"],
        capture_output=True,
        text=True,
    )
    assert "InvalidParameterError: The 'unjudged' parameter of evaluate_run" in refused.stderr


def test_help_is_light():
    code = _command(["trec-eval", "--help"]).replace(
        "assert not exit.code", "assert exit.code == 0"
    )
    assert _heavy_after(code)[-1] == "[]"


def test_public_names_resolve():
    from sklearn_ndcg import ndcg_score

    assert ndcg_score([[3, 2, 1]], [[3, 2, 1]]) == 1.0
    missing = [name for name in sklearn_ndcg.__all__ if getattr(sklearn_ndcg, name, None) is None]
    assert not missing, missing
    listed = dir(sklearn_ndcg)
    assert set(sklearn_ndcg.__all__) <= set(listed)
    assert "__version__" in listed
    assert sorted(sklearn_ndcg._SOURCES) == sorted(sklearn_ndcg.__all__)
    assert len(set(sklearn_ndcg.__all__)) == len(sklearn_ndcg.__all__)


def test_unknown_name_raises_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'ndcg_at_k'"):
        sklearn_ndcg.ndcg_at_k  # noqa: B018
    assert not hasattr(sklearn_ndcg, "ndcg_at_k")


def test_version_is_a_plain_attribute():
    assert "__version__" in vars(sklearn_ndcg)
