"""Result tables of the statistics: columns kept as lists, printed aligned, old names kept."""

from __future__ import annotations

import numpy as np

from .._warn import warn

# renamed columns: old name -> new name (the old one works, with a FutureWarning, until 0.4)
RENAMED_COLUMNS = {"tied_with_reference": "not_shown_different"}


class Table(dict):
    """``{column: list}``; a renamed column is still found under its old name, with a warning."""

    def __missing__(self, key):
        if key in RENAMED_COLUMNS and RENAMED_COLUMNS[key] in self:
            warn(
                f"the column {key!r} is now {RENAMED_COLUMNS[key]!r}: a p-value of at least "
                "alpha means the queries did not show a difference, not that the models are "
                f"as good; {key!r} will be removed in 0.4.",
                FutureWarning,
            )
            return self[RENAMED_COLUMNS[key]]
        raise KeyError(key)


def format_cell(column: str, value) -> str:
    if isinstance(value, str) or column in ("name", "model_a", "model_b"):
        return str(value)
    if isinstance(value, (bool, np.bool_)):
        return "yes" if value else "no"
    if isinstance(value, (int, np.integer)):
        return str(value)
    if np.isnan(value):
        return "-"
    if "pvalue" in column:
        return f"{value:.4g}"
    return f"{value:.4f}"


def format_table(title: str, columns: dict) -> str:
    """The columns as aligned text, the first one left-aligned, under a title."""
    cells = [list(columns)]
    for row in zip(*columns.values()):
        cells.append([format_cell(column, value) for column, value in zip(cells[0], row)])
    widths = [max(len(row[j]) for row in cells) for j in range(len(cells[0]))]
    lines = [
        "  ".join(
            cell.ljust(width)
            if j < 1 or cells[0][j] in ("model_b", "verdict")
            else cell.rjust(width)
            for j, (cell, width) in enumerate(zip(row, widths))
        ).rstrip()
        for row in cells
    ]
    return "\n".join([title, *lines])


def to_frame(columns: dict, owner: str):
    """The columns as a pandas DataFrame (pandas is optional)."""
    try:
        import pandas as pd
    except ImportError as error:
        raise ImportError(
            f"{owner}.to_frame needs pandas; install it (pip install pandas) or use to_dict()."
        ) from error
    return pd.DataFrame({column: list(values) for column, values in columns.items()})


class ColumnsTable:
    """``to_dict`` and ``to_frame`` of a result whose table is its ``columns``, one row per
    model, best first (:class:`ModelComparison`, :class:`BenchmarkComparison`).

    A class using it binds the two methods in its own body too (``to_dict =
    ColumnsTable.to_dict``): the API pages list a class's own methods only.
    """

    columns: dict[str, list]

    def to_dict(self) -> dict[str, list]:
        """The table as lists, one per column.

        Returns
        -------
        table : dict of str to list
            ``{column: values}``, rows best first.
        """
        return Table({column: list(values) for column, values in self.columns.items()})

    def to_frame(self):
        """The table as a pandas DataFrame.

        Returns
        -------
        frame : pandas.DataFrame
            One row per model, best first; needs pandas.
        """
        return to_frame(self.columns, type(self).__name__)


def verdict(mean: float, pvalue: float, alpha: float, interval, margin) -> str:
    """Equivalence first (TOST: the interval inside the margin), then a difference by its
    sign, else "inconclusive" (with a margin) or "not shown different" (without)."""
    if margin is not None and -margin < interval[0] and interval[1] < margin:
        return "equivalent"
    if pvalue < alpha:
        return "better" if mean > 0 else "worse"
    return "inconclusive" if margin is not None else "not shown different"


def level_from_alpha(confidence_level, alpha, owner: str) -> float:
    """The confidence level of a result given ``confidence_level`` or (deprecated) ``alpha``."""
    if alpha is None:
        if confidence_level is None:
            raise TypeError(f"{owner} needs confidence_level.")
        return confidence_level
    if confidence_level is not None:
        raise ValueError(
            f"{owner} takes confidence_level or alpha (its deprecated spelling), not both."
        )
    warn_alpha(owner)
    return 1 - alpha


def warn_alpha(owner: str) -> None:
    """The FutureWarning of the attribute and argument ``alpha`` of the result classes."""
    warn(
        f"{owner}.alpha is now {owner}.confidence_level (alpha is 1 - confidence_level), the "
        "spelling of the functions' parameter; alpha will be removed in 0.4.",
        FutureWarning,
    )
