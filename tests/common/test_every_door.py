"""One set of qrels and runs through every door (issue 56): the same values, or the same
refusal, from ``query_scores`` (arrays and pytrec_eval's dicts), ``evaluate_run`` (dicts,
tables, a DataFrame, TREC files), ``RelevanceEvaluator``, the ``trec-eval`` command, the
trec_eval 10.0 binary and the ir_measures provider, with pytrec_eval as the reference.

The input holds a negative level, a judged query with an empty ranking, queries that rank
their own id, tied scores and a ranked query without judgments. The Python doors are
called with ``ties="docno"`` (trec_eval's order, the default of ``RelevanceEvaluator``
and the command) and ``gain=positive_part_gain`` (trec_eval's reading of negative levels
in NDCG); their default rule ("average") is checked to be said by the results.

Formats that cannot hold an empty ranking (arrays, tables, files) are given
``missing_queries="zero"`` (the command and the binary ``-c``): the judged query they
lack then scores as pytrec_eval scores ``{qid: {}}``.
"""

import math
import subprocess
from importlib.util import find_spec

import numpy as np
import pytest
from _trec_dicts import trec_eval_binary

from sklearn_ndcg import (
    JudgmentPool,
    RelevanceEvaluator,
    evaluate_run,
    positive_part_gain,
    query_scores,
    register_ir_measures,
)
from sklearn_ndcg.__main__ import main

QRELS = {
    "q1": {"d1": 2, "d2": 0, "d3": 1, "d4": -1, "d5": 1},  # d4: in the pool, not judged
    "q2": {"d1": 1, "d2": 2},  # judged; its ranking is empty
    "q3": {"a": 1, "b": 0, "c": 2},  # ranks its own id first (unjudged)
    "q4": {"d1": 1, "d2": 0, "d3": 2, "d6": 1},  # four documents tied at 1.0
    "q5": {"d1": 1},  # ranks only its own id
}
RUN = {
    "q1": {"d1": 0.3, "d2": 0.9, "d4": 0.8, "d5": 0.1, "x": 0.5},
    "q2": {},
    "q3": {"q3": 5.0, "a": 3.0, "b": 2.0, "c": 1.0},
    "q4": {"d1": 1.0, "d2": 1.0, "d3": 1.0, "d4": 0.5, "d5": 1.0},
    "q5": {"q5": 2.0},
    "q6": {"x": 1.0},  # no judgments: left out everywhere
}
# trec_eval's -q names; the measures the Python doors, RelevanceEvaluator and the command
# all take (gm_map and iprec_at_recall: the last two only, see test_report_only_measures)
MEASURES = ["ndcg", "ndcg_cut_10", "map", "recip_rank", "P_10", "recall_100", "Rprec", "bpref"]
MEASURES += ["num_rel_ret"]
COMMAND_MEASURES = ["ndcg", "ndcg_cut.10", "map", "recip_rank", "P.10", "recall.100", "Rprec"]
COMMAND_MEASURES += ["bpref", "num_rel_ret"]
JUDGED = sorted(QRELS)  # the queries every door evaluates
TREC = {"ties": "docno", "gain": positive_part_gain}  # trec_eval's rules, in Python
# trec_eval's flags: the Python doors' options, pytrec_eval's (RelevanceEvaluator's), the
# command's (and the binary's)
FLAGS = {
    "default": ({}, {}, []),
    "-l 2": ({"relevance_level": 2}, {"relevance_level": 2}, ["-l", "2"]),
    "-J": ({"unjudged": "drop"}, {"judged_docs_only_flag": True}, ["-J"]),
}


def _without_own_ids(run):
    """The run without the documents whose id is their query's (BEIR's
    ignore_identical_ids, done by hand)."""
    return {qid: {d: s for d, s in docs.items() if d != qid} for qid, docs in run.items()}


def _pytrec_eval(run, qrels=QRELS, measures=MEASURES, **flags):
    """The reference: pytrec_eval (trec_eval's C code), {measure: {qid: value}}."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    values = pytrec_eval.RelevanceEvaluator(qrels, set(measures), **flags).evaluate(run)
    return {m: {qid: values[qid][m] for qid in values} for m in measures}


def _rows(nested):
    """A dict {qid: {docno: number}} as three lists, in the dict's order."""
    rows = [(q, d, v) for q, docs in nested.items() for d, v in docs.items()]
    return tuple(map(list, zip(*rows)))


