"""Time of sklearn-ndcg against the number of rows, long format.

Run ``python benchmarks/bench_scaling.py``: long-format input of 1e4 .. 1e7
rows (queries of 1..99 documents, 50 on average, rows shuffled, relevance
0..4, continuous scores: W4 of ``bench_ndcg.py`` at other sizes), at k=10 and
k=None. It prints the best time over the repeats, the time per row, the time
per row divided by log2(rows), and the exponent ``b`` of a least-squares fit
``time ~ rows**b``. An n log n algorithm shows a flat
``time / (row log2 row)`` and a fitted exponent a little above 1.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np
from _harness import (
    best_time,
    machine_description,
    markdown_row,
    markdown_table,
    ragged_long_format,
)

import sklearn_ndcg


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--smoke",
        action="store_true",
        help="1e3 .. 1e5 rows, one repeat: for CI, to keep the script working",
    )
    parser.add_argument(
        "--repeats",
        type=int,
        default=None,
        help="timed repeats per size (default 3, smoke 1); the best is kept",
    )
    parser.add_argument(
        "--max-rows", type=float, default=None, help="largest size (default 1e7, smoke 1e5)"
    )
    args = parser.parse_args(argv)
    repeats = args.repeats or (1 if args.smoke else 3)
    low, high = (3, 5) if args.smoke else (4, 7)
    if args.max_rows:
        high = int(round(np.log10(args.max_rows)))
    sizes = np.unique(np.round(np.logspace(low, high, 2 * (high - low) + 1)).astype(int))

    print(f"sklearn-ndcg scaling, long format, shuffled rows; best of {repeats} after a warm-up")
    print("\n".join(machine_description()))
    for k in (10, None):
        print(f"\nk={k}")
        header = ["rows", "best time", "ns / row", "ns / (row log2 row)"]
        print(markdown_table(header))
        times = []
        for n_rows in sizes:
            y_true, y_score, qid = ragged_long_format(
                int(n_rows), int(n_rows) // 50, grouped=False, seed=0
            )
            seconds = best_time(
                lambda y_true=y_true, y_score=y_score, qid=qid, k=k: sklearn_ndcg.ndcg_score(
                    y_true, y_score, qid=qid, k=k
                ),
                repeats,
            )
            times.append(seconds)
            per_row = seconds / n_rows * 1e9
            row = [f"{n_rows:,}", f"{seconds * 1e3:.2f} ms", f"{per_row:.1f}"]
            print(markdown_row([*row, f"{per_row / np.log2(n_rows):.2f}"]), flush=True)
        # fit on the upper half of the sizes, where fixed costs no longer dominate
        upper = sizes >= sizes[len(sizes) // 2]
        exponent = np.polyfit(np.log(sizes[upper]), np.log(np.asarray(times)[upper]), 1)[0]
        exponent_all = np.polyfit(np.log(sizes), np.log(times), 1)[0]
        print(
            f"fitted exponent b in time ~ rows**b: {exponent:.3f} "
            f"(sizes >= {sizes[upper][0]:,}); {exponent_all:.3f} over all sizes"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
