"""NDCG of long-format Spark DataFrames, and NDCG model selection in Spark ML.

Needs the ``spark`` extra (``pip install "sklearn-ndcg[spark]"``, or
``pip install ".[spark]"`` from a checkout) and a Java runtime. pyspark is
imported when a function of this module is called, so that importing the
module (and ``sklearn_ndcg`` itself) never imports pyspark.

Read more in the :ref:`User Guide <spark>`.
"""

from __future__ import annotations

from ._spark._metrics import dcg_score, ndcg_score, query_scores

__all__ = ["dcg_score", "ndcg_score", "query_scores"]
