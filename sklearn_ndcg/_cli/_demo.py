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
import textwrap
import time
import warnings
from typing import TextIO

import numpy as np
import sklearn
from sklearn.base import clone
from sklearn.ensemble import HistGradientBoostingRegressor
from sklearn.model_selection import GridSearchCV, GroupKFold, GroupShuffleSplit
from threadpoolctl import threadpool_limits

from .._compat import INSTALL_HINT
from .._datasets import make_ranking
from .._metrics import ndcg_score, query_scores
from .._model_selection._evaluator import RankingEvaluator
from .._model_selection._scorer import make_ndcg_scorer
from .._stats._bootstrap import bootstrap_ci
from .._stats._compare import compare_models
from .._stats._search import search_query_scores

CUTOFFS = (1, 5, 10)
"""The NDCG cutoffs shown in the table of candidates."""

N_COMPARED = 3
"""How many of the best candidates are compared query by query after the search."""

MARGIN = 0.01
"""Differences of NDCG smaller than this do not matter: the equivalence margin of the verdict."""

WIDTH = 100
"""The widest line of the report (``--wide``: no limit); wider tables drop columns."""


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
                "%d/%d %s %.3f %s",  # 100 characters at most, as the report
                i,
                len(candidates),
                self.refit.upper(),
                score,
                _describe(params),
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


def _fit(variants: list[list[str]], width: int | None) -> list[str]:
    """The first table of ``variants`` whose lines fit in ``width`` characters (all: None).

    Each variant is a table as its lines, the richest first; when none fits, the last.
    """
    if width is None:
        return variants[0]
    for lines in variants:
        if max(map(len, lines)) <= width:
            return lines
    return variants[-1]


def _table(results: dict, cutoffs: list[int], refit: str, width: int | None = WIDTH) -> str:
    """The candidates, best first, with the mean (± std) of each NDCG over the folds.

    The richest table that fits in ``width`` characters: every cutoff with its standard
    deviation; every mean and the refit cutoff's standard deviation; the refit cutoff
    alone with its standard deviation; the means alone.
    """
    order = np.argsort(results[f"rank_test_{refit}"], kind="stable")
    labels = [_describe(results["params"][i]) for i in order]
    name_width = max(len("model"), *(len(label) for label in labels))

    def cell(name, i, with_std):
        mean = f"{results[f'mean_test_{name}'][i]:.3f}"
        return f"{mean} ± {results[f'std_test_{name}'][i]:.3f}" if with_std else mean

    def lines(shown, with_std):
        columns = [(f"NDCG@{c}", f"ndcg@{c}", with_std(f"ndcg@{c}")) for c in shown]
        widths = [13 if std else 7 for _, _, std in columns]
        header = f"{'rank':>4}  {'model':<{name_width}}" + "".join(
            f"  {title:>{w}}" for (title, _, _), w in zip(columns, widths)
        )
        rows = [header, "-" * len(header)]
        for i, label in zip(order, labels):
            cells = "".join(
                f"  {cell(name, i, std):>{w}}" for (_, name, std), w in zip(columns, widths)
            )
            rows.append(f"{results[f'rank_test_{refit}'][i]:>4}  {label:<{name_width}}{cells}")
        return rows

    variants = [
        lines(cutoffs, lambda name: True),
        lines(cutoffs, lambda name: name == refit),
        lines([int(refit.removeprefix("ndcg@"))], lambda name: True),
        lines(cutoffs, lambda name: False),
    ]
    chosen = _fit(variants, width)
    if chosen is not variants[0]:
        chosen = [*chosen, "(--wide shows every cutoff with its standard deviation over the folds)"]
    return "\n".join(chosen)


def _recommended(comparison, fit_time: dict) -> str:
    """The fastest candidate to fit among those shown equivalent to the best (or the best)."""
    equivalent = comparison.equivalent
    return min(equivalent, key=lambda name: (fit_time[name], equivalent.index(name)))


def _verdict_table(comparison, ranks: dict | None, width: int | None) -> list[str]:
    """The comparison's table: all its columns (``width=None``), or the ones that fit,
    each candidate named in full or, if that is too wide, by its rank in ``ranks``."""
    full = str(comparison).splitlines()
    if width is None:
        return full
    table = comparison.to_dict()

    def lines(labels, title, align):
        label_width = max(len(title), *(len(label) for label in labels))
        header = (
            f"{title:{align}{label_width}}  {'mean':>6}  {'95% CI of mean':<16}  "
            f"{'difference':>10}  {'adjusted p':>10}  {'not shown different':>19}  verdict"
        )
        rows = [header, "-" * len(header)]
        for i, label in enumerate(labels):
            p = table["adjusted_pvalue"][i]
            rows.append(
                f"{label:{align}{label_width}}  {table['mean'][i]:6.4f}  "
                f"[{table['ci_low'][i]:.4f}, {table['ci_high'][i]:.4f}]  "
                f"{table['difference'][i]:>10.4f}  {'-' if np.isnan(p) else f'{p:.4f}':>10}  "
                f"{'yes' if table['not_shown_different'][i] else 'no':>19}  "
                f"{table['verdict'][i]}"
            )
        return rows

    variants = [full, lines([str(name) for name in table["name"]], "model", "<")]
    if ranks is not None:
        variants.append(lines([str(ranks[name]) for name in table["name"]], "rank", ">"))
    return _fit(variants, width)


