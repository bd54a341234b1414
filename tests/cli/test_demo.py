"""Tests for the demo: ``python -m sklearn_ndcg demo``."""

import copy
import io
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

from sklearn_ndcg import make_ranking, ndcg_score
from sklearn_ndcg.__main__ import main
from sklearn_ndcg._cli._demo import run_demo

SMALL = ["demo", "--n-queries", "40", "--seed", "3"]


@pytest.fixture(scope="module")
def demo_output():
    """Run the demo once at a small size, LightGBM and XGBoost included if installed."""
    out, progress = io.StringIO(), io.StringIO()
    search = run_demo(n_queries=40, k=10, seed=3, out=out, progress=progress)
    return search, out.getvalue(), progress.getvalue()


def test_main_runs_end_to_end(capsys):
    assert main([*SMALL, "--no-ltr", "-k", "5"]) == 0
    captured = capsys.readouterr()
    assert re.search(r"rank\s+model\s+NDCG@1\s+NDCG@5\s+NDCG@10\n", captured.out)
    # 2 x 2 grid of HistGradientBoostingRegressor, mean ± std per cutoff
    rows = re.findall(
        r"^\s+\d\s+HistGradientBoostingRegressor\(.*$", captured.out, flags=re.MULTILINE
    )
    assert len(rows) == 4
    assert all(len(re.findall(r"\d\.\d{3} ± \d\.\d{3}", row)) == 3 for row in rows)
    assert "Best parameters (by NDCG@5): HistGradientBoostingRegressor(" in captured.out
    assert "Held-out NDCG@5" in captured.out
    # progress goes to stderr, the report to stdout
    assert "candidate 4/4" in captured.err and "candidate 1/4" not in captured.out


def test_search_holds_no_stream(tmp_path):
    # scikit-learn 1.8 deep-copies the search (the routing owner) and joblib pickles
    # estimators; a search holding the progress stream (a file) crashed the demo there.
    with open(tmp_path / "progress.txt", "w") as stream:
        search = run_demo(
            n_queries=30, n_splits=2, use_ltr=False, out=io.StringIO(), progress=stream
        )
        pickle.loads(pickle.dumps(search))
        copy.deepcopy(search)
    assert "candidate 4/4" in (tmp_path / "progress.txt").read_text()


def test_quiet_hides_progress(capsys):
    main([*SMALL, "--no-ltr", "--quiet", "--n-splits", "2"])
    captured = capsys.readouterr()
    assert captured.err == "" and "Best parameters" in captured.out


def test_table_matches_the_search(demo_output):
    search, out, _ = demo_output
    results = search.cv_results_
    n_candidates = len(results["params"])
    assert f"NDCG of {n_candidates} candidates" in out
    # the first row of the table is the best candidate, with its fold scores
    best = search.best_index_
    first_row = re.search(r"^\s+1\s+(\S.*)$", out, flags=re.MULTILINE).group(1)
    for cutoff in (1, 5, 10):
        mean = results[f"mean_test_ndcg@{cutoff}"][best]
        std = results[f"std_test_ndcg@{cutoff}"][best]
        assert f"{mean:.3f} ± {std:.3f}" in first_row
    assert results["rank_test_ndcg@10"][best] == 1


def test_ltr_candidates_only_when_installed(demo_output):
    _, out, _ = demo_output
    for module, name in [
        ("lightgbm", "LGBMRanker"),
        ("xgboost", "XGBRanker"),
        ("catboost", "CatBoostRanker"),
    ]:
        try:
            __import__(module)
        except ImportError:
            assert name not in out
        else:
            assert f"{name}(" in out


