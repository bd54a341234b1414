"""Statistical model selection: paired tests (``_paired``, one object per method in
``_methods``), the bootstrap and ``bootstrap_ci`` (``_bootstrap``), per-query values
aligned by query (``_query_values``); several models against a reference or in all pairs
(``_compare``, its result ``_model_comparison``, corrections in ``_corrections``, Tukey's
HSD and randomized Tukey in ``_pairwise``); strata (``_strata``); result tables
(``_table``); planning a test collection (``_planning``); out-of-fold per-query scores
(``_cross_val``) and of searches (``_search``); the ``refit=`` rule
``SimplestCompetitiveRefit`` (``_refit``); models over the datasets of a benchmark
(``_benchmark``: input in ``_benchmark_input``, result in ``_benchmark_comparison``, rank
intervals in ``_rank_intervals``, Friedman and its post-hoc pairs in ``_friedman``)."""