def _arrays(run, qrels=QRELS):
    """What query_scores makes of the dicts (sklearn_ndcg/_metrics/_ids.py:dict_rows),
    built by hand: one row per ranked document, its label from the qrels (NaN if they
    lack it: unjudged), rows in trec_eval's order (query, decreasing score, decreasing
    document id) so that ties="first" keeps it; the qrels as the pool."""
    rows = sorted(
        ((q, d, s) for q, docs in run.items() for d, s in docs.items()),
        key=lambda row: (row[0], -row[2], tuple(-b for b in row[1].encode())),
    )
    label = [qrels.get(q, {}).get(d, np.nan) for q, d, _ in rows]
    score = [s for _, _, s in rows]
    qid = [q for q, _, _ in rows]
    pool = JudgmentPool(*_rows(qrels)[::2])
    return label, score, qid, pool


def _write(tmp_path, run, qrels=QRELS, name="run"):
    """TREC files of the run and the qrels (an empty ranking has no line)."""
    run_path, qrels_path = tmp_path / name, tmp_path / "qrels"
    run_path.write_text(
        "".join(f"{q} Q0 {d} 0 {s!r} tag\n" for q, docs in run.items() for d, s in docs.items())
    )
    qrels_path.write_text(
        "".join(f"{q} 0 {d} {r}\n" for q, docs in qrels.items() for d, r in docs.items())
    )
    return str(run_path), str(qrels_path)


def _of_results(results):
    """{measure: QueryScores or RunEvaluation} as {measure: {qid: value}}."""
    out = {}
    for name, result in results.items():
        values = getattr(result, "per_query", result)
        out[name] = dict(zip(values.qid.tolist(), values.score.tolist()))
    return out


def _of_evaluator(values, measures=MEASURES):
    """RelevanceEvaluator's {qid: {measure: value}} as {measure: {qid: value}}."""
    return {m: {qid: values[qid][m] for qid in values} for m in measures}


def _python_results(tmp_path, run, ignore_identical_ids=False, **options):
    """Every Python door's results, {door: {measure: QueryScores or RunEvaluation}}."""
    pd = pytest.importorskip("pandas")
    options = {"metric": MEASURES, **options}
    own = {"ignore_identical_ids": ignore_identical_ids}
    # arrays hold no document ids (ignore_identical_ids refused): the run without them,
    # and trec_eval's order given by the rows (ties="first") rather than by ids
    label, score, qid, pool = _arrays(_without_own_ids(run) if ignore_identical_ids else run)
    array_options = dict(options)
    if array_options.get("ties") == "docno":
        array_options["ties"] = "first"
    run_table, qrels_table = _rows(run), _rows(QRELS)
    run_frame = pd.DataFrame(dict(zip(("qid", "docno", "score"), run_table)))
    qrels_frame = pd.DataFrame(dict(zip(("qid", "docno", "relevance"), qrels_table)))
    run_path, qrels_path = _write(tmp_path, run)
    zero = {**options, **own, "missing_queries": "zero"}  # no line for an empty ranking
    return {
        "query_scores of arrays": query_scores(
            label, score, qid=qid, pool=pool, missing_queries="zero", **array_options
        ),
        "query_scores of dicts": query_scores(QRELS, run, **options, **own),
        "evaluate_run of dicts": evaluate_run(run, QRELS, **options, **own),
        "evaluate_run of tables": evaluate_run(run_table, qrels_table, **zero),
        "evaluate_run of a DataFrame": evaluate_run(run_frame, qrels_frame, **zero),
        "evaluate_run of files": evaluate_run(run_path, qrels_path, **zero),
    }


def _python_doors(tmp_path, run, ignore_identical_ids=False, **options):
    """Every Python door's values, {door: {measure: {qid: value}}}."""
    doors = _python_results(tmp_path, run, ignore_identical_ids, **options)
    return {door: _of_results(results) for door, results in doors.items()}


