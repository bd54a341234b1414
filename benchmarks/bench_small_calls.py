"""Small calls: the cost of parameter validation and of one query, against scikit-learn.

Issue 38's targets: parameter validation at most 30 µs a call, and ``ndcg_score`` on one
query of 10 documents at most 0.3x the time of scikit-learn's ``ndcg_score`` on the same
input, in the same run. Printed, as the median time per call over many calls (the
validation no-ops timed in batches of 5 calls, the metric calls one by one, the cases
interleaved so that a change of load falls on all of them):

- validation alone: a no-op function with ``ndcg_score``'s signature and constraints,
  decorated by the package's ``validate_params`` and by scikit-learn's, less the same
  function undecorated (called with the arguments of the row);
- one query of 10 documents (2-D, one row): ``sklearn_ndcg.ndcg_score`` with the
  package's decorator (as installed), the same function under scikit-learn's decorator
  (what every call paid before issue 38), and ``sklearn.metrics.ndcg_score``;
- a small fold, 200 queries of 30 documents, at k=10: 2-D for both libraries, and in
  long format (rows grouped by ``qid``) for sklearn-ndcg.

Every ratio is to ``sklearn.metrics.ndcg_score`` on the same input.

Run: ``python benchmarks/bench_small_calls.py [--smoke] [--calls N]``.
"""

from __future__ import annotations

import argparse
import inspect
import os
import time

import numpy as np
from _harness import machine_description
from sklearn.metrics import ndcg_score as sklearn_ndcg_score
from sklearn.utils._param_validation import validate_params as sklearn_validate_params

import sklearn_ndcg
from sklearn_ndcg._validate_params import sklearn_constraints, validate_params

VALIDATION_TARGET_US = 30.0
ONE_QUERY_TARGET = 0.3


def _like(real):
    """A no-op Python function with the parameters, defaults and annotations of ``real``
    (as costly for ``inspect.signature`` as ``real``; a ``__signature__`` would be cheaper)."""
    parameters = inspect.signature(real).parameters.values()
    positional = [p.name for p in parameters if p.kind is p.POSITIONAL_OR_KEYWORD]
    keyword = [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]
    namespace = {}
    exec(
        f"def {real.__name__}({', '.join(positional)}, *, {', '.join(keyword)}): return None",
        namespace,
    )
    function = namespace[real.__name__]
    function.__defaults__, function.__kwdefaults__ = real.__defaults__, real.__kwdefaults__
    function.__annotations__ = dict(real.__annotations__)
    return function


def validation_cases() -> dict:
    """The no-op with ``ndcg_score``'s signature: undecorated and under each decorator."""
    real = sklearn_ndcg.ndcg_score.__wrapped__
    constraints = sklearn_ndcg.ndcg_score._skl_parameter_constraints
    cases = {}
    for name, decorate, given in (
        ("undecorated", None, None),
        ("package's validate_params", validate_params, constraints),
        (
            "scikit-learn's validate_params",
            sklearn_validate_params,
            sklearn_constraints(constraints),
        ),
    ):
        function = _like(real)
        assert inspect.signature(function) == inspect.signature(real)
        if decorate is not None:
            function = decorate(given, prefer_skip_nested_validation=True)(function)
        cases[name] = function
    return cases


