"""NDCGCurveDisplay: the plotted data, several models on one axes, the band, errors."""

import numpy as np
import pytest
import sklearn.metrics
from sklearn.linear_model import LogisticRegression, Ridge

from sklearn_ndcg import NDCGCurveDisplay, ndcg_score, query_scores

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


def _long_format(seed=0):
    rng = np.random.default_rng(seed)
    sizes = rng.integers(2, 9, 15)
    qid = np.repeat(np.arange(15), sizes)
    y = rng.integers(0, 4, qid.shape[0]).astype(np.float64)
    score = rng.integers(0, 4, qid.shape[0]).astype(np.float64)  # with ties
    return y, score, qid


def test_movie_example_curve():
    # seed example 2 (movie recommendations): NDCG@k for k = 1..5, exact values
    # from tests/data/seed-examples.md
    display = NDCGCurveDisplay.from_predictions([[5, 5, 4, 3, 2]], [[3, 1, 5, 2, 4]])
    expected = [
        0.8,
        0.645258877106183365,
        0.764365138035269520,
        0.790962131694152564,
        0.899165948196969109,
    ]
    np.testing.assert_array_equal(display.k_, [1, 2, 3, 4, 5])
    np.testing.assert_allclose(display.line_.get_ydata(), expected, rtol=1e-12)
    np.testing.assert_array_equal(display.line_.get_xdata(), [1, 2, 3, 4, 5])


@pytest.mark.parametrize("ties", ["average", "first", "optimistic"])
def test_line_data_is_ndcg_at_each_k_2d(ties):
    rng = np.random.default_rng(1)
    y = rng.integers(0, 4, (12, 9))
    score = rng.integers(0, 3, (12, 9))
    ks = [1, 2, 4, 9, 12]
    display = NDCGCurveDisplay.from_predictions(y, score, k=ks, ties=ties)
    expected = [ndcg_score(y, score, k=k, ties=ties) for k in ks]
    np.testing.assert_allclose(display.line_.get_ydata(), expected, rtol=1e-12)
    if ties == "average":  # scikit-learn's own values
        expected = [sklearn.metrics.ndcg_score(y, score, k=k) for k in ks]
        np.testing.assert_allclose(display.ndcg_, expected, rtol=1e-12)


def test_line_data_long_format_with_options():
    y, score, qid = _long_format()
    weight = np.random.default_rng(2).uniform(0.5, 2.0, 15)[qid]
    options = dict(gain="exponential", discount="reciprocal", zero_division=1.0)
    display = NDCGCurveDisplay.from_predictions(y, score, qid=qid, sample_weight=weight, **options)
    # default ks: 1 .. longest query (8)
    np.testing.assert_array_equal(display.k_, np.arange(1, 9))
    expected = [
        ndcg_score(y, score, qid=qid, k=k, sample_weight=weight, **options) for k in range(1, 9)
    ]
    np.testing.assert_allclose(display.line_.get_ydata(), expected, rtol=1e-12)


def test_default_ks_stop_at_20():
    y = np.tile(np.arange(30), 2)
    display = NDCGCurveDisplay.from_predictions(y, -y, qid=np.repeat([0, 1], 30))
    np.testing.assert_array_equal(display.k_, np.arange(1, 21))


@pytest.mark.parametrize("ks", [range(1, 21), [1, 2, 3], [5, 10]])
def test_ticks_only_at_whole_cutoffs(ks):
    # matplotlib's default locator put ticks at k = 2.5, 7.5 on 1..20 (issue 27)
    y, score, qid = _long_format()
    display = NDCGCurveDisplay.from_predictions(y, score, qid=qid, k=ks)
    ticks = display.ax_.get_xticks()
    assert ticks.size > 1
    np.testing.assert_array_equal(ticks, np.round(ticks))


def test_zero_division_nan_leaves_queries_out():
    y = [0, 0, 0, 2, 0, 1]
    score = [3, 2, 1, 1, 2, 3]
    qid = [0, 0, 0, 1, 1, 1]
    display = NDCGCurveDisplay.from_predictions(y, score, qid=qid, k=[1, 3], zero_division=np.nan)
    # hand computation, query 1 only: ranked labels 1, 0, 2; ideal 2, 1, 0
    ideal = 2 + 1 / np.log2(3)
    np.testing.assert_allclose(display.ndcg_, [1 / 2, (1 + 2 / 2) / ideal])


