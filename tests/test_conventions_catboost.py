"""The "catboost*" presets of CONVENTIONS against CatBoost's NDCG metric.

Expected values come from CatBoost itself (skipped when it is not installed):
``catboost.utils.eval_metric`` on given scores, and a fitted ``CatBoostRanker``'s
``eval_metrics``. CatBoost wants the rows of each query together, so every data
set here is sorted by query.
"""

import numpy as np
import pytest

catboost = pytest.importorskip("catboost")

from catboost.utils import eval_metric  # noqa: E402

from sklearn_ndcg import CONVENTIONS, make_ranking, ndcg_score  # noqa: E402

# preset, CatBoost's metric (without top)
PRESETS = [
    ("catboost", "NDCG"),
    ("catboost_exp", "NDCG:type=Exp"),
    ("catboost_position", "NDCG:denominator=Position"),
    ("catboost_exp_position", "NDCG:type=Exp;denominator=Position"),
]
TOPS = [-1, 1, 3, 10]  # -1 is CatBoost's default, the whole query; 10 > most queries


def _with_top(metric, top):
    """CatBoost's metric string with ``top=top``; its default -1 is left out."""
    if top == -1:
        return metric
    return f"{metric}{';' if ':' in metric else ':'}top={top}"


def _k(top):
    """The k of ndcg_score for CatBoost's top."""
    return None if top == -1 else top


def _ragged(seed, *, n_queries=30):
    """Queries of 1 to 12 documents, sorted by query, with integer scores (many ties).

    Queries 0 and 3 have no relevant document; queries 1 and 4 have one document.
    """
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 13, n_queries)
    sizes[[1, 4]] = 1
    qid = np.repeat(np.arange(n_queries), sizes)
    y = rng.integers(0, 5, qid.shape[0]).astype(np.float64)
    y[np.isin(qid, [0, 3])] = 0.0
    score = rng.integers(0, 3, qid.shape[0]).astype(np.float64)
    return y, score, qid


@pytest.mark.parametrize("top", TOPS)
@pytest.mark.parametrize("name, metric", PRESETS)
def test_catboost_preset(name, metric, top):
    y, score, qid = _ragged(0)
    expected = eval_metric(y, score, _with_top(metric, top), group_id=qid)[0]
    preset = CONVENTIONS[name]
    got = ndcg_score(y, score, qid=qid, k=_k(top), **preset)
    assert got == pytest.approx(expected, rel=1e-12)
    # The data decides: another tie rule or another value for the queries
    # without relevant document would not match.
    for other in [{"ties": "average"}, {"ties": "optimistic"}, {"zero_division": 0.0}]:
        changed = ndcg_score(y, score, qid=qid, k=_k(top), **{**preset, **other})
        assert changed != pytest.approx(expected, rel=1e-9), other


@pytest.fixture(scope="module")
def fitted_ranker(tmp_path_factory):
    """A small CatBoostRanker fitted on make_ranking data, the rows sorted by query."""
    X, y, qid = make_ranking(n_queries=30, random_state=0)
    order = np.argsort(qid, kind="stable")
    X, y, qid = X[order], y[order], qid[order]
    ranker = catboost.CatBoostRanker(
        iterations=30,
        random_seed=0,
        verbose=False,
        allow_writing_files=False,
        # eval_metrics writes there all the same; keep it out of the working directory
        train_dir=str(tmp_path_factory.mktemp("catboost_info")),
    )
    ranker.fit(X, y, group_id=qid)
    return ranker, X, y, qid


@pytest.mark.parametrize("top", TOPS)
@pytest.mark.parametrize("name, metric", PRESETS)
def test_catboost_preset_on_a_fitted_ranker(fitted_ranker, name, metric, top):
    ranker, X, y, qid = fitted_ranker
    pool = catboost.Pool(X, y, group_id=qid)
    # eval_metrics names its one result after the full description, such as
    # "NDCG:top=3;type=Base"; its last value is that of the whole model.
    (values,) = ranker.eval_metrics(pool, [_with_top(metric, top)]).values()
    expected = values[-1]
    got = ndcg_score(y, ranker.predict(X), qid=qid, k=_k(top), **CONVENTIONS[name])
    assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("top", TOPS)
@pytest.mark.parametrize("name, metric", PRESETS)
def test_catboost_preset_group_weights(name, metric, top):
    # One weight per query, repeated for each of its documents, as CatBoost's
    # group_weight takes it; queries 0 and 3 (no relevant document) count 1
    # with their weight.
    y, score, qid = _ragged(1)
    weight = np.random.default_rng(1).uniform(0.5, 2.0, qid[-1] + 1)[qid]
    metric = _with_top(metric, top)
    expected = eval_metric(y, score, metric, group_id=qid, group_weight=weight)[0]
    preset = CONVENTIONS[name]
    got = ndcg_score(y, score, qid=qid, k=_k(top), sample_weight=weight, **preset)
    # CatBoost stores weights as float32: these weights are not float32-exact,
    # which moves its weighted mean by about 1e-9 relative...
    assert got == pytest.approx(expected, rel=1e-6)
    # ...and with the weights rounded to float32 as CatBoost rounds them, the
    # two agree to float64 rounding.
    weight32 = weight.astype(np.float32)
    got32 = ndcg_score(y, score, qid=qid, k=_k(top), sample_weight=weight32, **preset)
    assert got32 == pytest.approx(expected, rel=1e-12)
    # The weights matter on this data.
    unweighted = ndcg_score(y, score, qid=qid, k=_k(top), **preset)
    assert unweighted != pytest.approx(expected, rel=1e-6)
