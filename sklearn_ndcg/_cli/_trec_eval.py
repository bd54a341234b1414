"""The ``trec-eval`` command's output: trec_eval's report lines, written as the files'
bytes were read.

The evaluation (the measures, ``-J``, ``-c``, ``-M``, ``-B``, streaming) is
:mod:`sklearn_ndcg._ir`'s; trec_eval's rules and where this command departs from them
are listed in the command's help (``sklearn-ndcg trec-eval --help``, written in
``_main.py``).
"""

from __future__ import annotations

import sys
from typing import TextIO

import numpy as np

from .._ir import Measures, Report, evaluate_files


def format_report(report: Report, per_query: bool) -> str:
    """trec_eval's lines: with ``per_query``, each query's values, then the means."""
    lines: list[str] = []
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

    ``options`` are those of :func:`sklearn_ndcg._ir.trec_eval_scores`.
    """
    report = evaluate_files(qrels_path, run_path, measures, **options)
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
