"""Bad input at every public entry point: each feature's rows live with the feature.

The rows are in the ``test_*_bad_input.py`` file beside each feature's tests
(``tests/metrics/``, ``tests/model_selection/``, ``tests/plot/``, ``tests/cli/``,
``tests/clicks/``, ``tests/judgments/``, ``tests/test_datasets_bad_input.py``); the
convention they follow
and the shared data are in ``tests/_bad_input.py``. This file guards the whole: every file
is there, each holds the rows of its entry points, and the table as a whole does not shrink
by accident.
"""

import importlib.util
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
# the feature files and the entry points whose rows each holds
FILES = {
    "metrics/test_ndcg_bad_input.py": {"ndcg_score", "dcg_score", "query_scores"},
    "metrics/test_diagnostics_bad_input.py": {"tie_diagnostics"},
    "model_selection/test_scorer_bad_input.py": {
        "make_ndcg_scorer",
        "make_dcg_scorer",
        "ndcg_scorer_call",
        "dcg_scorer_call",
    },
    "model_selection/test_evaluator_bad_input.py": {
        "RankingEvaluator",
        "RankingEvaluator.fit",
        "RankingEvaluator.score",
    },
    "plot/test_curve_bad_input.py": {"NDCGCurveDisplay"},
    "clicks/test_position_bias_bad_input.py": {"estimate_position_bias", "PositionBiasDisplay"},
    "cli/test_demo_bad_input.py": {"demo_cli"},
    "test_datasets_bad_input.py": {"make_ranking"},
    "judgments/test_ppi_bad_input.py": {
        "prediction_powered_mean",
        "prediction_powered_difference",
    },
}


def _cases(relative):
    """The ``CASES`` of one feature file (the module pytest imported, when it did)."""
    path = TESTS / relative
    module = sys.modules.get(path.stem)
    if module is None or Path(module.__file__).resolve() != path:
        spec = importlib.util.spec_from_file_location(f"_bad_input_rows_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    return module.CASES


def test_case_count():
    """Guard against the table shrinking by accident; the count is reported."""
    found = sorted(p.relative_to(TESTS).as_posix() for p in TESTS.rglob("test_*_bad_input.py"))
    assert found == sorted(FILES), found
    total = 0
    for relative, entries in FILES.items():
        cases = _cases(relative)
        assert {case.id.split("-")[0] for case in cases} == entries, relative
        total += len(cases)
    assert total >= 250, total
