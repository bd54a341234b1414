"""Sphinx configuration of the sklearn-ndcg documentation.

Build (from the repository root, with the ``docs`` extra installed)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

Links to the scikit-learn, NumPy, SciPy and matplotlib documentation
(intersphinx) need their inventories from the network, so they are off by
default and the build works offline; set ``SKLEARN_NDCG_DOCS_INTERSPHINX=1``
to turn them on.
"""

import importlib.util
import os
import re
import shutil
import subprocess
import sys

from docutils import nodes
from docutils.transforms import Transform

import sklearn_ndcg

# docs/ itself, for gallery_reset, gallery_figures and gallery_order (named by import
# path in sphinx_gallery_conf)
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

project = "sklearn-ndcg"
author = "sklearn-ndcg developers"
copyright = "sklearn-ndcg developers, BSD-3-Clause"
release = sklearn_ndcg.__version__
version = release

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.doctest",
    "sphinx.ext.intersphinx",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
root_doc = "index"

# -- API reference ---------------------------------------------------------------
autosummary_generate = True
autodoc_default_options = {"members": False, "inherited-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks = set()
# The numpydoc "Parameters" sections give the types; annotations such as
# numpy.typing.ArrayLike would expand to a union of a dozen private types.
autodoc_typehints = "none"
# "On this page" of a class lists its methods as fit(), score(), ... (not
# RankingEvaluator.fit()), so that they fit the right-hand column
toc_object_entries_show_parents = "hide"

# -- cross-references: every reference to the package's own objects must resolve -----
# (-W turns a broken one into an error). The build is offline and ships no other
# project's inventory, so references to Python, NumPy, SciPy, scikit-learn,
# matplotlib, pandas and the learner libraries render as code without a link;
# they, and only they, are excused here.
nitpicky = True
nitpick_ignore_regex = [
    (
        r"py:.*",
        r"(builtins|numpy|scipy|sklearn|matplotlib|pandas|dask|pyspark|lightgbm|xgboost"
        r"|catboost|statsmodels|distributed|optuna|joblib)(\..*)?",
    ),
]

# -- doctest builder (python -m sphinx -b doctest docs docs/_build/doctest) -------
doctest_global_setup = "import matplotlib\nmatplotlib.use('Agg')"

# -- intersphinx: optional, the build must not need the network -------------------
if os.environ.get("SKLEARN_NDCG_DOCS_INTERSPHINX") == "1":
    intersphinx_mapping = {
        "python": ("https://docs.python.org/3", None),
        "numpy": ("https://numpy.org/doc/stable", None),
        "scipy": ("https://docs.scipy.org/doc/scipy", None),
        "sklearn": ("https://scikit-learn.org/stable", None),
        "matplotlib": ("https://matplotlib.org/stable", None),
    }
else:
    intersphinx_mapping = {}


# -- sphinx-gallery ----------------------------------------------------------------
def spark_example_skipped(environ=os.environ) -> str | None:
    """Why the Spark example cannot run here, or None when it can.

    It needs pyspark (the ``spark`` and ``docs`` extras) and a Java runtime, found as
    pyspark's launcher (``bin/spark-class``) finds it: ``$JAVA_HOME/bin/java`` when
    ``JAVA_HOME`` is set, ``java`` on the ``PATH`` otherwise; the runtime must answer
    ``java -version``. ``SKLEARN_NDCG_DOCS_SPARK=0`` skips it on purpose (a faster build).
    """
    if environ.get("SKLEARN_NDCG_DOCS_SPARK") == "0":
        return "SKLEARN_NDCG_DOCS_SPARK=0 was set"
    if importlib.util.find_spec("pyspark") is None:
        return 'pyspark is not installed (pip install ".[spark]")'
    home = environ.get("JAVA_HOME")
    java = (
        os.path.join(home, "bin", "java")
        if home
        else shutil.which("java", path=environ.get("PATH"))
    )
    if not java or not os.access(java, os.X_OK):
        where = f"JAVA_HOME={home}" if home else "the PATH"
        return f"no Java runtime was found ({where} has no java)"
    try:
        answered = subprocess.run([java, "-version"], capture_output=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        answered = None
    if answered is None or answered.returncode != 0:
        return f"the Java runtime {java} did not start"
    return None


SPARK_SKIPPED = spark_example_skipped()
SPARK_EXAMPLE = "auto_examples/plot_spark"


def note_skipped_example(source: str, reason: str) -> str:
    """``source`` (a gallery page) with a note under its title saying why it did not run."""
    note = (
        "\n.. note::\n\n"
        f"   This example did not run in this build of the documentation: {reason}. Its\n"
        "   code is shown without its output. It needs the ``spark`` extra and a Java\n"
        "   runtime (17 or 21, through ``JAVA_HOME`` or ``java`` on the ``PATH``).\n"
    )
    title = re.search(r"^[^\n]+\n=+\n", source, flags=re.MULTILINE)
    return source[: title.end()] + note + source[title.end() :]


def _note_skipped(app, docname, source):
    if docname == SPARK_EXAMPLE and SPARK_SKIPPED is not None:
        source[0] = note_skipped_example(source[0], SPARK_SKIPPED)


class NoEmailLinks(Transform):
    """Turn the ``mailto:`` links docutils makes of ``name@xx`` back into text.

    The pages hold no e-mail address, but docutils reads one in ``M@judged``,
    ``M@lower`` or ``NDCG@10`` (two characters or more after the ``@``). Text copied from
    the command's ``--help`` cannot escape them (a test keeps the two identical), so
    every such link becomes its text again; ``tests/common/test_docs_conf.py`` checks it.
    """

    default_priority = 200  # after docutils' own reference transforms, before Sphinx's

    def apply(self):
        for link in list(self.document.findall(nodes.reference)):
            if link.get("refuri", "").startswith("mailto:"):
                link.replace_self(nodes.Text(link.astext()))


def setup(app):
    app.connect("source-read", _note_skipped)
    app.add_transform(NoEmailLinks)


sphinx_gallery_conf = {
    "examples_dirs": "examples",
    "gallery_dirs": "auto_examples",
    # every example runs, but the Spark one where it cannot (no pyspark or no Java): its
    # page then shows its code without output, and a note (see _note_skipped)
    "filename_pattern": r"/plot_" if SPARK_SKIPPED is None else r"/plot_(?!spark)",
    # the tutorial first (docs/gallery_order.py), then by file name
    "within_subsection_order": "gallery_order.TutorialFirst",
    "download_all_examples": False,
    "show_memory": False,
    "image_scrapers": ("matplotlib",),
    # each example starts from scikit-learn's default configuration (metadata
    # routing off) and matplotlib's defaults, and leaves them so
    "reset_modules": (
        "matplotlib",
        "gallery_figures.reset_figures",  # figures legible on a phone too
        "gallery_reset.reset_sklearn",
    ),
    "reset_modules_order": "both",
    # the computation-times page loads DataTables from a CDN; the docs must
    # read offline
    "write_computation_times": False,
}

# -- math ------------------------------------------------------------------------
# No page uses math markup: formulas are written as text so that they read the
# same offline (MathJax would come from a CDN). Keep it that way.

# -- HTML --------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"sklearn-ndcg {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # every page of the index's toctree in the navbar (short titles there), none
    # behind the "More" menu: "API reference" and "Examples" are one click away
    "header_links_before_dropdown": 16,
    # the links next to the title and the search as an icon (Ctrl+K), so that they
    # fit on one line at 1280 px, with two more pages too
    "navbar_align": "left",
    "navbar_persistent": ["search-button"],
    # "On this page" only where a page has sections (the index and some examples
    # have none: the column would hold "Show Source" alone); the source link goes
    # below the article
    "secondary_sidebar_items": ["page-toc"],
    "article_footer_items": ["sourcelink"],
}
# No primary sidebar ("Section Navigation") on any page. On the top-level pages
# it would be an empty column (they have no children in the toctree) taking a
# quarter of the page from the code; on the gallery's and the API's pages it
# would list their siblings, which the navbar's "Examples" and "API reference"
# pages list too, at the cost of cutting the doctests of the API pages at 71
# characters (1280 px). tests/common/test_docs_html.py and docs/check_layout.py
# check that no page shows an empty sidebar and that code fits the column.
html_sidebars = {"**": []}
html_static_path = ["_static"]
# figures shrink to the column; the gallery draws them 500 px wide (gallery_figures.py),
# so that on a 390 px phone their text stays 9 px or more
html_css_files = ["sklearn_ndcg.css"]
