"""Reset scikit-learn's global configuration between gallery examples.

sphinx-gallery runs every example in the same process, so an example that
calls ``sklearn.set_config(enable_metadata_routing=True)`` would otherwise
change the next one. ``docs/conf.py`` names :func:`reset_sklearn` in
``sphinx_gallery_conf["reset_modules"]`` (by its import path, so that the
Sphinx configuration stays picklable).
"""

import inspect

import sklearn

# Imported by conf.py before any example runs: these are the defaults (and any
# SKLEARN_* environment variables), restricted to what set_config accepts.
_DEFAULTS = {
    name: value
    for name, value in sklearn.get_config().items()
    if name in inspect.signature(sklearn.set_config).parameters
}


def reset_sklearn(gallery_conf, fname):
    """Restore scikit-learn's configuration to its defaults."""
    sklearn.set_config(**_DEFAULTS)
