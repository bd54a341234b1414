"""Figures of the gallery drawn to read on a phone as on a laptop.

``docs/conf.py`` names :func:`reset_figures` in ``sphinx_gallery_conf["reset_modules"]``
(after matplotlib's own reset), so that every example starts with these defaults: a
figure 500 px wide (5 in at 100 dpi) with 11 pt text. On a 390 px screen the content
column is 358 px wide and the figure shrinks to it (``max-width: 100%``), to 0.72, so
that its smallest text (``small``, 9.2 pt = 12.7 px) shows at about 9 px and the tick
labels at about 11 px. An example draws no figure wider than 5 in: several panels go
one above the other (``tests/common/test_docs_html.py`` checks it).
"""

FIGURES = {"figure.figsize": (5.0, 3.5), "font.size": 11.0}
"""The defaults every gallery example starts from."""


def reset_figures(gallery_conf, fname):
    """Set the gallery's figure defaults (after sphinx-gallery's matplotlib reset)."""
    import matplotlib

    matplotlib.rcParams.update(FIGURES)
