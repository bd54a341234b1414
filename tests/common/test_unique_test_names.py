"""Test files have unique names across folders.

pytest imports test modules by their base name (the ``rootdir``-based "prepend" import
mode, with no ``__init__.py`` in the test folders), so two files of the same name in two
folders stop the collection of the second with "import file mismatch".
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]


def test_test_file_names_are_unique():
    names = Counter(path.name for path in TESTS.rglob("test_*.py"))
    assert [name for name, count in names.items() if count > 1] == []
