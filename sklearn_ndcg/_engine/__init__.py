"""The data path, numpy only; the rest of the package enters through this module.

One module per stage: validate (``_validation``) -> group into queries (``_queries``;
shuffled rows sorted by ``_sort``) -> gains (``_gain``) -> order with the tie rule
(``_ties``) -> discounts (``_discount``) -> aggregate (``_aggregate``); ``_pipeline``
names that order, ``_pool`` holds the judgment pool and its DCG, ``_pool_bounds`` the
bounds of NDCG over the unjudged documents' levels, ``_ranking_options`` the options'
type and the lists of their choices, and ``_entry`` the way in: :func:`stage` once, then
:func:`query_values` for one or many cutoffs, tie rules or gains, with the bounds of a
pool. Nothing here imports from outside ``_engine``, and nothing outside imports
``_engine._something``.
"""

from ._aggregate import WeightedSums, weighted_mean
from ._entry import query_values, stage
from ._gain import negative_labels_error
from ._pool import JudgmentPool
from ._queries import Queries
from ._ranking_options import RankingOptions
from ._validation import as_float_array, as_score_array, check_qid, check_weight, missing_rows

__all__ = [
    "JudgmentPool",
    "Queries",
    "RankingOptions",
    "WeightedSums",
    "as_float_array",
    "as_score_array",
    "check_qid",
    "check_weight",
    "missing_rows",
    "negative_labels_error",
    "query_values",
    "stage",
    "weighted_mean",
]
