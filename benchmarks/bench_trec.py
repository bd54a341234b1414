"""TREC files end to end: the ``sklearn-ndcg trec-eval`` command against trec_eval.

Generates a run (``--queries`` x ``--docs`` lines, default 5,000 x 1,000 = 5M lines)
and qrels (``--qrels`` lines, default 300,000), then times each of these as a whole
process, ``--repeats`` times in turn, and prints the minimum wall time, the CPU time
(user + system) and the peak resident memory of each, with ratios to trec_eval
measured in the same run:

- trec_eval itself (``--trec-eval PATH``: a built binary); the command's output is
  then checked to be byte-identical to trec_eval's;
- the command ``python -m sklearn_ndcg trec-eval -m ndcg -m ndcg_cut``, with its
  fast path (scores parsed by pyarrow, the ``trec`` extra) where installed and with
  numpy alone (the private switch ``SKLEARN_NDCG_NUMPY_ONLY=1``);
- ``evaluate_run(read_trec_run(...), read_trec_qrels(...))`` from the files, with
  ``CONVENTIONS["trec_eval"]``;
- ranx (``Run.from_file``, ``Qrels.from_file``, ``evaluate``) and pytrec_eval
  (``parse_run``, ``parse_qrel``, ``RelevanceEvaluator``), where installed
  (``--peer-repeats`` times, default once: they take minutes at full size).

Peak memory is each process's own high-water mark (``wait4``'s ``ru_maxrss``), which
includes the interpreter and its imports. The machine may be shared: the figures are
minima over the repeats; compare the ratios, taken in one run.

    python benchmarks/bench_trec.py --trec-eval /path/to/trec_eval
    python benchmarks/bench_trec.py --smoke       # 50 queries x 100 documents
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

MEASURES = ["-m", "ndcg", "-m", "ndcg_cut"]


def write_files(folder: Path, n_queries: int, n_docs: int, n_qrels: int, seed: int = 0):
    """A run grouped by query, as search systems write them (docs by rank, scores
    with 4 decimals, so some tie), and qrels judging part of each query's documents
    and some it did not retrieve; levels 0..3."""
    rng = np.random.default_rng(seed)
    run_path, qrels_path = folder / "run.txt", folder / "qrels.txt"
    per_query = max(1, n_qrels // n_queries)
    with open(run_path, "w") as run, open(qrels_path, "w") as qrels:
        for q in range(n_queries):
            qid = str(301 + q)
            docs = rng.choice(10**7, size=n_docs + per_query // 3, replace=False)
            names = np.char.add("D", np.char.zfill(docs.astype(str), 7))
            scores = np.sort(np.round(rng.normal(10, 3, n_docs), 4))[::-1]
            ranks = np.arange(1, n_docs + 1).astype(str)
            run.write(
                "".join(
                    f"{qid} Q0 {name} {rank} {score:.4f} bm25\n"
                    for name, rank, score in zip(names[:n_docs], ranks, scores)
                )
            )
            judged = rng.choice(names.shape[0], size=per_query, replace=False)
            levels = rng.integers(0, 4, size=per_query)
            qrels.write("".join(f"{qid} 0 {names[j]} {r}\n" for j, r in zip(judged, levels)))
    return run_path, qrels_path


def measure(command: list[str], env: dict | None = None) -> dict:
    """Run a command once: its wall and CPU seconds, peak RSS (bytes) and stdout."""
    with tempfile.TemporaryFile() as out:
        start = time.perf_counter()
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.PIPE, env={**os.environ, **(env or {})}
        )
        _, status, usage = os.wait4(process.pid, 0)
        wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        stderr = process.stderr.read().decode(errors="replace")
        process.stderr.close()
        out.seek(0)
        stdout = out.read()
    if process.returncode != 0:
        raise RuntimeError(f"{command[:3]} failed ({process.returncode}): {stderr[-2000:]}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,
        "rss": usage.ru_maxrss * 1024,  # kilobytes on Linux
        "stdout": stdout,
    }


EVALUATE_RUN = """
import sys
from sklearn_ndcg import CONVENTIONS, evaluate_run, read_trec_qrels, read_trec_run
result = evaluate_run(read_trec_run(sys.argv[1]), read_trec_qrels(sys.argv[2]),
                      **CONVENTIONS["trec_eval"])
print(f"ndcg {result.score:.4f}")
"""
RANX = """
import sys
from ranx import Qrels, Run, evaluate
run, qrels = Run.from_file(sys.argv[1], kind="trec"), Qrels.from_file(sys.argv[2], kind="trec")
print(f"ndcg {evaluate(qrels, run, 'ndcg'):.4f}")
"""
PYTREC_EVAL = """
import sys
import pytrec_eval
with open(sys.argv[1]) as run_file, open(sys.argv[2]) as qrels_file:
    run, qrels = pytrec_eval.parse_run(run_file), pytrec_eval.parse_qrel(qrels_file)
values = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg", "ndcg_cut"}).evaluate(run)
print(f"ndcg {sum(v['ndcg'] for v in values.values()) / len(values):.4f}")
"""


NUMPY_ONLY = {"SKLEARN_NDCG_NUMPY_ONLY": "1"}  # the private switch of the score parser


def subjects(args, run_path: Path, qrels_path: Path) -> list[tuple[str, list[str], dict]]:
    python = sys.executable
    rows = []
    if args.trec_eval:
        command = [args.trec_eval, *MEASURES, str(qrels_path), str(run_path)]
        rows.append(("trec_eval (C)", command, {}))
    command = [python, "-m", "sklearn_ndcg", "trec-eval", *MEASURES, str(qrels_path), str(run_path)]
    if importlib.util.find_spec("pyarrow") is None:
        print("- note: the fast path (pyarrow, the trec extra) skipped: not installed")
    else:
        rows.append(("sklearn-ndcg trec-eval (pyarrow)", command, {}))
    rows.append(("sklearn-ndcg trec-eval (numpy only)", command, NUMPY_ONLY))
    files = [str(run_path), str(qrels_path)]
    rows.append(("evaluate_run from files", [python, "-c", EVALUATE_RUN, *files], {}))
    for name, module, code in (("ranx", "ranx", RANX), ("pytrec_eval", "pytrec_eval", PYTREC_EVAL)):
        if importlib.util.find_spec(module) is None:
            print(f"- note: {name} skipped: not installed")
        elif args.no_peers:
            print(f"- note: {name} skipped: --no-peers")
        else:
            rows.append((name, [python, "-c", code, *files], {}))
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--queries", type=int, default=5000)
    parser.add_argument("--docs", type=int, default=1000, help="documents per query")
    parser.add_argument("--qrels", type=int, default=300_000, help="qrels lines")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--peer-repeats", type=int, default=1, help="repeats of ranx and pytrec_eval (slow)"
    )
    parser.add_argument("--trec-eval", help="a trec_eval binary: time it, check the output")
    parser.add_argument("--no-peers", action="store_true", help="leave ranx and pytrec_eval out")
    parser.add_argument("--smoke", action="store_true", help="50 queries x 100 docs, 1 repeat")
    args = parser.parse_args(argv)
    if args.smoke:
        args.queries, args.docs, args.qrels, args.repeats = 50, 100, 3000, 1
    with tempfile.TemporaryDirectory() as folder:
        run_path, qrels_path = write_files(Path(folder), args.queries, args.docs, args.qrels)
        size = run_path.stat().st_size / 1e6
        print(
            f"# TREC files: run {args.queries:,} queries x {args.docs:,} documents "
            f"({args.queries * args.docs:,} lines, {size:.0f} MB), qrels {args.qrels:,} lines; "
            f"-m ndcg -m ndcg_cut; min of {args.repeats} runs each, in turn\n"
        )
        rows = subjects(args, run_path, qrels_path)
        results: dict[str, list[dict]] = {name: [] for name, _, _ in rows}
        for repeat in range(args.repeats):
            for name, command, env in rows:
                if name not in ("ranx", "pytrec_eval") or repeat < args.peer_repeats:
                    print(f"- timing {name}, run {repeat + 1}", flush=True)
                    results[name].append(measure(command, env))
    best = {
        name: {key: min(r[key] for r in runs) for key in ("wall", "cpu", "rss")}
        for name, runs in results.items()
    }
    reference = best.get("trec_eval (C)")
    header = ["", "wall time (s)", "CPU time (s)", "peak RSS (MB)"]
    header += [f"{figure} / trec_eval" for figure in ("wall", "CPU", "RSS")]
    print("| " + " | ".join(header) + " |\n" + "|---" * len(header) + "|")
    for name, figures in best.items():
        ratios = (
            [f"{figures[key] / reference[key]:.2f}x" for key in ("wall", "cpu", "rss")]
            if reference
            else ["", "", ""]
        )
        print(
            f"| {name} | {figures['wall']:.2f} | {figures['cpu']:.2f} | "
            f"{figures['rss'] / 1e6:,.0f} | " + " | ".join(ratios) + " |"
        )
    if reference:
        expected = results["trec_eval (C)"][0]["stdout"]
        commands = [name for name in results if name.startswith("sklearn-ndcg trec-eval")]
        same = all(r["stdout"] == expected for name in commands for r in results[name])
        print(f"\noutput of sklearn-ndcg trec-eval byte-identical to trec_eval's: {same}")
        if not same:
            print("OUTPUT CHECK FAILED")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
