"""prediction_powered_mean and prediction_powered_difference: behaviour, special cases
by hand, verdicts (the comparison with ppi_py is in test_ppi_reference.py)."""

import numpy as np
import pytest
from scipy import stats

from sklearn_ndcg import (
    QueryScores,
    prediction_powered_difference,
    prediction_powered_mean,
    query_scores,
)


def _draw(seed=0, n_queries=300, n_labelled=60, shift=0.05, noise=0.1):
    """Model values of every query, human values of a random subset (mappings)."""
    rng = np.random.default_rng(seed)
    truth = rng.beta(2, 1.5, n_queries)
    model = np.clip(truth + shift + rng.normal(0, noise, n_queries), 0, 1)
    labelled = rng.choice(n_queries, n_labelled, replace=False)
    qid = [f"q{i}" for i in range(n_queries)]
    return dict(zip(qid, model)), {qid[i]: truth[i] for i in labelled}


@pytest.mark.parametrize("power_tuning", [False, True])
def test_invariant_to_the_order_and_names_of_the_queries(power_tuning):
    model, human = _draw()
    result = prediction_powered_mean(model, human, power_tuning=power_tuning)
    rename = {q: 1000 - i for i, q in enumerate(model)}  # other ids, another type
    reversed_model = {rename[q]: model[q] for q in reversed(list(model))}
    reversed_human = {rename[q]: human[q] for q in sorted(human, reverse=True)}
    other = prediction_powered_mean(reversed_model, reversed_human, power_tuning=power_tuning)
    assert other.estimate == pytest.approx(result.estimate, abs=1e-14)
    assert other.confidence_interval == pytest.approx(result.confidence_interval, abs=1e-14)
    assert other.lambda_ == pytest.approx(result.lambda_, abs=1e-14)


def test_a_perfect_model_leaves_its_own_mean():
    # hand computation: no error on the labelled queries, so the estimate is the model's
    # mean on the others, with the standard error of that mean (variance over N)
    model, human = _draw(n_queries=50, n_labelled=10)
    human = {q: model[q] for q in human}
    others = np.array([v for q, v in model.items() if q not in human])
    result = prediction_powered_mean(model, human, power_tuning=False)
    assert result.estimate == pytest.approx(others.mean(), abs=1e-15)
    assert result.standard_error == pytest.approx(others.std() / np.sqrt(40), abs=1e-15)


def test_a_useless_model_gives_the_human_interval():
    # a model that errs against the truth gets lambda 0: the human mean and its normal
    # interval, standard deviation over n (as ppi_py)
    model, human = _draw()
    model = {q: 1 - v for q, v in model.items()}
    result = prediction_powered_mean(model, human)
    y = np.array(list(human.values()))
    half = stats.norm.ppf(0.975) * y.std() / np.sqrt(y.shape[0])
    assert result.lambda_ == 0.0
    assert result.estimate == pytest.approx(y.mean(), abs=1e-15)
    assert result.confidence_interval == pytest.approx((y.mean() - half, y.mean() + half))


def test_power_tuning_narrows_the_interval_of_a_noisy_model():
    model, human = _draw(noise=0.3)
    classical = prediction_powered_mean(model, human, power_tuning=False)
    tuned = prediction_powered_mean(model, human)
    assert 0 < tuned.lambda_ < 1
    assert tuned.standard_error < classical.standard_error


def test_a_higher_level_gives_a_wider_interval_around_the_same_estimate():
    model, human = _draw()
    results = [prediction_powered_mean(model, human, confidence_level=c) for c in (0.9, 0.99)]
    assert results[0].estimate == results[1].estimate
    widths = [high - low for low, high in (r.confidence_interval for r in results)]
    # normal quantiles
    assert widths[1] / widths[0] == pytest.approx(stats.norm.ppf(0.995) / stats.norm.ppf(0.95))


def test_query_scores_of_the_package_are_taken():
    rng = np.random.default_rng(1)
    grade = rng.integers(0, 4, size=(40, 8))
    score = grade + rng.normal(0, 1, grade.shape)
    lenient = np.minimum(grade + (rng.random(grade.shape) < 0.4), 3)
    model = query_scores(lenient, score)
    labelled = np.arange(0, 40, 4)
    truth = query_scores(grade[labelled], score[labelled])
    human = QueryScores(labelled, truth.score, truth.weight)
    result = prediction_powered_mean(model, human, power_tuning=False)
    # hand computation of the classical estimate from the per-query values
    others = np.setdiff1d(np.arange(40), labelled)
    expected = model.score[others].mean() + (truth.score - model.score[labelled]).mean()
    assert result.estimate == pytest.approx(expected, abs=1e-15)


