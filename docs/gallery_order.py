"""The order of the gallery: the tutorial first, then the examples by file name.

``docs/conf.py`` names :class:`TutorialFirst` in ``sphinx_gallery_conf`` by its import
path (``"gallery_order.TutorialFirst"``), so that the configuration stays picklable.
It imports nothing of sphinx-gallery, so that pytest can collect this folder without the
``docs`` extra.
"""

from pathlib import Path

FIRST = ("plot_defended_choice.py",)
"""Examples shown before all others, in this order: the path a new user walks."""


class TutorialFirst:
    """Sort key of sphinx-gallery: the examples of ``FIRST`` first, then by file name.

    Parameters
    ----------
    src_dir : str
        The gallery's source folder (sphinx-gallery passes it).
    """

    def __init__(self, src_dir):
        self.src_dir = src_dir

    def __repr__(self) -> str:  # sphinx-gallery keys its cache on the configuration's repr
        return f"<{type(self).__name__}>"

    def __call__(self, filename) -> tuple[int, str]:
        name = Path(filename).name
        return (FIRST.index(name) if name in FIRST else len(FIRST), str(filename))
