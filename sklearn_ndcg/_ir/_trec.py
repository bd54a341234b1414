"""TREC run and qrels files read as text, and the NDCG of a run against its qrels
(``evaluate_run``): the public functions, validated with scikit-learn's helpers."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from numbers import Real
from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._engine import JudgmentPool, as_float_array, as_score_array, missing_rows, weighted_mean
from .._metrics import (
    QueryBounds,
    QueryScores,
    check_levels,
    query_bytes,
    refuse_changed_rules,
)
from .._options import (
    COMMON_PARAMS,
    DEFAULT_TIES,
    DEFAULT_UNJUDGED,
    MISSING_QUERIES,
    NDCG_PARAMS,
    TIES,
    UNJUDGED,
    metric_names,
)
from .._validate_params import StrOptions, validate_params
from .._warn import warn
from ._evaluation import (
    Settings,
    first_query_text,
    qrels_bytes,
    score_blocks,
    score_joined,
    without_own_documents,
)
from ._files import read_trec_qrels, read_trec_run
from ._join import Joined, join_run, refuse_duplicate_pairs, refuse_unjudged_run
from ._pytrec import tables_of_text
from ._read import QRELS, decoded, read_columns
from ._sampled import INFNDCG, evaluate_inferred, read_sampled_qrels, sampled_columns
from ._stream import NotGrouped, query_blocks
from ._tables import TrecQrels, TrecRun, read_bytes, read_qrels_bytes, read_run_bytes

__all__ = [
    "RunEvaluation",
    "TrecQrels",
    "TrecRun",
    "evaluate_run",
    "read_trec_qrels",
    "read_trec_run",
]


class RunEvaluation(NamedTuple):
    """NDCG (or DCG) of a run against qrels, returned by :func:`evaluate_run`.

    ``ties`` says the tie rule the values were computed with: ``evaluate_run``'s
    default "average" (the mean over the orders of tied documents), or "docno"
    (trec_eval's and :class:`RelevanceEvaluator`'s order by document id).
    """

    score: float
    per_query: QueryScores | QueryBounds

    @property
    def ties(self) -> str | None:
        """The tie rule of the values ("average", "docno"...)."""
        return self.per_query.ties

    def __repr__(self) -> str:
        return (
            f"RunEvaluation(score={self.score!r}, per_query={self.per_query!r}, ties={self.ties!r})"
        )


RunEvaluation.score.__doc__ = (
    "Mean over the evaluated queries (NaN values left out); as trec_eval's 'all' line, "
    "the sum for the counts (num_ret, num_rel, num_rel_ret) and for gm_map, whose "
    "per-query values are logs (pytrec_eval's), the geometric mean."
)
RunEvaluation.per_query.__doc__ = (
    "The value of each evaluated query, queries sorted by id (:class:`QueryScores`)."
)


# column names accepted in a DataFrame, in order of preference
_ALIASES = {
    "qid": ("qid", "query_id", "q_id"),
    "docno": ("docno", "doc_id", "docid"),
    "score": ("score",),
    "relevance": ("relevance", "label", "rel"),
}


def _columns(table, name: str, fields: tuple[str, str, str]) -> list:
    """The three columns of a run or qrels: a TrecRun or TrecQrels, a tuple, or a
    DataFrame (pandas, polars) with the columns ``fields`` or their aliases."""
    own, other = (TrecRun, TrecQrels) if fields[2] == "score" else (TrecQrels, TrecRun)
    if isinstance(table, other):
        raise TypeError(
            f"{name} is a {other.__name__}; a {own.__name__} was expected (are run and "
            "qrels swapped?)."
        )
    if isinstance(table, own):
        return list(table[:3])
    if hasattr(table, "columns") and not isinstance(table, np.ndarray):
        present = [str(column) for column in table.columns]
        columns = []
        for field in fields:
            found = [alias for alias in _ALIASES[field] if alias in present]
            if not found:
                raise ValueError(
                    f"{name} has no column {' or '.join(map(repr, _ALIASES[field]))}; "
                    f"expected the columns {', '.join(fields)} (or their aliases), got "
                    f"{present}."
                )
            column = table[found[0]]
            columns.append(column.to_numpy() if hasattr(column, "to_numpy") else column)
        return columns
    if isinstance(table, tuple) and len(table) == 3:
        return list(table)
    length = f" of length {len(table)}" if isinstance(table, tuple) else ""
    raise TypeError(
        f"{name} must be a {own.__name__}, a tuple ({', '.join(fields)}) of three "
        f"array-likes, or a DataFrame with those columns; got {type(table).__name__}{length}."
    )


def _ids(values, what: str, *, as_read: bool = False) -> np.ndarray:
    """Ids as a 1-D object array of str (numbers converted with ``str``); ``as_read``:
    a column of :func:`read_trec_run` or :func:`read_trec_qrels` as the bytes it was
    read from (numpy ``S``), neither checked nor encoded again."""
    array = np.asarray(values)
    raw = read_bytes(array) if as_read else None
    if raw is not None:
        return raw
    if array.ndim != 1:
        raise ValueError(f"{what} must be 1-D, one id per document; got shape {array.shape}.")
    if array.dtype.kind == "O" and set(map(type, array)) <= {str}:
        return array  # already str: the common case, checked at C speed
    missing = missing_rows(array)
    if missing.shape[0]:
        raise ValueError(
            f"{what} has missing values (None, NaN or NA), e.g. at row {missing[0]}; "
            "every document needs an id."
        )
    return array.astype(str).astype(object)


def _id_types(values) -> str:
    """The types of some ids, for messages: a dtype, or the Python types of an object array."""
    array = np.asarray(values)
    if array.dtype.kind in "US":
        return "str" if array.dtype.kind == "U" else "bytes"
    if array.dtype.kind != "O":
        return str(array.dtype)
    return " and ".join(sorted({type(value).__name__ for value in array.tolist()}))


def _check_table(table, name: str, fields: tuple[str, str, str], *, as_read: bool = False) -> tuple:
    """The ids (object arrays of str; with ``as_read``, a reader's columns as the bytes
    they were read from) and values of a run or qrels, and its document ids as given
    (whose types a warning names)."""
    qid, docno, values = _columns(table, name, fields)
    given_docno = docno
    owner = f"{name}'" if name.endswith("s") else f"{name}'s"  # the qrels' ids, the run's
    qid = _ids(qid, f"{owner} {fields[0]}", as_read=as_read)
    docno = _ids(docno, f"{owner} {fields[1]}", as_read=as_read)
    if fields[2] == "score":
        values = as_score_array(values, f"{owner} score")
    else:
        values = as_float_array(values, f"{owner} relevance")
    if values.ndim != 1 or not qid.shape[0] == docno.shape[0] == values.shape[0]:
        n_values = values.shape[0] if values.ndim == 1 else f"shape {values.shape} of"
        raise ValueError(
            f"{name} has {qid.shape[0]} {fields[0]}, {docno.shape[0]} {fields[1]} and "
            f"{n_values} {fields[2]} values; give one of each per document."
        )
    if qid.shape[0] == 0:
        raise ValueError(f"{name} is empty; at least one document is needed.")
    return qid, docno, values, given_docno


def _warn_nothing_matches(joined: Joined, run_docno, qrels_docno) -> None:
    """Warn when no ranked document is in the qrels (every one would gain 0), naming
    the types of both tables' document ids as given."""
    if np.isnan(joined.label).all():
        _warn_nothing_matches_types(_id_types(run_docno), _id_types(qrels_docno))


