"""The table "Which scikit-learn tools pass qid to a scorer" holds for the installed
scikit-learn.

The table is read from docs/model_selection.rst, so page and test cannot drift:
every tool it names is run here on tiny data, with metadata routing on, the
query ids passed as the table's last column says, and a scorer that notes
whether each call got ``qid``. The tool routes if every call got the query ids
of its own rows; it does not if no call got them, or if it refuses ``qid`` (or
``params``, or ``groups``) as an unexpected keyword. Either way the outcome must
match the version the table gives for that tool.
"""

import re
from pathlib import Path

import numpy as np
import pytest
import sklearn
from sklearn.experimental import enable_halving_search_cv  # noqa: F401
from sklearn.feature_selection import RFECV, SequentialFeatureSelector
from sklearn.inspection import permutation_importance
from sklearn.linear_model import Ridge, RidgeCV
from sklearn.metrics import make_scorer
from sklearn.model_selection import (
    GridSearchCV,
    GroupKFold,
    HalvingGridSearchCV,
    HalvingRandomSearchCV,
    RandomizedSearchCV,
    cross_val_predict,
    cross_val_score,
    cross_validate,
    learning_curve,
    permutation_test_score,
    validation_curve,
)

PAGE = Path(__file__).resolve().parents[2] / "docs" / "model_selection.rst"
TITLE = "Which scikit-learn tools pass qid to a scorer"
SKLEARN_VERSION = tuple(int(part) for part in sklearn.__version__.split(".")[:2])
# What a tool without routing says when handed the query ids.
REFUSED = re.compile(r"unexpected keyword argument '(params|qid|groups)'")


def _read_table(text: str) -> dict:
    """``{tool: (major, minor) of the first version that routes, or None}``.

    The first table after the section title, a simple reStructuredText table
    whose columns are the runs of ``=`` in its first border line.
    """
    lines = text.splitlines()
    start = lines.index(TITLE)
    borders = [i for i in range(start, len(lines)) if re.fullmatch(r"=+( +=+)+", lines[i])]
    spans = [match.span() for match in re.finditer("=+", lines[borders[0]])]
    table = {}
    for line in lines[borders[1] + 1 : borders[2]]:
        tools = re.findall(r"``(\w+)``", line[slice(*spans[0])])
        version = re.fullmatch(r"(\d+)\.(\d+)\+|no", line[slice(*spans[1])].strip())
        assert tools and version, f"a row of the table that this test cannot read: {line!r}"
        for tool in tools:
            table[tool] = (int(version[1]), int(version[2])) if version[1] else None
    return table


TABLE = _read_table(PAGE.read_text())


# 8 queries of 5 documents, rows grouped by query.
_rng = np.random.default_rng(0)
QID = np.repeat(np.arange(8), 5)
X = _rng.normal(size=(40, 3))
Y = _rng.integers(0, 3, size=40).astype(float)
PARAMS = {"groups": QID, "qid": QID}


def _recording_scorer(calls: list):
    """A scorer requesting qid; each call appends whether it got one id per row."""

    def score(y_true, y_pred, qid=None):
        if qid is not None:
            assert len(qid) == len(y_true), "qid reached the scorer without being split"
        calls.append(qid is not None)
        return 0.0

    return make_scorer(score).set_score_request(qid=True)


class _QidRidge(Ridge):
    """Ridge whose fit takes qid; each fit appends to CALLS whether it got one."""

    CALLS: list = []

    def fit(self, X, y, qid=None):
        self.CALLS.append(qid is not None)
        return super().fit(X, y)


