"""One rule for 1-D input without qid, and scikit-learn's refusals of 2-D input.

1-D input without ``qid`` raises a ValueError in every function that takes
labels and scores (issue 22, point 7): a forgotten qid must never become the
score of all rows as one query. scikit-learn refuses all 1-D input with a
ValueError; both refuse 2-D input of one document per query. The exception
types are checked against the installed scikit-learn.
"""

import numpy as np
import pytest
from sklearn import metrics as skm

from sklearn_ndcg import (
    NDCGCurveDisplay,
    dcg_score,
    make_ndcg_scorer,
    ndcg_score,
    query_scores,
    tie_diagnostics,
)

Y = [3, 0, 2, 1, 1, 0]
S = [0.9, 0.5, 0.5, 0.1, 0.2, 0.7]
QID = ["a", "a", "a", "a", "b", "b"]


def _display(y_true, y_score, **kwargs):
    pytest.importorskip("matplotlib")
    return NDCGCurveDisplay.from_predictions(y_true, y_score, **kwargs)


FUNCTIONS = {
    "ndcg_score": ndcg_score,
    "dcg_score": dcg_score,
    "query_scores": query_scores,
    "tie_diagnostics": tie_diagnostics,
    "NDCGCurveDisplay.from_predictions": _display,
}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_1d_without_qid_is_refused(name):
    with pytest.raises(
        ValueError, match=r"y_true is 1-D \(6 documents\) but qid is None.*pass qid="
    ):
        FUNCTIONS[name](Y, S)


@pytest.mark.parametrize("name", FUNCTIONS)
def test_1d_with_qid_and_one_2d_row_are_accepted(name):
    FUNCTIONS[name](Y, S, qid=QID)
    FUNCTIONS[name]([Y], [S])


@pytest.mark.parametrize("ours, theirs", [(ndcg_score, skm.ndcg_score), (dcg_score, skm.dcg_score)])
def test_1d_without_qid_raises_what_scikit_learn_raises(ours, theirs):
    with pytest.raises(ValueError) as expected:
        theirs(Y, S)
    with pytest.raises(type(expected.value)):
        ours(Y, S)


def test_the_message_says_how_to_score_one_query():
    with pytest.raises(ValueError, match=r"np\.asarray\(y_true\)\.reshape\(1, -1\)"):
        ndcg_score(Y, S, k=3)
    # the suggested reshape gives scikit-learn's value for one query
    one = np.asarray(Y).reshape(1, -1), np.asarray(S).reshape(1, -1)
    assert ndcg_score(*one, k=3) == pytest.approx(skm.ndcg_score(*one, k=3), rel=1e-12)


def test_forgotten_qid_is_not_the_mean_over_queries():
    """Why the rule: the one-query value of long-format data is another number."""
    one_query = ndcg_score([Y], [S])
    per_query = ndcg_score(Y, S, qid=QID)
    assert one_query != pytest.approx(per_query, rel=1e-3)


def test_scorer_refuses_1d_without_qid_as_before():
    from sklearn.linear_model import Ridge

    X = np.arange(12.0).reshape(6, 2)
    model = Ridge().fit(X, Y)
    with pytest.raises(ValueError, match="got 1-D y .* but no qid"):
        make_ndcg_scorer()(model, X, np.asarray(Y))


@pytest.mark.parametrize("ours, theirs", [(ndcg_score, skm.ndcg_score), (dcg_score, skm.dcg_score)])
@pytest.mark.parametrize("shape", [(1, 1), (4, 1)])
def test_2d_input_of_one_document_per_query_is_refused_as_by_scikit_learn(ours, theirs, shape):
    y_true, y_score = np.ones(shape), np.ones(shape)
    with pytest.raises(ValueError) as expected:
        theirs(y_true, y_score)
    # scikit-learn's sentence (which its own test matches) for ndcg_score
    with pytest.raises(type(expected.value), match="more than 1 document. Got 1 instead"):
        ours(y_true, y_score)


def test_queries_of_one_document_are_fine_in_long_format():
    # hand computation: each query of one document is perfectly ranked if relevant
    assert ndcg_score([1, 0, 2], [0.3, 0.2, 0.1], qid=[1, 2, 3]) == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "y_score, found",
    [([np.nan, 1.0], "NaN"), ([np.inf, 1.0], "infinity"), ([np.nan, np.inf], "NaN and infinity")],
)
def test_non_finite_scores_are_named_in_scikit_learns_words(y_score, found):
    # scikit-learn's test_common matches r"contains (NaN|infinity)"
    with pytest.raises(ValueError, match=rf"y_score contains {found}"):
        ndcg_score([[0, 1]], [y_score])


@pytest.mark.parametrize(
    "y_true", [[["a", "b"]], np.array([[1 + 1j, 0]]), np.array([["x", object()]], dtype=object)]
)
def test_non_numeric_labels_raise_type_and_value_error(y_true):
    # scikit-learn raises ValueError for such input; this package raised TypeError
    with pytest.raises(TypeError) as info:
        ndcg_score(y_true, [[1, 2]])
    assert isinstance(info.value, ValueError)


def test_sample_weight_length_in_scikit_learns_words():
    with pytest.raises(ValueError) as expected:
        skm.ndcg_score([[1, 0], [0, 1]], [[1, 2], [2, 1]], sample_weight=[1, 2, 3])
    message = str(expected.value)  # "Found input variables with inconsistent numbers of ..."
    with pytest.raises(ValueError, match=r"sample_weight has shape \(3,\)") as info:
        ndcg_score([[1, 0], [0, 1]], [[1, 2], [2, 1]], sample_weight=[1, 2, 3])
    assert message in str(info.value)
