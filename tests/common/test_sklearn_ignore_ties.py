"""``ignore_ties=True`` orders tied documents as scikit-learn does.

scikit-learn ranks each row of 2-D input by ``np.argsort(y_score)[:, ::-1]``
(``_dcg_sample_scores`` in ``sklearn/metrics/_ranking.py``), on the scores in
their own dtype; the order of tied documents is then whatever numpy's sort
gives. Expected values come from the installed scikit-learn.
"""

import numpy as np
import pytest
from sklearn import metrics as skm

from sklearn_ndcg import dcg_score, ndcg_score

RTOL = 1e-12
# numpy's sort orders ties differently for different dtypes (e.g. int8 against
# float64), and scikit-learn sorts the scores in the dtype they came in
SCORE_DTYPES = [np.float64, np.int64, np.float32, np.int32, np.int8, np.uint8, np.float16]


def _random_call(rng):
    """Random 2-D input with heavy ties: scores of 2 or 3 values, labels 0..4."""
    n_queries, n_docs = int(rng.integers(1, 8)), int(rng.integers(2, 40))
    y_true = rng.integers(0, 5, size=(n_queries, n_docs))
    if rng.random() < 0.3:
        y_true = y_true * rng.uniform(0.5, 1.5)  # non-integer relevance
    dtype = SCORE_DTYPES[int(rng.integers(len(SCORE_DTYPES)))]
    y_score = rng.integers(0, int(rng.integers(2, 4)), size=(n_queries, n_docs)).astype(dtype)
    weight = rng.uniform(0.1, 3, size=n_queries) if rng.random() < 0.3 else None
    k = int(rng.integers(1, n_docs + 3))
    return y_true, y_score, weight, k


def test_ignore_ties_equals_scikit_learn_on_1000_random_calls():
    rng = np.random.default_rng(2022)
    differ_from_first = 0
    for _ in range(1000):
        y_true, y_score, weight, k = _random_call(rng)
        for cutoff in (None, k):
            options = {"k": cutoff, "sample_weight": weight, "ignore_ties": True}
            expected_ndcg = skm.ndcg_score(y_true, y_score, **options)
            expected_dcg = skm.dcg_score(y_true, y_score, **options)
            got_ndcg = ndcg_score(y_true, y_score, **options)
            assert got_ndcg == pytest.approx(expected_ndcg, rel=RTOL, abs=1e-300)
            assert dcg_score(y_true, y_score, **options) == pytest.approx(
                expected_dcg, rel=RTOL, abs=1e-300
            )
            first = ndcg_score(y_true, y_score, k=cutoff, sample_weight=weight, ties="first")
            differ_from_first += first != pytest.approx(expected_ndcg, rel=RTOL)
    # the data has ties that matter: the input order ("first") is not scikit-learn's
    assert differ_from_first > 100


@pytest.mark.parametrize("dtype", SCORE_DTYPES + [bool])
def test_ignore_ties_uses_the_dtype_of_the_scores(dtype):
    """All scores tied in one long row: the order is the one of numpy's sort of that dtype."""
    rng = np.random.default_rng(7)
    y_true = rng.integers(0, 5, size=(3, 70))
    y_score = np.ones((3, 70), dtype=dtype)
    y_score[:, ::7] = 0
    for k in (None, 5):
        assert ndcg_score(y_true, y_score, k=k, ignore_ties=True) == pytest.approx(
            skm.ndcg_score(y_true, y_score, k=k, ignore_ties=True), rel=RTOL
        )
        assert dcg_score(y_true, y_score, k=k, ignore_ties=True) == pytest.approx(
            skm.dcg_score(y_true, y_score, k=k, ignore_ties=True), rel=RTOL
        )


def test_ignore_ties_moves_document_weight_with_its_document():
    # hand computation: scikit-learn's order of the tied row [1, 1, 1] is documents
    # 2, 1, 0 (np.argsort gives 0, 1, 2 for equal values, reversed); document 1
    # has weight 0, so DCG = 3 * 1 + 0 + 1 * 1 / 2
    y_true, y_score = [[1, 2, 3]], [[1, 1, 1]]
    assert np.argsort(np.array(y_score))[0, ::-1].tolist() == [2, 1, 0]
    got = dcg_score(y_true, y_score, ignore_ties=True, document_weight=[[1, 0, 1]])
    assert got == pytest.approx(3 + 1 / 2, rel=1e-15)


def test_ignore_ties_in_long_format_keeps_the_input_order():
    """Long format has no scikit-learn order to copy: tied documents stay in input order."""
    y_true, y_score, qid = [1, 2, 3, 0, 1], [1, 1, 1, 2, 2], [0, 0, 0, 1, 1]
    assert ndcg_score(y_true, y_score, qid=qid, ignore_ties=True) == ndcg_score(
        y_true, y_score, qid=qid, ties="first"
    )
    # hand computation: query 0 in input order 1, 2, 3
    assert dcg_score([1, 2, 3], [1, 1, 1], qid=[0, 0, 0], ignore_ties=True) == pytest.approx(
        1 + 2 / np.log2(3) + 3 / 2, rel=1e-15
    )


def test_ignore_ties_does_not_change_the_input():
    y_true = np.array([[1.0, 2.0, 3.0], [3.0, 0.0, 1.0]])
    y_score = np.array([[1, 1, 1], [0, 2, 2]])
    before = y_true.copy(), y_score.copy()
    ndcg_score(y_true, y_score, ignore_ties=True)
    np.testing.assert_array_equal(y_true, before[0])
    np.testing.assert_array_equal(y_score, before[1])
