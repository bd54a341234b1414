"""trec_eval's measures, in one registry: a name -> measure table (:data:`MEASURES`).

A measure reads its ``-m`` parameters (the text after ``name.``), names its report
columns and computes them from a staged run (:func:`._engine.stage`), with
the ``-B`` bounds where asked. Adding a measure is adding one entry to :data:`MEASURES`;
the command (parsing, help) and the evaluation (:mod:`._report`) read the table.

The staging holds the qrels levels; each measure sums them with its own gain, the ideal
DCG holding the positive part of each judged document's gain (levels below 0 gain 0),
which makes it trec_eval's.
"""

from __future__ import annotations

import math
import re
from functools import partial
from typing import NamedTuple, Protocol

import numpy as np

from .._engine import RankingOptions, query_values
from .._vocabulary import (
    CUTOFFS,
    GAINS,
    GRADED,
    LEVELS,
    NONE,
    OFFICIAL,
    PERSISTENCE,
    SPECS,
    SUMMARIES,
    Spec,
)
from ._infndcg import InfNdcg
from ._reported import Reported

Columns = list[tuple[str, np.ndarray]]

_PAIR = re.compile(r"([+-]?[0-9]+)=(.*)")
_LEADING_INTEGER = re.compile(r"[ \t\n\r\f\v]*([+-]?[0-9]+)")
_LEADING_NUMBER = re.compile(  # C's atof
    r"[ \t\n\r\f\v]*([+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
)


__all__ = ["MEASURES", "SUMMARIES", "Measure", "Measures", "Request"]


class Measure(Protocol):
    """What a measure of the registry does (see :class:`Ndcg`), and how the report
    prints it: ``in_default`` (in the command's default set), ``sampled_pool`` (reads
    qrels with strata), ``per_query`` (printed on ``-q`` lines), ``integer`` (printed
    as a count), ``summary`` (one of :data:`SUMMARIES`)."""

    spec: Spec
    name: str

    @property
    def usage(self) -> str: ...

    @property
    def in_default(self) -> bool: ...

    @property
    def sampled_pool(self) -> bool: ...

    @property
    def bounded(self) -> bool: ...

    @property
    def per_query(self) -> bool: ...

    @property
    def integer(self) -> bool: ...

    @property
    def summary(self) -> str: ...

    def check(self, params: str) -> None: ...

    def names(self, params: str | None) -> list[str]: ...

    def columns(
        self,
        staged,
        options: RankingOptions,
        params: str | None,
        bound_levels: np.ndarray | None,
    ) -> Columns: ...

    def rank_requests(self, params: str | None) -> tuple | None: ...


def _gains_of_judged(levels: np.ndarray, pairs: tuple[tuple[int, float], ...]) -> np.ndarray:
    """Gain of each level: its custom gain or the level itself; 0 below level 0
    (judged non-relevant: in the pool, never in the ideal DCG)."""
    gains = levels.copy()
    for level, gain in pairs:
        gains[levels == level] = gain
    gains[levels < 0] = 0.0
    return gains


def _bound_columns(name: str, staged, options: RankingOptions, levels: np.ndarray) -> Columns:
    """``-B``: Judged@k and the NDCG bounds of one measure, as report columns."""
    result = query_values(staged, options, levels=levels).bounds
    if result is None:  # never: levels are given
        raise TypeError("query_values returned no bounds for levels.")
    return [
        (f"{name}@judged", result.judged),
        (f"{name}@lower", result.lower),
        (f"{name}@upper", result.upper),
    ]


class Ndcg(Reported):
    """``ndcg``: NDCG over the whole ranking; ``ndcg.<level>=<gain>,...`` gives levels
    their own gains, and is printed as ``ndcg_<parameters>``."""

    @property
    def usage(self) -> str:
        return f"{self.name}, {self.name}.<level>=<gain>,... (e.g. {self.name}.1=3,2=9)"

    def check(self, params: str) -> None:
        self.gains(params)

    def gains(self, params: str | None) -> tuple[tuple[int, float], ...]:
        """``level=gain`` pairs; levels are integers >= 0, gains finite numbers."""
        if params is None:
            return ()
        pairs: dict[int, float] = {}
        for item in params.split(","):
            match = _PAIR.fullmatch(item)
            if match is None:
                raise ValueError(
                    f"{self.name} parameter {item!r} is not of the form level=gain; {usage()}."
                )
            level = int(match[1])
            try:
                gain = float(match[2])
            except ValueError:
                gain = math.nan
            if not math.isfinite(gain):
                raise ValueError(
                    f"{self.name} gain {match[2]!r} of level {level} is not a finite number."
                )
            if level < 0:
                raise ValueError(
                    f"{self.name} level {level} is negative; negative qrels levels mark documents "
                    "that were not judged, which gain 0."
                )
            if level in pairs:
                raise ValueError(f"{self.name} parameters give level {level} more than one gain.")
            pairs[level] = gain
        return tuple(pairs.items())

    def names(self, params: str | None) -> list[str]:
        return [self.name if params is None else f"{self.name}_{params}"]

    def columns(
        self,
        staged,
        options: RankingOptions,
        params: str | None,
        bound_levels: np.ndarray | None,
    ) -> Columns:
        (name,) = self.names(params)
        custom = options.replace(gain=partial(_gains_of_judged, pairs=self.gains(params)))
        columns = [(name, query_values(staged, custom).values)]
        if bound_levels is not None:
            columns.extend(_bound_columns(name, staged, custom, bound_levels))
        return columns


