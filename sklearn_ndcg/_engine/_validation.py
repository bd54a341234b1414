"""Input checks: turn what the caller gave into flat float64 arrays and query ids."""

from __future__ import annotations

import sys
import warnings
from typing import NamedTuple

import numpy as np

from ._ranking_options import check_log_base as check_log_base  # lives with the options

# numpy < 1.24 only warns about ragged nested sequences (and makes an object array)
_RaggedWarning = getattr(np, "exceptions", np).VisibleDeprecationWarning


class InputTypeError(TypeError, ValueError):
    """Input of the wrong kind of values (strings, dates, complex numbers).

    A :class:`TypeError`, and a :class:`ValueError` as scikit-learn raises for
    such input, so that code written for either catches it.
    """


class RankingInput(NamedTuple):
    """Validated input, one row per document.

    ``y_true`` and ``y_score`` are flat float64 arrays (``y_score`` float32 or
    float16 when given so: they order exactly in their own type). ``qid`` holds one query
    id per document (long format) or is None; then ``shape`` is the
    ``(n_queries, n_documents)`` layout of the rows. ``document_weight`` is
    flat like ``y_true``, or None. ``sort_key`` holds the scores that laid out the
    documents of each row in scikit-learn's order (:func:`argsort_layout`), or is None
    when they are in the input's order.
    """

    y_true: np.ndarray
    y_score: np.ndarray
    qid: np.ndarray | None
    shape: tuple[int, int] | None
    sample_weight: np.ndarray | None
    document_weight: np.ndarray | None = None
    sort_key: np.ndarray | None = None


def _issparse(x) -> bool:
    """Whether ``x`` is a scipy sparse matrix or array, without importing scipy: one
    can exist only once ``scipy.sparse`` is imported."""
    sparse = sys.modules.get("scipy.sparse")
    return sparse is not None and sparse.issparse(x)


def _as_array(x, name: str) -> np.ndarray:
    """``np.asarray(x)``, refusing sparse matrices and ragged nested sequences."""
    if type(x) is np.ndarray:  # already an array (often one this module made): x itself
        return x
    if _issparse(x):
        raise TypeError(
            f"{name} is a sparse matrix; ranking metrics need dense input, e.g. {name}.toarray()."
        )
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", _RaggedWarning)
            array = np.asarray(x)
    except (ValueError, _RaggedWarning) as exc:  # ragged nested sequences
        raise ValueError(
            f"{name} could not be read as an array; is it ragged (rows of "
            f"different lengths)? Give 2-D input with the same number of documents "
            f"per query, or long format with qid. ({exc})"
        ) from None
    if (
        array.dtype.kind == "f"
        and isinstance(x, (list, tuple))
        and all(isinstance(v, int) for v in x)
    ):
        # Python ints beyond int64 (e.g. 64-bit hashes): numpy rounds them to float64,
        # which merges distinct values; keep them exact
        array = np.empty(len(x), dtype=object)
        array[:] = x
    return array


def _is_missing(value) -> bool:
    """None, NaN, NaT, ``pd.NA``, ``Decimal("NaN")``: anything not equal to itself."""
    if value is None:
        return True
    try:
        return bool(value != value)
    except (TypeError, ValueError, ArithmeticError):  # pd.NA, Decimal("sNaN")
        return True


def missing_rows(array: np.ndarray) -> np.ndarray:
    """Indices of the entries of ``array`` that are missing values."""
    if array.dtype.kind == "f":
        return np.flatnonzero(np.isnan(array))
    if array.dtype.kind in "mM":
        return np.flatnonzero(np.isnat(array))
    if array.dtype.kind == "O":
        return np.flatnonzero([_is_missing(v) for v in array.ravel()])
    return np.flatnonzero(np.zeros(array.size, dtype=bool))


_NOT_FINITE = "missing or infinite values (NaN, None, NA or inf)"


