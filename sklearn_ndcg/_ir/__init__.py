"""Information retrieval: TREC runs and qrels, their join, and trec_eval's measures.

The public face of the folder for the rest of the package, the ``trec-eval`` command
among it: the names below import numpy and nothing else. The public functions that
validate their arguments with scikit-learn (``evaluate_run``, ``read_trec_run``,
``read_trec_qrels``, ``RunEvaluation``) live in ``_trec`` and are exported by the
package itself, which loads them lazily.
"""

from ._join import trec_order_score
from ._measures import (
    MEASURES,
    OFFICIAL_SET,
    SUMMARIES,
    Measure,
    Measures,
    Request,
    measures_from,
    parse_measure,
    usage,
)
from ._report import Report, evaluate_files, streamed_scores, trec_eval_scores
from ._tables import TrecQrels, TrecRun, read_qrels_bytes, read_run_bytes

__all__ = [
    "MEASURES",
    "OFFICIAL_SET",
    "SUMMARIES",
    "Measure",
    "Measures",
    "Report",
    "Request",
    "TrecQrels",
    "TrecRun",
    "evaluate_files",
    "measures_from",
    "parse_measure",
    "read_qrels_bytes",
    "read_run_bytes",
    "streamed_scores",
    "trec_eval_scores",
    "trec_order_score",
    "usage",
]
