"""NDCG as a first-class citizen of scikit-learn model selection."""

from ._conventions import CONVENTIONS, positive_part_gain
from ._datasets import make_ranking
from ._engine._pool import JudgmentPool
from ._ir._trec import (
    RunEvaluation,
    TrecQrels,
    TrecRun,
    evaluate_run,
    read_trec_qrels,
    read_trec_run,
)
from ._metrics._diagnostics import TieDiagnostics, tie_diagnostics
from ._metrics._ndcg import QueryScores, dcg_score, ndcg_score, query_scores
from ._model_selection._evaluator import RankingEvaluator
from ._model_selection._scorer import make_dcg_scorer, make_ndcg_scorer
from ._model_selection._splitter import RepeatedGroupKFold
from ._plot._comparison import ModelComparisonDisplay
from ._plot._curve import NDCGCurveDisplay
from ._stats._paired import (
    BootstrapResult,
    ModelComparison,
    PairedTestResult,
    bootstrap_ci,
    compare_models,
    paired_test,
)
from ._stats._search import SimplestTiedRefit, cross_val_query_scores, search_query_scores

__version__ = "0.2.0"

__all__ = [
    "BootstrapResult",
    "CONVENTIONS",
    "JudgmentPool",
    "ModelComparison",
    "ModelComparisonDisplay",
    "NDCGCurveDisplay",
    "PairedTestResult",
    "QueryScores",
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
