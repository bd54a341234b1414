"""Statistical model selection: paired tests (``_paired``, one object per method in
``_methods``), the bootstrap and ``bootstrap_ci`` (``_bootstrap``), per-query values
aligned by query (``_query_values``); several models against a reference or in all pairs
(``_compare``, its result ``_model_comparison``, corrections in ``_corrections``, Tukey's
HSD and randomized Tukey in ``_pairwise``); strata (``_strata``); result tables
(``_table``); planning a test collection (``_planning``); out-of-fold per-query scores
(``_cross_val``) and of searches (``_search``); the ``refit=`` rule
``SimplestCompetitiveRefit`` (``_refit``)."""
