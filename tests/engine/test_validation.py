"""The validation stage: what check_ranking_input returns, and what it refuses.

Expected values are the inputs themselves, written out by hand as flat float64
rows; the refusals are those the docstrings of the stage promise.
"""

import numpy as np
import pytest

from sklearn_ndcg._engine._validation import (
    InputTypeError,
    apply_callable,
    argsort_layout,
    as_score_array,
    check_log_base,
    check_qid,
    check_ranking_input,
    check_weight,
)


def test_2d_input_becomes_flat_float64_rows():
    data = check_ranking_input([[3, 2], [1, 0]], [[0.5, 0.25], [1, 2]], sample_weight=[1, 2])
    assert data.y_true.dtype == data.y_score.dtype == np.float64
    assert data.y_true.tolist() == [3.0, 2.0, 1.0, 0.0]
    assert data.y_score.tolist() == [0.5, 0.25, 1.0, 2.0]
    assert data.qid is None and data.shape == (2, 2)
    assert data.sample_weight.tolist() == [1.0, 2.0]  # one per query (row)
    assert data.document_weight is None


def test_long_input_keeps_its_query_ids():
    data = check_ranking_input(
        [1, 0, 2], [0.1, 0.2, 0.3], ["a", "a", "b"], [1, 1, 2], document_weight=[1, 0.5, 2]
    )
    assert data.y_true.tolist() == [1.0, 0.0, 2.0]
    assert data.qid.tolist() == ["a", "a", "b"] and data.shape is None
    assert data.sample_weight.tolist() == [1.0, 1.0, 2.0]  # one per document
    assert data.document_weight.tolist() == [1.0, 0.5, 2.0]


def test_unjudged_labels_stay_nan_when_allowed():
    data = check_ranking_input([1.0, np.nan], [0.5, 0.4], [1, 1], unjudged_ok=True)
    assert data.y_true[0] == 1.0 and np.isnan(data.y_true[1])
    with pytest.raises(ValueError, match="y_true"):
        check_ranking_input([1.0, np.nan], [0.5, 0.4], [1, 1])


@pytest.mark.parametrize(
    "y_true, y_score, qid, match",
    [
        ([1, 0, 2], [3, 2, 1], None, "y_true is 1-D \\(3 documents\\) but qid is None"),
        ([[1, 0]], [[1, 0, 2]], None, "give one score per document"),
        ([], [], [], "y_true is empty"),
        ([[[1, 0]]], [[[1, 0]]], None, "must be 1-D \\(long format\\) or 2-D"),
        ([[1, 0]], [[1, 0]], [1, 1], "qid is only used with 1-D"),
        ([[1], [0]], [[1], [0]], None, "one document per query"),
        ([1, 0], [1, np.inf], [1, 1], "y_score"),
        ([1, 0], [1, 0], [1, 1, 1], "qid has 3 entries but y_true has 2"),
    ],
)
def test_refusals(y_true, y_score, qid, match):
    with pytest.raises(ValueError, match=match):
        check_ranking_input(y_true, y_score, qid)


def test_non_numbers_are_a_type_error_and_a_value_error():
    with pytest.raises(InputTypeError, match="y_true holds <U1 values; numbers were expected"):
        check_ranking_input(["a", "b"], [1, 0], [1, 1])
    assert issubclass(InputTypeError, TypeError) and issubclass(InputTypeError, ValueError)


@pytest.mark.parametrize(
    "labels", [["1", "0"], np.array([b"1", b"0"]), np.array(["good", 0], object)]
)
def test_text_labels_name_the_fix(labels):
    """Issue 50: the message named the dtype only; it names the conversion now."""
    with pytest.raises(InputTypeError, match=r"np\.asarray\(y_true, dtype=float\).*Series\.map"):
        check_ranking_input(labels, [1, 0], [1, 1])


def test_scores_beyond_2_to_the_53_are_not_tied():
    # float64 rounds 2**53 + 1 to 2**53: the dense rank keeps the two apart
    score = as_score_array(np.array([2**53 + 1, 2**53, 5], dtype=np.int64))
    assert score.tolist() == [2.0, 1.0, 0.0]
    assert as_score_array(np.array([0.5, -1.0])).tolist() == [0.5, -1.0]  # float64: kept


@pytest.mark.parametrize("dtype", [np.int8, np.int64, np.uint64, bool])
def test_integer_scores_float64_holds_are_kept(dtype):
    """Integers that float64 holds exactly keep their values (no dense rank), also
    8-byte ones up to 2**53 - 1."""
    values = [1, 0, 1] if dtype is bool else [7, 0, 2, 100]
    if dtype in (np.int64, np.uint64):
        values.append(2**53 - 1)
    score = as_score_array(np.array(values, dtype=dtype))
    assert score.dtype == np.float64 and score.tolist() == [float(v) for v in values]


def test_missing_values_message_shows_the_first_five_positions():
    # hand: NaN at flat positions 0..6, seven in all: five shown, then "..."
    y_score = [np.nan] * 7 + [1.0]
    with pytest.raises(ValueError, match=r"at 7 position\(s\) .*\(e\.g\. 0, 1, 2, 3, 4, \.\.\.\)"):
        check_ranking_input([1] * 8, y_score, [1] * 8)


