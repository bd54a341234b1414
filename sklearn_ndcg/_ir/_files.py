"""TREC run and qrels files read as text: :func:`read_trec_run` and
:func:`read_trec_qrels` (integer levels, or float judgments with ``relevance="float"``),
validated with scikit-learn's helpers."""

from __future__ import annotations

import os

import numpy as np

from .._validate_params import StrOptions, validate_params
from ._read import QRELS, RUN, decoded, read_columns
from ._tables import TrecQrels, TrecRun, remember_bytes


@validate_params({"path": [str, os.PathLike]}, prefer_skip_nested_validation=True)
def read_trec_run(path: str | os.PathLike) -> TrecRun:
    """Read a run in TREC format: ``qid Q0 docno rank score run_id`` per line.

    Fields are separated by blanks or tabs. The second and fourth fields are
    ignored, as trec_eval does (documents are ranked by score), and so is
    anything after the run id. Blank lines and lines starting with ``#`` are
    skipped, and so is a UTF-8 byte-order mark at the start of the file.

    Read more in the :ref:`User Guide <judgment_pools>`.

    Parameters
    ----------
    path : str or path-like
        The run file.

    Returns
    -------
    run : TrecRun
        Named tuple ``(qid, docno, score, run_id)`` of arrays, one entry per
        line, in file order.

    Raises
    ------
    ValueError
        If a line has fewer than six fields or a score that is not a number
        (also Python-only spellings such as ``1_000``); the message names the
        file and the line.

    See Also
    --------
    read_trec_qrels : Read the relevance judgments.
    evaluate_run : NDCG of a run against qrels.

    Notes
    -----
    Ids are decoded as UTF-8 and compared as Python strings, which orders them
    as C's ``strcmp`` orders their bytes; bytes that are not UTF-8 are kept
    (as surrogate escapes) but may then order differently. Scores are read
    as Python's :class:`float` reads them (plain decimals by an exact
    vectorized parser, other spellings by :class:`float` itself), which agrees
    with C's ``atof`` on numbers; ``atof`` would read a malformed score as 0
    (or its leading number: ``1x`` as 1, ``1_000`` as 1, ``0x10`` as 16) where
    this function raises an error. The file is read in chunks of a few
    megabytes, each tokenized at once, with no Python work per line.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn_ndcg import read_trec_run
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "run.txt"
    ...     _ = path.write_text(
    ...         "# query 1\\n"
    ...         "1 Q0 doc-a 1 2.5 bm25\\n"
    ...         "1 Q0 doc-b 2 1.5 bm25\\n"
    ...     )
    ...     run = read_trec_run(path)
    >>> run.qid.tolist(), run.docno.tolist(), run.score.tolist()
    (['1', '1'], ['doc-a', 'doc-b'], [2.5, 1.5])
    """
    (qid, docno, run_id), score = read_columns(path, RUN)
    qid_text, docno_text = remember_bytes(decoded(qid), qid), remember_bytes(decoded(docno), docno)
    return TrecRun(qid_text, docno_text, score, decoded(run_id))


@validate_params(
    {"path": [str, os.PathLike], "relevance": [StrOptions({"integer", "float"})]},
    prefer_skip_nested_validation=True,
)
def read_trec_qrels(path: str | os.PathLike, *, relevance: str = "integer") -> TrecQrels:
    """Read relevance judgments (qrels) in TREC format: ``qid iter docno rel`` per line.

    Fields are separated by blanks or tabs; the second is ignored. The
    relevance is an integer level (or, with ``relevance="float"``, any finite
    number); trec_eval reads a negative level as "in the pool but not judged".
    Blank lines and lines starting with ``#`` are skipped, and so is a UTF-8
    byte-order mark at the start of the file.

    Read more in the :ref:`User Guide <judgment_pools>`.

    Parameters
    ----------
    path : str or path-like
        The qrels file.
    relevance : {"integer", "float"}, default="integer"
        What a relevance may be:

        - "integer": an integer level, as trec_eval reads them, also written with
          zero decimals ("1.0", "2.00", "-1.0": the integers they are); a "1.5" is
          refused rather than truncated to 1, as trec_eval's ``atol`` would, with a
          message naming ``relevance="float"``.
        - "float": any finite number (graded or model-made judgments, e.g. 0.7): NDCG
          gains the number itself with the linear gain, and the measures of binary
          relevance (``map``, ``P_10``...) count it relevant when at least their
          ``relevance_level``. trec_eval and pytrec_eval cannot read these.

    Returns
    -------
    qrels : TrecQrels
        Named tuple ``(qid, docno, relevance)`` of arrays, one entry per line,
        in file order; relevance levels as float64.

    Raises
    ------
    ValueError
        If a line does not have four fields or its relevance is not an
        integer (a number with ``relevance="float"``); the message names the
        file and the line.

    See Also
    --------
    read_trec_run : Read a run.
    evaluate_run : NDCG of a run against qrels.

    Notes
    -----
    trec_eval reads the relevance with C's ``atol``, which reads ``"1.5"`` as 1
    and ``"x"`` as 0; here both are errors. Ids are read as in
    :func:`read_trec_run`.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn_ndcg import read_trec_qrels
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "qrels.txt"
    ...     _ = path.write_text("1 0 doc-a 0\\n1 0 doc-b 2\\n\\n1 0 doc-c -1\\n")
    ...     qrels = read_trec_qrels(path)
    >>> qrels.docno.tolist(), qrels.relevance.tolist()
    (['doc-a', 'doc-b', 'doc-c'], [0.0, 2.0, -1.0])

    Levels written with decimals, as some tools write them, are the integers they are:

    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "qrels.txt"
    ...     _ = path.write_text("1 0 doc-a 1.0\\n1 0 doc-b 0.0\\n1 0 doc-c -1.0\\n")
    ...     qrels = read_trec_qrels(path)
    >>> qrels.relevance.tolist()
    [1.0, 0.0, -1.0]

    Float judgments need ``relevance="float"``:

    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = Path(folder) / "qrels.txt"
    ...     _ = path.write_text("1 0 doc-a 0.25\\n1 0 doc-b 1.5\\n")
    ...     qrels = read_trec_qrels(path, relevance="float")
    >>> qrels.relevance.tolist()
    [0.25, 1.5]
    """
    layout = QRELS if relevance == "integer" else QRELS._replace(integer=False)
    (qid, docno), levels = read_columns(path, layout)
    bad = np.flatnonzero(~np.isfinite(levels))
    if bad.shape[0]:
        raise ValueError(
            f"{os.fspath(path)}: the relevance of document {decoded(docno[bad[:1]])[0]!r} "
            f"is {levels[bad[0]]}; every relevance must be a finite number."
        )
    qid_text, docno_text = remember_bytes(decoded(qid), qid), remember_bytes(decoded(docno), docno)
    return TrecQrels(qid_text, docno_text, levels)