def _warn_nothing_matches_types(run_types: str, qrels_types: str) -> None:
    """The warning of :func:`_warn_nothing_matches`, on the user's line."""
    warn(
        "no ranked document of the run is in the qrels, so every ranked document "
        f"gains 0; the run's docno are {run_types}, the qrels' docno {qrels_types}, "
        "compared as strings (1.0 and 1 differ): do the document ids match?",
        UserWarning,
    )


def _resolve_judged_only(unjudged: str, judged_only: bool | None) -> str:
    """``unjudged`` from itself or from its deprecated alias ``judged_only``."""
    if judged_only is None:
        return unjudged
    if unjudged is not DEFAULT_UNJUDGED:
        raise ValueError(
            f"judged_only is the deprecated name of unjudged; got unjudged={unjudged!r} "
            f"and judged_only={judged_only!r}. Give unjudged alone."
        )
    replacement = "drop" if judged_only else "zero"
    warn(
        f"judged_only was renamed unjudged in 0.2 and will be removed in 0.3 (the name the "
        f"metric functions use for trec_eval's -J); use unjudged={replacement!r} instead "
        f"of judged_only={judged_only!r}.",
        FutureWarning,
    )
    return replacement


@validate_params(
    {
        "run": ["array-like", str, os.PathLike],
        "qrels": ["array-like", str, os.PathLike],
        "metric": [str, list, tuple],
        "relevance_level": [Real],
        "k": COMMON_PARAMS["k"],
        "gain": COMMON_PARAMS["gain"],
        "discount": COMMON_PARAMS["discount"],
        "ties": TIES,
        **NDCG_PARAMS,
        "unjudged": [StrOptions(set(UNJUDGED))],
        "judged_only": ["boolean", None],
        "missing_queries": [StrOptions(set(MISSING_QUERIES))],
        "bounds": ["boolean"],
        "levels": ["array-like", None],
        "ignore_identical_ids": ["boolean"],
    },
    prefer_skip_nested_validation=True,
)
def evaluate_run(
    run: TrecRun | tuple | object,
    qrels: TrecQrels | tuple | object,
    *,
    metric: str = "ndcg",
    k: int | None = None,
    gain: str | Mapping | Callable | ArrayLike = "linear",
    discount: str | Callable = "log2",
    ties: str = DEFAULT_TIES,
    zero_division: float = 0.0,
    normalize: str = "ideal",
    unjudged: str = DEFAULT_UNJUDGED,
    missing_queries: str = "drop",
    judged_only: bool | None = None,
    bounds: bool = False,
    levels: ArrayLike | None = None,
    relevance_level: float = 1,
    ignore_identical_ids: bool = False,
) -> RunEvaluation | dict[str, RunEvaluation]:
    """NDCG of a run against relevance judgments (qrels), matched by document id.

    The information retrieval setting: a system ranks documents for each
    query (the run), and assessors judged a pool of documents (the qrels).
    The run is joined with the qrels on (query id, document id); a ranked
    document the qrels do not list is unjudged and gains 0, and the ideal DCG
    of a query comes from all its judged documents, retrieved or not, so
    relevant documents the run missed count against it (see
    :class:`JudgmentPool`). Queries of the run without judgments are left out; a
    judged query whose ranking is empty (``{qid: {}}`` in pytrec_eval's dicts, or
    emptied by ``ignore_identical_ids``) scores as a query that retrieved nothing, as
    with ``missing_queries="zero"`` and as pytrec_eval scores it (see
    :func:`query_scores`).

    Read more in the :ref:`User Guide <judgment_pools>`.

    Parameters
    ----------
    run : TrecRun, tuple, DataFrame, str or path-like
        The ranked documents: a :class:`TrecRun`, pytrec_eval's dict ``{qid: {docno:
        score}}``, a tuple ``(qid, docno, score)`` of array-likes, or a pandas or
        polars DataFrame with the columns ``qid`` (or ``query_id``, ``q_id``), ``docno`` (or
        ``doc_id``, ``docid``) and ``score``. Higher scores rank first. Or
        the path of a run file (read as :func:`read_trec_run` reads it), which
        is evaluated as the ``sklearn-ndcg trec-eval`` command evaluates it:
        read in chunks with ids as bytes, each query evaluated as soon as its
        lines are read (the whole file at once if a query's lines are not
        together), with no Python object per line.
    qrels : TrecQrels, tuple, DataFrame, str or path-like
        The judged documents: a :class:`TrecQrels`, pytrec_eval's dict ``{qid:
        {docno: relevance}}`` (integer or float levels), a tuple ``(qid, docno,
        relevance)`` of array-likes, or a DataFrame with the columns ``qid``,
        ``docno`` and ``relevance`` (or ``label``, ``rel``), aliases as for
        ``run``; or the path of a qrels file (read as :func:`read_trec_qrels`
        reads it; with ``metric="infNDCG"``, as :func:`read_sampled_qrels`).
    metric : str or list of str, default="ndcg"
        Which metric to compute per query: "ndcg", "dcg", "infNDCG", or a name as
        trec_eval writes it in its ``-q`` lines ("ndcg_cut_10", "map", "map_cut_10",
        "recip_rank", "P_10", "recall_100", "success_1"; see :func:`query_scores`),
        a document being relevant when its level is at least ``relevance_level``. A
        list of names returns a dict of :class:`RunEvaluation` by name, all from one
        join of the run with the qrels and one staging. The measures of binary
        relevance ignore ``gain``, ``discount`` and ``normalize`` (a preset combines
        with them) and read a negative level as not relevant. "infNDCG" is
        the inferred NDCG of a
        pool judged by stratified sampling, as NIST's ``sample_eval.pl``
        computes it: ``qrels`` then needs a stratum column (a
        :class:`SampledQrels` from :func:`read_sampled_qrels`, a tuple ``(qid,
        docno, stratum, relevance)`` or a DataFrame with a ``stratum`` column,
        relevance -1 for a pooled document that was not sampled), and the
        script's rules replace the options below (linear gain, log2 discount,
        the first 1000 documents, ties by decreasing document id), which must
        keep their defaults; ``missing_queries`` applies. Read more in the
        :ref:`User Guide <sampled_pools>`.
    k : int, default=None
        Only the top ``k`` documents of each query count (the cutoff of NDCG@k and DCG@k),
        in the DCG and in the ideal DCG. None means all documents. With ``k``, trec_eval's
        ``ndcg_cut_k``.
    gain : {"linear", "exponential"}, mapping, sequence or callable, default="linear"
        Gain of a document from its relevance label: "linear" (the label, as scikit-learn),
        "exponential" (``2**label - 1``, as LightGBM and XGBoost), a mapping from label to
        gain, a sequence indexed by label (LightGBM's ``label_gain``) or a callable; see
        :func:`~sklearn_ndcg.ndcg_score`. The built-in gains refuse negative levels;
        :func:`~sklearn_ndcg.positive_part_gain` counts them as 0, as trec_eval does.
    discount : {"log2", "reciprocal", "none"} or callable, default="log2"
        Weight of the document at rank ``r`` (from 1): "log2" (``1 / log2(r + 1)``),
        "reciprocal" (``1 / r``), "none" (1) or a callable; see
        :func:`~sklearn_ndcg.ndcg_score`.
    ties : {"average", "first", "optimistic", "pessimistic", "docno"}, default="average"
        How documents with equal scores are ordered: "average" (the mean DCG over all their
        orders, as scikit-learn), "first" (input order), "optimistic" (by decreasing gain),
        "pessimistic" (by increasing gain) or "docno" (trec_eval's order by document id,
        which needs tie-free scores where document ids are unknown); see
        :func:`~sklearn_ndcg.ndcg_score`. Here, where document ids are known, "docno" orders
        tied scores by decreasing document id (byte-wise string order), as trec_eval and
        pytrec_eval do.
    zero_division : {0.0, 1.0, np.nan}, default=0.0
        NDCG of a query whose ideal DCG is not positive (no relevant document): 0.0 as in
        scikit-learn, 1.0 as in LightGBM and XGBoost, or ``np.nan`` to leave such queries
        out of the mean; see :func:`~sklearn_ndcg.ndcg_score`.
    normalize : {"ideal", "minmax"}, default="ideal"
        What the DCG of each query is divided by: the ideal DCG ("ideal", scikit-learn's
        NDCG), or the range between the worst and the ideal DCG ("minmax"); see
        :func:`~sklearn_ndcg.ndcg_score`.
    unjudged : {"zero", "drop"}, default="zero"
        Ranked documents the qrels do not list gain 0 ("zero"), or are removed
        from the ranking before ranks are assigned ("drop", trec_eval's
        ``-J``); the same option as in :func:`ndcg_score`. As in trec_eval, "drop"
        also removes the documents the qrels list with a negative level ("in the
        pool but not judged" for trec_eval).
    missing_queries : {"drop", "zero"}, default="drop"
        Queries of the qrels that the run lacks are left out ("drop", as
        trec_eval by default) or score 0 ("zero", trec_eval's ``-c``).
    judged_only : bool, default=None
        Deprecated alias: ``judged_only=True`` is ``unjudged="drop"`` and
        ``judged_only=False`` is ``unjudged="zero"``.

        .. deprecated:: 0.2
            Use ``unjudged``; ``judged_only`` will be removed in 0.3.
    bounds : bool, default=False
        Also return, per query, ``judged`` (the judged documents in the top ``k`` over
        ``k``, or over the number ranked if fewer: ir_measures' ``Judged@k``) and
        ``lower`` and ``upper``, the smallest and largest NDCG over every assignment of
        ``levels`` to the unjudged ranked documents (see :func:`query_scores`);
        ``per_query`` is then a :class:`QueryBounds`, whose ``mean()`` gives the means.
        A document the qrels list with a negative level is in the pool but not judged
        (trec_eval's reading, as with ``unjudged="drop"``): unjudged, as in the
        ``trec-eval -B`` command. Read more in the :ref:`User Guide <unjudged_bounds>`.
    levels : array-like, default=None
        With ``bounds=True``: the judgment scale, the levels an unjudged document may
        take. None means 0 and the distinct levels of the qrels that are not negative
        (an unjudged document can always be non-relevant).
    relevance_level : float, default=1
        The measures of binary relevance (``map``, ``P_10``...): a document is relevant
        when its label is at least this (trec_eval's ``-l``, pytrec_eval's
        ``relevance_level``). NDCG and DCG do not read it.
    ignore_identical_ids : bool, default=False
        Drop every ranked document whose id is its query's id (compared as text)
        before scoring, the qrels untouched (BEIR's and MTEB's name). BEIR's
        ``EvaluateRetrieval.evaluate`` does it by default, since in ArguAna, Quora and
        CQADupStack the query is itself a document of the corpus, which a retriever
        finds first; on MIRACL dropping them loses score (mteb PRs #642 and #833), so
        it is a choice per call. A judged query whose ranking is then empty scores as
        one that retrieved nothing (see above). A run file is then read whole
        (:func:`read_trec_run`).

    Returns
    -------
    result : RunEvaluation
        Named tuple ``(score, per_query)``: the mean over the evaluated
        queries, and their values as :class:`QueryScores` (:class:`QueryBounds`
        with ``bounds=True``), queries sorted by id.

    Raises
    ------
    ValueError
        If the run or the qrels list a (qid, docno) pair twice, lack a column,
        or no query of the run is judged (with ``missing_queries="drop"``).

    Warns
    -----
    UserWarning
        If no ranked document is in the qrels (every one would gain 0); the
        message names the types of both tables' document ids, since ids of
        different types (e.g. ``1.0`` and ``1``) never match.

    See Also
    --------
    read_trec_run : Read a run file.
    read_trec_qrels : Read a qrels file.
    query_scores : NDCG of each query of a ranking with labels.
    JudgmentPool : The judged documents, for the metric functions and scorers.

    Notes
    -----
    Query and document ids are compared as strings (numbers are converted
    with ``str``).

    From file paths, the values are those of the tables :func:`read_trec_run`
    and :func:`read_trec_qrels` return, to the last bits of float64 (queries
    evaluated in other groups may round their sums differently), at the
    command's speed: the tables' Python objects (a string per line) are not made.

    With ``**CONVENTIONS["trec_eval"]`` (``ties="docno"``,
    ``gain=positive_part_gain``), the result equals trec_eval's ``ndcg`` (and
    with ``k`` its ``ndcg_cut_k``), per query and in the mean, also with
    ``unjudged="drop"`` (``-J``) and ``missing_queries="zero"`` (``-c``); the
    ``sklearn-ndcg trec-eval`` command prints trec_eval's report.

    Examples
    --------
    Query ``q1`` has two relevant documents; the run ranks an irrelevant one
    first and misses ``d4``, which still counts in the ideal DCG:

    >>> from sklearn_ndcg import evaluate_run
    >>> run = (["q1", "q1", "q2"], ["d1", "d2", "d3"], [2.0, 1.0, 5.0])
    >>> qrels = (["q1", "q1", "q1", "q2"], ["d1", "d2", "d4", "d3"], [0, 1, 2, 1])
    >>> result = evaluate_run(run, qrels)
    >>> round(result.score, 4)
    0.6199
    >>> result.per_query.qid.tolist(), result.per_query.score.round(4).tolist()
    (['q1', 'q2'], [0.2398, 1.0])

    Tied scores: the mean over their orders, the input order, or trec_eval's
    rule (decreasing document id, here ``d4``, ``d2``, ``d1``):

    >>> tied = (["q1", "q1", "q1"], ["d1", "d2", "d4"], [1.0, 1.0, 1.0])
    >>> round(evaluate_run(tied, qrels).score, 4)
    0.81
    >>> round(evaluate_run(tied, qrels, ties="first").score, 4)
    0.6199
    >>> evaluate_run(tied, qrels, ties="docno").score
    1.0

    From files, as the ``sklearn-ndcg trec-eval`` command reads them:

    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn_ndcg import CONVENTIONS
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     run_path, qrels_path = Path(folder) / "run.txt", Path(folder) / "qrels.txt"
    ...     _ = run_path.write_text("q1 Q0 d1 1 2.0 bm25\\nq1 Q0 d2 2 1.0 bm25\\n")
    ...     _ = qrels_path.write_text("q1 0 d1 0\\nq1 0 d2 1\\nq1 0 d4 2\\n")
    ...     result = evaluate_run(run_path, qrels_path, **CONVENTIONS["trec_eval"])
    >>> round(result.score, 4)
    0.2398
    """
    queries = None  # the run's queries, empty rankings too (dicts; ignore_identical_ids)
    if isinstance(run, Mapping):  # pytrec_eval's dicts
        queries = decoded(query_bytes(run))
        run = tables_of_text(run, "run", "score")
    if isinstance(qrels, Mapping):
        qrels = tables_of_text(qrels, "qrels", "relevance")
    if isinstance(metric, str) and metric == INFNDCG:
        return _evaluate_inferred(run, qrels, missing_queries, locals())
    names = metric_names(metric, k)  # a list: one join and one staging for every name
    unjudged = _resolve_judged_only(unjudged, judged_only)
    settings = Settings(
        metric, k, gain, discount, ties, zero_division, normalize, unjudged,
        missing_queries, bounds, levels, relevance_level,
    )  # fmt: skip
    if ignore_identical_ids and isinstance(run, (str, os.PathLike)):  # read whole
        run = read_trec_run(run)
    if _is_path(run):  # the trec-eval command's path: the run streamed by queries
        return _evaluation(_evaluate_run_file(run, qrels, names, settings), names)
    if _is_path(qrels):
        qrels = _read_qrels(qrels)
    run_qid, run_docno, score, run_given = _check_table(
        run, "run", ("qid", "docno", "score"), as_read=True
    )
    qrels_qid, qrels_docno, relevance, qrels_given = _check_table(
        qrels, "qrels", ("qid", "docno", "relevance"), as_read=True
    )
    _check_levels(relevance, qrels_qid, names, settings)
    if ignore_identical_ids:
        run_qid, run_docno, score, queries = without_own_documents(
            run_qid, run_docno, score, queries
        )
    # a judged query with an empty ranking scores as a judged query the run lacks
    # with missing_queries="zero" (pytrec_eval's value); the others stay left out
    only_ranked = (
        missing_queries == "drop"
        and queries is not None
        and np.setdiff1d(np.intersect1d(queries, _text(qrels_qid)), _text(run_qid)).shape[0] > 0
    )
    if only_ranked:
        settings = settings._replace(missing_queries="zero")
    qrels = TrecQrels(qrels_qid, qrels_docno, relevance)
    joined = join_run(run_qid, run_docno, qrels)
    if missing_queries == "drop" and not only_ranked:
        refuse_unjudged_run(joined)
    _warn_nothing_matches(joined, run_given, qrels_given)
    per_query = score_joined(joined, score, relevance, settings)
    if only_ranked and queries is not None:
        per_query = _of_queries(per_query, queries)
    if levels is not None and not bounds:
        raise ValueError("levels is the judgment scale of bounds=True; give bounds=True too.")
    return _evaluation(per_query, names)


