"""The capabilities every entry of the ``trec-eval`` registry declares
(:class:`._measures.Measure`), read from its :class:`.._vocabulary.Spec`: the base of
the registry's classes (:mod:`._measures`, :mod:`._infndcg`)."""

from __future__ import annotations

from .._vocabulary import CUTOFFS, GAINS, GRADED, NOT_PER_QUERY, STRATA, Spec


class Reported:
    """A registry entry's declared capabilities, from its vocabulary entry: in the
    command's default set, reads qrels with strata, printed per query, printed as a
    count, its summary, and no engine request unless it says otherwise."""

    def __init__(self, spec: Spec) -> None:
        self.spec = spec
        self.name = spec.name

    @property
    def in_default(self) -> bool:
        return self.spec.in_default

    @property
    def sampled_pool(self) -> bool:
        return self.spec.params == STRATA

    @property
    def bounded(self) -> bool:
        """``-B`` bounds it: NDCG over the levels the unjudged documents could have."""
        return self.spec.reads == GRADED and self.spec.params in (GAINS, CUTOFFS)

    @property
    def per_query(self) -> bool:
        return self.spec.summary not in NOT_PER_QUERY

    @property
    def integer(self) -> bool:
        return self.spec.integer

    @property
    def summary(self) -> str:
        return self.spec.summary

    def rank_requests(self, params: str | None) -> tuple | None:
        return None
