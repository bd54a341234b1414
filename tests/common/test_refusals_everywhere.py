"""Every refusal of the in-memory ndcg_score is a refusal in Dask and Spark, with the same
error class and message.

The cases come from the options' lists (``RankingOptions.TIE_RULES``, ``GAINS``,
``DISCOUNTS``, ``NORMALIZE``, ``UNJUDGED``, ``MISSING_QUERIES``: a value outside each,
and the combinations ``ranking_options`` refuses) and from the bad values of
tests/_bad_input.py (labels, scores and weights that are missing, infinite, negative or
unequal within a query; labels a gain refuses; tied documents under ``ties="docno"``).
Messages that name rows, their queries or labels name those of the whole frame, as in
memory, whichever partition fails first. The in-memory function
is the reference: its refusals are tested on their own in tests/metrics/. An option an
entry point does not take (Dask has no judgment pool) is skipped there.

Spark is kept cheap: one session, frames of 12 rows, one frame per data variant;
refusals of options happen on the driver before any job. Rows are numbered in the
frame's order (``frame.collect()``), which the in-memory reference is given.
"""

import inspect

import numpy as np
import pytest
from _bad_input import Y_SCORE, Y_TRUE
from _spark_session import SPARK_WARNINGS

import sklearn_ndcg
from sklearn_ndcg._engine import RankingOptions

# three queries of four documents; tie-free scores; one weight per query
BASE = {
    "qid": np.repeat([7, 8, 9], 4),
    "label": np.array([*Y_TRUE, 3, 0, 1, 2, 0, 1], dtype=float),
    "score": np.array([*Y_SCORE, 0.8, 0.7, 0.6, 0.15, 0.05, 0.25]),
    "w": np.repeat([1.0, 2.0, 3.0], 4),
}


def _variant(**changes):
    """BASE with some values of some columns replaced: {column: {row: value}}."""
    data = {name: values.copy() for name, values in BASE.items()}
    for column, values in changes.items():
        for row, value in values.items():
            data[column][row] = value
    return data


DATA = {
    "base": _variant(),
    "nan_label": _variant(label={2: np.nan, 5: np.nan, 6: np.nan, 9: np.nan, 10: np.nan}),
    "inf_score": _variant(score={4: np.inf, 11: -np.inf, 7: np.nan}),
    "negative_label": _variant(label={3: -1.0}),
    "docno_tie": _variant(score={0: 0.5, 2: 0.5}),  # labels 3 and 0 tied
    "weight_varies": _variant(w={1: 5.0}),
    "negative_weight": _variant(w={4: -1.0, 5: -1.0, 6: -1.0, 7: -1.0}),
    "nan_weight": _variant(w={8: np.nan, 9: np.nan, 10: np.nan, 11: np.nan}),
    "huge_label": _variant(label={6: 1500.0, 10: 1024.0}),  # 2**label - 1 overflows
    "fractional_label": _variant(label={1: 0.5, 9: 2.5}),
    # negative weights in query 7, missing ones in query 9: refused first in memory
    "negative_then_nan_weight": _variant(
        w={0: -1.0, 1: -1.0, 2: -1.0, 3: -1.0, 8: np.nan, 9: np.nan, 10: np.nan, 11: np.nan}
    ),
}


def _cases():
    """(id, data variant, keywords) of refused calls."""
    cases = []
    option_lists = {
        "ties": (*RankingOptions.TIE_RULES, RankingOptions.DOCNO_TIES),
        "gain": RankingOptions.GAINS,
        "discount": RankingOptions.DISCOUNTS,
        "normalize": RankingOptions.NORMALIZE,
        "unjudged": RankingOptions.UNJUDGED,
        "missing_queries": RankingOptions.MISSING_QUERIES,
    }
    for name, values in option_lists.items():
        assert "bogus" not in values
        cases.append((f"{name}-not-in-list", "base", {name: "bogus"}))
    # a pool's policies without a pool: every value but the default is refused
    for name in ("unjudged", "missing_queries"):
        for value in option_lists[name][1:]:
            cases.append((f"{name}={value}-without-pool", "base", {name: value}))
    for discount in RankingOptions.DISCOUNTS[1:]:
        cases.append(
            (f"log_base-with-{discount}", "base", {"log_base": 10.0, "discount": discount})
        )
    cases += [
        ("k=0", "base", {"k": 0}),
        ("k=1.5", "base", {"k": 1.5}),
        ("zero_division=0.5", "base", {"zero_division": 0.5}),
        # a lambda: Spark's workers get it by value (they cannot import this module)
        ("discount-increasing", "base", {"discount": lambda rank: rank.astype(float)}),
        ("gain-sequence-too-short", "base", {"gain": [0.0, 1.0]}),
        ("gain-mapping-missing-label", "base", {"gain": {0: 0.0, 1: 1.0}}),
        ("nan-label", "nan_label", {}),
        ("missing-and-infinite-scores", "inf_score", {}),
        ("negative-label-linear", "negative_label", {}),
        ("negative-label-exponential", "negative_label", {"gain": "exponential"}),
        ("docno-tie-different-labels", "docno_tie", {"ties": "docno"}),
        ("weight-varies-in-query", "weight_varies", {"sample_weight": "w"}),
        ("negative-weight", "negative_weight", {"sample_weight": "w"}),
        ("nan-weight", "nan_weight", {"sample_weight": "w"}),
        ("label-overflows-exponential", "huge_label", {"gain": "exponential"}),
        ("gain-sequence-non-integer-label", "fractional_label", {"gain": [0.0, 1.0, 3.0, 7.0]}),
        ("gain-callable-nan", "base", {"gain": lambda y: np.where(y > 2, np.nan, y)}),
        ("nan-weight-after-negative", "negative_then_nan_weight", {"sample_weight": "w"}),
    ]
    return cases