def _assert_equal(got, expected, tol, door):
    """Per-query values of every measure equal, the same queries."""
    for m, by_query in expected.items():
        assert sorted(got[m]) == sorted(by_query), (door, m)
        for qid, value in by_query.items():
            assert abs(got[m][qid] - value) <= tol, (door, m, qid, got[m][qid], value)


@pytest.mark.parametrize("flags", list(FLAGS))
@pytest.mark.parametrize("ignore_identical_ids", [False, True])
def test_python_doors_equal_pytrec_eval(tmp_path, ignore_identical_ids, flags):
    """Every Python door equals pytrec_eval to 1e-12 (with ignore_identical_ids=True,
    pytrec_eval on the run without the queries' own documents): the empty ranking of
    q2 scores 0, q5 emptied by ignore_identical_ids too, q6 is left out."""
    options, pytrec_flags, _ = FLAGS[flags]
    run = _without_own_ids(RUN) if ignore_identical_ids else RUN
    expected = _pytrec_eval(run, **pytrec_flags)  # pytrec_eval; it leaves out q6
    assert sorted(expected["map"]) == JUDGED
    assert all(expected[m]["q2"] == 0 for m in MEASURES)  # the empty ranking
    doors = _python_doors(tmp_path, RUN, ignore_identical_ids, **options, **TREC)
    if flags == "-J":  # see test_arrays_judged_only_negative_levels
        del doors["query_scores of arrays"]
    evaluator = RelevanceEvaluator(
        QRELS, MEASURES, ignore_identical_ids=ignore_identical_ids, **pytrec_flags
    )
    doors["RelevanceEvaluator"] = _of_evaluator(evaluator.evaluate(RUN))
    for door, values in doors.items():
        _assert_equal(values, expected, 1e-12, door)


def test_own_ids_change_the_values():
    """pytrec_eval on the run without the own documents differs (q3's own id, ranked
    first, is unjudged), so test_python_doors_equal_pytrec_eval tells the two apart."""
    assert _pytrec_eval(RUN)["recip_rank"]["q3"] == 0.5  # pytrec_eval
    assert _pytrec_eval(_without_own_ids(RUN))["recip_rank"]["q3"] == 1.0  # pytrec_eval


@pytest.mark.xfail(
    strict=True,
    reason="query_scores of arrays with a pool and unjudged='drop' keeps a ranked document "
    "of negative level (judged non-relevant); the dicts, tables, files, RelevanceEvaluator "
    "and trec_eval's -J remove it (in the pool, not judged)",
)
def test_arrays_judged_only_negative_levels(tmp_path):
    """-J (unjudged="drop") with q1's ranked d4 of level -1: the arrays door, given the
    level as the user's arrays hold it, equals pytrec_eval as the other doors do."""
    expected = _pytrec_eval(RUN, judged_docs_only_flag=True)  # pytrec_eval
    label, score, qid, pool = _arrays(RUN)
    assert label[qid.index("q1") + 1] == -1  # d4, ranked second in q1
    results = query_scores(
        label, score, qid=qid, pool=pool, metric=MEASURES, missing_queries="zero",
        unjudged="drop", ties="first", gain=positive_part_gain,
    )  # fmt: skip
    _assert_equal(_of_results(results), expected, 1e-12, "query_scores of arrays")


@pytest.mark.parametrize("flags", list(FLAGS))
@pytest.mark.parametrize("ignore_identical_ids", [False, True])
def test_command_and_binary(tmp_path, capsys, ignore_identical_ids, flags):
    """The trec-eval command's -q lines equal pytrec_eval to its 4 decimals, and the
    binary (on the run without the own documents, which it cannot drop) prints the same
    bytes; -c scores the judged queries the files lack (the empty ranking) 0."""
    _, pytrec_flags, command_flags = FLAGS[flags]
    run = _without_own_ids(RUN) if ignore_identical_ids else RUN
    expected = _pytrec_eval(run, **pytrec_flags)  # pytrec_eval
    run_path, qrels_path = _write(tmp_path, RUN)
    flags = ["-q", "-c", *command_flags]
    own = ["--ignore-identical-ids"] if ignore_identical_ids else []
    measures = [arg for m in COMMAND_MEASURES for arg in ("-m", m)]
    assert main(["trec-eval", *flags, *own, *measures, qrels_path, run_path]) == 0
    printed = capsys.readouterr().out
    got = {m: {} for m in MEASURES}
    for line in printed.splitlines():
        name, qid, value = (field.strip() for field in line.split("\t"))
        if qid != "all":
            got[name][qid] = float(value)
    _assert_equal(got, expected, 5e-5 + 1e-12, "trec-eval command")  # printed to 4 decimals
    binary = trec_eval_binary()
    if binary is None:
        pytest.skip("no trec_eval binary (SKLEARN_NDCG_TREC_EVAL_TESTS, /tmp/te/trec_eval)")
    own_run, _ = _write(tmp_path, run, name="run_of_the_binary")  # no ignore_identical_ids
    argv = [str(binary), *flags, *measures, qrels_path, own_run]
    real = subprocess.run(argv, capture_output=True, text=True, check=True)
    assert real.stdout == printed


