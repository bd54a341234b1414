"""Metrics: ``ndcg_score``, ``dcg_score`` (``_ndcg``), ``query_scores`` (``_query_scores``)
and its result types (``_results``), ``tie_diagnostics`` (``_diagnostics``), pytrec_eval's
dicts as columns and judged documents found by id (``_ids``), infNDCG of stratified
sampled pools (``_inferred``, also behind ``evaluate_run`` and the trec-eval command),
built on :mod:`sklearn_ndcg._engine`.

The door: the other rooms import what they use of the metrics from here, never from
``_metrics._something`` (the package's entrance aside, which names each public name's own
module). Each name loads its module on first use (PEP 562 ``__getattr__``, as the
package's entrance does), so that the ``trec-eval`` command, which needs only
``_inferred``, ``_ids`` and ``_results``, still imports no scikit-learn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_names

if TYPE_CHECKING:  # the real imports, for type checkers
    from ._diagnostics import TieDiagnostics, tie_diagnostics
    from ._frame_checks import LOCATED, checked_columns, raise_for_frame, refused_rows
    from ._ids import (
        empty_rankings,
        own_documents,
        query_bytes,
        tables_of,
        trec_labels,
        without_own_documents,
    )
    from ._inferred import DEPTH, inferred_values, refuse_changed_rules
    from ._levels import check_levels
    from ._ndcg import at_cutoffs, dcg_score, ndcg_score
    from ._query_scores import _check_bounds_request, per_query, query_scores, scores_of_arrays
    from ._results import QueryBounds, QueryScores, query_score_arrays

# each name of the door -> the module that defines it
_SOURCES = {
    "TieDiagnostics": "_diagnostics",
    "tie_diagnostics": "_diagnostics",
    "tables_of": "_ids",
    "trec_labels": "_ids",
    "empty_rankings": "_ids",
    "own_documents": "_ids",
    "query_bytes": "_ids",
    "without_own_documents": "_ids",
    "DEPTH": "_inferred",
    "inferred_values": "_inferred",
    "refuse_changed_rules": "_inferred",
    "at_cutoffs": "_ndcg",
    "dcg_score": "_ndcg",
    "ndcg_score": "_ndcg",
    "LOCATED": "_frame_checks",
    "_check_bounds_request": "_query_scores",
    "check_levels": "_levels",
    "scores_of_arrays": "_query_scores",
    "checked_columns": "_frame_checks",
    "per_query": "_query_scores",
    "query_scores": "_query_scores",
    "raise_for_frame": "_frame_checks",
    "refused_rows": "_frame_checks",
    "QueryBounds": "_results",
    "QueryScores": "_results",
    "query_score_arrays": "_results",
}

__all__ = [
    "DEPTH",
    "LOCATED",
    "QueryBounds",
    "QueryScores",
    "TieDiagnostics",
    "_check_bounds_request",
    "at_cutoffs",
    "check_levels",
    "checked_columns",
    "dcg_score",
    "empty_rankings",
    "inferred_values",
    "ndcg_score",
    "own_documents",
    "per_query",
    "query_bytes",
    "query_score_arrays",
    "query_scores",
    "raise_for_frame",
    "refuse_changed_rules",
    "refused_rows",
    "scores_of_arrays",
    "tables_of",
    "tie_diagnostics",
    "trec_labels",
    "without_own_documents",
]


__getattr__, __dir__ = lazy_names(globals(), _SOURCES, __all__)