VERDICTS = {
    "reference": "the best mean, which the others are compared with",
    "equivalent": "its mean NDCG@{k} is shown within {margin:g} of the best's "
    "(two one-sided tests)",
    "worse": "shown lower than the best's, and not shown within {margin:g}",
    "better": "shown higher than the best's, and not shown within {margin:g}",
    "inconclusive": "neither shown different from the best nor shown within {margin:g}: "
    "more queries would tell",
}
"""What each verdict of :func:`compare_models` with a margin means, for the legend."""


def _legend(comparison, k: int, width: int | None) -> list[str]:
    """One line per verdict in the table, and what "not shown different" means."""
    margin = comparison.margin
    printed = [v for v in VERDICTS if v in comparison.columns["verdict"]]
    lines = ["verdict, of each candidate against the best mean:"]
    lines += [f"  {v:<12}  {VERDICTS[v].format(k=k, margin=margin)}" for v in printed]
    alpha = 1 - comparison.confidence_level
    text = (
        f'not shown different: "yes" when the adjusted p-value is at least {alpha:g}, so the '
        'queries show no difference (which does not make the two as good); "no" together '
        'with "equivalent" means significant but equivalent: the difference is real, and '
        f"shown smaller than {margin:g}, too small to matter."
    )
    return lines + _wrap(text, width)


def _wrap(text: str, width: int | None) -> list[str]:
    if width is None:
        return [text]
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False)


def _verdict_report(
    comparison,
    per_query: dict,
    k: int,
    fit_time: dict,
    ranks: dict | None = None,
    width: int | None = WIDTH,
) -> str:
    """Each compared candidate's verdict against the best, and the one to use, with why."""
    n_queries = next(iter(per_query.values())).qid.shape[0]
    intro = (
        f"The best {len(per_query)} candidates, out-of-fold NDCG@{k} per query "
        f"({n_queries} queries), each against the best (paired randomization test, "
        f"{comparison.correction}-adjusted, margin {comparison.margin:g}):"
    )
    lines = ["", *_wrap(intro, width), ""]
    lines += _verdict_table(comparison, ranks, width)
    lines += ["", *_legend(comparison, k, width)]
    best = comparison.reference
    equivalent = comparison.equivalent
    chosen = _recommended(comparison, fit_time)
    if chosen == best and len(equivalent) > 1:
        text = (
            f"Recommended: {best}, the best. {len(equivalent) - 1} other candidate(s) are "
            f"shown to be within {comparison.margin:g} NDCG@{k} of it, but none fits faster "
            f"({fit_time[best]:.2f} s per fold)."
        )
    elif chosen == best:
        others = [name for name in comparison.columns["name"] if name != best]
        text = (
            f"Recommended: {best}, the best. No other candidate is shown to be within "
            f"{comparison.margin:g} NDCG@{k} of it ({len(others)} compared)."
        )
    else:
        text = (
            f"Recommended: {chosen}. Its NDCG@{k} is shown to be within "
            f"{comparison.margin:g} of the best ({best}), and it fits faster "
            f"({fit_time[chosen]:.2f} s per fold against {fit_time[best]:.2f} s)."
        )
    lines += ["", *_wrap(text, width)]
    return "\n".join(lines)


