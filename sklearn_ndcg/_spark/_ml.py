"""NDCGEvaluator, a Spark ML Evaluator, and query_folds, whole queries to folds.

This module imports pyspark at its top: :mod:`sklearn_ndcg.spark` imports it
only when one of its names is first used.
"""

from __future__ import annotations

from pyspark import keyword_only
from pyspark.ml.evaluation import Evaluator
from pyspark.ml.param import Param, Params, TypeConverters
from pyspark.ml.param.shared import HasLabelCol, HasPredictionCol, HasWeightCol
from pyspark.ml.util import DefaultParamsReadable, DefaultParamsWritable

from .._conventions import _relevant_gain, positive_part_gain
from .._engine import RankingOptions
from .._validate_params import Integers, validate_params
from ._frames import check_columns, check_frame
from ._metrics import ndcg_score

# the gain functions of CONVENTIONS' presets, saved by these names (a function cannot be)
_PRESET_GAINS = {"positive_part": positive_part_gain, "relevant": _relevant_gain}
_PRESET_GAIN_NAMES = {function: name for name, function in _PRESET_GAINS.items()}


def _to_gain(value):
    """A gain name, a preset's gain function (kept by its name), or a sequence of gains
    indexed by label (persistable as JSON)."""
    if isinstance(value, str):
        return value
    if callable(value):
        if value in _PRESET_GAIN_NAMES:
            return _PRESET_GAIN_NAMES[value]
        raise TypeError(
            f"gain={value!r}: NDCGEvaluator takes a gain name, a list of gains or the gain of "
            "a preset of CONVENTIONS (its params are saved with it, a function cannot be); "
            "use sklearn_ndcg.spark.ndcg_score for other gain functions."
        )
    return TypeConverters.toListFloat(value)


UNJUDGED_QUERIES = RankingOptions.UNJUDGED_QUERIES


def _preset_keywords(kwargs: dict) -> dict:
    """The constructor's keywords as params: ``zero_division`` (the presets' name) is
    ``zeroDivision``, a preset's cutoff for ``k=None`` (XGBoost's 32) becomes ``k``, and
    ``unjudged_queries`` (``CONVENTIONS["spark"]``'s) is checked and set aside: without a
    pool it changes nothing."""
    kwargs = dict(kwargs)
    unjudged_queries = kwargs.pop("unjudged_queries", None)
    if unjudged_queries is not None and unjudged_queries not in UNJUDGED_QUERIES:
        raise ValueError(
            f"unjudged_queries must be one of {list(UNJUDGED_QUERIES)}; got {unjudged_queries!r}."
        )
    if "zero_division" in kwargs:
        if "zeroDivision" in kwargs:
            raise ValueError(
                "zeroDivision and zero_division are the same parameter; give one of them."
            )
        kwargs["zeroDivision"] = kwargs.pop("zero_division")
    default_k = getattr(kwargs.get("discount"), "default_k", None)
    if default_k is not None and kwargs.get("k") is None:
        kwargs["k"] = default_k
    if isinstance(kwargs.get("discount"), str):
        kwargs["discount"] = str(kwargs["discount"])
    return {name: value for name, value in kwargs.items() if value is not None}


