"""The chunked TREC tokenizer against a plain per-line reader, on tricky tokens,
random files and every chunk boundary, with either score parser (numpy's, or
pyarrow's, the fast path).

The reference, ``_per_line``, is the per-line reader the package used before the
chunked one (bytes split on newlines, then on C's whitespace, numbers by Python's
``float`` and ``int``): the new reader must accept, refuse and read exactly as it did.
"""

import math
import re

import numpy as np
import pytest

from sklearn_ndcg._ir import _read
from sklearn_ndcg._ir._read import QRELS, RUN, read_columns

_INTEGER = re.compile(rb"[+-]?[0-9]+")


@pytest.fixture(autouse=True, params=["numpy", "pyarrow"])
def score_parser(request, monkeypatch):
    """Every test on both score parsers: numpy's, and pyarrow's where installed."""
    if request.param == "numpy":
        monkeypatch.setenv("SKLEARN_NDCG_NUMPY_ONLY", "1")
    else:
        pytest.importorskip("pyarrow", reason="pyarrow (the trec extra) is not installed")
        monkeypatch.delenv("SKLEARN_NDCG_NUMPY_ONLY", raising=False)
        monkeypatch.setattr(_read, "ARROW_MIN_BYTES", 0)  # pyarrow on small files too
    return request.param


def _is_float(token: bytes) -> bool:
    try:
        float(token)
    except ValueError:
        return False
    return b"_" not in token


def _per_line(path, layout):
    """The old reader: (ids per field, numbers), or the ValueError it raised."""
    n_fields = len(layout.text.split())
    data = path.read_bytes().removeprefix(b"\xef\xbb\xbf")
    ids, numbers = [[] for _ in layout.ids], []
    for number, line in enumerate(data.split(b"\n"), start=1):
        fields = line.split()
        if not fields or fields[0].startswith(b"#"):
            continue
        where = f"{path}, line {number}: "
        if len(fields) < n_fields or (not layout.extra_fields and len(fields) > n_fields):
            return ValueError(f"{where}{len(fields)} fields; expected '{layout.text}'.")
        token = fields[layout.number]
        shown = token.decode(errors="replace")
        if layout.integer:
            # qrels: also integers written with zero decimals ("1.0"), as trec_eval's atol
            integral = re.fullmatch(rb"([+-]?[0-9]+)\.0*", token)
            if _INTEGER.fullmatch(token):
                value = float(int(token))
            elif layout.integral_decimals and integral:
                value = float(int(integral[1]))
            else:
                problem = f"the relevance {shown!r} is not an integer"
                if layout.integral_decimals and _is_float(token):
                    problem += (
                        " (trec_eval would truncate it); float judgments are read by "
                        'read_trec_qrels(path, relevance="float")'
                    )
                return ValueError(f"{where}{problem}; expected '{layout.text}'.")
        else:
            try:
                if b"_" in token:
                    raise ValueError
                value = float(token)
            except ValueError:
                problem = f"the score {shown!r} is not a number"
                return ValueError(f"{where}{problem}; expected '{layout.text}'.")
        numbers.append(value)
        for field, column in zip(layout.ids, ids):
            column.append(fields[field])
    return ids, np.array(numbers, dtype=np.float64)


def _same(path, layout, chunk_size=None):
    """The chunked reader reads (or refuses) the file exactly as the per-line one."""
    expected = _per_line(path, layout)
    if isinstance(expected, ValueError):
        with pytest.raises(ValueError) as error:
            read_columns(path, layout, chunk_size=chunk_size)
        assert str(error.value) == str(expected)
        return
    got = read_columns(path, layout, chunk_size=chunk_size)
    assert [column.tolist() for column in got.ids] == expected[0]
    assert got.number.dtype == np.float64
    # bit for bit: the sign of zero, NaN and the last bit of every value
    np.testing.assert_array_equal(got.number.view(np.int64), expected[1].view(np.int64))


