"""ModelComparison: the result of compare_models, a table with one row per model."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from .._warn import warn
from . import _table
from ._pairwise import PairwiseComparison


@dataclass(frozen=True, repr=False, init=False)
class ModelComparison(_table.ColumnsTable):
    """Result of :func:`compare_models`: a table with one row per model, best first.

    Attributes
    ----------
    columns : dict of str to list
        The table: ``name``, ``mean``, ``ci_low``, ``ci_high``, ``difference``,
        ``pvalue``, ``adjusted_pvalue``, ``effect_size``,
        ``not_shown_different`` and ``verdict``; see :func:`compare_models`.
        :meth:`to_dict` returns a copy. The column ``tied_with_reference`` is
        now ``not_shown_different`` (the old name works, with a FutureWarning,
        until 0.4).
    reference : hashable
        The model the others are compared with.
    method : str
        The paired test, or the all-pairs procedure.
    correction : str or None
        The correction of the p-values for the number of comparisons.
    confidence_level : float
        The queries do not show a model different from the reference when its
        adjusted p-value is at least ``1 - confidence_level``. (Formerly
        ``alpha``, ``1 - confidence_level``, which works with a FutureWarning
        until 0.4.)
    margin : float or None
        The equivalence margin, or None.
    pairwise : PairwiseComparison or None
        With ``pairs="all"``, every pair of models; None otherwise.
    by_stratum : dict or None
        With ``strata``, ``{stratum: ModelComparison}`` on each stratum's
        queries alone, with the same reference; None otherwise.
    """

    columns: dict[str, list]
    reference: Hashable
    method: str
    correction: str | None
    confidence_level: float
    margin: float | None = None
    pairwise: PairwiseComparison | None = None
    by_stratum: dict | None = None

    def __init__(
        self,
        columns: dict[str, list],
        reference: Hashable,
        method: str,
        correction: str | None,
        confidence_level: float | None = None,
        margin: float | None = None,
        pairwise: PairwiseComparison | None = None,
        by_stratum: dict | None = None,
        *,
        alpha: float | None = None,
    ):
        level = _table.level_from_alpha(confidence_level, alpha, "ModelComparison")
        fields = dict(
            columns=columns,
            reference=reference,
            method=method,
            correction=correction,
            confidence_level=level,
            margin=margin,
            pairwise=pairwise,
            by_stratum=by_stratum,
        )
        for name, value in fields.items():
            object.__setattr__(self, name, value)

    @property
    def alpha(self) -> float:
        """Deprecated: ``1 - confidence_level``; use ``confidence_level``."""
        _table.warn_alpha("ModelComparison")
        return 1 - self.confidence_level

    @property
    def not_shown_different(self) -> list:
        """Models the queries do not show different from the reference (reference included),
        best first. Not shown different is not "as good": see ``equivalent``."""
        return [
            name
            for name, same in zip(self.columns["name"], self.columns["not_shown_different"])
            if same
        ]

    @property
    def equivalent(self) -> list:
        """Models shown equivalent to the reference within the margin (reference included),
        best first; just the reference without a margin."""
        return [
            name
            for name, verdict in zip(self.columns["name"], self.columns["verdict"])
            if verdict in ("reference", "equivalent")
        ]

    @property
    def tied(self) -> list:
        """Deprecated: use ``not_shown_different`` (or ``equivalent`` with a margin)."""
        warn(
            "ModelComparison.tied is now ModelComparison.not_shown_different: a p-value of "
            "at least alpha means the queries did not show a difference, not that the models "
            "are as good (give a margin for that); tied will be removed in 0.4.",
            FutureWarning,
        )
        return self.not_shown_different

    # the table's methods, bound here so that the API page lists them as this class's own
    to_dict = _table.ColumnsTable.to_dict
    to_frame = _table.ColumnsTable.to_frame

    def __str__(self) -> str:
        margin = "" if self.margin is None else f", margin={self.margin:g}"
        title = (
            f"Models compared with {self.reference!r} ({self.method} test, "
            f"correction={self.correction!r}, confidence_level={self.confidence_level:g}{margin})"
        )
        return _table.format_table(title, self.columns)

    __repr__ = __str__
