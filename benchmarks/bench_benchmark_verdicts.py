"""Calibration of compare_benchmark's verdicts across datasets: simulated benchmarks with
known truth.

Run ``python benchmarks/bench_benchmark_verdicts.py``. Each replicate draws a benchmark of
``p`` models on ``D`` datasets (30 to 100 queries each) and calls ``compare_benchmark``
(its defaults but ``n_resamples``). Per-query values lie in [0, 1] with many 0s and 1s:
half a Bernoulli draw (``1[Phi(rho z_q + sqrt(1 - rho^2) e) < mu]``, ``z_q`` shared by the
models of a query, rho = 0.7: paired) and half a Beta draw of mean ``mu``, so that each
query's expected value is exactly ``mu[d, j] = base_d + effect_j + I[d, j]``: a dataset
effect ``base_d ~ U(0.35, 0.65)``, the model's effect, and a heavy-tailed interaction
``I ~ 0.02 t_3`` clipped to +-0.1.

- ``unit="queries"`` (over these datasets): the interactions are centred per model over
  the benchmark's datasets, so a model's true mean over these datasets is
  ``mean(base) + effect_j`` exactly.
- ``unit="datasets"`` (over datasets like these): the interactions are not centred; a
  model's true mean over the population of datasets is ``0.5 + effect_j``.

Scenarios: "equal" (every effect 0) and "spread" (effects 0, -0.005, then evenly down to
-0.04: one best, a close second, the rest worse by 0.01 to 0.04). Columns, with Monte
Carlo standard errors in brackets:

- FWER: "equal" only: the share of replicates where some model is called worse than the
  best (bound: alpha + 3 SE);
- best in set: the share where the true best is in ``tied_with_best`` (bound:
  1 - alpha - 3 SE);
- rank cover: the share where every model's rank interval holds its true rank (with ties,
  every rank its true mean could take) at once (bound: 0.95 - 3 SE);
- power: "spread" only: the share of the models worse than the best by 0.02 or more that
  are called "worse than the best";
- |tied|: the mean size of ``tied_with_best``;
- Nemenyi FWER: "equal" only: the share where some pair's Nemenyi p-value on the average
  ranks is below alpha (Friedman-Nemenyi asks about datasets like these).

A cell outside its bound carries a ``*``. ``--quick`` runs a few replicates of the
smallest benchmark (for the test suite; it checks nothing).
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np
from scipy.special import ndtr

from sklearn_ndcg import compare_benchmark

ALPHA = 0.05
RHO = 0.7
BETA_PRECISION = 4.0
POWER_GAP = 0.02
CELLS = (("queries", 5, 5), ("queries", 10, 10), ("queries", 20, 30), ("datasets", 10, 10),
         ("datasets", 10, 30))  # fmt: skip


def effects(scenario: str, n_models: int) -> np.ndarray:
    """The models' true effects, best first."""
    if scenario == "equal":
        return np.zeros(n_models)
    return np.r_[0.0, -0.005, np.linspace(-0.01, -0.04, n_models - 2)]


def draw_benchmark(rng, unit: str, effect: np.ndarray, n_datasets: int):
    """``{dataset: {model: values}}`` and the true means over the question's datasets."""
    n_models = effect.shape[0]
    base = rng.uniform(0.35, 0.65, n_datasets)
    interaction = np.clip(0.02 * rng.standard_t(3, size=(n_datasets, n_models)), -0.1, 0.1)
    if unit == "queries":
        interaction -= interaction.mean(axis=0)
        truth = base.mean() + effect
    else:
        truth = 0.5 + effect
    mu = base[:, None] + effect[None, :] + interaction
    scores = {}
    for d in range(n_datasets):
        n = int(rng.integers(30, 101))
        shared = rng.standard_normal((n, 1))
        latent = RHO * shared + np.sqrt(1 - RHO**2) * rng.standard_normal((n, n_models))
        hit = (ndtr(latent) < mu[d]).astype(float)
        smooth = rng.beta(mu[d] * BETA_PRECISION, (1 - mu[d]) * BETA_PRECISION, (n, n_models))
        values = 0.5 * hit + 0.5 * smooth
        scores[f"d{d}"] = {f"m{j}": values[:, j] for j in range(n_models)}
    return scores, truth


