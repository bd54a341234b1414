"""Keyword presets that reproduce the NDCG of other libraries.

:data:`CONVENTIONS` maps a library name to the :func:`ndcg_score` keywords that
reproduce its NDCG; spread one into the call and choose ``k`` yourself.
"""

from __future__ import annotations

from types import MappingProxyType

import numpy as np


def positive_part_gain(y_true: np.ndarray) -> np.ndarray:
    """Gain of trec_eval and ranx: the label itself, with negative labels counting 0.

    trec_eval and ranx accept negative relevance labels (often used for spam or
    harmful documents) but do not penalise them: such a document gains nothing,
    like an irrelevant one. Used as ``gain`` by the ``"trec_eval"`` and
    ``"ranx"`` presets of :data:`CONVENTIONS`.

    Parameters
    ----------
    y_true : ndarray
        Float64 relevance labels.

    Returns
    -------
    gain : ndarray
        ``max(label, 0)`` for each label, same shape as ``y_true``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ndcg import positive_part_gain
    >>> positive_part_gain(np.array([2.0, 0.0, -1.0]))
    array([2., 0., 0.])
    """
    return np.maximum(y_true, 0.0)


def _relevant_gain(y_true: np.ndarray) -> np.ndarray:
    """Binary gain of Spark's ranking metrics: 1 for a relevant document (label > 0), else 0.

    Spark's ``RankingEvaluator`` and ``RankingMetrics`` take the set of
    relevant document ids of each query: a graded label counts as 1. Used as
    ``gain`` by the ``"spark"`` preset of :data:`CONVENTIONS`.

    Parameters
    ----------
    y_true : ndarray
        Float64 relevance labels.

    Returns
    -------
    gain : ndarray
        1.0 where the label is positive, 0.0 elsewhere.
    """
    return (y_true > 0).astype(np.float64)


class _CutoffWhenNone(str):
    """A discount name that also carries a library's cutoff for ``k=None``.

    XGBoost's ``ndcg`` metric without ``@k`` cuts at 32 documents (``DefaultK() = 32`` in
    its src/common/ranking_utils.h, used by the ranking metrics of
    src/metric/rank_metric.cc), not NDCG of whole queries. Its preset keeps the
    ``"log2"`` discount, equal to the string ``"log2"`` everywhere, and
    :func:`~sklearn_ndcg._options.ranking_options` reads :attr:`default_k` when
    ``k`` is None, so that the preset equals XGBoost at ``k=None`` as at every
    ``k``. It pickles with its cutoff (scorers travel to joblib workers).
    """

    default_k: int

    def __new__(cls, name: str, default_k: int):
        value = super().__new__(cls, name)
        value.default_k = default_k
        return value

    def __getnewargs__(self):
        return (str(self), self.default_k)


