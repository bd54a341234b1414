"""Early stopping on the NDCG of validation queries: the library-independent part.

:class:`RankingEvaluator` splits whole queries off the training fold
(:func:`hold_out_queries`) and hands them to the model as its validation set;
the model evaluates this package's NDCG on them (a :class:`QueryMetric`) after
every boosting round and stops when it has not improved for ``early_stopping``
rounds (LightGBM, XGBoost and CatBoost keep the best round, HistGradientBoosting
the last). With a counterfactual DCG scorer (``early_stopping_scoring``), the
metric is instead that scorer's estimate from the validation queries' clicks and
log columns (logged ranks, with logging probabilities and reward model when given:
:func:`click_monitor`), weighted as the NDCG is by ``sample_weight``. How each
library gets the validation rows and the metric is its learner adapter's business
(``_learners``).
"""

from __future__ import annotations

from collections.abc import Callable
from math import ceil

import numpy as np
from sklearn.model_selection import GroupShuffleSplit

from .._compat import _safe_indexing
from .._engine import Queries, RankingOptions, query_values, stage, weighted_mean


class QueryMetric:
    """The NDCG of a fixed set of rows for a vector of their scores, and its history.

    ``score`` maps the scores of the rows (in the order the model got them) to
    the NDCG, knowing their labels and queries; every value computed is kept
    in ``history``. ``labels`` tell these rows from others a library scores.
    """

    def __init__(self, score: Callable[[np.ndarray], float], labels: np.ndarray, name: str):
        self.score = score
        self.labels = np.asarray(labels)
        self.name = name
        self.history: list[float] = []

    def __call__(self, y_score) -> float:
        y_score = np.asarray(y_score)
        if y_score.ndim != 1:
            raise ValueError(
                f"Early stopping ranks the validation documents by one score each; "
                f"{self.name} gave scores of shape {y_score.shape} (a multiclass "
                "model). Use a ranker, a regressor or a binary classifier."
            )
        value = self.score(y_score)
        self.history.append(value)
        return value

    def matches(self, y) -> bool:
        """Whether ``y`` are the labels of these rows."""
        y = np.asarray(y)
        return y.shape == self.labels.shape and np.array_equal(y, self.labels)


def hold_out_queries(
    X,
    y,
    qid,
    sample_weight,
    validation_fraction: float,
    random_state,
    owner: str,
    *,
    prefix: str = "",
    scoring=None,
    log_columns: dict | None = None,
) -> tuple[tuple, tuple]:
    """Split a random ``validation_fraction`` of the queries off for early stopping.

    Parameters
    ----------
    X, y, qid, sample_weight : array-likes of n_samples rows
        The training rows, validated; ``sample_weight`` may be None.
    validation_fraction : float
        Share of the queries held out, in (0, 1); rounded up to whole queries,
        as :class:`~sklearn.model_selection.GroupShuffleSplit` does.
    random_state : int, RandomState instance or None
        Which queries are held out.
    owner : str
        The name of the caller, for the error messages.
    prefix : str, default=""
        The prefix of the fitted model's parameters in a Pipeline (:func:`final_step`):
        refused, since the validation rows would not pass through its other steps.
    scoring : scorer, default=None
        ``early_stopping_scoring``: with a counterfactual DCG scorer, ``log_columns``
        are checked (:func:`check_log_columns`) and split with the rows.
    log_columns : dict of str to array-like of shape (n_samples,), default=None
        The columns of a click log given to ``fit`` (``logged_rank``,
        ``logging_probability``, ``reward_model``), read with ``scoring`` only.

    Returns
    -------
    training, validation : tuple
        The training rows and the validation rows, each as
        ``(X, y, qid, sample_weight)``, with the checked log columns split and appended
        (a dict by name) with ``scoring``.
    """
    if prefix:
        raise ValueError(
            f"{owner}(early_stopping=...) cannot stop a Pipeline early: the validation "
            "rows would have to pass through its other steps. Transform X first and "
            "wrap the model alone."
        )
    if scoring is None:
        log_columns = None
    else:
        log_columns = check_log_columns(owner, scoring, y, **(log_columns or {}))
    if qid is None:
        raise ValueError(
            f"{owner}(early_stopping=...) holds out whole queries for validation, so "
            "fit needs qid (one query id per document); got qid=None."
        )
    queries = Queries.of(qid)
    n_queries = queries.ids.shape[0]
    if n_queries < 2:
        raise ValueError(
            f"{owner}(early_stopping=...) holds out whole queries for validation and "
            f"needs at least 2 queries in fit; got {n_queries}."
        )
    n_held_out = ceil(validation_fraction * n_queries)  # as GroupShuffleSplit rounds
    if n_held_out >= n_queries:
        raise ValueError(
            f"{owner}(validation_fraction={validation_fraction!r}) would hold out "
            f"{n_held_out} of the {n_queries} queries in fit for early stopping, leaving "
            f"none to train on (ceil({validation_fraction!r} * {n_queries}) queries are held "
            f"out); with {n_queries} queries, validation_fraction must be at most "
            f"{n_queries - 1}/{n_queries}."
        )
    codes = queries.codes()
    split = GroupShuffleSplit(n_splits=1, test_size=validation_fraction, random_state=random_state)

    def rows(index):
        weight = None if sample_weight is None else sample_weight[index]
        split = _safe_indexing(X, index), _safe_indexing(y, index), qid[index], weight
        if log_columns is None:
            return split
        return (*split, {name: column[index] for name, column in log_columns.items()})

    training, validation = map(rows, next(split.split(codes, groups=codes)))
    return training, validation


