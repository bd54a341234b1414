"""Query ids carried in a column of X, for tools that cannot route metadata.

:class:`RankingEvaluator` and the scorers accept ``qid=<column>``: the name of
a DataFrame column, or the integer position of a column of an array, sparse
matrix or DataFrame. :func:`split_qid_column` returns X without that column and
the column itself, so that tuners without metadata routing (Optuna,
``permutation_importance``) keep the query ids with the rows they split.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np
import scipy.sparse as sp


def _kind(X) -> str:
    """ "pandas", "polars" or "array" (ndarray, sparse matrix, list of rows)."""
    module = type(X).__module__.split(".")[0]
    if module in ("pandas", "polars") and hasattr(X, "columns"):
        return module
    return "array"


def _position(column, n_columns: int, names, X) -> int:
    """The position of ``column`` among the ``n_columns`` columns (``names``) of X."""
    if isinstance(column, Integral) and not isinstance(column, bool):
        column = int(column)
        if not -n_columns <= column < n_columns:
            raise ValueError(
                f"qid={column!r} is not a column position of X, which has {n_columns} "
                "columns (an integer qid is a position, as in ColumnTransformer, also "
                "for a DataFrame with integer column names)."
            )
        return int(column) % n_columns
    if names is None:
        raise TypeError(
            f"qid={column!r} names a column, but X ({type(X).__name__}) has no column "
            "names; give the integer position of the query-id column instead."
        )
    names = list(names)
    if column not in names:
        shown = ", ".join(map(repr, names[:10])) + (", ..." if len(names) > 10 else "")
        raise ValueError(f"qid={column!r} is not a column of X; its columns are {shown}.")
    positions = [i for i, name in enumerate(names) if name == column]
    if len(positions) > 1:
        raise ValueError(
            f"qid={column!r} names {len(positions)} columns of X (positions "
            f"{', '.join(map(str, positions))}); the query-id column must be unique. "
            "Rename the others, or give the integer position of the query-id column."
        )
    return positions[0]


def split_qid_column(X, column) -> tuple[object, np.ndarray]:
    """X without its query-id column, and that column's values.

    Parameters
    ----------
    X : DataFrame (pandas or polars), ndarray, sparse matrix or list of rows
        The documents, one of whose columns holds the query id of each row.
    column : str, int or other column label
        A column name of a DataFrame, or a column position (negative counts
        from the end) of any X.

    Returns
    -------
    X_rest : same type as X (a list becomes an ndarray, a sparse matrix other
        than CSR or CSC a CSR matrix)
        The other columns, in their order.
    qid : ndarray or Series of shape (n_samples,)
        The query-id column, to be checked by ``check_qid``.
    """
    kind = _kind(X)
    if kind == "array":
        if not sp.issparse(X):
            X = np.asarray(X)
        if X.ndim != 2:
            raise ValueError(
                f"qid={column!r} names a column of X, so X must be 2-D; got shape {X.shape}."
            )
        position = _position(column, X.shape[1], None, X)
        keep = np.arange(X.shape[1]) != position
        if sp.issparse(X):  # CSR and CSC keep their format; others become CSR
            X = X if X.format in ("csr", "csc") else X.tocsr()
            return X[:, np.flatnonzero(keep)], X[:, [position]].toarray().ravel()
        return X[:, keep], X[:, position]
    names = list(X.columns)
    position = _position(column, len(names), names, X)
    if kind == "pandas":  # by position: other columns' names may repeat
        keep = [i for i in range(len(names)) if i != position]
        return X.iloc[:, keep], X.iloc[:, position]
    # polars (names are unique): by name, without converting the frame
    return X.drop(names[position]), X.get_column(names[position])
