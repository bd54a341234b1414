"""Fixtures shared by several test files: small random ranking data, the TREC example.

Each random-data fixture returns a function of a seed, so that a test draws the same
data on every run and different tests draw different data. ``files`` writes the TREC
example of tests/_trec_example.py; ``spark`` is the run's one SparkSession.
"""

import re

import numpy as np
import pytest
from _dask_data import local_client
from _spark_session import JAVA, NO_JAVA, start_session
from _trec_example import write_files


def _random_ragged(seed, n_queries=7, max_docs=6):
    """Long-format labels 0..3, scores with many ties, shuffled rows.

    Query ids are distinct, not contiguous and not sorted. The first query
    always has a label 3; one query has only label 0 (no relevant document
    for the built-in gains).
    """
    rng = np.random.default_rng(seed)
    ids = rng.choice(np.arange(-50, 50), size=n_queries, replace=False)
    labels, scores, qids = [], [], []
    for i, q in enumerate(ids):
        n = rng.integers(1, max_docs + 1)
        rel = rng.integers(0, 4, size=n)
        if i == 0:
            rel[0] = 3
        if i == 1:
            rel[:] = 0
        score = rng.integers(0, 3, size=n).astype(float)
        if i == 2:  # tie-free scores
            score = rng.permutation(n) + 0.25
        labels.extend(rel)
        scores.extend(score)
        qids.extend([q] * n)
    order = rng.permutation(len(labels))
    take = lambda x: np.asarray(x)[order]  # noqa: E731
    return take(labels).astype(float), take(scores), take(qids)


def _random_2d(seed, ties):
    """Random 2-D labels and scores, and one weight per query; tied scores when ``ties``."""
    rng = np.random.default_rng(seed)
    n_queries, n_docs = rng.integers(1, 9), rng.integers(2, 12)
    if seed % 3 == 0:  # continuous non-negative relevance
        y_true = rng.uniform(0, 5, size=(n_queries, n_docs))
    else:
        y_true = rng.integers(0, 5, size=(n_queries, n_docs)).astype(float)
    y_true[0] = 0  # a query without any relevant document
    if ties:
        y_score = rng.integers(0, 3, size=(n_queries, n_docs)).astype(float)
    else:
        y_score = rng.permuted(
            np.tile(np.arange(n_docs, dtype=float), (n_queries, 1)), axis=1
        ) + rng.uniform(0, 0.5, size=(n_queries, n_docs))
    weight = rng.uniform(0, 3, size=n_queries)
    return y_true, y_score, weight


@pytest.fixture
def random_ragged():
    """``random_ragged(seed)``: long-format ``(y_true, y_score, qid)`` of 7 ragged queries."""
    return _random_ragged


@pytest.fixture
def random_2d():
    """``random_2d(seed, ties)``: 2-D ``(y_true, y_score, weight)``, one weight per query."""
    return _random_2d


@pytest.fixture(scope="session")
def spark():
    """The run's one local SparkSession (tests/_spark_session.py), stopped at the end;
    skips without pyspark (the spark extra) or a Java runtime."""
    pytest.importorskip("pyspark", reason="needs pyspark (the spark extra: pip install '.[spark]')")
    if not JAVA:
        pytest.skip(NO_JAVA)
    session = start_session()
    yield session
    session.stop()


@pytest.fixture(scope="module")
def client():
    """A dask LocalCluster of 2 worker processes on the loopback interface and its
    client, for one test module (tests/_dask_data.py); skips without distributed."""
    pytest.importorskip("distributed")
    with local_client() as dask_client:
        yield dask_client


@pytest.fixture
def files(tmp_path):
    """The TREC example of tests/_trec_example.py in files: the paths (qrels, run)."""
    return write_files(tmp_path)


# The extra that installs each optional module a test may skip without (pyproject.toml),
# so that a skip says what to install: "needs the ltr extra: pip install '.[ltr]'".
EXTRA_OF_MODULE = {
    "lightgbm": "ltr",
    "xgboost": "ltr",
    "catboost": "ltr",
    "optuna": "tune",
    "optuna_integration": "tune",
    "dask": "dask",
    "distributed": "dask",
    "ranx": "bench",
    "pytrec_eval": "bench",
    "numba": "bench",
    "pandas": "test",
    "polars": "test",
    "matplotlib": "test",
    "hypothesis": "test",
    "mpmath": "test",
    "numpydoc": "docs",
}


def _with_extra(reason):
    """An importorskip reason, with the extra that installs the missing module."""
    found = re.search(r"could not import '([\w.]+)'", reason)
    extra = found and EXTRA_OF_MODULE.get(found.group(1).split(".")[0])
    if not extra:
        return reason
    return f'{reason} (needs the {extra} extra: pip install ".[{extra}]")'


def _name_the_extra(report):
    if report.skipped and isinstance(report.longrepr, tuple) and len(report.longrepr) == 3:
        path, line, reason = report.longrepr
        report.longrepr = (path, line, _with_extra(reason))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    _name_the_extra(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector):
    outcome = yield
    _name_the_extra(outcome.get_result())