def ndcg_monitor(y, qid, weight, options: RankingOptions) -> QueryMetric:
    """The NDCG of fixed rows (with ``options``), as a function of their scores."""
    labels = np.asarray(y)
    # staged once (labels, queries, gains, discounts); each round brings scores only
    staged = stage(labels, np.zeros(labels.shape[0]), options, qid=qid, sample_weight=weight)

    def score(y_score):
        values = query_values(staged.with_scores(y_score), options).values
        return weighted_mean(values, staged.weight)

    return QueryMetric(score, labels, f"ndcg@{options.k}")


def check_log_columns(
    owner: str, scoring, y, logged_rank, logging_probability=None, reward_model=None
) -> dict:
    """The click log's columns for ``early_stopping_scoring`` (checked to be a
    counterfactual DCG scorer), by name: ``logged_rank``, and ``logging_probability``
    and ``reward_model`` when given, each an array of one value per row. What each
    estimator needs is checked by the scorer (``_rows_metric``), the values by the
    counterfactual DCG itself."""
    if not hasattr(scoring, "_rows_metric"):
        raise TypeError(
            f"{owner}: early_stopping_scoring must be None or a scorer made by "
            f"make_counterfactual_dcg_scorer; got {scoring!r}."
        )
    if logged_rank is None:
        raise ValueError(
            f"{owner}(early_stopping_scoring=...) stops on the counterfactual DCG of the "
            "validation queries, so fit needs logged_rank (the rank at which each row "
            "was logged); got logged_rank=None. With metadata routing enabled, pass "
            "logged_rank=... to the search's fit."
        )
    n_samples = np.asarray(y).shape[0]
    columns = {}
    for name, values in (
        ("logged_rank", logged_rank),
        ("logging_probability", logging_probability),
        ("reward_model", reward_model),
    ):
        if values is None:
            continue
        values = np.asarray(values)
        if values.shape != (n_samples,):
            what = "rank" if name == "logged_rank" else "value"
            raise ValueError(
                f"{owner}.fit: {name} must have one {what} per row, shape ({n_samples},); "
                f"got shape {values.shape}."
            )
        columns[name] = values
    return columns


def click_monitor(adapter, scoring, rows: tuple) -> QueryMetric:
    """The counterfactual DCG of ``scoring`` (a scorer of
    :func:`~sklearn_ndcg.make_counterfactual_dcg_scorer`) on fixed rows, as a function
    of their scores in the order the learner gets them, weighted by ``sample_weight``.

    ``rows`` are ``(X, y, qid, sample_weight, log_columns)`` as :func:`hold_out_queries`
    returns them; the learner may get them sorted by query (``fit_input``), so the
    log's columns go through ``fit_input`` in the place of ``X`` (one column each) and
    come out in the order of the clicks, as the weights do.
    """
    _, click, qid, sample_weight, log_columns = rows
    names = list(log_columns)
    stacked = np.column_stack([np.asarray(log_columns[name], dtype=float) for name in names])
    ordered = adapter.fit_input(stacked, click, qid, sample_weight)
    columns = {name: ordered.X[:, i] for i, name in enumerate(names)}
    score, name = scoring._rows_metric(ordered.y, ordered.qid, columns, ordered.sample_weight)
    return QueryMetric(score, ordered.y, name)


def stop_early(
    adapter,
    training,
    validation: tuple,
    rounds: int,
    options: RankingOptions,
    scoring=None,
    training_rows: tuple | None = None,
):
    """The monitor of the validation NDCG and the learner's extra fit parameters to
    stop after ``rounds`` rounds without improvement (the adapter sets the learner
    up); ``training`` and the ``validation`` rows, as :func:`hold_out_queries`
    returns them, pass through the adapter's ``fit_input``.

    With a counterfactual DCG ``scoring``, the monitors are its estimate
    (:func:`click_monitor`) on the validation rows and on ``training_rows``, both
    with their log columns, as :func:`hold_out_queries` returns them."""
    if scoring is not None:
        if training_rows is None:
            raise TypeError("a counterfactual DCG scoring needs the training rows.")
        monitor = click_monitor(adapter, scoring, validation)
        training_monitor = click_monitor(adapter, scoring, training_rows)
        held_out = adapter.fit_input(*validation[:4])
    else:
        held_out = adapter.fit_input(*validation)
        monitor = ndcg_monitor(held_out.y, held_out.qid, held_out.sample_weight, options)
        training_monitor = ndcg_monitor(training.y, training.qid, training.sample_weight, options)
    stopping = adapter.early_stopping_params(rounds, monitor, held_out, training_monitor)
    return monitor, stopping
