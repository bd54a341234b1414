"""The demo: tune ranking models by NDCG with GridSearchCV and GroupKFold.

Run it with ``python -m sklearn_ndcg demo`` or ``sklearn-ndcg demo``. It needs
only numpy, scipy and scikit-learn; LightGBM's ``LGBMRanker``, XGBoost's
``XGBRanker`` and CatBoost's ``CatBoostRanker`` join the search when they are
installed.
"""

from __future__ import annotations

import importlib.util
import logging
import sys
import time
from typing import TextIO

import numpy as np
import sklearn
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import GridSearchCV, GroupKFold, GroupShuffleSplit
from threadpoolctl import threadpool_limits

from .._compat import INSTALL_HINT
from .._datasets import make_ranking
from .._metrics._ndcg import ndcg_score
from .._model_selection._evaluator import RankingEvaluator
from .._model_selection._scorer import make_ndcg_scorer
from .._stats._compare import compare_models
from .._stats._search import search_query_scores

CUTOFFS = (1, 5, 10)
"""The NDCG cutoffs shown in the table of candidates."""

N_COMPARED = 3
"""How many of the best candidates are compared query by query after the search."""

MARGIN = 0.01
"""Differences of NDCG smaller than this do not matter: the equivalence margin of the verdict."""


_LOG = logging.getLogger(__name__)
"""Progress lines. The search logs here, so that it holds no stream itself:
scikit-learn deep-copies and pickles estimators, and a stream cannot be copied."""


class _ProgressFormatter(logging.Formatter):
    """``[ 12.3s] message``, seconds since the formatter was made."""

    def __init__(self):
        super().__init__()
        self.start = time.perf_counter()

    def format(self, record: logging.LogRecord) -> str:
        return f"[{time.perf_counter() - self.start:5.1f}s] {record.getMessage()}"


class _ProgressGridSearchCV(GridSearchCV):
    """GridSearchCV that logs each candidate as soon as its folds are done."""

    def _run_search(self, evaluate_candidates):
        candidates = list(sklearn.model_selection.ParameterGrid(self.param_grid))
        for i, params in enumerate(candidates, start=1):
            results = evaluate_candidates([params])
            score = results[f"mean_test_{self.refit}"][-1]
            _LOG.info(
                "candidate %d/%d: %s  %s %.3f",
                i,
                len(candidates),
                _describe(params),
                self.refit.upper(),
                score,
            )


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _candidates(seed: int, use_ltr: bool) -> list[dict]:
    """The parameter grid: gradient boosting, and LTR models when installed."""
    grid = [
        {
            "estimator": [
                HistGradientBoostingRegressor(max_iter=100, early_stopping=False, random_state=seed)
            ],
            "estimator__max_depth": [3, None],
            "estimator__learning_rate": [0.05, 0.1],
        }
    ]
    if use_ltr and _installed("lightgbm"):
        from lightgbm import LGBMRanker

        grid.append(
            {
                "estimator": [
                    LGBMRanker(n_estimators=100, n_jobs=1, random_state=seed, verbose=-1)
                ],
                "estimator__num_leaves": [7, 31],
            }
        )
    if use_ltr and _installed("xgboost"):
        from xgboost import XGBRanker

        grid.append(
            {
                "estimator": [
                    XGBRanker(n_estimators=100, n_jobs=1, tree_method="hist", random_state=seed)
                ],
                "estimator__max_depth": [3, 6],
            }
        )
    if use_ltr and _installed("catboost"):
        from catboost import CatBoostRanker

        grid.append(
            {
                "estimator": [
                    CatBoostRanker(
                        iterations=100,
                        thread_count=1,
                        random_seed=seed,
                        verbose=False,
                        allow_writing_files=False,
                    )
                ],
                "estimator__depth": [4, 6],
            }
        )
    return grid


def _describe(params: dict) -> str:
    """``Model(param=value, ...)`` for one candidate of the grid."""
    name = type(params["estimator"]).__name__
    inner = ", ".join(
        f"{key.removeprefix('estimator__')}={value!r}"
        for key, value in sorted(params.items())
        if key != "estimator"
    )
    return f"{name}({inner})"


