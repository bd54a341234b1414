"""A small TREC run and qrels with NDCG computed by hand, shared by the tests of
``evaluate_run`` (tests/ir/test_trec.py) and of the ``trec-eval`` command
(tests/cli/test_trec_eval.py, tests/cli/test_main.py).

Expected values by hand (log2 discount, ranks from 1): ``D[r - 1]`` is the
discount of rank r. The fixture ``files`` of tests/conftest.py writes QRELS and
RUN to files.
"""

import math

D = [1 / math.log2(r + 1) for r in range(1, 20)]

# q1: d3 (level 3) is judged but not retrieved, dX is retrieved but not judged;
# q2: d4 and d5 tie; q3 is judged but not in the run; q4 is in the run only
QRELS = """\
q1 0 d1 0
q1 0 d2 1
q1 0 d3 3
q2 0 d5 2
q2 0 d4 0
q3 0 d9 1
"""
RUN = """\
q1 Q0 dX 1 3.0 sys
q1 Q0 d1 2 2.0 sys
q1 Q0 d2 3 1.0 sys
q2 Q0 d4 1 1.0 sys
q2 Q0 d5 2 1.0 sys
q4 Q0 d1 1 1.0 sys
"""
# hand computation, unjudged dX gaining 0 at rank 1, d1 (0) at 2, d2 (1) at 3;
# ideal from the qrels: 3, 1
Q1 = D[2] / (3 * D[0] + D[1])
Q1_JUDGED_ONLY = D[1] / (3 * D[0] + D[1])  # dX removed: d2 moves to rank 2
Q2 = 1.0  # tie broken by decreasing docno: d5 (2) before d4 (0)


def line(name, qid, value):
    """One line of trec_eval's output: measure, query id and value."""
    return f"{name:<22}\t{qid}\t{value:6.4f}"


def write_files(folder):
    """QRELS and RUN written to ``folder``: the paths (qrels, run), as strings."""
    (folder / "qrels").write_text(QRELS)
    (folder / "run").write_text(RUN)
    return str(folder / "qrels"), str(folder / "run")
