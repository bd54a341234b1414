"""The data path over a dask DataFrame: the shuffle by query (or none where partitions
hold whole queries) and the scoring of each partition."""

import numpy as np
import pytest

dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")

import pandas as pd  # noqa: E402
from _dask_data import N_PARTITIONS, in_memory, long_format  # noqa: E402
from numpy.testing import assert_allclose, assert_array_equal  # noqa: E402

import sklearn_ndcg  # noqa: E402
import sklearn_ndcg.dask  # noqa: E402


def test_data_is_really_spread_over_partitions():
    """The fixture data splits queries across partitions, which the shuffle must undo."""
    rows = long_format(seed=0)
    frame = dd.from_pandas(rows, npartitions=N_PARTITIONS)
    per_partition = frame.map_partitions(
        lambda part: part.drop_duplicates("qid")[["qid"]], meta={"qid": np.int64}
    ).compute()
    assert frame.npartitions == N_PARTITIONS
    # most queries appear in several partitions
    assert (per_partition["qid"].value_counts() > 1).mean() > 0.5


@pytest.mark.parametrize("ties", ["average", "first"])
def test_partitions_holding_whole_queries_are_scored_in_place(ties):
    # rows sorted by query: each partition holds whole queries, no shuffle needed;
    # interleaved rows: a shuffle; both equal the in-memory value
    from sklearn_ndcg._dask._checks import holds_whole_queries

    rng = np.random.default_rng(0)
    qid = np.repeat(np.arange(40), rng.integers(1, 9, 40))
    frame = pd.DataFrame(
        {"qid": qid, "label": rng.integers(0, 4, qid.size), "score": rng.integers(0, 3, qid.size)}
    )
    expected = sklearn_ndcg.ndcg_score(frame.label, frame.score, qid=frame.qid, k=3, ties=ties)
    # four partitions of ten whole queries each (from_pandas may cut a query in two)
    by_query = dd.concat(
        [dd.from_pandas(frame[frame.qid // 10 == part], npartitions=1) for part in range(4)]
    )
    interleaved = dd.from_pandas(frame.sample(frac=1.0, random_state=0), npartitions=4, sort=False)
    assert holds_whole_queries(by_query, "qid")
    assert not holds_whole_queries(interleaved, "qid")
    # ties="first" follows the input order, so the interleaved frame has its own
    shuffled = frame.sample(frac=1.0, random_state=0)
    expected_interleaved = sklearn_ndcg.ndcg_score(
        shuffled.label, shuffled.score, qid=shuffled.qid, k=3, ties=ties
    )
    assert sklearn_ndcg.dask.ndcg_score(by_query, k=3, ties=ties) == pytest.approx(
        expected, rel=1e-12
    )
    assert sklearn_ndcg.dask.ndcg_score(interleaved, k=3, ties=ties) == pytest.approx(
        expected_interleaved, rel=1e-12
    )


def test_a_partition_is_scored_with_the_typed_options():
    """The partitions get the options resolved once, as a RankingOptions (pickled to
    the workers), and give the in-memory per-query values."""
    import pickle

    from sklearn_ndcg._dask._partitions import _partition_scores
    from sklearn_ndcg._engine import RankingOptions

    rows = long_format(seed=2)
    options = RankingOptions(k=3, ties="first", gain="exponential")
    assert pickle.loads(pickle.dumps(options)) == options
    columns = {"qid": "qid", "y_true": "label", "y_score": "score", "sample_weight": "w"}
    got = _partition_scores(rows, columns=columns, options=options, qid_dtype=rows["qid"].dtype)
    expected = in_memory(
        rows,
        function=sklearn_ndcg.query_scores,
        sample_weight="w",
        k=3,
        ties="first",
        gain="exponential",
    )
    assert_array_equal(got.index.to_numpy(), expected.qid)
    assert_allclose(got["ndcg"].to_numpy(), expected.score, rtol=1e-15)
    assert_allclose(got["weight"].to_numpy(), expected.weight, rtol=1e-15)
