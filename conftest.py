"""pytest configuration for the doctests outside tests/.

``docs/`` is collected for its ``.rst`` pages only: not the Sphinx
configuration, the layout script, the gallery scripts (Sphinx runs those) or
build output. The docstring examples of ``sklearn_ndcg.dask`` (written in
``_dask/``) and the Dask page need the optional ``dask`` extra; without it they
are not collected, as the tests in ``tests/dask/`` skip themselves.
``sklearn_ndcg/_spark/_ml.py`` defines its classes with pyspark's, so it is not
collected without the ``spark`` extra.
"""

import importlib.util
import os
import sys

import pytest

collect_ignore = ["docs/conf.py", "docs/check_layout.py", "docs/examples"]
collect_ignore_glob = [
    "docs/_build/*",
    "docs/auto_examples/*",
    "docs/generated/*",
    "docs/sg_execution_times.rst",
]


def _installed(name: str) -> bool:
    """Whether package ``name`` is installed: not the namespace package that a folder of
    ``tests/`` (on sys.path, see pyproject) makes of its name, as ``tests/dask/`` does."""
    spec = importlib.util.find_spec(name)
    return spec is not None and spec.origin is not None


if not (_installed("dask") and _installed("distributed")):
    collect_ignore += ["sklearn_ndcg/dask.py", "sklearn_ndcg/_dask", "docs/dask.rst"]
if importlib.util.find_spec("pyspark") is None:
    collect_ignore += ["sklearn_ndcg/_spark/_ml.py"]
if not _installed("ir_measures"):  # register_ir_measures' example registers a provider
    collect_ignore += ["sklearn_ndcg/_ir/_ir_measures.py"]


@pytest.fixture(autouse=True)
def _close_figures():
    """Close the figures a doctest or test opened: the pages' and docstrings' examples
    together open more than matplotlib's 20 before warning (an error here)."""
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


#: What the version matrix (.ci/matrix sets SKLEARN_NDCG_MATRIX=1) runs: the tests whose
#: outcome depends on the installed numpy, scipy, pandas, scikit-learn or optional peer
#: (parity with scikit-learn and scipy, estimator checks, metadata routing, input dtypes,
#: error messages built from the stack's, the docstring examples' reprs, Dask and Spark),
#: less the slow tests, the Spark comparisons outside tests/spark and the later parameters
#: of the Spark and Dask tests (pytest_collection_modifyitems). The rest
#: (simulations, trec_eval parity, the benchmarks' smoke runs, the docs) depends on the
#: package alone and runs once, in CI's main job.
MATRIX = (
    "sklearn_ndcg/",
    "tests/test_",
    "tests/engine/",
    "tests/metrics/",
    "tests/model_selection/",
    "tests/dask/",
    "tests/spark/",
    "tests/common/test_sklearn_",
    "tests/common/test_input_types.py",
    "tests/common/test_routing.py",
    "tests/common/test_tuners.py",
    "tests/common/test_bad_input.py",
    "tests/common/test_value_errors_located.py",
    "tests/common/test_public_api.py",
    "tests/clicks/test_log_inputs.py",
    "tests/judgments/test_inputs.py",
    "tests/stats/test_batch.py",
    "tests/stats/test_benchmark_input.py",
)


def _matrix() -> bool:
    return os.environ.get("SKLEARN_NDCG_MATRIX") == "1"


def pytest_ignore_collect(collection_path, config):
    """In the version matrix, the files outside MATRIX are not collected."""
    if not _matrix() or collection_path.is_dir():
        return None
    try:
        relative = collection_path.relative_to(config.rootpath).as_posix()
    except ValueError:  # a path outside the checkout, named by the user
        return None
    return True if not relative.startswith(MATRIX) else None


def _main_job_only(item, seen: set) -> bool:
    """Slow; a comparison of Spark's message or value with memory's outside the Spark
    files (the same engine behind pyspark; tests/spark checks pyspark's API); or a Spark
    or Dask test's second and later parameters (each test runs once per row, with its
    first: the cluster's API is what the row's versions change)."""
    if "slow" in item.keywords:
        return True
    spark_file = item.path.name == "test_spark.py" or item.path.parent.name == "spark"
    if "spark" in getattr(item, "fixturenames", ()) and not spark_file:
        return True
    if item.path.parent.name in ("spark", "dask") and hasattr(item, "callspec"):
        function = (item.path, item.originalname)
        if function in seen:
            return True
        seen.add(function)
    return False


def _long(item) -> bool:
    """Seconds rather than milliseconds: the slow tests, and those of a Spark session or a
    Dask cluster."""
    fixtures = getattr(item, "fixturenames", ())
    return "slow" in item.keywords or "spark" in fixtures or item.path.parent.name == "dask"


def pytest_configure(config):
    """Under pytest-xdist (the README's ``-n auto``), the workers are sent a few tests at a
    time (``--maxschedchunk``, unless given), so that the long tests, collected first
    (below), are shared among them rather than sent to one in its first batch."""
    if getattr(config.option, "numprocesses", None) and hasattr(config.option, "maxschedchunk"):
        if config.option.maxschedchunk is None:
            config.option.maxschedchunk = 4


def pytest_collection_modifyitems(config, items):
    """The long tests first, so that no worker is left with one at the end while the
    others wait (every worker sorts the same collection the same way). In the version
    matrix, the tests marked slow (long simulations, mypy), the Spark comparisons outside
    tests/spark and the later parameters of the Spark and Dask tests are deselected: they
    run in CI's main job (.ci/run)."""
    items.sort(key=lambda item: not _long(item))  # stable: the order within each part kept
    if not _matrix():
        return
    seen: set = set()
    kept: list = []
    elsewhere: list = []
    for item in items:
        (elsewhere if _main_job_only(item, seen) else kept).append(item)
    if elsewhere:
        config.hook.pytest_deselected(items=elsewhere)
        items[:] = kept
