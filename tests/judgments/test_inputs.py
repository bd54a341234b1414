"""Per-query values aligned by query id: subsets, order, pairs."""

import numpy as np

from sklearn_ndcg import QueryScores
from sklearn_ndcg._judgments._inputs import paired_split, query_values, split


def _scores(qid, score, weight=None):
    weight = np.ones(len(qid)) if weight is None else np.asarray(weight, dtype=float)
    return QueryScores(np.asarray(qid), np.asarray(score, dtype=float), weight)


def test_split_aligns_by_query_id():
    model = {"c": 0.3, "a": 0.1, "b": 0.2, "d": 0.4}
    human = {"d": 0.45, "a": 0.15}
    y, f, g = split(model, human, ("model", "human"))
    np.testing.assert_array_equal(y, [0.45, 0.15])  # the human order
    np.testing.assert_array_equal(f, [0.4, 0.1])  # the model values of d and a
    np.testing.assert_array_equal(g, [0.3, 0.2])  # the others, in the model order


def test_query_scores_and_mappings_agree():
    model = _scores([3, 1, 2, 4], [0.3, 0.1, 0.2, 0.4])
    human = _scores([4, 1], [0.45, 0.15])
    from_scores = split(model, human, ("model", "human"))
    from_dicts = split({3: 0.3, 1: 0.1, 2: 0.2, 4: 0.4}, {4: 0.45, 1: 0.15}, ("m", "h"))
    for a, b in zip(from_scores, from_dicts):
        np.testing.assert_array_equal(a, b)


def test_pairs_of_arrays_and_mappings_agree():
    """A pair (qid, values) of arrays aligns by id as a mapping does."""
    model = (np.array([3, 1, 2, 4]), [0.3, 0.1, 0.2, 0.4])
    human = ([4, 1], np.array([0.45, 0.15]))
    from_pairs = split(model, human, ("model", "human"))
    from_dicts = split({3: 0.3, 1: 0.1, 2: 0.2, 4: 0.4}, {4: 0.45, 1: 0.15}, ("m", "h"))
    for a, b in zip(from_pairs, from_dicts):
        np.testing.assert_array_equal(a, b)
    assert query_values(model, "model")[0] == [3, 1, 2, 4]


def test_paired_split_takes_differences_by_query():
    model_a = {"q1": 0.9, "q2": 0.8, "q3": 0.7}
    model_b = {"q3": 0.5, "q1": 0.6, "q2": 0.8}  # another order
    human_a = {"q2": 0.6}
    human_a["q1"] = 0.7
    human_b = {"q1": 0.65, "q2": 0.7}
    y, f, g = paired_split(model_a, model_b, human_a, human_b, ("ma", "mb", "ha", "hb"))
    np.testing.assert_allclose(y, [0.6 - 0.7, 0.7 - 0.65])
    np.testing.assert_allclose(f, [0.0, 0.9 - 0.6])
    np.testing.assert_allclose(g, [0.7 - 0.5])


def test_inputs_are_not_changed():
    model = _scores([1, 2, 3, 4], [0.1, 0.2, 0.3, 0.4])
    score = model.score.copy()
    human = {1: 0.15, 2: 0.25}
    y, f, g = split(model, human, ("model", "human"))
    y[:] = 0
    f[:] = 0
    g[:] = 0
    np.testing.assert_array_equal(model.score, score)
    assert human == {1: 0.15, 2: 0.25}


def test_uniform_weights_other_than_one_are_taken():
    ids, values = query_values(_scores([1, 2], [0.5, 0.25], [3.0, 3.0]), "model")
    assert ids == [1, 2]
    np.testing.assert_array_equal(values, [0.5, 0.25])


def test_pairs_are_not_changed():
    values = np.array([0.1, 0.2, 0.3, 0.4])
    human = (np.array([1, 2]), np.array([0.15, 0.25]))
    for output in split((np.array([1, 2, 3, 4]), values), human, ("model", "human")):
        output[:] = 0
    np.testing.assert_array_equal(values, [0.1, 0.2, 0.3, 0.4])
    np.testing.assert_array_equal(human[1], [0.15, 0.25])


def test_ids_of_other_types_are_named():
    """Issue 50: str model ids and int human ids listed the unmatched ids only."""
    import pytest

    model = {str(i): 0.5 for i in range(6)}
    with pytest.raises(ValueError, match=r"model are str and those of human int.*str\(q\)"):
        split(model, {0: 0.4, 1: 0.3}, ("model", "human"))
    a, b = {"1": 0.1, "2": 0.2}, {1: 0.1, 2: 0.3}
    with pytest.raises(ValueError, match=r"a are str and those of b int"):
        paired_split(a, b, {"1": 0.1}, {"1": 0.1}, ("a", "b", "ha", "hb"))
    # ids of one type: no such sentence
    with pytest.raises(ValueError) as error:
        split(model, {"x": 0.4, "y": 0.3}, ("model", "human"))
    assert "never equal" not in str(error.value)