def _quietly(function, *args, **kwargs):
    """``function(*args, **kwargs)`` and the messages of the warnings it gave."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = function(*args, **kwargs)
    return result, list(dict.fromkeys(str(w.message) for w in caught))


def _held_out_report(held_out: dict, k: int, n_queries: int, n_documents: int, width) -> str:
    """Held-out NDCG@k of each model, with its bootstrap interval over the queries."""
    intro = (
        f"Held-out NDCG@{k} on {n_queries} queries ({n_documents} documents) that the search "
        "never saw, mean and 95% bootstrap interval over the queries:"
    )
    label_width = max(len(label) for label in held_out)
    lines = ["", *_wrap(intro, width)]
    for label, (value, interval) in held_out.items():
        ci = "" if interval is None else f"  [{interval[0]:.3f}, {interval[1]:.3f}]"
        lines.append(f"  {label:<{label_width}}  {value:.3f}{ci}")
    return "\n".join(lines)


def _sentence(chosen: str, best: str, held_out: dict, k: int, n_test: int, per_query) -> str:
    """What a report would say of the choice: why this model, and its held-out NDCG."""
    values = list(held_out.values())
    mean, (low, high) = values[0]
    n_train = next(iter(per_query.values())).qid.shape[0]
    held = (
        f"on {n_test} held-out queries its NDCG@{k} is {mean:.3f} (95% bootstrap interval "
        f"{low:.3f} to {high:.3f})"
    )
    if chosen == best:
        return (
            f"In a report: we chose {chosen}, the candidate with the best mean out-of-fold "
            f"NDCG@{k} on {n_train} queries; {held}."
        )
    best_mean, (best_low, best_high) = values[1]
    return (
        f"In a report: we chose {chosen}: its out-of-fold NDCG@{k} on {n_train} queries is "
        f"shown within {MARGIN:g} of the best candidate's ({best}), and it fits faster; "
        f"{held}, against {best_mean:.3f} ({best_low:.3f} to {best_high:.3f}) for the best."
    )


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
    wide: bool = False,
) -> GridSearchCV:
    """Generate ranking data, tune models by NDCG, recommend one and report on held-out queries.

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
    wide : bool, default=False
        Print every column of the tables; by default no line is wider than
        ``WIDTH`` (100) characters and wide tables drop columns.

    Returns
    -------
    search : GridSearchCV
        The fitted search.
    """
    out = sys.stdout if out is None else out
    width = None if wide else WIDTH
    if progress is None:
        return _run(n_queries, k, seed, n_splits, use_ltr, n_jobs, out, width)
    handler = logging.StreamHandler(progress)
    handler.setFormatter(_ProgressFormatter())
    level = _LOG.level
    _LOG.addHandler(handler)
    _LOG.setLevel(logging.INFO)
    try:
        return _run(n_queries, k, seed, n_splits, use_ltr, n_jobs, out, width)
    finally:
        _LOG.removeHandler(handler)
        _LOG.setLevel(level)


def _run(n_queries, k, seed, n_splits, use_ltr, n_jobs, out, width) -> GridSearchCV:
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
        # two lines, each within the 100 characters of the demo's output
        report(f"{', '.join(missing)} not installed; to add their rankers to the search:")
        report(INSTALL_HINT.format(extra="ltr"))
    n_candidates = len(sklearn.model_selection.ParameterGrid(search.param_grid))
    report(
        f"GridSearchCV: {n_candidates} candidates x {n_splits} folds on "
        f"{len(np.unique(qid[train]))} queries, refit on NDCG@{k}"
    )
    with sklearn.config_context(enable_metadata_routing=True), threadpool_limits(1):
        search.fit(X[train], y[train], groups=qid[train], qid=qid[train])
        results = search.cv_results_
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
        comparison, notes = _quietly(compare_models, per_query, margin=MARGIN, random_state=seed)
        fit_time = {
            _describe(params): time
            for params, time in zip(results["params"], results["mean_fit_time"])
        }
        chosen = _recommended(comparison, fit_time)
        index = {_describe(params): i for i, params in enumerate(results["params"])}
        ranks = {name: int(results[f"rank_test_{refit}"][i]) for name, i in index.items()}
        report(
            f"refitting the recommended candidate (rank {ranks[chosen]}) on {len(train)} documents"
        )
        recommended = search.best_estimator_
        if index[chosen] != search.best_index_:
            recommended = clone(search.estimator).set_params(**results["params"][index[chosen]])
            recommended.fit(X[train], y[train], qid=qid[train])
        report("scoring the held-out queries")
        best = comparison.reference
        models = {f"recommended (rank {ranks[chosen]})": recommended}
        if chosen != best:
            models[f"best mean (rank {ranks[best]})"] = search.best_estimator_
        else:
            models = {f"recommended = best mean (rank {ranks[best]})": recommended}
        predictions = {label: model.predict(X[test]) for label, model in models.items()}
    predictions["random scores"] = np.random.default_rng(seed).random(len(test))
    held_out = {}
    for label, scores in predictions.items():
        values = query_scores(y[test], scores, qid=qid[test], k=k)
        interval, caught = _quietly(bootstrap_ci, values, random_state=seed)
        notes += caught
        held_out[label] = (float(np.mean(values.score)), interval.confidence_interval)
    held_out["perfect ranking"] = (ndcg_score(y[test], y[test], qid=qid[test], k=k), None)

    print(
        f"NDCG of {n_candidates} candidates, mean over {n_splits} GroupKFold "
        f"folds ({len(np.unique(qid[train]))} queries, {len(train)} documents):\n",
        file=out,
    )
    print(_table(results, cutoffs, refit, width), file=out)
    print(f"\nBest mean NDCG@{k}: {_describe(search.best_params_)}", file=out)
    print(_verdict_report(comparison, per_query, k, fit_time, ranks, width), file=out)
    n_test = len(np.unique(qid[test]))
    print(_held_out_report(held_out, k, n_test, len(test), width), file=out)
    print(
        "",
        *_wrap(_sentence(chosen, best, held_out, k, n_test, per_query), width),
        sep="\n",
        file=out,
    )
    for note in dict.fromkeys(notes):
        print("", *_wrap(f"Note: {note}", width), sep="\n", file=out)
    return search
