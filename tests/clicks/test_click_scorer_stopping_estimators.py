"""RankingEvaluator(early_stopping_scoring=...) with every estimator and with sample_weight.

The log is drawn here: a stochastic logger that shows each query's documents in a
uniformly random order (logging probability 1 / n_documents of every row), clicks under
the position-based model. The reference for every monitored value is
:func:`counterfactual_dcg` called here on the model's staged predictions of the
validation rows, which an independent ``GroupShuffleSplit`` on the query ids picks.
"""

import inspect

import numpy as np
import pytest
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import GroupShuffleSplit

from sklearn_ndcg import RankingEvaluator, counterfactual_dcg, make_counterfactual_dcg_scorer

K, ROUNDS, SEED, FRACTION = 5, 3, 0, 0.3
N_QUERIES, N_DOCUMENTS = 120, 6
PROPENSITY = 1 / np.arange(1, N_DOCUMENTS + 1)
pytestmark = [
    pytest.mark.skipif(
        "X_val" not in inspect.signature(HistGradientBoostingRegressor.fit).parameters,
        reason="early stopping on validation queries needs scikit-learn >= 1.7",
    ),
    # the references below are small stochastic logs (their warning is tested apart)
    pytest.mark.filterwarnings("ignore:.* queries under stochastic logging:UserWarning"),
]


@pytest.fixture(scope="module")
def log():
    rng = np.random.default_rng(0)
    n = N_QUERIES * N_DOCUMENTS
    qid = np.repeat(np.arange(N_QUERIES), N_DOCUMENTS)
    relevance = rng.choice([0.05, 0.3, 0.9], size=n)
    X = np.column_stack([relevance + rng.normal(0, 0.3, n), rng.normal(size=n)])
    rank = rng.random((N_QUERIES, N_DOCUMENTS)).argsort(axis=1).argsort(axis=1).ravel() + 1
    click = (rng.random(n) < PROPENSITY[rank - 1] * relevance).astype(float)
    return dict(
        X=X,
        click=click,
        qid=qid,
        logged_rank=rank,
        logging_probability=np.full(n, 1 / N_DOCUMENTS),
        reward_model=np.clip(relevance + rng.normal(0, 0.1, n), 0, 1),
        sample_weight=(qid % 3 + 1).astype(float),  # one weight per query
    )


def validation_rows(qid):
    split = GroupShuffleSplit(n_splits=1, test_size=FRACTION, random_state=SEED)
    return next(split.split(qid, groups=qid))[1]


def fit(log, scorer, *columns, weighted=False):
    model = RankingEvaluator(
        HistGradientBoostingRegressor(max_iter=60, max_depth=2, random_state=SEED),
        k=K,
        early_stopping=ROUNDS,
        validation_fraction=FRACTION,
        random_state=SEED,
        early_stopping_scoring=scorer,
    )
    weight = log["sample_weight"] if weighted else None
    params = {name: log[name] for name in ("logged_rank", *columns)}
    return model.fit(log["X"], log["click"], qid=log["qid"], sample_weight=weight, **params)


def staged_references(model, log, columns, options, weighted=False):
    """counterfactual_dcg of each round's predictions of the validation rows; weighted:
    the mean of its per-query values weighted by each query's weight (qid % 3 + 1)."""
    val = validation_rows(log["qid"])
    metadata = {name: log[name][val] for name in ("logged_rank", *columns)}
    values = []
    for y_score in model.estimator_.staged_predict(log["X"][val]):
        result = counterfactual_dcg(
            log["click"][val],
            y_score,
            qid=log["qid"][val],
            impression=log["qid"][val],
            **metadata,
            **options,
        )
        query_weight = result.per_query.qid % 3 + 1  # hand computation: the fixture's weights
        values.append(
            np.average(result.per_query.score, weights=query_weight)
            if weighted
            else result.estimate
        )
    return values


@pytest.mark.parametrize(
    "estimator, columns",
    [
        ("snips", ("logging_probability",)),
        ("dr", ("logging_probability", "reward_model")),
        ("ips", ("logging_probability",)),  # item-position IPS: stochastic logging
        ("dr", ("reward_model",)),  # deterministic logging, clipped
    ],
)
def test_every_estimator_stops_on_its_estimate(log, estimator, columns):
    options = dict(propensity=PROPENSITY, k=K, estimator=estimator, clip=0.2)
    model = fit(log, make_counterfactual_dcg_scorer(**options), *columns)
    history = model.validation_scores_
    reference = staged_references(model, log, columns, options)
    # HistGradientBoosting scores its initial constant prediction first
    np.testing.assert_allclose(history[1:], reference, rtol=1e-12)
    assert len(history) == int(np.argmax(history)) + ROUNDS + 1 < 61  # stopped after the best


def test_sample_weight_weighs_the_queries_of_the_estimate(log):
    options = dict(propensity=PROPENSITY, k=K, clip=0.2)
    model = fit(log, make_counterfactual_dcg_scorer(**options), weighted=True)
    reference = staged_references(model, log, (), options, weighted=True)
    np.testing.assert_allclose(model.validation_scores_[1:], reference, rtol=1e-12)
    unweighted = staged_references(model, log, (), options)
    assert not np.allclose(reference, unweighted)  # the weights change the monitored values


@pytest.mark.parametrize(
    "estimator, given, needed",
    [("snips", (), "logging_probability"), ("dr", ("logging_probability",), "reward_model")],
)
def test_an_estimator_without_its_column_says_what_to_pass(log, estimator, given, needed):
    scorer = make_counterfactual_dcg_scorer(PROPENSITY, k=K, estimator=estimator)
    with pytest.raises(
        ValueError, match=f"estimator='{estimator}' needs {needed} for every row.*pass {needed}="
    ):
        fit(log, scorer, *given)


def test_a_search_routes_the_log_columns_to_the_scorer_and_to_fit(log):
    import sklearn
    from sklearn.model_selection import GridSearchCV, GroupKFold

    scorer = make_counterfactual_dcg_scorer(PROPENSITY, k=K, estimator="snips")
    model = RankingEvaluator(
        HistGradientBoostingRegressor(max_iter=20, random_state=SEED),
        k=K,
        early_stopping=ROUNDS,
        random_state=SEED,
        early_stopping_scoring=scorer,
    )
    columns = {name: log[name] for name in ("logged_rank", "logging_probability")}
    with sklearn.config_context(enable_metadata_routing=True):
        search = GridSearchCV(
            model, {"estimator__max_depth": [2]}, cv=GroupKFold(2), scoring=scorer
        )
        search.fit(
            log["X"],
            log["click"],
            groups=log["qid"],
            qid=log["qid"],
            impression=log["qid"],
            **columns,
        )
    assert np.all(np.isfinite(search.cv_results_["mean_test_score"]))
    assert np.all(np.isfinite(search.best_estimator_.validation_scores_))
