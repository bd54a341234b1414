"""Input types: dtypes (float32, int, bool, large int64), pandas, the return type.

Expected values come from float64 input, from the slow reference, from
scikit-learn or from hand arithmetic.
"""

import _reference as ref
import numpy as np
import pytest
from sklearn import metrics as skm

from sklearn_ndcg import dcg_score, ndcg_score, query_scores
from sklearn_ndcg._engine import RankingOptions

RTOL = 1e-12
TIE_RULES = list(RankingOptions.TIE_RULES)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", TIE_RULES)
def test_float32_int_bool_inputs(seed, ties):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 4, size=(4, 6))
    y_score32 = rng.integers(0, 5, size=(4, 6)).astype(np.float32) / np.float32(3)
    weight32 = rng.uniform(0.5, 2, size=4).astype(np.float32)
    # float32 values are exact in float64, so the results are equal
    assert ndcg_score(y_true, y_score32, ties=ties, sample_weight=weight32) == pytest.approx(
        ndcg_score(
            y_true.astype(np.float64),
            y_score32.astype(np.float64),
            ties=ties,
            sample_weight=weight32.astype(np.float64),
        ),
        rel=1e-15,
    )
    assert ndcg_score(y_true.astype(np.int8), y_score32, ties=ties) == pytest.approx(
        ndcg_score(y_true.astype(float), y_score32.astype(float), ties=ties), rel=1e-15
    )
    y_bool = y_true > 1
    score_int = rng.integers(-3, 3, size=(4, 6))
    assert ndcg_score(y_bool, score_int, ties=ties) == pytest.approx(
        ref.ndcg(y_bool.astype(float), score_int.astype(float), ties=ties), rel=RTOL
    )
    assert dcg_score(y_bool, y_bool, ties=ties) == pytest.approx(
        ref.dcg(y_bool.astype(float), y_bool.astype(float), ties=ties), rel=RTOL
    )


def test_large_int64_scores_keep_their_order():
    # scores far apart as int64 stay ordered after the float64 conversion
    y_score = np.array([10**15, 10**15 + 2, -(10**15)], dtype=np.int64)
    # hand computation: ranked relevance [1, 0, 0]
    assert ndcg_score([[0, 1, 0]], [y_score]) == 1.0


def test_pandas_inputs():
    pd = pytest.importorskip("pandas")
    rng = np.random.default_rng(0)
    y_true = rng.integers(0, 4, size=(5, 4))
    y_score = rng.integers(0, 3, size=(5, 4)).astype(float)
    weight = rng.uniform(0.5, 2, size=5)
    expected = skm.ndcg_score(y_true, y_score, sample_weight=weight)
    columns = list("abcd")
    frame_true = pd.DataFrame(y_true, columns=columns, index=[9, 3, 7, 1, 5])
    frame_score = pd.DataFrame(y_score, columns=columns, index=[9, 3, 7, 1, 5])
    assert ndcg_score(frame_true, frame_score, sample_weight=pd.Series(weight)) == pytest.approx(
        expected, rel=RTOL
    )

    long = pd.DataFrame(
        {
            "qid": np.repeat([f"q{i}" for i in range(5)], 4),
            "rel": y_true.ravel(),
            "score": y_score.ravel(),
            "w": np.repeat(weight, 4),
        }
    ).sample(frac=1.0, random_state=0)  # shuffled rows, shuffled index
    assert ndcg_score(
        long["rel"], long["score"], qid=long["qid"], sample_weight=long["w"]
    ) == pytest.approx(expected, rel=RTOL)
    categorical = long["qid"].astype("category")
    assert ndcg_score(
        long["rel"], long["score"], qid=categorical, sample_weight=long["w"]
    ) == pytest.approx(expected, rel=RTOL)
    result = query_scores(long["rel"], long["score"], qid=long["qid"])
    assert result.qid.tolist() == [f"q{i}" for i in range(5)]


def test_return_type_is_python_float():
    assert type(ndcg_score([[1, 0]], [[0.2, 0.1]])) is float
    assert type(dcg_score([1, 0], [0.2, 0.1], qid=[0, 0])) is float
