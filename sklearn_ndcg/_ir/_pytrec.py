"""pytrec_eval's interface: :class:`RelevanceEvaluator` over the dicts every retrieval
harness passes (``{qid: {docno: relevance}}``, ``{qid: {docno: score}}``), converted
into the tables of a run and its qrels by :func:`.._metrics.tables_of` (below
``_ir``, since ``query_scores`` takes the dicts too).

The evaluation is the ``trec-eval`` command's (:func:`._report.trec_eval_scores`): one
join, one staging, each measure of the registry summed from it.
"""

from __future__ import annotations

from collections.abc import Mapping
from numbers import Real

import numpy as np

from .._metrics import (
    empty_rankings,
    own_documents,
    query_bytes,
    tables_of,
    without_own_documents,
)
from .._validate_params import StrOptions, validate_params
from ._dicts import float32_scores as _float32
from ._dicts import join_dicts, qrels_levels
from ._join import id_bytes
from ._read import decoded
from ._report import joined_scores, trec_eval_scores, unranked_scores
from ._spellings import pytrec_measures
from ._tables import TrecQrels, TrecRun

_WHERE = "RelevanceEvaluator (measures=)"  # who takes the measures, in messages


class RelevanceEvaluator:
    """The ``RelevanceEvaluator`` of pytrec_eval, from this package's data path.

    Swap ``pytrec_eval.RelevanceEvaluator`` for this class and the values stay
    trec_eval's (to 1e-12): the same measure names, the same keys, the same order of
    tied scores (``ties="docno"``). pytrec_eval stores the scores as float32, so that
    scores float32 cannot tell apart tie (1.00000001 and 1.0) and are then ordered by
    document id; this class ranks the float64 scores, as the trec_eval binary does;
    ``score_dtype="float32"`` rounds them to float32 first and reproduces pytrec_eval
    exactly. Beyond pytrec_eval, judgments may be floats, and ``ties="average"`` gives
    each measure its exact expected value over the orders of tied documents, so that
    no value depends on the order of the run's entries.

    Read more in the :ref:`User Guide <trec_measures>`.

    Parameters
    ----------
    query_relevance : dict of dict
        The qrels, ``{qid: {docno: relevance}}``; relevance an int or a float, a
        negative one meaning "in the pool but not judged" (trec_eval's reading).
    measures : set or list of str
        The measure names of trec_eval as pytrec_eval takes them: "ndcg", "ndcg_cut"
        (its cutoffs 5, 10, ..., 1000) or "ndcg_cut.10", "map", "map_cut.10",
        "recip_rank", "P" or "P.10", "recall" or "recall.100", "success" or
        "success.1"; several cutoffs as "P.5,10". Every spelling of pytrec_eval is
        read as it reads it: "ndcg_cut_10", "P_5,10", cutoffs given for one measure
        in several spellings merged ("P.5" and "P_10" is "P.5,10"), and its nicknames
        ("official", ...) where this package has all the measures they stand for.
    relevance_level : float, default=1
        A document is relevant when its relevance is at least this, for every
        measure but NDCG (trec_eval's ``-l``).
    judged_docs_only_flag : bool, default=False
        Remove the documents the qrels lack from each ranking first (``-J``).
    ties : {"docno", "average"}, default="docno"
        How documents with equal scores are ordered:

        - "docno": by decreasing document id, as trec_eval and pytrec_eval.
        - "average": each measure's expected value over the orders of tied documents.
    ignore_identical_ids : bool, default=False
        Drop every ranked document whose id is its query's id before scoring, the qrels
        untouched (BEIR's and MTEB's name). BEIR's ``EvaluateRetrieval.evaluate`` does
        it by default, since in ArguAna, Quora and CQADupStack the query is itself a
        document of the corpus, which a retriever finds first; on MIRACL dropping them
        loses score (mteb PRs #642 and #833), so it is a choice per evaluator. A query
        whose ranking is then empty scores as an empty ranking (see :meth:`evaluate`).
    score_dtype : {"float64", "float32"}, default="float64"
        The precision at which scores are ranked:

        - "float64": as given, as the trec_eval binary ranks them.
        - "float32": rounded to float32 first, as pytrec_eval stores them: scores
          that only differ beyond float32's precision tie (then ordered by
          ``ties``), which reproduces pytrec_eval's values (and published figures
          computed with it) exactly.

    See Also
    --------
    evaluate_run : One measure of a run, with its mean and per-query values.

    Examples
    --------
    >>> from sklearn_ndcg import RelevanceEvaluator
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}}
    >>> run = {"q1": {"d1": 0.5, "d2": 0.9, "d3": 0.5}}
    >>> evaluator = RelevanceEvaluator(qrels, {"recip_rank", "P.2", "map"})
    >>> evaluator.evaluate(run)
    {'q1': {'map': 0.5833333333333333, 'recip_rank': 0.5, 'P_2': 0.5}}

    With ``ties="average"``, ``d1`` and ``d3`` (tied, both relevant) share ranks 2 and 3
    whatever their order; here every order gives the same values:

    >>> RelevanceEvaluator(qrels, {"recip_rank"}, ties="average").evaluate(run)
    {'q1': {'recip_rank': 0.5}}

    pytrec_eval's spellings, and a judged query with an empty ranking (0, as in
    pytrec_eval):

    >>> RelevanceEvaluator(qrels, {"ndcg_cut_10", "P_1"}).evaluate({"q1": {}})
    {'q1': {'P_1': 0.0, 'ndcg_cut_10': 0.0}}

    The query's own document (BEIR's ``ignore_identical_ids``), and scores that tie
    only in float32, as pytrec_eval ranks them (``d3``, relevant, then ranks before
    ``d2`` by document id):

    >>> own = {"q1": {"q1": 2.0, "d3": 1.0}}
    >>> RelevanceEvaluator(qrels, {"recip_rank"}, ignore_identical_ids=True).evaluate(own)
    {'q1': {'recip_rank': 1.0}}
    >>> close = {"q1": {"d2": 1.00000001, "d3": 1.0}}
    >>> RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(close)
    {'q1': {'recip_rank': 0.5}}
    >>> RelevanceEvaluator(qrels, {"recip_rank"}, score_dtype="float32").evaluate(close)
    {'q1': {'recip_rank': 1.0}}
    """

    @validate_params(
        {
            "query_relevance": [Mapping],
            "measures": [set, frozenset, list, tuple],
            "relevance_level": [Real],
            "judged_docs_only_flag": ["boolean"],
            "ties": [StrOptions({"docno", "average"})],
            "ignore_identical_ids": ["boolean"],
            "score_dtype": [StrOptions({"float64", "float32"})],
        },
        prefer_skip_nested_validation=True,
    )
    def __init__(
        self,
        query_relevance,
        measures,
        relevance_level=1,
        judged_docs_only_flag=False,
        *,
        ties="docno",
        ignore_identical_ids=False,
        score_dtype="float64",
    ):
        # converted once: dicts of levels (str ids), else tables (which give the errors)
        self._levels = qrels_levels(query_relevance)
        self._tables = None
        if self._levels is None:
            qid, docno, relevance = tables_of(query_relevance, "query_relevance", "relevance")
            self._tables = TrecQrels(qid, docno, relevance)
        if not all(isinstance(text, str) for text in measures) or not measures:
            raise TypeError(f"measures must be a non-empty set of names; got {measures!r}.")
        self.measures_ = pytrec_measures(sorted(measures), where=_WHERE)
        self.relevance_level = relevance_level
        self.judged_docs_only_flag = judged_docs_only_flag
        self.ties = ties
        self.ignore_identical_ids = ignore_identical_ids
        self.score_dtype = score_dtype

    @property
    def qrels_(self) -> TrecQrels:
        """The qrels as tables (ids as numpy bytes)."""
        if self._tables is None:
            levels = self._levels.levels  # set where the tables are not
            self._tables = TrecQrels(*tables_of(levels, "query_relevance", "relevance"))
        return self._tables

    def evaluate(self, scores: Mapping) -> dict[str, dict[str, float]]:
        """Each judged query's measures: ``{qid: {measure: value}}``.

        Parameters
        ----------
        scores : dict of dict
            The run, ``{qid: {docno: score}}``; higher scores rank first. Queries
            without judgments are left out, as in pytrec_eval. A judged query whose
            ranking is empty (``{qid: {}}``, or emptied by ``ignore_identical_ids``)
            scores as a query that retrieved nothing, as in pytrec_eval: 0, but
            ``num_rel`` (its relevant documents), ``gm_map`` (the log of the floor,
            1e-5) and ``iprec_at_recall`` (0 / 0, NaN, where a level asks for no
            document).

        Returns
        -------
        dict
            ``{qid: {name: value}}``, names as trec_eval prints them (``P_10``,
            ``ndcg_cut_10``).
        """
        if self.ignore_identical_ids:
            scores = without_own_documents(scores)
        options = {
            "judged_only": self.judged_docs_only_flag,
            "relevance_level": self.relevance_level,
            "ties": self.ties,
        }
        float32 = self.score_dtype == "float32"
        # a judged query with an empty ranking scores as trec_eval -c scores a judged
        # query the run lacks (pytrec_eval's value): evaluated with -c, then the queries
        # the run lacks left out
        empty = isinstance(scores, Mapping) and bool(empty_rankings(scores))
        joined = None
        if self._levels is not None:  # str ids: joined by dict lookups
            joined = join_dicts(self._levels, scores, self.ties == "docno", float32=float32)
        if joined is not None:
            rows, score, permutation = joined
            levels = self._levels.levels
            if levels.keys().isdisjoint(scores):
                return {}
            if not score.shape[0]:  # only empty rankings: each judged query scores 0
                return self._unranked([query for query in scores if query in levels])
            report = joined_scores(
                rows,
                score,
                permutation,
                self._levels.level,
                self.measures_,
                complete=empty,
                max_docs=None,
                bounds=False,
                **options,
            )
        else:
            qid, docno, score = tables_of(scores, "scores", "score")
            if self.ignore_identical_ids:  # ids compared as text, as the join compares them
                keep = ~own_documents(qid, docno)
                qid, docno, score = qid[keep], docno[keep], score[keep]
            queries = query_bytes(scores)
            judged = np.isin(queries, self.qrels_.qid)
            if not judged.any():
                return {}
            empty = bool(np.isin(queries[judged], qid, invert=True).any())
            if not qid.shape[0]:
                return self._unranked(decoded(queries[judged]).tolist())
            run = TrecRun(qid, docno, _float32(score) if float32 else score, None)
            report = trec_eval_scores(self.qrels_, run, self.measures_, complete=empty, **options)
            if empty:  # the queries of the run only (tables: ids as bytes)
                keep = np.isin(id_bytes(report.qid), queries)
                report = report._replace(
                    qid=report.qid[keep],
                    columns=[(name, values[keep]) for name, values in report.columns],
                )
        names = [name for name, _ in report.columns]
        rows = np.column_stack([values for _, values in report.columns]).tolist()
        result = {q: dict(zip(names, row)) for q, row in zip(report.qid.tolist(), rows)}
        if empty and joined is not None:  # the queries of the run only
            result = {query: values for query, values in result.items() if query in scores}
        return result

    def _unranked(self, queries: list[str]) -> dict[str, dict[str, float]]:
        """The values of judged queries whose rankings are all empty, scored by the
        engine as queries that retrieved nothing."""
        report = unranked_scores(
            self.qrels_,
            self.measures_,
            judged_only=self.judged_docs_only_flag,
            relevance_level=self.relevance_level,
            stand_in=False,
        )
        names = [name for name, _ in report.columns]
        rows = np.column_stack([values for _, values in report.columns]).tolist()
        result = dict(zip(report.qid.tolist(), rows))
        return {query: dict(zip(names, result[query])) for query in queries}


def tables_of_text(nested: Mapping, name: str, value: str) -> tuple[np.ndarray, ...]:
    """:func:`tables_of` with the ids as str (object arrays), as evaluate_run's tables."""
    qid, docno, numbers = tables_of(nested, name, value)
    return decoded(qid), decoded(docno), numbers