class NDCGEvaluator(
    Evaluator,
    HasLabelCol,
    HasPredictionCol,
    HasWeightCol,
    DefaultParamsReadable,
    DefaultParamsWritable,
):
    """NDCG of a Spark ML model's predictions, for ``CrossValidator`` and ``TrainValidationSplit``.

    A :class:`pyspark.ml.evaluation.Evaluator` over a long-format DataFrame (one
    row per document) that groups the rows by query and returns
    :func:`sklearn_ndcg.spark.ndcg_score` of the prediction column: graded,
    tie-aware and exact. Larger is better. Persistable like Spark's own
    evaluators (``save`` and ``load``).

    Read more in the :ref:`User Guide <spark>`.

    Parameters
    ----------
    queryCol : str, default="qid"
        Name of the query id column.
    labelCol : str, default="label"
        Name of the column of relevance labels.
    predictionCol : str, default="prediction"
        Name of the column of predicted scores; higher ranks first.
    weightCol : str, default=None
        Name of a column of query weights, one per document and equal within a
        query (``sample_weight``). None weighs every query 1.
    k : int, default=None
        Only the top ``k`` documents of each query count (the cutoff of NDCG@k and DCG@k),
        in the DCG and in the ideal DCG. None means all documents.
    gain : {"linear", "exponential"} or list of float, default="linear"
        Gain of a document from its relevance label: "linear" (the label),
        "exponential" (``2**label - 1``), a list of gains indexed by label
        (LightGBM's ``label_gain``) or the gain function of a preset of
        :data:`~sklearn_ndcg.CONVENTIONS` (saved as "positive_part" or "relevant");
        see :func:`~sklearn_ndcg.ndcg_score`.
    discount : {"log2", "reciprocal", "none"}, default="log2"
        Weight of the document at rank ``r``; see :func:`~sklearn_ndcg.ndcg_score`.
    ties : {"average", "first", "optimistic", "pessimistic", "docno"}, default="average"
        How documents with equal scores are ordered: "average" (the mean DCG over all their
        orders, as scikit-learn), "first" (input order), "optimistic" (by decreasing gain),
        "pessimistic" (by increasing gain) or "docno" (trec_eval's order by document id,
        which needs tie-free scores where document ids are unknown); see
        :func:`~sklearn_ndcg.ndcg_score`.
    zeroDivision : {0.0, 1.0, nan}, default=0.0
        NDCG of a query without relevant document (``zero_division``).
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by; see :func:`~sklearn_ndcg.ndcg_score`.
    zero_division : {0.0, 1.0, nan}, default=None
        The same as ``zeroDivision``, under the name of the presets, so that
        ``NDCGEvaluator(k=10, **CONVENTIONS["lightgbm"])`` works; give one of them.
    unjudged_queries : {"drop", "zero"}, default=None
        Taken for ``CONVENTIONS["spark"]``, which sets it (see
        :func:`~sklearn_ndcg.ndcg_score`): the evaluator has no judgment pool, so every
        query is judged by its own labels and it changes nothing.

    See Also
    --------
    query_folds : Whole queries to folds, the ``foldCol`` of ``CrossValidator``.
    sklearn_ndcg.spark.ndcg_score : The metric this evaluator returns.

    Notes
    -----
    Options that are Python objects (callables, mappings, a judgment pool)
    cannot be saved with the evaluator, so the evaluator takes named options and
    lists of gains only, and the presets of :data:`~sklearn_ndcg.CONVENTIONS`
    (their gain functions are saved by name, and the ``"xgboost"`` preset's cutoff
    for ``k=None``, 32, is set as ``k``); use :func:`sklearn_ndcg.spark.ndcg_score`
    for the rest.

    Examples
    --------
    >>> from pyspark.ml.regression import LinearRegression  # doctest: +SKIP
    >>> from pyspark.ml.tuning import CrossValidator, ParamGridBuilder  # doctest: +SKIP
    >>> from sklearn_ndcg.spark import NDCGEvaluator, query_folds  # doctest: +SKIP
    >>> lr = LinearRegression()  # doctest: +SKIP
    >>> grid = ParamGridBuilder().addGrid(lr.regParam, [0.0, 0.1]).build()  # doctest: +SKIP
    >>> cv = CrossValidator(estimator=lr, estimatorParamMaps=grid,
    ...                     evaluator=NDCGEvaluator(k=10), foldCol="fold",
    ...                     numFolds=3)  # doctest: +SKIP
    >>> model = cv.fit(query_folds(frame, n_folds=3, seed=0))  # doctest: +SKIP
    """

    queryCol = Param(
        Params._dummy(), "queryCol", "query id column name", typeConverter=TypeConverters.toString
    )
    k = Param(Params._dummy(), "k", "cutoff: top k documents", typeConverter=TypeConverters.toInt)
    gain = Param(Params._dummy(), "gain", "gain of a label", typeConverter=_to_gain)
    discount = Param(
        Params._dummy(), "discount", "discount of a rank", typeConverter=TypeConverters.toString
    )
    ties = Param(
        Params._dummy(), "ties", "order of tied scores", typeConverter=TypeConverters.toString
    )
    zeroDivision = Param(
        Params._dummy(),
        "zeroDivision",
        "NDCG of a query without relevant document",
        typeConverter=TypeConverters.toFloat,
    )
    normalize = Param(
        Params._dummy(), "normalize", "ideal or minmax", typeConverter=TypeConverters.toString
    )

    @keyword_only
    def __init__(
        self,
        *,
        queryCol: str = "qid",
        labelCol: str = "label",
        predictionCol: str = "prediction",
        weightCol: str | None = None,
        k: int | None = None,
        gain: str | list = "linear",
        discount: str = "log2",
        ties: str = "average",
        zeroDivision: float = 0.0,
        normalize: str = "ideal",
        zero_division: float | None = None,
        unjudged_queries: str | None = None,
    ):
        super().__init__()
        self._setDefault(
            queryCol="qid",
            labelCol="label",
            predictionCol="prediction",
            gain="linear",
            discount="log2",
            ties="average",
            zeroDivision=0.0,
            normalize="ideal",
        )
        # set by pyspark's @keyword_only, which mypy cannot see
        self._set(**_preset_keywords(self._input_kwargs))  # type: ignore[attr-defined]

    @keyword_only
    def setParams(
        self,
        *,
        queryCol: str = "qid",
        labelCol: str = "label",
        predictionCol: str = "prediction",
        weightCol: str | None = None,
        k: int | None = None,
        gain: str | list = "linear",
        discount: str = "log2",
        ties: str = "average",
        zeroDivision: float = 0.0,
        normalize: str = "ideal",
        zero_division: float | None = None,
        unjudged_queries: str | None = None,
    ) -> NDCGEvaluator:
        """Set the given parameters (those of the constructor); only those given are set.

        Parameters
        ----------
        queryCol : str, optional
            Name of the query id column.
        labelCol : str, optional
            Name of the column of relevance labels.
        predictionCol : str, optional
            Name of the column of predicted scores.
        weightCol : str, optional
            Name of a column of query weights.
        k : int, optional
            The cutoff.
        gain : str or list of float, optional
            The gain.
        discount : str, optional
            The discount.
        ties : str, optional
            The tie rule.
        zeroDivision : float, optional
            NDCG of a query without relevant document.
        normalize : str, optional
            "ideal" or "minmax".
        zero_division : float, optional
            The same as ``zeroDivision`` (the presets' name).
        unjudged_queries : {"drop", "zero"}, optional
            Taken for ``CONVENTIONS["spark"]``; without a pool it changes nothing.

        Returns
        -------
        self : NDCGEvaluator
            The evaluator.
        """
        # set by pyspark's @keyword_only, which mypy cannot see
        return self._set(**_preset_keywords(self._input_kwargs))  # type: ignore[attr-defined]

    def _options(self) -> dict:
        weight = self.getOrDefault(self.weightCol) if self.isDefined(self.weightCol) else None
        gain = self.getOrDefault(self.gain)
        return {
            "qid": self.getOrDefault(self.queryCol),
            "y_true": self.getOrDefault(self.labelCol),
            "y_score": self.getOrDefault(self.predictionCol),
            "sample_weight": weight or None,
            "k": self.getOrDefault(self.k) if self.isDefined(self.k) else None,
            "gain": _PRESET_GAINS.get(gain, gain) if isinstance(gain, str) else list(gain),
            "discount": self.getOrDefault(self.discount),
            "ties": self.getOrDefault(self.ties),
            "zero_division": self.getOrDefault(self.zeroDivision),
            "normalize": self.getOrDefault(self.normalize),
        }

    def _evaluate(self, dataset) -> float:
        """NDCG of ``dataset``: :func:`sklearn_ndcg.spark.ndcg_score` with the params."""
        return ndcg_score(dataset, **self._options())

    def isLargerBetter(self) -> bool:
        """Whether a larger value is better: True for NDCG.

        Returns
        -------
        bool
            Always True.
        """
        return True


