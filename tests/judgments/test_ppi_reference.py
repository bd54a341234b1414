"""prediction_powered_mean and prediction_powered_difference against ppi_py, the
reference library of the PPI authors (``pip install ppi-python``, the ``reference``
extra): estimate and interval to 1e-12, classical (lam=1) and power-tuned (PPI++)."""

import warnings

import numpy as np
import pytest

from sklearn_ndcg import QueryScores, prediction_powered_difference, prediction_powered_mean

# ppi_py silences every warning when imported (warnings.simplefilter("ignore")):
# imported inside catch_warnings, so that the suite's warnings stay errors
with warnings.catch_warnings():
    ppi_py = pytest.importorskip("ppi_py")

TOLERANCE = 1e-12


def _values(rng, n_queries, kind):
    """True per-query values and model values with a bias and noise of kind ``kind``."""
    y = rng.beta(2, 1.5, size=n_queries)
    if kind == "biased":  # inflated and noisy: 0 < lambda < 1
        f = np.clip(y + 0.1 + rng.normal(0, 0.1, n_queries), 0, 1)
    elif kind == "anti":  # errs against the truth: lambda clipped to 0
        f = 1 - y + rng.normal(0, 0.05, n_queries)
    elif kind == "scaled":  # y ~ 2 f, f barely varies: lambda clipped to 1
        f = 0.5 * y + rng.normal(0, 0.01, n_queries)
    else:  # a discrete scale, as NDCG of short lists
        f = np.round(y * 4) / 4
    return y, f


def _draw(seed, n_queries, n_labelled, kind):
    """Model values of every query, human values of a random subset; the arrays as
    ppi_py takes them (Y, Yhat, Yhat_unlabeled), in the order of the sorted ids."""
    rng = np.random.default_rng(seed)
    y, f = _values(rng, n_queries, kind)
    qid = rng.permutation(10 * n_queries)[:n_queries]
    labelled = np.sort(rng.choice(n_queries, size=n_labelled, replace=False))
    order = np.argsort(qid[labelled])
    labelled = labelled[order]
    unlabelled = np.setdiff1d(np.arange(n_queries), labelled)
    model = dict(zip(qid.tolist(), f.tolist()))
    human = dict(zip(qid[labelled].tolist(), y[labelled].tolist()))
    return model, human, (y[labelled], f[labelled], f[unlabelled])


CASES = [
    # seed, n_queries, n_labelled, kind
    (0, 2000, 100, "biased"),
    (1, 50, 2, "biased"),
    (2, 30, 29, "biased"),
    (3, 400, 40, "anti"),
    (4, 400, 40, "scaled"),
    (5, 300, 60, "discrete"),
    (6, 7, 3, "discrete"),
]


@pytest.mark.parametrize("power_tuning", [False, True])
@pytest.mark.parametrize("confidence_level", [0.9, 0.95, 0.99])
@pytest.mark.parametrize("seed, n_queries, n_labelled, kind", CASES)
def test_mean_equals_ppi_py(seed, n_queries, n_labelled, kind, confidence_level, power_tuning):
    model, human, (y, f, g) = _draw(seed, n_queries, n_labelled, kind)
    lam = None if power_tuning else 1
    alpha = 1 - confidence_level
    expected_estimate = ppi_py.ppi_mean_pointestimate(y, f, g, lam=lam)
    low, high = ppi_py.ppi_mean_ci(y, f, g, alpha=alpha, lam=lam)
    result = prediction_powered_mean(
        model, human, confidence_level=confidence_level, power_tuning=power_tuning
    )
    assert result.estimate == pytest.approx(expected_estimate.item(), abs=TOLERANCE, rel=0)
    assert result.confidence_interval[0] == pytest.approx(low.item(), abs=TOLERANCE, rel=0)
    assert result.confidence_interval[1] == pytest.approx(high.item(), abs=TOLERANCE, rel=0)
    assert (result.n_labelled, result.n_unlabelled) == (n_labelled, n_queries - n_labelled)


def test_lambda_is_clipped_as_in_ppi_py():
    """The cases above include both clips, so that the comparison covers them."""
    lambdas = {
        kind: prediction_powered_mean(*_draw(seed, n, m, kind)[:2]).lambda_
        for seed, n, m, kind in CASES
        if seed in (0, 3, 4)
    }
    assert lambdas["anti"] == 0.0
    assert lambdas["scaled"] == 1.0
    assert 0 < lambdas["biased"] < 1