def _table(results: dict, cutoffs: list[int], refit: str) -> str:
    """The candidates, best first, with mean ± std of each NDCG over the folds."""
    names = [f"ndcg@{c}" for c in cutoffs]
    order = np.argsort(results[f"rank_test_{refit}"], kind="stable")
    labels = [_describe(results["params"][i]) for i in order]
    width = max(len("model"), *(len(label) for label in labels))
    header = f"{'rank':>4}  {'model':<{width}}" + "".join(f"  {f'NDCG@{c}':>13}" for c in cutoffs)
    lines = [header, "-" * len(header)]
    for i, label in zip(order, labels):
        cells = "".join(
            f"  {results[f'mean_test_{name}'][i]:.3f} ± {results[f'std_test_{name}'][i]:.3f}"
            for name in names
        )
        lines.append(f"{results[f'rank_test_{refit}'][i]:>4}  {label:<{width}}{cells}")
    return "\n".join(lines)


def _verdict_report(comparison, per_query: dict, k: int, fit_time: dict) -> str:
    """Each compared candidate's verdict against the best, and the one to use, with why."""
    n_queries = next(iter(per_query.values())).qid.shape[0]
    lines = [
        f"\nThe best {len(per_query)} candidates, out-of-fold NDCG@{k} per query "
        f"({n_queries} queries), each against the best (paired randomization test, "
        f"{comparison.correction}-adjusted, margin {comparison.margin:g}):\n",
        str(comparison),
        f"\nverdict: equivalent = shown within {comparison.margin:g} of the best; worse = "
        "shown worse; inconclusive = the queries show neither (more queries would tell).",
    ]
    best = comparison.reference
    equivalent = comparison.equivalent
    chosen = min(equivalent, key=lambda name: (fit_time[name], equivalent.index(name)))
    if chosen == best and len(equivalent) > 1:
        lines.append(
            f"\nRecommended: {best}, the best. {len(equivalent) - 1} other candidate(s) are "
            f"shown to be within {comparison.margin:g} NDCG@{k} of it, but none fits faster "
            f"({fit_time[best]:.2f} s per fold)."
        )
    elif chosen == best:
        others = [name for name in comparison.columns["name"] if name != best]
        lines.append(
            f"\nRecommended: {best}, the best. No other candidate is shown to be within "
            f"{comparison.margin:g} NDCG@{k} of it ({len(others)} compared)."
        )
    else:
        lines.append(
            f"\nRecommended: {chosen}. Its NDCG@{k} is shown to be within "
            f"{comparison.margin:g} of the best ({best}), and it fits faster "
            f"({fit_time[chosen]:.2f} s per fold against {fit_time[best]:.2f} s)."
        )
    return "\n".join(lines)


def run_demo(
    *,
    n_queries: int = 500,
    k: int = 10,
    seed: int = 0,
    n_splits: int = 3,
    use_ltr: bool = True,
    n_jobs: int = 1,
    out: TextIO | None = None,
    progress: TextIO | None = None,
) -> GridSearchCV:
    """Generate ranking data, tune models by NDCG and report on held-out queries.

    Parameters
    ----------
    n_queries : int, default=500
        Number of queries generated; a quarter of them are held out.
    k : int, default=10
        Cutoff of the NDCG used to refit the best model and on held-out data.
    seed : int, default=0
        Seed of the data, the split and the models.
    n_splits : int, default=3
        Number of GroupKFold folds.
    use_ltr : bool, default=True
        Include LGBMRanker, XGBRanker and CatBoostRanker if they are installed.
    n_jobs : int, default=1
        Number of folds fitted in parallel processes. Each fit uses one
        thread: OpenMP threads competing for busy cores slow gradient boosting
        down many times over, which a short demo cannot afford.
    out : file-like, default=None
        Where the report goes; None means ``sys.stdout``.
    progress : file-like, default=None
        Where progress lines go; None means no progress.

    Returns
    -------
    search : GridSearchCV
        The fitted search.
    """
    out = sys.stdout if out is None else out
    if progress is None:
        return _run(n_queries, k, seed, n_splits, use_ltr, n_jobs, out)
    handler = logging.StreamHandler(progress)
    handler.setFormatter(_ProgressFormatter())
    level = _LOG.level
    _LOG.addHandler(handler)
    _LOG.setLevel(logging.INFO)
    try:
        return _run(n_queries, k, seed, n_splits, use_ltr, n_jobs, out)
    finally:
        _LOG.removeHandler(handler)
        _LOG.setLevel(level)