def test_several_models_share_axes():
    y, score, qid = _long_format()
    first = NDCGCurveDisplay.from_predictions(y, score, qid=qid, k=[1, 3], name="a")
    second = NDCGCurveDisplay.from_predictions(
        y, y, qid=qid, k=[1, 3], name="oracle", ax=first.ax_, zero_division=np.nan
    )
    assert second.ax_ is first.ax_ and second.figure_ is first.figure_
    lines = first.ax_.get_lines()
    assert [line.get_label() for line in lines] == ["a", "oracle"]
    np.testing.assert_array_equal(lines[1].get_ydata(), [1.0, 1.0])
    legend = [text.get_text() for text in first.ax_.get_legend().get_texts()]
    assert legend == ["a", "oracle"]
    assert first.ax_.get_xlabel() == "cutoff k"
    assert first.ax_.get_ylabel() == "NDCG@k"


def test_plot_on_given_axes_with_name_and_kwargs():
    _, ax = plt.subplots()
    display = NDCGCurveDisplay([1, 2], [0.5, 0.75], name="m")
    assert display.plot(ax=ax, name="renamed", color="red", marker="x") is display
    assert display.ax_ is ax and display.figure_ is ax.figure
    assert display.line_.get_label() == "renamed"
    assert display.line_.get_color() == "red"
    assert display.line_.get_marker() == "x"
    assert display.spread_band_ is None


def test_spread_band_holds_per_query_quartiles():
    y, score, qid = _long_format(3)
    ks = [1, 2, 5]
    display = NDCGCurveDisplay.from_predictions(
        y, score, qid=qid, k=ks, show_spread=True, spread_quantiles=(0.1, 0.9)
    )
    for i, k in enumerate(ks):
        per_query = query_scores(y, score, qid=qid, k=k).score
        # sorted-value arithmetic: linear interpolation between order statistics
        values = np.sort(per_query)
        for row, q in enumerate([0.1, 0.9]):
            position = q * (values.shape[0] - 1)
            below = int(np.floor(position))
            expected = values[below] + (position - below) * (
                values[min(below + 1, values.shape[0] - 1)] - values[below]
            )
            assert display.spread_[row, i] == pytest.approx(expected)
    band = display.spread_band_
    assert band is not None and band in display.ax_.collections
    vertices = band.get_paths()[0].vertices
    # the band's outline runs through the lower and upper edges at every k
    for i, k in enumerate(ks):
        at_k = vertices[np.isclose(vertices[:, 0], k), 1]
        assert np.isclose(at_k, display.spread_[0, i]).any()
        assert np.isclose(at_k, display.spread_[1, i]).any()


def test_from_estimator_regressor_and_classifier():
    rng = np.random.default_rng(4)
    qid = np.repeat(np.arange(20), 6)
    X = rng.normal(size=(120, 3))
    y = (X[:, 0] + rng.normal(scale=0.5, size=120) > 0.5).astype(int)
    ks = [1, 3, 6]
    ridge = Ridge().fit(X, y)
    display = NDCGCurveDisplay.from_estimator(ridge, X, y, qid=qid, k=ks)
    assert display.line_.get_label() == "Ridge"
    expected = [ndcg_score(y, ridge.predict(X), qid=qid, k=k) for k in ks]
    np.testing.assert_allclose(display.line_.get_ydata(), expected, rtol=1e-12)

    clf = LogisticRegression().fit(X, y)
    display = NDCGCurveDisplay.from_estimator(
        clf, X, y, qid=qid, k=ks, ax=display.ax_, name="logistic"
    )
    # binary: the expected label is the probability of class 1
    expected = [ndcg_score(y, clf.predict_proba(X)[:, 1], qid=qid, k=k) for k in ks]
    np.testing.assert_allclose(display.ndcg_, expected, rtol=1e-12)
    assert len(display.ax_.get_lines()) == 2
    display = NDCGCurveDisplay.from_estimator(
        clf, X, y, qid=qid, k=ks, response_method="decision_function"
    )
    expected = [ndcg_score(y, clf.decision_function(X), qid=qid, k=k) for k in ks]
    np.testing.assert_allclose(display.ndcg_, expected, rtol=1e-12)


