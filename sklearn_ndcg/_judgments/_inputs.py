"""Per-query values under model and human labels, aligned by query id and checked."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._metrics import QueryScores, query_score_arrays


def _listed(ids: list, limit: int = 10) -> str:
    shown = sorted(ids, key=str)[:limit]
    more = f" and {len(ids) - limit} more" if len(ids) > limit else ""
    return f"{shown}{more}"


def _pair(values: tuple, name: str) -> tuple[list, np.ndarray]:
    """The query ids (a list) and float64 values of a pair ``(qid, values)`` of arrays."""
    qid = np.asarray(values[0])
    try:
        score = np.array(values[1], dtype=np.float64)
    except (TypeError, ValueError) as error:
        raise TypeError(
            f"{name} is a pair (qid, values) whose values are not numbers (one NDCG per "
            f"query); {error}."
        ) from error
    if qid.ndim != 1 or score.ndim != 1 or qid.shape != score.shape:
        raise ValueError(
            f"{name} is a pair (qid, values) of shapes {qid.shape} and {score.shape}; give "
            "two 1-D arrays with one query id and one value per query."
        )
    return qid.tolist(), score


def query_values(values, name: str) -> tuple[list, np.ndarray]:
    """The query ids (a list) and float64 values of a ``QueryScores``, a pair
    ``(qid, values)`` of arrays or a mapping."""
    if isinstance(values, tuple) and not isinstance(values, QueryScores) and len(values) == 2:
        ids, score = _pair(values, name)
        if len(set(ids)) != len(ids):
            raise ValueError(f"{name} holds some query ids more than once; give each query once.")
    elif isinstance(values, QueryScores):
        qid, score, weight = query_score_arrays(values, name)
        if weight.size and np.ptp(weight) != 0:
            raise ValueError(
                f"{name} weighs its queries unequally (sample_weight); the prediction-powered "
                "mean is the plain mean over queries: compute the per-query values without "
                "sample_weight."
            )
        ids = qid.tolist()
        if len(set(ids)) != len(ids):
            raise ValueError(f"{name} holds some query ids more than once; give each query once.")
    elif isinstance(values, Mapping):
        ids = list(values.keys())
        try:
            score = np.array(list(values.values()), dtype=np.float64)
        except (TypeError, ValueError) as error:
            raise TypeError(
                f"{name} must map each query id to one number (its NDCG); {error}."
            ) from error
        if score.ndim != 1:
            raise ValueError(
                f"{name} must map each query id to one number; got values of shape "
                f"{score.shape[1:]}."
            )
    else:
        kind = type(values).__name__ + (
            f" of length {len(values)}" if isinstance(values, tuple) else ""
        )
        raise TypeError(
            f"{name} must be a QueryScores (from query_scores), a pair (qid, values) of "
            f"arrays or a mapping from query id to value; got {kind}."
        )
    bad = ~np.isfinite(score)
    if bad.any():
        queries = [q for q, is_bad in zip(ids, bad.tolist()) if is_bad]
        raise ValueError(
            f"{name} holds NaN or infinite values for the queries {_listed(queries)}; give "
            "a finite value for every query (NDCG is NaN where a query has no relevant "
            "document and zero_division=np.nan: choose zero_division=0.0 or 1.0, or leave "
            "such queries out of both the model and the human values)."
        )
    return ids, score


def _kind(value) -> str:
    """The kind of a query id, numpy's and Python's types alike: int, float, str, bytes."""
    for kind, types in (
        ("bool", (bool, np.bool_)),
        ("int", (int, np.integer)),
        ("float", (float, np.floating)),
        ("str", (str,)),
        ("bytes", (bytes,)),
    ):
        if isinstance(value, types):
            return kind
    return type(value).__name__


def type_hint(ids_a: list, ids_b: list, names: tuple[str, str]) -> str:
    """The sentence that names query ids of other types (``'1'`` is not ``1``), or ""."""
    kinds_a, kinds_b = {_kind(q) for q in ids_a}, {_kind(q) for q in ids_b}
    if not kinds_a or not kinds_b or kinds_a & kinds_b:
        return ""
    return (
        f" The query ids of {names[0]} are {'/'.join(sorted(kinds_a))} and those of "
        f"{names[1]} {'/'.join(sorted(kinds_b))}, which never equal each other ('1' is not "
        "1): give both the same type, e.g. [str(q) for q in ...] or [int(q) for q in ...]."
    )


def labelled_split(model_ids: list, human_ids: list, names: tuple[str, str]) -> np.ndarray:
    """Positions in the model's queries of the human-labelled ones, in the human order;
    checks that the human queries are a subset and that both sets are large enough."""
    model_name, human_name = names
    position = dict(zip(model_ids, range(len(model_ids))))
    outside = [q for q in human_ids if q not in position]
    if outside:
        raise ValueError(
            f"{human_name} holds queries that are not in {model_name}: {_listed(outside)}; "
            f"the human-labelled queries must be a subset of the queries of {model_name} "
            "(the model-labelled values of every query)." + type_hint(model_ids, human_ids, names)
        )
    if len(human_ids) < 2:
        raise ValueError(
            f"{human_name} holds {len(human_ids)} human-labelled queries; the "
            "prediction-powered interval needs at least 2 (the variance of the model's "
            "errors is estimated from them)."
        )
    if len(human_ids) == len(model_ids):
        raise ValueError(
            f"every query of {model_name} is in {human_name}; with human labels for all "
            "queries the human mean needs no model labels (use bootstrap_ci or paired_test)."
        )
    return np.array([position[q] for q in human_ids], dtype=np.intp)


def same_queries(ids_a: list, ids_b: list, names: tuple[str, str]) -> np.ndarray:
    """Positions in ``ids_b`` of the queries of ``ids_a``, which must be the same set."""
    if set(ids_a) != set(ids_b) or len(ids_a) != len(ids_b):
        differ = list(set(ids_a) ^ set(ids_b))
        raise ValueError(
            f"{names[0]} and {names[1]} must hold the same queries (the two rankers paired "
            f"on each query); these query ids are in only one of them: {_listed(differ)}."
            + type_hint(ids_a, ids_b, names)
        )
    position = dict(zip(ids_b, range(len(ids_b))))
    return np.array([position[q] for q in ids_a], dtype=np.intp)


def split(model, human, names: tuple[str, str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Human values, the model's values on the same queries and on the other queries."""
    model_ids, model_values = query_values(model, names[0])
    human_ids, human_values = query_values(human, names[1])
    labelled = labelled_split(model_ids, human_ids, names)
    unlabelled = np.ones(model_values.shape[0], dtype=bool)
    unlabelled[labelled] = False
    return human_values, model_values[labelled], model_values[unlabelled]


def paired_split(model_a, model_b, human_a, human_b, names: tuple[str, str, str, str]):
    """As :func:`split`, for the per-query differences ``a - b`` of two rankers."""
    model_ids, model_a_values = query_values(model_a, names[0])
    model_b_ids, model_b_values = query_values(model_b, names[1])
    human_ids, human_a_values = query_values(human_a, names[2])
    human_b_ids, human_b_values = query_values(human_b, names[3])
    model_d = model_a_values - model_b_values[same_queries(model_ids, model_b_ids, names[:2])]
    human_d = human_a_values - human_b_values[same_queries(human_ids, human_b_ids, names[2:])]
    labelled = labelled_split(model_ids, human_ids, (names[0], names[2]))
    unlabelled = np.ones(model_d.shape[0], dtype=bool)
    unlabelled[labelled] = False
    return human_d, model_d[labelled], model_d[unlabelled]