SCORES = [
    "1", "-1", "+1", "1.5", ".5", "5.", "-.5", "+.5", ".", "-", "+", "-0", "-0.0", "+0",
    "1e5", "1E-5", "1e", "e5", "1e+", "inf", "-inf", "+Infinity", "nan", "NaN", "-nan",
    "1_000", "1_0.5", "0x10", "1x", "1.2.3", "--1", "+-1", "1-", "00001",
    "123456789012345", "1234567890123456", "12345678901234567890", ".000000000000001",
    "0.1234567890123456789", "999999999999999.9", "1e400", "1e-400", "1d5", "\u0661",
    "\u0661.5", "\u2167", "1,5", "0.30000000000000004", "2.2250738585072014e-308",
    "9007199254740993", "12345.678901234", "-98765.43210987", "1\x002", "12\x00",
]  # fmt: skip
LEVELS = [
    "0", "1", "-1", "+2", "-0", "00", "007", "1.5", "1.0", "1.", "x", "1e2", "1_0", "2.00",
    "-1.0", "+1.000", "1.01", "0.5", "-0.0", ".0", "1..0", "1.0.0",
    "99999999999999999999", "-123456789012345", "1234567890123456", "\u0661", "+", "-",
]  # fmt: skip


@pytest.mark.parametrize("token", SCORES)
def test_score_tokens_as_the_per_line_reader(tmp_path, token):
    path = tmp_path / "run"
    path.write_bytes(f"q1 Q0 d0 1 2.5 r\nq1 Q0 d1 2 {token} r\n".encode())
    _same(path, RUN)


@pytest.mark.parametrize("token", LEVELS)
def test_relevance_tokens_as_the_per_line_reader(tmp_path, token):
    path = tmp_path / "qrels"
    path.write_bytes(f"q1 0 d0 1\n\nq1 0 d1 {token}\n".encode())
    _same(path, QRELS)


def test_plain_decimals_are_read_as_float_reads_them(tmp_path):
    """Many random decimals of up to 15 digits, the exact fast path: bit for bit."""
    rng = np.random.default_rng(0)
    values = rng.normal(0, 10.0 ** rng.integers(-6, 9, 5000))
    tokens = [f"{value:.{int(d)}f}" for value, d in zip(values, rng.integers(0, 12, 5000))]
    path = tmp_path / "run"
    path.write_text("".join(f"q Q0 d{i} {i} {t} r\n" for i, t in enumerate(tokens)))
    _same(path, RUN)
    assert read_columns(path, RUN).number.tolist() == [float(t) for t in tokens]


def _random_file(rng, layout, n_lines):
    """Lines of random fields, with tabs, runs of blanks, CRLF, comments, blank lines."""
    blanks = [" ", "\t", "  ", " \t ", "\v", "\f"]
    lines = []
    for i in range(n_lines):
        kind = rng.integers(0, 12)
        if kind == 0:
            lines.append(rng.choice(["", "   ", "\t", "\r"]))
            continue
        if kind == 1:
            lines.append(rng.choice(["# comment", "  #x y z", "#"]))
            continue
        qid = f"q{rng.integers(0, 7)}" if rng.random() < 0.9 else "\u00e9t\u00e9"
        number = (
            str(rng.integers(-1, 4))
            if layout.integer
            else str(rng.choice(["1.25", "-3", "7e-3", "inf", ".5", f"{rng.random():.6f}"]))
        )
        fields = [qid, "Q0" if not layout.integer else "0", f"doc-{i}-{'x' * rng.integers(0, 20)}"]
        fields += [str(i), number, "run"] if not layout.integer else [number]
        if not layout.integer and rng.random() < 0.2:
            fields.append("extra fields")
        line = "".join(f + str(rng.choice(blanks)) for f in fields[:-1]) + fields[-1]
        lines.append(str(rng.choice(["", " ", "\t"])) + line + str(rng.choice(["", "\r", " "])))
    return ("\n".join(lines) + str(rng.choice(["", "\n", "\r\n"]))).encode()


@pytest.mark.parametrize("layout", [RUN, QRELS], ids=["run", "qrels"])
@pytest.mark.parametrize("seed", range(3))
def test_random_files_at_every_chunk_size(tmp_path, layout, seed):
    rng = np.random.default_rng(seed)
    path = tmp_path / "file"
    path.write_bytes((b"\xef\xbb\xbf" if seed == 1 else b"") + _random_file(rng, layout, 300))
    for chunk_size in (1, 2, 3, 7, 64, 1000, None):
        _same(path, layout, chunk_size)


def test_line_split_across_two_chunks(tmp_path):
    text = b"q1 Q0 d1 1 2.5 r\nq1 Q0 d2 2 1.5 r\nq2 Q0 d3 1 0.5 r\n"
    path = tmp_path / "run"
    path.write_bytes(text)
    for cut in range(1, len(text)):  # every byte as the end of the first chunk
        got = read_columns(path, RUN, chunk_size=cut)
        assert got.ids[0].tolist() == [b"q1", b"q1", b"q2"]
        assert got.ids[1].tolist() == [b"d1", b"d2", b"d3"]
        assert got.number.tolist() == [2.5, 1.5, 0.5]


