"""The input of compare_benchmark: per-query values of every model on every dataset, as a
dict of dicts or a long table, checked and laid out as one (queries x models) matrix per
dataset. A missing cell is refused with the dataset and the model named."""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

import numpy as np

from .._metrics import QueryBounds, QueryScores
from ._query_values import _as_query_values


@dataclass(frozen=True)
class BenchmarkData:
    """Checked per-query values: ``values[d]`` is (n_queries of dataset d, n_models)."""

    datasets: list
    models: list
    values: list[np.ndarray]
    weights: list[np.ndarray]


def _per_query(values):
    """QueryScores from a cross_val_query_scores or evaluate_run result; arrays unchanged."""
    if isinstance(values, QueryScores):
        return values
    if isinstance(values, QueryBounds):
        return QueryScores(values.qid, values.score, values.weight)
    per_query = getattr(values, "per_query", None)  # evaluate_run's RunEvaluation
    if per_query is not None:
        return _per_query(per_query)
    return values


def _dataset_matrix(dataset, cells: Mapping, models: list):
    """One dataset's values as (n_queries, n_models) and the query weights."""
    columns, weights, ids = [], None, None
    kinds = set()
    for model in models:
        name = f"scores[{dataset!r}][{model!r}]"
        score, weight, qid = _as_query_values(_per_query(cells[model]), name)
        kinds.add(qid is None)
        if len(kinds) > 1:
            raise TypeError(
                f"scores[{dataset!r}] mixes QueryScores (aligned by query id) and arrays "
                f"(paired by position): {name} differs from the models before it; give "
                "every model of a dataset the same kind."
            )
        if ids is None:
            ids = qid.tolist() if qid is not None else score.shape[0]
            weights = weight
        elif qid is None and score.shape[0] != ids:
            raise ValueError(
                f"{name} has {score.shape[0]} queries but scores[{dataset!r}][{models[0]!r}] "
                f"has {ids}; give every model of dataset {dataset!r} one value per query, "
                "in the same order."
            )
        elif qid is not None and qid.tolist() != ids:
            differ = sorted(set(qid.tolist()) ^ set(ids), key=str)
            raise ValueError(
                f"{name} and scores[{dataset!r}][{models[0]!r}] cover different queries of "
                f"dataset {dataset!r}; these query ids are in only one of them: {differ[:10]}"
                + (f" and {len(differ) - 10} more." if len(differ) > 10 else ".")
            )
        elif qid is not None and np.any(weight != weights):
            raise ValueError(
                f"{name} weighs some queries differently from "
                f"scores[{dataset!r}][{models[0]!r}]; give every model the same sample_weight."
            )
        bad = ~np.isfinite(score)
        if bad.any():
            raise ValueError(
                f"{name} holds {int(bad.sum())} NaN or infinite value(s) (dataset "
                f"{dataset!r}, model {model!r}); every model needs a value for every query: "
                "compute NDCG with zero_division=0 (or 1), or drop those queries from every "
                "model of the dataset."
            )
        columns.append(score)
    n_queries = columns[0].shape[0]
    if n_queries < 2:
        raise ValueError(
            f"dataset {dataset!r} has {n_queries} query; resampling its queries needs at least 2."
        )
    weights = np.ones(n_queries) if weights is None else weights
    if not weights.sum() > 0:
        raise ValueError(f"dataset {dataset!r} gives every query weight 0.")
    return np.column_stack(columns), weights


def _from_dict(scores: Mapping) -> BenchmarkData:
    datasets = list(scores)
    models: list = []
    for dataset in datasets:
        cells = scores[dataset]
        if not isinstance(cells, Mapping):
            raise TypeError(
                f"scores[{dataset!r}] must be a dict {{model: per-query values}}; got "
                f"{type(cells).__name__}."
            )
        models.extend(model for model in cells if model not in models)
    for dataset in datasets:
        for model in models:
            if model not in scores[dataset]:
                raise ValueError(
                    f"dataset {dataset!r} has no values of model {model!r}; every model needs "
                    f"every dataset (the models are {models}): evaluate it there, or leave "
                    "the model or the dataset out of scores."
                )
    if len(datasets) < 2 or len(models) < 2:
        raise ValueError(
            f"scores holds {len(datasets)} dataset(s) and {len(models)} model(s); a "
            "benchmark comparison needs at least 2 of each."
        )
    matrices = [_dataset_matrix(dataset, scores[dataset], models) for dataset in datasets]
    return BenchmarkData(
        datasets, models, [values for values, _ in matrices], [w for _, w in matrices]
    )


def _column(table, name: str, argument: str) -> np.ndarray:
    if name not in list(table.columns):
        raise ValueError(
            f"{argument}={name!r} is not a column of scores; its columns are {list(table.columns)}."
        )
    return np.asarray(table[name].to_numpy())


def _first_appearance(labels: np.ndarray) -> tuple[list, np.ndarray]:
    """The distinct labels in order of first appearance and each row's index among them."""
    distinct, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    order = np.argsort(first, kind="stable")
    position = np.empty_like(order)
    position[order] = np.arange(order.shape[0])
    return distinct[order].tolist(), position[inverse.reshape(-1)]


def _from_table(table, dataset: str, model: str, query: str, value: str) -> BenchmarkData:
    columns = {
        argument: _column(table, name, argument)
        for argument, name in (
            ("dataset", dataset),
            ("model", model),
            ("query", query),
            ("value", value),
        )
    }
    datasets, dataset_index = _first_appearance(columns["dataset"])
    models, model_index = _first_appearance(columns["model"])
    scores: dict[Hashable, dict] = {}
    for d, name in enumerate(datasets):
        scores[name] = {}
        for m, model_name in enumerate(models):
            rows = np.flatnonzero((dataset_index == d) & (model_index == m))
            if rows.shape[0] == 0:
                continue  # _from_dict names the missing cell
            qid = columns["query"][rows]
            distinct, counts = np.unique(qid, return_counts=True)
            if (counts > 1).any():
                raise ValueError(
                    f"scores lists query {distinct[counts > 1].tolist()[0]!r} of dataset {name!r} "
                    f"more than once for model {model_name!r}; give one row per dataset, "
                    "model and query."
                )
            scores[name][model_name] = QueryScores(
                qid, np.asarray(columns["value"][rows], dtype=np.float64), np.ones(rows.shape[0])
            )
    return _from_dict(scores)


def benchmark_data(scores, *, dataset: str, model: str, query: str, value: str) -> BenchmarkData:
    """The checked per-query values of a dict ``{dataset: {model: values}}`` or a long table."""
    if isinstance(scores, Mapping):
        return _from_dict(scores)
    if hasattr(scores, "columns") and hasattr(scores, "__getitem__"):
        return _from_table(scores, dataset, model, query, value)
    raise TypeError(
        "scores must be a dict {dataset: {model: per-query values}} or a long pandas or "
        f"polars DataFrame with dataset, model, query and value columns; got "
        f"{type(scores).__name__}."
    )
