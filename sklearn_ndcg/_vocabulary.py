"""The vocabulary of measures: every measure the package computes, declared once.

Each :class:`Spec` is one of trec_eval's measures, by its name (pytrec_eval's too): its
parameter family, the engine's kernel that computes it and what it reads (the gains of
graded levels, or relevance at ``relevance_level``), the default sets it belongs to, how
trec_eval's report summarizes and prints it, which doors compute it, and its name in
ir_measures. Every door reads this table and nothing else for measure names: the
engine's list of measures (``RankingOptions.RANK_MEASURES``), the names of
``query_scores``, ``evaluate_run`` and the scorers (:func:`sklearn_ndcg._options.
metric_names`), the ``trec-eval`` command's registry, parser and help
(:mod:`sklearn_ndcg._ir._measures`), ``RelevanceEvaluator``'s spellings and nicknames,
the ir_measures provider and the docs' table. This module imports only the standard
library: it is the floor of the options and of the engine.

Adding a measure of binary relevance is one :class:`Spec` here and its kernel in the
engine (``_engine/_rank.py`` or ``_engine/_official.py``); CONTRIBUTING shows it with
``Rprec``.
"""

from __future__ import annotations

from typing import NamedTuple

NONE, CUTOFFS, GAINS, LEVELS, PERSISTENCE, STRATA = (
    "none",
    "cutoffs",
    "gains",
    "levels",
    "persistence",
    "strata",
)
"""The parameter families: none (trec_eval ignores any given), cutoffs (``P.5,10``),
level gains (``ndcg.1=3``), recall levels (``iprec_at_recall.0.5``), persistence
(``rbp.p=0.95``), qrels with strata (infNDCG)."""

GRADED, BINARY = "graded", "binary"
"""What a measure reads of a judgment: the gain of its level (NDCG's gain options; a
negative level follows the gain rule), or relevance, a level at least
``relevance_level`` (a negative level is not relevant, as in trec_eval)."""

EVERY_DOOR, REPORT, SAMPLED = "every door", "report", "sampled"
"""Where a measure is computed: every door (arrays, dicts, tables, files, the command,
RelevanceEvaluator); the report only (the command and RelevanceEvaluator: ``runid`` and
``num_q`` describe the run, not a query); sampled qrels (evaluate_run, query_scores with
a pool of strata, the command)."""

SUMMARIES = ("mean", "sum", "count", "geometric", "name")
"""How trec_eval's ``all`` line (and ``evaluate_run``'s score) summarizes a measure's
per-query values: their mean; their sum (the counts); the number of queries
(``num_q``); the geometric mean (``gm_map``: per query the log, the mean exponentiated);
the run's name (``runid``)."""

NOT_PER_QUERY = ("count", "geometric", "name")
"""The summaries of measures that trec_eval's ``-q`` lines leave out."""


class Spec(NamedTuple):
    """One measure of the vocabulary."""

    name: str
    """trec_eval's and pytrec_eval's name."""
    params: str
    """Its parameter family (:data:`CUTOFFS`...)."""
    metric: str | None
    """What the engine computes: ``RankingOptions.metric`` or a request of the measures
    of binary relevance (a cutoff family names its measure: ``map_cut`` is ``map``);
    None where nothing is computed (``runid``, ``num_q``) or elsewhere (infNDCG)."""
    reads: str
    """:data:`GRADED` or :data:`BINARY`."""
    defaults: tuple[float, ...] = ()
    """Its default parameters (cutoffs, recall levels, persistence)."""
    in_default: bool = False
    """In the ``trec-eval`` command's default set (no ``-m``)."""
    official: bool = False
    """In trec_eval's ``official`` set (what the binary prints without ``-m``)."""
    summary: str = "mean"
    """One of :data:`SUMMARIES`."""
    integer: bool = False
    """Printed as a count ("%ld")."""
    doors: str = EVERY_DOOR
    """Where it is computed (:data:`EVERY_DOOR`, :data:`REPORT`, :data:`SAMPLED`)."""
    cutoff_name: str | None = None
    """Its name at a cutoff in ``query_scores``' names (``<cutoff_name>_<k>``), where the
    cutoff is a parameter of another entry or the package's own (``recip_rank_10``)."""
    needs_cutoff: bool = False
    """``query_scores``' name needs a cutoff (``P_10``, not ``P``)."""
    ir_measures: str | None = None
    """Its name in ir_measures, where the provider computes it."""
    pytrec_eval_metric: str | None = None
    """The engine's request where pytrec_eval computes it otherwise (it bundles
    trec_eval 9): ``iprec_at_recall``'s recall cutoffs round ``fraction * R + 0.9`` down,
    trec_eval 10.0's to the nearest."""
    qrels_total: bool = False
    """Under ``-c`` trec_eval's summary is not the per-query values' but a count over
    every qrels line of a level above 0, whatever the relevance level (m_num_rel.c)."""


