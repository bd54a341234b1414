"""The option vocabulary shared by every entry point: constraints, defaults, aliases.

One place for what ``k``, ``gain``, ``discount``, ``ties``, ``zero_division`` (alias
``replace_undefined_by``), ``normalize``, ``qid``, ``sample_weight``,
``document_weight``, ``log_base``, ``pool``, ``unjudged``, ``missing_queries`` and
``unjudged_queries`` accept,
their defaults, how aliases resolve (``ignore_ties`` -> ``ties``, ``replace_undefined_by``
-> ``zero_division``), the one check of a list of cutoffs, and
:func:`ranking_options`,
which resolves a public function's keywords once into the engine's immutable
``RankingOptions`` (whose class attributes are the lists of allowed values: tie rules,
gains, discounts, unjudged and missing-query policies; the constraints here derive
from them). The metric functions, the
scorers, the evaluator, the displays, :mod:`sklearn_ndcg.dask`, the statistics and the
TREC tools import their constraints from here; this module imports only from ``_compat``
and ``_engine``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from ._engine import JudgmentPool, RankingOptions
from ._validate_params import Integers, Interval, Options, StrOptions
from ._vocabulary import (
    BY_NAME,
    CUT_FAMILIES,
    CUTOFFS,
    DCG,
    EVERY_DOOR,
    LEVELS,
    PERSISTENCE,
    REPORT,
    SPECS,
)

TIE_RULES = RankingOptions.TIE_RULES
ARGSORT_TIES = RankingOptions.ARGSORT_TIES
GAINS = RankingOptions.GAINS
DISCOUNTS = RankingOptions.DISCOUNTS
DOCNO = RankingOptions.DOCNO_TIES
"""trec_eval's tie rule: tied scores by decreasing document id. Where document ids are
unknown (all but evaluate_run), it accepts tie-free scores and refuses tied documents of
different labels (see ``_engine._ranking_options``)."""

TIES = [StrOptions({*TIE_RULES, DOCNO})]
"""The constraint of ``ties``, with and without document ids."""

COMMON_PARAMS: dict[str, list] = {
    "y_true": ["array-like"],
    "y_score": ["array-like"],
    "k": [Integers(1), None],
    "gain": [StrOptions(set(GAINS)), Mapping, callable, "array-like"],
    "discount": [StrOptions(set(DISCOUNTS)), callable],
    "ties": TIES,
    "qid": ["array-like", None],
    "sample_weight": ["array-like", None],
}
IGNORE_TIES = {"ignore_ties": ["boolean", None]}  # scikit-learn's keyword
ZERO_DIVISION_VALUES = [Options(Real, {0.0, 1.0}), "nan"]
LOG_BASE = [Interval(Real, 1, None, closed="neither"), None]
NORMALIZE = RankingOptions.NORMALIZE
NDCG_PARAMS = {"zero_division": ZERO_DIVISION_VALUES, "normalize": [StrOptions(set(NORMALIZE))]}
REPLACE_UNDEFINED = {"replace_undefined_by": [*ZERO_DIVISION_VALUES, None]}
DOCUMENT_WEIGHT = {"document_weight": ["array-like", None]}
UNJUDGED = RankingOptions.UNJUDGED
MISSING_QUERIES = RankingOptions.MISSING_QUERIES
UNJUDGED_QUERIES = {"unjudged_queries": [StrOptions(set(RankingOptions.UNJUDGED_QUERIES))]}
"""The constraint of ``unjudged_queries``: also taken without a pool (``CONVENTIONS["spark"]``
sets it, and a preset goes where no pool does, e.g. a scorer called without one)."""
POOL = {
    "pool": [JudgmentPool, None],
    "unjudged": [StrOptions(set(UNJUDGED))],
    "missing_queries": [StrOptions(set(MISSING_QUERIES))],
    **UNJUDGED_QUERIES,
}
QID_COLUMN = [str, Integers(None, closed="neither"), None]
"""``qid=`` of the scorers and the evaluator: a column name or position of X."""


class _DefaultStr(str):
    """A default string that tells itself apart from the same string given explicitly."""


class _Default(float):
    """A default value that tells itself apart from the same value given explicitly."""


DEFAULT_TIES = _DefaultStr("average")
"""The default of ``ties``: "average", unless ``ignore_ties`` is given."""
DEFAULT_UNJUDGED = _DefaultStr("zero")
"""The default of ``unjudged``; any value given explicitly needs a ``pool``."""
DEFAULT_MISSING_QUERIES = _DefaultStr("drop")
"""The default of ``missing_queries``; any value given explicitly needs a ``pool``."""
DEFAULT_UNJUDGED_QUERIES = "drop"
"""The default of ``unjudged_queries``; taken without a pool too, where it changes nothing
(every ranked query is judged by its own labels)."""
ZERO_DIVISION = _Default(0.0)
"""The default of ``zero_division``: 0.0, unless ``replace_undefined_by`` is given."""


def resolve_ties(ties: str, ignore_ties: bool | None) -> str:
    """The tie rule, from ``ties`` or scikit-learn's ``ignore_ties``, not both.

    ``ignore_ties=True`` is ``ARGSORT_TIES`` (of ``_engine._ranking_options``),
    scikit-learn's order of tied documents; ``ignore_ties=False`` is "average".
    """
    if ignore_ties is None:
        return str(ties)
    if ties is not DEFAULT_TIES:
        raise ValueError(
            f"give either ties (got {str(ties)!r}) or scikit-learn's ignore_ties (got "
            f"{ignore_ties!r}), not both; ignore_ties=True orders tied documents as "
            "scikit-learn does (close to ties='first') and ignore_ties=False is "
            "ties='average'."
        )
    return ARGSORT_TIES if ignore_ties else "average"


def resolve_zero_division(zero_division: float, replace_undefined_by: float | None) -> float:
    """``zero_division`` under either of its names; refuse both at once."""
    if replace_undefined_by is None:
        return zero_division
    if zero_division is not ZERO_DIVISION:
        raise ValueError(
            "zero_division and replace_undefined_by are two names for the same option "
            f"(the NDCG of a query without relevant document); got zero_division="
            f"{zero_division!r} and replace_undefined_by={replace_undefined_by!r}. Give "
            "one of the two."
        )
    return replace_undefined_by


def check_pool_options(pool: JudgmentPool | None, unjudged: str, missing_queries: str) -> None:
    """Refuse ``unjudged=`` or ``missing_queries=`` given explicitly without a ``pool``.

    Both say what to do with documents or queries that only a judgment pool
    defines; without one they would be ignored, so any explicit value (even
    the default's) is refused.
    """
    if pool is not None:
        return
    given = [
        f"{name}={str(value)!r}"
        for name, value, default in (
            ("unjudged", unjudged, DEFAULT_UNJUDGED),
            ("missing_queries", missing_queries, DEFAULT_MISSING_QUERIES),
        )
        if value is not default
    ]
    if given:
        raise ValueError(
            f"{' and '.join(given)} only applies with a pool (a JudgmentPool of every "
            "judged document); without pool= there are no unjudged documents or missing "
            "queries. Pass pool=JudgmentPool(qid, y_true) or leave these options out."
        )


def ranking_options(
    metric: str = "ndcg",
    *,
    k: int | None = None,
    gain="linear",
    discount="log2",
    ties: str = DEFAULT_TIES,
    ignore_ties: bool | None = None,
    zero_division: float = ZERO_DIVISION,
    replace_undefined_by: float | None = None,
    normalize: str = "ideal",
    log_base: float | None = None,
    pool: JudgmentPool | None = None,
    unjudged: str = DEFAULT_UNJUDGED,
    missing_queries: str = DEFAULT_MISSING_QUERIES,
    unjudged_queries: str = DEFAULT_UNJUDGED_QUERIES,
) -> RankingOptions:
    """The options of one call, resolved and checked once, for the layers below.

    Parameters
    ----------
    metric : {"ndcg", "dcg"}, default="ndcg"
        The metric.
    k, gain, discount, normalize, log_base, pool
        As the public functions take them (validated by their constraints).
    ties, ignore_ties : str, bool or None
        The tie rule under either name (:func:`resolve_ties`).
    zero_division, replace_undefined_by : float or None
        ``zero_division`` under either name (:func:`resolve_zero_division`).
    unjudged, missing_queries : str
        The pool's policies; given explicitly without a pool, they are refused
        (:func:`check_pool_options`).
    unjudged_queries : str
        What the pool does with the ranking's queries it lacks; taken without a pool
        (a preset sets it), where it changes nothing.

    Returns
    -------
    RankingOptions
        The immutable options.

    Raises
    ------
    ValueError
        If both names of an option are given, a pool-only option comes without a
        pool, or ``log_base`` comes with another discount than "log2".
    """
    ties = resolve_ties(ties, ignore_ties)
    zero_division = resolve_zero_division(zero_division, replace_undefined_by)
    check_pool_options(pool, unjudged, missing_queries)
    if k is None:  # a preset's cutoff for k=None (CONVENTIONS["xgboost"]: 32, as XGBoost)
        k = getattr(discount, "default_k", None)
    return RankingOptions(
        metric=metric,
        k=k,
        gain=gain,
        discount=str(discount) if isinstance(discount, str) else discount,
        ties=str(ties),
        zero_division=zero_division,
        normalize=normalize,
        log_base=log_base,
        pool=pool,
        unjudged=str(unjudged),
        missing_queries=str(missing_queries),
        unjudged_queries=str(unjudged_queries),
    )


def check_cutoffs(ks, *, name: str = "k", none_means_up_to: int | None = None) -> np.ndarray | None:
    """A list of cutoffs as a sorted int array, with one message for every caller.

    Parameters
    ----------
    ks : sequence of int or None
        The cutoffs: non-empty, integers >= 1, distinct (in any order).
    name : str, default="k"
        The argument's name in the message.
    none_means_up_to : int, default=None
        What ``ks=None`` means: the cutoffs ``1 .. none_means_up_to`` (the display's
        default); None means that ``ks=None`` stays None.

    Returns
    -------
    ndarray of int or None
        The sorted cutoffs.

    Raises
    ------
    TypeError
        If ``ks`` is a single value, not a sequence.
    ValueError
        If ``ks`` is empty, not 1-D, or holds anything but distinct integers >= 1.
    """
    if ks is None:
        return None if none_means_up_to is None else np.arange(1, none_means_up_to + 1)
    message = (
        f"{name} must be a non-empty list of distinct integers >= 1 (the cutoffs), e.g. "
        f"[1, 5, 10]; got {_shown(ks)}."
    )
    if isinstance(ks, (str, bytes, Integral, Real)) or np.ndim(ks) == 0:
        raise TypeError(f"{message} Write {name}=[{_shown(ks)}] for one cutoff.")
    values = list(ks) if np.ndim(ks) == 1 else None
    if (
        not values
        or not all(isinstance(v, Integral) and not isinstance(v, (bool, np.bool_)) for v in values)
        or min(values) < 1
        or len(set(values)) != len(values)
    ):
        raise ValueError(message)
    return np.array(sorted(int(v) for v in values), dtype=np.intp)


def _shown(value) -> str:
    """A value for a message: arrays as lists."""
    if isinstance(value, np.ndarray):
        return repr(value.tolist())
    if isinstance(value, (range, tuple)):
        return repr(list(value))
    return repr(value)


RANK_MEASURES = RankingOptions.RANK_MEASURES
"""The measures of binary relevance beside NDCG, by trec_eval's names."""

_CUT_NAME = re.compile(r"(.+?)[._]([0-9]+)")
_AT_LEVEL = re.compile(r"(.+?)[._]([0-9]*\.?[0-9]+)")
_PERSISTENCE = re.compile(r"(.+?)_p=(.+)")


class MetricName(NamedTuple):
    """One metric asked for by name: the name as trec_eval writes it in ``-q`` lines,
    the engine's metric, its cutoff (None: the whole ranking) and its other parameter
    (a recall level of ``iprec_at_recall``, the persistence of ``rbp``)."""

    name: str
    metric: str
    k: int | None
    param: float | None = None

    @property
    def params(self) -> tuple[float, ...] | None:
        """The engine's parameters of its request (``query_values(measures=)``)."""
        if self.k is not None:
            return (self.k,)
        return None if self.param is None else (self.param,)

    @property
    def summary(self) -> str:
        """How its per-query values are summarized (:data:`._vocabulary.SUMMARIES`)."""
        spec = BY_NAME.get(self.metric)
        return "mean" if spec is None else spec.summary


def metric_names(metric, k: int | None = None) -> tuple[MetricName, ...]:
    """The metrics named by ``metric``: a name or a list of names as trec_eval writes
    them in ``-q`` lines (the vocabulary's, :mod:`._vocabulary`: ``ndcg``,
    ``ndcg_cut_10``, ``map``, ``map_cut_10``, ``recip_rank``, ``P_10``, ``recall_100``,
    ``success_1``, ``Rprec``, ``bpref``, ``gm_map``, ``iprec_at_recall_0.50``, ``rbp``,
    ``rbp_p=0.95``, the counts; pytrec_eval's ``P.10`` too), or ``dcg``. ``k`` is the
    cutoff of a name without one.

    Raises
    ------
    ValueError
        For an unknown name, a name whose cutoff differs from ``k``, a cutoff given to
        a measure without one, or ``P`` and ``success`` without a cutoff.
    """
    names = [metric] if isinstance(metric, str) else list(metric)
    if not names or not all(isinstance(name, str) for name in names):
        raise ValueError(f"metric must be a name or a non-empty list of names; got {metric!r}.")
    return tuple(_metric_name(text, k) for text in names)


def _metric_name(text: str, k: int | None) -> MetricName:
    """One name of :func:`metric_names`."""
    match = _CUT_NAME.fullmatch(text)
    if match is not None and match[1] in CUT_FAMILIES:
        family, cutoff = match[1], int(match[2])
        if cutoff < 1:
            raise ValueError(f"metric {text!r} has cutoff 0; cutoffs start at 1.")
        if k is not None and k != cutoff:
            raise ValueError(
                f"metric {text!r} has cutoff {cutoff} but k={k}; give the cutoff once."
            )
        return MetricName(f"{family}_{cutoff}", CUT_FAMILIES[family], cutoff)
    spec = BY_NAME.get(text)
    if (spec is not None and spec.params == LEVELS) or _family(_AT_LEVEL, text) == LEVELS:
        return _at_level(text, spec, k)
    if (spec is not None and spec.params == PERSISTENCE) or _family(_PERSISTENCE, text):
        return _with_persistence(text, k)
    if text == DCG or (spec is not None and spec.doors == EVERY_DOOR):
        if k is None:
            if spec is not None and spec.needs_cutoff:
                raise ValueError(f"metric {text!r} needs a cutoff: write {text}_10 or give k.")
            return MetricName(text, text if spec is None else str(spec.metric), None)
        cut = text if spec is None else spec.cutoff_name
        if cut is None and spec is not None and spec.params == CUTOFFS:
            cut = spec.name  # ndcg_cut, map_cut with k
        if cut is None:
            raise ValueError(f"metric {text!r} takes no cutoff; leave k=None.")
        return MetricName(f"{cut}_{k}", CUT_FAMILIES.get(cut, text), k)
    if spec is not None:  # runid, num_q (the report's), infNDCG (sampled qrels)
        raise ValueError(
            f"metric {text!r} is "
            + (
                "computed by RelevanceEvaluator and the trec-eval command only (it "
                "describes the run, not a query)."
                if spec.doors == REPORT
                else "computed alone, from qrels with strata: metric='infNDCG'."
            )
        )
    raise ValueError(
        f"unknown metric {text!r}; the metrics are {DCG}, "
        f"{', '.join(s.name for s in SPECS if s.doors == EVERY_DOOR and not s.needs_cutoff)} "
        f"and, at a cutoff or level, {', '.join(f'{c}_<k>' for c in CUT_FAMILIES)}, "
        "iprec_at_recall_<level> (e.g. P_10, iprec_at_recall_0.50, rbp_p=0.95)."
    )


def _family(pattern: re.Pattern, text: str) -> str | None:
    """The parameter family of ``<name>_<parameter>`` where the name is the
    vocabulary's."""
    match = pattern.fullmatch(text)
    spec = None if match is None else BY_NAME.get(match[1])
    return None if spec is None else spec.params


def _at_level(text: str, spec, k: int | None) -> MetricName:
    """``iprec_at_recall_<level>``: one recall level, named as trec_eval prints it."""
    match = _AT_LEVEL.fullmatch(text)
    if spec is not None or match is None:
        raise ValueError(
            f"metric {text!r} needs a recall level: write e.g. {text}_0.50 (one column "
            "per level, as trec_eval prints them)."
        )
    if k is not None:
        raise ValueError(f"metric {text!r} takes no cutoff; leave k=None.")
    level = float(match[2])
    if not 0 <= level <= 1:
        raise ValueError(f"metric {text!r}: the recall level must be in [0, 1].")
    return MetricName(f"{match[1]}_{level:3.2f}", match[1], None, level)


def _with_persistence(text: str, k: int | None) -> MetricName:
    """``rbp`` (persistence 0.9) or ``rbp_p=<p>``, named as trec_eval prints it."""
    if k is not None:
        raise ValueError(f"metric {text!r} takes no cutoff; write rbp_p=<p> for its persistence.")
    match = _PERSISTENCE.fullmatch(text)
    name = text if match is None else match[1]
    if match is None:
        return MetricName(name, name, None, BY_NAME[name].defaults[0])
    try:
        p = float(match[2])
    except ValueError:
        p = float("nan")
    if not 0 < p < 1:
        raise ValueError(f"metric {text!r}: the persistence p must be in (0, 1).")
    return MetricName(text, name, None, p)


def refuse_measures_beside_ndcg(metric: str, where: str) -> None:
    """Refuse a ``metric`` other than "ndcg" and "dcg" where only they are computed
    (``where``: Spark's functions), naming the measure and the way to it: NDCG at a
    cutoff is ``k=``; the measures of binary relevance are computed in memory."""
    if metric in ("ndcg", "dcg"):
        return
    try:
        (name,) = metric_names(metric)
    except ValueError:
        raise ValueError(f"metric must be 'ndcg' or 'dcg' in {where}; got {metric!r}.") from None
    if name.metric in ("ndcg", "dcg"):
        raise ValueError(
            f"metric={metric!r}: {where} takes the cutoff as k; write "
            f"metric={name.metric!r}, k={name.k}."
        )
    raise ValueError(
        f"metric={metric!r} is not computed by {where}, which computes NDCG and DCG "
        "(metric='ndcg' or 'dcg'); compute it in memory: collect the rows (qid, docno, "
        "score) and the qrels and pass them to sklearn_ndcg.evaluate_run (or as "
        "pytrec_eval's dicts to sklearn_ndcg.query_scores), with the same metric."
    )