def _at_positions(rows: np.ndarray, n_bad: int, found: str = "", first: str = "") -> str:
    """Where bad values are, in the one wording of every error about values: "at N
    position(s) of the flattened input (e.g. ...)", then ``found`` and ``first``."""
    where = ", ".join(str(i) for i in rows[:5]) + (", ..." if n_bad > 5 else "")
    return f"at {n_bad} position(s) of the flattened input (e.g. {where}){found}{first}"


def _missing_error(
    name: str,
    rows: np.ndarray,
    what: str = "missing values",
    found: str | None = None,
    first: str = "",
    n_bad: int | None = None,
) -> ValueError:
    """``found`` says what the values are in scikit-learn's words ("NaN", "infinity");
    ``first`` where the first of them is (see :func:`_first_place`); ``n_bad`` how many
    there are when ``rows`` lists only the first ones (Dask and Spark)."""
    n_bad = rows.shape[0] if n_bad is None else n_bad
    found = "" if found is None else f" ({name} contains {found})"
    return ValueError(
        f"{name} contains {what} {_at_positions(rows, n_bad, found, first)}; every value "
        "must be given and finite."
    )


def _first_place(position: int, shape: tuple, qid=None, row: int | None = None) -> str:
    """Where the value at flat ``position`` is, for an error message: the query and
    document of 2-D input; the row (``row``, else ``position``) and its query id (from
    ``qid``, one per row, when it has one) of long-format input."""
    if len(shape) == 2:  # ``row``: the flat input position, if the layout moved it
        flat = position if row is None else row
        return f"; the first is in query (row) {flat // shape[1]}, document {flat % shape[1]}"
    row = position if row is None else row
    query = ""
    try:
        ids = np.asarray(qid, dtype=object).reshape(-1)
        if qid is not None and ids.shape[0] == int(np.prod(shape)):
            value = ids[position]
            value = value.item() if hasattr(value, "item") else value
            query = f", of query {value!r}" if isinstance(value, str) else f", of query {value}"
    except (TypeError, ValueError):  # ids the message cannot show: the row only
        query = ""
    return f"; the first is in row {row}{query}"


def _located(bad: np.ndarray, qid=None, rows: np.ndarray | None = None) -> tuple:
    """The row numbers of the values where ``bad`` (``rows``, else their positions) and
    where the first is (:func:`_first_place`)."""
    positions = np.flatnonzero(bad)
    shown = positions if rows is None else np.asarray(rows).reshape(-1)[positions]
    return shown, _first_place(int(positions[0]), bad.shape, qid, int(shown[0]))


def _keep_bad_values(error: ValueError, bad: np.ndarray) -> None:
    """Keep the flat mask of the bad values on a plain ValueError (its class is what
    Spark carries to the driver), read back with ``getattr`` by Dask and Spark."""
    error.bad_values = np.asarray(bad).reshape(-1)  # type: ignore[attr-defined]


def bad_value_error(
    head: str,
    bad: np.ndarray,
    tail: str = ".",
    *,
    qid=None,
    rows: np.ndarray | None = None,
    n_bad: int | None = None,
) -> ValueError:
    """The ValueError ``"{head} at N position(s) ... the first is in row r, of query
    q{tail}"`` for the values where ``bad`` (a mask of the input's shape), in the words
    of the error for missing values; ``qid``, ``rows`` and ``n_bad`` are those of
    :func:`as_float_array`. Built on the error path only. The error keeps the flat mask
    as ``bad_values``, so that Dask and Spark find the bad rows of each partition with
    the in-memory check itself."""
    shown, first = _located(bad, qid, rows)
    n_bad = shown.shape[0] if n_bad is None else n_bad
    error = ValueError(f"{head} {_at_positions(shown, n_bad, first=first)}{tail}")
    _keep_bad_values(error, bad)
    return error


def _not_finite_error(
    name: str,
    values: np.ndarray,
    bad: np.ndarray,
    qid=None,
    rows: np.ndarray | None = None,
    n_bad: int | None = None,
) -> ValueError:
    """The error for the NaN (missing) and infinite ``values`` where ``bad``; ``rows``
    numbers the values' rows in the user's data (default: their positions)."""
    bad_values = values[bad]
    found = [
        word for word, test in (("NaN", np.isnan), ("infinity", np.isinf)) if test(bad_values).any()
    ]
    shown, first = _located(bad, qid, rows)
    error = _missing_error(name, shown, _NOT_FINITE, " and ".join(found), first, n_bad)
    _keep_bad_values(error, bad)
    return error