@pytest.mark.parametrize("power_tuning", [False, True])
def test_difference_with_a_zero_ranker_is_the_mean(power_tuning):
    model, human = _draw()
    zeros_model = dict.fromkeys(model, 0.0)
    zeros_human = dict.fromkeys(human, 0.0)
    difference = prediction_powered_difference(
        model, zeros_model, human, zeros_human, power_tuning=power_tuning
    )
    mean = prediction_powered_mean(model, human, power_tuning=power_tuning)
    assert difference.estimate == pytest.approx(mean.estimate, abs=1e-15)
    assert difference.confidence_interval == pytest.approx(mean.confidence_interval, abs=1e-15)


def _pair(seed, n_labelled, true_shift, n_queries=400):
    """Two rankers; the model labels favour b by 0.03, the truth is a - b = true_shift."""
    rng = np.random.default_rng(seed)
    qid = list(range(n_queries))
    truth_b = rng.beta(2, 1.5, n_queries)
    truth_a = np.clip(truth_b + true_shift + rng.normal(0, 0.01, n_queries), -1, 2)
    model_a = truth_a + rng.normal(0, 0.02, n_queries)
    model_b = truth_b + 0.03 + rng.normal(0, 0.02, n_queries)
    labelled = rng.choice(n_queries, n_labelled, replace=False).tolist()
    return (
        dict(zip(qid, model_a)),
        dict(zip(qid, model_b)),
        {q: truth_a[q] for q in labelled},
        {q: truth_b[q] for q in labelled},
    )


@pytest.mark.parametrize(
    "true_shift, expected",
    [(0.05, "better"), (-0.05, "worse"), (0.0, "equivalent")],
)
def test_verdicts(true_shift, expected):
    result = prediction_powered_difference(*_pair(0, 100, true_shift), margin=0.01)
    assert result.verdict == expected
    assert result.margin == 0.01
    if expected == "equivalent":
        low, high = result.equivalence_interval
        assert -0.01 < low and high < 0.01


def test_inconclusive_where_the_interval_is_wide():
    model_a, model_b, human_a, human_b = _pair(0, 100, 0.0)
    noisy = np.random.default_rng(5).normal(0, 0.3, len(human_a))
    noisy -= noisy.mean()  # noise that widens the interval without moving the estimate
    human_a = {q: v + e for (q, v), e in zip(human_a.items(), noisy)}
    result = prediction_powered_difference(model_a, model_b, human_a, human_b, margin=0.01)
    assert result.verdict == "inconclusive"
    assert result.pvalue >= 0.05


def test_equivalence_needs_30_labelled_queries():
    with pytest.warns(UserWarning, match="too few queries: 20 human-labelled queries"):
        result = prediction_powered_difference(*_pair(0, 20, 0.0), margin=0.05)
    assert result.verdict == "inconclusive"
    assert result.equivalence_interval == (-np.inf, np.inf)


@pytest.mark.parametrize("seed", range(5))
def test_pvalue_below_alpha_exactly_when_the_interval_excludes_0(seed):
    result = prediction_powered_difference(*_pair(seed, 30, 0.003 * seed))
    low, high = result.confidence_interval
    assert (result.pvalue < 0.05) == (not low <= 0 <= high)


def test_swapping_the_rankers_negates_the_difference():
    model_a, model_b, human_a, human_b = _pair(0, 100, 0.05)
    ab = prediction_powered_difference(model_a, model_b, human_a, human_b, margin=0.01)
    ba = prediction_powered_difference(model_b, model_a, human_b, human_a, margin=0.01)
    assert (ab.verdict, ba.verdict) == ("better", "worse")
    assert ba.estimate == pytest.approx(-ab.estimate, abs=1e-15)
    assert ba.pvalue == pytest.approx(ab.pvalue, abs=1e-15)


def test_the_model_bias_between_rankers_is_corrected():
    # the model labels favour b by 0.03; the truth is a - b = 0.05
    model_a, model_b, human_a, human_b = _pair(0, 100, 0.05)
    naive = np.mean(list(model_a.values())) - np.mean(list(model_b.values()))
    result = prediction_powered_difference(model_a, model_b, human_a, human_b)
    assert naive == pytest.approx(0.02, abs=0.005)
    low, high = result.confidence_interval
    assert low < 0.05 < high
    assert not low < naive < high