class NdcgCut(Reported):
    """``ndcg_cut``: NDCG at each cutoff (trec_eval's nine by default), all summed from
    one ordering; ``ndcg_cut.<k>,...`` chooses the cutoffs."""

    @property
    def usage(self) -> str:
        return f"{self.name} and {self.name}.<k>,... (e.g. {self.name}.10,20)"

    @property
    def default(self) -> tuple[int, ...]:
        return tuple(int(k) for k in self.spec.defaults)

    def check(self, params: str) -> None:
        self.cutoffs(params)

    def cutoffs(self, params: str | None) -> tuple[int, ...]:
        """The cutoffs, read like C's ``atol`` ("23.4" is 23), increasing."""
        if params is None:
            return self.default
        cutoffs = []
        for item in params.split(","):
            match = _LEADING_INTEGER.match(item)
            cutoffs.append(int(match[1]) if match else 0)
        if min(cutoffs) < 1 or len(set(cutoffs)) < len(cutoffs):
            # the package's one message for bad cutoffs (_options imports scikit-learn)
            from .._options import check_cutoffs

            check_cutoffs(cutoffs, name=f"the cutoffs of {self.name}.{params}")
        return tuple(sorted(cutoffs))

    def names(self, params: str | None) -> list[str]:
        return [f"{self.name}_{k}" for k in self.cutoffs(params)]

    def columns(
        self,
        staged,
        options: RankingOptions,
        params: str | None,
        bound_levels: np.ndarray | None,
    ) -> Columns:
        cutoffs = self.cutoffs(params)
        plain = options.replace(gain=partial(_gains_of_judged, pairs=()))
        values = query_values(staged, plain, ks=np.asarray(cutoffs)).values
        columns = []
        for i, k in enumerate(cutoffs):
            columns.append((f"{self.name}_{k}", values[:, i]))
            if bound_levels is not None:
                at_k = plain.replace(k=int(k))
                columns.extend(_bound_columns(f"{self.name}_{k}", staged, at_k, bound_levels))
        return columns


def _refuse_bounds(name: str, bound_levels) -> None:
    if bound_levels is not None:
        raise ValueError(
            f"-B bounds NDCG over the unjudged documents' levels; {name} has no bounds. "
            f"Give -B with {' and '.join(n for n, m in MEASURES.items() if m.bounded)} only."
        )


class _Summed(Reported):
    """A measure computed by the engine's request alone (:meth:`rank_requests`): its
    columns, one per name; no ``-B`` bounds."""

    def names(self, params: str | None) -> list[str]:
        raise NotImplementedError  # each measure names its columns

    def columns(self, staged, options, params, bound_levels) -> Columns:
        _refuse_bounds(self.name, bound_levels)
        requests = self.rank_requests(params)
        if requests is None:  # never: each of these measures names its request
            raise TypeError(f"{self.name} has no request of the engine.")
        ranked = options.replace(metric=requests[0][0], k=None)
        values = query_values(staged, ranked, measures=requests).values
        return list(zip(self.names(params), values.T))


class Single(_Summed):
    """A measure of one value per query from the engine's order (``map``,
    ``recip_rank``, ``Rprec``, ``bpref``, the counts...). Like trec_eval, it takes no
    parameters and ignores any given (``recip_rank.5`` is ``recip_rank``)."""

    @property
    def usage(self) -> str:
        return self.name

    def check(self, params: str) -> None:
        pass

    def names(self, params: str | None) -> list[str]:
        return [self.name]

    def rank_requests(self, params: str | None) -> tuple | None:
        """What the engine sums for it (``query_values(..., measures=)``)."""
        return ((self.spec.metric, None),)


