"""Names loaded on first use (PEP 562): the package's entrance and the metrics' door
import a name's module only when the name is first looked up, so that ``import
sklearn_ndcg`` and the ``trec-eval`` command import no scikit-learn."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable


def lazy_names(
    namespace: dict, sources: dict[str, str], names: Iterable[str]
) -> tuple[Callable[[str], object], Callable[[], list[str]]]:
    """The module's ``__getattr__`` and ``__dir__``: ``sources`` maps each name to the
    module (relative to the package ``namespace["__name__"]``) that defines it; a name
    once loaded is kept in ``namespace`` (the module's globals), where later lookups
    find it."""
    package = namespace["__name__"]

    def __getattr__(name: str) -> object:
        module = sources.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{module}", package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return sorted({*namespace, *names})

    return __getattr__, __dir__
