"""The tests skip where pyspark or Java is missing; the SparkSession (the ``spark`` fixture)
is the whole run's one, from tests/conftest.py."""

import importlib.util
import os

import pytest
from _spark_session import SPARK_WARNINGS

MISSING = next(
    (
        f"needs {name} (the spark extra: pip install '.[spark]')"
        for name in ("pyspark", "pyarrow")
        if importlib.util.find_spec(name) is None
    ),
    None,
)


def pytest_collection_modifyitems(config, items):
    """PySpark's own warnings ignored here; every test but the import test skipped, saying
    why, without pyspark or pyarrow."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            for spec in SPARK_WARNINGS:
                item.add_marker(pytest.mark.filterwarnings(spec))
            if MISSING and not item.name.startswith("test_importing_"):
                item.add_marker(pytest.mark.skip(reason=MISSING))
