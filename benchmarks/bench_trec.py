"""TREC files end to end: the ``sklearn-ndcg trec-eval`` command against trec_eval,
with the floor any numpy program pays.

Four sizes by default, each a run grouped by query (scores with 4 decimals unless
tied) and qrels with graded levels 0..3:

- ``typical``: 50 queries x 1,000 documents (50,000 lines), 100 judgments a query;
- ``million``: 1,000 queries x 1,000 documents (1,000,000 lines), 100,000 qrels lines;
- ``tied``: 2,000 queries x 1,000 documents (2,000,000 lines), scores with one
  decimal, so most documents tie with others (trec_eval's order of tied documents);
- ``large``: 5,000 queries x 1,000 documents (5,000,000 lines), 300,000 qrels lines.

Each size times these as whole processes, ``--repeats`` times in turn, and prints the
minimum wall time, CPU time (user + system) and peak resident memory of each, with
ratios to trec_eval and the difference to the floor, measured in the same run:

- trec_eval itself (``--trec-eval PATH``: a built binary); the command's output is
  then checked to be byte-identical to trec_eval's;
- the floor: ``python -c "import numpy"``, the start-up any numpy program pays;
- the command ``python -m sklearn_ndcg trec-eval -m ndcg -m ndcg_cut`` as installed
  (pyarrow's score parser on files of 64 MB or more, where installed), and with numpy
  alone (the private switch ``SKLEARN_NDCG_NUMPY_ONLY=1``);
- ``evaluate_run(run_path, qrels_path, **CONVENTIONS["trec_eval"])``: evaluate_run from
  the files, on the command's path (its readers, its join, the run block by block);
- ``evaluate_run(read_trec_run(...), read_trec_qrels(...))``: from the tables of Python
  strings the public readers return;
- ranx (``Run.from_file``, ``Qrels.from_file``, ``evaluate``) and pytrec_eval
  (``parse_run``, ``parse_qrel``, ``RelevanceEvaluator``), where installed
  (``--peer-repeats`` times, default once: they take minutes at full size).

Then, for each size, evaluate_run from the files against trec_eval and against the
command, as ratios of the minima taken in the same run (with the load average before and
after), and whether its mean NDCG equals trec_eval's ``ndcg all`` to the printed 4
decimals. Then ``sklearn-ndcg trec-eval --help`` against the floor. Peak memory is each
command's own high-water mark, from GNU time (``/usr/bin/time -f %M``; else
``wait4``'s ``ru_maxrss``, which also counts this process's memory, inherited at the
fork), interpreter and imports included. The machine may be shared: the figures are minima over
the repeats, and the load average is printed before and after; compare the ratios,
taken in one run.

    python benchmarks/bench_trec.py --trec-eval /path/to/trec_eval
    python benchmarks/bench_trec.py --size typical --size tied --no-peers
    python benchmarks/bench_trec.py --smoke       # small files, 1 repeat
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
from typing import NamedTuple

import numpy as np

MEASURES = ["-m", "ndcg", "-m", "ndcg_cut"]


class Size(NamedTuple):
    """A benchmark size: queries, documents a query, qrels lines, decimals of the scores."""

    queries: int
    docs: int
    qrels: int
    decimals: int
    text: str


SIZES = {
    "typical": Size(50, 1000, 5000, 4, "50 queries x 1,000 documents, 100 judgments a query"),
    "million": Size(1000, 1000, 100_000, 4, "1,000 queries x 1,000 documents (1M lines)"),
    "tied": Size(2000, 1000, 200_000, 1, "2M lines, tied scores (1 decimal)"),
    "large": Size(5000, 1000, 300_000, 4, "5M lines"),
}
SMOKE = {
    "typical": Size(50, 100, 3000, 4, "smoke: 50 queries x 100 documents"),
    "tied": Size(50, 100, 3000, 1, "smoke: 50 x 100, tied scores (1 decimal)"),
}


def write_files(
    folder: Path, n_queries: int, n_docs: int, n_qrels: int, decimals: int = 4, seed: int = 0
):
    """A run grouped by query, as search systems write them (docs by rank, scores
    with ``decimals`` decimals, so some tie), and qrels judging part of each query's
    documents and some it did not retrieve; levels 0..3."""
    rng = np.random.default_rng(seed)
    run_path, qrels_path = folder / "run.txt", folder / "qrels.txt"
    per_query = max(1, n_qrels // n_queries)
    with open(run_path, "w") as run, open(qrels_path, "w") as qrels:
        for q in range(n_queries):
            qid = str(301 + q)
            docs = rng.choice(10**7, size=n_docs + per_query // 3, replace=False)
            names = np.char.add("D", np.char.zfill(docs.astype(str), 7))
            scores = np.sort(np.round(rng.normal(10, 3, n_docs), decimals))[::-1]
            ranks = np.arange(1, n_docs + 1).astype(str)
            run.write(
                "".join(
                    f"{qid} Q0 {name} {rank} {score:.{decimals}f} bm25\n"
                    for name, rank, score in zip(names[:n_docs], ranks, scores)
                )
            )
            judged = rng.choice(names.shape[0], size=per_query, replace=False)
            levels = rng.integers(0, 4, size=per_query)
            qrels.write("".join(f"{qid} 0 {names[j]} {r}\n" for j, r in zip(judged, levels)))
    return run_path, qrels_path


# GNU time reports the peak RSS of the command alone: a child forked from this process
# would start with this process's memory in its high-water mark (ru_maxrss survives exec)
GNU_TIME = "/usr/bin/time"


def measure(command: list[str], env: dict | None = None) -> dict:
    """Run a command once: its wall and CPU seconds, peak RSS (bytes) and stdout."""
    timed = os.path.exists(GNU_TIME)
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as rss:
        if timed:
            command = [GNU_TIME, "-f", "%M", "-o", rss.name, *command]
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
        peak_kb = int(rss.read().split()[-1]) if timed else usage.ru_maxrss
    if process.returncode != 0:
        raise RuntimeError(f"{command[:3]} failed ({process.returncode}): {stderr[-2000:]}")
    return {
        "wall": wall,
        "cpu": usage.ru_utime + usage.ru_stime,  # the command's, reaped by GNU time
        "rss": peak_kb * 1024,  # kilobytes on Linux
        "stdout": stdout,
    }


EVALUATE_RUN = """
import sys
from sklearn_ndcg import CONVENTIONS, evaluate_run
result = evaluate_run(sys.argv[1], sys.argv[2], **CONVENTIONS["trec_eval"])
print(f"ndcg {result.score:.4f}")
"""
EVALUATE_TABLES = """
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
FLOOR = 'floor: python -c "import numpy"'
COMMAND = "sklearn-ndcg trec-eval"
FROM_FILES = "evaluate_run from files"
FROM_TABLES = "evaluate_run from read_trec_run, read_trec_qrels"