@pytest.mark.parametrize("flags", list(FLAGS))
def test_ir_measures_provider(flags):
    """register_ir_measures' provider equals ir_measures' own pytrec_eval provider (and
    pytrec_eval) to 1e-12, the empty ranking included, with ``rel`` (-l) and
    ``judged_only`` (-J); it refuses with ir_measures' error the measures it lacks
    (Rprec, Bpref), which the pytrec_eval provider has."""
    ir_measures = pytest.importorskip("ir_measures")
    from ir_measures import AP, RR, Bpref, P, R, Rprec, nDCG

    _, pytrec_flags, _ = FLAGS[flags]
    judged_only = pytrec_flags.get("judged_docs_only_flag", False)
    binary = {"rel": pytrec_flags.get("relevance_level", 1), "judged_only": judged_only}
    ndcg = nDCG(judged_only=judged_only)
    names = {ndcg: "ndcg", ndcg @ 10: "ndcg_cut_10", AP(**binary): "map"}
    names.update({RR(**binary): "recip_rank", P(**binary) @ 10: "P_10"})
    names[R(**binary) @ 100] = "recall_100"
    expected = _pytrec_eval(RUN, **pytrec_flags)  # pytrec_eval
    provider = register_ir_measures()
    for door in (provider, ir_measures.pytrec_eval):
        got = {m: {} for m in MEASURES}
        for metric in door.iter_calc(list(names), QRELS, RUN):
            got[names[metric.measure]][metric.query_id] = metric.value
        _assert_equal(got, {m: expected[m] for m in names.values()}, 1e-12, door.NAME)
    for measure in (Rprec, Bpref):
        assert ir_measures.pytrec_eval.supports(measure)
        with pytest.raises(ValueError, match=f"unsupported measure {measure}"):
            provider.calc_aggregate([measure], QRELS, RUN)


def _refusals(tmp_path, metric):
    """The error of each Python door for ``metric`` under the default gain."""
    pd = pytest.importorskip("pandas")
    label, score, qid, pool = _arrays(RUN)
    run_table, qrels_table = _rows(RUN), _rows(QRELS)
    run_frame = pd.DataFrame(dict(zip(("qid", "docno", "score"), run_table)))
    qrels_frame = pd.DataFrame(dict(zip(("qid", "docno", "relevance"), qrels_table)))
    run_path, qrels_path = _write(tmp_path, RUN)
    calls = {
        "query_scores of arrays": lambda: query_scores(
            label, score, qid=qid, pool=pool, metric=metric
        ),
        "query_scores of dicts": lambda: query_scores(QRELS, RUN, metric=metric),
        "evaluate_run of dicts": lambda: evaluate_run(RUN, QRELS, metric=metric),
        "evaluate_run of tables": lambda: evaluate_run(run_table, qrels_table, metric=metric),
        "evaluate_run of a DataFrame": lambda: evaluate_run(run_frame, qrels_frame, metric=metric),
        "evaluate_run of files": lambda: evaluate_run(run_path, qrels_path, metric=metric),
    }
    errors = {}
    for door, call in calls.items():
        with pytest.raises(ValueError) as error:
            call()
        errors[door] = str(error.value)
    return errors