CASES = _cases()


def _function(module, options):
    """The module's dcg_score for ``log_base`` (NDCG does not take it), else ndcg_score."""
    return module.dcg_score if "log_base" in options else module.ndcg_score


def _memory(data, options):
    options = dict(options)
    weight = data["w"] if options.pop("sample_weight", None) else None
    return _function(sklearn_ndcg, options)(
        data["label"], data["score"], qid=data["qid"], sample_weight=weight, **options
    )


def _refusal(call):
    with pytest.raises((ValueError, TypeError)) as info:
        call()
    assert "unexpected keyword" not in str(info.value)
    return info.value


def _same_refusal(got, expected, where):
    assert type(got) is type(expected), f"{where}: {type(got)} vs {type(expected)}"
    # validate_params names the function and its module-level qualname alike
    assert str(got) == str(expected), f"{where}:\n{got}\n!=\n{expected}"


def _takes(function, options) -> bool:
    return set(options) <= set(inspect.signature(function).parameters)


@pytest.mark.parametrize("case, variant, options", CASES, ids=[c[0] for c in CASES])
def test_dask_refuses_as_in_memory(case, variant, options):
    dask = pytest.importorskip("dask")
    dd = pytest.importorskip("dask.dataframe")
    pd = pytest.importorskip("pandas")
    from sklearn_ndcg import dask as ndcg_dask

    expected = _refusal(lambda: _memory(DATA[variant], options))
    function = _function(ndcg_dask, options)
    if not _takes(function, options):
        pytest.skip(f"sklearn_ndcg.dask.{function.__name__} takes no {sorted(options)}")
    # three partitions that split query 8 (rows 4..7) in two
    frame = dd.from_pandas(pd.DataFrame(DATA[variant]), npartitions=3, sort=False)
    # partitions in order: with threads, which partition fails first (and so which
    # label a data-dependent message names) depends on the scheduling
    with dask.config.set(scheduler="synchronous"):
        got = _refusal(lambda: function(frame, **options))
    # a message naming labels or rows names the whole frame's, as in memory, whichever
    # partition failed first (issue 37)
    _same_refusal(got, expected, f"dask {case}")


@pytest.mark.filterwarnings(*SPARK_WARNINGS)
def test_spark_refuses_as_in_memory(spark):
    """All cases in one test: one frame per data variant."""
    from sklearn_ndcg import spark as ndcg_spark

    frames = {}
    failures = []
    for case, variant, options in CASES:
        expected = _refusal(lambda: _memory(DATA[variant], options))  # noqa: B023
        if variant not in frames:
            data = DATA[variant]
            rows = [
                (int(q), float(y), float(s), float(w))
                for q, y, s, w in zip(data["qid"], data["label"], data["score"], data["w"])
            ]
            # two partitions of six rows, splitting query 8; the frame's order is the list's
            frames[variant] = spark.createDataFrame(
                rows, "qid long, label double, score double, w double"
            )
            collected = frames[variant].collect()
            assert sorted(r["qid"] for r in collected) == sorted(data["qid"].tolist())
            frames[variant] = (frames[variant], collected)
        frame, collected = frames[variant]
        in_order = {
            "qid": np.array([r["qid"] for r in collected]),
            "label": np.array([r["label"] for r in collected]),
            "score": np.array([r["score"] for r in collected]),
            "w": np.array([r["w"] for r in collected]),
        }
        expected = _refusal(lambda: _memory(in_order, options))  # noqa: B023
        try:
            function = _function(ndcg_spark, options)
            got = _refusal(lambda: function(frame, **options))  # noqa: B023
            _same_refusal(got, expected, f"spark {case}")
        except AssertionError as failure:
            failures.append(str(failure))
        except pytest.fail.Exception as failure:
            failures.append(f"spark {case}: no refusal ({failure})")
    assert not failures, "\n\n".join(failures)


def test_the_table_covers_every_option_list():
    covered = {next(iter(options)) for case, _, options in CASES if case.endswith("not-in-list")}
    assert covered == {"ties", "gain", "discount", "normalize", "unjudged", "missing_queries"}
    assert {variant for _, variant, _ in CASES} == set(DATA)
