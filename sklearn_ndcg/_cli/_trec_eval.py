"""The ``trec-eval`` command: trec_eval's ndcg and ndcg_cut lines, computed by the engine.

trec_eval's rules (from its m_ndcg.c, m_ndcg_cut.c and form_res_rels.c) and
where this command departs from them are listed in the command's help
(``sklearn-ndcg trec-eval --help``, written in ``_main.py``). The run and the qrels
are staged once (:func:`._engine.stage`: the run in trec_eval's tie-free
order with ``ties="first"``, unjudged documents with missing labels, the qrels as a
judgment pool of levels); each measure then sums them with its own gain, the ideal DCG
holding the positive part of each judged document's gain (levels below 0 gain 0), which
makes it trec_eval's; ``ndcg_cut`` sums every cutoff from one ordering.

Files are read in chunks with ids as bytes (:mod:`._ir._read`); a run grouped by query
is evaluated chunk by chunk as its queries complete (:func:`streamed_scores`, one
staging per chunk), any other run (and ``-B``) read whole first.
"""

from __future__ import annotations

import math
import re
import sys
from functools import partial
from typing import NamedTuple, TextIO

import numpy as np

from .._engine import JudgmentPool, RankingOptions, query_values, stage
from .._ir._read import RUN, decoded, iter_columns
from .._ir._trec import (
    TrecQrels,
    TrecRun,
    id_bytes,
    id_runs,
    join_run,
    read_qrels_bytes,
    read_run_bytes,
    refuse_duplicate_pairs,
    refuse_unjudged_run,
    trec_order,
)
from .._options import check_cutoffs

MEASURES = ("ndcg", "ndcg_cut")
DEFAULT_CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
_USAGE = (
    "this command computes ndcg, ndcg.<level>=<gain>,... (e.g. ndcg.1=3,2=9), ndcg_cut "
    "and ndcg_cut.<k>,... (e.g. ndcg_cut.10,20)"
)
_PAIR = re.compile(r"([+-]?[0-9]+)=(.*)")
_LEADING_INTEGER = re.compile(r"[ \t\n\r\f\v]*([+-]?[0-9]+)")


class Measures(NamedTuple):
    """What to report: ``ndcg`` under its printed name (None: not asked for)
    with its custom ``(level, gain)`` pairs, and the cutoffs of ``ndcg_cut``
    (empty: not asked for), increasing."""

    ndcg: str | None
    gains: tuple[tuple[int, float], ...]
    cutoffs: tuple[int, ...]


def parse_measure(text: str) -> tuple[str, str | None]:
    """One ``-m`` value: the measure's name and its parameters (None if none).

    The name is everything before the first '.', as trec_eval reads it. Raises
    ValueError for an unknown measure or bad parameters.
    """
    name, dot, params = text.partition(".")
    if name not in MEASURES:
        raise ValueError(f"unknown measure {text!r}; {_USAGE}.")
    if not dot:
        return name, None
    if not params:
        raise ValueError(f"measure {text!r} has no parameters after the '.'; {_USAGE}.")
    if name == "ndcg":
        _gains(params)
    else:
        _cutoffs(params)
    return name, params


def _gains(params: str) -> tuple[tuple[int, float], ...]:
    """``level=gain`` pairs of ``ndcg``; levels are integers, gains finite numbers."""
    pairs = []
    for item in params.split(","):
        match = _PAIR.fullmatch(item)
        if match is None:
            raise ValueError(f"ndcg parameter {item!r} is not of the form level=gain; {_USAGE}.")
        level = int(match[1])
        try:
            gain = float(match[2])
        except ValueError:
            gain = math.nan
        if not math.isfinite(gain):
            raise ValueError(f"ndcg gain {match[2]!r} of level {level} is not a finite number.")
        if level < 0:
            raise ValueError(
                f"ndcg level {level} is negative; negative qrels levels mark documents "
                "that were not judged, which gain 0."
            )
        if level in dict(pairs):
            raise ValueError(f"ndcg parameters give level {level} more than one gain.")
        pairs.append((level, gain))
    return tuple(pairs)


