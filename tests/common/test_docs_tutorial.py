"""The tutorial (docs/examples/plot_defended_choice.py) runs as a script, and the numbers
it prints are the numbers of its models (issue 37).

The held-out NDCG@10 of the recommended and of the best-mean model are recomputed here
from scratch: the same split of the same data, each model refitted on the training
queries, and scikit-learn's ``ndcg_score`` query by query (one query a row, the mean over
queries; a query without relevant documents counts 0, the package's default).
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "examples" / "plot_defended_choice.py"
HELD_OUT = re.compile(
    r"^held-out NDCG@10, (recommended|best mean)\s+\(max_depth=(\d+)\): (\d\.\d{4}), "
    r"95% CI \[(\d\.\d{4}), (\d\.\d{4})\]$",
    flags=re.MULTILINE,
)


@pytest.fixture(scope="module")
def printed():
    pytest.importorskip("matplotlib")
    env = {**os.environ, "MPLBACKEND": "Agg", "OMP_NUM_THREADS": "1"}
    result = subprocess.run(
        [sys.executable, str(TUTORIAL)],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        cwd=ROOT,
        env=env,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout


def _sklearn_ndcg_at_10(y, scores, qid):
    from sklearn.metrics import ndcg_score

    values = [
        ndcg_score([y[qid == q]], [scores[qid == q]], k=10) if (y[qid == q] > 0).any() else 0.0
        for q in np.unique(qid)
    ]
    return float(np.mean(values)), len(values)


def test_held_out_numbers_are_those_of_the_models(printed):
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.model_selection import GroupShuffleSplit

    from sklearn_ndcg import make_ranking

    X, y, qid = make_ranking(n_queries=240, random_state=0)  # as the tutorial
    split = GroupShuffleSplit(n_splits=1, test_size=0.25, random_state=0)
    train, test = next(split.split(X, y, groups=qid))
    lines = {label: rest for label, *rest in HELD_OUT.findall(printed)}
    assert set(lines) == {"recommended", "best mean"}, printed
    for depth, mean, low, high in lines.values():
        model = HistGradientBoostingRegressor(
            max_iter=60, early_stopping=False, random_state=0, max_depth=int(depth)
        ).fit(X[train], y[train])
        expected, n_queries = _sklearn_ndcg_at_10(y[test], model.predict(X[test]), qid[test])
        assert float(mean) == pytest.approx(expected, abs=5e-5)
        assert float(low) < float(mean) < float(high)
    assert n_queries >= 30  # enough for every interval and test of the tutorial
    # the report's sentence repeats the same numbers, rounded to three digits
    sentence = " ".join(printed[printed.index("We chose") :].split())
    depth, mean, low, high = lines["recommended"]
    best_depth, best_mean, best_low, best_high = lines["best mean"]
    assert (
        f"max_depth={depth}" in sentence
        and f"On {n_queries} held-out queries its NDCG@10 is {float(mean):.3f} "
        f"(95% bootstrap CI {float(low):.3f} to {float(high):.3f}), against "
        f"{float(best_mean):.3f} ({float(best_low):.3f} to {float(best_high):.3f}) for "
        f"max_depth={best_depth}."
        in sentence
    ), sentence


def test_the_recommended_model_is_the_simplest_equivalent(printed):
    """The verdict table: the recommendation is the smallest max_depth among the rows
    marked reference or equivalent, and every verdict printed is one the text explains."""
    rows = re.findall(
        r"^max_depth=(\d+)\s+\d\.\d{4}\s+-?\d\.\d{4}\s+\S+\s+(yes|no)\s+(\w+)$",
        printed,
        flags=re.MULTILINE,
    )
    assert len(rows) == 4, printed
    verdicts = {verdict for *_, verdict in rows}
    assert verdicts <= {"reference", "equivalent", "worse", "inconclusive", "better"}
    eligible = [int(d) for d, _, verdict in rows if verdict in ("reference", "equivalent")]
    recommended = HELD_OUT.search(printed)
    assert recommended.group(1) == "recommended"
    assert int(recommended.group(2)) == min(eligible)
    text = TUTORIAL.read_text()
    for verdict in verdicts - {"reference"}:
        assert f"# - *{verdict}*:" in text, verdict
    assert "**significant but equivalent**" in text


def test_tutorial_sorts_first_in_the_gallery():
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        from gallery_order import TutorialFirst
    finally:
        sys.path.remove(str(ROOT / "docs"))
    key = TutorialFirst(str(TUTORIAL.parent))
    names = [str(p) for p in TUTORIAL.parent.glob("plot_*.py")]
    names += [str(TUTORIAL.parent / "plot_a.py"), str(TUTORIAL.parent / "plot_click_logs.py")]
    ordered = [Path(name).name for name in sorted(names, key=key)]
    assert ordered[0] == TUTORIAL.name  # first, before names that sort before it ...
    assert ordered[1:] == sorted(ordered[1:])  # ... then by file name
    conf = (ROOT / "docs" / "conf.py").read_text()
    assert '"within_subsection_order": "gallery_order.TutorialFirst"' in conf
