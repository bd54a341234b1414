"""Tests for the demo: ``python -m sklearn_ndcg demo``."""

import copy
import io
import pickle
import re
import subprocess
import sys

import numpy as np
import pytest

from sklearn_ndcg import make_ranking
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
    assert main([*SMALL, "--no-ltr", "-k", "5", "--wide"]) == 0
    captured = capsys.readouterr()
    assert re.search(r"rank\s+model\s+NDCG@1\s+NDCG@5\s+NDCG@10\n", captured.out)
    # --wide: every column, the comparison's own table included (wider than 100 characters)
    assert "effect_size" in captured.out
    assert max(len(line) for line in captured.out.splitlines()) > 100
    # 2 x 2 grid of HistGradientBoostingRegressor, mean ± std per cutoff
    rows = re.findall(
        r"^\s+\d\s+HistGradientBoostingRegressor\(.*$", captured.out, flags=re.MULTILINE
    )
    assert len(rows) == 4
    assert all(len(re.findall(r"\d\.\d{3} ± \d\.\d{3}", row)) == 3 for row in rows)
    assert "Best mean NDCG@5: HistGradientBoostingRegressor(" in captured.out
    assert "Held-out NDCG@5" in captured.out
    # progress goes to stderr, the report to stdout
    assert re.search(r"\] 4/4 NDCG@5 \d\.\d{3} HistGradientBoostingRegressor\(", captured.err)
    assert "1/4 NDCG@5" not in captured.out


def test_search_holds_no_stream(tmp_path):
    # scikit-learn 1.8 deep-copies the search (the routing owner) and joblib pickles
    # estimators; a search holding the progress stream (a file) crashed the demo there.
    with open(tmp_path / "progress.txt", "w") as stream:
        search = run_demo(
            n_queries=30, n_splits=2, use_ltr=False, out=io.StringIO(), progress=stream
        )
        pickle.loads(pickle.dumps(search))
        copy.deepcopy(search)
    assert "] 4/4 NDCG@10 " in (tmp_path / "progress.txt").read_text()


def test_quiet_hides_progress(capsys):
    main([*SMALL, "--no-ltr", "--quiet", "--n-splits", "2"])
    captured = capsys.readouterr()
    assert captured.err == "" and "Best mean NDCG@10" in captured.out


def test_table_matches_the_search(demo_output):
    search, out, _ = demo_output
    results = search.cv_results_
    n_candidates = len(results["params"])
    assert f"NDCG of {n_candidates} candidates" in out
    # the first row of the table is the best candidate, with its mean ± std of NDCG@10
    # (the other cutoffs need --wide when the names are long)
    best = search.best_index_
    first_row = re.search(r"^\s+1\s+(\S.*)$", out, flags=re.MULTILINE).group(1)
    mean, std = results["mean_test_ndcg@10"][best], results["std_test_ndcg@10"][best]
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


def _held_out_lines(out):
    """{label: (mean, low, high)} of the held-out section (high and low None if absent)."""
    pattern = (
        r"^  (recommended.*|best mean.*|random scores|perfect ranking)\s{2,}(\d\.\d{3})"
        r"(?:  \[(\d\.\d{3}), (\d\.\d{3})\])?$"
    )
    return {
        label.strip(): tuple(float(v) if v else None for v in values)
        for label, *values in re.findall(pattern, out, flags=re.MULTILINE)
    }


def _recommended_name(out):
    text = " ".join(out.split())  # the report wraps its sentences
    return re.search(r"Recommended: (.*?)(?:\. Its NDCG|, the best\.)", text).group(1)


def _ndcg_by_sklearn(y, scores, qid, k):
    """Mean over queries of scikit-learn's ndcg_score, one query (one row) at a time."""
    from sklearn.metrics import ndcg_score as sklearn_ndcg

    values = [
        sklearn_ndcg([y[qid == q]], [scores[qid == q]], k=k) if (y[qid == q] > 0).any() else 0.0
        for q in np.unique(qid)
    ]
    return float(np.mean(values))


def _refit(search, name, X, y, qid):
    """The candidate called ``name``, fitted on all of X (the demo's training queries)."""
    from sklearn.base import clone

    from sklearn_ndcg._cli._demo import _describe

    params = next(p for p in search.cv_results_["params"] if _describe(p) == name)
    return clone(search.estimator).set_params(**params).fit(X, y, qid=qid)


