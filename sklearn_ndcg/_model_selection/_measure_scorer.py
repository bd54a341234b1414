"""make_ranking_scorer: the measures beside NDCG (MAP, MRR, P@k, recall@k, success@k)
as scikit-learn scorers, named as trec_eval names them."""

from __future__ import annotations

from numbers import Real

from sklearn import config_context

from .._engine import weighted_mean
from .._metrics import query_scores
from .._options import DEFAULT_TIES, QID_COLUMN, TIES, ZERO_DIVISION, metric_names
from .._validate_params import StrOptions, validate_params
from ._response import RESPONSE_METHODS
from ._scorer import _check_scorer_input, _RankingScorer


def _measure_score(
    y_true, y_score, *, metric: str, qid=None, sample_weight=None, document_weight=None, pool=None,
    **options,
) -> float:  # fmt: skip
    """The mean of :func:`query_scores` of ``metric`` over the fold's queries."""
    _check_scorer_input(y_true, y_score, qid, metric)
    values = query_scores(
        y_true,
        y_score,
        metric=metric,
        qid=qid,
        sample_weight=sample_weight,
        document_weight=document_weight,
        pool=pool,
        **options,
    )
    return weighted_mean(values.score, None if sample_weight is None else values.weight)


@validate_params(
    {
        "metric": [str],
        "ties": TIES,
        "zero_division": [Real, StrOptions({"nan"})],
        "relevance_level": [Real],
        "response_method": [StrOptions({"auto", *RESPONSE_METHODS}), tuple, list],
        "qid": QID_COLUMN,
    },
    prefer_skip_nested_validation=True,
)
def make_ranking_scorer(
    metric: str,
    *,
    ties: str = DEFAULT_TIES,
    zero_division: float = ZERO_DIVISION,
    relevance_level: float = 1,
    response_method="auto",
    qid=None,
) -> _RankingScorer:
    """Make a scorer of a measure beside NDCG (MAP, MRR, P@k, recall@k) for searches.

    The mean over the fold's queries of :func:`query_scores` with ``metric``, from the
    same grouping and tie rule as the NDCG scorers; it asks for ``qid``,
    ``sample_weight`` and ``pool`` through metadata routing as :func:`make_ndcg_scorer`
    does. For NDCG itself use :func:`make_ndcg_scorer`.

    Read more in the :ref:`User Guide <trec_measures>`.

    Parameters
    ----------
    metric : str
        The measure, named as trec_eval writes it in its ``-q`` lines: "map",
        "map_cut_10", "recip_rank", "recip_rank_10" (MRR@10), "P_10", "recall_100",
        "success_1" (also "ndcg" and "ndcg_cut_10").
    ties : {"average", "first", "optimistic", "pessimistic", "docno"}, default="average"
        How documents with equal scores are ordered; "average" gives each measure its
        exact expected value over the orders of the tied documents.
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        The value of ``map`` and ``recall`` for a query without relevant documents.
    relevance_level : float, default=1
        A document is relevant when its label is at least this.
    response_method : {"auto", "predict", "decision_function", "predict_proba"} or \
list, default="auto"
        Which method of the estimator gives the scores, as in :func:`make_ndcg_scorer`.
    qid : str or int, default=None
        The column of X holding the query ids, as in :func:`make_ndcg_scorer`.

    Returns
    -------
    scorer : callable
        A scikit-learn scorer, ``scorer(estimator, X, y, qid=qid)``.

    See Also
    --------
    make_ndcg_scorer : NDCG@k for searches.
    query_scores : The per-query values of the measure.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_ndcg import make_ranking_scorer
    >>> X = np.array([[0.0], [1.0], [2.0], [3.0]])
    >>> y = np.array([0, 0, 1, 0])
    >>> model = LinearRegression().fit(X, X[:, 0])
    >>> scorer = make_ranking_scorer("recip_rank")
    >>> scorer(model, X, y, qid=[0, 0, 0, 0])  # d2 ranks second
    0.5
    """
    metric_names(metric)  # refuse unknown names now, not in the search
    options = {"metric": metric, "ties": ties, "zero_division": zero_division}
    options["relevance_level"] = relevance_level
    scorer = _RankingScorer(_measure_score, options, response_method, qid)
    with config_context(enable_metadata_routing=True):
        scorer.set_score_request(qid=True, sample_weight=True, document_weight=True, pool=True)
    return scorer