def _run(n_queries, k, seed, n_splits, use_ltr, n_jobs, out) -> GridSearchCV:
    """:func:`run_demo` itself; progress goes to the module's logger."""
    report = _LOG.info
    X, y, qid = make_ranking(n_queries=n_queries, random_state=seed)
    report(f"generated {n_queries} queries, {len(y)} documents, {X.shape[1]} features")

    split = GroupShuffleSplit(n_splits=1, test_size=0.25, random_state=seed)
    train, test = next(split.split(X, y, groups=qid))

    cutoffs = sorted({*CUTOFFS, k})
    scoring = make_ndcg_scorer(k=cutoffs)  # every cutoff from one prediction per fold
    refit = f"ndcg@{k}"
    search = _ProgressGridSearchCV(
        RankingEvaluator(HistGradientBoostingRegressor(), k=k),
        _candidates(seed, use_ltr),
        scoring=scoring,
        refit=refit,
        cv=GroupKFold(n_splits=n_splits),
        n_jobs=n_jobs,
    )
    missing = [name for name in ("lightgbm", "xgboost", "catboost") if not _installed(name)]
    if use_ltr and missing:
        report(
            f"{', '.join(missing)} not installed: {INSTALL_HINT.format(extra='ltr')} "
            "adds LGBMRanker, XGBRanker and CatBoostRanker to the search"
        )
    n_candidates = len(sklearn.model_selection.ParameterGrid(search.param_grid))
    report(
        f"GridSearchCV: {n_candidates} candidates x {n_splits} folds on "
        f"{len(np.unique(qid[train]))} queries, refit on NDCG@{k}"
    )
    with sklearn.config_context(enable_metadata_routing=True), threadpool_limits(1):
        search.fit(X[train], y[train], groups=qid[train], qid=qid[train])
        report(f"search done; the best {N_COMPARED} candidates again, query by query")
        per_query = search_query_scores(
            search,
            X[train],
            y[train],
            qid=qid[train],
            scoring=refit,
            n_candidates=N_COMPARED,
            describe=_describe,
        )
        comparison = compare_models(per_query, margin=MARGIN, random_state=seed)
        report("scoring the held-out queries")
        best = search.best_estimator_.predict(X[test])
    random = np.random.default_rng(seed).random(len(test))
    held_out = {
        "best model": best,
        "random scores": random,
        "perfect ranking": y[test].astype(float),
    }

    print(
        f"NDCG of {n_candidates} candidates, mean ± std over {n_splits} GroupKFold "
        f"folds ({len(np.unique(qid[train]))} queries, {len(train)} documents):\n",
        file=out,
    )
    print(_table(search.cv_results_, cutoffs, refit), file=out)
    print(f"\nBest parameters (by NDCG@{k}): {_describe(search.best_params_)}", file=out)
    fit_time = {
        _describe(params): time
        for params, time in zip(search.cv_results_["params"], search.cv_results_["mean_fit_time"])
    }
    print(_verdict_report(comparison, per_query, k, fit_time), file=out)
    print(
        f"\nHeld-out NDCG@{k} ({len(np.unique(qid[test]))} queries, {len(test)} documents):",
        file=out,
    )
    for label, scores in held_out.items():
        value = ndcg_score(y[test], scores, qid=qid[test], k=k)
        print(f"  {label:<16} {value:.3f}", file=out)
    return search
