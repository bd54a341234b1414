"""refused_rows and raise_for_frame: the in-memory error for bad values of a frame cut
into partitions, whatever the cut (the code behind Dask's and Spark's messages, run here
without either).

Reference: the in-memory ndcg_score on the whole arrays; the rows and counts written out
by hand below.
"""

import numpy as np
import pytest

import sklearn_ndcg
from sklearn_ndcg._metrics._frame_checks import (
    checked_columns,
    raise_for_frame,
    refused_rows,
)
from sklearn_ndcg._options import ranking_options

QID = np.repeat([5, 6, 7, 8], 5)
LABEL = np.tile([0.0, 1.0, 2.0, 1.0, 0.0], 4)
SCORE = np.linspace(1.0, 0.0, 20)
WEIGHT = np.repeat([1.0, 2.0, 3.0, 4.0], 5)


def _memory(label, weight, **options):
    with pytest.raises(ValueError) as info:
        sklearn_ndcg.ndcg_score(label, SCORE, qid=QID, sample_weight=weight, **options)
    return str(info.value)


def _partitioned(label, weight, cuts, **options):
    """The error raised from the summaries of the partitions cut at ``cuts``."""
    resolved = ranking_options("ndcg", **options)
    columns = {"qid": "q", "y_true": "y", "y_score": "s", "sample_weight": "w"}
    checked = checked_columns(columns)
    assert list(checked) == ["y_true", "y_score", "sample_weight", "gain"]
    data = {"y_true": label, "y_score": SCORE, "sample_weight": weight, "gain": label}
    summaries = []
    for part in np.split(np.arange(20), cuts):
        values = {role: data[role][part] for role in checked}
        summaries.append(refused_rows(values, QID[part], resolved))
    with pytest.raises(ValueError) as info:
        raise_for_frame(summaries, resolved)
    return str(info.value)


CUTS = [[], [7], [3, 11, 16], list(range(1, 20))]


@pytest.mark.parametrize("cuts", CUTS, ids=lambda c: f"{len(c) + 1}-parts")
def test_labels_and_weights_as_in_memory(cuts):
    label = LABEL.copy()
    label[[2, 9, 17]] = [-1.0, -4.0, -1.0]
    expected = _memory(label, WEIGHT)
    assert "(min -4) at 3 position(s) of the flattened input (e.g. 2, 9, 17)" in expected
    assert "the first is in row 2, of query 5;" in expected
    assert _partitioned(label, WEIGHT, cuts) == expected

    label = LABEL.copy()
    label[[4, 13, 19]] = [7.0, 1.5, 2.5]  # non-integers are refused before 7
    expected = _memory(label, WEIGHT, gain=[0.0, 1.0, 3.0])
    assert "got [1.5, 2.5] at 2 position(s) of the flattened input (e.g. 13, 19)" in expected
    assert _partitioned(label, WEIGHT, cuts, gain=[0.0, 1.0, 3.0]) == expected

    weight = WEIGHT.copy()
    weight[0:5], weight[15:20] = -1.0, np.nan  # missing weights are refused first
    expected = _memory(LABEL, weight)
    assert "at 5 position(s) of the flattened input (e.g. 15, 16, 17, 18, 19)" in expected
    assert _partitioned(LABEL, weight, cuts) == expected


def test_more_than_five_and_every_distinct_label():
    label = LABEL.copy()
    label[[1, 3, 6, 8, 11, 13, 18]] = [-1.0, -1.0, -1.0, -1.0, -1.0, -1.0, -9.0]
    expected = _memory(label, None, gain="exponential")
    assert "(min -9) at 7 position(s) of the flattened input (e.g. 1, 3, 6, 8, 11, ...)" in (
        expected
    )
    for cuts in CUTS:  # the smallest label, in the last row, is found whatever the cut
        assert _partitioned(label, WEIGHT, cuts, gain="exponential") == expected


def test_valid_partitions_raise_nothing():
    resolved = ranking_options("ndcg")
    summary = refused_rows({"y_true": LABEL, "gain": LABEL}, QID, resolved)
    assert summary == {"y_true": (20, 0, [], [], []), "gain": (20, 0, [], [], [])}
    assert raise_for_frame([summary, summary], resolved) is None


def test_each_role_is_checked_as_itself():
    # a partition's summary of refused values, role by role: a missing score is refused
    # in the y_score role only, a negative weight in the sample_weight role only
    resolved = ranking_options("ndcg")
    score, weight = SCORE.copy(), WEIGHT.copy()
    score[3], weight[7] = np.nan, -1.0
    values = {"y_true": LABEL, "y_score": score, "sample_weight": weight, "gain": LABEL}
    summary = refused_rows(values, QID, resolved)
    # (rows, count, positions, their query ids, their values), by hand
    assert summary["y_true"] == (20, 0, [], [], [])
    assert summary["y_score"][:4] == (20, 1, [3], [5])
    assert np.isnan(summary["y_score"][4]).all()
    assert summary["sample_weight"] == (20, 1, [7], [6], [-1.0])
    assert summary["gain"] == (20, 0, [], [], [])
