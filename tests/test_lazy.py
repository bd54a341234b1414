"""``lazy_names``: the module ``__getattr__`` of the package's entrance and the metrics'
door (PEP 562)."""

import sys

import pytest

from sklearn_ndcg._lazy import lazy_names


def test_a_name_loads_its_module_on_first_lookup_and_is_kept():
    namespace = {"__name__": "sklearn_ndcg"}
    getattr_, dir_ = lazy_names(namespace, {"read_trec_run": "_ir._files"}, ["read_trec_run"])
    value = getattr_("read_trec_run")
    assert value is sys.modules["sklearn_ndcg._ir._files"].read_trec_run
    assert namespace["read_trec_run"] is value  # later lookups find it in the globals
    assert "read_trec_run" in dir_() and "__name__" in dir_()


def test_an_unknown_name_raises_attribute_error_naming_it():
    getattr_, _ = lazy_names({"__name__": "sklearn_ndcg"}, {}, [])
    with pytest.raises(AttributeError, match="module 'sklearn_ndcg' has no attribute 'nope'"):
        getattr_("nope")


def test_the_entrance_and_the_door_use_it():
    import sklearn_ndcg
    import sklearn_ndcg._metrics as metrics

    assert sklearn_ndcg.__getattr__.__module__ == "sklearn_ndcg._lazy"
    assert metrics.__getattr__.__module__ == "sklearn_ndcg._lazy"
    assert metrics.QueryScores is sklearn_ndcg.QueryScores
    # every name of the entrance and of the door resolves (a wrong module in _SOURCES
    # raises here)
    for module in (sklearn_ndcg, metrics):
        for name in module.__all__:
            assert getattr(module, name) is not None, name
