"""``python -m sklearn_ndcg``: the command line of :mod:`sklearn_ndcg._cli`."""

import sys

from ._cli._main import main

__all__ = ["main"]

if __name__ == "__main__":
    sys.exit(main())
