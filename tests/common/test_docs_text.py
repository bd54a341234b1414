"""Text of the README and the docs that cannot go stale (issue 37): each count or list
below is checked against its source, so that a test fails when the code changes and the
text does not.

- the README's list of extras, and the packages of each, against ``pyproject.toml``;
- the README's full-suite install line names every extra the suite uses;
- the README prints no number of skipped tests (it depends on the machine);
- the number of candidates the demo tunes, on the statistics page, against its grid;
- the usage line of the ``trec-eval`` page against the command's parser;
- ``ltr`` is described with CatBoost wherever the README and the index describe it;
- no page cites the project's issue tracker by number.
"""

import argparse
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text()
NUMBERS = {4: "four", 8: "eight", 10: "ten", 12: "twelve"}


def _extras() -> dict[str, list[str]]:
    """``{extra: [package, ...]}`` of pyproject.toml, names without versions."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        tomllib = pytest.importorskip("tomli")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    return {
        extra: [re.split(r"[<>=!~;\s]", requirement, maxsplit=1)[0] for requirement in reqs]
        for extra, reqs in project["optional-dependencies"].items()
    }


def test_readme_lists_every_extra_with_its_packages():
    block = README[README.index("Optional extras") :].split("\n\n")[1]
    listed = dict(re.findall(r"^- `(\w+)`: ([^(\n]+?)\s*(?:\(.*)?$", block, flags=re.M))
    listed = {extra: [p.strip() for p in packages.split(",")] for extra, packages in listed.items()}
    assert listed == _extras()


def test_readme_full_suite_line_installs_every_extra_the_suite_uses():
    (line,) = re.findall(r'^pip install "\.\[test,([\w,]+)\]"$', README, flags=re.M)
    assert set(line.split(",")) | {"test"} == set(_extras()) - {"docs", "lint"}


def test_readme_prints_no_skip_count():
    assert not re.search(r"\d+\s+tests?[^.]*skip|skips?[^.]*\d+\s+tests", README)
    assert "-ra" in README  # where to see the skips instead


def test_statistics_page_says_how_many_candidates_the_demo_tunes():
    from sklearn.model_selection import ParameterGrid

    from sklearn_ndcg._cli._demo import _candidates

    without = len(ParameterGrid(_candidates(0, use_ltr=False)))
    for module in ("lightgbm", "xgboost", "catboost"):
        pytest.importorskip(module)
    with_ltr = len(ParameterGrid(_candidates(0, use_ltr=True)))
    page = (ROOT / "docs" / "statistics.rst").read_text()
    assert f"tunes {NUMBERS[with_ltr]} candidates ({NUMBERS[without]} without ``ltr``)" in page


def test_trec_eval_page_usage_is_the_parsers():
    from sklearn_ndcg._cli._main import _parser

    (commands,) = [a for a in _parser()._actions if isinstance(a, argparse._SubParsersAction)]
    usage = " ".join(commands.choices["trec-eval"].format_usage().split())
    usage = usage.removeprefix("usage: ").replace("[-h] ", "")
    page = (ROOT / "docs" / "trec_eval.rst").read_text()
    assert f"$ {usage}\n" in page, usage
    assert "[-B]" in usage


@pytest.mark.parametrize("path", ["README.md", "docs/index.rst"])
def test_ltr_is_described_with_catboost(path):
    paragraphs = (ROOT / path).read_text().split("\n\n")
    described = [p for p in paragraphs if "`ltr`" in p and "lightgbm" in p.lower()]
    assert described, path
    for paragraph in described:
        assert "catboost" in paragraph.lower(), paragraph


def test_no_issue_numbers_in_the_docs():
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.rst"))]
    pages += sorted((ROOT / "docs" / "examples").glob("*.py"))
    cited = [
        f"{page.name}: {line.strip()}"
        for page in pages
        for line in page.read_text().splitlines()
        if re.search(r"\bissues? #?\d+", line, flags=re.I)
    ]
    assert not cited, cited


def test_install_lines_work_from_a_checkout():
    """Every ``pip install "sklearn-ndcg[...]"`` of the pages (the package is not
    published) comes with the line that works from a checkout, ``pip install ".[...]"``,
    first, and says it is for once the package is published."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.rst"))]
    for page in pages:
        for paragraph in re.split(r"\n\s*\n", page.read_text()):
            for extras in re.findall(r'pip install "sklearn-ndcg\[([\w,]+)\]"', paragraph):
                text = " ".join(paragraph.split())
                checkout = text.find(f'pip install ".[{extras}]"')
                assert 0 <= checkout < text.find(f'pip install "sklearn-ndcg[{extras}]"'), (
                    page.name,
                    text[:200],
                )
                assert "published" in text, (page.name, text[:200])
