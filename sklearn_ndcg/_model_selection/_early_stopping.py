"""Early stopping on the NDCG of validation queries, in each library's own form.

:class:`RankingEvaluator` splits whole queries off the training fold and hands
them to the model as its validation set; :func:`early_stopping_params` sets up
the model (a fresh clone) so that it evaluates this package's NDCG on those
queries after every boosting round and stops when it has not improved for
``rounds`` rounds, keeping the best round:

- LightGBM: ``eval_set`` (and ``eval_group`` for rankers), the NDCG as a
  custom ``eval_metric`` (built-in metrics off) and ``lightgbm.early_stopping``;
- XGBoost: a training callback that scores the validation rows after each
  round and keeps the trees up to the best one (XGBoost hands a ranker's custom
  metric one query at a time, which cannot weigh or pool queries);
- CatBoost: ``eval_set`` as a ``Pool`` with ``group_id``, the NDCG as a custom
  ``eval_metric``, ``early_stopping_rounds`` and ``use_best_model``;
- scikit-learn's HistGradientBoosting (scikit-learn >= 1.7): ``X_val`` and
  ``y_val``, the NDCG as its ``scoring`` and ``n_iter_no_change``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import numpy as np

from ._response import ranking_scores


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


_LIBRARIES = ("lightgbm", "xgboost", "catboost", "sklearn")


def library_of(estimator) -> str:
    """The top-level package of the first class of ``estimator``'s MRO from a
    known library (so subclasses count), else of its own class."""
    for cls in type(estimator).__mro__:
        name = cls.__module__.split(".")[0]
        if name in _LIBRARIES:
            return name
    return type(estimator).__module__.split(".")[0]


def early_stopping_params(
    learner,
    rounds: int,
    monitor: QueryMetric,
    X_val,
    y_val,
    val_query: dict,
    training: QueryMetric,
) -> tuple[dict, dict]:
    """Set ``learner`` up to stop early on ``monitor``.

    ``val_query`` is the query information of the validation rows in the form
    ``learner.fit`` takes it (``{"group": sizes}``, ``{"qid": ids}``,
    ``{"group_id": ids}`` or empty). ``training`` scores the training rows,
    which CatBoost evaluates a custom metric on too.

    Returns the extra ``fit`` parameters, and the parameters of ``learner``
    that :func:`finish_early_stopping` sets back after ``fit`` (the ones set
    here hold the validation rows and local functions, which cannot be
    pickled).
    """
    library = library_of(learner)
    if library == "lightgbm":
        import lightgbm

        learner.set_params(metric="None")  # stop on the custom metric alone
        if "eval_X" in inspect.signature(lightgbm.LGBMModel.fit).parameters:
            # LightGBM >= 4.7 deprecates eval_set
            params = {"eval_X": (X_val,), "eval_y": (y_val,)}
        else:
            params = {"eval_set": [(X_val, y_val)]}
        params["eval_metric"] = lambda y_true, y_score: (monitor.name, monitor(y_score), True)
        params["callbacks"] = [lightgbm.early_stopping(rounds, verbose=False)]
        if "group" in val_query:
            params["eval_group"] = [val_query["group"]]
        return params, {}
    if library == "xgboost":  # after the user's own callbacks
        callbacks = learner.get_params()["callbacks"]
        stopper = _xgboost_stopper(rounds, monitor, X_val)
        return {}, _replace(learner, callbacks=[*(callbacks or []), stopper])
    if library == "catboost":
        from catboost import Pool

        cat_features = learner.get_params().get("cat_features")
        pool = Pool(X_val, y_val, cat_features=cat_features, group_id=val_query.get("group_id"))
        original = _replace(learner, eval_metric=_CatBoostMetric(monitor, training))
        return {"eval_set": pool, "early_stopping_rounds": rounds, "use_best_model": True}, original
    if library == "sklearn" and type(learner).__name__.startswith("HistGradientBoosting"):
        if "X_val" not in inspect.signature(learner.fit).parameters:
            raise ValueError(
                f"Early stopping of {type(learner).__name__} on validation queries needs "
                "scikit-learn >= 1.7 (fit(X, y, X_val=..., y_val=...)); this is an older "
                "scikit-learn. Upgrade it, or use the estimator's own early_stopping "
                "(which splits rows, not queries) without the evaluator's."
            )

        def scoring(estimator, X, y, sample_weight=None):
            if not monitor.matches(y):  # a subsample of the training rows: queries unknown
                return np.nan
            return monitor(ranking_scores(estimator, X))

        original = _replace(learner, early_stopping=True, n_iter_no_change=rounds, scoring=scoring)
        return {"X_val": X_val, "y_val": y_val}, original
    raise ValueError(
        "early_stopping needs a boosting model that trains round by round: LightGBM, "
        "XGBoost, CatBoost or scikit-learn's HistGradientBoosting; got "
        f"{type(learner).__name__}. Set early_stopping=None for other estimators."
    )


_UNSET = object()


def _replace(learner, **params) -> dict:
    """Set ``params`` on ``learner``; return the values they had."""
    current = learner.get_params()
    original = {name: current.get(name, _UNSET) for name in params}
    learner.set_params(**params)
    return original


def finish_early_stopping(learner, original: dict) -> None:
    """Set back the ``original`` parameters of the fitted ``learner``."""
    for name, value in original.items():
        if value is _UNSET:  # CatBoost lists only the parameters it was given
            learner._init_params.pop(name, None)
        else:
            learner.set_params(**{name: value})
    if library_of(learner) == "sklearn":
        learner._scorer = None  # HistGradientBoosting keeps the scorer of its fit


class _CatBoostMetric:
    """CatBoost's custom ``eval_metric`` protocol: the NDCG of the validation rows,
    or of the training rows, which CatBoost also evaluates (it refuses NaN)."""

    def __init__(self, monitor: QueryMetric, training: QueryMetric):
        self.monitor = monitor
        self.training = training

    def __deepcopy__(self, memo):  # CatBoost copies its parameters; keep the history
        return self

    def is_max_optimal(self) -> bool:
        return True

    def evaluate(self, approxes, target, weight) -> tuple[float, float]:
        metric = self.monitor if self.monitor.matches(target) else self.training
        return metric(np.asarray(approxes[0], dtype=np.float64)), 1.0

    def get_final_error(self, error: float, weight: float) -> float:
        return error


def _xgboost_stopper(rounds: int, monitor: QueryMetric, X_val):
    """An XGBoost training callback: stop after ``rounds`` rounds without gain."""
    from xgboost.callback import TrainingCallback

    class NDCGEarlyStopping(TrainingCallback):
        best_round = 0

        def after_iteration(self, model, epoch: int, evals_log) -> bool:
            scores = model.inplace_predict(
                X_val, iteration_range=(0, epoch + 1), predict_type="margin"
            )
            monitor(scores)
            self.best_round = int(np.argmax(monitor.history))  # the first best
            return epoch - self.best_round >= rounds

        def after_training(self, model):
            return model[: self.best_round + 1]

    return NDCGEarlyStopping()
