"""Command line: ``sklearn-ndcg demo`` and ``sklearn-ndcg trec-eval`` (also
``python -m sklearn_ndcg ...``)."""

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
            "tune gradient boosting (and LGBMRanker, XGBRanker and CatBoostRanker when "
            "installed) with GridSearchCV and GroupKFold scored by NDCG@1, @5 and @10, "
            "compare the best candidates query by query with a margin of NDCG@k, recommend "
            "one, and report the held-out NDCG@k of the recommended and the best-mean model "
            "with intervals, next to random scores and a perfect ranking. Progress goes to "
            "stderr, the report to stdout."
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
        help=(
            "leave out LGBMRanker, XGBRanker and CatBoostRanker (the ltr extra: LightGBM, "
            "XGBoost, CatBoost) even if they are installed"
        ),
    )
    demo.add_argument(
        "--n-jobs",
        type=_positive_int,
        default=1,
        metavar="N",
        help="folds fitted in parallel processes, one thread each (default: 1)",
    )
    demo.add_argument("--quiet", action="store_true", help="do not show progress")
    demo.add_argument(
        "--wide",
        action="store_true",
        help="print every column of the tables (by default no line is over 100 characters)",
    )
    _add_trec_eval(commands)
    return parser


_TREC_EVAL_RULES = """\
Prints what trec_eval prints for these measures, line for line:
'{measure:<22}\\t{qid}\\t{value:6.4f}', each query's lines with -q (in the
order of the query ids, byte-wise), then the means on 'all' lines.

trec_eval's rules, which this command follows:
  - A query of the qrels that the run lacks is left out, unless -c (it then
    scores 0 and counts in the mean); queries of the run without qrels are
    ignored.
  - Documents are ranked by decreasing score, tied scores by decreasing
    document id (byte-wise); -M N keeps the first N of each query; -J then
    removes the unjudged documents, and the judged ones move up.
  - Unjudged: a ranked document the qrels lack, or with a negative level in
    them (in the pool but not judged). It gains 0 and is not in the ideal DCG.
  - ndcg: the gain of a level is its gain in ndcg.<level>=<gain>,... or the
    level itself. The DCG adds the gains of all ranked documents (negative
    ones too); the ideal DCG the positive gains of all judged documents of
    the query, retrieved or not, in decreasing order. Printed as 'ndcg' or
    'ndcg_' followed by the parameters as given.
  - ndcg_cut.K1,K2,...: at each cutoff K (read like C's atol: 23.4 is 23;
    default 5,10,15,20,30,100,200,500,1000), with the level as gain (negative
    levels 0, custom gains not used): DCG@K over ideal DCG@K.
  - NDCG is 0 for a query without a positive ideal DCG; the mean is the plain
    mean over the queries.
  - map, map_cut.K,..., recip_rank, P.K,..., recall.K,..., success.K,...: a
    document is relevant when its level is at least -l (default 1). P.K is
    the relevant documents in the top K over K (also where fewer are ranked),
    recall.K over the query's relevant documents in the qrels, success.K 1 if
    any is in the top K; recip_rank is 1 over the rank of the first relevant
    document; map adds the precision at the rank of each relevant document and
    divides by the relevant documents in the qrels (map_cut.K: those in the
    top K); 0 where the qrels hold none. Default cutoffs as trec_eval's
    (success: 1,5,10). Reported in trec_eval's order of measures.
  - trec_eval's official set (-m official; what trec_eval prints without -m):
    runid (the sixth field of the run's last line), num_q, num_ret, num_rel,
    num_rel_ret (counts, summed on the 'all' line; with -c num_rel's sum
    counts every qrels line of a level above 0), map, gm_map (on the 'all'
    line only: the geometric mean of average precision, each floored at
    0.00001), Rprec (precision at the query's number of relevant documents),
    bpref (Buckley and Voorhees, 2004), recip_rank, iprec_at_recall.R,...
    (interpolated precision at recall levels, default 0,0.1,...,1) and P.
    Parameters of a measure that takes none are ignored, as in trec_eval
    (recip_rank.5 is recip_rank).
  - rbp (rank-biased precision, rbp.p=P sets the persistence, default 0.9;
    printed 'rbp_p=P'): a level gains itself over the query's largest level
    where that exceeds 1. trec_eval 10.0's m_rbp.c starts that normalization
    from uninitialized values, so the binary's rbp of graded qrels can change
    with the measures computed before it (-m iprec_at_recall -m rbp prints
    unnormalized gains); this command always normalizes.

infNDCG (-m infNDCG, never a default measure) is NIST's sample_eval.pl's
inferred NDCG of a pool judged by stratified sampling. The qrels then have
the lines 'qid iter docno stratum rel' (rel -1: pooled, not sampled); other
measures given with it read the same qrels without the strata. Its rules,
those of the script: the first 1000 documents by decreasing score, tied
scores by decreasing document id; within each stratum, the DCG (the level as
gain, log2 discount) of the ranked sampled relevant documents over the
stratum's sampled fraction among its ranked pooled documents; the ideal DCG
from each level's estimated number of documents in the pool, rounded half
up, levels in decreasing order of their text (as Perl sorts them: 10 after
2). Where this command differs from the script: ids are not stripped of
leading zeros (the script strips them from the run's query ids only), a
stratum without a sampled document, a (query, document) pair listed twice
and -J, -M or -B with infNDCG are errors, and queries print in byte-wise
order of their ids (the script's: numeric).

Where this command differs from trec_eval:
  - trec_eval sorts custom ndcg gains with a comparison that truncates their
    difference to a whole number, so gains less than 1 apart can be taken in
    the wrong order, and its ideal DCG is then too small (with
    ndcg.1=1.5,2=1.2) or even 0, making NDCG 0 (with ndcg.1=0.5,2=0.9); here
    the gains are sorted by value.
  - Errors where trec_eval guesses: a negative, repeated or malformed level in
    ndcg.<level>=<gain> (trec_eval skips malformed ones), one measure with two
    different parameter lists (trec_eval takes the first), a NaN score
    (trec_eval's order is then undefined), a relevance that is not a whole
    number (trec_eval's atol reads "1.5" as 1 and "x" as 0), -M below 1.
  - A query of the qrels that the run lacks is left out without -c, as in
    trec_eval 9 and pytrec_eval; trec_eval 10.0 stops with an error there.
  - A query whose qrels hold negative levels only scores 0; trec_eval 10.0
    scores it 0, stops with "Can't calculate measure" or crashes, depending
    on its levels and on the queries before it.
  - A (query, document) pair listed twice in the run or in the qrels is an
    error in every query; trec_eval checks only the queries it evaluates.
  - A score must be a number as Python's float reads it, without '_':
    trec_eval's atof reads '1x' as 1, '0x10' as 16 and '1_000' as 1; here
    they are errors.
  - A UTF-8 byte-order mark at the start of a file is skipped; trec_eval
    reads it as part of the first query id.
  - Only -q, -n, -c, -J, -M, -l and -m of trec_eval's options are known, and -B;
    -l has no effect on the ndcg measures. Errors exit with status 2.
  - -B is this command's own: after each measure M it prints M@judged,
    M@lower and M@upper (0 and the levels of the qrels that are not negative
    assigned to the unjudged documents, the ideal DCG changing with them; a
    document with a negative level is unjudged, as in evaluate_run); '@' is
    in no trec_eval measure name. It cannot be combined with -J, which removes
    the unjudged documents.
"""


