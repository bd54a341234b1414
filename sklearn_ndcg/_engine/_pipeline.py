"""The data path in its order, from raw input to the sums per query.

1. validate (:mod:`._validation`): flat float64 copies, query ids, weights;
2. group into queries (:mod:`._queries`): sort order, offsets, query weights;
3. gains (:mod:`._gain`): relevance label -> gain;
4. order with the tie rule (:mod:`._ties`), inside the aggregation;
5. discounts (:mod:`._discount`): rank -> weight, zero after ``k``;
6. aggregate (:mod:`._aggregate`): DCG, ideal and worst DCG per query, NDCG.

:func:`stage` runs steps 1, 2, 3 and 5 once per call; :func:`order_and_sum` runs 4
and 6, so a caller that needs several tie rules (tie diagnostics) stages once;
:func:`sums_at_cutoffs` does the same for several cutoffs (the multi-cutoff scorer,
the NDCG curve), from rows staged with ``k=None``. The way in from outside the
engine is :mod:`._entry`; with a judgment pool, :mod:`._pool`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ._aggregate import (
    QueryDCG,
    check_overflow,
    dcg_at_cutoffs,
    dcg_by_query,
    ndcg_from_dcg,
    tie_cut_by_query,
    tie_groups_by_query,
)
from ._discount import discount_weights
from ._gain import compute_gain
from ._queries import Queries, group_queries, query_weights
from ._ties import ARGSORT_TIES
from ._validation import as_score_array, check_ranking_input, layout_positions


class Staged(NamedTuple):
    """Input through the stages before ordering: queries, gains and discounts."""

    score: np.ndarray
    queries: Queries
    weight: np.ndarray | None
    gains: np.ndarray
    discounts: np.ndarray
    document_weight: np.ndarray | None

    def with_scores(self, y_score) -> Staged:
        """The staged rows with new scores (:func:`with_scores`)."""
        return with_scores(self, y_score)

    def tie_cut(self, k: int) -> np.ndarray:
        """Whether a tie group straddles the cutoff ``k``, per query."""
        return tie_cut_by_query(self.score, self.queries, k)

    def tie_groups(self) -> tuple[np.ndarray, np.ndarray]:
        """The first and last rank of each row's group of tied scores in its query
        (:func:`tie_groups_by_query`), one pair per input row of long format."""
        return tie_groups_by_query(self.score, self.queries)


def stage(
    y_true,
    y_score,
    *,
    qid,
    sample_weight,
    document_weight,
    k,
    gain,
    discount,
    log_base,
    normalize,
    ties: str | None = None,
    rows: np.ndarray | None = None,
    n_bad: int | None = None,
) -> Staged:
    """Validate, group into queries, gains, discounts.

    ``ties`` matters only for scikit-learn's order of tied documents
    (``ARGSORT_TIES``), which the validation lays out. ``rows`` and ``n_bad`` are
    those of :func:`._entry.stage`.
    """
    data = check_ranking_input(
        y_true,
        y_score,
        qid,
        sample_weight,
        document_weight,
        argsort_ties=ties == ARGSORT_TIES,
        rows=rows,
        n_bad=n_bad,
    )
    queries = group_queries(data.qid, data.shape)
    sort_key = data.sort_key
    weight = query_weights(data.sample_weight, queries)
    gains = compute_gain(
        data.y_true,
        gain,
        negative_labels=normalize == "minmax",
        qid=data.qid,
        shape=data.shape,
        # 2-D rows laid out in scikit-learn's order: the input positions, if refused
        rows=rows if sort_key is None else (lambda: layout_positions(sort_key)),
        n_bad=n_bad,
    )
    discounts = discount_weights(discount, int(queries.sizes.max()), k, log_base)
    return Staged(data.y_score, queries, weight, gains, discounts, data.document_weight)


def with_scores(staged: Staged, y_score) -> Staged:
    """The staged rows with new scores, e.g. a model's after each boosting round.

    Only the scores are checked again (finite, one per row); the labels, queries,
    gains and discounts were staged once.
    """
    score = as_score_array(y_score, "y_score").reshape(-1)
    if score.shape != staged.score.shape:
        raise ValueError(
            f"y_score has {score.shape[0]} scores for {staged.score.shape[0]} staged "
            "documents; give one score per document."
        )
    return staged._replace(score=score)


def order_and_sum(staged: Staged, ties: str, normalize: str | None) -> QueryDCG:
    """Order with the tie rule, discount and sum per query.

    ``normalize`` None computes the DCG alone; "ideal" adds the ideal DCG and
    "minmax" the ideal and the worst DCG.
    """
    with np.errstate(over="ignore", invalid="ignore"):
        result = dcg_by_query(
            staged.gains,
            staged.score,
            staged.queries,
            ties,
            staged.discounts,
            ideal=normalize is not None,
            worst=normalize == "minmax",
            document_weight=staged.document_weight,
        )
    check_overflow(result.dcg, staged.gains, staged.document_weight)
    return result


def ndcg_per_query(result: QueryDCG, zero_division: float, document_weight=None) -> np.ndarray:
    """NDCG per query; min-max NDCG without document weights is kept in [0, 1]
    (tie averaging can round it an ulp beyond)."""
    # the ideal DCG is summed wherever NDCG is (normalize is not None)
    ideal: np.ndarray = result.ideal  # type: ignore[assignment]
    ndcg = ndcg_from_dcg(result.dcg, ideal, zero_division, result.worst)
    if result.worst is not None and document_weight is None:
        np.clip(ndcg, 0.0, 1.0, out=ndcg)
    return ndcg


def sums_at_cutoffs(
    staged: Staged,
    ks: np.ndarray,
    *,
    ties: str,
    metric: str,
    normalize: str,
) -> QueryDCG:
    """Order with the tie rule once, then the sums of each query at every k in
    ``ks`` (the ideal and, for min-max NDCG, the worst DCG too): arrays of shape
    (n_queries, n_cutoffs)."""
    with np.errstate(over="ignore", invalid="ignore"):
        result = dcg_at_cutoffs(
            staged.gains,
            staged.score,
            staged.queries,
            ties,
            staged.discounts,
            ks,
            worst=metric == "ndcg" and normalize == "minmax",
            document_weight=staged.document_weight,
        )
    check_overflow(result.dcg, staged.gains, staged.document_weight)
    return result
