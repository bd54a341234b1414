"""The ``trec-eval`` command's output: trec_eval's report lines, written as the files'
bytes were read.

The evaluation (the measures, ``-J``, ``-c``, ``-M``, ``-B``, streaming) is
:mod:`sklearn_ndcg._ir`'s; trec_eval's rules and where this command departs from them
are listed in the command's help (``sklearn-ndcg trec-eval --help``, written in
``_main.py``).
"""

from __future__ import annotations

import sys
from typing import NamedTuple, TextIO

import numpy as np

from .._ir import MEASURES, Measures, Report, evaluate_files


def format_report(
    report: Report, per_query: bool, *, summary: bool = True, run_id: str | None = None
) -> str:
    """trec_eval's lines: with ``per_query``, each query's values, then (with
    ``summary``, not ``-n``) each measure's summary over the queries: the mean, or
    what its registry entry says (:data:`sklearn_ndcg._ir.SUMMARIES`); ``run_id`` is
    the ``runid`` line's."""
    rules = [_rules(name) for name, _ in report.columns]
    lines: list[str] = []
    if per_query:
        for i, qid in enumerate(report.qid):
            lines.extend(
                f"{name:<22}\t{qid}\t{_value(values[i], measure.integer)}"
                for (name, values), measure in zip(report.columns, rules)
                if measure.per_query
            )
    if not summary:
        return "".join(line + "\n" for line in lines)
    for (name, values), measure in zip(report.columns, rules):
        if measure.summary == "name":
            lines.append(f"{name:<22}\tall\t{run_id}")
            continue
        total = report.totals.get(name) if report.totals else None
        if total is None:
            total = _summary(measure.summary, values)
        lines.append(f"{name:<22}\tall\t{_value(total, measure.integer)}")
    return "".join(line + "\n" for line in lines)


class _Rule(NamedTuple):
    """How a report column prints (its registry entry's ``per_query``, ``integer``
    and ``summary``)."""

    per_query: bool = True
    integer: bool = False
    summary: str = "mean"


def _rules(name: str) -> _Rule:
    """The rule of a report column: its measure's where named as it, else (a measure
    with parameters, -B's columns) per query and a mean of 4 decimals."""
    measure = MEASURES.get(name)
    if measure is None:
        return _Rule()
    return _Rule(measure.per_query, measure.integer, measure.summary)


def _summary(kind: str, values: np.ndarray) -> float:
    """trec_eval's summary of one measure's per-query values, summed in query order as
    in C."""
    if kind == "count":
        return float(values.shape[0])
    total = np.cumsum(values)[-1] if values.shape[0] else 0.0
    if kind == "sum":
        return float(total)
    mean = total / values.shape[0]
    return float(np.exp(mean)) if kind == "geometric" else float(mean)


def _value(value: float, integer: bool) -> str:
    """A value as C's printf prints it ("%ld", "%6.4f"; a NaN with its sign)."""
    if np.isnan(value):
        return f"{'-nan' if np.signbit(value) else 'nan':>6}"
    return f"{int(value)}" if integer else f"{value:6.4f}"


def run_trec_eval(
    qrels_path: str,
    run_path: str,
    measures: Measures,
    *,
    per_query: bool = False,
    summary: bool = True,
    out: TextIO | None = None,
    **options,
) -> None:
    """Read both files, evaluate and write the report to ``out`` (stdout); without
    ``summary`` (``-n``) no ``all`` lines.

    ``options`` are those of :func:`sklearn_ndcg._ir.trec_eval_scores`.
    """
    report = evaluate_files(qrels_path, run_path, measures, **options)
    run_id = None
    if any(request.measure.summary == "name" for request in measures):
        run_id = last_run_id(run_path)
    text = format_report(report, per_query, summary=summary, run_id=run_id)
    _write(text, sys.stdout if out is None else out)


def last_run_id(path) -> str:
    """The run's name as trec_eval keeps it: the sixth field of its last line (blank
    lines and '#' lines skipped)."""
    with open(path, "rb") as file:
        file.seek(0, 2)
        end = file.tell()
        size = 4096
        while True:
            start = max(end - size, 0)
            file.seek(start)
            lines = [line for line in file.read().splitlines() if line.strip()]
            lines = [line for line in lines if not line.lstrip().startswith(b"#")]
            if start == 0 or len(lines) > 1:  # the last line whole
                break
            size *= 4
    fields = lines[-1].split() if lines else []
    return fields[5].decode("utf-8", "surrogateescape") if len(fields) > 5 else ""


def _write(text: str, stream: TextIO) -> None:
    """Write ids as the files held them: UTF-8, other bytes as they were read."""
    buffer = getattr(stream, "buffer", None)
    if buffer is None:
        stream.write(text)
        return
    stream.flush()
    buffer.write(text.encode("utf-8", "surrogateescape"))
    buffer.flush()
