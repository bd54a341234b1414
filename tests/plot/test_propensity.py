"""PositionBiasDisplay (_plot/_propensity.py): the plotted data, the band, two estimates."""

import numpy as np
import pytest

from sklearn_ndcg import PositionBias, PositionBiasDisplay, estimate_position_bias

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _result(propensity, interval):
    return PositionBias(np.array(propensity), np.array(interval), "em", 10, 0.95, 50)


def test_line_and_band_are_the_estimate():
    result = _result([1.0, 0.6, 0.4], [[1.0, 0.5, 0.3], [1.0, 0.7, 0.55]])
    display = PositionBiasDisplay.from_position_bias(result)
    np.testing.assert_array_equal(display.line_.get_xdata(), [1, 2, 3])
    np.testing.assert_array_equal(display.line_.get_ydata(), [1.0, 0.6, 0.4])
    assert display.line_.get_label() == "em"
    # the band's polygon runs along the lower edge and back along the upper edge
    vertices = display.interval_band_.get_paths()[0].vertices
    assert vertices[:, 1].min() == pytest.approx(0.3)
    assert vertices[:, 1].max() == pytest.approx(1.0)
    assert {0.5, 0.7, 0.55} <= set(np.round(vertices[:, 1], 6))
    assert display.ax_.get_xlabel() == "rank"
    assert display.figure_ is display.ax_.figure


def test_without_interval_no_band():
    result = _result([1.0, 0.5], [[np.nan, np.nan], [np.nan, np.nan]])
    display = PositionBiasDisplay.from_position_bias(result, name="swap")
    assert display.interval_band_ is None and display.confidence_interval_ is None
    assert display.line_.get_label() == "swap"
    hidden = PositionBiasDisplay.from_position_bias(
        _result([1.0, 0.5], [[1.0, 0.4], [1.0, 0.6]]), show_interval=False
    )
    assert hidden.interval_band_ is None


def test_two_estimates_on_one_axes():
    qid = np.zeros(8, dtype=int)
    doc = [0, 1, 0, 1, 0, 1, 0, 1]
    rank = [1, 2, 2, 1, 1, 2, 2, 1]
    click = [1, 0, 1, 1, 1, 1, 0, 1]
    logger = ["A", "A", "B", "B", "A", "A", "B", "B"]
    with pytest.warns(UserWarning, match="impressions per pair"):  # a tiny log for EM
        em = estimate_position_bias(qid, doc, rank, click, method="em", n_bootstrap=0)
    harvest = estimate_position_bias(
        qid, doc, rank, click, logger=logger, method="harvesting", n_bootstrap=0
    )
    first = PositionBiasDisplay.from_position_bias(em)
    PositionBiasDisplay.from_position_bias(harvest, ax=first.ax_, linestyle="--")
    lines = first.ax_.get_lines()
    assert [line.get_label() for line in lines] == ["em", "harvesting"]
    assert lines[1].get_linestyle() == "--"
    assert [t.get_text() for t in first.ax_.get_legend().get_texts()] == ["em", "harvesting"]