def test_held_out_scores(demo_output):
    search, out, progress = demo_output
    # recompute the held-out split and the perfect ranking independently
    from sklearn.model_selection import GroupShuffleSplit

    X, y, qid = make_ranking(n_queries=40, random_state=3)
    _, test = next(
        GroupShuffleSplit(n_splits=1, test_size=0.25, random_state=3).split(X, y, groups=qid)
    )
    values = dict(
        re.findall(
            r"^  (best model|random scores|perfect ranking)\s+(\S+)$", out, flags=re.MULTILINE
        )
    )
    assert set(values) == {"best model", "random scores", "perfect ranking"}
    perfect = ndcg_score(y[test], y[test], qid=qid[test], k=10)
    assert float(values["perfect ranking"]) == pytest.approx(perfect, abs=5e-4)
    best = search.best_estimator_.predict(X[test])
    best_score = ndcg_score(y[test], best, qid=qid[test], k=10)
    assert float(values["best model"]) == pytest.approx(best_score, abs=5e-4)
    assert float(values["random scores"]) < float(values["best model"])
    assert f"{len(np.unique(qid[test]))} queries" in out
    assert "search done" in progress


def test_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--n-queries", "--k", "--seed", "--n-splits", "--no-ltr", "--n-jobs"):
        assert option in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["demo", "--k", "0"], "argument -k/--k: expected a number >= 1, got 0"),
        (["demo", "--n-queries", "many"], "argument --n-queries: expected a whole number"),
        (["demo", "--n-splits", "1"], "argument --n-splits: expected a number >= 2"),
        (["demo", "--colour"], "unrecognized arguments: --colour"),
        (["train"], "invalid choice: 'train'"),
        ([], "required: COMMAND"),
    ],
)
def test_bad_arguments_exit_with_status_2(capsys, argv, message):
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_python_dash_m_entry_point():
    result = subprocess.run(
        [sys.executable, "-m", "sklearn_ndcg", "--help"],
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )
    assert result.returncode == 0
    assert "demo" in result.stdout


def test_reports_the_candidates_tied_with_the_best(demo_output):
    """The demo compares the best candidates query by query (issue 15); the means it
    prints equal an independent out-of-fold loop on the search's folds."""
    from sklearn.base import clone

    from sklearn_ndcg._cli._demo import N_COMPARED, _describe

    search, out, _ = demo_output
    assert f"The best {N_COMPARED} candidates, out-of-fold NDCG@10 per query" in out
    assert re.search(r"Recommended: .*(shown to be within 0.01 of the best|, the best\. )", out)
    from sklearn.model_selection import GroupShuffleSplit

    X, y, qid = make_ranking(n_queries=40, random_state=3)  # as the demo splits its data
    train, _ = next(GroupShuffleSplit(1, test_size=0.25, random_state=3).split(X, y, qid))
    best = search.best_index_
    values = []
    for fit_rows, test_rows in search.cv.split(X[train], y[train], qid[train]):
        model = clone(search.estimator).set_params(**search.cv_results_["params"][best])
        model.fit(X[train][fit_rows], y[train][fit_rows], qid=qid[train][fit_rows])
        values.append(
            query_scores_of(model, X[train][test_rows], y[train][test_rows], qid[train][test_rows])
        )
    mean = np.mean(np.concatenate(values))
    row = next(line for line in out.splitlines() if line.startswith(_describe(search.best_params_)))
    assert f"{mean:.4f}" in row


def query_scores_of(model, X, y, qid):
    from sklearn_ndcg import query_scores

    return query_scores(y, model.predict(X), qid=qid, k=10).score


def test_install_hint_works_from_an_index_and_a_checkout(monkeypatch):
    """Without the learning-to-rank libraries, the demo says how to install them, both ways."""
    monkeypatch.setattr("sklearn_ndcg._cli._demo._installed", lambda module: False)
    out, progress = io.StringIO(), io.StringIO()
    run_demo(n_queries=30, n_splits=2, seed=3, out=out, progress=progress)
    said = out.getvalue() + progress.getvalue()
    assert 'pip install "sklearn-ndcg[ltr]" (or pip install ".[ltr]" from a checkout)' in said