_TREC_CUTOFFS = (5.0, 10.0, 15.0, 20.0, 30.0, 100.0, 200.0, 500.0, 1000.0)
_RECALL_LEVELS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)

SPECS: tuple[Spec, ...] = (
    Spec("runid", NONE, None, BINARY, official=True, summary="name", doors=REPORT),
    Spec("num_q", NONE, None, BINARY, official=True, summary="count", integer=True, doors=REPORT),
    Spec("num_ret", NONE, "num_ret", BINARY, official=True, summary="sum", integer=True),
    Spec("num_rel", NONE, "num_rel", BINARY, official=True, summary="sum", integer=True,
         qrels_total=True),
    Spec("num_rel_ret", NONE, "num_rel_ret", BINARY, official=True, summary="sum", integer=True),
    Spec("map", NONE, "map", BINARY, official=True, cutoff_name="map_cut", ir_measures="AP"),
    Spec("gm_map", NONE, "gm_map", BINARY, official=True, summary="geometric"),
    Spec("Rprec", NONE, "Rprec", BINARY, official=True),
    Spec("bpref", NONE, "bpref", BINARY, official=True),
    Spec("recip_rank", NONE, "recip_rank", BINARY, official=True, cutoff_name="recip_rank",
         ir_measures="RR"),
    Spec("iprec_at_recall", LEVELS, "iprec_at_recall", BINARY, _RECALL_LEVELS, official=True,
         needs_cutoff=True, pytrec_eval_metric="iprec_at_recall (trec_eval 9)"),
    Spec("P", CUTOFFS, "P", BINARY, _TREC_CUTOFFS, official=True, cutoff_name="P",
         needs_cutoff=True, ir_measures="P"),
    Spec("recall", CUTOFFS, "recall", BINARY, _TREC_CUTOFFS, cutoff_name="recall",
         ir_measures="R"),
    Spec("ndcg", GAINS, "ndcg", GRADED, in_default=True, cutoff_name="ndcg_cut",
         ir_measures="nDCG"),
    Spec("ndcg_cut", CUTOFFS, "ndcg", GRADED, _TREC_CUTOFFS, in_default=True,
         needs_cutoff=True),
    Spec("map_cut", CUTOFFS, "map", BINARY, _TREC_CUTOFFS, needs_cutoff=True),
    Spec("success", CUTOFFS, "success", BINARY, (1.0, 5.0, 10.0), cutoff_name="success",
         needs_cutoff=True, ir_measures="Success"),
    Spec("infNDCG", STRATA, None, GRADED, doors=SAMPLED),
    Spec("rbp", PERSISTENCE, "rbp", GRADED, (0.9,)),
)  # fmt: skip
"""Every measure, in trec_eval's order of its report (its measures.c)."""

BY_NAME: dict[str, Spec] = {spec.name: spec for spec in SPECS}

DCG = "dcg"
"""The package's own measure beside trec_eval's: DCG (NDCG's numerator), at every door
but the report."""

INFNDCG = "infNDCG"
"""The measure of sampled qrels (sample_eval.pl's), evaluated apart from the others."""

OFFICIAL = tuple(spec.name for spec in SPECS if spec.official)
"""trec_eval's ``official`` set."""

