"""make_ranking: synthetic learning-to-rank data."""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from sklearn.utils import check_random_state

from ._validate_params import Integers, Interval, validate_params


def _check_n_items(n_items) -> tuple[int, int]:
    """Return ``(low, high)`` query sizes from an int or a pair of ints."""
    if isinstance(n_items, Integral):
        return int(n_items), int(n_items)
    if (
        len(n_items) != 2
        or not all(isinstance(n, Integral) and not isinstance(n, bool) for n in n_items)
        or not 1 <= n_items[0] <= n_items[1]
    ):
        raise ValueError(
            "n_items must be an int >= 1 or a pair (low, high) of ints with "
            f"1 <= low <= high; got {n_items!r}."
        )
    return int(n_items[0]), int(n_items[1])


def _level_thresholds(utility: np.ndarray, n_levels: int) -> np.ndarray:
    """Quantiles of the utility that give level ``l`` a share proportional to ``2**-l``.

    Most documents are irrelevant and few are perfect, as in real relevance
    judgements.
    """
    share = 0.5 ** np.arange(n_levels)
    return np.quantile(utility, np.cumsum(share / share.sum())[:-1])


@validate_params(
    {
        "n_queries": [Integers(1)],
        "n_items": [Integers(1), tuple, list],
        "n_features": [Integers(1)],
        "n_informative": [Integers(1)],
        "n_levels": [Integers(2)],
        "noise": [Interval(Real, 0, None, closed="left")],
        "random_state": ["random_state"],
    },
    prefer_skip_nested_validation=True,
)
def make_ranking(
    n_queries: int = 100,
    n_items: int | tuple[int, int] = (5, 50),
    n_features: int = 20,
    n_informative: int = 10,
    n_levels: int = 5,
    noise: float = 0.5,
    random_state=None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Generate a synthetic learning-to-rank problem.

    Each query gets a random number of documents. Every document has standard
    normal features; its latent utility is a linear combination of the first
    ``n_informative`` features plus products of neighbouring informative
    features (so that tree models have interactions to find), scaled to unit
    variance, plus Gaussian noise of standard deviation ``noise``. The utility
    is cut at its quantiles into graded relevance labels ``0 .. n_levels - 1``;
    level ``l`` holds a share of the documents proportional to ``2**-l``, so
    most documents are irrelevant and few are perfect. Some queries may have
    no relevant document at all.

    Rows come grouped by query, queries numbered ``0 .. n_queries - 1``.

    Read more in the :ref:`User Guide <datasets>`.

    Parameters
    ----------
    n_queries : int, default=100
        Number of queries.
    n_items : int or tuple of (int, int), default=(5, 50)
        Documents per query: a fixed number, or ``(low, high)`` for sizes drawn
        uniformly from ``low`` to ``high`` inclusive.
    n_features : int, default=20
        Number of features.
    n_informative : int, default=10
        Number of features the utility depends on (the first ones); at most
        ``n_features``.
    n_levels : int, default=5
        Number of relevance grades, at least 2.
    noise : float, default=0.5
        Standard deviation of the noise added to the unit-variance utility.
        0 makes the labels a deterministic function of the features.
    random_state : int, RandomState instance or None, default=None
        Seed of the generator; pass an int for reproducible output.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        Features of each document.
    y : ndarray of shape (n_samples,)
        Relevance label of each document, integers in ``0 .. n_levels - 1``.
    qid : ndarray of shape (n_samples,)
        Query id of each document, integers in ``0 .. n_queries - 1``,
        non-decreasing.

    See Also
    --------
    sklearn.datasets.make_regression : The regression analogue.
    RankingEvaluator : Fit and score a model on such data by NDCG.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ndcg import make_ranking
    >>> X, y, qid = make_ranking(n_queries=3, n_items=(2, 4), n_features=5,
    ...                          n_informative=2, random_state=0)
    >>> X.shape[1], np.unique(qid).tolist()
    (5, [0, 1, 2])
    >>> bool(y.min() >= 0 and y.max() <= 4)
    True
    >>> _, _, qid = make_ranking(n_queries=2, n_items=3, random_state=0)
    >>> qid.tolist()
    [0, 0, 0, 1, 1, 1]
    """
    low, high = _check_n_items(n_items)
    if n_informative > n_features:
        raise ValueError(
            f"n_informative={n_informative} exceeds n_features={n_features}; "
            "the utility can depend on at most all features."
        )
    rng = check_random_state(random_state)

    sizes = rng.randint(low, high + 1, size=n_queries)
    qid = np.repeat(np.arange(n_queries), sizes)
    X = rng.standard_normal((qid.shape[0], n_features))

    informative = X[:, :n_informative]
    linear_coef = rng.standard_normal(n_informative)
    pair_coef = 0.5 * rng.standard_normal(n_informative - 1)
    utility = informative @ linear_coef
    utility += (informative[:, :-1] * informative[:, 1:]) @ pair_coef
    # The terms are uncorrelated with variances coef**2: scale to unit variance.
    utility /= np.sqrt(linear_coef @ linear_coef + pair_coef @ pair_coef)
    utility += noise * rng.standard_normal(qid.shape[0])

    y = np.searchsorted(_level_thresholds(utility, n_levels), utility)
    return X, y, qid
