"""Command line: ``python -m sklearn_ndcg demo`` or ``sklearn-ndcg demo``."""

from __future__ import annotations

import argparse
import sys


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a number >= 1, got {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sklearn-ndcg",
        description="NDCG as a first-class citizen of scikit-learn model selection.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = commands.add_parser(
        "demo",
        help="tune ranking models by NDCG on synthetic data",
        description=(
            "Generate a synthetic ranking dataset, hold out a quarter of the queries, "
            "tune gradient boosting (and LGBMRanker / XGBRanker when installed) with "
            "GridSearchCV and GroupKFold scored by NDCG@1, @5 and @10, refit on "
            "NDCG@k, and compare the best model on the held-out queries with random "
            "scores and a perfect ranking. Progress goes to stderr, the report to stdout."
        ),
    )
    demo.add_argument(
        "--n-queries",
        type=_positive_int,
        default=500,
        metavar="N",
        help="number of queries to generate, about 27 documents each (default: 500)",
    )
    demo.add_argument(
        "-k",
        "--k",
        type=_positive_int,
        default=10,
        help="NDCG cutoff for refitting and the held-out score (default: 10)",
    )
    demo.add_argument(
        "--seed", type=int, default=0, help="random seed of data, split and models (default: 0)"
    )
    demo.add_argument(
        "--n-splits",
        type=_positive_int,
        default=3,
        metavar="N",
        help="number of GroupKFold folds, at least 2 (default: 3)",
    )
    demo.add_argument(
        "--no-ltr",
        action="store_true",
        help="leave out LGBMRanker and XGBRanker even if they are installed",
    )
    demo.add_argument(
        "--n-jobs",
        type=_positive_int,
        default=1,
        metavar="N",
        help="folds fitted in parallel processes, one thread each (default: 1)",
    )
    demo.add_argument("--quiet", action="store_true", help="do not show progress")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments, without the program name; None means ``sys.argv[1:]``.

    Returns
    -------
    status : int
        0 on success. Bad arguments exit with status 2 (``SystemExit``).
    """
    parser = _parser()
    args = parser.parse_args(argv)
    if args.n_splits < 2:
        parser.error(f"argument --n-splits: expected a number >= 2, got {args.n_splits}")
    if args.n_queries < 2 * args.n_splits:  # a quarter is held out; each fold needs queries
        parser.error(
            f"argument --n-queries: expected at least 2 x --n-splits = "
            f"{2 * args.n_splits} queries, got {args.n_queries}"
        )
    from ._demo import run_demo  # imports scikit-learn's model selection: not for --help

    run_demo(
        n_queries=args.n_queries,
        k=args.k,
        seed=args.seed,
        n_splits=args.n_splits,
        use_ltr=not args.no_ltr,
        n_jobs=args.n_jobs,
        progress=None if args.quiet else sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
