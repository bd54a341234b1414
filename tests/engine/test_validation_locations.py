"""Errors for missing and infinite values name the first one's row and query, and count
all of them (issue 37, item 6); Dask counts over the whole frame, not one partition.

Reference: the positions written out by hand for each input below.
"""

import re

import numpy as np
import pytest

import sklearn_ndcg


def _message(*args, **kwargs):
    with pytest.raises(ValueError) as info:
        sklearn_ndcg.ndcg_score(*args, **kwargs)
    return str(info.value)


def test_long_format_names_the_row_and_query():
    y = [1, np.nan, 0, 2, np.nan, 1]
    message = _message(y, [3, 2, 1, 3, 2, 1], qid=["a", "a", "a", "b", "b", "b"])
    assert "at 2 position(s) of the flattened input (e.g. 1, 4)" in message
    assert "the first is in row 1, of query 'a'" in message
    message = _message([1, 0, 2], [0.5, np.inf, np.nan], qid=[7, 8, 8])
    assert "(y_score contains NaN and infinity); the first is in row 1, of query 8" in message


def test_two_d_names_the_query_row_and_document():
    message = _message([[1, 0, 2], [0, 1, np.nan]], [[1, 2, 3], [3, 2, 1]])
    assert "the first is in query (row) 1, document 2" in message


def test_missing_values_of_objects_and_weights():
    pd = pytest.importorskip("pandas")
    y = pd.array([1, None, 0, 2], dtype="Int64")
    message = _message(y, [4, 3, 2, 1], qid=[5, 5, 6, 6])
    assert "the first is in row 1, of query 5" in message
    message = _message(
        [1, 0, 2, 0], [4, 3, 2, 1], qid=[5, 5, 6, 6], sample_weight=[1, 1, 2, np.nan]
    )
    assert message.startswith("sample_weight contains") and "row 3, of query 6" in message


def test_dask_counts_every_partition():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from sklearn_ndcg import dask as ndcg_dask

    qid = np.repeat(np.arange(10), 6)
    y = np.tile([0.0, 1.0, 2.0, 0.0, 1.0, 3.0], 10)
    y[[7, 20, 33, 40, 55]] = np.nan  # five, in four partitions of 15 rows
    score = np.arange(60.0)[::-1]
    expected = _message(y, score, qid=qid)
    assert "at 5 position(s)" in expected and "(e.g. 7, 20, 33, 40, 55)" in expected
    frame = dd.from_pandas(pd.DataFrame({"qid": qid, "label": y, "score": score}), npartitions=4)
    with pytest.raises(ValueError, match=re.escape(expected)):
        ndcg_dask.ndcg_score(frame)


def test_refused_labels_and_weights_name_the_row_and_query():
    """Values that are given and finite but refused: the same wording as missing ones."""
    y = [1, 0, -1, 2, -2, 1]
    message = _message(y, [3, 2, 1, 3, 2, 1], qid=["a", "a", "a", "b", "b", "b"])
    first = int(np.flatnonzero(np.asarray(y) < 0)[0])
    assert "(min -2) at 2 position(s) of the flattened input (e.g. 2, 4)" in message
    assert f"the first is in row {first}, of query 'a';" in message
    weight = [1, 1, -3, -3]  # query 6 weighs -3
    message = _message([1, 0, 2, 0], [4, 3, 2, 1], qid=[5, 5, 6, 6], sample_weight=weight)
    assert message.startswith("sample_weight has negative values at 2 position(s)")
    assert "the first is in row 2, of query 6; weights must be >= 0." in message


def test_dask_names_the_frame_s_labels_not_a_partition_s():
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from sklearn_ndcg import dask as ndcg_dask

    qid = np.repeat(np.arange(10), 6)
    y = np.tile([0.0, 1.0, 2.0, 0.0, 1.0, 3.0], 10)
    y[[8, 22, 47]] = [7.0, 9.0, 8.0]  # three labels the mapping lacks, in three partitions
    score = np.arange(60.0)[::-1]
    gain = {0: 0.0, 1: 1.0, 2: 3.0, 3: 7.0}
    expected = _message(y, score, qid=qid, gain=gain)
    assert "relevance labels [7, 8, 9]" in expected and "(e.g. 8, 22, 47)" in expected
    frame = dd.from_pandas(pd.DataFrame({"qid": qid, "label": y, "score": score}), npartitions=4)
    with pytest.raises(ValueError, match=re.escape(expected)):
        ndcg_dask.ndcg_score(frame, gain=gain)