class Counted(Single):
    """A measure of the run, not of a query: nothing to compute (``num_q``: a count of
    the queries, 1 each; ``runid``: the run's name on the ``all`` line, 0 for each
    query, as pytrec_eval gives it)."""

    def rank_requests(self, params: str | None) -> tuple | None:
        return None

    def columns(self, staged, options, params, bound_levels) -> Columns:
        _refuse_bounds(self.name, bound_levels)
        value = 1.0 if self.summary == "count" else 0.0
        return [(self.name, np.full(staged.ids.shape[0], value))]


class AtCutoffs(_Summed, NdcgCut):
    """A measure of binary relevance at each cutoff (``P``, ``recall``, ``map_cut``,
    ``success``), all summed from one ordering; ``<name>.<k>,...`` chooses the
    cutoffs. Printed as ``<name>_<k>``."""

    @property
    def usage(self) -> str:
        return f"{self.name} and {self.name}.<k>,..."

    def names(self, params: str | None) -> list[str]:
        return [f"{self.name}_{k}" for k in self.cutoffs(params)]

    def rank_requests(self, params: str | None) -> tuple:
        """What the engine sums for it (``query_values(..., measures=)``)."""
        return ((self.spec.metric, self.cutoffs(params)),)


class AtRecall(_Summed):
    """``iprec_at_recall``: interpolated precision at recall levels (trec_eval's
    eleven by default); ``iprec_at_recall.<r>,...`` chooses them, read as C's ``atof``
    reads them, and prints each as ``iprec_at_recall_<r>`` with two decimals."""

    def __init__(self, spec: Spec, request: str | None = None) -> None:
        super().__init__(spec)
        self.request = spec.metric if request is None else request

    @property
    def usage(self) -> str:
        return f"{self.name} and {self.name}.<r>,... (e.g. {self.name}.0.5,1)"

    def check(self, params: str) -> None:
        self.levels(params)

    def levels(self, params: str | None) -> tuple[float, ...]:
        if params is None:
            return self.spec.defaults
        levels = []
        for item in params.split(","):
            match = _LEADING_NUMBER.match(item)
            levels.append(float(match[1]) if match else 0.0)
        return tuple(levels)

    def names(self, params: str | None) -> list[str]:
        return [f"{self.name}_{level:3.2f}" for level in self.levels(params)]

    def rank_requests(self, params: str | None) -> tuple | None:
        return ((self.request, self.levels(params)),)


class Rbp(_Summed):
    """``rbp``: rank-biased precision (Moffat and Zobel, 2008), persistence 0.9;
    ``rbp.p=<p>`` sets it and prints as ``rbp_p=<p>``. A judged level gains the level,
    over the query's largest level where that exceeds 1."""

    @property
    def usage(self) -> str:
        return f"{self.name} and {self.name}.p=<persistence> (e.g. {self.name}.p=0.95)"

    def check(self, params: str) -> None:
        self.persistence(params)

    def persistence(self, params: str | None) -> float:
        p = self.spec.defaults[0]
        if params is None:
            return p
        for item in params.split(","):
            name, equals, value = item.partition("=")
            if name != "p" or not equals:
                raise ValueError(
                    f"{self.name} parameter {item!r} is not p=<persistence>; write e.g. "
                    f"{self.name}.p=0.95 (trec_eval's level=gain pairs of {self.name} are not "
                    "supported)."
                )
            try:
                p = float(value)
            except ValueError:
                p = math.nan
            if not 0 < p < 1:
                raise ValueError(f"{self.name}'s persistence p must be in (0, 1); got {value!r}.")
        return p

    def names(self, params: str | None) -> list[str]:
        return [self.name if params is None else f"{self.name}_{params}"]

    def rank_requests(self, params: str | None) -> tuple | None:
        return ((self.spec.metric, (self.persistence(params),)),)


def _entry(spec: Spec) -> Measure:
    """The registry's entry of a vocabulary entry, by its parameter family."""
    if spec.params == GAINS:
        return Ndcg(spec)
    if spec.params == CUTOFFS:
        return NdcgCut(spec) if spec.reads == GRADED else AtCutoffs(spec)
    if spec.params == LEVELS:
        return AtRecall(spec)
    if spec.params == PERSISTENCE:
        return Rbp(spec)
    if spec.params == NONE:
        return Single(spec) if spec.metric is not None else Counted(spec)
    return InfNdcg(spec)


MEASURES: dict[str, Measure] = {spec.name: _entry(spec) for spec in SPECS}
"""Every measure of the vocabulary (:data:`.._vocabulary.SPECS`), in trec_eval's order
of the report; with no ``-m``, those whose ``in_default``."""

PYTREC_EVAL = {
    spec.name: (
        AtRecall(spec, spec.pytrec_eval_metric) if spec.pytrec_eval_metric else MEASURES[spec.name]
    )
    for spec in SPECS
}
"""The registry as pytrec_eval computes it (:class:`._pytrec.RelevanceEvaluator`):
pytrec_eval bundles trec_eval 9, whose recall levels of interpolated precision round
``fraction * R + 0.9`` down (trec_eval 10.0: to the nearest)."""

