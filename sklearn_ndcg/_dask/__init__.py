"""Dask: the metrics over dask DataFrames (``_metrics``), their data path (``_frames``)
and the checks of a frame (``_checks``); ``sklearn_ndcg.dask`` is the public module."""
