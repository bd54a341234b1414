"""Every warning of the package is attributed to the user's line (issue 50, item 3).

Python shows a warning once per line it is attributed to: a warning attributed to a line
of the package would be shown once per process, and a second call from another line of
the user's script would be silent. The reference is Python's own report on stderr of a
script run in a fresh interpreter, with the default warning filters.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# each call is made twice, on two lines of the script
CALLS = [
    "bootstrap_ci(v)",  # too few queries for an interval (3)
    "ndcg_score([[0, 0]], [[1, 2]], zero_division=np.nan)",  # undefined (the engine's)
    "paired_test(a, b)",  # too few queries for the interval (10)
    "compare_models({'a': a, 'b': b}, baseline='a')",  # deprecated spelling
    "ev.score(X, y)",  # RankingEvaluator.score without qid
]

SCRIPT_HEAD = """\
import numpy as np
from sklearn.linear_model import Ridge
from sklearn_ndcg import RankingEvaluator, bootstrap_ci, compare_models, ndcg_score, paired_test
rng = np.random.default_rng(0)
v, a, b = rng.random(3), rng.random(10), rng.random(10)
X, y = rng.random((6, 2)), rng.random(6)
ev = RankingEvaluator(Ridge()).fit(X, y)
"""


@pytest.fixture(scope="module")
def reported(tmp_path_factory):
    """The lines of the script that Python names in its warnings, and the script."""
    lines = SCRIPT_HEAD.splitlines()
    for call in CALLS:
        lines += [call, call]
    script = tmp_path_factory.mktemp("warn") / "user_script.py"
    script.write_text("\n".join(lines) + "\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "OMP_NUM_THREADS": "1"}
    env.pop("PYTHONWARNINGS", None)
    result = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, check=True
    )
    named = re.findall(r"^(.+?):(\d+): \w*Warning", result.stderr, flags=re.MULTILINE)
    return {(Path(path).name, int(line)) for path, line in named}, lines, result.stderr


@pytest.mark.parametrize("call", CALLS)
def test_each_call_warns_on_its_own_line(reported, call):
    named, lines, stderr = reported
    first = lines.index(call) + 1
    for line in (first, first + 1):
        assert ("user_script.py", line) in named, stderr
    assert not [n for n in named if n[0] != "user_script.py"], stderr


def test_no_warning_is_raised_past_the_helper():
    """``warnings.warn`` is called only by the helpers."""
    package = ROOT / "sklearn_ndcg"
    allowed = {"_warn.py", "_engine/_warnings.py"}
    direct = sorted(
        path.relative_to(package).as_posix()
        for path in package.rglob("*.py")
        if "warnings.warn(" in path.read_text(encoding="utf-8")
        and path.relative_to(package).as_posix() not in allowed
    )
    assert not direct, direct
