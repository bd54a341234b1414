"""counterfactual_dcg against the simulator's exact truth, within Monte Carlo error.

A seeded, smaller version of benchmarks/bench_clicks.py (2,000 queries x 10 positions,
200 logs there): here 400 queries x 10 positions, 100 logs.
"""

import numpy as np
import pytest

from sklearn_ndcg import counterfactual_dcg, dcg_score
from sklearn_ndcg._clicks._simulate import simulate_clicks

# qid as the logged ranking (its meaning before 0.3), under its FutureWarning
pytestmark = [
    pytest.mark.filterwarnings(
        "ignore:counterfactual_dcg\\(qid=...\\) without impression=:FutureWarning"
    ),
    # small stochastic logs, checked by hand or for bias: their warning is tested apart
    pytest.mark.filterwarnings("ignore:.* queries under stochastic logging:UserWarning"),
]

N_LOGS = 100


def _estimates(sim, target, k=10, **options):
    truth = sim.true_dcg(target, k)
    values, covered = [], []
    for seed in range(N_LOGS):
        log = sim.log(seed)
        kw = dict(qid=log.qid, logged_rank=log.logged_rank, propensity=sim.propensity, k=k)
        if log.logging_probability is not None:
            kw["logging_probability"] = log.logging_probability
        result = counterfactual_dcg(log.click, target, **kw, **options)
        values.append(result.estimate)
        low, high = result.confidence_interval
        covered.append(low <= truth <= high)
    values = np.array(values)
    return truth, values.mean(), values.std(ddof=1) / np.sqrt(N_LOGS), np.mean(covered)


@pytest.fixture(scope="module")
def simulation():
    return simulate_clicks(400, 10, eta=1.0, random_state=0)


def test_ips_is_unbiased_and_covers(simulation):
    truth, mean, se, coverage = _estimates(simulation, simulation.X[:, 1])
    assert abs(mean - truth) < 3 * se
    # 100 logs: 95 % coverage has a binomial standard error of 2.2 %
    assert 0.89 <= coverage <= 1.0


def test_dr_is_unbiased_with_a_wrong_reward_model(simulation):
    reward = np.full(simulation.qid.shape[0], 0.3)  # far from the true relevance
    truth, mean, se, _ = _estimates(
        simulation, simulation.X[:, 1], estimator="dr", reward_model=reward
    )
    assert abs(mean - truth) < 3 * se


def test_dr_removes_the_bias_of_clipping_with_a_right_reward_model(simulation):
    target = simulation.X[:, 1]
    truth, clipped, se, _ = _estimates(simulation, target, clip=0.3)
    # clipping caps weights 1 / propensity (up to 10) at 1 / 0.3: biased down
    assert clipped < truth - 3 * se
    _, dr, se_dr, _ = _estimates(
        simulation, target, estimator="dr", reward_model=simulation.relevance, clip=0.3
    )
    assert abs(dr - truth) < 3 * se_dr


def test_naive_click_dcg_is_biased(simulation):
    target = simulation.X[:, 1]
    truth = simulation.true_dcg(target, 10)
    naive = [
        dcg_score(log.click, target, qid=log.qid, k=10)
        for log in (simulation.log(seed) for seed in range(20))
    ]
    assert np.mean(naive) < 0.8 * truth


def test_stochastic_logging_estimators_are_unbiased():
    sim = simulate_clicks(400, 10, eta=1.0, epsilon=0.5, random_state=1)
    target = sim.X[:, 1]
    for options in (
        dict(estimator="ips"),
        dict(estimator="snips"),
        dict(estimator="dr", reward_model=np.full(sim.qid.shape[0], 0.2)),
    ):
        truth, mean, se, coverage = _estimates(sim, target, **options)
        assert abs(mean - truth) < 3 * se, options
        assert coverage >= 0.89, options


def test_cascade_clicks_bias_the_position_based_estimate():
    """Where examination stops at the first click, the position-based propensities are
    wrong and IPS misses the truth by far more than its standard error."""
    sim = simulate_clicks(400, 10, eta=1.0, click_model="cascade", random_state=2)
    truth, mean, se, _ = _estimates(sim, sim.X[:, 1])
    assert abs(mean - truth) > 10 * se


def test_interval_covers_the_population_value_at_its_level():
    """Each log with its own 200 queries: the t interval over queries is an interval for
    the population DCG@10 (here the exact DCG@10 of 50,000 further queries, Monte Carlo
    error about 0.004, against half-widths of about 0.2), so its coverage is near 95 %
    from both sides; with the queries fixed it would be conservative."""
    reference = simulate_clicks(50_000, 10, random_state=999)
    truth = reference.true_dcg(reference.X[:, 1], 10)
    covered = []
    for seed in range(200):
        sim = simulate_clicks(200, 10, random_state=seed)
        log = sim.log(seed)
        low, high = counterfactual_dcg(
            log.click,
            sim.X[:, 1],
            qid=log.qid,
            logged_rank=log.logged_rank,
            propensity=sim.propensity,
            k=10,
        ).confidence_interval
        covered.append(low <= truth <= high)
    # 200 logs: 95 % coverage has a binomial standard error of 1.5 %
    assert 0.91 <= np.mean(covered) <= 0.99
