"""An ir_measures provider (:func:`register_ir_measures`): ir_measures' nDCG, RR, AP,
P, R and Success computed by :func:`query_scores` from pytrec_eval's dicts, with this
package's tie rules.

ir_measures (an optional dependency) lets an outside package add a provider to its
registry (``ir_measures.providers.register``): the provider says which measures and
parameters it supports, and returns an evaluator that yields one ``Metric`` per query
and measure. Its classes are made on first use, so that this module imports without
ir_measures.
"""

from __future__ import annotations

from functools import cache

from .._conventions import positive_part_gain
from .._metrics import query_scores
from .._validate_params import StrOptions, validate_params
from .._vocabulary import BY_NAME, SPECS

# ir_measures' measure -> query_scores' metric (trec_eval's -q name), from the vocabulary
_NAMES = {spec.ir_measures: spec.name for spec in SPECS if spec.ir_measures is not None}
PROVIDER_NAMES = {"docno": "sklearn_ndcg", "average": "sklearn_ndcg_average"}


def _metric_name(measure) -> str:
    """query_scores' name of one ir_measures measure: ``nDCG@10`` is ``ndcg_cut_10``."""
    name = _NAMES[measure.NAME]
    cutoff = measure.params.get("cutoff")
    return name if cutoff is None else f"{BY_NAME[name].cutoff_name}_{int(cutoff)}"


@cache
def _provider_class(ir_measures):
    """The provider and evaluator classes, subclasses of ir_measures' own."""
    measures = ir_measures.measures
    from ir_measures.providers.base import NOT_PROVIDED, Any, Choices

    class Evaluator(ir_measures.providers.Evaluator):
        def __init__(self, measures, qrels, ties):
            self.qrels = ir_measures.util.QrelsConverter(qrels).as_dict_of_dict()
            super().__init__(measures, set(self.qrels))
            self.ties = ties
            self.groups = {}  # (NDCG or not, rel, judged_only) -> {name: measure}
            for measure in measures:
                ndcg = measure.NAME == "nDCG"
                rel = 1 if ndcg else measure["rel"]
                key = (ndcg, rel, bool(measure["judged_only"]))
                self.groups.setdefault(key, {})[_metric_name(measure)] = measure

        def _iter_calc(self, run):
            run = ir_measures.util.RunConverter(run).as_dict_of_dict()
            run = {qid: docs for qid, docs in run.items() if qid in self.qrels and docs}
            if not run or not self.qrels:
                return
            for (ndcg, rel, judged_only), by_name in self.groups.items():
                results = query_scores(
                    self.qrels,
                    run,
                    metric=list(by_name),
                    ties=self.ties,
                    relevance_level=rel,
                    unjudged="drop" if judged_only else "zero",
                    gain=positive_part_gain if ndcg else "linear",
                )
                for name, measure in by_name.items():
                    values = results[name]
                    for qid, value in zip(values.qid.tolist(), values.score.tolist()):
                        yield ir_measures.Metric(query_id=qid, measure=measure, value=value)

    class Provider(ir_measures.providers.Provider):
        """sklearn_ndcg"""

        SUPPORTED_MEASURES = [
            type(measures.nDCG)(
                cutoff=Any(), dcg=Choices("log2"), gains=Choices(NOT_PROVIDED), judged_only=Any()
            ),
            *(
                type(measure)(cutoff=Any(), rel=Any(), judged_only=Any())
                for measure in (measures.RR, measures.AP, measures.P, measures.R, measures.Success)
            ),
        ]

        def __init__(self, ties: str):
            super().__init__()
            self.NAME = PROVIDER_NAMES[ties]
            self.ties = ties

        def _evaluator(self, measures, qrels):
            # ir_measures' own error, before anything is computed (its providers raise
            # it from their evaluators; the registry asks supports() first)
            measures = list(measures)
            for measure in measures:
                if not self.supports(measure):
                    raise ValueError(f"unsupported measure {measure}")
            return Evaluator(measures, qrels, self.ties)

        def install_instructions(self) -> str:
            return "pip install sklearn-ndcg"

    return Provider


@validate_params({"ties": [StrOptions(set(PROVIDER_NAMES))]}, prefer_skip_nested_validation=True)
def register_ir_measures(*, ties: str = "docno"):
    """Register this package as a provider of ir_measures, and return the provider.

    ir_measures (``pip install ir-measures``) computes its measures with one of several
    providers (pytrec_eval, ranx, ...). This adds one that computes nDCG, nDCG@k, RR,
    RR@k, AP, AP@k, P@k, R@k and Success@k (``rel=`` and ``judged_only=`` included)
    with :func:`query_scores`, from the same dicts: the same values as ir_measures'
    pytrec_eval provider (trec_eval's, to 1e-12) with ``ties="docno"``, and beyond it
    float judgments, RR@k, and ``ties="average"``, each measure's exact expected value
    over the orders of tied documents.

    Read more in the :ref:`User Guide <ir_measures_provider>`.

    Parameters
    ----------
    ties : {"docno", "average"}, default="docno"
        How documents with equal scores are ordered:

        - "docno": by decreasing document id, as trec_eval and pytrec_eval; the
          provider is registered as ``"sklearn_ndcg"``.
        - "average": each measure's expected value over the orders of tied
          documents; registered as ``"sklearn_ndcg_average"``.

    Returns
    -------
    provider : ir_measures.providers.Provider
        The provider, also in ``ir_measures.providers.registry`` under its name. Its
        ``calc_aggregate(measures, qrels, run)``, ``iter_calc`` and ``evaluator`` are
        ir_measures' own. A measure it does not support (its ``supports()`` says
        False: nDCG with custom ``gains`` or ``dcg="exp-log2"``, other measures) raises
        ir_measures' error, ``ValueError("unsupported measure ...")``, before anything
        is computed; place it first in a ``FallbackProvider`` to let others compute
        them.

    Raises
    ------
    ImportError
        If ir_measures is not installed.

    See Also
    --------
    RelevanceEvaluator : The interface of pytrec_eval, from this package.
    query_scores : The per-query values, from arrays or the same dicts.

    Notes
    -----
    ir_measures' default pipeline (``ir_measures.calc_aggregate``) is a fixed list of
    providers; a registered provider is used where it is named: called directly, in the
    registry (its command's ``--provider``), or in a ``FallbackProvider``.

    Examples
    --------
    >>> import ir_measures
    >>> from ir_measures import RR, nDCG
    >>> from sklearn_ndcg import register_ir_measures
    >>> provider = register_ir_measures()
    >>> qrels = {"q1": {"d1": 1, "d2": 0, "d3": 2}}
    >>> run = {"q1": {"d1": 0.5, "d2": 0.9, "d3": 0.5}}
    >>> result = provider.calc_aggregate([RR, nDCG @ 2], qrels, run)
    >>> {str(measure): round(value, 4) for measure, value in result.items()}
    {'RR': 0.5, 'nDCG@2': 0.4796}
    >>> ir_measures.providers.registry["sklearn_ndcg"] is provider
    True
    """
    try:
        import ir_measures
    except ImportError as error:
        raise ImportError(
            "register_ir_measures needs ir_measures; install it with "
            "pip install 'sklearn-ndcg[irmeasures]' (or pip install ir-measures)."
        ) from error
    provider = _provider_class(ir_measures)(ties)
    ir_measures.providers.register(provider)
    return provider