def _split(n_queries, seed):
    from sklearn.model_selection import GroupShuffleSplit

    X, y, qid = make_ranking(n_queries=n_queries, random_state=seed)
    split = GroupShuffleSplit(n_splits=1, test_size=0.25, random_state=seed)
    train, test = next(split.split(X, y, groups=qid))
    return X, y, qid, train, test


def test_held_out_scores(demo_output):
    """The held-out lines: the recommended model refitted on the training queries, scored
    on the held-out ones, recomputed with scikit-learn's ndcg_score query by query."""
    search, out, progress = demo_output
    X, y, qid, train, test = _split(40, 3)
    values = _held_out_lines(out)
    recommended = next(label for label in values if label.startswith("recommended"))
    assert {"random scores", "perfect ranking"} < set(values)
    name = _recommended_name(out)
    model = _refit(search, name, X[train], y[train], qid[train])
    expected = _ndcg_by_sklearn(y[test], model.predict(X[test]), qid[test], 10)
    mean, low, high = values[recommended]
    assert mean == pytest.approx(expected, abs=5e-4)
    assert low <= mean <= high
    assert values["perfect ranking"][0] == pytest.approx(1.0)
    assert values["random scores"][0] < mean
    assert f"on {len(np.unique(qid[test]))} held-out queries its NDCG@10 is {mean:.3f}" in " ".join(
        out.split()
    )
    assert "search done" in progress


def test_recommended_and_best_mean_held_out_when_they_differ(monkeypatch):
    """When the recommended candidate is not the best mean, both get a held-out line, and
    the recommended one is the candidate refitted, not ``search.best_estimator_``."""

    def second(comparison, fit_time):
        return comparison.columns["name"][1]

    monkeypatch.setattr("sklearn_ndcg._cli._demo._recommended", second)
    out = io.StringIO()
    search = run_demo(n_queries=40, n_splits=2, seed=3, use_ltr=False, out=out)
    out = out.getvalue()
    X, y, qid, train, test = _split(40, 3)
    values = _held_out_lines(out)
    from sklearn_ndcg._cli._demo import _describe

    order = np.argsort(search.cv_results_["rank_test_ndcg@10"], kind="stable")
    second_name = _describe(search.cv_results_["params"][order[1]])
    assert _recommended_name(out) == second_name
    model = _refit(search, second_name, X[train], y[train], qid[train])
    rank = search.cv_results_["rank_test_ndcg@10"][order[1]]
    recommended = values[f"recommended (rank {rank})"][0]
    assert recommended == pytest.approx(
        _ndcg_by_sklearn(y[test], model.predict(X[test]), qid[test], 10), abs=5e-4
    )
    best = values["best mean (rank 1)"][0]
    assert best == pytest.approx(
        _ndcg_by_sklearn(y[test], search.best_estimator_.predict(X[test]), qid[test], 10),
        abs=5e-4,
    )
    assert f"against {best:.3f}" in " ".join(out.split())


def test_no_line_over_100_characters_and_every_verdict_explained(demo_output):
    _, out, progress = demo_output
    assert max(len(line) for line in out.splitlines()) <= 100
    assert max(len(line) for line in progress.splitlines()) <= 100
    table = out[out.index("95% CI of mean") :].split("\n\n")[0].splitlines()[2:]
    verdicts = {row.split()[-1] for row in table}
    assert verdicts and verdicts <= {"reference", "equivalent", "worse", "better", "inconclusive"}
    legend = out[out.index("verdict, of each candidate") :].split("\n\n")[0]
    for verdict in verdicts:
        assert re.search(rf"^  {verdict}\s{{2,}}\S", legend, flags=re.MULTILINE), verdict
    assert '"no" together with "equivalent" means significant but equivalent' in " ".join(
        legend.split()
    )


def test_help(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["demo", "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    for option in ("--n-queries", "--k", "--seed", "--n-splits", "--no-ltr", "--n-jobs", "--wide"):
        assert option in out
    assert "CatBoostRanker" in out and "CatBoost" in out


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

    from sklearn_ndcg._cli._demo import N_COMPARED

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
    rank = search.cv_results_["rank_test_ndcg@10"][best]
    row = next(line for line in out.splitlines() if re.match(rf"^\s+{rank}\s+0\.\d{{4}}\s", line))
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
