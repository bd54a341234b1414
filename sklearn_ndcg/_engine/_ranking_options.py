"""The options of the data path as one immutable value, and the lists of their choices.

Every public entry point resolves its keywords once (aliases such as ``ignore_ties``
and ``replace_undefined_by``, presets, defaults: see ``sklearn_ndcg._options``) into a
:class:`RankingOptions`, which is what the layers below receive. The lists of tie
rules, gains, discounts, normalizations, unjudged-document and the two missing-query
policies live here and nowhere else: the scikit-learn constraints, Dask, Spark and the tests derive
theirs from them. This module imports only numpy and the standard library, so that
the ``trec-eval`` command can build options without scikit-learn.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from . import _official

TIE_RULES = ("average", "first", "optimistic", "pessimistic")
"""The tie rules of ``ties``."""

DOCNO_TIES = "docno"
"""trec_eval's rule: tied scores by decreasing document id. The engine knows no
document ids: it orders as "first" and refuses tied documents of different gains,
whose order would change the value (callers that know the ids make the scores
tie-free first, see ``_ir._trec.trec_order_score``)."""

ARGSORT_TIES = "argsort"
"""The rule of scikit-learn's ``ignore_ties=True``: tied documents in the order of
``np.argsort(y_score)[:, ::-1]`` on 2-D input (laid out so by the validation, see
``argsort_layout``), in input order ("first") on long-format input. Not an option of
``ties``."""

GAINS = ("linear", "exponential")
"""The named gains of ``gain`` (a mapping, a sequence or a callable are also taken)."""

DISCOUNTS = ("log2", "reciprocal", "none")
"""The named discounts of ``discount`` (a callable is also taken)."""

NORMALIZE = ("ideal", "minmax")
"""The normalizations of NDCG."""

UNJUDGED = ("zero", "drop")
"""What a judgment pool does with the ranked documents it lacks."""

MISSING_QUERIES = ("drop", "zero")
"""What a judgment pool does with its queries that the ranking lacks."""

UNJUDGED_QUERIES = ("drop", "zero")
"""What a judgment pool does with the ranking's queries that it lacks."""

METRICS = ("ndcg", "dcg")
"""The metrics of the data path's gains and discounts."""

RANK_MEASURES = _official.RANK_MEASURES
"""The measures of binary relevance beside NDCG, by trec_eval's names (``map``: average
precision per query), summed from the same order (``_rank``, ``_official``)."""


def check_log_base(log_base, discount) -> None:
    """``log_base`` goes with the logarithmic discount only."""
    if log_base is not None and not (isinstance(discount, str) and discount == "log2"):
        raise ValueError(
            f"log_base={log_base!r} only applies to discount='log2'; got "
            f"discount={discount!r}. Drop one of them."
        )


@dataclass(frozen=True, slots=True)
class RankingOptions:
    """The resolved options of one call, as the data path reads them.

    Built once at a public entry point, after its parameters were validated and
    its aliases resolved; immutable (use :meth:`replace` for a variant, e.g.
    another tie rule). The lists of allowed values are class attributes
    (``RankingOptions.TIE_RULES``, ``GAINS``, ``DISCOUNTS``, ...).

    Parameters
    ----------
    metric : {"ndcg", "dcg"} or one of ``RANK_MEASURES``, default="ndcg"
        The metric computed per query.
    k : int or None, default=None
        The cutoff; None ranks every document.
    gain : str, mapping, sequence or callable, default="linear"
        Relevance label -> gain.
    discount : str or callable, default="log2"
        Rank -> discount.
    ties : str, default="average"
        The tie rule (one of ``TIE_RULES``, ``DOCNO_TIES`` or ``ARGSORT_TIES``).
    zero_division : float, default=0.0
        The NDCG of a query without a positive ideal DCG.
    normalize : {"ideal", "minmax"}, default="ideal"
        The normalization of NDCG (ignored for DCG).
    log_base : float or None, default=None
        The base of the logarithmic discount of DCG (it cancels in NDCG).
    pool : JudgmentPool or None, default=None
        The judged documents, for the ideal DCG and the unjudged ones.
    unjudged : {"zero", "drop"}, default="zero"
        What the pool does with ranked documents it lacks.
    missing_queries : {"drop", "zero"}, default="drop"
        What the pool does with its queries the ranking lacks.
    unjudged_queries : {"drop", "zero"}, default="drop"
        What the pool does with the ranking's queries it lacks: leave them out, or
        judge them as queries without relevant document (an ideal DCG of 0).
    relevance_level : float, default=1.0
        The measures of ``RANK_MEASURES``: a document is relevant when its label is
        at least this (trec_eval's ``-l``).

    Raises
    ------
    ValueError
        If ``log_base`` is given with another discount than "log2".
    """

    TIE_RULES: ClassVar[tuple[str, ...]] = TIE_RULES
    DOCNO_TIES: ClassVar[str] = DOCNO_TIES
    ARGSORT_TIES: ClassVar[str] = ARGSORT_TIES
    GAINS: ClassVar[tuple[str, ...]] = GAINS
    DISCOUNTS: ClassVar[tuple[str, ...]] = DISCOUNTS
    NORMALIZE: ClassVar[tuple[str, ...]] = NORMALIZE
    UNJUDGED: ClassVar[tuple[str, ...]] = UNJUDGED
    MISSING_QUERIES: ClassVar[tuple[str, ...]] = MISSING_QUERIES
    UNJUDGED_QUERIES: ClassVar[tuple[str, ...]] = UNJUDGED_QUERIES
    METRICS: ClassVar[tuple[str, ...]] = METRICS
    RANK_MEASURES: ClassVar[tuple[str, ...]] = RANK_MEASURES
    check_log_base: ClassVar[Callable[[Any, Any], None]] = staticmethod(check_log_base)

    metric: str = "ndcg"
    k: int | None = None
    gain: str | Mapping | Callable | Any = "linear"
    discount: str | Callable = "log2"
    ties: str = "average"
    zero_division: float = 0.0  # NaN allowed (the constraint "nan" of _options)
    normalize: str = "ideal"
    log_base: float | None = None
    pool: Any = None  # a JudgmentPool (not imported: _pool imports the options' checks)
    unjudged: str = "zero"
    missing_queries: str = "drop"
    unjudged_queries: str = "drop"
    relevance_level: float = 1.0

    def __post_init__(self) -> None:
        check_log_base(self.log_base, self.discount)

    @property
    def normalization(self) -> str | None:
        """``normalize`` for NDCG; None for DCG (no ideal DCG is needed)."""
        return self.normalize if self.metric == "ndcg" else None

    @property
    def dcg_log_base(self) -> float | None:
        """``log_base`` for DCG; None for NDCG, where the base cancels."""
        return self.log_base if self.metric == "dcg" else None

    def replace(self, **changes) -> RankingOptions:
        """A copy with some options changed (checked again)."""
        return dataclasses.replace(self, **changes)