# how to turn text into numbers, for the messages of as_float_array
_TEXT_FIX = (
    "Convert digits with np.asarray({name}, dtype=float), or map names to numbers first "
    "(e.g. pandas' Series.map({{'bad': 0, 'fair': 1, 'good': 2}}))."
)


def as_float_array(
    x,
    name: str,
    missing_ok: bool = False,
    *,
    qid=None,
    rows: np.ndarray | None = None,
    n_bad: int | None = None,
) -> np.ndarray:
    """Return ``x`` as a float64 array, or raise an error naming ``name``.

    With ``missing_ok``, missing values (NaN, None, ``pd.NA``) become NaN
    instead of an error; infinite values are refused all the same. The error
    for missing or infinite values names the first one's row and query: ``qid``
    holds the query id of each value of 1-D ``x`` (read only for the message).
    Dask and Spark give the bad values they found (``x``), their row numbers in the
    whole frame (``rows``) and how many there are in all (``n_bad``), so that the
    message is the one the in-memory function gives on the same rows.
    """
    array = _as_array(x, name)
    if array.dtype.kind == "c":
        raise InputTypeError(f"{name} holds complex numbers; real numbers were expected.")
    if array.dtype.kind in "US":  # strings, bytes: name the fix
        raise InputTypeError(
            f"{name} holds {array.dtype} values; numbers were expected, not text such as "
            f"{str(array.reshape(-1)[0])!r}. {_TEXT_FIX.format(name=name)}"
        )
    if array.dtype.kind in "VmM":  # records, dates and durations
        raise InputTypeError(f"{name} holds {array.dtype} values; numbers were expected.")
    if array.dtype.kind == "O":  # e.g. pandas nullable dtypes with pd.NA
        missing = missing_rows(array)
        if missing.shape[0] and not missing_ok:
            bad = np.zeros(array.size, dtype=bool)
            bad[missing] = True
            raise _not_finite_error(
                name,
                np.where(bad, np.nan, 0.0).reshape(array.shape),
                bad.reshape(array.shape),
                qid,
                rows,
                n_bad,
            )
        if missing.shape[0]:
            array = array.copy()
            array.reshape(-1)[missing] = np.nan
    try:
        result = np.asarray(array, dtype=np.float64)  # the stages never write to it
    except (TypeError, ValueError):
        raise InputTypeError(
            f"{name} holds values that are not numbers (dtype {array.dtype}); "
            f"numbers were expected. {_TEXT_FIX.format(name=name)}"
        ) from None
    if _all_finite(result):
        return result
    bad = ~np.isfinite(result) & ~(missing_ok & np.isnan(result))
    if bad.any():
        raise _not_finite_error(name, result, bad, qid, rows, n_bad)
    return result


_SMALL = 2**16
"""Arrays of at most this many values are checked by :func:`_all_finite` with a
temporary array of flags (64 KiB at most)."""


def _all_finite(values: np.ndarray) -> bool:
    """Whether every value is finite, in one pass without a temporary array: the
    sum is finite if and only if every term is, unless it overflows (a false
    alarm, which the caller's full check clears). Small arrays are tested value by
    value: their temporary is small, and no ``np.errstate`` is entered per call."""
    if values.size <= _SMALL:
        return bool(np.isfinite(values).all())
    with np.errstate(over="ignore", invalid="ignore"):
        return bool(np.isfinite(np.add.reduce(values, axis=None)))


