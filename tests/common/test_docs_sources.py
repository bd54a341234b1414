"""The docs' sources render as their authors meant (issue 11's defects, kept fixed).

docutils turns ``name@digits`` in prose into a ``mailto:`` link (it reads an
email address): "NDCG@10" rendered as a link in seven places once. Prose must
write ``NDCG\\@10``. Checked in every .rst page, the docstrings of the package
(numpydoc renders them) and the text cells of the gallery scripts; code
(doctest lines, literal blocks, inline literals) is exempt.
"""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EMAIL_LIKE = re.compile(r"(?<![\\`\w])[A-Za-z][\w.+-]*@\d")


def _prose_lines(text: str):
    """(line number, line) of reStructuredText prose: no code, no inline literals."""
    in_block, block_indent, in_doctest = False, 0, False
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        indent = len(line) - len(line.lstrip())
        if in_block:
            if stripped and indent <= block_indent:
                in_block = False
            else:
                continue
        in_doctest = bool(stripped) and (in_doctest or stripped.startswith(">>>"))
        if in_doctest:  # a doctest and its output, up to the next blank line
            continue
        if stripped.startswith(".. code") or (
            stripped.endswith("::") and not stripped.startswith(".. ")
        ):
            in_block, block_indent = True, indent
            continue
        yield number, re.sub(r"``[^`]*``|`[^`]*`", "", line)


def _sources():
    for page in sorted((ROOT / "docs").glob("*.rst")):
        yield page, page.read_text()
    for script in sorted((ROOT / "docs" / "examples").glob("*.py")):
        cells = [
            line[2:] if line.startswith("# ") else "" for line in script.read_text().splitlines()
        ]
        yield script, ast.get_docstring(ast.parse(script.read_text())) + "\n" + "\n".join(cells)
    for module in sorted((ROOT / "sklearn_ndcg").glob("*.py")):
        tree = ast.parse(module.read_text())
        for node in ast.walk(tree):
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef)):
                doc = ast.get_docstring(node)
                if doc:
                    yield module, doc


@pytest.mark.parametrize("path, text", list(_sources()), ids=lambda v: getattr(v, "name", None))
def test_no_email_like_text_in_prose(path, text):
    bad = [(n, line) for n, line in _prose_lines(text) if EMAIL_LIKE.search(line)]
    assert not bad, f"{path.name}: write NDCG\\@k, not NDCG@k with digits: {bad[:3]}"
