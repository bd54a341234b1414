"""Query-grouped (long format) input: one row per document and a query id.

Long format agrees with the same queries as 2-D rows, 1-D input without qid is
one query, and single-document queries score by hand arithmetic. Expected
values come from 2-D input, the slow reference, scikit-learn or hand arithmetic.
"""

import _reference as ref
import numpy as np
import pytest
from sklearn import metrics as skm

from sklearn_ndcg import dcg_score, ndcg_score
from sklearn_ndcg._engine import RankingOptions

RTOL = 1e-12
TIE_RULES = list(RankingOptions.TIE_RULES)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("ties", TIE_RULES)
def test_2d_and_long_format_agree(seed, ties, random_2d):
    y_true, y_score, weight = random_2d(seed, ties=True)
    n_queries, n_docs = y_true.shape
    qid = np.repeat(np.arange(n_queries), n_docs)
    long_weight = np.repeat(weight, n_docs)
    for k in (None, 2):
        for options in ({}, {"sample_weight": weight}):
            long_options = {"sample_weight": long_weight} if options else {}
            assert ndcg_score(
                y_true.ravel(), y_score.ravel(), qid=qid, ties=ties, k=k, **long_options
            ) == pytest.approx(ndcg_score(y_true, y_score, ties=ties, k=k, **options), rel=1e-14)
            assert dcg_score(
                y_true.ravel(), y_score.ravel(), qid=qid, ties=ties, k=k, **long_options
            ) == pytest.approx(dcg_score(y_true, y_score, ties=ties, k=k, **options), rel=1e-14)
    # the 2-D value also matches the reference
    assert ndcg_score(y_true, y_score, ties=ties) == pytest.approx(
        ref.ndcg(y_true, y_score, ties=ties), rel=RTOL
    )


def test_one_dimensional_without_qid_is_refused():
    # a forgotten qid must not make every row one query; one query is one 2-D row
    y_true, y_score = [3, 0, 2, 1], [0.1, 0.9, 0.5, 0.2]
    for metric in (ndcg_score, dcg_score):
        with pytest.raises(ValueError, match=r"qid is None.*pass qid=.*reshape\(1, -1\)"):
            metric(y_true, y_score)
    assert ndcg_score(y_true, y_score, qid=[0, 0, 0, 0]) == pytest.approx(
        skm.ndcg_score([y_true], [y_score]), rel=RTOL
    )
    assert dcg_score([y_true], [y_score]) == pytest.approx(
        skm.dcg_score([y_true], [y_score]), rel=RTOL
    )


def test_single_document_queries():
    # hand computation: a query of one document is perfectly ranked if relevant
    assert ndcg_score([1, 0, 2], [0.3, 0.2, 0.1], qid=[1, 2, 3]) == pytest.approx(2 / 3)
    assert dcg_score([1, 0, 2], [0.3, 0.2, 0.1], qid=[1, 2, 3]) == pytest.approx(1.0)


_HASHED = np.array([-(2**63), 2**63 - 1, -7, 2**62 + 3, 12345, -(2**40)], dtype=np.int64)
COMPACT_IDS = {  # six query codes 0..5 -> ids taking each path of the grouping
    "int8, negative": lambda code: (code - 100).astype(np.int8),
    "int16": lambda code: (code * 1000 - 3000).astype(np.int16),
    "int32, 31 bits of span": lambda code: (code * 2**28).astype(np.int32),
    "uint64 beyond int64": lambda code: np.uint64(2**64 - 1) - code.astype(np.uint64),
    "int64, 38 bits of span (packed keys)": lambda code: code.astype(np.int64) * 2**35,
    "hashed int64 (keys beyond 64 bits)": lambda code: _HASHED[code],
}


@pytest.mark.parametrize("ids", list(COMPACT_IDS))
@pytest.mark.parametrize("score_dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("ties", TIE_RULES)
def test_compact_dtypes_give_the_reference_values(ids, score_dtype, ties):
    # interleaved rows of six ragged queries; scores in halves, exact in float16, tied
    rng = np.random.default_rng(len(ids))
    code = rng.permutation(np.repeat(np.arange(6), [2, 9, 5, 14, 7, 3]))
    qid = COMPACT_IDS[ids](code)
    y_true = rng.integers(0, 4, code.shape[0]).astype(float)
    y_score = (rng.integers(-4, 5, code.shape[0]) / 2).astype(score_dtype)
    for k in (None, 3):
        expected = ref.ndcg(y_true, y_score.astype(float), qid=code, ties=ties, k=k)
        got = ndcg_score(y_true, y_score, qid=qid, ties=ties, k=k)
        assert got == pytest.approx(expected, rel=RTOL)


@pytest.mark.parametrize("score_dtype", [np.float16, np.float32])
def test_compact_scores_agree_with_scikit_learn(score_dtype):
    # scikit-learn's ndcg_score averages ties (ties="average"); 2-D and long format
    rng = np.random.default_rng(7)
    y_true = rng.integers(0, 5, (20, 12)).astype(float)
    y_score = (rng.integers(0, 6, (20, 12)) / 4).astype(score_dtype)
    qid = np.repeat(np.arange(20, dtype=np.int32), 12)[::-1]  # grouped, decreasing ids
    shuffle = rng.permutation(qid.shape[0])
    for k in (None, 5):
        expected = skm.ndcg_score(y_true[::-1], y_score[::-1].astype(float), k=k)
        assert ndcg_score(y_true, y_score, k=k) == pytest.approx(expected, rel=RTOL)
        long = ndcg_score(y_true.ravel()[shuffle], y_score.ravel()[shuffle], qid=qid[shuffle], k=k)
        assert long == pytest.approx(expected, rel=RTOL)


@pytest.mark.parametrize("ids_type", ["numpy int32", "pandas Int32"])
def test_large_compact_input_agrees_with_scikit_learn(ids_type):
    # 300,000 shuffled rows (more than the 262,144 from which int32 ids are split by
    # their top bits before the sort) with float32 scores (columns then read through
    # the order block by block): scikit-learn's ndcg_score of the same queries as 2-D
    # rows, in id order, is the reference (its default averages ties, as ours)
    rng = np.random.default_rng(38)
    n_queries, n_docs = 10_000, 30
    y_true = rng.integers(0, 5, (n_queries, n_docs)).astype(float)
    y_score = (rng.integers(0, 40, (n_queries, n_docs)) / 4).astype(np.float32)  # ties
    ids = np.sort(rng.choice(2**31 - 1, n_queries, replace=False)).astype(np.int32)
    shuffle = rng.permutation(n_queries * n_docs)
    qid = np.repeat(ids, n_docs)[shuffle]
    if ids_type == "pandas Int32":
        pd = pytest.importorskip("pandas")
        qid = pd.Series(qid, dtype="Int32")
    got = ndcg_score(y_true.ravel()[shuffle], y_score.ravel()[shuffle], qid=qid, k=10)
    expected = skm.ndcg_score(y_true, y_score.astype(float), k=10)
    assert got == pytest.approx(expected, rel=RTOL)
