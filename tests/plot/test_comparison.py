"""ModelComparisonDisplay: the drawn means, intervals and tied models, and its errors.

Expected values are the numbers handed to the display (or the table of the
comparison it draws), read back from matplotlib's artists.
"""

import numpy as np
import pytest

from sklearn_ndcg import ModelComparisonDisplay, compare_models


@pytest.fixture
def pyplot():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def test_comparison_display_marks_the_tied_models():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    rng = np.random.default_rng(0)
    base = rng.uniform(0.4, 1.0, 300)
    scores = {"a": base, "b": base - 0.001 + rng.normal(0, 0.02, 300), "c": base - 0.2}
    comparison = compare_models(scores, random_state=0)
    display = ModelComparisonDisplay.from_comparison(comparison)
    table = comparison.to_dict()
    assert display.names_.tolist() == table["name"]
    np.testing.assert_array_equal(display.means_, table["mean"])
    assert display.not_shown_different_.tolist() == [
        name in comparison.not_shown_different for name in table["name"]
    ]
    assert len(display.errorbars_) == 3  # the reference, not shown different, worse
    assert [t.get_text() for t in display.ax_.get_yticklabels()] == table["name"]
    with pytest.raises(ValueError, match="same models"):
        ModelComparisonDisplay(["a"], [0.5, 0.6], [[0, 1]], [True])


def test_plot_draws_each_model_at_its_mean_and_interval(pyplot):
    # three models, the middle one significantly different: drawn top to bottom at
    # y = 0, -1, -2, those not shown different filled and the other hollow (white face)
    display = ModelComparisonDisplay(
        ["a", "b", "c"],
        [0.8, 0.7, 0.75],
        [[0.7, 0.9], [0.65, 0.72], [0.6, 0.8]],
        [True, False, True],
        reference="a",
    )
    _, ax = pyplot.subplots()
    assert display.plot(ax=ax) is display
    assert display.ax_ is ax and display.figure_ is ax.figure
    reference, same, other = display.errorbars_  # one group per verdict, reference first
    x, y = reference.lines[0].get_data()
    np.testing.assert_array_equal(x, [0.8])
    np.testing.assert_array_equal(y, [0])
    x, y = same.lines[0].get_data()
    np.testing.assert_array_equal(x, [0.75])
    np.testing.assert_array_equal(y, [-2])
    x, y = other.lines[0].get_data()
    np.testing.assert_array_equal(x, [0.7])
    np.testing.assert_array_equal(y, [-1])
    assert other.lines[0].get_markerfacecolor() == "white"
    assert reference.get_label() == "reference ('a')"
    assert same.get_label() == "not shown different from 'a'"
    assert other.get_label() == "shown different from 'a'"
    # the bar of "c" runs from 0.6 to 0.8: its segment's x ends
    (bars,) = same.lines[2]
    np.testing.assert_allclose(bars.get_segments()[0][:, 0], [0.6, 0.8])


def test_all_tied_draws_one_group(pyplot):
    display = ModelComparisonDisplay(["a", "b"], [0.5, 0.4], [[0.4, 0.6], [0.3, 0.5]], [1, 1])
    display.plot()
    assert len(display.errorbars_) == 1
    assert display.errorbars_[0].get_label() == "not shown different from reference"


@pytest.mark.parametrize(
    "means, intervals, tied",
    [
        ([0.5], [[0, 1], [0, 1]], [True, True]),  # two names, one mean
        ([0.5, 0.6], [0, 1], [True, True]),  # intervals not (n, 2)
        ([0.5, 0.6], [[0, 1], [0, 1]], [True]),  # one tied flag
    ],
)
def test_refuses_parts_of_different_lengths(means, intervals, tied):
    with pytest.raises(ValueError, match="must describe the same models"):
        ModelComparisonDisplay(["a", "b"], means, intervals, tied)
