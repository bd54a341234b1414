"""The types are checked: mypy (the ``lint`` extra) reports nothing on the package, and a
user's own type checker sees the public functions' signatures (not ``Any``).

CI runs ``mypy sklearn_ndcg`` as a step of its own (``.ci/run``); this test runs the
same check, with a user's script beside it, where mypy is installed.
"""

import pathlib
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]

# A user's script: each assert_type fails the check if the public signature is lost
# (a decorator that hides it makes the function Any, and assert_type then fails).
USER_SCRIPT = textwrap.dedent(
    """
    import numpy as np
    from typing_extensions import assert_type

    from sklearn_ndcg import (
        JudgmentPool, QueryBounds, QueryScores, dcg_score, ndcg_score, query_scores,
    )

    assert_type(ndcg_score([[3, 2, 0]], [[0.3, 0.2, 0.1]], k=2), float)
    assert_type(dcg_score(np.array([1.0, 0.0]), [0.5, 0.2], qid=[1, 1]), float)
    # one metric: its QueryScores; a list of metrics: a dict; bounds=True: QueryBounds
    assert_type(query_scores([1, 0], [0.5, 0.2], qid=[1, 1]), QueryScores)
    assert_type(query_scores([1, 0], [0.5, 0.2], qid=[1, 1], metric="P_1"), QueryScores)
    assert_type(query_scores({"q": {"a": 1}}, {"q": {"a": 0.5}}), QueryScores)
    assert_type(
        query_scores([1, 0], [0.5, 0.2], qid=[1, 1], metric=["map", "P_1"]),
        dict[str, QueryScores],
    )
    pool = JudgmentPool([1], [1])
    assert_type(
        query_scores([1], [0.5], qid=[1], pool=pool, bounds=True), QueryBounds
    )
    flag: bool = bool(np.random.rand() > 0.5)
    assert_type(
        query_scores([1], [0.5], qid=[1], pool=pool, bounds=flag), QueryScores | QueryBounds
    )
    ndcg_score([[3, 2, 0]], [[0.3, 0.2, 0.1]], k="10")  # E: an int, not a str
    """
)


@pytest.mark.slow  # mypy checks the whole package: about a minute on a busy core
def test_mypy_reports_nothing_and_a_user_sees_the_signatures(tmp_path):
    pytest.importorskip("mypy")
    script = tmp_path / "user_script.py"
    script.write_text(USER_SCRIPT)
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml")]
        + ["--cache-dir", str(tmp_path / "cache"), "sklearn_ndcg", str(script)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    errors = [line for line in result.stdout.splitlines() if ": error:" in line]
    # the one error is the user's str for k, on the line marked "E:"
    (line,) = [i for i, text in enumerate(USER_SCRIPT.splitlines(), 1) if "# E:" in text]
    assert len(errors) == 1, result.stdout
    assert errors[0].startswith(f'{script}:{line}: error: Argument "k"'), result.stdout
