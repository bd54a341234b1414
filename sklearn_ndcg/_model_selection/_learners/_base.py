"""The adapter interface: how :class:`RankingEvaluator` fits the models of one library.

A learning-to-rank library takes the query information in its own form (query
ids, a group id per row, or query sizes), weighs documents or queries, may need
its own cloning, and stops early on validation queries through its own hooks.
:class:`LearnerAdapter` names those steps; each library's module subclasses it,
and :func:`library_of` tells which library an estimator comes from.
"""

from __future__ import annotations

import contextlib
import inspect
from typing import Any, ClassVar, NamedTuple

import numpy as np
from sklearn.base import clone

from ..._compat import _safe_indexing
from ..._engine import Queries
from .._early_stopping import QueryMetric

_LIBRARIES = ("lightgbm", "xgboost", "catboost", "sklearn")


def library_of(estimator) -> str:
    """The top-level package of the first class of ``estimator``'s MRO from a
    known library (so subclasses count), else of its own class."""
    for cls in type(estimator).__mro__:
        name = cls.__module__.split(".")[0]
        if name in _LIBRARIES:
            return name
    return type(estimator).__module__.split(".")[0]


class FitInput(NamedTuple):
    """Rows as a learner is fitted on them, and the ``fit`` parameters they bring.

    ``qid`` and ``sample_weight`` are the query ids and document weights of
    the rows as given to the learner (integer query codes once sorted by
    query); ``params`` holds the query information and the weights in the
    learner's own form (``group``, ``qid``, ``group_id``, ``sample_weight``,
    ``group_weight``).
    """

    X: Any
    y: Any
    qid: np.ndarray | None
    sample_weight: np.ndarray | None
    params: dict


_UNSET = object()


class LearnerAdapter:
    """How :class:`RankingEvaluator` fits one estimator: the default for any library.

    An estimator whose ``fit`` has one of the parameters in ``query_forms``
    (the first found) learns from queries: its rows are stably sorted by
    query and it gets the query ids (``qid``, ``group_id``) or the query sizes
    (``group``). Other estimators get the rows as given, without query
    information. Subclasses change the forms, the weights, cloning and early
    stopping for their library.

    Parameters
    ----------
    estimator : estimator object
        The estimator that learns (the last step of a pipeline); the adapter
        sets its parameters for early stopping and sets them back in
        :meth:`finish_early_stopping`.
    """

    #: The ``fit`` parameters that carry query information, in order of preference.
    query_forms: ClassVar[tuple[str, ...]] = ("qid", "group_id", "group")

    def __init__(self, estimator) -> None:
        self.estimator = estimator
        self._original: dict = {}

    @property
    def query_form(self) -> str | None:
        """How the estimator's ``fit`` takes queries: one of ``query_forms``, or None."""
        try:
            parameters = inspect.signature(self.estimator.fit).parameters
        except (TypeError, ValueError):  # pragma: no cover - builtins, C extensions
            return None
        return next((form for form in self.query_forms if form in parameters), None)

    def clone(self):
        """An unfitted copy of the estimator with the same parameters."""
        return clone(self.estimator)

    def fit_input(self, X, y, qid, sample_weight) -> FitInput:
        """The rows and ``fit`` parameters for the estimator, from validated input.

        An estimator that learns from queries gets its rows stably sorted by
        query, integer query ids, and the query information in its form;
        ``qid`` is then required. Others get the rows as given and, if any,
        ``sample_weight``.
        """
        form = self.query_form
        if form is None:
            params = {} if sample_weight is None else {"sample_weight": sample_weight}
            return FitInput(X, y, qid, sample_weight, params)
        if qid is None:
            raise ValueError(
                f"{type(self.estimator).__name__} learns from queries, so fit needs qid "
                "(one query id per document); got qid=None. With metadata routing "
                "enabled, pass qid=... to the search's fit."
            )
        queries = Queries.of(qid)
        order = queries.rows()
        codes = np.repeat(np.arange(queries.ids.shape[0]), queries.sizes)
        params = {"group": queries.sizes} if form == "group" else {form: codes}
        weight = None
        if sample_weight is not None:
            weight = sample_weight[order]
            params.update(self.weight_params(sample_weight, weight, queries))
        return FitInput(_safe_indexing(X, order), _safe_indexing(y, order), codes, weight, params)

    def weight_params(self, sample_weight, sorted_weight, queries: Queries) -> dict:
        """The weight ``fit`` parameters of a model that learns from queries.

        ``sample_weight`` is in the caller's row order, ``sorted_weight`` in
        the order of the sorted rows. By default, one weight per document.
        """
        return {"sample_weight": sorted_weight}

    def fitting(self) -> contextlib.AbstractContextManager:
        """The context the estimator's ``fit`` runs in (e.g. warning filters)."""
        return contextlib.nullcontext()

    def early_stopping_params(
        self, rounds: int, monitor: QueryMetric, validation: FitInput, training: QueryMetric
    ) -> dict:
        """Set the estimator up to stop early on ``monitor``; return extra ``fit`` parameters.

        ``validation`` holds the validation rows, as :meth:`fit_input` made
        them; ``monitor`` scores them, ``training`` scores the training rows.
        Parameters set here on the estimator (validation rows and local
        functions, which cannot be pickled) are set back by
        :meth:`finish_early_stopping`.
        """
        raise ValueError(
            "early_stopping needs a boosting model that trains round by round: LightGBM, "
            "XGBoost, CatBoost or scikit-learn's HistGradientBoosting; got "
            f"{type(self.estimator).__name__}. Set early_stopping=None for other estimators."
        )

    def finish_early_stopping(self) -> None:
        """Set back the parameters :meth:`early_stopping_params` changed, after ``fit``."""
        for name, value in self._original.items():
            self.estimator.set_params(**{name: value})
        self._original = {}

    def _replace(self, **params) -> None:
        """Set ``params`` on the estimator, remembering the values they had."""
        current = self.estimator.get_params()
        self._original.update({name: current.get(name, _UNSET) for name in params})
        self.estimator.set_params(**params)
