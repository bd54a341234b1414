"""NDCG of long-format Spark DataFrames, and NDCG model selection in Spark ML.

Needs the ``spark`` extra (``pip install "sklearn-ndcg[spark]"``, or
``pip install ".[spark]"`` from a checkout) and a Java runtime. pyspark is
imported when a function of this module is called, so that importing the
module (and ``sklearn_ndcg`` itself) never imports pyspark.

Read more in the :ref:`User Guide <spark>`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._spark._ir import evaluate_run
from ._spark._metrics import dcg_score, ndcg_score, query_scores

if TYPE_CHECKING:  # imported with pyspark on first use, by __getattr__ below
    from ._spark._ml import NDCGEvaluator, query_folds

__all__ = [
    "NDCGEvaluator",
    "dcg_score",
    "evaluate_run",
    "ndcg_score",
    "query_folds",
    "query_scores",
]

_NEED_PYSPARK = {"NDCGEvaluator", "query_folds"}  # defined with pyspark's own classes


def __getattr__(name: str):
    """``NDCGEvaluator`` and ``query_folds``, imported with pyspark when first used."""
    if name in _NEED_PYSPARK:
        from ._spark._frames import import_pyspark_sql

        import_pyspark_sql()  # an ImportError that says how to install pyspark
        from ._spark import _ml

        return getattr(_ml, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
