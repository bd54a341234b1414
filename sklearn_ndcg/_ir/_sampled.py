"""Pools judged by stratified sampling: their qrels read as text
(``read_sampled_qrels``) and ``evaluate_run(..., metric="infNDCG")``'s evaluation,
validated with scikit-learn's helpers."""

from __future__ import annotations

import os

import numpy as np

from .._engine import JudgmentPool, as_float_array
from .._validate_params import validate_params
from ._infndcg import Inferred, inferred_ndcg
from ._read import SAMPLED_QRELS, decoded, read_columns
from ._tables import SampledQrels, TrecQrels

__all__ = ["SampledQrels", "read_sampled_qrels"]

INFNDCG = "infNDCG"
_FIELDS = ("qid", "docno", "stratum", "relevance")
_ALIASES = {
    "qid": ("qid", "query_id", "q_id"),
    "docno": ("docno", "doc_id", "docid"),
    "stratum": ("stratum", "category"),
    "relevance": ("relevance", "label", "rel"),
}


@validate_params({"path": [str, os.PathLike]}, prefer_skip_nested_validation=True)
def read_sampled_qrels(path: str | os.PathLike) -> SampledQrels:
    """Read the qrels of a stratified sampled pool: ``qid iter docno stratum rel`` per line.

    The format NIST's ``sample_eval.pl`` reads (TREC's sampled tracks): every
    line is a pooled document, ``stratum`` the stratum it was sampled from and
    ``rel`` its level, ``-1`` (any negative level) for a pooled document that
    was not sampled. Fields are separated by blanks or tabs; the second is
    ignored. Blank lines and lines starting with ``#`` are skipped, and so is
    a UTF-8 byte-order mark at the start of the file. Evaluate a run against
    it with ``evaluate_run(run, qrels, metric="infNDCG")``.

    Read more in the :ref:`User Guide <sampled_pools>`.

    Parameters
    ----------
    path : str or path-like
        The qrels file.

    Returns
    -------
    qrels : SampledQrels
        Named tuple ``(qid, docno, stratum, relevance)`` of arrays, one entry
        per line, in file order; relevance levels as float64.

    Raises
    ------
    ValueError
        If a line does not have five fields or its relevance is not an
        integer; the message names the file and the line.

    See Also
    --------
    read_trec_qrels : Read qrels without strata.
    evaluate_run : NDCG (and infNDCG) of a run against qrels.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn_ndcg import read_sampled_qrels
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "qrels.txt"
    ...     _ = path.write_text("1 0 doc-a 1 2\\n1 0 doc-b 1 -1\\n1 0 doc-c 2 0\\n")
    ...     qrels = read_sampled_qrels(path)
    >>> qrels.stratum.tolist(), qrels.relevance.tolist()
    (['1', '1', '2'], [2.0, -1.0, 0.0])
    """
    (qid, docno, stratum), relevance = read_columns(path, SAMPLED_QRELS)
    return SampledQrels(decoded(qid), decoded(docno), decoded(stratum), relevance)


def sampled_columns(qrels, ids) -> tuple[np.ndarray, ...]:
    """qid, docno, stratum (object arrays of str) and relevance of sampled qrels: a
    :class:`SampledQrels`, a tuple of four array-likes or a DataFrame with those
    columns (or their aliases); ``ids`` checks an id column."""
    if isinstance(qrels, SampledQrels) or (isinstance(qrels, tuple) and len(qrels) == 4):
        columns = list(qrels)
    elif hasattr(qrels, "columns") and not isinstance(qrels, np.ndarray):
        present = [str(column) for column in qrels.columns]
        columns = []
        for field in _FIELDS:
            found = [alias for alias in _ALIASES[field] if alias in present]
            if not found:
                raise ValueError(
                    f"qrels has no column {' or '.join(map(repr, _ALIASES[field]))}; "
                    f'metric="{INFNDCG}" needs the columns {", ".join(_FIELDS)}, got {present}.'
                )
            column = qrels[found[0]]
            columns.append(column.to_numpy() if hasattr(column, "to_numpy") else column)
    else:
        kind = type(qrels).__name__ + (
            f" of length {len(qrels)}" if isinstance(qrels, tuple) else ""
        )
        raise TypeError(
            f'metric="{INFNDCG}" needs qrels with strata: a SampledQrels '
            "(read_sampled_qrels), a tuple (qid, docno, stratum, relevance) of four "
            f"array-likes, or a DataFrame with those columns; got {kind}."
        )
    qid, docno = ids(columns[0], "qrels' qid"), ids(columns[1], "qrels' docno")
    stratum = np.asarray(columns[2], dtype=object)
    relevance = as_float_array(columns[3], "qrels' relevance")
    shapes = {array.shape for array in (qid, docno, stratum, relevance)}
    if len(shapes) != 1 or relevance.ndim != 1:
        raise ValueError(
            f"qrels has {qid.shape[0]} qid, {docno.shape[0]} docno, {stratum.shape} stratum "
            f"and {relevance.shape} relevance values; give one of each per pooled document."
        )
    if qid.shape[0] == 0:
        raise ValueError("qrels is empty; at least one pooled document is needed.")
    return qid, docno, stratum, relevance


def evaluate_inferred(run_qid, run_docno, score, qrels_columns, *, complete: bool) -> Inferred:
    """infNDCG of each query of a checked run against checked sampled qrels."""
    qid, docno, stratum, relevance = qrels_columns
    pool = JudgmentPool(qid, relevance, stratum=stratum)
    result = inferred_ndcg(
        run_qid, run_docno, score, TrecQrels(qid, docno, relevance), pool, complete=complete
    )
    if not complete and not result.qid.shape[0]:
        raise ValueError(
            f"no query of the run is in the qrels (the run has queries such as {run_qid[0]!r}, "
            f"the qrels {qid[0]!r}); do the query ids match?"
        )
    return result
