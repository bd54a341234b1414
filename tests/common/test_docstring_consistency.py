"""The shared options are documented with one text in every entry point.

For each shared parameter, every entry point that takes it (its signature says so)
documents it with the same type and description as the canonical entry point, unless the
pair is listed below with the reason for the difference: ``EXTENDED`` (the canonical text
and then a sentence of its own, the type possibly wider) or ``DIFFERENT`` (another meaning
of the name). A docstring edited alone fails here.

scikit-learn's own guard (``sklearn.utils._testing.assert_docstring_consistency``, in
scikit-learn >= 1.6 with numpydoc) checks the identical groups too when it is available;
the parser below runs on every supported scikit-learn.
"""

import inspect
import re

import pytest

import sklearn_ndcg
from sklearn_ndcg import NDCGCurveDisplay

dask_api = pytest.importorskip("sklearn_ndcg.dask")  # importing it never imports dask
from sklearn_ndcg import spark as spark_api  # noqa: E402 - never imports pyspark

ENTRY_POINTS = {
    "ndcg_score": sklearn_ndcg.ndcg_score,
    "dcg_score": sklearn_ndcg.dcg_score,
    "query_scores": sklearn_ndcg.query_scores,
    "tie_diagnostics": sklearn_ndcg.tie_diagnostics,
    "make_ndcg_scorer": sklearn_ndcg.make_ndcg_scorer,
    "make_dcg_scorer": sklearn_ndcg.make_dcg_scorer,
    "RankingEvaluator": sklearn_ndcg.RankingEvaluator,
    "evaluate_run": sklearn_ndcg.evaluate_run,
    "NDCGCurveDisplay.from_predictions": NDCGCurveDisplay.from_predictions,
    "NDCGCurveDisplay.from_estimator": NDCGCurveDisplay.from_estimator,
    "cross_val_query_scores": sklearn_ndcg.cross_val_query_scores,
    "search_query_scores": sklearn_ndcg.search_query_scores,
    "dask.ndcg_score": dask_api.ndcg_score,
    "dask.dcg_score": dask_api.dcg_score,
    "spark.ndcg_score": spark_api.ndcg_score,
    "spark.dcg_score": spark_api.dcg_score,
    "spark.query_scores": spark_api.query_scores,
    "spark.evaluate_run": spark_api.evaluate_run,
    "required_queries": sklearn_ndcg.required_queries,
    "detectable_difference": sklearn_ndcg.detectable_difference,
}

# the entry point whose text is the canonical one, per shared parameter
CANONICAL = {
    "k": "dcg_score",
    "gain": "dcg_score",
    "discount": "dcg_score",
    "ties": "dcg_score",
    "zero_division": "make_ndcg_scorer",
    "replace_undefined_by": "query_scores",
    "normalize": "make_ndcg_scorer",
    "qid": "ndcg_score",
    "sample_weight": "ndcg_score",
    "document_weight": "dcg_score",
    "log_base": "dcg_score",
    "pool": "query_scores",
    "unjudged": "ndcg_score",
    "missing_queries": "ndcg_score",
    "unjudged_queries": "ndcg_score",
    "ignore_ties": "ndcg_score",
    "docno": "spark.ndcg_score",
    "bounds": "evaluate_run",
    "levels": "evaluate_run",
}

_REFERENCE = "ndcg_score is the reference: the full text that the others point to"
_DASK_COLUMN = "a column name of the dask DataFrame, not an array"
_SPARK_COLUMN = "a column name of the Spark DataFrame (and of the pool), not an array"
_SPARK_POOL = "a Spark DataFrame of qrels joined on document ids, not a JudgmentPool"
_X_COLUMN = "a column of X (tools without metadata routing), not an array"

# (parameter, entry point): why the text is the canonical text plus a sentence
EXTENDED = {
    ("k", "make_ndcg_scorer"): "also takes a list of cutoffs (a multi-metric scorer)",
    ("k", "make_dcg_scorer"): "also takes a list of cutoffs (a multi-metric scorer)",
    ("k", "RankingEvaluator"): "default 10 (a selection metric), with the reason",
    ("k", "evaluate_run"): "names trec_eval's ndcg_cut_k",
    ("gain", "evaluate_run"): "qrels levels may be negative (positive_part_gain)",
    ("ties", "evaluate_run"): "what 'docno' does where document ids are known",
    ("zero_division", "query_scores"): "also computes DCG, where it is ignored",
    ("zero_division", "NDCGCurveDisplay.from_predictions"): "the band leaves NaN out too",
    ("zero_division", "dask.ndcg_score"): "says what an all-NaN mean returns",
    ("normalize", "query_scores"): "also computes DCG, where it is ignored",
    ("sample_weight", "query_scores"): "the weights are returned",
    ("sample_weight", "tie_diagnostics"): "names the summaries that use it",
    ("log_base", "query_scores"): "also computes NDCG, which does not depend on it",
    ("pool", "dcg_score"): "what a pool changes in DCG (no ideal DCG)",
    ("zero_division", "spark.query_scores"): "also computes DCG, where it is ignored",
    ("normalize", "spark.query_scores"): "also computes DCG, where it is ignored",
    ("log_base", "spark.query_scores"): "also computes NDCG, which does not depend on it",
    ("gain", "spark.evaluate_run"): "qrels levels may be negative (positive_part_gain)",
    ("ties", "spark.evaluate_run"): "also 'docno', where document ids are known",
}