def per_call(cases: dict, calls: int, batch: int, rounds: int = 10) -> dict:
    """Median seconds per call of each case, over batches of ``batch`` calls."""
    times = {name: [] for name in cases}
    per_round = max(1, calls // (batch * rounds))
    for fn in cases.values():  # warm-up
        fn()
    for _ in range(rounds):
        for name, fn in cases.items():
            for _ in range(per_round):
                start = time.perf_counter()
                for _ in range(batch):
                    fn()
                times[name].append((time.perf_counter() - start) / batch)
    return {name: float(np.median(t)) for name, t in times.items()}


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="few calls, for CI")
    parser.add_argument("--calls", type=int, default=None, help="calls per case (default 20000)")
    args = parser.parse_args(argv)
    calls = args.calls or (400 if args.smoke else 20_000)

    print("Small calls: validation and one query" + (" (smoke)" if args.smoke else ""))
    for line in machine_description():
        print(line)
    print(f"- {_load()} (before)")
    print(
        f"- median time per call over {calls} calls a case (the folds: {calls // 20}); the "
        "validation no-ops timed in batches of 5 calls, the metric calls one by one (a batch "
        "that lasts longer is more often preempted on a loaded machine)"
    )

    rng = np.random.default_rng(38)
    y_true = rng.integers(0, 4, size=(1, 10)).astype(np.float64)
    y_score = rng.random((1, 10))
    fold_true = rng.integers(0, 4, size=(200, 30)).astype(np.float64)
    fold_score = rng.random((200, 30))
    qid = np.repeat(np.arange(200), 30)

    checks = validation_cases()
    old_decorated = sklearn_validate_params(
        sklearn_constraints(sklearn_ndcg.ndcg_score._skl_parameter_constraints),
        prefer_skip_nested_validation=True,
    )(sklearn_ndcg.ndcg_score.__wrapped__)
    # the values must agree before anything is timed
    reference = sklearn_ndcg_score(y_true, y_score)
    assert np.isclose(sklearn_ndcg.ndcg_score(y_true, y_score), reference)
    assert np.isclose(old_decorated(y_true, y_score), reference)
    fold_reference = sklearn_ndcg_score(fold_true, fold_score, k=10)
    assert np.isclose(sklearn_ndcg.ndcg_score(fold_true, fold_score, k=10), fold_reference)
    long_value = sklearn_ndcg.ndcg_score(fold_true.ravel(), fold_score.ravel(), qid=qid, k=10)
    assert np.isclose(long_value, fold_reference)

    cases = {
        **{
            f"validation, 2 arguments: {n}": (lambda f=f: f(y_true, y_score))
            for n, f in checks.items()
        },
        **{
            f"validation, 5 arguments: {n}": (
                lambda f=f: f(y_true, y_score, k=10, ties="first", qid=None)
            )
            for n, f in checks.items()
        },
        "one query: sklearn.metrics.ndcg_score": lambda: sklearn_ndcg_score(y_true, y_score),
        "one query: sklearn_ndcg.ndcg_score": lambda: sklearn_ndcg.ndcg_score(y_true, y_score),
        "one query: sklearn_ndcg.ndcg_score under scikit-learn's validate_params": (
            lambda: old_decorated(y_true, y_score)
        ),
        "200 x 30 fold, k=10: sklearn.metrics.ndcg_score": (
            lambda: sklearn_ndcg_score(fold_true, fold_score, k=10)
        ),
        "200 x 30 fold, k=10: sklearn_ndcg.ndcg_score": (
            lambda: sklearn_ndcg.ndcg_score(fold_true, fold_score, k=10)
        ),
        "200 x 30 fold, k=10, long format: sklearn_ndcg.ndcg_score": (
            lambda: sklearn_ndcg.ndcg_score(fold_true.ravel(), fold_score.ravel(), qid=qid, k=10)
        ),
    }
    checks = {n: f for n, f in cases.items() if n.startswith("validation")}
    one_query = {n: f for n, f in cases.items() if n.startswith("one query")}
    folds = {n: f for n, f in cases.items() if "fold" in n}
    medians = per_call(checks, calls, batch=5)
    medians.update(per_call(one_query, calls, batch=1))
    medians.update(per_call(folds, max(10, calls // 20), batch=1))

    def reference_of(name: str) -> float:
        if name.startswith("200 x 30"):
            return medians["200 x 30 fold, k=10: sklearn.metrics.ndcg_score"]
        return medians["one query: sklearn.metrics.ndcg_score"]

    print()
    print("| case | µs per call | / sklearn.metrics.ndcg_score (same input) |")
    print("|---|---|---|")
    for name, seconds in medians.items():
        print(f"| {name} | {seconds * 1e6:.1f} | {seconds / reference_of(name):.3f} |")

    print()
    print("Targets (issue 38)")
    for arguments in (2, 5):
        base = medians[f"validation, {arguments} arguments: undecorated"]
        for who in ("package's", "scikit-learn's"):
            cost = (
                medians[f"validation, {arguments} arguments: {who} validate_params"] - base
            ) * 1e6
            verdict = ""
            if who == "package's":
                verdict = " met" if cost <= VALIDATION_TARGET_US else " MISSED"
            print(
                f"- validation per call, {arguments} arguments, {who} decorator: {cost:.1f} µs"
                f" (target <= {VALIDATION_TARGET_US:.0f} µs){verdict}"
            )
    ratio = medians["one query: sklearn_ndcg.ndcg_score"] / reference_of("one query")
    old = medians["one query: sklearn_ndcg.ndcg_score under scikit-learn's validate_params"]
    print(
        f"- one query of 10 documents: sklearn-ndcg / scikit-learn = {ratio:.3f} "
        f"(target <= {ONE_QUERY_TARGET}) {'met' if ratio <= ONE_QUERY_TARGET else 'MISSED'}; "
        f"under scikit-learn's decorator {old / reference_of('one query'):.3f}"
    )
    print(f"- {_load()} (after)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
