"""The counterfactual estimators of :func:`counterfactual_dcg`, one registry entry each:
what each needs of the log (read by the checks, the scorer and the docs) and its value
per row."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class Estimator(NamedTuple):
    """One estimator: the per-row column it needs (None: only the log) and why, and
    whether the mean importance weight normalises it."""

    name: str
    needs: str | None
    why: str
    self_normalised: bool = False

    def row_values(self, click, weight, discount, new_discount, propensity, reward):
        """Each row's share of its impression's estimate."""
        if self.needs == "reward_model":  # doubly robust: the model's DCG plus IPS of its error
            return new_discount * reward + weight * discount * (click - propensity * reward)
        return weight * discount * click


ESTIMATORS = {
    "ips": Estimator("ips", None, "inverse propensity scoring needs only the log"),
    "snips": Estimator(
        "snips",
        "logging_probability",
        "the self-normalised estimator divides by the mean importance weight of stochastic "
        "logging, whose expectation is 1; under deterministic logging the weights are "
        'constants. Use estimator="ips" (with clip) instead',
        self_normalised=True,
    ),
    "dr": Estimator(
        "dr",
        "reward_model",
        "the doubly robust estimator adds the IPS estimate of the reward model's error to "
        "its predicted DCG: give the predicted relevance of each row, e.g. a fitted "
        "regressor's predict on the log's features",
    ),
}


def check_estimator_input(name: str, logging_probability, reward_model) -> Estimator:
    """The registry entry of ``name``; a ValueError when the log lacks the column it needs,
    or holds a reward model it does not use."""
    estimator = ESTIMATORS[name]
    given = {"logging_probability": logging_probability, "reward_model": reward_model}
    if estimator.needs is not None and given[estimator.needs] is None:
        raise ValueError(f'estimator="{name}" needs {estimator.needs}: {estimator.why}.')
    if reward_model is not None and estimator.needs != "reward_model":
        users = [e.name for e in ESTIMATORS.values() if e.needs == "reward_model"]
        raise ValueError(
            f'reward_model is only used by estimator="{users[0]}"; got estimator={name!r}. '
            "Drop reward_model or use the doubly robust estimator."
        )
    return estimator


def normaliser(estimator: Estimator, ratio: np.ndarray) -> float:
    """What the per-impression estimates are divided by: the log's mean ratio of
    probabilities for a self-normalised estimator, else 1."""
    return float(ratio.mean()) if estimator.self_normalised else 1.0
