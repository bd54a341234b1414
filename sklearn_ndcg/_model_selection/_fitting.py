"""Fitting the estimator a RankingEvaluator wraps: its learning step, the checks of
the labels, query ids and weights, and the call of its ``fit``."""

from __future__ import annotations

from sklearn import config_context
from sklearn.pipeline import Pipeline

from .._compat import _num_samples
from .._engine import check_qid, check_weight
from ._learners import FitInput


def final_step(estimator) -> tuple[str, object]:
    """The estimator that learns (the last step of nested pipelines), and the
    prefix (``"step__"``) of its fit parameters."""
    prefix = ""
    while isinstance(estimator, Pipeline):
        name, estimator = estimator.steps[-1]
        prefix += f"{name}__"
    return prefix, estimator


def check_fit_input(owner: str, y, qid, sample_weight) -> tuple:
    """The checked ``qid`` and ``sample_weight`` of ``owner``'s ``fit``."""
    if y is None:
        raise ValueError(
            f"This {owner} estimator requires y to be passed, but "
            "the target y is None; give one relevance label per document."
        )
    n_samples = _num_samples(y)
    if qid is not None:
        qid = check_qid(qid, n_samples, target="y")
    sample_weight = check_weight(sample_weight, n_samples, "one per document")
    if sample_weight is not None and not sample_weight.any():
        raise ValueError(
            "sample_weight sums to zero; at least one document needs a positive weight."
        )
    return qid, sample_weight


def fit_estimator(
    estimator, adapter, training: FitInput, params: dict, stopping: dict, prefix: str, owner: str
) -> None:
    """Fit ``estimator`` on the training rows, with the adapter's parameters (query
    information, weights, early stopping) and the caller's ``params``.

    ``prefix`` is that of :func:`final_step` (a pipeline's last step gets the
    adapter's parameters as ``step__name``); ``owner`` names the caller in messages.
    """
    own = training.params
    clash = set(params) & (set(own) | set(stopping))
    if clash:
        raise ValueError(
            f"{owner} gives {type(adapter.estimator).__name__} "
            f"{sorted(clash)} itself, from qid, sample_weight and early_stopping; do not "
            "pass them as fit parameters. Pass qid (one query id per row) instead of "
            "group sizes."
        )
    if prefix:  # a pipeline: hand them to its last step as step__name
        if params:
            raise ValueError(
                f"{owner} passes qid (or group) and sample_weight to "
                "the last step of a Pipeline; it cannot route the other fit "
                f"parameters {sorted(params)}. Set them on the steps instead."
            )
        with config_context(enable_metadata_routing=False), adapter.fitting():
            estimator.fit(training.X, training.y, **{prefix + key: v for key, v in own.items()})
    else:
        with adapter.fitting():
            estimator.fit(training.X, training.y, **params, **own, **stopping)
