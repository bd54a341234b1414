"""The order of the gallery: the tutorial first, then the examples by file name.

``docs/conf.py`` names :class:`TutorialFirst` in ``sphinx_gallery_conf`` by its import
path (``"gallery_order.TutorialFirst"``), so that the configuration stays picklable.
"""

from pathlib import Path

from sphinx_gallery.sorting import FileNameSortKey

FIRST = ("plot_defended_choice.py",)
"""Examples shown before all others, in this order: the path a new user walks."""


class TutorialFirst(FileNameSortKey):
    """Sort key of sphinx-gallery: the examples of ``FIRST`` first, then by file name."""

    def __call__(self, filename) -> tuple[int, str]:
        name = Path(filename).name
        return (FIRST.index(name) if name in FIRST else len(FIRST), str(filename))