# How each tool in the table is run with query ids: as the table's last column says.
RUNS = {
    "GridSearchCV": lambda scorer: GridSearchCV(
        Ridge(), {"alpha": [1.0]}, scoring=scorer, cv=GroupKFold(4)
    ).fit(X, Y, **PARAMS),
    "RandomizedSearchCV": lambda scorer: RandomizedSearchCV(
        Ridge(), {"alpha": [1.0]}, n_iter=1, scoring=scorer, cv=GroupKFold(4)
    ).fit(X, Y, **PARAMS),
    "HalvingGridSearchCV": lambda scorer: HalvingGridSearchCV(
        Ridge(), {"alpha": [1.0, 2.0]}, scoring=scorer, cv=GroupKFold(4), min_resources=20
    ).fit(X, Y, **PARAMS),
    "HalvingRandomSearchCV": lambda scorer: HalvingRandomSearchCV(
        Ridge(),
        {"alpha": [1.0, 2.0]},
        scoring=scorer,
        cv=GroupKFold(4),
        min_resources=20,
        random_state=0,
    ).fit(X, Y, **PARAMS),
    "cross_validate": lambda scorer: cross_validate(
        Ridge(), X, Y, scoring=scorer, cv=GroupKFold(4), params=PARAMS
    ),
    "cross_val_score": lambda scorer: cross_val_score(
        Ridge(), X, Y, scoring=scorer, cv=GroupKFold(4), params=PARAMS
    ),
    "learning_curve": lambda scorer: learning_curve(
        Ridge(), X, Y, scoring=scorer, cv=GroupKFold(4), train_sizes=[1.0], params=PARAMS
    ),
    "validation_curve": lambda scorer: validation_curve(
        Ridge(),
        X,
        Y,
        param_name="alpha",
        param_range=[1.0],
        scoring=scorer,
        cv=GroupKFold(4),
        params=PARAMS,
    ),
    "permutation_test_score": lambda scorer: permutation_test_score(
        Ridge(), X, Y, scoring=scorer, cv=GroupKFold(4), n_permutations=2, params=PARAMS
    ),
    "RFECV": lambda scorer: RFECV(Ridge(), scoring=scorer, cv=GroupKFold(4)).fit(X, Y, **PARAMS),
    "SequentialFeatureSelector": lambda scorer: SequentialFeatureSelector(
        Ridge(), n_features_to_select=1, scoring=scorer, cv=GroupKFold(4)
    ).fit(X, Y, **PARAMS),
    "RidgeCV": lambda scorer: RidgeCV(alphas=[1.0], scoring=scorer, cv=GroupKFold(4)).fit(
        X, Y, **PARAMS
    ),
    # It has no params today; should one appear, this notices that qid gets through.
    "permutation_importance": lambda scorer: permutation_importance(
        Ridge().fit(X, Y), X, Y, scoring=scorer, n_repeats=2, random_state=0, params=PARAMS
    ),
}


@pytest.fixture(autouse=True)
def _routing_on():
    with sklearn.config_context(enable_metadata_routing=True):
        yield


def _outcome(run, calls: list) -> bool:
    """Whether qid reached every recorded call; False if the tool refuses it."""
    try:
        run()
    except TypeError as error:
        if not REFUSED.search(str(error)):
            raise
        return False
    assert calls, "the tool never called the scorer"
    assert len(set(calls)) == 1, f"qid reached some calls only: {calls}"
    return calls[0]


def test_the_table_names_every_tool_checked_here():
    # the page's table and RUNS (plus cross_val_predict, which has no scorer) agree
    assert set(TABLE) == set(RUNS) | {"cross_val_predict"}


def test_the_table_reads_as_written():
    # hand-read from the page: the first row, and a row of each kind
    assert TABLE["GridSearchCV"] == (1, 4)
    assert TABLE["RFECV"] == (1, 6)
    assert TABLE["permutation_importance"] is None


@pytest.mark.parametrize("tool", sorted(RUNS))
def test_tool_routes_qid_to_its_scorer_as_the_table_says(tool):
    calls = []
    scorer = _recording_scorer(calls)
    routes = _outcome(lambda: RUNS[tool](scorer), calls)
    first = TABLE[tool]
    expected = first is not None and SKLEARN_VERSION >= first
    says = "no" if first is None else f"{first[0]}.{first[1]}+"
    assert routes == expected, (
        f"{tool} with scikit-learn {sklearn.__version__}: qid reaches the scorer: "
        f"{routes}; the table says {says}"
    )


def test_cross_val_predict_routes_qid_to_fit_as_the_table_says():
    _QidRidge.CALLS.clear()
    model = _QidRidge().set_fit_request(qid=True)
    routes = _outcome(
        lambda: cross_val_predict(model, X, Y, cv=GroupKFold(4), params=PARAMS), _QidRidge.CALLS
    )
    first = TABLE["cross_val_predict"]
    assert routes == (first is not None and SKLEARN_VERSION >= first)
