"""NDCG as a first-class citizen of scikit-learn model selection."""

from ._metrics import QueryScores, dcg_score, ndcg_score, query_scores

__version__ = "0.1.0"

__all__ = [
    "QueryScores",
    "dcg_score",
    "ndcg_score",
    "query_scores",
]
