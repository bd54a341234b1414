"""trec_eval's report: the values of the measures, per evaluated query.

The run and the qrels are staged once (:func:`._engine.stage`: the run in
trec_eval's tie-free order with ``ties="first"``, unjudged documents with missing
labels, the qrels as a judgment pool of levels); each measure of the registry
(:mod:`._measures`) then sums them with its own gain. trec_eval's rules (from its
m_ndcg.c, m_ndcg_cut.c and form_res_rels.c) and where the command departs from them
are listed in the command's help.

Files are read in chunks with ids as bytes (:mod:`._read`); a run grouped by query is
evaluated chunk by chunk as its queries complete (:func:`streamed_scores`, one staging
per chunk), any other run (and ``-B``) read whole first. Numpy only.
"""

from __future__ import annotations

import os
from typing import Any, NamedTuple

import numpy as np

from .._engine import JudgmentPool, RankingOptions, stage
from .._vocabulary import LEVELS
from ._infndcg import inferred_ndcg
from ._join import (
    Joined,
    id_bytes,
    join_run,
    refuse_duplicate_pairs,
    refuse_unjudged_run,
    trec_order,
)
from ._measures import Measures, measure_columns, needs_strata
from ._read import decoded
from ._stream import NotGrouped, QrelsIndex, query_blocks
from ._tables import (
    TrecQrels,
    TrecRun,
    read_qrels_bytes,
    read_run_bytes,
    read_sampled_qrels_bytes,
)


class Report(NamedTuple):
    """The evaluated queries in trec_eval's order, and each measure's values;
    ``totals``, summaries that trec_eval reads from the whole qrels rather than from
    the per-query values (``num_rel`` under ``-c``)."""

    qid: np.ndarray
    columns: list[tuple[str, np.ndarray]]
    totals: dict[str, float] | None = None


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


