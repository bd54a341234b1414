"""prediction_powered_mean and _difference warn on too few queries (issue 50).

The minimums come from benchmarks/bench_ppi_small_samples.py (coverage of the 95 %
intervals below 0.93 under 100 human-labelled queries for a mean, 50 for a difference,
or 100 model-only queries); here, the
warnings at the edges and one case where the interval is plainly too narrow: a single
model-only query, whose variance (over 1 value) is 0.
"""

import warnings

import numpy as np
import pytest

from sklearn_ndcg import prediction_powered_difference, prediction_powered_mean
from sklearn_ndcg._judgments._ppi import MIN_LABELLED, MIN_LABELLED_DIFFERENCE, MIN_UNLABELLED


def _inputs(n_labelled, n_unlabelled, seed=0):
    rng = np.random.default_rng(seed)
    n = n_labelled + n_unlabelled
    qid = np.arange(n)
    true = rng.beta(2, 2, n)
    model = np.clip(true + rng.normal(0.05, 0.1, n), 0, 1)
    return (qid, model), (qid[:n_labelled], true[:n_labelled])


def _messages(function, *args):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        function(*args)
    return [str(w.message) for w in caught]


@pytest.mark.parametrize(
    "n_labelled, n_unlabelled, expected",
    [
        (MIN_LABELLED - 1, MIN_UNLABELLED, [f"too few human-labelled queries: {MIN_LABELLED - 1}"]),
        (MIN_LABELLED, MIN_UNLABELLED - 1, [f"too few model-only queries: {MIN_UNLABELLED - 1}"]),
        (MIN_LABELLED, MIN_UNLABELLED, []),
        (5, 1, ["too few human-labelled queries: 5", "too few model-only queries: 1"]),
    ],
)
def test_warns_below_the_minimums(n_labelled, n_unlabelled, expected):
    model, human = _inputs(n_labelled, n_unlabelled)
    messages = _messages(prediction_powered_mean, model, human)
    assert [m.split(";")[0] for m in messages] == expected


@pytest.mark.parametrize(
    "n_labelled, expected",
    [
        (
            MIN_LABELLED_DIFFERENCE - 1,
            [f"too few human-labelled queries: {MIN_LABELLED_DIFFERENCE - 1}"],
        ),
        (MIN_LABELLED_DIFFERENCE, []),
    ],
)
def test_the_difference_needs_fewer(n_labelled, expected):
    (qid, a), (labelled, ha) = _inputs(n_labelled, MIN_UNLABELLED)
    pair = ((qid, a), (qid, a - 0.01), (labelled, ha), (labelled, ha - 0.02))
    assert [m.split(";")[0] for m in _messages(prediction_powered_difference, *pair)] == expected


def test_one_model_only_query_gives_a_too_narrow_interval():
    """Why the unlabelled minimum: the model-only part's variance over 1 value is 0."""
    model, human = _inputs(150, 1)
    with pytest.warns(UserWarning, match="too few model-only queries"):
        result = prediction_powered_mean(model, human, power_tuning=False)
    rectifier = human[1] - model[1][:150]
    # hand computation: the standard error is the rectifier's alone
    assert result.standard_error == pytest.approx(rectifier.std() / np.sqrt(150))