def test_query_scores_input_equals_ppi_py():
    model, human, (y, f, g) = _draw(0, 500, 50, "biased")
    as_scores = [
        QueryScores(np.array(list(d)), np.array(list(d.values())), np.ones(len(d)))
        for d in (model, human)
    ]
    result = prediction_powered_mean(*as_scores)
    low, high = ppi_py.ppi_mean_ci(y, f, g, alpha=0.05)
    assert result.confidence_interval == pytest.approx((low.item(), high.item()), abs=1e-12)


@pytest.mark.parametrize("power_tuning", [False, True])
@pytest.mark.parametrize("seed, n_queries, n_labelled, kind", CASES)
def test_pair_input_equals_ppi_py(seed, n_queries, n_labelled, kind, power_tuning):
    """Pairs (qid, values) of arrays, the human ids in a shuffled order and as numpy
    integers: aligned by id like the mappings."""
    model, human, (y, f, g) = _draw(seed, n_queries, n_labelled, kind)
    shuffle = np.random.default_rng(seed).permutation(len(human))
    human_ids = np.array(list(human), dtype=np.int64)[shuffle]
    human_pair = (human_ids, np.array(list(human.values()))[shuffle])
    model_pair = (np.array(list(model)), list(model.values()))
    lam = None if power_tuning else 1
    result = prediction_powered_mean(model_pair, human_pair, power_tuning=power_tuning)
    low, high = ppi_py.ppi_mean_ci(y, f, g, alpha=0.05, lam=lam)
    estimate = ppi_py.ppi_mean_pointestimate(y, f, g, lam=lam)
    assert result.estimate == pytest.approx(estimate.item(), abs=TOLERANCE, rel=0)
    assert result.confidence_interval == pytest.approx((low.item(), high.item()), abs=TOLERANCE)


@pytest.mark.parametrize("pairs", [False, True])
@pytest.mark.parametrize("power_tuning", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_difference_equals_ppi_py_on_the_differences(seed, power_tuning, pairs):
    rng = np.random.default_rng(seed)
    n_queries, n_labelled = 1000, 80
    truth_a = rng.beta(2, 1.5, n_queries)
    truth_b = np.clip(truth_a - 0.02 + rng.normal(0, 0.1, n_queries), 0, 1)
    # the model labels favour b
    model_a = np.clip(truth_a + rng.normal(0.05, 0.1, n_queries), 0, 1)
    model_b = np.clip(truth_b + rng.normal(0.1, 0.1, n_queries), 0, 1)
    labelled = np.sort(rng.choice(n_queries, n_labelled, replace=False))
    unlabelled = np.setdiff1d(np.arange(n_queries), labelled)
    qid = [f"q{i:04d}" for i in range(n_queries)]
    human_qid = [qid[i] for i in labelled]
    if pairs:  # (qid, values) of arrays, ranker b's in reverse order
        inputs = [
            (qid, model_a),
            (qid[::-1], model_b[::-1]),
            (human_qid, truth_a[labelled]),
            (human_qid[::-1], truth_b[labelled][::-1]),
        ]
    else:
        inputs = [
            dict(zip(qid, model_a)),
            dict(zip(qid, model_b)),
            dict(zip(human_qid, truth_a[labelled])),
            dict(zip(human_qid, truth_b[labelled])),
        ]
    result = prediction_powered_difference(*inputs, power_tuning=power_tuning)
    y = truth_a[labelled] - truth_b[labelled]
    f = model_a[labelled] - model_b[labelled]
    g = model_a[unlabelled] - model_b[unlabelled]
    lam = None if power_tuning else 1
    low, high = ppi_py.ppi_mean_ci(y, f, g, alpha=0.05, lam=lam)
    pvalue = ppi_py.ppi_mean_pval(y, f, g, lam=lam)
    estimate = ppi_py.ppi_mean_pointestimate(y, f, g, lam=lam)
    assert result.estimate == pytest.approx(estimate.item(), abs=TOLERANCE, rel=0)
    assert result.confidence_interval == pytest.approx((low.item(), high.item()), abs=TOLERANCE)
    assert result.pvalue == pytest.approx(pvalue.item(), abs=TOLERANCE, rel=0)
