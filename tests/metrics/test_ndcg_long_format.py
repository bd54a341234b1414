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
