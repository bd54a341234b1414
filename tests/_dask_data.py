"""Shared by the Dask tests (tests/test_dask.py, tests/dask/): a local cluster, the
warnings of its shutdown that the tests ignore, and ragged long-format rows with their
in-memory values (sklearn_ndcg.ndcg_score and friends, tested on their own)."""

import contextlib

import numpy as np

import sklearn_ndcg

# Both guard against shutdown noise that distributed emits intermittently
# (it depends on timing; not seen in our runs with distributed 2026.8):
# closing a LocalCluster can leave a comm or a worker's event loop to be
# garbage collected after its socket closed, which Python reports as a
# ResourceWarning "unclosed <socket...>" / "unclosed event loop"; it says
# nothing about the results. pytest turns an exception that a background thread of
# distributed hits while the cluster closes (CommClosedError as a worker says
# goodbye) into PytestUnhandledThreadExceptionWarning; the cluster is gone by then.
DASK_WARNINGS = (
    "ignore:unclosed:ResourceWarning",
    "ignore::pytest.PytestUnhandledThreadExceptionWarning",
)

N_PARTITIONS = 12


@contextlib.contextmanager
def local_client():
    """Two single-threaded worker processes on 127.0.0.1, no dashboard."""
    import distributed

    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",
            dashboard_address=None,
            # The scheduler still serves /health over HTTP, by default on port 8787;
            # a random loopback port avoids a "port already in use" warning when
            # another cluster runs on this machine.
            scheduler_kwargs={"dashboard": False, "dashboard_address": "127.0.0.1:0"},
        ) as cluster,
        distributed.Client(cluster) as dask_client,
    ):
        yield dask_client


def long_format(seed, qid_kind="int", n_queries=50):
    """Rows of ragged queries, shuffled so that queries spread over partitions.

    Scores on a coarse grid (many ties), labels 0..3, a few queries with no
    relevant document, one weight per query.
    """
    import pandas as pd  # the Dask tests need it; tests/conftest.py imports this module

    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 25, n_queries)
    ids = rng.permutation(n_queries) * 7 + 3
    qid = np.repeat(ids, sizes)
    n_rows = qid.shape[0]
    label = rng.integers(0, 4, n_rows).astype(float)
    label[np.isin(qid, ids[:5])] = 0  # no relevant document
    score = rng.integers(0, 6, n_rows) / 2.0
    weight = np.repeat(rng.uniform(0.5, 2.0, n_queries), sizes)
    rows = pd.DataFrame({"qid": qid, "label": label, "score": score, "w": weight})
    if qid_kind == "str":
        rows["qid"] = [f"q{value}" for value in qid]
    return rows.iloc[rng.permutation(n_rows)].reset_index(drop=True)


def in_memory(rows, function=sklearn_ndcg.ndcg_score, sample_weight=None, **options):
    return function(
        rows["label"].to_numpy(),
        rows["score"].to_numpy(),
        qid=rows["qid"].to_numpy(),
        sample_weight=None if sample_weight is None else rows[sample_weight].to_numpy(),
        **options,
    )