def replicate(rng, unit, scenario, n_models, n_datasets, n_resamples):
    """One benchmark's verdicts against the truth: a dict of 0/1 outcomes (NaN: undefined)."""
    effect = effects(scenario, n_models)
    scores, truth = draw_benchmark(rng, unit, effect, n_datasets)
    seed = int(rng.integers(2**31))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = compare_benchmark(scores, unit=unit, n_resamples=n_resamples, random_state=seed)
    table = result.to_dict()
    index = [int(name[1:]) for name in table["name"]]
    true = truth[index]
    better = (true[None, :] > true[:, None]).sum(axis=1)  # models truly better than each
    worse = (true[None, :] < true[:, None]).sum(axis=1)
    covered = (np.array(table["rank_low"]) <= 1 + better) & (
        np.array(table["rank_high"]) >= n_models - worse
    )
    best = {f"m{j}" for j in np.flatnonzero(truth == truth.max())}
    tied = set(result.tied_with_best)
    outcome = {
        "best": float(best <= tied),
        "cover": float(covered.all()),
        "size": float(len(tied)),
        "fwer": np.nan,
        "power": np.nan,
        "nemenyi": np.nan,
    }
    if scenario == "equal":
        outcome["fwer"] = float(len(tied) < n_models)
        pvalues = result.pairwise_pvalues[np.triu_indices(n_models, 1)]
        outcome["nemenyi"] = float((pvalues < ALPHA).any())
    else:
        far = [f"m{j}" for j in np.flatnonzero(truth <= truth.max() - POWER_GAP)]
        outcome["power"] = float(np.mean([name not in tied for name in far]))
    return outcome


def _cell(values, bound=None, above=True) -> str:
    values = np.asarray(values, dtype=float)
    if np.isnan(values).all():
        return "-"
    mean = float(np.mean(values))
    se = float(np.std(values, ddof=1) / np.sqrt(values.shape[0])) if values.shape[0] > 1 else 0.0
    flag = ""
    if bound is not None:
        slack = 3 * max(se, np.sqrt(bound * (1 - bound) / values.shape[0]))
        flag = "*" if (mean < bound - slack if above else mean > bound + slack) else ""
    return f"{mean:.3f} ({se:.3f}){flag}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=200, help="replicates per cell")
    parser.add_argument("--resamples", type=int, default=999, help="bootstrap resamples")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--quick", "--smoke", action="store_true", help="a few replicates, for the tests"
    )
    args = parser.parse_args(argv)
    cells = CELLS
    if args.quick:
        args.reps, args.resamples, cells = 5, 199, CELLS[:1]
    print(f"compare_benchmark calibration: alpha={ALPHA}, {args.reps} replicates a cell, "
          f"{args.resamples} resamples, seed {args.seed}\n")  # fmt: skip
    header = ["unit", "models", "datasets", "scenario", "FWER", "best in set", "rank cover",
              "power", "|tied|", "Nemenyi FWER"]  # fmt: skip
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    rng = np.random.default_rng(args.seed)
    flagged = 0
    start = time.perf_counter()
    for unit, n_models, n_datasets in cells:
        for scenario in ("equal", "spread"):
            runs = [
                replicate(rng, unit, scenario, n_models, n_datasets, args.resamples)
                for _ in range(args.reps)
            ]
            column = {key: [run[key] for run in runs] for key in runs[0]}
            cells_text = [
                unit,
                n_models,
                n_datasets,
                scenario,
                _cell(column["fwer"], ALPHA, above=False),
                _cell(column["best"], 1 - ALPHA),
                _cell(column["cover"], 1 - ALPHA),
                _cell(column["power"]),
                f"{np.mean(column['size']):.2f}",
                _cell(column["nemenyi"]),
            ]
            flagged += sum("*" in str(cell) for cell in cells_text)
            print("| " + " | ".join(map(str, cells_text)) + " |", flush=True)
    print(f"\n{flagged} cell(s) outside their bounds; {time.perf_counter() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
