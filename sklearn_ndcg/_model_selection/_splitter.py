"""RepeatedGroupKFold: group k-fold cross-validation, repeated with new random folds."""

from __future__ import annotations

from numbers import Integral

import numpy as np
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import check_random_state, indexable
from sklearn.utils.validation import check_array

from .._compat import GroupsConsumerMixin


class RepeatedGroupKFold(GroupsConsumerMixin, BaseCrossValidator):
    """Group k-fold cross-validation repeated with different random folds.

    Each repetition shuffles the groups (e.g. query ids) and deals them into
    ``n_splits`` folds; every fold is the test set once. A group is never
    split between the training and the test set, and each group is in the
    test set exactly once per repetition. Repeating reduces the variance that
    one particular assignment of queries to folds adds to the estimate of a
    model's NDCG. scikit-learn has :class:`~sklearn.model_selection.GroupKFold`
    but no repeated version of it.

    Read more in the :ref:`User Guide <statistics>`.

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds, at least 2 and at most the number of groups.
    n_repeats : int, default=10
        Number of repetitions, each with a new random assignment of the groups.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffling of the groups. An int gives the same splits on
        every call to :meth:`split`.

    See Also
    --------
    sklearn.model_selection.GroupKFold : One group k-fold split.
    sklearn.model_selection.RepeatedKFold : Repeated k-fold, without groups.

    Notes
    -----
    The folds hold equal numbers of groups (within one), not equal numbers of
    samples: the groups are shuffled and cut into ``n_splits`` consecutive
    runs, as ``GroupKFold(shuffle=True)`` of scikit-learn >= 1.6 does. For
    queries this balances what NDCG averages over, the queries; folds differ
    in rows when queries differ in length. (Balancing rows the way
    ``GroupKFold()`` does, largest group to the lightest fold, would give
    the same folds in every repetition whenever the group sizes are distinct.)

    ``groups`` is requested through metadata routing, as by ``GroupKFold``:
    with ``sklearn.set_config(enable_metadata_routing=True)``, pass
    ``groups=`` to the ``fit`` of a search.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_ndcg import RepeatedGroupKFold
    >>> groups = np.array([0, 0, 1, 1, 2, 2, 3])
    >>> cv = RepeatedGroupKFold(n_splits=2, n_repeats=2, random_state=0)
    >>> cv.get_n_splits()
    4
    >>> for train, test in cv.split(np.zeros(7), groups=groups):
    ...     print("train:", np.unique(groups[train]), "test:", np.unique(groups[test]))
    train: [0 1] test: [2 3]
    train: [2 3] test: [0 1]
    train: [1 3] test: [0 2]
    train: [0 2] test: [1 3]
    >>> cv
    RepeatedGroupKFold(n_repeats=2, n_splits=2, random_state=0)
    """

    def __init__(self, n_splits: int = 5, *, n_repeats: int = 10, random_state=None):
        for name, value, low in (("n_splits", n_splits, 2), ("n_repeats", n_repeats, 1)):
            if not isinstance(value, Integral) or isinstance(value, bool) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}; got {value!r}.")
        self.n_splits = n_splits
        self.n_repeats = n_repeats
        self.random_state = random_state

    def split(self, X, y=None, groups=None):
        """Generate the indices of the training and test sets.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data; only its number of samples is used.
        y : array-like of shape (n_samples,), default=None
            Ignored; exists for compatibility.
        groups : array-like of shape (n_samples,)
            Group (e.g. query id) of each sample. Required.

        Yields
        ------
        train : ndarray
            The training set indices for that split.
        test : ndarray
            The test set indices for that split.
        """
        if groups is None:
            raise ValueError(
                "groups is None; RepeatedGroupKFold needs the group (e.g. query id) of "
                "every sample. With metadata routing on, pass groups= to fit."
            )
        X, y, groups = indexable(X, y, groups)
        groups = check_array(groups, input_name="groups", ensure_2d=False, dtype=None)
        unique, group_index = np.unique(groups, return_inverse=True)
        group_index = group_index.reshape(-1)  # numpy 2.0.x keeps the input's shape
        n_groups = unique.shape[0]
        if self.n_splits > n_groups:
            raise ValueError(
                f"n_splits={self.n_splits} is more than the {n_groups} groups; give at "
                "least as many groups as folds."
            )
        rng = check_random_state(self.random_state)
        # consecutive runs of the shuffled groups: fold sizes differ by at most one group
        fold_by_rank = np.arange(n_groups) * self.n_splits // n_groups
        for _ in range(self.n_repeats):
            fold_of_group = np.empty(n_groups, dtype=np.intp)
            fold_of_group[rng.permutation(n_groups)] = fold_by_rank
            fold = fold_of_group[group_index]
            for f in range(self.n_splits):
                yield np.flatnonzero(fold != f), np.flatnonzero(fold == f)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        """The number of splits, ``n_splits * n_repeats``.

        Parameters
        ----------
        X, y, groups : object
            Ignored; exist for compatibility.

        Returns
        -------
        n_splits : int
            Number of (train, test) pairs that :meth:`split` yields.
        """
        return self.n_splits * self.n_repeats
