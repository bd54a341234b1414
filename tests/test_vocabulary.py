"""The vocabulary of measures (``sklearn_ndcg/_vocabulary.py``): trec_eval's own lists
(its ``measures.c``, read from the NIST source beside the checkout) for the order and the
official set, pytrec_eval's nicknames, the engine's requests for every entry, and each
measure name in the package written only in the vocabulary and its kernels."""

import ast
import re
from pathlib import Path

import numpy as np
import pytest

import sklearn_ndcg
from sklearn_ndcg._engine import JudgmentPool, RankingOptions, query_values, stage
from sklearn_ndcg._options import metric_names
from sklearn_ndcg._vocabulary import (
    BY_NAME,
    CUT_FAMILIES,
    DEFAULT_SET,
    EVERY_DOOR,
    OFFICIAL,
    RANK_MEASURES,
    SPECS,
)

PACKAGE = Path(sklearn_ndcg.__file__).parent
MEASURES_C = PACKAGE.parents[1] / "shared" / "trec_eval" / "measures.c"
KERNELS = {"_vocabulary.py", "_engine/_rank.py", "_engine/_official.py"}


def _measures_c() -> str:
    if not MEASURES_C.is_file():
        pytest.skip("NIST's trec_eval source (../shared/trec_eval) is not beside the checkout")
    return MEASURES_C.read_text(encoding="utf-8")


def test_order_is_trec_evals():
    """The report's order: te_trec_measures of measures.c, for the measures the
    vocabulary has (infNDCG, sample_eval.pl's, sits among them at its own place)."""
    listed = re.search(r"te_trec_measures\[\] = \{(.*?)\};", _measures_c(), re.S)[1]
    order = re.findall(r"&te_meas_(\w+)", listed)
    ours = [spec.name for spec in SPECS if spec.name in order]
    assert ours == [name for name in order if name in BY_NAME]


def test_official_set_is_trec_evals():
    names = re.search(r"off_names\[\] = \{(.*?)\};", _measures_c(), re.S)[1]
    assert OFFICIAL == tuple(re.findall(r'"(\w+)"', names))
    assert DEFAULT_SET == ("ndcg", "ndcg_cut")  # the command's default: the README's


def test_the_engine_computes_every_request():
    """Each entry's request (and pytrec_eval's variant) is one the engine sums; the
    engine has no request that the vocabulary does not name."""
    assert set(RANK_MEASURES) == set(RankingOptions.RANK_MEASURES)
    pool = JudgmentPool(np.array([0, 0, 0]), np.array([2.0, 0.0, 1.0]))
    options = RankingOptions(metric="map", ties="first", pool=pool)
    staged = stage(np.array([2.0, 0.0, 1.0]), np.array([3.0, 2.0, 1.0]), options, qid=np.zeros(3))
    for spec in SPECS:
        for request in {spec.metric, spec.pytrec_eval_metric} - {None, "ndcg"}:
            values = query_values(staged, options, measures=((request, spec.defaults or None),))
            assert np.isfinite(values.values).all(), request


def test_every_name_of_every_door_parses():
    """query_scores' names: each entry of every door, at a cutoff where it has one."""
    for spec in SPECS:
        if spec.doors != EVERY_DOOR:
            with pytest.raises(ValueError, match=spec.name):
                metric_names(spec.name)
        elif spec.needs_cutoff:
            (name,) = metric_names(
                f"{spec.cutoff_name or spec.name}_{5 if spec.params == 'cutoffs' else 0.5}"
            )
            assert name.metric == spec.metric
        else:
            (name,) = metric_names(spec.name)
            assert (name.name, name.metric) == (spec.name, spec.metric)
    assert set(CUT_FAMILIES.values()) <= set(RANK_MEASURES) | {"ndcg"}


def _string_constants(path: Path):
    """The str constants of a module that are not docstrings, with their lines."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                yield node.lineno, node.value


def test_measure_names_are_written_in_the_vocabulary_and_its_kernels_only():
    """Beside NDCG (the package's own, everywhere), each measure's name (and its name at
    a cutoff) is a string only in the vocabulary and the engine's kernels."""
    names = {spec.name for spec in SPECS if spec.metric not in ("ndcg", None)}
    names |= {"runid", "num_q"} | set(CUT_FAMILIES) - {"ndcg_cut"}
    found = sorted(
        (path.relative_to(PACKAGE).as_posix(), line, text)
        for path in PACKAGE.rglob("*.py")
        if path.relative_to(PACKAGE).as_posix() not in KERNELS
        for line, text in _string_constants(path)
        if text in names
    )
    assert not found, found


def test_the_docs_table_is_the_vocabulary():
    """docs/trec_eval.rst holds the table the vocabulary writes (regenerate it with
    ``python -c "from sklearn_ndcg._vocabulary import measures_table as t; print(t())"``)."""
    from sklearn_ndcg._vocabulary import measures_table

    page = (PACKAGE.parent / "docs" / "trec_eval.rst").read_text(encoding="utf-8")
    assert measures_table() in page


def test_the_command_help_lists_every_measure():
    import argparse

    from sklearn_ndcg._cli._main import _parser

    (commands,) = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    text = " ".join(commands.choices["trec-eval"].format_help().split())
    for spec in SPECS:
        assert spec.name in text, spec.name
    assert "official" in text