class _Conventions(dict):
    """Keyword presets that reproduce the NDCG of other libraries.

    A dict from library name to a dict of :func:`ndcg_score` keywords (also
    accepted by :func:`make_ndcg_scorer`, :class:`RankingEvaluator` and
    :class:`NDCGCurveDisplay`). Spread one into the call and choose the cutoff
    ``k`` yourself, as each library does::

        ndcg_score(y, s, qid=q, k=10, **CONVENTIONS["lightgbm"])

    Each preset was checked against the library itself, or against its published
    formula where the library cannot run here (see the test suite):

    =======================  ===================  ===========  ================  ==============
    preset                   gain                 tied scores  no relevant doc   ideal DCG from
    =======================  ===================  ===========  ================  ==============
    "sklearn"                label                average      0                 the ranking
    "lightgbm"               ``2**label - 1``     input order  1                 the ranking
    "xgboost"                ``2**label - 1``     input order  1                 the ranking
    "catboost"               label                worst first  1                 the ranking
    "catboost_exp"           ``2**label - 1``     worst first  1                 the ranking
    "catboost_position"      label                worst first  1                 the ranking
    "catboost_exp_position"  ``2**label - 1``     worst first  1                 the ranking
    "trec_eval"              label, negatives 0   document id  0                 the pool
    "ranx"                   label, negatives 0   see Notes    0                 the pool
    "elasticsearch"          ``2**label - 1``     input order  0                 the pool
    "recommender"            label (0 or 1)       input order  0                 the pool
    "spark"                  1 if label > 0       input order  0                 the pool
    =======================  ===================  ===========  ================  ==============

    All apply ``k`` to both the DCG and the ideal DCG, and all use the
    ``1 / log2(rank + 1)`` discount but ``"catboost_position"`` and
    ``"catboost_exp_position"``, whose discount is ``1 / rank``. The presets are
    read-only; to change one, copy it, e.g.
    ``{**CONVENTIONS["xgboost"], "zero_division": 0.0}`` for XGBoost's
    ``ndcg@k-`` metric.

    The last five libraries compute the ideal DCG of a query from its
    *judgment pool*: every judged document, also those the system did not
    retrieve. Give them the pool, ``pool=JudgmentPool(qrels_qid,
    qrels_relevance)``, with long-format input of the ranked documents only, and
    NaN as the label of a ranked document nobody judged. Without the pool the
    ideal DCG comes from the ranked documents, and a system that misses relevant
    documents is not penalised. ``unjudged`` and ``missing_queries`` mirror the
    rest (see Notes); they are not in the presets, since a preset also goes into
    :func:`make_ndcg_scorer`, whose folds hold only some of the pool's queries.
    ``"spark"`` alone sets a pool policy, ``unjudged_queries="zero"`` (a ranked query
    the pool lacks scores 0, as a query with an empty set of relevant ids in Spark),
    which holds fold by fold and changes nothing without a pool.

    Read more in the :ref:`User Guide <conventions>`.

    Notes
    -----
    LightGBM and XGBoost order tied scores stably, keeping the input order of
    the rows, which is ``ties="first"``. XGBoost predicts in float32, so scores
    that differ only beyond float32 precision tie there. XGBoost's ``ndcg``
    without ``@k`` cuts at 32 documents (its ``DefaultK()``): with the ``"xgboost"``
    preset, ``k=None`` means ``k=32`` (the preset's ``"log2"`` discount carries
    that cutoff), so that it equals XGBoost at ``k=None`` as at every ``k``; its
    ``ndcg@k`` for ``k`` above 32 is that ``k``. LightGBM has no metric without a
    cutoff: ``k=None`` equals its ``ndcg@k`` for any ``k`` at least the longest
    query.

    With query weights, LightGBM and XGBoost add 1 for each query without a
    relevant document *unweighted*, then divide by the sum of all weights; the
    presets agree when there are no such queries or all weights are 1, and the
    user guide shows the two lines that reproduce the rest with
    :func:`query_scores`. LightGBM weighs a query by the mean weight of its
    documents, XGBoost takes one weight per query; both store weights as float32.

    CatBoost's ``NDCG`` metric is ``"catboost"`` by default (``type=Base``,
    ``denominator=LogPosition``); ``type=Exp`` gains ``2**label - 1``
    (``"catboost_exp"``) and ``denominator=Position`` discounts rank ``r`` by
    ``1 / r`` (``"catboost_position"``; ``"catboost_exp_position"`` for both).
    CatBoost ranks tied scores worst first, by increasing label, which is
    ``ties="pessimistic"``, and scores a query without relevant document 1. Its
    ``top=k`` is ``k``; the default ``top=-1`` takes whole queries, ``k=None``.
    It weighs a query by its group weight (``group_weight``, one value per
    document, equal within a query; document weights do not enter the metric):
    pass it as ``sample_weight``. A query without relevant document counts 1
    with its weight, so the presets also agree with weights on such queries.
    CatBoost stores weights as float32, so weighted means agree to about 1e-9,
    and to float64 rounding with the weights rounded to float32 first.

    trec_eval (and pytrec_eval) breaks ties by document id, in decreasing string
    order: the preset's ``ties="docno"``. :func:`evaluate_run` knows the document
    ids and applies it; the metric functions, scorers and displays do not, so
    there it accepts tie-free scores (where it changes nothing) and raises a
    ValueError for tied documents of different labels, rather than return another
    number: pass the tie-breaking score shown in the user guide. A retrieved
    document missing from the qrels gains 0 (``unjudged="zero"``); with ``-J`` it
    is removed from the ranking (``unjudged="drop"``), and so is a document judged
    with a negative label, which trec_eval reads as "pooled but not judged"
    (:func:`evaluate_run` does so; elsewhere give it a NaN label). A query of the
    qrels without results is left out (``missing_queries="drop"``); with ``-c`` it
    scores 0 (``"zero"``).

    ranx sorts each query with numba's unstable quicksort, so the order of tied
    documents is not defined (it is the input order for queries of up to about 16
    documents). With tie-free scores the preset agrees exactly. Unjudged
    documents gain 0; ``evaluate(..., make_comparable=True)`` scores a query of
    the qrels without results 0 (``missing_queries="zero"``); without it ranx
    refuses such a run.

    Elasticsearch's (and OpenSearch's) ``_rank_eval`` ``dcg`` metric with
    ``"normalize": true`` ranks the hits in their returned order (give the hit
    order as scores), gains ``2**rating - 1`` for non-negative integer ratings
    and 0 for unrated hits (unless ``unknown_doc_rating`` gives them a rating:
    use it as their label), scores a request without hits 0
    (``missing_queries="zero"``) and averages over requests. Its ideal DCG is
    cut at the number of hits rather than at ``k``: the two agree whenever a
    request returns ``k`` hits, or at least as many as it has rated documents.
    For a request that returns fewer, Elasticsearch forgives the rated
    documents it could not find; pass that number of hits as ``k`` for that
    request to reproduce it.

    ``"recommender"`` is the top-k evaluation of Microsoft Recommenders
    (``ndcg_at_k``, binary relevance) and RecBole (``NDCG``): labels are 1 for
    the user's held-out items and 0 (or NaN) for the other recommended items, the
    pool holds the held-out items, and the ideal DCG@k counts ``min(k, number of
    held-out items)`` ones. Recommenders scores a user without recommendations 0
    (``missing_queries="zero"``); its default natural-log discount cancels in
    NDCG. LensKit's ``NDCG`` discounts rank ``r`` by ``1 / max(1, log2(r))``:
    pass ``discount=lambda r: 1 / np.maximum(np.log2(r), 1)`` with the preset.

    ``"spark"`` is Spark ML's ``RankingEvaluator(metricName="ndcgAtK", k=k)``
    and ``pyspark.mllib.evaluation.RankingMetrics.ndcgAt(k)``: each query gives
    its predicted document ids in rank order and the set of its relevant ids, so
    relevance is binary (graded relevance passed to PySpark's ``RankingMetrics``
    is dropped), the predicted order is kept (give the rank order as scores,
    ``ties="first"``), and a query with an empty set of relevant ids scores 0.
    The ideal DCG@k counts ``min(k, number of relevant ids)`` ones, also for
    relevant ids that were not predicted: give those as the pool. With every
    document of a query in the frame (its whole candidate list ranked), the
    pool is not needed. A query whose set of relevant ids is empty scores 0 in
    Spark, and a pool made by exploding the sets has no row for it: the preset's
    ``unjudged_queries="zero"`` scores such a query 0 (its ideal DCG is 0), where
    the other presets leave a query the pool lacks out (as trec_eval leaves out
    queries without qrels). ``missing_queries="zero"`` is the other direction: it
    scores the pool's queries that the ranking lacks (trec_eval's ``-c``).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ndcg import CONVENTIONS, JudgmentPool, ndcg_score
    >>> y_true, y_score = [[0, 0, 0], [1, 0, 2]], [[3, 2, 1], [1, 2, 3]]
    >>> round(ndcg_score(y_true, y_score, k=2, **CONVENTIONS["sklearn"]), 6)
    0.380094
    >>> round(ndcg_score(y_true, y_score, k=2, **CONVENTIONS["lightgbm"]), 6)
    0.913117

    CatBoost ranks the tied documents labelled 2 and 0 worst first, the 0 on
    top (its ``eval_metric`` gives the same value):

    >>> round(ndcg_score([[2, 0, 1]], [[1, 1, 0]], **CONVENTIONS["catboost"]), 6)
    0.669672

    A query with four judged documents, three of them relevant; the run ranks
    one of them, then an unjudged document (NaN), then another:

    >>> pool = JudgmentPool(qid=[1, 1, 1, 1], y_true=[2, 1, 1, 0])
    >>> y, s, q = [1, np.nan, 2], [3, 2, 1], [1, 1, 1]
    >>> round(ndcg_score(y, s, qid=q, k=3, pool=pool, **CONVENTIONS["trec_eval"]), 6)
    0.638788
    >>> round(ndcg_score(y, s, qid=q, k=3, pool=pool, unjudged="drop",
    ...                  **CONVENTIONS["trec_eval"]), 6)  # trec_eval -J
    0.722424
    """


