"""NDCG as a first-class citizen of scikit-learn model selection."""

from ._conventions import CONVENTIONS, positive_part_gain
from ._datasets import make_ranking
from ._diagnostics import TieDiagnostics, tie_diagnostics
from ._display import NDCGCurveDisplay
from ._evaluator import RankingEvaluator
from ._metrics import QueryScores, dcg_score, ndcg_score, query_scores
from ._scorer import make_dcg_scorer, make_ndcg_scorer

__version__ = "0.2.0"

__all__ = [
    "CONVENTIONS",
    "NDCGCurveDisplay",
    "QueryScores",
    "RankingEvaluator",
    "TieDiagnostics",
    "dcg_score",
    "make_dcg_scorer",
    "make_ndcg_scorer",
    "make_ranking",
    "ndcg_score",
    "positive_part_gain",
    "query_scores",
    "tie_diagnostics",
]