def test_from_estimator_needs_a_fitted_estimator():
    from sklearn.exceptions import NotFittedError

    with pytest.raises(NotFittedError):
        NDCGCurveDisplay.from_estimator(Ridge(), np.zeros((3, 1)), [1, 0, 0])


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"k": 5}, "k must be a non-empty list.*Write k=\\[5\\] for one cutoff"),  # one check
        ({"k": [0, 1]}, "k must be a non-empty list of distinct integers >= 1"),
        ({"k": [1.5]}, "k must be a non-empty list of distinct integers >= 1"),
        ({"k": [2, 2]}, "k must be a non-empty list of distinct integers >= 1"),
        ({"k": []}, "k must be a non-empty"),
        ({"spread_quantiles": (0.9, 0.1)}, "spread_quantiles must be two numbers"),
        ({"spread_quantiles": 0.5}, "spread_quantiles must be two numbers"),
    ],
)
def test_from_predictions_errors(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        NDCGCurveDisplay.from_predictions([[1, 0, 2]], [[3, 2, 1]], **kwargs)


def test_constructor_and_plot_errors():
    with pytest.raises(ValueError, match="ndcg needs one value per cutoff"):
        NDCGCurveDisplay([1, 2], [0.5])
    with pytest.raises(ValueError, match=r"spread needs a lower and an upper edge"):
        NDCGCurveDisplay([1, 2], [0.5, 0.6], spread=[0.4, 0.7])
    with pytest.raises(ValueError, match="this display has no spread"):
        NDCGCurveDisplay([1, 2], [0.5, 0.6]).plot(show_spread=True)
    with pytest.raises(ValueError, match="response_method must be one of"):
        NDCGCurveDisplay.from_estimator(
            Ridge().fit([[0], [1]], [0, 1]), [[0], [1]], [0, 1], response_method="proba"
        )
    with pytest.raises(ValueError, match="Ridge has no predict_proba"):
        NDCGCurveDisplay.from_estimator(
            Ridge().fit([[0], [1]], [0, 1]),
            [[0], [1]],
            [0, 1],
            response_method="predict_proba",
        )


def test_missing_matplotlib_message(monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name.startswith("matplotlib"):
            raise ImportError("No module named 'matplotlib'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    with pytest.raises(
        ImportError, match=r'pip install "sklearn-ndcg\[plot\]" \(or pip install "\.\[plot\]" from'
    ):
        NDCGCurveDisplay([1], [1.0]).plot()


def test_ks_is_the_deprecated_spelling_of_k():
    pytest.importorskip("matplotlib")
    y, score, qid = (
        [3, 2, 0, 1, 2, 0, 1],
        [0.3, 0.2, 0.9, 0.5, 0.1, 0.4, 0.2],
        [1, 1, 1, 1, 2, 2, 2],
    )
    new = NDCGCurveDisplay.from_predictions(y, score, qid=qid, k=[1, 2, 3])
    with pytest.warns(FutureWarning, match=r"\(k=\.\.\.\).*removed in 0\.4"):
        old = NDCGCurveDisplay.from_predictions(y, score, qid=qid, ks=[1, 2, 3])
    np.testing.assert_array_equal(old.k_, new.k_)
    np.testing.assert_array_equal(old.ndcg_, new.ndcg_)
    np.testing.assert_array_equal(old.spread_, new.spread_)
    np.testing.assert_array_equal(old.tie_range_, new.tie_range_)
    with pytest.warns(FutureWarning, match=r"k_.*removed in 0\.4"):
        np.testing.assert_array_equal(old.ks_, new.k_)
    with pytest.warns(FutureWarning, match=r"\(k=\.\.\.\).*removed in 0\.4"):
        built = NDCGCurveDisplay(ks=[1, 2], ndcg=[0.5, 0.6])
    np.testing.assert_array_equal(built.k_, NDCGCurveDisplay([1, 2], [0.5, 0.6]).k_)
    X = np.arange(7.0)[:, None]
    ridge = Ridge().fit(X, y)
    with pytest.warns(FutureWarning, match=r"\(k=\.\.\.\).*removed in 0\.4"):
        old = NDCGCurveDisplay.from_estimator(ridge, X, y, qid=qid, ks=[1, 2])
    new = NDCGCurveDisplay.from_estimator(ridge, X, y, qid=qid, k=[1, 2])
    np.testing.assert_array_equal(old.ndcg_, new.ndcg_)
    with pytest.raises(ValueError, match="not both"):
        NDCGCurveDisplay.from_predictions(y, score, qid=qid, k=[1], ks=[1])