CONVENTIONS: dict[str, MappingProxyType] = _Conventions(
    {
        "sklearn": MappingProxyType(
            {
                "gain": "linear",
                "discount": "log2",
                "ties": "average",
                "zero_division": 0.0,
            }
        ),
        "lightgbm": MappingProxyType(
            {
                "gain": "exponential",
                "discount": "log2",
                "ties": "first",
                "zero_division": 1.0,
            }
        ),
        # XGBoost's "ndcg" without "@k" cuts at 32 documents: DefaultK() in
        # src/common/ranking_utils.h (dmlc/xgboost), read by the ndcg metric of
        # src/metric/rank_metric.cc when no "@k" is given
        "xgboost": MappingProxyType(
            {
                "gain": "exponential",
                "discount": _CutoffWhenNone("log2", 32),
                "ties": "first",
                "zero_division": 1.0,
            }
        ),
        "trec_eval": MappingProxyType(
            {
                "gain": positive_part_gain,
                "discount": "log2",
                "ties": "docno",
                "zero_division": 0.0,
            }
        ),
        "ranx": MappingProxyType(
            {
                "gain": positive_part_gain,
                "discount": "log2",
                "ties": "first",
                "zero_division": 0.0,
            }
        ),
        # Elasticsearch / OpenSearch _rank_eval "dcg" with "normalize": true:
        # DiscountedCumulativeGain.evaluate and computeDCG in
        # modules/rank-eval/src/main/java/org/elasticsearch/index/rankeval/
        # DiscountedCumulativeGain.java (elastic/elasticsearch): gain
        # Math.pow(2, rating) - 1 over Math.log(rank + 1) / Math.log(2); an unrated
        # hit adds nothing unless unknown_doc_rating is set; the ideal DCG sorts the
        # ratings of all rated documents of the request, cut at min(number of hits,
        # number of rated documents); idcg == 0 gives 0; EvaluationMetric.combine
        # averages over requests. Documented at
        # https://www.elastic.co/guide/en/elasticsearch/reference/current/search-rank-eval.html
        # and https://opensearch.org/docs/latest/api-reference/rank-eval/
        "elasticsearch": MappingProxyType(
            {
                "gain": "exponential",
                "discount": "log2",
                "ties": "first",
                "zero_division": 0.0,
            }
        ),
        # CatBoost's NDCG metric (catboost/catboost): per query, CalcNdcg in
        # catboost/libs/metrics/dcg.cpp returns dcg / idcg, or 1 when idcg is 0;
        # FillDcgDecay there discounts rank r by 1 / log2(r + 1) (denominator=
        # LogPosition) or 1 / r (Position); type=Exp gains pow(2, target) - 1. Tied
        # predictions sort by increasing target (CompareDocs in
        # catboost/libs/metrics/doc_comparator.h); top cuts DCG and ideal DCG alike.
        # TNdcgMetric in catboost/libs/metrics/metric.cpp (EvalSingleThread,
        # GetFinalError) sums queryWeight * ndcg over queries and divides by the sum
        # of the (float32) query weights.
        # Documented at https://catboost.ai/docs/en/concepts/loss-functions-ranking#NDCG
        "catboost": MappingProxyType(
            {
                "gain": "linear",
                "discount": "log2",
                "ties": "pessimistic",
                "zero_division": 1.0,
            }
        ),
        "catboost_exp": MappingProxyType(
            {
                "gain": "exponential",
                "discount": "log2",
                "ties": "pessimistic",
                "zero_division": 1.0,
            }
        ),
        "catboost_position": MappingProxyType(
            {
                "gain": "linear",
                "discount": "reciprocal",
                "ties": "pessimistic",
                "zero_division": 1.0,
            }
        ),
        "catboost_exp_position": MappingProxyType(
            {
                "gain": "exponential",
                "discount": "reciprocal",
                "ties": "pessimistic",
                "zero_division": 1.0,
            }
        ),
        # Top-k recommendation: RecBole's NDCG (recbole/evaluator/metrics.py):
        #   1/|U| sum_u [sum_{i<=K} 1(i in R(u)) / log2(i + 1)]
        #               / [sum_{i<=min(|R(u)|, K)} 1 / log2(i + 1)]
        # and Microsoft Recommenders' ndcg_at_k (recommenders/evaluation/
        # python_evaluation.py, score_type="binary"): the same, over every user of
        # the held-out data, one without recommendations counting 0.
        "recommender": MappingProxyType(
            {
                "gain": "linear",
                "discount": "log2",
                "ties": "first",
                "zero_division": 0.0,
            }
        ),
        # Spark ML's RankingEvaluator(metricName="ndcgAtK") and mllib's
        # RankingMetrics.ndcgAt (apache/spark, mllib/src/main/scala/org/apache/
        # spark/mllib/evaluation/RankingMetrics.scala): per query, the DCG@k of the
        # predicted ids in their given order with gain 1 for an id of the label set,
        # over the ideal DCG of min(k, |label set|) ones; 0 for an empty label set;
        # the mean over queries. Checked against a local PySpark in
        # tests/spark/test_conventions_spark.py.
        "spark": MappingProxyType(
            {
                "gain": _relevant_gain,
                "discount": "log2",
                "ties": "first",
                "zero_division": 0.0,
                "unjudged_queries": "zero",
            }
        ),
    }
)
