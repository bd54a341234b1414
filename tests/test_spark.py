"""Importing sklearn_ndcg or sklearn_ndcg.spark never imports pyspark."""

import subprocess
import sys


def test_importing_the_module_does_not_import_pyspark():
    code = (
        "import sys, sklearn_ndcg, sklearn_ndcg.spark; "
        "print([m for m in sys.modules if m.split('.')[0] in ('pyspark', 'py4j')])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