DEFAULT_SET = tuple(spec.name for spec in SPECS if spec.in_default)
"""The ``trec-eval`` command's measures without ``-m`` (ndcg and ndcg_cut)."""

RANK_MEASURES = tuple(
    dict.fromkeys(spec.metric for spec in SPECS if spec.metric not in (None, "ndcg"))
)
"""The engine's measures beside NDCG (the kernels of ``_engine/_rank.py`` and
``_engine/_official.py``), summed from the same order of the staged rows."""

CUT_FAMILIES: dict[str, str] = {
    spec.cutoff_name: spec.metric
    for spec in SPECS
    if spec.cutoff_name is not None and spec.metric is not None
}
"""``query_scores``' names at a cutoff, ``<family>_<k>``: the engine's measure of each
family (``ndcg_cut`` -> ``ndcg``, ``map_cut`` -> ``map``, ``recip_rank`` -> its own)."""

PYTREC_NICKNAMES: dict[str, tuple[str, ...]] = {
    "official": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank", "iprec_at_recall", "P",
    ),
    "set": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "set_P", "set_recall",
        "set_relative_P", "set_map", "set_F", "utility",
    ),
    "all_trec": (
        "runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec",
        "bpref", "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP",
        "gm_bpref", "Rprec_mult", "utility", "11pt_avg", "ndcg", "ndcg_rel", "Rndcg",
        "ndcg_cut", "map_cut", "relative_P", "success", "set_P", "set_relative_P",
        "set_recall", "set_map", "set_F", "num_nonrel_judged_ret", "binG", "G",
    ),
    "prefs": (
        "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_pair", "prefs_avgjg",
    ),
    "all_prefs": (
        "runid", "num_q", "prefs_num_prefs_poss", "prefs_num_prefs_ful",
        "prefs_num_prefs_ful_ret", "prefs_simp", "prefs_simp_ret", "prefs_simp_imp",
        "prefs_pair", "prefs_pair_ret", "prefs_pair_imp", "prefs_avgjg", "prefs_avgjg_ret",
        "prefs_avgjg_imp", "prefs_avgjg_Rnonrel", "prefs_avgjg_Rnonrel_ret",
    ),
    "qrels_jg": ("runid", "num_q", "P_avgjg", "map_avgjg", "Rprec_mult_avgjg"),
}  # fmt: skip
"""pytrec_eval's nicknames (``pytrec_eval.supported_nicknames``, trec_eval 9.0.8's):
``RelevanceEvaluator`` takes those whose measures are all in :data:`SPECS`."""


_FAMILY_TEXT = {
    NONE: "none",
    CUTOFFS: "cutoffs ``.5,10``",
    GAINS: "level gains ``.1=3,2=9``",
    LEVELS: "recall levels ``.0.5,1``",
    PERSISTENCE: "persistence ``.p=0.95``",
    STRATA: "qrels with strata",
}
_DOOR_TEXT = {
    EVERY_DOOR: "every door",
    REPORT: "trec-eval, RelevanceEvaluator",
    SAMPLED: "sampled qrels",
}


def measures_table() -> str:
    """The docs' table of the measures (``docs/trec_eval.rst``, kept equal to this by
    ``tests/test_vocabulary.py``): one row per entry of :data:`SPECS`."""
    rows = [("measure", "parameters", "reads", "sets", "summary", "computed at")]
    for spec in SPECS:
        sets = [
            name for name, on in (("default", spec.in_default), ("official", spec.official)) if on
        ]
        rows.append(
            (
                f"``{spec.name}``",
                _FAMILY_TEXT[spec.params],
                "gains" if spec.reads == GRADED else "relevance",
                ", ".join(sets) or "-",
                spec.summary,
                _DOOR_TEXT[spec.doors],
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    rule = "  ".join("=" * width for width in widths)
    lines = [rule, "  ".join(c.ljust(w) for c, w in zip(rows[0], widths)).rstrip(), rule]
    lines += ["  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in rows[1:]]
    return "\n".join([*lines, rule]) + "\n"