def _evaluation(per_query, names) -> RunEvaluation | dict[str, RunEvaluation]:
    """The RunEvaluation of per-query values (a dict of them by name for a list), each
    summarized as its measure is (:attr:`.._options.MetricName.summary`: the geometric
    mean of gm_map, whose per-query values are logs; else the mean)."""
    summaries = {name.name: name.summary for name in names}
    if isinstance(per_query, dict):
        return {name: _one(values, summaries[name]) for name, values in per_query.items()}
    return _one(per_query, summaries[names[0].name])


def _of_queries(per_query, queries: np.ndarray):
    """Per-query values (a dict of them by name) of ``queries`` only."""
    if isinstance(per_query, dict):
        return {name: _of_queries(values, queries) for name, values in per_query.items()}
    keep = np.isin(_text(per_query.qid), queries)
    return per_query._make((field[keep] for field in per_query), ties=per_query.ties)


def _one(per_query, summary: str = "mean") -> RunEvaluation:
    """The evaluation of per-query values, summarized as trec_eval's ``all`` line: the
    mean, the sum (the counts), the geometric mean (gm_map's values are logs)."""
    if summary == "sum":
        return RunEvaluation(float(np.nansum(per_query.score)), per_query)
    mean = weighted_mean(per_query.score, None)
    return RunEvaluation(float(np.exp(mean)) if summary == "geometric" else mean, per_query)