@validate_params(
    {
        "frame": "no_validation",
        "qid": [str],
        "n_folds": [Integers(2)],
        "seed": [Integers(None, closed="neither")],
        "fold_col": [str],
    },
    prefer_skip_nested_validation=True,
)
def query_folds(
    frame, *, qid: str = "qid", n_folds: int = 3, seed: int = 0, fold_col: str = "fold"
):
    """Assign whole queries to folds: the ``foldCol`` of Spark ML's ``CrossValidator``.

    ``CrossValidator`` splits rows at random, so the documents of a query land
    in different folds; given ``foldCol`` (Spark >= 3.1) it uses the folds of
    that column instead. Each query goes to the fold ``xxhash64(qid, seed) mod
    n_folds``, computed in Spark without a shuffle: every document of a query is
    in one fold, and the same seed gives the same folds on every run and
    cluster.

    Read more in the :ref:`User Guide <spark>`.

    Parameters
    ----------
    frame : pyspark.sql.DataFrame
        Long format: one row per document, with a query id column.
    qid : str, default="qid"
        Name of the query id column.
    n_folds : int, default=3
        Number of folds, at least 2 (``numFolds`` of ``CrossValidator``).
    seed : int, default=0
        Seed of the hash; other seeds give other folds.
    fold_col : str, default="fold"
        Name of the new column of fold numbers ``0 .. n_folds - 1``.

    Returns
    -------
    pyspark.sql.DataFrame
        ``frame`` with the integer column ``fold_col`` added.

    See Also
    --------
    NDCGEvaluator : The evaluator to select by.
    sklearn.model_selection.GroupKFold : Whole queries to folds in scikit-learn.

    Examples
    --------
    >>> from sklearn_ndcg.spark import query_folds  # doctest: +SKIP
    >>> folds = query_folds(frame, n_folds=3, seed=0)  # doctest: +SKIP
    >>> folds.groupBy("qid").agg(F.countDistinct("fold")).distinct().count()  # doctest: +SKIP
    1
    """
    from pyspark.sql import functions as F

    check_frame(frame)
    check_columns(frame, {"qid": qid})
    fold = F.pmod(F.xxhash64(F.col(qid), F.lit(seed)), F.lit(n_folds)).cast("int")
    return frame.withColumn(fold_col, fold)