def _cutoffs(params: str) -> tuple[int, ...]:
    """Cutoffs of ``ndcg_cut``, read like C's ``atol`` ("23.4" is 23), increasing."""
    cutoffs = []
    for item in params.split(","):
        match = _LEADING_INTEGER.match(item)
        cutoffs.append(int(match[1]) if match else 0)
    return tuple(check_cutoffs(cutoffs, name=f"the cutoffs of ndcg_cut.{params}").tolist())


def measures_from(specs: list[tuple[str, str | None]] | None) -> Measures:
    """The measures of all ``-m`` options; none means ndcg and ndcg_cut.

    A measure given with and without parameters takes the parameters, as in
    trec_eval; different parameters for one measure are an error.
    """
    if not specs:
        return Measures("ndcg", (), DEFAULT_CUTOFFS)
    params: dict[str, str | None] = {}
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
    ndcg, gains, cutoffs = None, (), ()
    if "ndcg" in params:
        given = params["ndcg"]
        ndcg = "ndcg" if given is None else f"ndcg_{given}"
        gains = () if given is None else _gains(given)
    if "ndcg_cut" in params:
        given = params["ndcg_cut"]
        cutoffs = DEFAULT_CUTOFFS if given is None else _cutoffs(given)
    return Measures(ndcg, gains, cutoffs)


class Report(NamedTuple):
    """The evaluated queries in trec_eval's order, and each measure's values."""

    qid: np.ndarray
    columns: list[tuple[str, np.ndarray]]


def _top_of_each_query(qid_code: np.ndarray, score: np.ndarray, n: int) -> np.ndarray:
    """Mask of the first ``n`` documents of each query by decreasing (tie-free) score."""
    order = np.lexsort((-score, qid_code))
    grouped = qid_code[order]
    rows = np.arange(order.shape[0])
    starts = np.ones(order.shape[0], dtype=bool)
    starts[1:] = grouped[1:] != grouped[:-1]
    position = rows - np.maximum.accumulate(np.where(starts, rows, 0))
    keep = np.empty(order.shape[0], dtype=bool)
    keep[order] = position < n
    return keep


def _gains_of_judged(levels: np.ndarray, pairs: tuple[tuple[int, float], ...]) -> np.ndarray:
    """Gain of each level: its custom gain or the level itself; 0 below level 0
    (judged non-relevant: in the pool, never in the ideal DCG)."""
    gains = levels.copy()
    for level, gain in pairs:
        gains[levels == level] = gain
    gains[levels < 0] = 0.0
    return gains


