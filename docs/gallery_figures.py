"""Figures of the gallery drawn to read on a phone as on a laptop.

``docs/conf.py`` names :func:`reset_figures` in ``sphinx_gallery_conf["reset_modules"]``
(after matplotlib's own reset), so that every example starts with these defaults: a
figure 500 px wide (5 in at 100 dpi) with 11 pt text. On a 390 px screen the content
column is about 358 px wide, so the figure shrinks to 0.72 and its smallest text
(``small``, 9.2 pt = 12.7 px) shows at about 9 px; the tick labels at about 11 px.
"""

FIGURES = {"figure.figsize": (5.0, 3.5), "font.size": 11.0}
"""The defaults every gallery example starts from."""


def reset_figures(gallery_conf, fname):
    """Set the gallery's figure defaults (after sphinx-gallery's matplotlib reset)."""
    import matplotlib

    matplotlib.rcParams.update(FIGURES)
