"""NDCG from machine judgments checked on a human sample: the prediction-powered mean
and paired difference (``_ppi``), their arithmetic (``_estimate``), the per-query
values they take, aligned and checked (``_inputs``), and their results (``_ppi_results``)."""
