"""scikit-learn's own NDCG and DCG tests, run against this package.

The test functions come from the installed scikit-learn
(``sklearn/metrics/tests/test_ranking.py``: every test with ``dcg`` in its
name; ``sklearn/metrics/tests/test_common.py``: every parametrized case whose
metric is ``ndcg_score`` or ``dcg_score``). Each runs unchanged, with
scikit-learn's functions replaced by this package's in the test module, in
``sklearn.metrics`` and in ``sklearn.metrics._ranking``; so the expected values,
exception types and messages are those of the installed scikit-learn version.
A test that does not exist in that version is simply not collected.
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import warnings

import numpy as np
import pytest
import sklearn.metrics
from sklearn.metrics import _ranking

from sklearn_ndcg import dcg_score, ndcg_score

_OURS = {"ndcg_score": ndcg_score, "dcg_score": dcg_score}
_THEIRS = {_ranking.ndcg_score: ndcg_score, _ranking.dcg_score: dcg_score}


def _dcg_sample_scores(y_true, y_score, k=None, log_base=2, ignore_ties=False):
    """scikit-learn's private per-query DCG, from this package's ``dcg_score``.

    One call per row: numpy sorts each row of a 2-D array on its own, so a row
    alone is ordered as within the whole array.
    """
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    return np.array(
        [
            dcg_score(t[None], s[None], k=k, log_base=log_base, ignore_ties=ignore_ties)
            for t, s in zip(y_true, y_score)
        ]
    )


def _ndcg_sample_scores(y_true, y_score, k=None, ignore_ties=False):
    """scikit-learn's private per-query NDCG, from this package's ``ndcg_score``."""
    y_true, y_score = np.asarray(y_true), np.asarray(y_score)
    return np.array(
        [
            ndcg_score(t[None], s[None], k=k, ignore_ties=ignore_ties)
            for t, s in zip(y_true, y_score)
        ]
    )


_PRIVATE = {"_dcg_sample_scores": _dcg_sample_scores, "_ndcg_sample_scores": _ndcg_sample_scores}


_NOT_LOADED: dict[str, str] = {}


def _load(module: str):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return importlib.import_module(module)
    # tests not shipped, an optional dependency missing, or a pytest mark unknown here
    except (Exception, pytest.fail.Exception) as exc:
        _NOT_LOADED[module] = f"{type(exc).__name__}: {exc}"
        return None


_RANKING = _load("sklearn.metrics.tests.test_ranking")
_COMMON = _load("sklearn.metrics.tests.test_common")


def _expand(func):
    """The (id, kwargs) of every combination of the function's parametrize marks."""
    tables = []
    for mark in getattr(func, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        names, values = mark.args[0], mark.args[1]
        names = [n.strip() for n in names.split(",")] if isinstance(names, str) else list(names)
        rows = []
        for value in list(values):
            value = getattr(value, "values", value)  # pytest.param(...)
            rows.append(dict(zip(names, value if len(names) > 1 else (value,))))
        tables.append(rows)
    for combination in itertools.product(*tables):
        kwargs = {}
        for row in combination:
            kwargs.update(row)
        yield kwargs


def _label(kwargs) -> str:
    def name(value):
        if callable(value):
            return getattr(value, "__name__", type(value).__name__)
        text = repr(value) if not isinstance(value, str) else value
        return text if len(text) <= 30 else text[:27] + "..."

    return "-".join(f"{key}={name(value)}" for key, value in kwargs.items())


def _is_ours(value) -> bool:
    return (isinstance(value, str) and value in _OURS) or (
        callable(value) and any(value is theirs for theirs in _THEIRS)
    )


def _cases():
    cases = []
    if _RANKING is not None:
        for name, func in vars(_RANKING).items():
            if name.startswith("test_") and "dcg" in name and inspect.isfunction(func):
                for kwargs in _expand(func) or [{}]:
                    cases.append(
                        pytest.param("ranking", name, kwargs, id=f"{name}[{_label(kwargs)}]")
                    )
    if _COMMON is not None:
        for name, func in vars(_COMMON).items():
            if not (name.startswith("test_") and inspect.isfunction(func)):
                continue
            for kwargs in _expand(func):
                if any(_is_ours(v) for v in kwargs.values()):
                    cases.append(
                        pytest.param("common", name, kwargs, id=f"{name}[{_label(kwargs)}]")
                    )
    return cases


@pytest.fixture
def ours_in_sklearn(monkeypatch):
    """Put this package's functions wherever scikit-learn's tests look for theirs."""
    for module in (sklearn.metrics, _ranking, _RANKING, _COMMON):
        if module is None:
            continue
        for name, func in _OURS.items():
            if hasattr(module, name):
                monkeypatch.setattr(module, name, func)
    if _RANKING is not None:
        for name, func in _PRIVATE.items():
            monkeypatch.setattr(_RANKING, name, func)
    if _COMMON is not None:  # the tables of metrics by name
        for table in vars(_COMMON).values():
            if isinstance(table, dict):
                for key, value in list(table.items()):
                    if key in _OURS and callable(value):
                        monkeypatch.setitem(table, key, _OURS[key])


_FIXTURES = {"global_random_seed": 42, "global_dtype": np.float64}


@pytest.mark.parametrize("where, name, kwargs", _cases() or [pytest.param(None, None, None)])
def test_sklearn_own_test(where, name, kwargs, ours_in_sklearn):
    if where is None:
        pytest.skip(f"scikit-learn's tests could not be imported: {_NOT_LOADED}")
    func = vars(_RANKING if where == "ranking" else _COMMON)[name]
    kwargs = {k: _THEIRS.get(v, v) if callable(v) else v for k, v in kwargs.items()}
    for param in inspect.signature(func).parameters:
        if param not in kwargs:
            if param not in _FIXTURES:
                pytest.skip(f"{name} needs the fixture {param!r}")
            kwargs[param] = _FIXTURES[param]
    func(**kwargs)