def as_score_array(x, name: str = "y_score", *, qid=None, compact: bool = False) -> np.ndarray:
    """Scores as float64 that order exactly like ``x``.

    Only the order of the scores matters. Integers beyond 2**53, extended
    precision floats and Python numbers that float64 would round into ties
    are replaced by their dense rank, so that no tie is made that was not in
    the input. With ``compact``, finite float32 and float16 scores are returned
    as they are, without a float64 copy: they order exactly in their own type.
    """
    array = _as_array(x, name)
    if compact and array.dtype in (np.float32, np.float16) and _all_finite(array):
        return array
    result = as_float_array(array, name, qid=qid)
    kind, size = array.dtype.kind, array.dtype.itemsize
    exact = (kind in "biu" and (size < 8 or np.abs(result).max(initial=0) < 2.0**53)) or (
        kind == "f" and size <= 8
    )
    if exact:
        return result
    try:
        _, rank = np.unique(array.reshape(-1), return_inverse=True)
    except TypeError:  # objects numpy cannot sort: keep the float64 values
        return result
    return rank.reshape(array.shape).astype(np.float64)


def check_ranking_input(
    y_true,
    y_score,
    qid=None,
    sample_weight=None,
    document_weight=None,
    unjudged_ok=False,
    argsort_ties=False,
    rows: np.ndarray | None = None,
    n_bad: int | None = None,
) -> RankingInput:
    """Check the arrays of a ranking metric and flatten them.

    2-D input is ``(n_queries, n_documents)``, as in scikit-learn, with at least
    two documents per query. 1-D input is long format: one row per document,
    grouped by ``qid``, which it needs (a forgotten qid must not make the whole
    input one query). ``document_weight`` has the shape of ``y_true``. With
    ``unjudged_ok``, a missing label (NaN, None, ``pd.NA``) marks an unjudged
    document and stays NaN. With ``argsort_ties``, the documents of each row of
    2-D input are laid out in scikit-learn's order for ``ignore_ties=True``
    (see :func:`argsort_layout`), so that the tie rule "first" reproduces it.
    ``rows`` and ``n_bad`` number the rows of long-format input in a whole frame
    for the errors about bad values (see :func:`as_float_array`).
    """
    y_true = as_float_array(
        y_true, "y_true", missing_ok=unjudged_ok, qid=qid, rows=rows, n_bad=n_bad
    )
    raw_score = _as_array(y_score, "y_score")
    y_score = as_score_array(raw_score, "y_score", qid=qid, compact=True)
    for name, array in (("y_true", y_true), ("y_score", y_score)):
        if array.ndim not in (1, 2):
            raise ValueError(
                f"{name} must be 1-D (long format) or 2-D (n_queries, n_documents); "
                f"got an array of shape {array.shape}."
            )
    if y_true.shape != y_score.shape:
        raise ValueError(
            f"y_true has shape {y_true.shape} but y_score has shape {y_score.shape}; "
            "give one score per document."
        )
    if y_true.size == 0:
        raise ValueError(
            f"y_true is empty (shape {y_true.shape}); at least one query with one "
            "document is needed."
        )

    if y_true.ndim == 2:
        if qid is not None:
            raise ValueError(
                "qid is only used with 1-D (long format) input; 2-D y_true already "
                "holds one query per row. Pass qid=None or flatten the input."
            )
        shape = y_true.shape
        if shape[1] < 2:  # scikit-learn's sentence, which its tests match
            raise ValueError(
                f"y_true has shape {shape}, one document per query. Computing NDCG is "
                f"only meaningful when there is more than 1 document. Got {shape[1]} "
                "instead. 2-D input needs at least 2 documents per query, as in "
                "scikit-learn; give queries of one document in long format, with qid."
            )
        document_weight = _check_document_weight(document_weight, shape)
        sort_key = None
        if argsort_ties:
            sort_key = raw_score if raw_score.dtype.kind != "O" else y_score
            y_true, y_score, document_weight = argsort_layout(
                sort_key, y_true, y_score, document_weight
            )
        y_true, y_score = y_true.ravel(), y_score.ravel()
        sample_weight = check_weight(sample_weight, shape[0], "one per query (row)")
        return RankingInput(y_true, y_score, None, shape, sample_weight, document_weight, sort_key)

    n_rows = y_true.shape[0]
    if qid is None:
        raise ValueError(
            f"y_true is 1-D ({n_rows} documents) but qid is None. 1-D input is long "
            "format: pass qid=, one query id per document. For a single query, give "
            "2-D input of one row, e.g. np.asarray(y_true).reshape(1, -1) and the "
            "same for y_score."
        )
    qid = check_qid(qid, n_rows)
    sample_weight = check_weight(
        sample_weight, n_rows, "one per document", qid=qid, rows=rows, n_bad=n_bad
    )
    document_weight = _check_document_weight(
        document_weight, y_true.shape, qid=qid, rows=rows, n_bad=n_bad
    )
    return RankingInput(y_true, y_score, qid, None, sample_weight, document_weight)


