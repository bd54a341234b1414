"""NDCG and DCG of a long-format :class:`dask.dataframe.DataFrame`, without collecting it.

Needs the ``dask`` extra (``pip install "sklearn-ndcg[dask]"``, or
``pip install ".[dask]"`` from a checkout). Dask is imported
when a function of this module is called, so that importing the module (and
``sklearn_ndcg`` itself) never imports dask.

Read more in the :ref:`User Guide <dask>`.
"""

from ._dask._scores import dcg_score, ndcg_score

__all__ = ["dcg_score", "ndcg_score"]