def trec_eval_scores(
    qrels: TrecQrels,
    run: TrecRun,
    measures: Measures,
    *,
    complete: bool = False,
    judged_only: bool = False,
    max_docs: int | None = None,
    bounds: bool = False,
) -> Report:
    """The values trec_eval reports for ``measures``, per evaluated query.

    ``complete`` is ``-c``, ``judged_only`` ``-J`` and ``max_docs`` ``-M``;
    ``bounds`` (``-B``) adds ``M@judged``, ``M@lower`` and ``M@upper`` after each
    measure ``M`` (:func:`._engine.query_values` with ``levels``).
    """
    if bounds and judged_only:
        raise ValueError(
            "-B bounds NDCG over the levels of the unjudged documents, which -J removes; "
            "give one of them."
        )
    for table, name in ((run, "run"), (qrels, "qrels")):
        if table.qid.shape[0] == 0:
            raise ValueError(f"the {name} file has no entries.")
    _refuse_nan(run)
    joined = join_run(run.qid, run.docno, qrels)
    if not complete:
        refuse_unjudged_run(joined)
    # query codes order like the ids; tied scores in trec_eval's order, ties="first"
    score, qid, label = run.score, joined.run_qid, joined.label
    permutation = trec_order(joined, score)
    if permutation is not None:
        score, qid, label = score[permutation], qid[permutation], label[permutation]
    if max_docs is not None:
        keep = _top_of_each_query(qid, score, max_docs)
        qid, score, label = qid[keep], score[keep], label[keep]
    judged = np.where(label >= 0, label, np.nan)  # negative: in the pool, not judged
    level = qrels.relevance
    # one staging for every measure: the pool holds the levels, each measure its gain
    options = RankingOptions(
        ties="first",
        pool=JudgmentPool(joined.qrels_qid, level),
        unjudged="drop" if judged_only else "zero",
        missing_queries="zero" if complete else "drop",
    )
    staged = stage(judged, score, options, qid=qid)
    columns = []
    if measures.ndcg is not None:
        # the ideal DCG holds the positive gains only: levels below 0 gain 0 in the pool
        custom = options.replace(gain=partial(_gains_of_judged, pairs=measures.gains))
        columns.append((measures.ndcg, query_values(staged, custom).values))
        if bounds:
            columns.extend(_bound_columns(measures.ndcg, staged, custom, level))
    if measures.cutoffs:
        plain = options.replace(gain=partial(_gains_of_judged, pairs=()))
        values = query_values(staged, plain, ks=np.asarray(measures.cutoffs)).values
        for i, k in enumerate(measures.cutoffs):
            columns.append((f"ndcg_cut_{k}", values[:, i]))
            if bounds:
                at_k = plain.replace(k=int(k))
                columns.extend(_bound_columns(f"ndcg_cut_{k}", staged, at_k, level))
    ids = staged.ids
    return Report(joined.qids[ids], columns)


def _refuse_nan(run: TrecRun) -> None:
    nan = np.flatnonzero(np.isnan(run.score))
    if nan.shape[0]:
        raise ValueError(
            f"the run's score of document {_shown(run.docno[nan[0]])!r} of query "
            f"{_shown(run.qid[nan[0]])!r} is not a number (NaN); it cannot be ranked."
        )


def _shown(value: str | bytes) -> str:
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else value


def _bound_columns(name: str, staged, options: RankingOptions, level: np.ndarray) -> list:
    """``-B``: Judged@k and the NDCG bounds of one measure, as report columns."""
    result = query_values(staged, options, levels=np.unique(level)).bounds
    return [
        (f"{name}@judged", result.judged),
        (f"{name}@lower", result.lower),
        (f"{name}@upper", result.upper),
    ]


def format_report(report: Report, per_query: bool) -> str:
    """trec_eval's lines: with ``per_query``, each query's values, then the means."""
    lines = []
    if per_query:
        for i, qid in enumerate(report.qid):
            lines.extend(f"{name:<22}\t{qid}\t{values[i]:6.4f}" for name, values in report.columns)
    for name, values in report.columns:
        mean = np.cumsum(values)[-1] / values.shape[0]  # summed in query order, as in C
        lines.append(f"{name:<22}\tall\t{mean:6.4f}")
    return "".join(line + "\n" for line in lines)


def run_trec_eval(
    qrels_path: str,
    run_path: str,
    measures: Measures,
    *,
    per_query: bool = False,
    out: TextIO | None = None,
    **options,
) -> None:
    """Read both files, evaluate and write the report to ``out`` (stdout).

    ``options`` are those of :func:`trec_eval_scores`.
    """
    qrels = read_qrels_bytes(qrels_path)
    bounds, report = options.pop("bounds", False), None
    if qrels.qid.shape[0] and not bounds:  # -B needs the levels of all the qrels
        report = streamed_scores(qrels, run_path, measures, **options)
    if report is None:  # -B, no qrels, or a run not grouped by query: the whole run
        run = read_run_bytes(run_path)
        report = trec_eval_scores(qrels, run, measures, bounds=bounds, **options)
    _write(format_report(report, per_query), sys.stdout if out is None else out)


def _write(text: str, stream: TextIO) -> None:
    """Write ids as the files held them: UTF-8, other bytes as they were read."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
        return
    stream.flush()
    buffer.write(text.encode("utf-8", "surrogateescape"))
    buffer.flush()


def _names(measures: Measures) -> list[str]:
    """The report's columns without -B: ndcg, then ndcg_cut_k for each cutoff."""
    names = [measures.ndcg] if measures.ndcg is not None else []
    return names + [f"ndcg_cut_{k}" for k in measures.cutoffs]


