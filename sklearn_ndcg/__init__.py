"""NDCG as a first-class citizen of scikit-learn model selection.

The public API, in the groups of the API reference, each built in one private
subpackage (or module); every name below is imported from ``sklearn_ndcg``:

- Metrics (``_metrics``): ``ndcg_score``, ``dcg_score``, ``query_scores``,
  ``tie_diagnostics``, ``QueryScores``, ``QueryBounds``, ``TieDiagnostics``; the judgment pool
  ``JudgmentPool`` lives with the data path in ``_engine``.
- Information retrieval (``_ir``): ``evaluate_run``, ``read_trec_run``,
  ``read_trec_qrels``, ``RunEvaluation``, ``TrecRun``, ``TrecQrels``.
- Model selection (``_model_selection``): ``make_ndcg_scorer``,
  ``make_dcg_scorer``, ``RankingEvaluator``, ``RepeatedGroupKFold``.
- Statistical model selection (``_stats``): ``cross_val_query_scores``,
  ``search_query_scores``, ``paired_test``, ``bootstrap_ci``, ``compare_models``,
  ``SimplestTiedRefit``, ``ModelComparison``, ``PairwiseComparison``,
  ``PairedTestResult``, ``BootstrapResult``; planning: ``required_queries``,
  ``detectable_difference``, ``generalizability_study``, ``GeneralizabilityStudy``.
- Conventions of other libraries (``_conventions``): ``CONVENTIONS``,
  ``positive_part_gain``.
- Plotting (``_plot``): ``NDCGCurveDisplay``, ``ModelComparisonDisplay``.
- Data sets (``_datasets``): ``make_ranking``.
- Dask: the public module :mod:`sklearn_ndcg.dask`.

Underneath: ``_engine`` is the data path, one module per stage (validate ->
group into queries -> gains -> order with the tie rule -> discounts ->
aggregate); ``_options`` owns the vocabulary of the options they share;
``_cli`` is the command line (``sklearn-ndcg demo``, ``sklearn-ndcg
trec-eval``). Imports flow one way, from the groups down to ``_engine``.
"""

from ._conventions import CONVENTIONS, positive_part_gain
from ._datasets import make_ranking
from ._engine import JudgmentPool
from ._ir._trec import (
    RunEvaluation,
    TrecQrels,
    TrecRun,
    evaluate_run,
    read_trec_qrels,
    read_trec_run,
)
from ._metrics._diagnostics import TieDiagnostics, tie_diagnostics
from ._metrics._ndcg import QueryBounds, QueryScores, dcg_score, ndcg_score, query_scores
from ._model_selection._evaluator import RankingEvaluator
from ._model_selection._scorer import make_dcg_scorer, make_ndcg_scorer
from ._model_selection._splitter import RepeatedGroupKFold
from ._plot._comparison import ModelComparisonDisplay
from ._plot._curve import NDCGCurveDisplay
from ._stats._compare import ModelComparison, compare_models
from ._stats._paired import BootstrapResult, PairedTestResult, bootstrap_ci, paired_test
from ._stats._pairwise import PairwiseComparison
from ._stats._planning import (
    GeneralizabilityStudy,
    detectable_difference,
    generalizability_study,
    required_queries,
)
from ._stats._search import SimplestTiedRefit, cross_val_query_scores, search_query_scores

__version__ = "0.2.0"

__all__ = [
    "required_queries",
    "generalizability_study",
    "detectable_difference",
    "PairwiseComparison",
    "GeneralizabilityStudy",
    "BootstrapResult",
    "CONVENTIONS",
    "JudgmentPool",
    "ModelComparison",
    "ModelComparisonDisplay",
    "NDCGCurveDisplay",
    "PairedTestResult",
    "QueryScores",
    "QueryBounds",
    "RankingEvaluator",
    "RepeatedGroupKFold",
    "RunEvaluation",
    "SimplestTiedRefit",
    "TieDiagnostics",
    "TrecQrels",
    "TrecRun",
    "bootstrap_ci",
    "compare_models",
    "cross_val_query_scores",
    "dcg_score",
    "evaluate_run",
    "make_dcg_scorer",
    "make_ndcg_scorer",
    "make_ranking",
    "ndcg_score",
    "paired_test",
    "positive_part_gain",
    "query_scores",
    "read_trec_qrels",
    "read_trec_run",
    "search_query_scores",
    "tie_diagnostics",
]