def subjects(args, run_path: Path, qrels_path: Path) -> list[tuple[str, list[str], dict]]:
    python = sys.executable
    rows = []
    if args.trec_eval:
        command = [args.trec_eval, *MEASURES, str(qrels_path), str(run_path)]
        rows.append(("trec_eval (C)", command, {}))
    rows.append((FLOOR, [python, "-c", "import numpy"], {}))
    command = [python, "-m", "sklearn_ndcg", "trec-eval", *MEASURES, str(qrels_path), str(run_path)]
    if importlib.util.find_spec("pyarrow") is None:
        print("- note: pyarrow (the trec extra) is not installed: the command uses numpy")
    rows.append((COMMAND, command, {}))
    rows.append(("sklearn-ndcg trec-eval (numpy only)", command, NUMPY_ONLY))
    files = [str(run_path), str(qrels_path)]
    rows.append((FROM_FILES, [python, "-c", EVALUATE_RUN, *files], {}))
    rows.append((FROM_TABLES, [python, "-c", EVALUATE_TABLES, *files], {}))
    for name, module, code in (("ranx", "ranx", RANX), ("pytrec_eval", "pytrec_eval", PYTREC_EVAL)):
        if importlib.util.find_spec(module) is None:
            print(f"- note: {name} skipped: not installed")
        elif args.no_peers:
            print(f"- note: {name} skipped: --no-peers")
        else:
            rows.append((name, [python, "-c", code, *files], {}))
    return rows


def _load() -> str:
    return "load average {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def _table(results: dict[str, list[dict]]) -> dict[str, dict]:
    """Print the minima of each subject, with ratios to trec_eval and to the floor."""
    best = {
        name: {key: min(r[key] for r in runs) for key in ("wall", "cpu", "rss")}
        for name, runs in results.items()
    }
    reference, floor = best.get("trec_eval (C)"), best.get(FLOOR)
    header = ["", "wall time (s)", "CPU time (s)", "peak RSS (MB)"]
    header += [f"{figure} / trec_eval" for figure in ("wall", "CPU", "RSS")]
    header += ["wall - floor (s)"]
    print("| " + " | ".join(header) + " |\n" + "|---" * len(header) + "|")
    for name, figures in best.items():
        ratios = (
            [f"{figures[key] / reference[key]:.2f}x" for key in ("wall", "cpu", "rss")]
            if reference
            else ["", "", ""]
        )
        above = f"{figures['wall'] - floor['wall']:+.3f}" if floor and name != FLOOR else ""
        print(
            f"| {name} | {figures['wall']:.3f} | {figures['cpu']:.3f} | "
            f"{figures['rss'] / 1e6:,.1f} | " + " | ".join([*ratios, above]) + " |"
        )
    return best


