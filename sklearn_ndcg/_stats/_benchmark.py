"""compare_benchmark: models compared over the datasets of a benchmark, with simultaneous
rank intervals, the set tied with the best, and Friedman's test with its post-hoc pairs."""

from __future__ import annotations

import numpy as np

from .._validate_params import StrOptions, validate_params
from . import _table
from ._benchmark_comparison import BenchmarkComparison
from ._benchmark_input import benchmark_data
from ._friedman import POSTHOC_METHODS, average_ranks, critical_difference, friedman
from ._friedman import posthoc_pvalues as _posthoc_pvalues
from ._paired import PAIRED_PARAMS
from ._rank_intervals import bootstrap_means, dataset_means, rank_intervals, stepdown_better

UNITS = ("queries", "datasets")
WEIGHTS = ("datasets", "queries")
VERDICTS = ("best", "not shown worse than the best", "worse than the best")


@validate_params(
    dict(
        scores=[dict, "array-like"],
        unit=[StrOptions(set(UNITS))],
        weights=[StrOptions(set(WEIGHTS))],
        posthoc=[StrOptions(set(POSTHOC_METHODS))],
        confidence_level=PAIRED_PARAMS["confidence_level"],
        n_resamples=PAIRED_PARAMS["n_resamples"],
        random_state=PAIRED_PARAMS["random_state"],
        dataset=[str],
        model=[str],
        query=[str],
        value=[str],
    ),
    prefer_skip_nested_validation=True,
)
def compare_benchmark(
    scores,
    *,
    unit: str = "queries",
    weights: str = "datasets",
    posthoc: str = "nemenyi",
    confidence_level: float = 0.95,
    n_resamples: int = 9999,
    random_state: int | np.random.Generator | None = None,
    dataset: str = "dataset",
    model: str = "model",
    query: str = "qid",
    value: str = "score",
) -> BenchmarkComparison:
    """Compare models over the datasets of a benchmark, with the set tied with the best.

    Each model's mean over the datasets (BEIR's and MTEB's average: each
    dataset counts once) is given a bootstrap interval, and every pair of
    models is tested by one step-down max-t test over all ordered pairs
    (Romano and Wolf), whose family-wise error is ``alpha = 1 -
    confidence_level``. From it come each model's simultaneous rank interval
    (``rank_low = 1 +`` the models shown better, ``rank_high = n_models -``
    the models shown worse; Mogstad et al. 2024) and the set of models tied
    with the best (``rank_low == 1``), which, with probability at least
    ``1 - alpha``, holds every truly best model, though the best was chosen by
    the same data. Friedman's test and its post-hoc pairs on the average ranks
    (Demšar 2006), the protocol of comparisons of learners over datasets, are
    reported beside them.

    Read more in the :ref:`User Guide <benchmark-verdicts>`.

    Parameters
    ----------
    scores : dict or DataFrame
        ``{dataset: {model: per-query values}}``, the values as in
        :func:`compare_models`: :class:`QueryScores` aligned by query id (the
        result of :func:`cross_val_query_scores`, :func:`query_scores` or
        :func:`evaluate_run`) or arrays paired by position. Or a long pandas
        or polars DataFrame with one row per dataset, model and query, whose
        columns are named by ``dataset``, ``model``, ``query`` and ``value``.
        Every model needs every dataset, and the models of a dataset the
        same queries with finite values: a missing cell is refused with the
        dataset and the model named (ValueError), never dropped.
    unit : {"queries", "datasets"}, default="queries"
        Which question the intervals and verdicts answer.

        - "queries": over *these* datasets. The datasets are fixed, and each
          one's queries are resampled (the same queries for every model).
          The default: a benchmark is a named list of datasets, whose
          leaderboard claims a model is best on it; this claim holds its
          level with as few as 5 datasets.
        - "datasets": over *datasets like these*, as if the benchmark's
          datasets were a sample of a population of datasets: a two-level
          bootstrap draws the datasets, then the queries of each. It needs
          many datasets (its level is reached as the datasets grow), and is
          the question that Friedman's test answers.
    weights : {"datasets", "queries"}, default="datasets"
        How datasets count in a model's mean.

        - "datasets": each dataset once (the mean of the datasets' means).
        - "queries": each dataset by its queries' total weight (the mean
          over every query of the benchmark).
    posthoc : {"nemenyi", "holm"}, default="nemenyi"
        The post-hoc test of ``pairwise_pvalues`` on the average ranks.

        - "nemenyi": the studentized range of the ``n_models`` average ranks
          (as scikit-posthocs' ``posthoc_nemenyi_friedman``).
        - "holm": the normal z of each difference of average ranks, adjusted
          by Holm's step-down over the pairs.
    confidence_level : float in (0, 1), default=0.95
        Of the intervals of the means; ``1 - confidence_level`` is the
        family-wise level of the rank intervals and the verdicts.
    n_resamples : int, default=9999
        Bootstrap resamples.
    random_state : int, numpy.random.Generator or None, default=None
        Seeds the bootstrap, for reproducible results.
    dataset, model, query, value : str, default="dataset", "model", "qid", "score"
        The columns of a long DataFrame ``scores``; unused with a dict.

    Returns
    -------
    comparison : BenchmarkComparison
        One row per model by decreasing mean: ``name``, ``mean`` (over the
        datasets), ``ci_low``, ``ci_high`` (its percentile bootstrap interval),
        ``rank`` (the average over datasets of its rank, 1 = best; ties as
        average ranks: Friedman's and the critical-difference diagram's),
        ``rank_low``, ``rank_high`` (simultaneous interval of the model's place
        in the order of the true means) and ``verdict`` ("best", "not shown
        worse than the best" or "worse than the best"); the attributes
        ``tied_with_best``, ``friedman``, ``pairwise_pvalues`` and the rest
        of :class:`BenchmarkComparison`.

    See Also
    --------
    compare_models : Models compared on one dataset.
    CriticalDifferenceDisplay : The critical-difference diagram.

    Notes
    -----
    The rank intervals and the verdicts concern the models' means (the
    ``mean`` column); Friedman's test and ``pairwise_pvalues`` the average
    ranks (the ``rank`` column), which weigh each dataset's order alone. A
    model may thus lie inside the critical difference of the best on ranks
    and be shown worse on means, or the other way round.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple
    data sets. JMLR 7, 1-30.

    Romano, J. P. and Wolf, M. (2005). Exact and approximate stepdown methods
    for multiple hypothesis testing. JASA 100(469), 94-108.

    Mogstad, M., Romano, J. P., Shaikh, A. M. and Wilhelm, D. (2024).
    Inference for ranks with applications to mobility across neighbourhoods
    and academic achievement across countries. Review of Economic Studies
    91(1), 476-518.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ndcg import compare_benchmark
    >>> rng = np.random.default_rng(0)
    >>> scores = {}
    >>> for dataset in ["trec-covid", "nfcorpus", "fiqa", "scifact", "arguana"]:
    ...     base = rng.uniform(0.2, 0.8, 200)
    ...     scores[dataset] = {
    ...         "dense": np.clip(base + 0.05 + rng.normal(0, 0.1, 200), 0, 1),
    ...         "hybrid": np.clip(base + 0.045 + rng.normal(0, 0.1, 200), 0, 1),
    ...         "bm25": base,
    ...     }
    >>> comparison = compare_benchmark(scores, n_resamples=999, random_state=0)
    >>> comparison.tied_with_best
    ['dense', 'hybrid']
    >>> table = comparison.to_dict()
    >>> table["rank_low"], table["rank_high"], table["verdict"][2]
    ([1, 1, 3], [2, 2, 3], 'worse than the best')
    >>> round(comparison.friedman.pvalue, 4)
    0.0224
    """
    data = benchmark_data(scores, dataset=dataset, model=model, query=query, value=value)
    seed = int(np.random.default_rng(random_state).integers(2**63))
    estimate, draws = bootstrap_means(
        data, unit=unit, weights=weights, n_resamples=n_resamples, seed=seed
    )
    alpha = 1.0 - confidence_level
    better = stepdown_better(estimate, draws, alpha)
    low, high = rank_intervals(better)
    order = np.argsort(-estimate, kind="stable")  # input order on equal means
    tail = (1.0 - confidence_level) / 2.0
    ci = np.quantile(draws, [tail, 1.0 - tail], axis=0)
    means = dataset_means(data)[:, order]
    ranks = average_ranks(means).mean(axis=0)
    names = [data.models[i] for i in order]
    tied = [names[r] for r, i in enumerate(order) if low[i] == 1]
    columns = {
        "name": names,
        "mean": [float(estimate[i]) for i in order],
        "ci_low": [float(ci[0, i]) for i in order],
        "ci_high": [float(ci[1, i]) for i in order],
        "rank": [float(r) for r in ranks],
        "rank_low": [int(low[i]) for i in order],
        "rank_high": [int(high[i]) for i in order],
        "verdict": [
            VERDICTS[0] if r == 0 else VERDICTS[1] if low[i] == 1 else VERDICTS[2]
            for r, i in enumerate(order)
        ],
    }
    return BenchmarkComparison(
        columns=_table.Table(columns),
        tied_with_best=tied,
        friedman=friedman(means),
        pairwise_pvalues=_posthoc_pvalues(means, posthoc),
        posthoc=posthoc,
        unit=unit,
        weights=weights,
        confidence_level=confidence_level,
        datasets=list(data.datasets),
        dataset_means=means,
        critical_difference=critical_difference(len(data.datasets), len(names), alpha),
    )
