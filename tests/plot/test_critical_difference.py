"""CriticalDifferenceDisplay: its numbers are the comparison's, its groups are found by
hand, and both plots render (Agg backend); numbers read back from matplotlib's artists."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_equal

from sklearn_ndcg import CriticalDifferenceDisplay, compare_benchmark
from sklearn_ndcg._plot._critical_difference import cliques


@pytest.fixture
def pyplot():
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    yield plt
    plt.close("all")


def _scores():
    rng = np.random.default_rng(0)
    scores = {}
    for d in range(10):
        base = rng.uniform(0.2, 0.8, 60)
        scores[f"d{d}"] = {
            f"m{j}": np.clip(base + shift + rng.normal(0, 0.1, 60), 0, 1)
            for j, shift in enumerate([0.0, -0.01, -0.05, -0.1])
        }
    return scores


def test_cliques_by_hand():
    # p-values of 4 models in rank order: 0-1 and 1-2 not told apart, 0-2 told apart,
    # 3 apart from all: the groups are (0, 1) and (1, 2)
    p = np.ones((4, 4))
    p[0, 2] = p[2, 0] = 0.01
    p[3, :3] = p[:3, 3] = 0.001
    assert cliques(p, 0.05) == [(0, 1), (1, 2)]
    assert cliques(np.ones((3, 3)), 0.05) == [(0, 2)]
    assert cliques(np.eye(3) + 0.0, 0.05) == []


def test_numbers_are_the_comparisons(pyplot):
    comparison = compare_benchmark(_scores(), n_resamples=199, random_state=0)
    display = CriticalDifferenceDisplay.from_comparison(comparison)
    table = comparison.to_dict()
    assert display.names_.tolist() == table["name"]
    assert_equal(display.average_ranks_, table["rank"])
    assert_equal(display.means_, table["mean"])
    assert_equal(display.rank_intervals_, np.column_stack([table["rank_low"], table["rank_high"]]))
    assert display.critical_difference_ == comparison.critical_difference
    assert_allclose(display.alpha_, 0.05)
    # the drawn CD bar spans [1, 1 + CD]; each model's label names its average rank
    texts = [t.get_text() for t in display.ax_.texts]
    assert f"CD = {comparison.critical_difference:.2f}" in texts
    for name, rank in zip(table["name"], table["rank"]):
        assert f"{name} ({rank:.2f})" in texts
    # every group: no pair below alpha; a group's lines end at its extreme ranks
    ranks = dict(zip(table["name"], table["rank"]))
    index = {name: i for i, name in enumerate(table["name"])}
    for group in display.cliques_:
        rows = [index[n] for n in group]
        assert (comparison.pairwise_pvalues[np.ix_(rows, rows)] >= 0.05).all()
    thick = [c for c in display.ax_.collections if c.get_linewidth()[0] == 4]
    spans = sorted(tuple(np.round(seg[:, 0], 12)) for c in thick for seg in c.get_segments())
    expected = sorted(
        (min(ranks[n] for n in g), max(ranks[n] for n in g)) for g in display.cliques_
    )
    assert_allclose(spans, expected)


def test_from_scores_and_plot_ranks(pyplot):
    display = CriticalDifferenceDisplay.from_scores(
        _scores(), n_resamples=199, random_state=0, posthoc="holm"
    )
    display.plot_ranks()
    segments = display.rank_bars_.get_segments()
    low, high = display.rank_intervals_.T
    assert_allclose([s[0, 0] for s in segments], low - 0.3)
    assert_allclose([s[1, 0] for s in segments], high + 0.3)
    labels = [t.get_text() for t in display.ax_.get_yticklabels()]
    assert labels == display.names_.tolist()


def test_bad_input(pyplot):
    with pytest.raises(ValueError, match="average_ranks has shape"):
        CriticalDifferenceDisplay(["a", "b"], [1.0], 1.0, np.ones((2, 2)))
    display = CriticalDifferenceDisplay(["a", "b"], [1.0, 2.0], 1.0, np.ones((2, 2)))
    assert display.cliques_ == [["a", "b"]]
    display.plot()
    with pytest.raises(ValueError, match="no rank intervals"):
        display.plot_ranks()