def run_size(args, name: str, size: Size) -> bool:
    """Time every subject on one size; whether the command's output matched trec_eval's."""
    with tempfile.TemporaryDirectory() as folder:
        run_path, qrels_path = write_files(
            Path(folder), size.queries, size.docs, size.qrels, size.decimals
        )
        mb = run_path.stat().st_size / 1e6
        print(
            f"\n## {name}: {size.text}\n\nrun {size.queries:,} queries x {size.docs:,} "
            f"documents ({size.queries * size.docs:,} lines, {mb:.1f} MB), qrels "
            f"{size.qrels:,} lines; -m ndcg -m ndcg_cut; min of {args.repeats} runs each, "
            f"in turn; {_load()}\n"
        )
        before = _load()
        rows = subjects(args, run_path, qrels_path)
        results: dict[str, list[dict]] = {name: [] for name, _, _ in rows}
        for repeat in range(args.repeats):
            for subject, command, env in rows:
                if subject not in ("ranx", "pytrec_eval") or repeat < args.peer_repeats:
                    print(f"- timing {subject}, run {repeat + 1}", flush=True)
                    results[subject].append(measure(command, env))
    after = _load()
    print(f"- after: {after}\n")
    best = _table(results)
    _ratios(best, before, after)
    if "trec_eval (C)" not in results:
        return True
    expected = results["trec_eval (C)"][0]["stdout"]
    commands = [subject for subject in results if subject.startswith(COMMAND)]
    same = all(r["stdout"] == expected for subject in commands for r in results[subject])
    print(f"\noutput of sklearn-ndcg trec-eval byte-identical to trec_eval's: {same}")
    mean = next(line for line in expected.decode().splitlines() if line.startswith("ndcg "))
    mean = f"ndcg {mean.split()[-1]}\n".encode()
    equal = all(r["stdout"] == mean for name in (FROM_FILES, FROM_TABLES) for r in results[name])
    print(f"evaluate_run's mean NDCG equal to trec_eval's ndcg (4 decimals): {equal}")
    if not (same and equal):
        print("OUTPUT CHECK FAILED")
    return same and equal


TARGET = 1.0  # issue 51: evaluate_run from the paths or the readers' tables, / trec_eval


def _ratios(best: dict[str, dict], before: str, after: str) -> None:
    """evaluate_run from the files against trec_eval and the command, same run; then
    from the files and from the tables against trec_eval's wall and CPU time, with
    issue 51's target."""
    print(f"\n{FROM_FILES}, minima of the same run ({before} before, {after} after):")
    for reference in ("trec_eval (C)", COMMAND):
        if reference in best:
            ratios = ", ".join(
                f"{label} {best[FROM_FILES][key] / best[reference][key]:.2f}x"
                for label, key in (("wall", "wall"), ("CPU", "cpu"), ("peak RSS", "rss"))
            )
            print(f"- / {reference}: {ratios}")
    reference = best.get("trec_eval (C)")
    if reference is None:
        return
    for subject in (FROM_FILES, FROM_TABLES):
        wall, cpu = (best[subject][key] / reference[key] for key in ("wall", "cpu"))
        verdict = "met" if max(wall, cpu) <= TARGET else "missed"
        print(
            f"- {subject} / trec_eval (C): wall {wall:.2f}x, CPU {cpu:.2f}x "
            f"(target <= {TARGET:g}x both): {verdict}"
        )


def run_help(args) -> None:
    """``sklearn-ndcg trec-eval --help`` against the floor."""
    python = sys.executable
    rows = [
        (FLOOR, [python, "-c", "import numpy"]),
        ("sklearn-ndcg trec-eval --help", [python, "-m", "sklearn_ndcg", "trec-eval", "--help"]),
    ]
    print(f"\n## --help\n\nmin of {args.repeats} runs each, in turn; {_load()}\n")
    results: dict[str, list[dict]] = {name: [] for name, _ in rows}
    for _ in range(args.repeats):
        for name, command in rows:
            results[name].append(measure(command))
    _table(results)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--size",
        action="append",
        choices=list(SIZES),
        help="a size to run (repeat for several; default: all four)",
    )
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument(
        "--peer-repeats", type=int, default=1, help="repeats of ranx and pytrec_eval (slow)"
    )
    parser.add_argument("--trec-eval", help="a trec_eval binary: time it, check the output")
    parser.add_argument("--no-peers", action="store_true", help="leave ranx and pytrec_eval out")
    parser.add_argument("--smoke", action="store_true", help="small files, 1 repeat")
    args = parser.parse_args(argv)
    sizes = SMOKE if args.smoke else {name: SIZES[name] for name in args.size or SIZES}
    if args.smoke:
        args.repeats = 1
    print(f"# TREC files end to end; Python {sys.version.split()[0]}, numpy {np.__version__}")
    same = [run_size(args, name, size) for name, size in sizes.items()]
    run_help(args)
    if not all(same):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