def test_check_qid():
    assert check_qid(["q1", "q2", "x" * 50], 3).dtype == object
    assert check_qid(np.array([3, 1]), 2).tolist() == [3, 1]
    with pytest.raises(TypeError, match="qid mixes values"):
        check_qid([1, "1"], 2)
    with pytest.raises(TypeError, match="composite query ids"):
        check_qid([(1, 2), (1, 3)], 2)
    with pytest.raises(
        ValueError, match=r"qid contains missing values \(None, NaN, NaT or NA\) at 1 position"
    ):
        check_qid([1.0, np.nan], 2)
    with pytest.raises(ValueError, match="qid has 2 entries but y_score has 3"):
        check_qid([1, 2], 3, target="y_score")


def test_check_weight():
    assert check_weight(None, 3, "one per document") is None
    assert check_weight([1, 2], 2, "one per document").tolist() == [1.0, 2.0]
    with pytest.raises(ValueError, match="sample_weight has negative values"):
        check_weight([1, -1], 2, "one per document")
    with pytest.raises(ValueError, match="but 3 weights were expected, one per query"):
        check_weight([1, 2], 3, "one per query (row)")


def test_argsort_layout_puts_each_row_by_decreasing_score():
    # row scores 1, 3, 2: decreasing order is columns 1, 2, 0
    score = np.array([[1.0, 3.0, 2.0]])
    y_true, y_score, weight = argsort_layout(
        score, np.array([[10.0, 30.0, 20.0]]), score, np.array([0.1, 0.3, 0.2])
    )
    assert y_true.tolist() == [[30.0, 20.0, 10.0]]
    assert y_score.tolist() == [[3.0, 2.0, 1.0]]
    assert weight.tolist() == [0.3, 0.2, 0.1]


def test_check_log_base():
    check_log_base(None, "reciprocal")
    check_log_base(10, "log2")
    with pytest.raises(ValueError, match="log_base=10 only applies to discount='log2'"):
        check_log_base(10, "reciprocal")


def test_apply_callable():
    values = np.array([1.0, 2.0])
    assert apply_callable(lambda x: 2 * x, values, "gain", "gain per label").tolist() == [2, 4]
    with pytest.raises(ValueError, match="must return one gain per label"):
        apply_callable(lambda x: x[:1], values, "gain", "gain per label")
    with pytest.raises(ValueError, match="gain callable .* raised ZeroDivisionError"):
        apply_callable(lambda x: 1 / 0, values, "gain", "gain per label")
    with pytest.raises(TypeError, match="gain callable must return numbers"):
        apply_callable(lambda x: ["a", "b"], values, "gain", "gain per label")
    # the callable gets a copy: writing to it leaves the input as it was
    apply_callable(lambda x: x.fill(0) or x, values, "gain", "gain per label")
    assert values.tolist() == [1.0, 2.0]


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_compact_float_scores_are_kept_in_their_own_type(dtype):
    # ordering float32 / float16 values in their own type is exact: no float64 copy
    score = np.array([0.5, -1.0, 0.5, 3.0], dtype=dtype)
    kept = check_ranking_input([1, 0, 2, 1], score, [1, 1, 2, 2]).y_score
    assert kept.dtype == dtype
    np.testing.assert_array_equal(kept, score)
    # not finite: the full check and its message, as for float64
    with pytest.raises(ValueError, match="y_score"):
        check_ranking_input([1, 0], np.array([np.inf, 1.0], dtype=dtype), [1, 1])
    # without ``compact`` (the other callers), float64 as before
    assert as_score_array(score).dtype == np.float64


@pytest.mark.parametrize("size", [10, 2**16, 2**16 + 1])
@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf, None])
def test_all_finite_on_either_side_of_the_small_size(size, bad):
    """The check of small arrays (flags) and of large ones (a sum) agree, also on sums
    that overflow without any infinite value (the large check's false alarm)."""
    from sklearn_ndcg._engine._validation import _all_finite

    values = np.ones(size)
    if bad is None:
        values[:2] = np.finfo(float).max  # the sum overflows; every value is finite
        assert _all_finite(values) == (size <= 2**16)
        return
    values[size // 2] = bad
    assert not _all_finite(values)
    assert _all_finite(np.ones(size, dtype=np.float32))


class _FloatOnly:
    """A score object that converts to float but cannot be compared with another."""

    def __init__(self, value):
        self.value = value

    def __float__(self):
        return float(self.value)


def test_score_objects_numpy_cannot_sort_keep_their_float_values():
    # object scores are ranked exactly where numpy can sort them; these cannot be
    # compared, so their float64 values are kept (by hand: 0.5, 2.0, 1.0)
    score = np.array([_FloatOnly(0.5), _FloatOnly(2), _FloatOnly(1.0)], dtype=object)
    np.testing.assert_array_equal(as_score_array(score), [0.5, 2.0, 1.0])
