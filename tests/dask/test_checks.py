"""The checks of a dask DataFrame: the frame itself and the types of its query ids."""

import pytest

dd = pytest.importorskip("dask.dataframe")
pytest.importorskip("distributed")

import pandas as pd  # noqa: E402

import sklearn_ndcg  # noqa: E402
import sklearn_ndcg.dask  # noqa: E402


@pytest.mark.parametrize(
    "frame, match",
    [
        (pd.DataFrame({"qid": [1], "label": [1.0], "score": [1.0]}), "in-memory pandas"),
        ([[1, 1.0, 1.0]], "got a list"),
    ],
    ids=["pandas", "list"],
)
def test_frame_must_be_a_dask_dataframe(frame, match):
    with pytest.raises(TypeError, match=rf"frame must be a dask.dataframe.DataFrame.*{match}"):
        sklearn_ndcg.dask.ndcg_score(frame)


def test_frame_must_not_be_a_series(small_frame):
    with pytest.raises(TypeError, match="a dask Series"):
        sklearn_ndcg.dask.ndcg_score(small_frame["label"])


@pytest.mark.parametrize("convert_string", [True, False])
@pytest.mark.parametrize("npartitions", [1, 2])
@pytest.mark.parametrize("ids", [[5, 5, "5", "5"], [5, "5", 5, "5"], [1.5, 1.5, "x", "x"]])
def test_mixed_qid_types_refused_asin_memory(client, ids, npartitions, convert_string):
    """5 and "5" are refused with the in-memory message, also after dask's string
    conversion has merged them into one id."""
    import dask

    rows = pd.DataFrame(
        {"qid": pd.Series(ids, dtype=object), "label": [1, 0, 0, 1], "score": [1.0, 2, 3, 4]}
    )
    with pytest.raises(TypeError) as in_memory:
        sklearn_ndcg.ndcg_score(rows["label"], rows["score"], qid=list(rows["qid"]))
    with dask.config.set({"dataframe.convert-string": convert_string}):
        frame = dd.from_pandas(rows, npartitions=npartitions)
        with pytest.raises(TypeError) as on_dask:
            sklearn_ndcg.dask.ndcg_score(frame)
    assert str(on_dask.value) == str(in_memory.value)
    assert "qid mixes values that cannot be compared" in str(on_dask.value)
