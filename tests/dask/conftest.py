"""The Dask tests skip where dask or distributed is missing (each file says so); every
file runs on one LocalCluster of 2 worker processes on the loopback interface, started
and closed by the ``client`` fixture (tests/conftest.py)."""

import os

import pytest
from _dask_data import DASK_WARNINGS


def pytest_collection_modifyitems(config, items):
    """distributed's shutdown noise ignored here (see tests/_dask_data.py)."""
    here = os.path.dirname(__file__)
    for item in items:
        if str(item.fspath).startswith(here):
            for spec in DASK_WARNINGS:
                item.add_marker(pytest.mark.filterwarnings(spec))


@pytest.fixture(scope="module")
def small_frame():
    import dask.dataframe as dd
    import pandas as pd

    rows = pd.DataFrame(
        {
            "qid": [1, 1, 2, 2],
            "label": [1.0, 0.0, 2.0, 1.0],
            "score": [0.3, 0.1, 0.2, 0.4],
            "w": [1.0, 2.0, 1.0, 1.0],  # varies within query 1
            "text": ["a", "b", "c", "d"],
        }
    )
    return dd.from_pandas(rows, npartitions=2)
