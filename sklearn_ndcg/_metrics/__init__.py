"""Metrics: ``ndcg_score``, ``dcg_score`` (``_ndcg``), ``query_scores`` (``_query_scores``)
and its result types (``_results``), ``tie_diagnostics`` (``_diagnostics``), built on
:mod:`sklearn_ndcg._engine`."""
