"""Statistical model selection: paired tests, bootstrap intervals and model comparison
(``_paired``); out-of-fold per-query scores of searches and ``SimplestTiedRefit``
(``_search``)."""
