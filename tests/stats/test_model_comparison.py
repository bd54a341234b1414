"""ModelComparison: its table, its frame and its renamed attributes."""

import sys

import pytest
from _stats_data import models as _models

from sklearn_ndcg._stats._compare import compare_models
from sklearn_ndcg._stats._model_comparison import ModelComparison


def test_compare_models_table():
    comparison = compare_models(_models(), n_resamples=999, random_state=0)
    text = str(comparison)
    assert text == repr(comparison)
    lines = text.splitlines()
    assert lines[0].startswith("Models compared with 'best' (randomization test")
    assert lines[1].split() == list(comparison.to_dict())
    assert len(lines) == 2 + 4
    # columns aligned: every value ends where its header ends
    header_end = lines[1].index("difference") + len("difference")
    assert all(line[header_end - 1] != " " for line in lines[2:])
    print("\n" + text)


def test_compare_models_to_frame():
    pd = pytest.importorskip("pandas")
    comparison = compare_models(_models(), n_resamples=999, random_state=0)
    frame = comparison.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert frame.shape == (4, 10)  # + verdict
    assert frame["name"].tolist() == comparison.to_dict()["name"]


def test_to_frame_without_pandas(monkeypatch):
    comparison = compare_models(_models(), n_resamples=299, random_state=0)
    monkeypatch.setitem(sys.modules, "pandas", None)
    with pytest.raises(ImportError, match="needs pandas"):
        comparison.to_frame()


def test_alpha_is_the_deprecated_spelling_of_confidence_level():
    comparison = compare_models(_models(), confidence_level=0.9, n_resamples=299, random_state=0)
    assert comparison.confidence_level == 0.9
    with pytest.warns(FutureWarning, match=r"confidence_level.*removed in 0\.4"):
        assert comparison.alpha == 1 - 0.9  # as compare_models computes it
    fields = (comparison.columns, comparison.reference, comparison.method, comparison.correction)
    new = ModelComparison(*fields, confidence_level=0.75)
    with pytest.warns(FutureWarning, match=r"confidence_level.*removed in 0\.4"):
        old = ModelComparison(*fields, alpha=0.25)
    assert old.confidence_level == new.confidence_level == 0.75
    assert str(old) == str(new)
    with pytest.raises(ValueError, match="not both"):
        ModelComparison(*fields, confidence_level=0.75, alpha=0.25)
