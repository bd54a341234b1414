"""How a fitted estimator scores documents for ranking: the one definition.

The scorers, :class:`RankingEvaluator` and :class:`NDCGCurveDisplay` all rank
documents by :func:`ranking_scores`, so that the same fitted model gets the
same NDCG from each of them.
"""

from __future__ import annotations

import numpy as np
from sklearn.base import is_classifier

RESPONSE_METHODS = ("decision_function", "predict_proba", "predict")
"""The methods an estimator can be ranked by."""


def check_response_method(response_method) -> tuple[str, ...] | None:
    """``response_method`` as a tuple of methods to try in order; None for "auto"."""
    if isinstance(response_method, str) and response_method == "auto":
        return None
    methods = (response_method,) if isinstance(response_method, str) else response_method
    if not methods or any(method not in RESPONSE_METHODS for method in methods):
        raise ValueError(
            "response_method must be one of 'auto', "
            f"{', '.join(map(repr, RESPONSE_METHODS))} or a non-empty tuple of these "
            f"methods, tried in order; got {response_method!r}."
        )
    return tuple(methods)


def _auto_methods(estimator, multioutput: bool) -> tuple[str, ...]:
    """The methods "auto" tries, in order.

    - Regressors and rankers: ``predict``.
    - Binary classifiers: the decision function (probabilities can saturate at
      1.0 and tie documents that the decision function tells apart), else the
      probability of the greater class.
    - Classifiers of graded labels (more than two classes): the expected
      label, ``predict_proba(X) @ classes_``.
    - Multilabel classifiers (2-D targets): one score per label, from the
      decision function or else the probabilities.
    """
    if not is_classifier(estimator):
        return ("predict",)
    classes = getattr(estimator, "classes_", None)
    binary = not multioutput and classes is not None and np.ndim(classes) == 1 and len(classes) == 2
    if multioutput or binary:
        return RESPONSE_METHODS
    return ("predict_proba", "decision_function", "predict")


def ranking_scores(estimator, X, y_ndim: int = 1, response_method="auto") -> np.ndarray:
    """The scores by which a fitted ``estimator`` ranks the rows of ``X``.

    Parameters
    ----------
    estimator : fitted estimator
        A regressor, classifier, ranker or pipeline.
    X : array-like or sparse matrix
        The documents.
    y_ndim : {1, 2}, default=1
        Dimensions of the targets: 1 for one label per document, 2 for one
        query per row (e.g. multilabel indicators), which needs one score per
        column.
    response_method : "auto", str or tuple of str, default="auto"
        The method to call, or methods tried in order (the first the estimator
        has). See :func:`_auto_methods` for "auto".

    Returns
    -------
    scores : ndarray of shape (n_samples,) or (n_samples, n_labels)
    """
    methods = check_response_method(response_method)
    multioutput = y_ndim == 2
    if methods is None:
        methods = _auto_methods(estimator, multioutput)
    name = type(estimator).__name__
    method = next((m for m in methods if hasattr(estimator, m)), None)
    if method is None:
        raise ValueError(
            f"response_method={response_method!r}, but {name} has no {' or '.join(methods)} method."
        )
    scores = getattr(estimator, method)(X)
    if method == "predict_proba":
        return _from_proba(estimator, scores, multioutput)
    scores = np.asarray(scores)
    if multioutput or scores.ndim == 1:
        return scores
    if scores.ndim == 2 and scores.shape[1] == 1:  # e.g. a regressor fitted on 2-D y
        return scores[:, 0]
    if method == "decision_function":
        raise ValueError(
            f"{name}.decision_function gives {scores.shape[1]} columns, one per class, "
            "but ranking needs one score per document. Use a classifier with "
            "predict_proba (ranked by its expected label), a regressor or a ranker."
        )
    raise ValueError(
        f"{name}.{method} returned an array of shape {scores.shape}; ranking needs one "
        "score per document (shape (n_samples,))."
    )


def _from_proba(estimator, proba, multioutput: bool) -> np.ndarray:
    """One score per document from class probabilities: the expected label.

    For multilabel output (a list with one array per label, or one column per
    label), the probability of each label.
    """
    if isinstance(proba, list):  # multilabel: (n_samples, 2) per label
        return np.column_stack([p[:, -1] for p in proba])
    proba = np.asarray(proba, dtype=np.float64)
    if multioutput:
        return proba
    classes = np.asarray(estimator.classes_)
    if classes.dtype.kind not in "biuf":
        raise TypeError(
            f"{type(estimator).__name__} has classes {classes[:5].tolist()}: to rank by "
            "the expected label, the classes must be numeric relevance labels."
        )
    return proba @ classes.astype(np.float64)
