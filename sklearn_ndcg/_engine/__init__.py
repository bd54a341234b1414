"""The data path, one module per stage: validate (``_validation``) -> group into queries
(``_queries``) -> gains (``_gain``) -> order with the tie rule (``_ties``) -> discounts
(``_discount``) -> aggregate (``_aggregate``); ``_pipeline`` names that order, and ``_pool``
holds the judgment pool and its DCG. Nothing here imports from outside ``_engine``."""
