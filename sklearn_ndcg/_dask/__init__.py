"""Dask: the metrics over dask DataFrames (``_scores``), their data path over the
partitions (``_partitions``) and the checks of a frame (``_checks``);
``sklearn_ndcg.dask`` is the public module."""
