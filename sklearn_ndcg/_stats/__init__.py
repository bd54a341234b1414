"""Statistical model selection: paired tests, intervals and equivalence verdicts
(``_paired``); several models against a reference or in all pairs (``_compare``, with
Tukey's HSD and randomized Tukey in ``_pairwise``); strata (``_strata``); result tables
(``_table``); planning a test collection (``_planning``); out-of-fold per-query scores of
searches and ``SimplestTiedRefit`` (``_search``)."""
