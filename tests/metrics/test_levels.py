"""The relevance levels checked at every door (metrics/_levels.py): negative levels
(trec_eval's "in the pool, not judged") give one refusal under NDCG's named gains and
trec_eval's values under positive_part_gain, through query_scores (arrays, dicts) and
evaluate_run (tables, dicts); a relevance level no judgment reaches warns."""

import re

import numpy as np
import pytest
from sklearn.exceptions import UndefinedMetricWarning

from sklearn_ndcg import (
    JudgmentPool,
    RelevanceEvaluator,
    evaluate_run,
    positive_part_gain,
    query_scores,
)

# q1: b (-1) ranked first, a (2) second, d (1) not ranked; q2: x (-2) first, a (1)
QRELS = {"q1": {"a": 2, "b": -1, "c": 0, "d": 1}, "q2": {"a": 1, "x": -2}}
RUN = {"q1": {"a": 0.5, "b": 0.9, "c": 0.1, "e": 0.3}, "q2": {"x": 1.0, "a": 0.5}}
NAMES = ["ndcg_cut_10", "map"]


def _tables(nested):
    rows = [(q, d, float(v)) for q, docs in nested.items() for d, v in docs.items()]
    return tuple(np.array(column) for column in zip(*rows))


def _arrays():
    """The run as query_scores' long-format arrays, the qrels as its pool."""
    qid, docno, score = _tables(RUN)
    label = np.array([QRELS[q].get(d, np.nan) for q, d in zip(qid, docno)], dtype=float)
    pool_q, _, level = _tables(QRELS)
    return label, score, qid, JudgmentPool(pool_q, level)


def _doors(**options):
    """Every door's values of the same input, by door and name (or its error)."""
    label, score, qid, pool = _arrays()
    calls = {
        "query_scores arrays": lambda: query_scores(
            label, score, qid=qid, pool=pool, metric=NAMES, **options
        ),
        "query_scores dicts": lambda: query_scores(QRELS, RUN, metric=NAMES, **options),
        "evaluate_run tables": lambda: evaluate_run(
            _tables(RUN), _tables(QRELS), metric=NAMES, **options
        ),
        "evaluate_run dicts": lambda: evaluate_run(RUN, QRELS, metric=NAMES, **options),
    }
    found = {}
    for door, call in calls.items():
        try:
            result = call()
        except ValueError as error:
            found[door] = error
            continue
        found[door] = {
            name: getattr(values, "per_query", values) for name, values in result.items()
        }
    return found


def test_negative_levels_one_refusal_at_every_door():
    found = _doors()
    messages = {door: str(error) for door, error in found.items()}
    assert all(isinstance(error, ValueError) for error in found.values()), messages
    # one message: the argument's name (y_true, the pool's y_true, qrels), then the same
    # words, the first negative level's query as the user wrote it, and the fix
    tails = {re.sub(r"^.*? has negative", "has negative", m) for m in messages.values()}
    assert len(tails) == 1, tails
    (tail,) = tails
    assert "of query 'q1'" in tail and "gain=positive_part_gain" in tail
    assert messages["evaluate_run tables"] == messages["evaluate_run dicts"]
    assert messages["query_scores dicts"] == messages["query_scores arrays"].replace(
        "the pool's y_true", "y_true"
    )
    assert messages["query_scores dicts"].startswith("y_true has negative relevance labels")
    assert messages["evaluate_run dicts"].startswith("qrels has negative relevance labels")


def test_negative_levels_trec_eval_values_at_every_door():
    # positive_part_gain, trec_eval's order of ties: RelevanceEvaluator's values (NDCG
    # counts a negative level 0; map reads it as not relevant)
    reference = RelevanceEvaluator(QRELS, {"ndcg_cut.10", "map"}).evaluate(RUN)
    found = _doors(gain=positive_part_gain, ties="docno")
    for door, values in found.items():
        assert isinstance(values, dict), f"{door}: {values}"
        for name in NAMES:
            assert values[name].qid.tolist() == ["q1", "q2"]
            expected = [reference[q][name] for q in ("q1", "q2")]
            np.testing.assert_allclose(values[name].score, expected, rtol=0, atol=1e-15)
            assert values[name].ties == "docno"


def test_negative_levels_binary_measures_alone_take_any_gain():
    # map reads no gain: negative levels are not relevant, with the default gain too
    label, score, qid, pool = _arrays()
    alone = query_scores(label, score, qid=qid, pool=pool, metric="map", ties="docno")
    reference = RelevanceEvaluator(QRELS, {"map"}).evaluate(RUN)
    np.testing.assert_allclose(alone.score, [reference["q1"]["map"], reference["q2"]["map"]])
    # without a pool too: the labels as they are, a negative one not relevant
    alone = query_scores([2, -1, 0], [0.5, 0.9, 0.1], qid=[0, 0, 0], metric="recip_rank")
    assert alone.score.tolist() == [0.5]


def test_minmax_takes_negative_levels():
    label, score, qid, pool = _arrays()
    result = query_scores(label, score, qid=qid, pool=pool, metric=NAMES, normalize="minmax")
    assert set(result) == set(NAMES)


@pytest.mark.parametrize("door", ["query_scores", "evaluate_run", "query_scores dicts"])
def test_a_relevance_level_no_judgment_reaches_warns(door):
    # float qrels all 0.5 with the default level 1: recall 0 beside a non-zero NDCG
    qrels = {"q": {"a": 0.5, "b": 0.5}}
    run = {"q": {"a": 2.0, "b": 1.0, "c": 0.5}}
    message = r"relevance_level=1 is above every relevance level .*the largest is 0\.5"
    with pytest.warns(UndefinedMetricWarning, match=message):
        if door == "query_scores":
            result = query_scores(
                [0.5, 0.5, 0.0], [2, 1, 0.5], qid=[0] * 3, metric=["ndcg", "recall"]
            )
        elif door == "evaluate_run":
            result = evaluate_run(run, qrels, metric=["ndcg", "recall_10"])
        else:
            result = query_scores(qrels, run, metric=["ndcg", "recall_10"])
    values = [getattr(v, "per_query", v).score[0] for v in result.values()]
    assert values[0] > 0 and values[1] == 0
    # a level that some judgment reaches: no warning (warnings are errors here)
    evaluate_run(run, qrels, metric=["ndcg", "recall_10"], relevance_level=0.5)
    evaluate_run(run, qrels, metric="ndcg")  # NDCG alone reads no level
