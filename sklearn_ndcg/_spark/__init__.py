"""Spark: the metrics over Spark DataFrames, the Spark ML evaluator and query folds."""
