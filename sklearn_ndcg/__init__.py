"""NDCG as a first-class citizen of scikit-learn model selection.

The public API, in the groups of the API reference, each built in one private
subpackage (or module); every name below is imported from ``sklearn_ndcg``:

- Metrics (``_metrics``): ``ndcg_score``, ``dcg_score``, ``query_scores``,
  ``tie_diagnostics``, ``QueryScores``, ``QueryBounds``, ``TieDiagnostics``; the judgment pool
  ``JudgmentPool`` lives with the data path in ``_engine``.
- Information retrieval (``_ir``): ``evaluate_run``, ``read_trec_run``,
  ``read_trec_qrels``, ``RunEvaluation``, ``TrecRun``, ``TrecQrels``,
  ``read_sampled_qrels``, ``SampledQrels``.
- Model selection (``_model_selection``): ``make_ndcg_scorer``,
  ``make_dcg_scorer``, ``RankingEvaluator``, ``RepeatedGroupKFold``.
- Statistical model selection (``_stats``): ``cross_val_query_scores``,
  ``search_query_scores``, ``paired_test``, ``bootstrap_ci``, ``compare_models``,
  ``compare_benchmark`` (its result ``BenchmarkComparison``, ``FriedmanResult``),
  ``SimplestCompetitiveRefit`` (formerly ``SimplestTiedRefit``), ``ModelComparison``,
  ``PairwiseComparison``,
  ``PairedTestResult``, ``BootstrapResult``; planning: ``required_queries``,
  ``detectable_difference``, ``generalizability_study``, ``GeneralizabilityStudy``.
- Judgments (``_judgments``): NDCG from model (e.g. language-model) labels with a
  human sample: ``prediction_powered_mean``, ``prediction_powered_difference``,
  ``PredictionPoweredResult``, ``PredictionPoweredComparison``.
- Conventions of other libraries (``_conventions``): ``CONVENTIONS``,
  ``positive_part_gain``.
- Click logs (``_clicks``): ``estimate_position_bias``, ``PositionBias``,
  ``counterfactual_dcg``, ``make_counterfactual_dcg_scorer``, ``CounterfactualResult``,
  ``make_click_log``, ``SimulatedClickLog``.
- Plotting (``_plot``): ``NDCGCurveDisplay``, ``ModelComparisonDisplay``,
  ``PositionBiasDisplay``, ``CriticalDifferenceDisplay``.
- Data sets (``_datasets``): ``make_ranking``.
- Dask: the public module :mod:`sklearn_ndcg.dask`.

Underneath: ``_engine`` is the data path, one module per stage (validate ->
group into queries -> gains -> order with the tie rule -> discounts ->
aggregate); ``_options`` owns the vocabulary of the options they share;
``_cli`` is the command line (``sklearn-ndcg demo``, ``sklearn-ndcg
trec-eval``). Imports flow one way, from the groups down to ``_engine``.

Every public name is loaded on first use (PEP 562 ``__getattr__``, as scipy and
scikit-learn load their submodules): ``import sklearn_ndcg`` imports numpy at most, and
the ``trec-eval`` command never imports scikit-learn, scipy or pandas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_names

__version__ = "0.2.0"

if TYPE_CHECKING:  # the real imports, for type checkers and Sphinx
    from ._clicks._click_scorer import make_counterfactual_dcg_scorer
    from ._clicks._counterfactual import counterfactual_dcg
    from ._clicks._counterfactual_results import CounterfactualResult
    from ._clicks._make_log import SimulatedClickLog, make_click_log
    from ._clicks._position_bias import PositionBias, estimate_position_bias
    from ._conventions import CONVENTIONS, positive_part_gain
    from ._datasets import make_ranking
    from ._engine import JudgmentPool
    from ._ir._files import read_trec_qrels, read_trec_run
    from ._ir._ir_measures import register_ir_measures
    from ._ir._pytrec import RelevanceEvaluator
    from ._ir._sampled import SampledQrels, read_sampled_qrels
    from ._ir._trec import RunEvaluation, TrecQrels, TrecRun, evaluate_run
    from ._judgments._ppi import prediction_powered_difference, prediction_powered_mean
    from ._judgments._ppi_results import PredictionPoweredComparison, PredictionPoweredResult
    from ._metrics._diagnostics import TieDiagnostics, tie_diagnostics
    from ._metrics._ndcg import QueryBounds, QueryScores, dcg_score, ndcg_score, query_scores
    from ._model_selection._evaluator import RankingEvaluator
    from ._model_selection._measure_scorer import make_ranking_scorer
    from ._model_selection._scorer import make_dcg_scorer, make_ndcg_scorer
    from ._model_selection._splitter import RepeatedGroupKFold
    from ._plot._comparison import ModelComparisonDisplay
    from ._plot._critical_difference import CriticalDifferenceDisplay
    from ._plot._curve import NDCGCurveDisplay
    from ._plot._propensity import PositionBiasDisplay
    from ._stats._benchmark import compare_benchmark
    from ._stats._benchmark_comparison import BenchmarkComparison
    from ._stats._bootstrap import BootstrapResult, bootstrap_ci
    from ._stats._compare import compare_models
    from ._stats._cross_val import cross_val_query_scores
    from ._stats._friedman import FriedmanResult
    from ._stats._model_comparison import ModelComparison
    from ._stats._paired import PairedTestResult, paired_test
    from ._stats._pairwise import PairwiseComparison
    from ._stats._planning import (
        GeneralizabilityStudy,
        detectable_difference,
        generalizability_study,
        required_queries,
    )
    from ._stats._refit import SimplestCompetitiveRefit, SimplestTiedRefit
    from ._stats._search import search_query_scores

# each public name -> the private module that defines it, relative to this package
_SOURCES = {
    "required_queries": "_stats._planning",
    "generalizability_study": "_stats._planning",
    "detectable_difference": "_stats._planning",
    "PairwiseComparison": "_stats._pairwise",
    "GeneralizabilityStudy": "_stats._planning",
    "BootstrapResult": "_stats._bootstrap",
    "BenchmarkComparison": "_stats._benchmark_comparison",
    "FriedmanResult": "_stats._friedman",
    "CONVENTIONS": "_conventions",
    "CounterfactualResult": "_clicks._counterfactual_results",
    "JudgmentPool": "_engine",
    "ModelComparison": "_stats._model_comparison",
    "ModelComparisonDisplay": "_plot._comparison",
    "CriticalDifferenceDisplay": "_plot._critical_difference",
    "NDCGCurveDisplay": "_plot._curve",
    "PositionBias": "_clicks._position_bias",
    "PositionBiasDisplay": "_plot._propensity",
    "PairedTestResult": "_stats._paired",
    "QueryScores": "_metrics._ndcg",
    "QueryBounds": "_metrics._ndcg",
    "RankingEvaluator": "_model_selection._evaluator",
    "RepeatedGroupKFold": "_model_selection._splitter",
    "RunEvaluation": "_ir._trec",
    "SampledQrels": "_ir._sampled",
    "SimplestCompetitiveRefit": "_stats._refit",
    "SimplestTiedRefit": "_stats._refit",
    "TieDiagnostics": "_metrics._diagnostics",
    "TrecQrels": "_ir._trec",
    "TrecRun": "_ir._trec",
    "bootstrap_ci": "_stats._bootstrap",
    "compare_models": "_stats._compare",
    "compare_benchmark": "_stats._benchmark",
    "counterfactual_dcg": "_clicks._counterfactual",
    "cross_val_query_scores": "_stats._cross_val",
    "dcg_score": "_metrics._ndcg",
    "estimate_position_bias": "_clicks._position_bias",
    "evaluate_run": "_ir._trec",
    "make_counterfactual_dcg_scorer": "_clicks._click_scorer",
    "make_click_log": "_clicks._make_log",
    "SimulatedClickLog": "_clicks._make_log",
    "make_dcg_scorer": "_model_selection._scorer",
    "make_ndcg_scorer": "_model_selection._scorer",
    "make_ranking": "_datasets",
    "ndcg_score": "_metrics._ndcg",
    "paired_test": "_stats._paired",
    "prediction_powered_difference": "_judgments._ppi",
    "prediction_powered_mean": "_judgments._ppi",
    "PredictionPoweredComparison": "_judgments._ppi_results",
    "PredictionPoweredResult": "_judgments._ppi_results",
    "positive_part_gain": "_conventions",
    "query_scores": "_metrics._ndcg",
    "read_sampled_qrels": "_ir._sampled",
    "read_trec_qrels": "_ir._files",
    "RelevanceEvaluator": "_ir._pytrec",
    "make_ranking_scorer": "_model_selection._measure_scorer",
    "read_trec_run": "_ir._files",
    "register_ir_measures": "_ir._ir_measures",
    "search_query_scores": "_stats._search",
    "tie_diagnostics": "_metrics._diagnostics",
}

__all__ = [
    "required_queries",
    "generalizability_study",
    "detectable_difference",
    "PairwiseComparison",
    "GeneralizabilityStudy",
    "BootstrapResult",
    "BenchmarkComparison",
    "FriedmanResult",
    "CONVENTIONS",
    "CounterfactualResult",
    "JudgmentPool",
    "ModelComparison",
    "ModelComparisonDisplay",
    "CriticalDifferenceDisplay",
    "NDCGCurveDisplay",
    "PairedTestResult",
    "PositionBias",
    "PositionBiasDisplay",
    "QueryScores",
    "QueryBounds",
    "RankingEvaluator",
    "RepeatedGroupKFold",
    "RunEvaluation",
    "SampledQrels",
    "SimulatedClickLog",
    "SimplestCompetitiveRefit",
    "SimplestTiedRefit",
    "TieDiagnostics",
    "TrecQrels",
    "TrecRun",
    "bootstrap_ci",
    "compare_models",
    "compare_benchmark",
    "counterfactual_dcg",
    "cross_val_query_scores",
    "dcg_score",
    "estimate_position_bias",
    "evaluate_run",
    "make_counterfactual_dcg_scorer",
    "make_dcg_scorer",
    "make_ndcg_scorer",
    "make_click_log",
    "make_ranking",
    "ndcg_score",
    "paired_test",
    "prediction_powered_difference",
    "prediction_powered_mean",
    "PredictionPoweredComparison",
    "PredictionPoweredResult",
    "positive_part_gain",
    "query_scores",
    "read_sampled_qrels",
    "read_trec_qrels",
    "RelevanceEvaluator",
    "make_ranking_scorer",
    "read_trec_run",
    "register_ir_measures",
    "search_query_scores",
    "tie_diagnostics",
]


__getattr__, __dir__ = lazy_names(globals(), _SOURCES, __all__)
