"""Metrics: ``ndcg_score``, ``dcg_score`` (``_ndcg``), ``query_scores`` (``_query_scores``)
and its result types (``_results``), ``tie_diagnostics`` (``_diagnostics``), infNDCG of
stratified sampled pools (``_inferred``, also behind ``evaluate_run`` and the trec-eval
command), built on :mod:`sklearn_ndcg._engine`."""