# (parameter, entry point): why the text is another one
DIFFERENT = {
    ("gain", "ndcg_score"): _REFERENCE,
    ("discount", "ndcg_score"): _REFERENCE,
    ("ties", "ndcg_score"): _REFERENCE,
    ("zero_division", "ndcg_score"): _REFERENCE,
    ("replace_undefined_by", "ndcg_score"): _REFERENCE,
    ("normalize", "ndcg_score"): _REFERENCE,
    ("document_weight", "ndcg_score"): _REFERENCE,
    ("pool", "ndcg_score"): _REFERENCE,
    ("qid", "make_ndcg_scorer"): _X_COLUMN,
    ("qid", "make_dcg_scorer"): _X_COLUMN,
    ("qid", "RankingEvaluator"): _X_COLUMN + "; the evaluator also drops it from X",
    ("qid", "cross_val_query_scores"): "required, and also the splitter's groups",
    ("qid", "search_query_scores"): "required: the query ids of the given test rows",
    ("qid", "NDCGCurveDisplay.from_estimator"): "X and y of an estimator, always 1-D",
    ("k", "NDCGCurveDisplay.from_predictions"): "the curve's cutoffs, each one k (formerly ks)",
    ("k", "NDCGCurveDisplay.from_estimator"): "the curve's cutoffs, each one k (formerly ks)",
    ("qid", "dask.ndcg_score"): _DASK_COLUMN,
    ("qid", "dask.dcg_score"): _DASK_COLUMN,
    ("sample_weight", "dask.ndcg_score"): _DASK_COLUMN,
    ("sample_weight", "dask.dcg_score"): _DASK_COLUMN,
    **{
        (param, f"spark.{name}"): _SPARK_COLUMN
        for param in ("qid", "sample_weight", "document_weight")
        for name in ("ndcg_score", "dcg_score", "query_scores")
    },
    **{
        ("pool", f"spark.{name}"): _SPARK_POOL
        for name in ("ndcg_score", "dcg_score", "query_scores")
    },
    ("qid", "spark.evaluate_run"): _SPARK_COLUMN,
    ("docno", "spark.evaluate_run"): "a column of the run and of the qrels (always given)",
    ("docno", "query_scores"): "an array of document ids, read only with metric='infNDCG'",
    ("unjudged", "spark.evaluate_run"): "always has a pool (the qrels)",
    ("missing_queries", "spark.evaluate_run"): "always has a pool (the qrels)",
    ("bounds", "query_scores"): "the full text, for any pool (evaluate_run points to it)",
    ("levels", "query_scores"): "the levels of a JudgmentPool, not of qrels",
    ("bounds", "spark.evaluate_run"): "per_query is a Spark DataFrame: three more columns",
    ("unjudged", "evaluate_run"): "always has a pool (the qrels)",
    ("missing_queries", "evaluate_run"): "always has a pool (the qrels)",
}

# the groups with literally the same text, checked by each other as well
SAME_AS_EACH_OTHER = {
    ("qid", "X column"): ["make_ndcg_scorer", "make_dcg_scorer"],
    ("assurance", "planning"): ["required_queries", "detectable_difference"],
    ("confidence_level", "planning"): ["required_queries", "detectable_difference"],
    ("qid", "dask column"): ["dask.ndcg_score", "dask.dcg_score"],
    ("sample_weight", "dask column"): ["dask.ndcg_score", "dask.dcg_score"],
    **{
        (param, "spark column"): ["spark.ndcg_score", "spark.dcg_score", "spark.query_scores"]
        for param in ("qid", "sample_weight", "document_weight", "pool")
    },
}


def _parameters(obj) -> dict[str, tuple[str, str]]:
    """``{name: (type, description)}`` from the numpydoc Parameters section.

    Whitespace is normalised, so a re-wrapped paragraph is the same text.
    """
    lines = inspect.getdoc(obj).splitlines()
    start = next(i for i, line in enumerate(lines[:-1]) if line == "Parameters")
    assert set(lines[start + 1]) == {"-"}
    entries: dict[str, tuple[str, list[str]]] = {}
    name = None
    for i in range(start + 2, len(lines)):
        line = lines[i]
        if i + 1 < len(lines) and lines[i + 1] and set(lines[i + 1]) == {"-"}:
            break  # the next section
        if line and not line[0].isspace():
            name, _, type_ = line.partition(" : ")
            entries[name] = (type_.strip(), [])
        elif name is not None:
            entries[name][1].append(line.strip())
    return {
        key: (" ".join(type_.split()), " ".join(" ".join(desc).split()))
        for key, (type_, desc) in entries.items()
    }


