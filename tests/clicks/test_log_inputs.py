"""Inputs of a click log that once went wrong silently, or loudly in the wrong way (issue 47,
item 6): each is refused with the argument named, or gives the right number."""

import numpy as np
import pandas as pd
import pytest

from sklearn_ndcg import counterfactual_dcg
from sklearn_ndcg._clicks._log import check_log

# qid as the logged ranking (its meaning before 0.3), under its FutureWarning
pytestmark = pytest.mark.filterwarnings(
    "ignore:counterfactual_dcg\\(qid=...\\) without impression=:FutureWarning"
)

LOG = dict(
    click=[1, 0, 0, 1],
    y_score=[0.5, 0.2, 0.9, 0.1],
    logged_rank=[1, 2, 1, 2],
    propensity=[1.0, 0.5],
)


@pytest.mark.parametrize(
    "qid",
    [
        pd.array([1, 1, pd.NA, pd.NA], dtype="Int64"),
        pd.array(["a", "a", pd.NA, pd.NA], dtype="string"),
        pd.Series(["a", "a", None, None], dtype=object),
        np.array([1, 1, None, None], dtype=object),
        [1.0, 1.0, np.nan, np.nan],
    ],
    ids=["Int64-NA", "string-NA", "object-None", "None", "NaN"],
)
def test_missing_ids_are_refused_naming_the_row(qid):
    # they once merged into one logged ranking "nan" (or raised numpy's '<' error)
    with pytest.raises(ValueError, match=r"qid contains missing values .*\(e\.g\. 2, 3\)"):
        counterfactual_dcg(qid=qid, **LOG)


def test_a_rank_beyond_its_logged_ranking_is_refused_under_stochastic_logging():
    # ranking 1 holds 2 rows, one logged at rank 3: the new ranker puts its rows at ranks
    # 1-2 only, so the row could never count (it silently did not)
    log = {**LOG, "logged_rank": [1, 3, 1, 2], "propensity": [1.0, 0.5, 0.25]}
    with pytest.raises(
        ValueError,
        match=r"logged_rank 3 of row 1 lies beyond its logged ranking \(query 1\), "
        "which has 2 rows",
    ):
        counterfactual_dcg(qid=[1, 1, 2, 2], logging_probability=[0.5] * 4, **log)
    # deterministic logging shows such rows (the rest of the list was not logged): kept
    counterfactual_dcg(qid=[1, 1, 2, 2], **log)


@pytest.mark.parametrize("dtype", [object, "string"])
def test_repeated_rank_with_pandas_string_ids(dtype):
    # once AttributeError: 'str' object has no attribute 'item'
    qid = pd.Series(["a", "a", "b", "b"], dtype=dtype)
    with pytest.raises(ValueError, match="logged_rank repeats rank 1 in query 'a'"):
        counterfactual_dcg(qid=qid, **{**LOG, "logged_rank": [1, 1, 1, 2]})


@pytest.mark.parametrize(
    "qid",
    [
        [1, 1, "a", "a"],
        np.array([1, 1, "a", "a"], dtype=object),
        pd.Series([1, 1, "a", "a"], dtype=object),
    ],
    ids=["list", "object", "pandas"],
)
def test_ids_mixing_numbers_and_strings_name_the_types(qid):
    # once numpy's "'<' not supported between 'str' and 'int'" (or, for a list, the ids as
    # strings, so that 1 and "1" would merge)
    with pytest.raises(TypeError, match=r"qid mixes .*\(types int, str\)"):
        counterfactual_dcg(qid=qid, **LOG)


@pytest.mark.parametrize(
    "qid, logged_rank, logging_probability, error, match",
    [
        ([1, 1, None, 2], [1, 2, 1, 2], None, ValueError, "impression contains missing values"),
        ([1, 1, "a", "a"], [1, 2, 1, 2], None, TypeError, "impression mixes"),
        (["a", "a", "b", "b"], [1, 1, 1, 2], None, ValueError, "rank 1 in impression 'a'"),
        ([1, 1, 2], [1, 2, 1, 2], None, ValueError, "impression has 3 entries but click has 4"),
        ([1, 1, 2, 2], [1, 2, 1, 3], [0.5] * 4, ValueError, r"\(impression 2\), which has 2"),
    ],
)
def test_messages_name_the_column_of_logged_rankings(
    qid, logged_rank, logging_probability, error, match
):
    with pytest.raises(error, match=match):
        check_log(
            LOG["click"], LOG["y_score"], qid, logged_rank, [1.0, 0.5, 0.25],
            logging_probability, None, ranking_name="impression",
        )  # fmt: skip


def test_effective_sample_size_of_huge_weights():
    # two rows logged at propensity 1e-200: weights 1e200, whose squares overflow float64
    # (the effective sample size was NaN). mpmath: (sum w)^2 / sum w^2 = 2 exactly.
    mpmath = pytest.importorskip("mpmath")
    w = mpmath.mpf("1e200")
    expected = float((w + w) ** 2 / (w**2 + w**2))
    result = counterfactual_dcg(
        [1, 0], [2, 1], qid=[0, 0], logged_rank=[1, 2], propensity=[1e-200, 1e-200]
    )
    assert result.effective_sample_size == expected == 2.0
    assert result.max_weight == 1e200
