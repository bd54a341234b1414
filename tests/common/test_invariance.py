"""Changes that must not change NDCG: row order, query ids, increasing score maps.

Each test compares the library only with itself, before and after the change.
"""

import numpy as np
import pytest

from sklearn_ndcg import dcg_score, ndcg_score, query_scores
from sklearn_ndcg._engine import RankingOptions

TIE_RULES = list(RankingOptions.TIE_RULES)


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("ties", ["average", "optimistic", "pessimistic"])
def test_invariant_to_row_shuffles(seed, ties, random_ragged):
    y_true, y_score, qid = random_ragged(500 + seed)
    order = np.random.default_rng(seed).permutation(y_true.size)
    for k in (None, 2):
        expected = ndcg_score(y_true, y_score, qid=qid, ties=ties, k=k)
        assert ndcg_score(
            y_true[order], y_score[order], qid=qid[order], ties=ties, k=k
        ) == pytest.approx(expected, rel=1e-14)
        assert dcg_score(
            y_true[order], y_score[order], qid=qid[order], ties=ties, k=k
        ) == pytest.approx(dcg_score(y_true, y_score, qid=qid, ties=ties, k=k), rel=1e-14)


@pytest.mark.parametrize("seed", range(10))
def test_first_invariant_to_row_shuffles_without_ties(seed, random_ragged):
    rng = np.random.default_rng(seed)
    y_true, _, qid = random_ragged(600 + seed)
    y_score = rng.permutation(y_true.size).astype(float)  # all distinct
    order = rng.permutation(y_true.size)
    assert ndcg_score(y_true[order], y_score[order], qid=qid[order], ties="first") == pytest.approx(
        ndcg_score(y_true, y_score, qid=qid, ties="first"), rel=1e-14
    )


RELABELLINGS = {
    "shifted_ints": lambda q: q + 1000,
    "negative_ints": lambda q: -q - 7,
    "strings": lambda q: f"query-{q}",
    "floats": lambda q: q / 3.0,
    "big_ints": lambda q: np.int64(q) * 10**12,
}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("relabel", RELABELLINGS, ids=list(RELABELLINGS))
def test_invariant_to_query_relabelling(seed, ties, relabel, random_ragged):
    y_true, y_score, qid = random_ragged(700 + seed)
    new_qid = np.array([RELABELLINGS[relabel](q) for q in qid])
    for zero_division in (0.0, np.nan):
        assert ndcg_score(
            y_true, y_score, qid=new_qid, ties=ties, zero_division=zero_division
        ) == pytest.approx(
            ndcg_score(y_true, y_score, qid=qid, ties=ties, zero_division=zero_division),
            rel=1e-14,
        )
    # the per-query values follow their queries
    old = query_scores(y_true, y_score, qid=qid, ties=ties)
    new = query_scores(y_true, y_score, qid=new_qid, ties=ties)
    by_old_id = dict(zip(old.qid.tolist(), old.score))
    mapped = {RELABELLINGS[relabel](q): s for q, s in by_old_id.items()}
    for q, s in zip(new.qid.tolist(), new.score):
        assert s == pytest.approx(mapped[q], rel=1e-14)


TRANSFORMS = {
    "affine": lambda s: 3.0 * s + 7.0,
    "shift": lambda s: s + 1000.0,
    "cube": lambda s: (s - 1.0) ** 3,
    "exp": np.exp,
    "arctan": np.arctan,
}


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ties", TIE_RULES)
@pytest.mark.parametrize("transform", TRANSFORMS, ids=list(TRANSFORMS))
def test_invariant_to_increasing_score_transforms(seed, ties, transform, random_ragged):
    y_true, y_score, qid = random_ragged(800 + seed)  # scores: small integers
    new_score = TRANSFORMS[transform](y_score)
    for k in (None, 2):
        assert ndcg_score(y_true, new_score, qid=qid, ties=ties, k=k) == pytest.approx(
            ndcg_score(y_true, y_score, qid=qid, ties=ties, k=k), rel=1e-14
        )