def _text(ids: np.ndarray) -> np.ndarray:
    """Ids as str (object array), from str or the bytes a reader kept."""
    return decoded(ids) if ids.dtype.kind == "S" else ids


def _is_path(table) -> bool:
    return isinstance(table, (str, os.PathLike))


def _read_qrels(path) -> TrecQrels:
    """A qrels file as :func:`read_trec_qrels` reads it."""
    (qid, docno), relevance = read_columns(path, QRELS)
    return TrecQrels(decoded(qid), decoded(docno), relevance)


def _check_levels(relevance, qid, names, settings: Settings) -> None:
    """The qrels' levels checked as every door checks them (:func:`check_levels`):
    negative levels refused under a named gain of NDCG or DCG, naming the first one's
    query; a relevance level above every level warned."""
    check_levels(
        relevance,
        names,
        gain=settings.gain,
        normalize=settings.normalize,
        relevance_level=settings.relevance_level,
        what="qrels",
        qid=lambda: qid,
    )


def _evaluate_run_file(run_path, qrels, names, settings: Settings):
    """evaluate_run of a run file: read and evaluated block by block, as the
    ``trec-eval`` command does (the whole run at once where it is not grouped by
    query)."""
    if _is_path(qrels):
        qrels = read_qrels_bytes(qrels)
        if not qrels.qid.shape[0]:
            raise ValueError("qrels is empty; at least one document is needed.")
        qrels_docno = None  # read as text: its ids are str
    else:
        *columns, qrels_docno = _check_table(
            qrels, "qrels", ("qid", "docno", "relevance"), as_read=True
        )
        qrels = qrels_bytes(*columns)
    _check_levels(qrels.relevance, qrels.qid, names, settings)
    refuse_duplicate_pairs(qrels.qid, qrels.docno, "qrels")
    if settings.bounds and settings.levels is None:  # the levels of all the qrels
        settings = settings._replace(
            levels=JudgmentPool(np.zeros(qrels.qid.shape[0]), qrels.relevance).default_levels()
        )
    try:
        streamed = score_blocks(query_blocks(run_path), qrels, settings, run_path)
    except NotGrouped:  # a query in two places: the whole run at once
        streamed = score_blocks([read_run_bytes(run_path)], qrels, settings, run_path)
    if streamed.n_rows == 0:
        raise ValueError("run is empty; at least one document is needed.")
    if streamed.per_query is None:
        raise ValueError(
            "no query of the run is in the qrels (the run has queries such as "
            f"{first_query_text(streamed.first_qid)!r}, the qrels "
            f"{first_query_text(qrels.qid[0])!r}); do the query ids match?"
        )
    if not streamed.matched:
        _warn_nothing_matches_types("str", "str" if qrels_docno is None else _id_types(qrels_docno))
    if settings.levels is not None and not settings.bounds:
        raise ValueError("levels is the judgment scale of bounds=True; give bounds=True too.")
    return streamed.per_query


# evaluate_run's options that infNDCG fixes (sample_eval.pl's rules), with their defaults
_FIXED_BY_INFNDCG = {
    "k": None,
    "gain": "linear",
    "discount": "log2",
    "ties": "average",
    "zero_division": 0.0,
    "normalize": "ideal",
    "unjudged": DEFAULT_UNJUDGED,
    "judged_only": None,
    "bounds": False,
    "levels": None,
}


def _evaluate_inferred(run, qrels, missing_queries: str, given: dict) -> RunEvaluation:
    """``evaluate_run(..., metric="infNDCG")``: the options it fixes must keep their
    defaults."""
    refuse_changed_rules(_FIXED_BY_INFNDCG, given)
    if _is_path(run):
        run = read_trec_run(run)
    if _is_path(qrels):
        qrels = read_sampled_qrels(qrels)
    run_qid, run_docno, score, _ = _check_table(run, "run", ("qid", "docno", "score"))
    columns = sampled_columns(qrels, _ids)
    result = evaluate_inferred(
        run_qid, run_docno, score, columns, complete=missing_queries == "zero"
    )
    per_query = QueryScores(result.qid, result.value, np.ones(result.value.shape[0]))
    return RunEvaluation(weighted_mean(per_query.score, None), per_query)
