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


@pytest.fixture(autouse=True)
def _close_figures():
    """Close the figures a doctest or test opened: the pages' and docstrings' examples
    together open more than matplotlib's 20 before warning (an error here)."""
    yield
    if "matplotlib.pyplot" in sys.modules:
        sys.modules["matplotlib.pyplot"].close("all")


def pytest_collection_modifyitems(config, items):
    """With SKLEARN_NDCG_SKIP_SLOW=1 (the version matrix of .ci/matrix), the tests marked
    slow (long simulations, mypy) are skipped: they run once, in CI's main job."""
    if os.environ.get("SKLEARN_NDCG_SKIP_SLOW") != "1":
        return
    skip = pytest.mark.skip(reason="slow: run once, in CI's main job (.ci/run)")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