def test_query_split_across_two_chunks(tmp_path):
    """A query's lines in several chunks keep their order and their query."""
    lines = [f"q{i // 50} Q0 d{i} {i} {1000 - i}.5 r\n" for i in range(200)]
    path = tmp_path / "run"
    path.write_text("".join(lines))
    got = read_columns(path, RUN, chunk_size=700)  # about 25 lines a chunk
    assert got.ids[0].tolist() == [f"q{i // 50}".encode() for i in range(200)]
    assert got.number.tolist() == [1000 - i + 0.5 for i in range(200)]


@pytest.mark.parametrize("chunk_size", [1, 2, 3, 4, 5, 17, 18, 19])
def test_crlf_and_byte_order_mark_split_between_chunks(tmp_path, chunk_size):
    path = tmp_path / "qrels"
    path.write_bytes(b"\xef\xbb\xbf1 0 d1 2\r\n1 0 d2 -1\r\n")
    got = read_columns(path, QRELS, chunk_size=chunk_size)
    assert got.ids[0].tolist() == [b"1", b"1"]
    assert got.ids[1].tolist() == [b"d1", b"d2"]
    assert got.number.tolist() == [2.0, -1.0]


@pytest.mark.parametrize("chunk_size", [1, 5, 40, None])
def test_error_line_number_counts_every_chunk(tmp_path, chunk_size):
    path = tmp_path / "run"
    path.write_bytes(b"# c\nq1 Q0 d1 1 2.5 r\n\nq1 Q0 d2 2 1.5 r\nq1 Q0 d3 3 1x r\nq1 Q0\n")
    with pytest.raises(ValueError, match=r"run, line 5: the score '1x' is not a number"):
        read_columns(path, RUN, chunk_size=chunk_size)
    path.write_bytes(b"q1 Q0 d1 1 2.5 r\n" * 30 + b"q1 Q0 d3 3\n" + b"q Q0 d 1 x r\n")
    with pytest.raises(ValueError, match=r"run, line 31: 4 fields"):
        read_columns(path, RUN, chunk_size=chunk_size)


def test_non_utf8_bytes_and_long_ids_are_kept(tmp_path):
    long_id = "d" * 37
    path = tmp_path / "run"
    path.write_bytes(b"q\xff Q0 " + long_id.encode() + b" 1 1 r\nq\xff Q0 x 2 0 r\n")
    _same(path, RUN, chunk_size=5)
    got = read_columns(path, RUN)
    assert got.ids[0].tolist() == [b"q\xff", b"q\xff"]
    assert got.ids[1].tolist() == [long_id.encode(), b"x"]
    assert math.isclose(got.number[0], 1.0)


def test_uneven_lines_with_the_usual_number_of_fields_in_all(tmp_path):
    """12 fields on 2 lines, but 7 and 5: the second line is still refused."""
    path = tmp_path / "run"
    path.write_bytes(b"q1 Q0 d1 1 2.5 r extra\nq1 Q0 d2 2 1.5\n")
    _same(path, RUN)
    with pytest.raises(ValueError, match="run, line 2: 5 fields"):
        read_columns(path, RUN)
    qrels = tmp_path / "qrels"
    qrels.write_bytes(b"q1 0 d1\n1 q1 0 d2 1\n")  # 3 and 5 fields, 4 expected
    _same(qrels, QRELS)
    with pytest.raises(ValueError, match="qrels, line 1: 3 fields"):
        read_columns(qrels, QRELS)


def test_qrels_and_run_swapped_are_named(tmp_path):
    """Issue 50: a run read as qrels said only '6 fields; expected ...'."""
    run, qrels = tmp_path / "run", tmp_path / "qrels"
    run.write_text("1 Q0 d1 1 2.5 tag\n")
    qrels.write_text("1 0 d1 1\n")
    with pytest.raises(ValueError, match=r"6 fields \(a run line.*swapped.*QRELS first"):
        list(read_columns(run, QRELS))
    with pytest.raises(ValueError, match=r"4 fields \(a qrels line.*swapped"):
        list(read_columns(qrels, RUN))
