"""The EM of the position-based model against a direct maximisation of its likelihood."""

import numpy as np
import pytest
from _bias_logs import em_log, regression_log
from scipy.optimize import minimize

from sklearn_ndcg._clicks._bias_log import check_bias_log, pair_features
from sklearn_ndcg._clicks._em import em_examination


def _cell_counts(log):
    index = log.pair * log.max_rank + log.rank
    shown = np.bincount(index, minlength=log.n_pairs * log.max_rank)
    clicked = np.bincount(index, weights=log.click, minlength=shown.size)
    return shown.reshape(log.n_pairs, -1), clicked.reshape(log.n_pairs, -1)


def _direct_free(log):
    """The maximum likelihood by L-BFGS-B over every theta and gamma (the reference)."""
    shown, clicked = _cell_counts(log)
    k = log.max_rank

    def loss(x):
        theta, gamma = x[:k], x[k:]
        p = np.clip(gamma[:, None] * theta[None, :], 1e-12, 1 - 1e-12)
        skipped = shown - clicked
        value = -(clicked * np.log(p) + skipped * np.log1p(-p)).sum()
        d_p = -(clicked / p - skipped / (1 - p))
        return value, np.concatenate([(d_p * gamma[:, None]).sum(0), (d_p * theta[None]).sum(1)])

    x0 = np.full(k + log.n_pairs, 0.5)
    fit = minimize(
        loss,
        x0,
        jac=True,
        method="L-BFGS-B",
        bounds=[(1e-9, 1 - 1e-9)] * x0.size,
        options={"maxiter": 20000, "ftol": 1e-15, "gtol": 1e-12},
    )
    return fit.x[:k] / fit.x[0]


def test_free_em_is_the_maximum_likelihood():
    sim = em_log(8, n_sessions=30, seed=3)
    log = check_bias_log(sim.qid, sim.doc, sim.logged_rank, sim.click)
    theta, _, converged = em_examination(log, np.ones(sim.qid.size), max_iter=5000, tol=1e-10)
    assert converged
    np.testing.assert_allclose(theta / theta[0], _direct_free(log), atol=2e-4)


def test_logistic_em_is_the_maximum_likelihood():
    sim, features = regression_log(300, seed=4)
    log = check_bias_log(sim.qid, sim.doc, sim.logged_rank, sim.click)
    x = pair_features(log, features)
    theta, beta, converged = em_examination(
        log, np.ones(sim.qid.size), max_iter=5000, tol=1e-10, features=x
    )
    assert converged
    shown, clicked = _cell_counts(log)
    design = np.hstack([x, np.ones((x.shape[0], 1))])
    k = log.max_rank

    def loss(z):  # the reference: theta in (0, 1), beta free, by L-BFGS-B
        gamma = 1 / (1 + np.exp(-(design @ z[k:])))
        p = np.clip(gamma[:, None] * z[None, :k], 1e-12, 1 - 1e-12)
        return -(clicked * np.log(p) + (shown - clicked) * np.log1p(-p)).sum()

    start = np.concatenate([np.full(k, 0.5), np.zeros(design.shape[1])])
    bounds = [(1e-9, 1 - 1e-9)] * k + [(None, None)] * design.shape[1]
    fit = minimize(
        loss,
        start,
        method="L-BFGS-B",
        bounds=bounds,
        options={"maxiter": 20000, "ftol": 1e-15, "gtol": 1e-10},
    )
    assert -loss(np.concatenate([theta, beta])) >= -fit.fun - 1e-6  # EM at least as likely
    np.testing.assert_allclose(theta / theta[0], fit.x[:k] / fit.x[0], atol=5e-3)


def test_weights_are_repeated_rows():
    # a row of weight 2 counts as two copies of the row
    sim = em_log(6, n_sessions=10, seed=5)
    weight = np.random.default_rng(0).integers(0, 3, sim.qid.size).astype(float)
    log = check_bias_log(sim.qid, sim.doc, sim.logged_rank, sim.click)
    repeat = np.repeat(np.arange(sim.qid.size), weight.astype(int))
    copies = check_bias_log(
        sim.qid[repeat], sim.doc[repeat], sim.logged_rank[repeat], sim.click[repeat]
    )
    a, _, _ = em_examination(log, weight, max_iter=3000, tol=1e-11)
    b, _, _ = em_examination(copies, np.ones(repeat.size), max_iter=3000, tol=1e-11)
    np.testing.assert_allclose(a / a[0], b / b[0], atol=1e-6)


@pytest.mark.parametrize("max_iter, expected", [(1, False), (5000, True)])
def test_reports_convergence(max_iter, expected):
    sim = em_log(6, n_sessions=10, seed=6)
    log = check_bias_log(sim.qid, sim.doc, sim.logged_rank, sim.click)
    assert em_examination(log, np.ones(sim.qid.size), max_iter=max_iter, tol=1e-9)[2] is expected