@pytest.mark.parametrize("metric", ["ndcg_cut_10", MEASURES])
def test_negative_levels_one_refusal(tmp_path, metric):
    """NDCG with the built-in gain refuses the negative level at every Python door with
    one message (after the argument, which each door names as its caller wrote it),
    naming the query id and positive_part_gain; with positive_part_gain the values are
    RelevanceEvaluator's (test_python_doors_equal_pytrec_eval)."""
    errors = _refusals(tmp_path, metric)
    argument = {door: message.split(" has negative")[0] for door, message in errors.items()}
    assert set(argument.values()) == {"the pool's y_true", "y_true", "qrels"}, argument
    tails = {message.split(" has negative")[1] for message in errors.values()}
    assert len(tails) == 1, errors
    (tail,) = tails
    assert "of query 'q1'" in tail and "gain=positive_part_gain" in tail


def test_negative_levels_binary_measures(tmp_path):
    """The measures of binary relevance read a negative level as not relevant under any
    gain: the default gain gives pytrec_eval's values at every Python door."""
    binary = ["map", "recip_rank", "P_10", "recall_100", "Rprec", "bpref", "num_rel_ret"]
    expected = {m: v for m, v in _pytrec_eval(RUN).items() if m in binary}  # pytrec_eval
    doors = _python_doors(tmp_path, RUN, metric=binary, ties="docno")
    for door, values in doors.items():
        _assert_equal(values, expected, 1e-12, door)