DOCS = {name: _parameters(obj) for name, obj in ENTRY_POINTS.items()}


def _takes(entry: str, param: str) -> bool:
    return param in inspect.signature(ENTRY_POINTS[entry]).parameters


def _cases():
    for param, owner in CANONICAL.items():
        for entry in ENTRY_POINTS:
            if entry != owner and _takes(entry, param) and (param, entry) not in DIFFERENT:
                yield pytest.param(param, entry, id=f"{param}-{entry}")


@pytest.mark.parametrize("param, entry", list(_cases()))
def test_shared_parameter_has_the_canonical_text(param, entry):
    owner = CANONICAL[param]
    assert param in DOCS[entry], f"{entry} takes {param} but does not document it"
    canonical_type, canonical = DOCS[owner][param]
    type_, description = DOCS[entry][param]
    if (param, entry) in EXTENDED:
        assert description.startswith(canonical + " "), (
            f"the {param!r} doc of {entry} must start with the canonical text of {owner} "
            f"({EXTENDED[param, entry]}):\n{canonical!r}\ngot\n{description!r}"
        )
        assert description != canonical, f"{entry}: {param} is no longer extended; unlist it"
    else:
        assert (type_, description) == (canonical_type, canonical), (
            f"the {param!r} doc of {entry} differs from that of {owner}; edit them "
            f"together, or list the difference in EXTENDED or DIFFERENT with its reason:"
            f"\n{owner}: {canonical_type} | {canonical}\n{entry}: {type_} | {description}"
        )


@pytest.mark.parametrize(("param", "group"), list(SAME_AS_EACH_OTHER))
def test_groups_of_the_same_other_meaning(param, group):
    texts = {entry: DOCS[entry][param] for entry in SAME_AS_EACH_OTHER[param, group]}
    assert len(set(texts.values())) == 1, texts


def test_every_listed_difference_is_real():
    """The lists name only entry points that take the parameter, and owners are not listed."""
    for param, entry in [*EXTENDED, *DIFFERENT]:
        assert _takes(entry, param), (param, entry)
        assert param in CANONICAL and entry != CANONICAL[param], (param, entry)
    assert not set(EXTENDED) & set(DIFFERENT)
    for param, owner in CANONICAL.items():
        assert _takes(owner, param) and param in DOCS[owner], (param, owner)


def test_every_shared_option_is_covered():
    """A parameter that three or more entry points take is in CANONICAL (or an input)."""
    inputs = {"y_true", "y_score", "frame", "estimator", "X", "y", "self", "kwargs"}
    counts: dict[str, int] = {}
    for obj in ENTRY_POINTS.values():
        for name in inspect.signature(obj).parameters:
            counts[name] = counts.get(name, 0) + 1
    shared = {name for name, n in counts.items() if n >= 3} - inputs
    assert shared <= set(CANONICAL) | {"metric", "response_method", "ax", "name", "params"}, (
        shared - set(CANONICAL)
    )


def _identical_groups():
    for param in CANONICAL:
        group = [
            entry
            for entry in ENTRY_POINTS
            if _takes(entry, param)
            and (param, entry) not in DIFFERENT
            and (param, entry) not in EXTENDED
        ]
        yield pytest.param(param, group, id=param)


@pytest.mark.parametrize("param, group", list(_identical_groups()))
def test_with_scikit_learns_guard(param, group):
    """scikit-learn's assert_docstring_consistency over each identical group."""
    testing = pytest.importorskip("sklearn.utils._testing")
    if not hasattr(testing, "assert_docstring_consistency"):
        pytest.skip("scikit-learn < 1.6 has no assert_docstring_consistency")
    pytest.importorskip("numpydoc")
    if len(group) < 2:
        pytest.skip(f"{param}: one entry point")
    testing.assert_docstring_consistency(
        [_stand_in(entry) for entry in group], include_params=[param]
    )


def _stand_in(entry: str):
    """A function with the entry point's docstring and a unique name.

    scikit-learn's guard keys the objects by ``__name__`` (``ndcg_score`` and
    ``dask.ndcg_score`` would be one) and takes no bound class methods.
    """

    def stand_in():
        pass

    stand_in.__name__ = entry.replace(".", "_")
    stand_in.__doc__ = inspect.getdoc(ENTRY_POINTS[entry])
    return stand_in


def test_the_parser_reads_numpydoc():
    """The parser agrees with numpydoc, where numpydoc is installed."""
    docscrape = pytest.importorskip("numpydoc.docscrape")
    for name, obj in ENTRY_POINTS.items():
        parsed = docscrape.NumpyDocString(inspect.getdoc(obj))["Parameters"]
        expected = {p.name: (p.type, re.sub(r"\s+", " ", " ".join(p.desc)).strip()) for p in parsed}
        assert DOCS[name] == expected, name
