"""Whitespace-separated text files (TREC runs and qrels) read in bounded chunks.

Each chunk ends at a newline (the rest of the file is carried to the next one) and is
tokenized with numpy on its bytes, with no Python work per line: fields are separated by
C's ``isspace`` bytes (space, ``\\t``, ``\\n``, ``\\v``, ``\\f``, ``\\r``), lines by
``\\n``, and a line whose first field starts with ``#`` is a comment. Ids come out as
fixed-width bytes (numpy ``S``); numbers are parsed by a vectorized exact parser where
they are plain decimals of at most 15 digits, and by Python's own rules otherwise, so
that every token is accepted or refused exactly as ``float`` (scores, ``1_000``
refused) or ``[+-]?[0-9]+`` (relevance levels) decide.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

import numpy as np

CHUNK_SIZE = 4 << 20  # bytes read at a time; tests pass tiny ones
# Scores are parsed by pyarrow only in files of at least this size (where installed).
# Measured (benchmarks/RESULTS.md, issue 33): its parser saves about 0.025 s per million
# scores in process (0.51 against 0.57 s for a 66 MB run), importing it costs 0.05-0.1 s
# and some 25 MB, and end to end the command was slower with it at every size measured
# (5M lines, 166 MB: 3.09 against 2.72 s, 297 against 223 MB). So it is kept for files
# beyond those sizes. Tests set it to 0 to run the pyarrow path on small files.
ARROW_MIN_BYTES = 1 << 30
_BOM = b"\xef\xbb\xbf"  # the UTF-8 byte-order mark
_INTEGER = re.compile(rb"[+-]?[0-9]+")
_MAX_DIGITS = 15  # below 2**53: the mantissa and 10**frac are exact doubles
_POWERS = 10.0 ** np.arange(_MAX_DIGITS + 1)
_SPACE, _HASH, _MINUS, _PLUS, _DOT, _ZERO = map(ord, " #-+.0")


class Layout(NamedTuple):
    """What a file's lines hold: the layout named in messages, the id fields and the
    number field to keep (0-based), the number's name and kind, and whether lines may
    hold more fields than the layout names."""

    text: str
    ids: tuple[int, ...]
    number: int
    number_name: str
    integer: bool
    extra_fields: bool
    integral_decimals: bool = False  # integer: also "1.0", "2.00" (as trec_eval's atol)


RUN = Layout("qid Q0 docno rank score run_id", (0, 2, 5), 4, "score", False, True)
# levels written 1.0 / 0.0 read as the integers they are (trec_eval reads them with atol)
QRELS = Layout("qid iter docno rel", (0, 2), 3, "relevance", True, False, True)
# sample_eval.pl's qrels of a stratified sampled pool (rel -1: pooled, not sampled)
SAMPLED_QRELS = Layout("qid iter docno stratum rel", (0, 2, 3), 4, "relevance", True, False)


def _swapped(layout: Layout, n_fields: int) -> str:
    """The hint of a qrels line read as a run's, or a run line read as a qrels'."""
    other = {QRELS.text: RUN, RUN.text: QRELS}.get(layout.text)
    if other is None or n_fields != len(other.text.split()):
        return ""
    names = {RUN.text: "run", QRELS.text: "qrels"}
    return (
        f" (a {names[other.text]} line, '{other.text}': are the qrels and the run swapped? "
        "trec_eval and the trec-eval command take QRELS first, then RUN)"
    )


def _refuse_padded_levels(matrix, lengths, lines, problems) -> None:
    """A level written with a leading zero (``02``) in sampled qrels: sample_eval.pl keys
    grades by their text, so ``02`` and ``2`` are two grades to it (ordered as text in its
    ideal DCG); neither its value nor the number's would be the other's."""
    sign = np.isin(matrix[:, 0], (_MINUS, _PLUS)).astype(np.intp)
    padded = (matrix[np.arange(matrix.shape[0]), sign] == _ZERO) & (lengths - sign > 1)
    if padded.any():
        row = int(np.argmax(padded))
        text = bytes(matrix[row, : lengths[row]]).decode(errors="replace")
        problems.append(
            (
                lines[row],
                f"the relevance {text!r} has a leading zero, which sample_eval.pl reads as "
                f"a grade of its own (not {int(text)}: it keys grades by their text); "
                f"write {int(text)}",
            )
        )


def malformed(path, number: int, problem: str, layout: str) -> ValueError:
    return ValueError(f"{os.fspath(path)}, line {number}: {problem}; expected '{layout}'.")


_PAD = 64  # zero bytes after each buffer, so that 8-byte reads never run past it
_KEEP = np.array([(2**64 - 1) ^ (2 ** (8 * (8 - n)) - 1) for n in range(9)], dtype=np.uint64)


def _buffers(path, chunk_size: int):
    """The file in chunks: uint8 arrays that end with a newline and zero padding."""
    carry = b""
    first = True
    with open(path, "rb") as file:
        while True:
            block = file.read(chunk_size)
            data = carry + block if carry else block
            del block
            if len(data) > len(carry):
                cut = data.rfind(b"\n") + 1
                if cut == 0:  # no line ends in it yet: read on
                    carry = data
                    continue
            elif data:  # the last line has no newline
                data, cut = data + b"\n", len(data) + 1
            else:
                return
            start = 3 if first and data.startswith(_BOM) else 0  # editors on Windows add one
            first = False
            size = cut - start
            buffer = np.empty(size + _PAD, dtype=np.uint8)
            buffer[:size] = np.frombuffer(data, dtype=np.uint8, count=size, offset=start)
            buffer[size:] = 0
            carry = data[cut:]
            del data
            yield buffer


def _tokens(buffer: np.ndarray, n_fields: int) -> tuple[np.ndarray, ...]:
    """Start and end of each token of a buffer, and per line its first token and number
    of tokens; ``n_fields``: the usual number, checked first."""
    newline = buffer == ord("\n")
    space = newline | (buffer == _SPACE) | ((buffer - np.uint8(9)) <= 4)  # \t \v \f \r
    space[-_PAD:] = True  # the padding separates too
    edges = np.flatnonzero(np.diff(space.view(np.int8), prepend=np.int8(1)))
    del space
    starts, ends = edges[0::2], edges[1::2]  # the buffer ends with blanks
    line_ends = np.flatnonzero(newline)
    if starts.shape[0] == n_fields * line_ends.shape[0]:  # n_fields on every line?
        first = np.arange(0, starts.shape[0], n_fields)
        after_previous = starts[first] > np.r_[-1, line_ends[:-1]]
        if after_previous.all() and (ends[first + n_fields - 1] <= line_ends).all():
            return starts, ends, first, np.full(line_ends.shape[0], n_fields)
    before = np.searchsorted(starts, line_ends)  # tokens before each line end
    counts = np.diff(before, prepend=0)
    return starts, ends, before - counts, counts


def _column(buffer: np.ndarray, starts: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """The tokens as rows of big-endian uint64 words of their bytes, zero-padded."""
    lengths = ends - starts
    n_words = max(1, -(-int(lengths.max(initial=1)) // 8))
    last = buffer.shape[0] - 8  # the last byte an 8-byte read may start at
    window = np.ndarray((last + 1,), dtype=">u8", buffer=buffer.data, strides=(1,))
    out = np.empty((starts.shape[0], n_words), dtype=">u8")
    for i in range(n_words):
        at = starts if i == 0 else np.minimum(starts + 8 * i, last)
        out[:, i] = window[at] & _KEEP[np.clip(lengths - 8 * i, 0, 8)]
    return out


def _as_bytes(words: np.ndarray) -> np.ndarray:
    """Rows of big-endian words as numpy bytes (``S``)."""
    return words.view(f"S{8 * words.shape[1]}").reshape(-1)


_CLASS = np.full(256, 8, dtype=np.uint8)  # 1 digit, 2 dot, 4 sign, 8 other, 0 padding
_CLASS[_ZERO : _ZERO + 10], _CLASS[_DOT], _CLASS[[_PLUS, _MINUS]], _CLASS[0] = 1, 2, 4, 0


_ONES = np.uint64(0x0101010101010101)


def _byte_sums(flags: np.ndarray) -> np.ndarray:
    """Sum of the bytes of each uint64 (each byte 0 or 1): one multiply."""
    return ((flags * _ONES) >> np.uint64(56)).astype(np.int64)


def _plain(matrix: np.ndarray, lengths: np.ndarray, integer: bool) -> np.ndarray:
    """Which tokens are plain decimals: ``[+-]?digits[.digits]`` (no dot when
    ``integer``) with 1 to 15 digits, which both parsers read exactly.

    The class of each byte is one bit (:data:`_CLASS`), so eight bytes are counted
    at once in a uint64 word."""
    kind = _CLASS[matrix]
    digits: np.ndarray | int = 0  # counts of each token's bytes of each class
    dots: np.ndarray | int = 0
    signs: np.ndarray | int = 0
    filled: np.ndarray | int = 0
    other = np.zeros(matrix.shape[0], dtype=bool)
    for word in kind.view(np.uint64).T:  # one word per 8 bytes of each token
        digits = digits + _byte_sums(word & _ONES)
        dots = dots + _byte_sums((word >> np.uint64(1)) & _ONES)
        signs = signs + _byte_sums((word >> np.uint64(2)) & _ONES)
        other |= (word & (_ONES << np.uint64(3))) != 0
        any_bit = word | (word >> np.uint64(1)) | (word >> np.uint64(2)) | (word >> np.uint64(3))
        filled = filled + _byte_sums(any_bit & _ONES)
    plain = (digits >= 1) & (digits <= _MAX_DIGITS) & ~other
    plain &= dots <= (0 if integer else 1)
    plain &= signs == (kind[:, 0] == 4)  # a sign first, if any
    plain &= filled == lengths  # no NUL byte inside
    return plain


def _decimals(matrix: np.ndarray) -> np.ndarray:
    """Values of plain decimals, with numpy: the digits as an integer (exact below
    2**53) over a power of ten (exact to 10**22), so one rounding, as ``float``."""
    n_rows, width = matrix.shape
    mantissa = np.zeros(n_rows)
    fraction = np.zeros(n_rows, dtype=np.int64)
    dot = np.zeros(n_rows, dtype=bool)
    for j in range(width):
        column = matrix[:, j]
        digit = column - np.uint8(_ZERO)
        is_digit = digit <= 9
        mantissa = np.where(is_digit, mantissa * 10 + digit, mantissa)
        fraction += is_digit & dot
        dot |= column == _DOT
    value = mantissa / _POWERS[np.minimum(fraction, _MAX_DIGITS)]
    return np.negative(value, out=value, where=matrix[:, 0] == _MINUS)


def _arrow_decimals(matrix: np.ndarray, lengths: np.ndarray, pa, pc) -> np.ndarray:
    """Values of plain decimals, with pyarrow's parser (correctly rounded, as
    ``float``): the tokens packed into one string array, then cast."""
    offsets = np.zeros(matrix.shape[0] + 1, dtype=np.int32)
    np.cumsum(lengths, out=offsets[1:])
    data = matrix[matrix != 0]  # the bytes of each token in turn
    strings = pa.StringArray.from_buffers(
        matrix.shape[0], pa.py_buffer(offsets), pa.py_buffer(data)
    )
    values = pc.cast(strings, pa.float64())  # no nulls: a bad token raises
    # the values buffer as is: to_numpy() would import pandas
    return np.frombuffer(
        values.buffers()[1], dtype=np.float64, count=len(values), offset=8 * values.offset
    ).copy()


def _pyarrow():
    """(pyarrow, pyarrow.compute), the fast path of the score parser; None when not
    installed or when the private switch SKLEARN_NDCG_NUMPY_ONLY is set (for the
    benchmark and the tests of the numpy path)."""
    if os.environ.get("SKLEARN_NDCG_NUMPY_ONLY"):
        return None
    try:
        import pyarrow as pa
        import pyarrow.compute as pc
    except ImportError:
        return None
    return pa, pc


def _numbers(matrix: np.ndarray, lengths: np.ndarray, integer: bool, arrow):
    """Values of the tokens that are plain decimals (see :func:`_plain`), and which
    are; scores by pyarrow when ``arrow`` holds it (:func:`_pyarrow`), else (and
    relevance levels) by numpy."""
    plain = _plain(matrix, lengths, integer)
    arrow = None if integer else arrow
    if arrow is None:
        value = _decimals(matrix)
    elif plain.all():
        value = _arrow_decimals(matrix, lengths, *arrow)
    else:
        value = np.zeros(matrix.shape[0])
        value[plain] = _arrow_decimals(matrix[plain], lengths[plain], *arrow)
    if integer:
        value += 0.0  # "-0" is the integer 0, as int() reads it; a score -0.0, as float()
    return value, plain


_INTEGRAL = re.compile(rb"([+-]?[0-9]+)\.0*")


def _python_number(token: bytes, integer: bool, integral_decimals: bool = False) -> float | None:
    """The number of a token by Python's rules (None: refused); with
    ``integral_decimals``, an integer may be written with zero decimals (``1.0``)."""
    if integer:
        if _INTEGER.fullmatch(token):
            return float(int(token))
        match = _INTEGRAL.fullmatch(token) if integral_decimals else None
        return None if match is None else float(int(match[1]))
    if b"_" in token:  # 1_000: Python's spelling, no number for C's atof
        return None
    try:
        return float(token)
    except ValueError:
        return None


class Columns(NamedTuple):
    """The id fields of a file (numpy bytes, one array per field) and its numbers."""

    ids: list[np.ndarray]
    number: np.ndarray


def iter_columns(path: str | os.PathLike, layout: Layout, *, chunk_size: int | None = None):
    """The id fields and the number field of the data lines of a file, one
    :class:`Columns` per chunk of the file, in file order.

    Raises ValueError naming the file and the 1-based line of the first line with
    too few (or, without ``extra_fields``, too many) fields or a bad number.
    """
    chunk_size = CHUNK_SIZE if chunk_size is None else chunk_size
    n_fields = len(layout.text.split())
    large = not layout.integer and os.stat(path).st_size >= ARROW_MIN_BYTES
    arrow = _pyarrow() if large else None
    lines_before = 0
    for buffer in _buffers(path, chunk_size):
        starts, ends, first, counts = _tokens(buffer, n_fields)
        n_lines = counts.shape[0]
        lines = np.flatnonzero(counts)  # not blank
        first, counts = first[lines], counts[lines]
        data = buffer[starts[first]] != _HASH  # not a comment
        lines, first, counts = lines[data], first[data], counts[data]
        wrong = (counts < n_fields) if layout.extra_fields else (counts != n_fields)
        problems = []  # (line index, message)
        if wrong.any():
            i = int(np.argmax(wrong))
            problems.append((lines[i], f"{counts[i]} fields{_swapped(layout, counts[i])}"))
            lines, first = lines[:i], first[:i]  # nothing after it matters
        token = first + layout.number
        words = _column(buffer, starts[token], ends[token])
        matrix = words.view(np.uint8).reshape(words.shape[0], 8 * words.shape[1])
        lengths = ends[token] - starts[token]
        value, plain = _numbers(matrix, lengths, layout.integer, arrow)
        if layout is SAMPLED_QRELS:
            _refuse_padded_levels(matrix, lengths, lines, problems)
        for row in np.flatnonzero(~plain).tolist():
            raw = bytes(matrix[row, : lengths[row]])
            number = _python_number(raw, layout.integer, layout.integral_decimals)
            if number is None:
                kind = "an integer" if layout.integer else "a number"
                text = raw.decode(errors="replace")
                hint = ""
                if layout.integral_decimals and _python_number(raw, False) is not None:
                    hint = (
                        " (trec_eval would truncate it); float judgments are read by "
                        'read_trec_qrels(path, relevance="float")'
                    )
                problem = f"the {layout.number_name} {text!r} is not {kind}{hint}"
                problems.append((lines[row], problem))
                break
            value[row] = number
        if problems:
            index, problem = min(problems)
            raise malformed(path, lines_before + int(index) + 1, problem, layout.text)
        lines_before += n_lines
        ids = [
            _as_bytes(_column(buffer, starts[first + field], ends[first + field]))
            for field in layout.ids
        ]
        del buffer, starts, ends
        yield Columns(ids, value)


def read_columns(
    path: str | os.PathLike, layout: Layout, *, chunk_size: int | None = None
) -> Columns:
    """The id fields and the number field of every data line of a file (see
    :func:`iter_columns`)."""
    parts = list(iter_columns(path, layout, chunk_size=chunk_size))
    if not parts:
        return Columns([np.empty(0, "S1") for _ in layout.ids], np.empty(0))
    return Columns(
        [np.concatenate([part.ids[i] for part in parts]) for i in range(len(layout.ids))],
        np.concatenate([part.number for part in parts]),
    )


def runs(ids: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where each run of equal ids starts, and its length."""
    starts = np.flatnonzero(np.r_[True, ids[1:] != ids[:-1]])[: ids.shape[0]]
    return starts, np.diff(np.r_[starts, ids.shape[0]])


def decoded(ids: np.ndarray) -> np.ndarray:
    """Ids read as bytes, as an object array of str (UTF-8; other bytes kept by
    surrogateescape); one str for each run of equal ids (a query id is one object,
    however many lines it has)."""
    starts, lengths = runs(ids)
    array = np.empty(starts.shape[0], dtype=object)
    array[:] = [token.decode("utf-8", "surrogateescape") for token in ids[starts].tolist()]
    return array if starts.shape[0] == ids.shape[0] else np.repeat(array, lengths)
