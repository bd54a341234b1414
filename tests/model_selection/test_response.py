"""ranking_scores: which method of a fitted estimator ranks the documents.

The estimators here are stubs whose methods return fixed, hand-written values,
so the expected scores are those values (or, for class probabilities, the
expected label worked out by hand).
"""

import numpy as np
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, RegressorMixin

from sklearn_ndcg._model_selection._response import check_response_method, ranking_scores

X = np.zeros((2, 1))


class _Regressor(RegressorMixin, BaseEstimator):
    def predict(self, X):
        return np.array([0.3, 0.1])


class _Binary(ClassifierMixin, BaseEstimator):
    classes_ = np.array([0, 1])

    def predict(self, X):
        return np.array([1, 0])

    def decision_function(self, X):
        return np.array([2.5, -1.0])

    def predict_proba(self, X):
        return np.array([[0.2, 0.8], [0.6, 0.4]])


class _BinaryWithoutDecision(ClassifierMixin, BaseEstimator):
    classes_ = np.array([0, 1])

    def predict(self, X):
        return np.array([1, 0])

    def predict_proba(self, X):
        return np.array([[0.2, 0.8], [0.6, 0.4]])


class _Graded(_Binary):
    classes_ = np.array([0, 1, 2])

    def decision_function(self, X):
        return np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])

    def predict_proba(self, X):
        return np.array([[0.2, 0.3, 0.5], [0.5, 0.5, 0.0]])


class _Labelled(_BinaryWithoutDecision):
    classes_ = np.array(["bad", "good"])


def test_regressor_is_ranked_by_predict():
    assert ranking_scores(_Regressor(), X).tolist() == [0.3, 0.1]


def test_binary_classifier_is_ranked_by_its_decision_function():
    assert ranking_scores(_Binary(), X).tolist() == [2.5, -1.0]


def test_binary_classifier_without_decision_function_by_the_positive_probability():
    # predict_proba[:, 1]: the expected label with classes 0 and 1
    assert ranking_scores(_BinaryWithoutDecision(), X).tolist() == [0.8, 0.4]
    assert ranking_scores(_Binary(), X, response_method="predict_proba").tolist() == [0.8, 0.4]


def test_graded_classifier_is_ranked_by_its_expected_label():
    # 0 x 0.2 + 1 x 0.3 + 2 x 0.5 = 1.3 and 0 x 0.5 + 1 x 0.5 + 2 x 0 = 0.5
    np.testing.assert_allclose(ranking_scores(_Graded(), X), [1.3, 0.5], rtol=1e-15)


def test_response_method_names_the_method_or_the_methods_tried_in_order():
    assert ranking_scores(_Binary(), X, response_method="predict").tolist() == [1, 0]
    tried = ("decision_function", "predict")
    assert ranking_scores(_BinaryWithoutDecision(), X, response_method=tried).tolist() == [1, 0]
    assert check_response_method("auto") is None
    assert check_response_method("predict") == ("predict",)
    with pytest.raises(ValueError, match="response_method must be one of 'auto'"):
        check_response_method("transform")
    with pytest.raises(ValueError, match="a non-empty tuple"):
        check_response_method(())
    with pytest.raises(ValueError, match="_Regressor has no decision_function method"):
        ranking_scores(_Regressor(), X, response_method="decision_function")


def test_one_score_per_document_or_an_error():
    with pytest.raises(ValueError, match="decision_function gives 3 columns, one per class"):
        ranking_scores(_Graded(), X, response_method="decision_function")
    with pytest.raises(TypeError, match=r"has classes \['bad', 'good'\]"):
        ranking_scores(_Labelled(), X)


def test_multilabel_gets_one_score_per_label():
    class _Multilabel(_Binary):
        def predict_proba(self, X):  # one (n_samples, 2) array per label, as scikit-learn's
            return [np.array([[0.9, 0.1], [0.3, 0.7]]), np.array([[0.5, 0.5], [0.0, 1.0]])]

    scores = ranking_scores(_Multilabel(), X, y_ndim=2, response_method="predict_proba")
    np.testing.assert_array_equal(scores, [[0.1, 0.5], [0.7, 1.0]])