def test_gm_map_and_iprec_at_recall_at_every_door(tmp_path, capsys):
    """gm_map: per query the log of average precision floored at 1e-5 (pytrec_eval's
    values) at every door, evaluate_run's score their geometric mean (trec_eval's
    summary). iprec_at_recall: RelevanceEvaluator equals pytrec_eval (which bundles
    trec_eval 9: recall cutoffs ``fraction * R + 0.9`` rounded down); query_scores and
    evaluate_run equal the trec-eval command's -q lines (trec_eval 10.0's lround, the
    binary's byte for byte: tests/cli/test_trec_eval_measures.py), but on an empty
    ranking (pytrec_eval's 0 / 0 where a level asks for no document)."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    measures = {"gm_map", "iprec_at_recall"}
    reference = pytrec_eval.RelevanceEvaluator(QRELS, measures).evaluate(RUN)
    evaluator = RelevanceEvaluator(QRELS, measures).evaluate(RUN)
    assert evaluator.keys() == reference.keys()
    for qid, values in reference.items():
        assert evaluator[qid] == pytest.approx(values, abs=1e-12, nan_ok=True), qid
    expected = {"gm_map": {qid: values["gm_map"] for qid, values in reference.items()}}
    names = ["gm_map", "iprec_at_recall_0.20", "iprec_at_recall_0.50"]
    run_path, qrels_path = _write(tmp_path, RUN)
    assert (
        main(["trec-eval", "-q", "-c", "-m", "iprec_at_recall.0.2,0.5", qrels_path, run_path]) == 0
    )
    command: dict[str, dict[str, float]] = {}
    for line in capsys.readouterr().out.splitlines():
        name, qid, value = line.split("\t")
        command.setdefault(name.strip(), {})[qid] = float(value)
    for door in (query_scores, evaluate_run):
        first, second = (QRELS, RUN) if door is query_scores else (RUN, QRELS)
        results = door(first, second, metric=names, **TREC)
        got = _of_results(results)
        _assert_equal({"gm_map": got["gm_map"]}, {"gm_map": expected["gm_map"]}, 1e-12, door)
        for name in names[1:]:
            for qid, value in got[name].items():
                if np.isnan(value):  # q2's empty ranking retrieved nothing: 0 / 0, as
                    # pytrec_eval; the command's -c scores trec_eval's stand-in, 0
                    assert (qid, command[name][qid]) == ("q2", 0.0), (door, name)
                else:
                    assert round(value, 4) == command[name][qid], (door, name, qid)
        if door is evaluate_run:  # the geometric mean, as trec_eval's gm_map line
            logs = list(expected["gm_map"].values())
            assert results["gm_map"].score == pytest.approx(np.exp(np.mean(logs)), rel=1e-12)


def test_default_ties_are_said(tmp_path):
    """query_scores and evaluate_run average over tie orders by default and say so
    (``.ties``), at every door; they say "docno" when asked for it ("first" for arrays,
    given in trec_eval's order); their default values equal
    RelevanceEvaluator(ties="average"), and differ from trec_eval's order on the ties
    of q4 (so the rule is visible in the numbers)."""
    default = _python_results(tmp_path, RUN, gain=positive_part_gain)
    docno = _python_results(tmp_path, RUN, **TREC)
    average = _of_evaluator(RelevanceEvaluator(QRELS, MEASURES, ties="average").evaluate(RUN))
    for door, results in default.items():
        _assert_equal(_of_results(results), average, 1e-12, door)
    reference = _pytrec_eval(RUN)  # pytrec_eval: trec_eval's order
    assert not math.isclose(average["map"]["q4"], reference["map"]["q4"])
    said = {
        (door, name, rule): getattr(result, "per_query", result).ties
        for rule, doors in (("average", default), ("docno", docno))
        for door, results in doors.items()
        for name, result in results.items()
    }
    wrong = {}
    for (door, name, rule), ties in said.items():
        if door == "query_scores of arrays" and rule == "docno":
            rule = "first"
        if ties != rule:
            wrong[door, name, rule] = ties
    assert not wrong


# scores that differ in float64 and tie in float32 (1.00000001 rounds to 1.0): pytrec_eval
# stores them as float32 and orders them by decreasing document id
QRELS32 = {"q1": {"a": 0, "b": 1}, "q2": {"a": 1, "b": 0, "c": 1}}
RUN32 = {"q1": {"a": 1.00000001, "b": 1.0}, "q2": {"a": 0.50000001, "b": 0.5, "c": 0.2}}


def test_float32_option_equals_pytrec_eval(tmp_path):
    """RelevanceEvaluator(score_dtype="float32") equals pytrec_eval on scores that only
    float32 ties; every other door ranks the float64 scores, as the trec_eval binary
    does, and gives the values of pytrec_eval on scores without those ties."""
    assert np.float32(1.00000001) == np.float32(1.0) and 1.00000001 != 1.0
    measures = ["ndcg_cut_10", "map", "recip_rank", "P_10"]
    expected = _pytrec_eval(RUN32, QRELS32, measures)  # pytrec_eval: float32 ties
    # tied in float32, b (q1: relevant, q2: not) ranks first, by decreasing docno
    assert expected["recip_rank"] == {"q1": 1.0, "q2": 0.5}
    evaluator = RelevanceEvaluator(QRELS32, measures, score_dtype="float32")
    _assert_equal(_of_evaluator(evaluator.evaluate(RUN32), measures), expected, 1e-12, "float32")
    # the float64 order: pytrec_eval on the same order with scores far apart
    apart = {"q1": {"a": 2.0, "b": 1.0}, "q2": {"a": 0.6, "b": 0.5, "c": 0.2}}
    doubles = _pytrec_eval(apart, QRELS32, measures)  # pytrec_eval, no ties
    assert doubles["recip_rank"] == {"q1": 0.5, "q2": 1.0}
    default = RelevanceEvaluator(QRELS32, measures).evaluate(RUN32)
    _assert_equal(_of_evaluator(default, measures), doubles, 1e-12, "RelevanceEvaluator")
    for door, results in (
        ("query_scores of dicts", query_scores(QRELS32, RUN32, metric=measures, **TREC)),
        ("evaluate_run of dicts", evaluate_run(RUN32, QRELS32, metric=measures, **TREC)),
    ):
        _assert_equal(_of_results(results), doubles, 1e-12, door)
    provider = register_ir_measures() if find_spec("ir_measures") else None
    if provider is not None:
        from ir_measures import RR

        got = {m.query_id: m.value for m in provider.iter_calc([RR], QRELS32, RUN32)}
        assert got == doubles["recip_rank"]  # float64, not ir_measures' pytrec_eval provider
    binary = trec_eval_binary()
    if binary is not None:
        run_path, qrels_path = _write(tmp_path, RUN32, QRELS32)
        argv = [str(binary), "-q", "-m", "recip_rank", qrels_path, run_path]
        real = subprocess.run(argv, capture_output=True, text=True, check=True).stdout
        lines = [line.split("\t") for line in real.splitlines()]
        values = {qid.strip(): float(value) for _, qid, value in lines if qid.strip() != "all"}
        assert values == doubles["recip_rank"]  # the binary ranks doubles
