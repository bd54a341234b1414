"""Metrics: ``ndcg_score``, ``dcg_score``, ``query_scores`` (``_ndcg``) and
``tie_diagnostics`` (``_diagnostics``), built on :mod:`sklearn_ndcg._engine`."""