def streamed_scores(
    qrels: TrecQrels,
    run_path,
    measures: Measures,
    *,
    complete: bool = False,
    judged_only: bool = False,
    max_docs: int | None = None,
    chunk_size: int | None = None,
) -> Report | None:
    """:func:`trec_eval_scores` of a run file read chunk by chunk, its queries
    evaluated as they complete: memory holds one chunk, not the run.

    Needs the run grouped by query (each query's lines together, as trec_eval
    writes them, in any order of the queries); returns None as soon as a query
    appears in two places, for the caller to read the whole run instead. ``qrels``
    holds bytes ids (:func:`read_qrels_bytes`).
    """
    refuse_duplicate_pairs(qrels.qid, qrels.docno, "qrels")
    qrels_ids, qrels_code = np.unique(qrels.qid, return_inverse=True)
    qrels_code = qrels_code.reshape(-1)
    options = {"judged_only": judged_only, "max_docs": max_docs}
    reports, seen, first_qid, n_rows = [], set(), None, 0
    carry = None  # the last query of the chunk before, which may go on
    chunks = iter_columns(run_path, RUN._replace(ids=(0, 2)), chunk_size=chunk_size)
    for part in [*chunks, None]:
        if part is None:  # the end: the last query is complete
            if carry is None:
                break
            qid, docno, score, cut = *carry, carry[0].shape[0]
        else:
            qid, docno, score = *part.ids, part.number
            if carry is not None:
                qid, docno, score = (
                    np.concatenate(pair) for pair in zip(carry, (qid, docno, score))
                )
            if not qid.shape[0]:
                continue
            starts = id_runs(qid)
            ids = qid[starts].tolist()
            if len(set(ids)) < len(ids) or not seen.isdisjoint(ids):
                return None  # not grouped by query
            seen.update(ids[:-1])
            cut = starts[-1]
            carry = (qid[cut:], docno[cut:], score[cut:])
            first_qid = qid[0] if first_qid is None else first_qid
        n_rows += cut
        run = TrecRun(qid[:cut], docno[:cut], score[:cut], None)
        block = np.unique(run.qid[id_runs(run.qid)])
        found = np.searchsorted(qrels_ids, block).clip(max=qrels_ids.shape[0] - 1)
        judged = np.isin(qrels_code, found[qrels_ids[found] == block])
        if judged.any():
            block_qrels = TrecQrels(*(column[judged] for column in qrels))
            reports.append(trec_eval_scores(block_qrels, run, measures, complete=True, **options))
        elif run.qid.shape[0]:  # nothing to evaluate; the run's own checks still hold
            _refuse_nan(run)
            refuse_duplicate_pairs(run.qid, run.docno, "run")
    if n_rows == 0:
        raise ValueError("the run file has no entries.")
    if not reports and not complete:
        raise ValueError(
            "no query of the run is in the qrels (the run has queries such as "
            f"{_shown(first_qid)!r}, the qrels {_shown(qrels.qid[0])!r}); do the query ids "
            "match?"
        )
    qid = np.concatenate([report.qid for report in reports] or [np.empty(0, object)])
    names = [name for name, _ in reports[0].columns] if reports else _names(measures)
    columns = [
        np.concatenate([report.columns[i][1] for report in reports] or [np.empty(0)])
        for i in range(len(names))
    ]
    if complete:  # queries of the qrels the run lacks score 0 (trec_eval's -c)
        missing = decoded(np.setdiff1d(qrels_ids, id_bytes(qid)))
        qid = np.concatenate([qid, missing])
        columns = [np.concatenate([values, np.zeros(missing.shape[0])]) for values in columns]
    order = np.argsort(id_bytes(qid), kind="stable")  # byte-wise, as strcmp
    return Report(qid[order], [(name, values[order]) for name, values in zip(names, columns)])
