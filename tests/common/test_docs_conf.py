"""The docs build where the README says it builds (issue 37): the Spark gallery example
runs only where pyspark and a Java runtime are found as pyspark finds them, and is
otherwise shown without output under a note, never failing the build."""

import importlib.util
import os
import re
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def conf():
    pytest.importorskip("sphinx_gallery")
    spec = importlib.util.spec_from_file_location("docs_conf", ROOT / "docs" / "conf.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_no_java_home_runtime_skips(conf, tmp_path):
    # pyspark's bin/spark-class runs $JAVA_HOME/bin/java when JAVA_HOME is set, even when
    # java is on the PATH: a JAVA_HOME without java cannot run Spark
    environ = {"JAVA_HOME": str(tmp_path), "PATH": os.environ.get("PATH", "")}
    reason = conf.spark_example_skipped(environ)
    if importlib.util.find_spec("pyspark") is None:
        assert "pyspark is not installed" in reason
    else:
        assert reason == f"no Java runtime was found (JAVA_HOME={tmp_path} has no java)"


def test_no_java_on_the_path_skips(conf, tmp_path):
    if importlib.util.find_spec("pyspark") is None:
        pytest.skip("without pyspark the reason is pyspark")
    reason = conf.spark_example_skipped({"PATH": str(tmp_path)})
    assert reason == "no Java runtime was found (the PATH has no java)"


def test_a_java_that_does_not_start_skips(conf, tmp_path):
    if importlib.util.find_spec("pyspark") is None:
        pytest.skip("without pyspark the reason is pyspark")
    fake = tmp_path / "bin" / "java"
    fake.parent.mkdir()
    fake.write_text("#!/bin/sh\nexit 1\n")
    fake.chmod(0o755)
    reason = conf.spark_example_skipped({"JAVA_HOME": str(tmp_path)})
    assert reason == f"the Java runtime {fake} did not start"


def test_skipped_on_purpose(conf):
    assert conf.spark_example_skipped({"SKLEARN_NDCG_DOCS_SPARK": "0"}) is not None


def test_runs_where_java_and_pyspark_are(conf):
    if importlib.util.find_spec("pyspark") is None or not (
        os.environ.get("JAVA_HOME") or shutil.which("java")
    ):
        pytest.skip("needs pyspark and Java")
    assert conf.spark_example_skipped(dict(os.environ)) is None


def test_skipped_example_is_not_run_and_says_why(conf):
    pattern = conf.sphinx_gallery_conf["filename_pattern"]
    examples = ROOT / "docs" / "examples"
    assert re.search(pattern, str(examples / "plot_defended_choice.py"))
    runs = re.search(pattern, str(examples / "plot_spark.py")) is not None
    assert runs == (conf.SPARK_SKIPPED is None)
    assert re.search(r"/plot_(?!spark)", str(examples / "plot_spark.py")) is None
    page = ".. _sphx_glr_x:\n\nNDCG of Spark\n=============\n\nText.\n"
    noted = conf.note_skipped_example(page, "no Java runtime was found (the PATH has no java)")
    assert noted.startswith(".. _sphx_glr_x:\n\nNDCG of Spark\n=============\n\n.. note::")
    assert "did not run in this build of the documentation: no Java runtime" in noted
    assert noted.endswith("\nText.\n")


@pytest.mark.parametrize("text", ["M@judged, M@lower and M@upper", "mean NDCG@10 of them"])
def test_no_email_links(conf, text):
    """docutils links name@xx as an e-mail address; the build's transform unlinks it."""
    from docutils import nodes
    from docutils.core import publish_doctree

    doctree = publish_doctree(text)
    links = [r for r in doctree.findall(nodes.reference) if "mailto:" in r.get("refuri", "")]
    assert links  # what docutils does alone
    conf.NoEmailLinks(doctree).apply()
    assert not [r for r in doctree.findall(nodes.reference)]
    assert doctree.astext() == text


def test_docs_extra_runs_the_spark_example():
    """Issue 50: with Java on the machine the gallery runs plot_spark.py, which needs the
    spark extra's packages (pyarrow for mapInArrow); the docs extra lacked pyarrow."""
    tomllib = pytest.importorskip("tomllib")
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "optional-dependencies"
    ]

    def names(extra):
        return {re.split(r"[<>=\[ ;]", requirement)[0] for requirement in extras[extra]}

    assert (ROOT / "docs" / "examples" / "plot_spark.py").is_file()
    assert names("spark") <= names("docs"), names("spark") - names("docs")