OFFICIAL_SET = OFFICIAL
"""trec_eval's ``official`` measures, which it prints without ``-m``: ``-m official``."""


def measure_columns(staged, options: RankingOptions, measures: Measures, bound_levels) -> Columns:
    """Every measure's report columns, in the order of ``measures``: those of binary
    relevance (with ``rank_requests``) summed together from one order of the staged
    rows, the others by their own ``columns``."""
    requested = {r: r.measure.rank_requests(r.params) for r in measures}
    rank = [r for r in measures if requested[r] is not None]
    summed: dict = {}
    if rank and bound_levels is None:
        requests = [requested[r] or () for r in rank]
        flat = tuple(request for group in requests for request in group)
        ranked = options.replace(metric=flat[0][0], k=None)
        values = query_values(staged, ranked, measures=flat).values
        start = 0
        for request in rank:
            names = request.measure.names(request.params)
            summed[request] = [(n, values[:, start + i]) for i, n in enumerate(names)]
            start += len(names)
    columns = []
    for request in measures:
        if request in summed:
            columns.extend(summed[request])
        else:
            columns.extend(request.measure.columns(staged, options, request.params, bound_levels))
    return columns


def needs_strata(measures: Measures) -> bool:
    """Whether some of the measures read qrels with strata (sample_eval.pl's)."""
    return any(request.measure.sampled_pool for request in measures)


_OFFICIAL = "official"  # trec_eval's nickname of OFFICIAL_SET

COMMAND = "this command"  # who takes the measures, in messages: the trec-eval command


def usage(where: str = COMMAND) -> str:
    """What the measures are called, for messages; ``where`` names who takes them."""
    names = ", ".join(measure.usage for measure in MEASURES.values())
    return f"{where} computes {names}"


class Request(NamedTuple):
    """One measure to report, with its ``-m`` parameters (None: its defaults);
    ``pytrec_eval``: computed as pytrec_eval computes it (:data:`PYTREC_EVAL`)."""

    name: str
    params: str | None
    pytrec_eval: bool = False

    @property
    def measure(self) -> Measure:
        return (PYTREC_EVAL if self.pytrec_eval else MEASURES)[self.name]


Measures = tuple[Request, ...]


def parse_measure(text: str, *, where: str = COMMAND) -> tuple[str, str | None]:
    """One ``-m`` value: the measure's name and its parameters (None if none).

    The name is everything before the first '.', as trec_eval reads it. Raises
    ValueError for an unknown measure or bad parameters; ``where`` names who takes
    the measures in the messages (:func:`usage`).
    """
    name, dot, params = text.partition(".")
    if name == _OFFICIAL:  # trec_eval's nickname: measures_from expands it
        return name, None
    if name not in MEASURES:
        raise ValueError(f"unknown measure {text!r}; {usage(where)}.")
    if not dot:
        return name, None
    if not params:
        raise ValueError(f"measure {text!r} has no parameters after the '.'; {usage(where)}.")
    check_params(name, params, where=where)
    return name, params


def check_params(name: str, params: str, *, where: str = COMMAND) -> None:
    """A measure's ``check`` of its parameters, its messages naming ``where``."""
    try:
        MEASURES[name].check(params)
    except ValueError as error:
        if where == COMMAND:
            raise
        raise ValueError(str(error).replace(usage(), usage(where))) from None


def measures_from(specs: list[tuple[str, str | None]] | None) -> Measures:
    """The measures of all ``-m`` options, in the registry's order; none means ndcg
    and ndcg_cut with their defaults (the measures whose ``in_default`` is not False).

    A measure given with and without parameters takes the parameters, as in
    trec_eval; different parameters for one measure are an error.
    """
    if not specs:
        return tuple(
            Request(name, None) for name, measure in MEASURES.items() if measure.in_default
        )
    params: dict[str, str | None] = {}
    specs = [
        (member, None) if name == _OFFICIAL else (name, given)
        for name, given in specs
        for member in (OFFICIAL_SET if name == _OFFICIAL else (name,))
    ]
    for name, given in specs:
        previous = params.get(name)
        if given is None:
            params.setdefault(name, None)
        elif previous is None or previous == given:
            params[name] = given
        else:
            raise ValueError(
                f"measure {name} is given twice with different parameters ({previous!r} "
                f"and {given!r}); give its parameters once."
            )
    for name, given in params.items():
        if given is not None:
            MEASURES[name].check(given)
    return tuple(Request(name, params[name]) for name in MEASURES if name in params)