def argsort_layout(
    sort_key: np.ndarray,
    y_true: np.ndarray,
    y_score: np.ndarray,
    document_weight: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Each row's documents in scikit-learn's order for ``ignore_ties=True``.

    scikit-learn ranks the documents of each row by ``np.argsort(y_score)[:, ::-1]``
    on the scores as it validates them (their own dtype), which puts tied
    documents in an order of numpy's sort. Laying out the rows in that order
    and then ordering with the rule "first" gives the same ranking.

    Parameters
    ----------
    sort_key : ndarray of shape (n_queries, n_documents)
        The scores in the dtype scikit-learn sorts them in.
    y_true, y_score : ndarray of shape (n_queries, n_documents)
        Labels and scores as float64.
    document_weight : ndarray of shape (n_queries * n_documents,) or None
        Flat, as :func:`_check_document_weight` returns it.

    Returns
    -------
    y_true, y_score, document_weight
        The same arrays, each row in scikit-learn's order.
    """
    order = _layout_order(sort_key)
    y_true = np.take_along_axis(y_true, order, axis=1)
    y_score = np.take_along_axis(y_score, order, axis=1)
    if document_weight is not None:
        weight = document_weight.reshape(order.shape)
        document_weight = np.take_along_axis(weight, order, axis=1).ravel()
    return y_true, y_score, document_weight


def _layout_order(sort_key: np.ndarray) -> np.ndarray:
    """The input column of each document of :func:`argsort_layout`, row by row."""
    return np.argsort(sort_key, axis=1)[:, ::-1]


def layout_positions(sort_key: np.ndarray) -> np.ndarray:
    """The flat input position of each flat position of :func:`argsort_layout`'s
    layout, for error messages (built on the error path only)."""
    order = _layout_order(sort_key)
    return (order + np.arange(order.shape[0])[:, np.newaxis] * order.shape[1]).ravel()


def _check_document_weight(
    document_weight,
    shape: tuple[int, ...],
    *,
    qid=None,
    rows: np.ndarray | None = None,
    n_bad: int | None = None,
) -> np.ndarray | None:
    """``document_weight`` as flat finite non-negative float64, one per document;
    ``qid``, ``rows`` and ``n_bad`` as in :func:`as_float_array`."""
    if document_weight is None:
        return None
    weight = as_float_array(document_weight, "document_weight", qid=qid, rows=rows, n_bad=n_bad)
    if weight.shape != shape:
        raise ValueError(
            f"document_weight has shape {weight.shape} but y_true has shape {shape}; "
            "give one weight per document."
        )
    _refuse_negative(weight, "document_weight", qid, rows, n_bad)
    return weight.ravel()


def _refuse_negative(weight: np.ndarray, name: str, qid, rows, n_bad) -> None:
    """The error for negative weights, naming the first one's row and query."""
    if (weight < 0).any():
        raise bad_value_error(
            f"{name} has negative values",
            weight < 0,
            "; weights must be >= 0.",
            qid=qid,
            rows=rows,
            n_bad=n_bad,
        )


def check_qid(qid, n_rows: int, target: str = "y_true", name: str = "qid") -> np.ndarray:
    """Return ``qid`` as a 1-D array of ``n_rows`` comparable query ids.

    ``target`` names the argument whose length ``qid`` must match, ``name`` the
    argument itself in the messages (e.g. a click log's ``impression``). A list of
    strings becomes an object array, not a fixed-width one as wide as its
    longest id.
    """
    if _issparse(qid):
        raise TypeError(f"{name} is a sparse matrix; give a 1-D array of query ids.")
    qid = _qid_array(qid, name)
    if qid.ndim != 1:
        raise ValueError(
            f"{name} must be 1-D with one query id per document; got shape {qid.shape}."
        )
    if qid.shape[0] != n_rows:
        raise ValueError(
            f"{name} has {qid.shape[0]} entries but {target} has {n_rows}; "
            "give one query id per document."
        )
    if qid.dtype.kind == "c":
        raise TypeError(f"{name} holds complex numbers; give sortable query ids.")
    missing = missing_rows(qid)
    if missing.shape[0]:
        raise _missing_error(name, missing, "missing values (None, NaN, NaT or NA)")
    if qid.dtype.kind == "f" and not np.isfinite(qid).all():
        raise _missing_error(name, np.flatnonzero(~np.isfinite(qid)), "infinity")
    return qid


def _qid_array(qid, name: str = "qid") -> np.ndarray:
    """``np.asarray(qid)``, minding what numpy does to lists of mixed ids."""
    if not isinstance(qid, (list, tuple)):
        try:
            return _as_array(qid, name)
        except ValueError:
            raise ValueError(f"{name} could not be read as a 1-D array of query ids.") from None
    types = {type(v) for v in qid}
    if any(issubclass(t, (tuple, list)) for t in types):
        raise TypeError(
            f"{name} holds tuples or lists (composite query ids); give one scalar id per "
            "document, e.g. a string such as f'{user}/{session}' or the codes of "
            "pandas.factorize."
        )
    if types and all(issubclass(t, str) for t in types):
        array = np.empty(len(qid), dtype=object)  # not '<U{longest}' for every row
        array[:] = qid
        return array
    array = _as_array(qid, name)
    if array.dtype.kind in "US":  # numpy turned [1, "1"] into strings, merging them
        names = sorted(t.__name__ for t in types)
        raise TypeError(
            f"{name} mixes values that cannot be compared with each other "
            f"(types {', '.join(names)}); give query ids of one sortable type."
        )
    return array


def check_weight(
    sample_weight,
    n: int,
    expected: str,
    *,
    qid=None,
    rows: np.ndarray | None = None,
    n_bad: int | None = None,
) -> np.ndarray | None:
    """Return ``sample_weight`` as ``n`` finite, non-negative float64 weights (or None);
    ``qid``, one per weight, names the query of a bad one; ``rows`` and ``n_bad`` as in
    :func:`as_float_array`."""
    if sample_weight is None:
        return None
    weight = as_float_array(sample_weight, "sample_weight", qid=qid, rows=rows, n_bad=n_bad)
    if weight.ndim != 1 or weight.shape[0] != n:
        found = weight.shape[0] if weight.ndim else 1
        raise ValueError(
            f"sample_weight has shape {weight.shape} but {n} weights were expected, "
            f"{expected} (scikit-learn: Found input variables with inconsistent numbers "
            f"of samples: [{n}, {n}, {found}])."
        )
    _refuse_negative(weight, "sample_weight", qid, rows, n_bad)
    return weight


def apply_callable(func, values: np.ndarray, name: str, per: str) -> np.ndarray:
    """Call the user's ``func`` on a copy of ``values``; check what it returns.

    ``name`` is the argument (``"gain"``, ``"discount"``) and ``per`` what
    one value is for (``"gain per label"``). The result must hold one finite
    number per value.
    """
    try:
        result = func(values.copy())
    except Exception as exc:
        raise ValueError(f"{name} callable {func!r} raised {type(exc).__name__}: {exc}") from exc
    try:
        result = np.asarray(result, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name} callable must return numbers, got {type(result).__name__}."
        ) from None
    if result.shape != values.shape:
        raise ValueError(
            f"{name} callable must return one {per}, an array of shape "
            f"{values.shape}; got shape {result.shape}."
        )
    return result