def _add_trec_eval(commands) -> None:
    from .._ir import MEASURES, OFFICIAL_SET  # numpy only: the help names them

    trec = commands.add_parser(
        "trec-eval",
        help="trec_eval's measures of a TREC run (ndcg, map, P, bpref, rbp...)",
        description=(
            "Evaluate a TREC run (lines 'qid Q0 docno rank score run_id') against "
            "relevance judgments (qrels, lines 'qid iter docno rel') and print "
            f"trec_eval's lines of {', '.join(MEASURES)}, computed with sklearn_ndcg's "
            "evaluate_run engine. Lines starting with '#' and blank lines are skipped."
        ),
        epilog=_TREC_EVAL_RULES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    trec.add_argument(
        "-q", dest="per_query", action="store_true", help="print each query's values too"
    )
    trec.add_argument(
        "-n",
        dest="no_summary",
        action="store_true",
        help="print no summary ('all') lines; with -q, only each query's values",
    )
    trec.add_argument(
        "-c",
        dest="complete",
        action="store_true",
        help="queries of the qrels that the run lacks score 0 and count in the mean",
    )
    trec.add_argument(
        "-J",
        dest="judged_only",
        action="store_true",
        help=(
            "remove unjudged documents (also those with a negative level in the qrels) "
            "from each ranking before ranks are assigned"
        ),
    )
    trec.add_argument(
        "-M",
        dest="max_docs",
        type=_positive_int,
        metavar="N",
        help="evaluate only the first N documents of each query (default: all)",
    )
    trec.add_argument(
        "-B",
        dest="bounds",
        action="store_true",
        help=(
            "also print, after each measure M, M@judged (judged documents in the top k "
            "over k, or over the number ranked if fewer) and M@lower and M@upper (its "
            "extremes over every level the unjudged documents could have: 0 and the "
            "qrels' levels that are not negative; a negative level is unjudged, as in "
            "evaluate_run); not a trec_eval option"
        ),
    )
    trec.add_argument(
        "--ignore-identical-ids",
        dest="ignore_identical_ids",
        action="store_true",
        help=(
            "drop every ranked document whose id is its query's id before scoring, the "
            "qrels untouched (BEIR's and MTEB's ignore_identical_ids: on in BEIR, whose "
            "ArguAna, Quora and CQADupStack queries are documents of the corpus; off for "
            "MIRACL, which loses score with it); a judged query left without documents "
            "scores as one the run lacks with -c; not a trec_eval option"
        ),
    )
    trec.add_argument(
        "-l",
        dest="level",
        type=int,
        metavar="N",
        default=1,
        help=(
            "trec_eval's relevance level: a level at least N is relevant for map, "
            "recip_rank, P, recall, map_cut and success (default 1); no effect on ndcg "
            "measures"
        ),
    )
    trec.add_argument(
        "-m",
        dest="measures",
        action="append",
        type=_measure,
        metavar="MEASURE",
        help=(
            f"{'; '.join(measure.usage for measure in MEASURES.values())}; or official "
            f"(trec_eval's default set: {', '.join(OFFICIAL_SET)}); repeat for several "
            f"(default: {' and '.join(n for n, m in MEASURES.items() if m.in_default)})"
        ),
    )
    trec.add_argument("qrels", metavar="QRELS", help="the relevance judgments")
    trec.add_argument("run", metavar="RUN", help="the run")


def _measure(text: str) -> tuple[str, str | None]:
    from .._ir import parse_measure

    try:
        return parse_measure(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def _trec_eval(args) -> int:
    """Run ``trec-eval``; input problems go to stderr with status 2."""
    from .._ir import measures_from
    from ._trec_eval import run_trec_eval

    try:
        run_trec_eval(
            args.qrels,
            args.run,
            measures_from(args.measures),
            per_query=args.per_query,
            summary=not args.no_summary,
            complete=args.complete,
            judged_only=args.judged_only,
            max_docs=args.max_docs,
            bounds=args.bounds,
            relevance_level=args.level,
            ignore_identical_ids=args.ignore_identical_ids,
        )
    except OSError as error:
        reason = error.strerror or str(error)
        print(f"sklearn-ndcg trec-eval: cannot read {error.filename}: {reason}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"sklearn-ndcg trec-eval: {error}", file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status.

    Parameters
    ----------
    argv : list of str, default=None
        The arguments, without the program name; None means ``sys.argv[1:]``.

    Returns
    -------
    status : int
        0 on success; 2 when ``trec-eval`` cannot read or evaluate its files.
        Bad arguments exit with status 2 (``SystemExit``).
    """
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "trec-eval":
        return _trec_eval(args)
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
        wide=args.wide,
    )
    return 0
