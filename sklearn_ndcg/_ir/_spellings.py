"""pytrec_eval's spellings of the measures (:func:`pytrec_measures`), for
:class:`._pytrec.RelevanceEvaluator`: ``meas``, ``meas.p1``, ``meas_p1``,
``meas.p1,p2`` and ``meas_p1,p2``, parameters given for one measure in several
spellings merged, and pytrec_eval's nicknames ("official", ...) where the registry
(:data:`._measures.MEASURES`) has every measure they stand for.

pytrec_eval (``pytrec_eval/__init__.py``: ``_expand_nicknames`` and
``_combine_measures``) reads ``meas_p1,p2`` with the pattern below from the start of
the name (what follows it is ignored), then gives trec_eval ``meas.p1,p2`` with the
parameters of all the spellings of ``meas``, sorted as text.
"""

from __future__ import annotations

import re

from .._vocabulary import PYTREC_NICKNAMES
from ._measures import MEASURES, Measures, Request, check_params, measures_from, needs_strata
from ._measures import parse_measure as parse_dotted

# pytrec_eval's parameters after "meas." or "meas_": numbers, separated by commas
_PARAMS = r"[\._]([0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*)"
# longest first: "map_cut_10" is map_cut's, not map's
_PATTERNS = {
    name: re.compile(re.escape(name) + _PARAMS) for name in sorted(MEASURES, key=len, reverse=True)
}

NICKNAMES = PYTREC_NICKNAMES


def _spelled(text: str, where: str) -> tuple[str, str | None]:
    """One measure as pytrec_eval spells it: its name and parameters (None if none)."""
    name = text.partition(".")[0]
    if text in MEASURES or name in MEASURES:  # meas, meas.p1,p2 (and ndcg.1=3): trec_eval's
        return parse_dotted(text, where=where)
    for name, pattern in _PATTERNS.items():  # meas_p1,p2
        match = pattern.match(text)
        if match is not None:
            check_params(name, match[1], where=where)
            return name, match[1]
    return parse_dotted(text, where=where)  # the error of an unknown measure


def _expanded(texts: list[str], where: str) -> list[str]:
    """The names, nicknames replaced by the measures they stand for."""
    names: list[str] = []
    for text in texts:
        if text in NICKNAMES and text not in MEASURES:
            lacking = [name for name in NICKNAMES[text] if name not in MEASURES]
            if lacking:
                raise ValueError(
                    f"measure nickname {text!r} stands for {', '.join(NICKNAMES[text])}; "
                    f"{where} lacks {', '.join(lacking)}. Give the measures it has by name."
                )
            names.extend(NICKNAMES[text])
        else:
            names.append(text)
    return names


def pytrec_measures(texts: list[str], *, where: str) -> Measures:
    """The measures of pytrec_eval's ``measures`` argument, in the registry's order.

    Each name in any of pytrec_eval's spellings; the parameters of one measure given
    in several spellings are merged (``P.5`` and ``P_10`` is ``P.10,5``), a measure
    given without parameters too takes them. ``where`` names the caller in messages.
    """
    params: dict[str, set[str]] = {}
    for text in _expanded(texts, where):
        name, given = _spelled(text, where)
        params.setdefault(name, set()).update(given.split(",") if given else ())
    specs = [(name, ",".join(sorted(items)) or None) for name, items in params.items()]
    for name, merged in specs:
        if needs_strata((Request(name, None),)):
            raise ValueError(
                f"{where} cannot compute {name}, which needs qrels with strata; use "
                'evaluate_run(..., metric="infNDCG") or the trec-eval command.'
            )
        if merged is not None:
            check_params(name, merged, where=where)  # merged: may repeat a cutoff or level
    return tuple(request._replace(pytrec_eval=True) for request in measures_from(specs))