def trec_eval_scores(
    qrels: TrecQrels,
    run: TrecRun,
    measures: Measures,
    *,
    complete: bool = False,
    judged_only: bool = False,
    max_docs: int | None = None,
    bounds: bool = False,
    relevance_level: int = 1,
    ties: str = "docno",
    ignore_identical_ids: bool = False,
    stand_in: bool = False,
) -> Report:
    """The values trec_eval reports for ``measures``, per evaluated query.

    ``ties`` "docno" is trec_eval's order of tied scores (by decreasing document id);
    "average" gives each measure its expected value over the orders of tied documents.

    ``complete`` is ``-c``, ``judged_only`` ``-J``, ``max_docs`` ``-M`` and
    ``relevance_level`` ``-l`` (the measures of binary relevance: a level at least
    this is relevant);
    ``bounds`` (``-B``) adds ``M@judged``, ``M@lower`` and ``M@upper`` after each
    measure ``M`` (:func:`._engine.query_values` with ``levels``).
    ``ignore_identical_ids`` drops the documents whose id is their query's first; a
    judged query left without documents scores as one the run lacks (``-c``).
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
    queries = None  # with documents dropped: the run's queries, emptied ones too
    if ignore_identical_ids:
        own = run.qid == run.docno
        if own.any():
            queries = np.unique(run.qid)
            if own.all():  # nothing left: the judged queries score as empty rankings
                scored = unranked_scores(
                    qrels,
                    measures,
                    judged_only=judged_only,
                    relevance_level=relevance_level,
                    stand_in=stand_in,
                )
                return _only(scored, queries, complete)
            run = run._replace(qid=run.qid[~own], docno=run.docno[~own], score=run.score[~own])
    joined = join_run(run.qid, run.docno, qrels)
    if not complete and queries is None:
        refuse_unjudged_run(joined)
    permutation = trec_order(joined, run.score) if ties == "docno" else None
    report = joined_scores(
        joined,
        run.score,
        permutation,
        qrels.relevance,
        measures,
        complete=complete or queries is not None,
        judged_only=judged_only,
        max_docs=max_docs,
        bounds=bounds,
        relevance_level=relevance_level,
        ties=ties,
        stand_in=stand_in,
    )
    return report if queries is None else _only(report, queries, complete)


def _only(report: Report, queries: np.ndarray, complete: bool) -> Report:
    """The report's queries that are among ``queries`` (all of them with ``complete``),
    refusing a report left empty as :func:`._join.refuse_unjudged_run` does."""
    if complete:
        return report
    keep = np.isin(id_bytes(report.qid), id_bytes(queries))
    if not keep.any():
        raise ValueError(
            "no query of the run is in the qrels (the run has queries such as "
            f"{_shown(queries[0])!r}); do the query ids match?"
        )
    return Report(report.qid[keep], [(name, values[keep]) for name, values in report.columns])


def joined_scores(
    joined: Joined,
    score: np.ndarray,
    permutation: np.ndarray | None,
    level: np.ndarray,
    measures: Measures,
    *,
    complete: bool,
    judged_only: bool,
    max_docs: int | None,
    bounds: bool,
    relevance_level: float,
    ties: str,
    stand_in: bool = False,
) -> Report:
    """:func:`trec_eval_scores` of a run joined with its qrels (``level``, the qrels'
    levels in the order of ``joined.qrels_qid``), its rows reordered by
    ``permutation`` (trec_eval's order of tied scores, :func:`._join.trec_order`, for
    ``ties="docno"``; None to keep them).

    A judged query without ranked documents (``complete``) retrieved nothing; with
    ``stand_in`` (the command's ``-c``), as trec_eval 10.0 scores it: a ranking of one
    unjudged document, shown as none (interpolated precision 0 rather than 0 / 0 where
    a recall level asks for no document; ``-J`` removes the stand-in)."""
    # query codes order like the ids; tied scores in trec_eval's order, ties="first"
    qid, label = joined.run_qid, joined.label
    if permutation is not None:
        score, qid, label = score[permutation], qid[permutation], label[permutation]
    if max_docs is not None:
        keep = _top_of_each_query(qid, score, max_docs)
        qid, score, label = qid[keep], score[keep], label[keep]
    judged = np.where(label >= 0, label, np.nan)  # negative: in the pool, not judged
    # one staging for every measure: the pool holds the levels, each measure its gain
    # trec_eval's ranking rules: log2 discount, tie-free order (ties="first" on the
    # staged order), the ideal DCG of the judged documents; an undefined query scores 0
    options = RankingOptions(
        ties="first" if ties == "docno" else ties,
        pool=JudgmentPool(joined.qrels_qid, level),
        unjudged="drop" if judged_only else "zero",
        missing_queries="zero" if complete else "drop",
        relevance_level=relevance_level,
    )
    staged = stage(judged, score, options, qid=qid)
    bound_levels = options.pool.default_levels() if bounds else None
    columns = measure_columns(staged, options, measures, bound_levels)
    if stand_in and not judged_only:  # only a query the run lacks holds such a NaN
        at_levels = {
            name
            for request in measures
            if request.measure.spec.params == LEVELS
            for name in request.measure.names(request.params)
        }
        columns = [(n, np.nan_to_num(v) if n in at_levels else v) for n, v in columns]
    ids = staged.ids  # type: ignore[union-attr]  # options.pool is set: a PoolStaged
    return Report(joined.qids[ids], columns)


def _refuse_nan(run: TrecRun) -> None:
    nan = np.flatnonzero(np.isnan(run.score))
    if nan.shape[0]:
        raise ValueError(
            f"the run's score of document {_shown(run.docno[nan[0]])!r} of query "
            f"{_shown(run.qid[nan[0]])!r} is not a number (NaN); it cannot be ranked."
        )


def _shown(value: str | bytes | None) -> str | None:
    return value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else value


def evaluate_files(
    qrels_path: str | os.PathLike,
    run_path: str | os.PathLike,
    measures: Measures,
    *,
    bounds: bool = False,
    **options,
) -> Report:
    """Read both files and evaluate: the run streamed query by query where it can be
    (:func:`streamed_scores`), else read whole (:func:`trec_eval_scores`).

    ``options`` are those of :func:`trec_eval_scores`. With infNDCG among the measures,
    the qrels are sample_eval.pl's, with strata (:func:`sampled_scores`).
    """
    if needs_strata(measures):
        return sampled_scores(qrels_path, run_path, measures, bounds=bounds, **options)
    qrels = read_qrels_bytes(qrels_path)
    report = None
    if qrels.qid.shape[0] and not bounds:  # -B needs the levels of all the qrels
        report = streamed_scores(qrels, run_path, measures, **options)
    if report is None:  # -B, no qrels, or a run not grouped by query: the whole run
        run = read_run_bytes(run_path)
        stand_in = bool(options.get("complete"))
        report = trec_eval_scores(qrels, run, measures, bounds=bounds, stand_in=stand_in, **options)
    if options.get("complete"):  # summaries trec_eval's -c reads from the whole qrels
        totals = {
            name: float((qrels.relevance > 0).sum())
            for request in measures
            for name in request.measure.names(request.params)
            if request.measure.spec.qrels_total
        }
        report = report._replace(totals=totals or None)
    return report


def streamed_scores(
    qrels: TrecQrels,
    run_path,
    measures: Measures,
    *,
    complete: bool = False,
    judged_only: bool = False,
    max_docs: int | None = None,
    chunk_size: int | None = None,
    relevance_level: int = 1,
    ignore_identical_ids: bool = False,
) -> Report | None:
    """:func:`trec_eval_scores` of a run file read chunk by chunk, its queries
    evaluated as they complete: memory holds one chunk, not the run.

    Needs the run grouped by query (each query's lines together, as trec_eval
    writes them, in any order of the queries); returns None as soon as a query
    appears in two places, for the caller to read the whole run instead. ``qrels``
    holds bytes ids (:func:`read_qrels_bytes`).
    """
    refuse_duplicate_pairs(qrels.qid, qrels.docno, "qrels")
    index = QrelsIndex(qrels)
    options: dict[str, Any] = {
        "judged_only": judged_only,
        "max_docs": max_docs,
        "relevance_level": relevance_level,
        "ignore_identical_ids": ignore_identical_ids,
    }
    reports, first_qid, n_rows = [], None, 0
    try:
        for run in query_blocks(run_path, chunk_size=chunk_size):
            first_qid = run.qid[0] if first_qid is None else first_qid
            n_rows += run.qid.shape[0]
            block_qrels = index.of(run.qid)
            if block_qrels is not None:
                reports.append(
                    trec_eval_scores(block_qrels, run, measures, complete=True, **options)
                )
            else:  # nothing to evaluate; the run's own checks still hold
                _refuse_nan(run)
                refuse_duplicate_pairs(run.qid, run.docno, "run")
    except NotGrouped:
        return None
    if n_rows == 0:
        raise ValueError("the run file has no entries.")
    if not reports and not complete:
        raise ValueError(
            "no query of the run is in the qrels (the run has queries such as "
            f"{_shown(first_qid)!r}, the qrels {_shown(qrels.qid[0])!r}); do the query ids "
            "match?"
        )
    qid = np.concatenate([report.qid for report in reports] or [np.empty(0, object)])
    names = (
        [name for name, _ in reports[0].columns]
        if reports
        else [name for request in measures for name in request.measure.names(request.params)]
    )
    columns = [
        np.concatenate([report.columns[i][1] for report in reports] or [np.empty(0)])
        for i in range(len(names))
    ]
    unranked = index.without(id_bytes(qid)) if complete else None
    if unranked is not None and unranked.qid.shape[0]:  # trec_eval's -c: scored as empty
        missing = unranked_scores(
            unranked,
            measures,
            judged_only=judged_only,
            relevance_level=relevance_level,
            stand_in=True,
        )
        qid = np.concatenate([qid, missing.qid])
        columns = [
            np.concatenate([values, extra]) for values, (_, extra) in zip(columns, missing.columns)
        ]
    order = np.argsort(id_bytes(qid), kind="stable")  # byte-wise, as strcmp
    return Report(qid[order], [(name, values[order]) for name, values in zip(names, columns)])


def unranked_scores(
    qrels: TrecQrels,
    measures: Measures,
    *,
    judged_only: bool,
    relevance_level: float,
    stand_in: bool,
) -> Report:
    """The report of judged queries the run lacks, scored by the engine as empty
    rankings (``stand_in``: as trec_eval's ``-c`` scores them, see
    :func:`joined_scores`): the one ranked row given is of a query no qrels line can
    hold (an empty id), and is left out."""
    empty_id = np.array([b""], dtype=object)
    joined = join_run(empty_id, empty_id, qrels)
    return joined_scores(
        joined, np.zeros(1), None, qrels.relevance, measures, complete=True, bounds=False,
        ties="docno", judged_only=judged_only, max_docs=None, relevance_level=relevance_level,
        stand_in=stand_in,
    )  # fmt: skip


def sampled_scores(
    qrels_path: str | os.PathLike,
    run_path: str | os.PathLike,
    measures: Measures,
    *,
    complete: bool = False,
    judged_only: bool = False,
    max_docs: int | None = None,
    bounds: bool = False,
    relevance_level: int = 1,
    ignore_identical_ids: bool = False,
) -> Report:
    """The report of measures that include infNDCG: the qrels read with strata
    (``qid iter docno stratum rel``), infNDCG as sample_eval.pl computes it
    (:func:`._infndcg.inferred_ndcg`), the other measures from the same qrels without
    their strata (a negative level: pooled, not judged) by :func:`trec_eval_scores`.

    ``-c`` (``complete``) applies; ``-J``, ``-M`` and ``-B`` are refused.
    """
    flags = [("-J", judged_only), ("-M", max_docs), ("-B", bounds)]
    flags.append(("--ignore-identical-ids", ignore_identical_ids))
    given = [flag for flag, on in flags if on]
    if given:
        raise ValueError(
            f"infNDCG follows sample_eval.pl's rules (the first 1000 documents, unsampled "
            f"documents estimated, not removed); {' and '.join(given)} cannot be combined "
            "with it."
        )
    sampled = read_sampled_qrels_bytes(qrels_path)
    run = read_run_bytes(run_path)
    for table, name in ((run, "run"), (sampled, "qrels")):
        if table.qid.shape[0] == 0:
            raise ValueError(f"the {name} file has no entries.")
    _refuse_nan(run)
    qrels = TrecQrels(sampled.qid, sampled.docno, sampled.relevance)
    try:
        pool = JudgmentPool(decoded(sampled.qid), qrels.relevance, stratum=decoded(sampled.stratum))
    except ValueError as error:
        raise ValueError(f"{os.fspath(qrels_path)}: {error}") from None
    inferred = inferred_ndcg(run.qid, run.docno, run.score, qrels, pool, complete=complete)
    others = tuple(request for request in measures if not request.measure.sampled_pool)
    report = Report(inferred.qid, [])
    if others:
        report = trec_eval_scores(
            qrels, run, others, complete=complete, relevance_level=relevance_level
        )
    elif not complete and not inferred.qid.shape[0]:
        raise ValueError(
            "no query of the run is in the qrels (the run has queries such as "
            f"{_shown(run.qid[0])!r}, the qrels {_shown(qrels.qid[0])!r}); do the query ids "
            "match?"
        )
    if not np.array_equal(report.qid, inferred.qid):  # the same queries, in the same order
        raise AssertionError("infNDCG and the other measures evaluated different queries")
    columns, others_columns = [], iter(report.columns)
    for request in measures:  # in the registry's order
        if request.measure.sampled_pool:
            columns.append((request.name, inferred.value))
        else:
            columns.extend(next(others_columns) for _ in request.measure.names(request.params))
    return Report(inferred.qid, columns)
