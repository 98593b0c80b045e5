"""Reading tour files, and writing output files whole or not at all.

Tour files come in these forms, recognised by content:

* JSON: the object ``ktsolve solve --format json`` prints (its ``tour``
  and ``closed`` keys; ``ktsolve longest`` prints a ``path``), or a bare
  list of ``[row, col]`` pairs of whole numbers or of square names;
* ``.npy``: int array of square numbers (squares that are not holes,
  numbered in row-major order) or an ``(N, 2)`` array of ``(row, col)``;
* Euler's matrix, as ``ktsolve solve --format text`` prints it: step
  numbers in board layout, holes as ``##``; squares a path never visits
  as ``..`` (``ktsolve longest`` prints that);
* a list of squares: names such as ``a1 b3 c5`` (spaces, commas or new
  lines between them) or one ``row,col`` pair per line;
* several tours, one per line, each a full list of square names, as
  ``ktsolve enumerate -o FILE`` writes them.

Any of them may be gzip-compressed (recognised by its first bytes, whatever
the file's name) and may start with a UTF-8 byte-order mark; ``-`` reads
standard input.  Output is written by :mod:`ktsolve.output`.

Certificate files (:mod:`ktsolve.certificates`, what ``prove -o`` writes for
a "no") are JSON objects whose first member is ``"format":
"ktsolve-certificate"``: :func:`check_file`, the reader of ``verify``, tells
them from tours by their first bytes and reads them within their own budget
(:func:`ktsolve.certificates.certificate_budget`), through the same
:class:`~ktsolve._reading.Source`.

Budgets: a file is opened once and read front to back (a pipe works), and
never more of it is read than a tour of the board can need, counted after
gzip inflation (:class:`ktsolve._reading.Source`): a text tour 64 KiB plus
64 bytes per cell of the board, at most 1 GiB
(:func:`ktsolve._reading.tour_text_budget`); a ``.npy`` tour 64 KiB plus 16
bytes per cell, its header checked against its length before any array is
allocated.  A file of several tours one per line is streamed instead
(:func:`check_tours`, :func:`iter_tours`): each line within the text
budget, any number of lines, in constant memory.  A file past its budget,
a bomb or a device is refused with one line (:class:`TourFileError`), and
messages quote a bounded prefix of what the file held.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import re
from dataclasses import dataclass

import numpy as np

from ._reading import Source, shown, tour_text_budget
from ._tourlines import name_keys, parse_block, split_line
from .board import Board
from .errors import InvalidSquareError, InvalidTourError, TourFileError
from .output import open_output
from .tour import Tour, coords_to_squares, names_to_coords, validate, validate_many

__all__ = [
    "read_tour",
    "read_tours",
    "iter_tours",
    "check_tours",
    "TourFileCheck",
    "parse_tour_text",
    "parse_tours_text",
    "write_atomic",
    "open_atomic",
    "write_tours",
    "check_file",
]


_CHUNK = 1 << 22
_PAIR_LINE = re.compile(r"^\s*\(?\s*\d+\s*,\s*\d+\s*\)?\s*$")
_MATRIX_TOKEN = re.compile(r"^(\d+|#+|\.+)$")
_NPY_MAGIC = b"\x93NUMPY"
_UNVISITED = -1


def _small_int(digits: str) -> int:
    """``int(digits)``, or -1 (out of range of every board) for more digits than int64 holds."""
    return int(digits) if len(digits) <= 18 else -1


def _unchecked(board: Board, squares) -> Tour:
    # the validator, not the reader, names a tour's first fault
    return Tour._unchecked(board, squares, False)


def _from_json(board: Board, data) -> tuple[Tour, bool | None]:
    closed = None
    if isinstance(data, dict):
        if "closed" in data:
            if not isinstance(data["closed"], bool):
                raise TourFileError(
                    f"the JSON's 'closed' must be true or false, not {_clip(_dumps(data['closed']), 80)}")
            closed = data["closed"]
        tour = data.get("tour")
        if tour is None:
            tour = data.get("path")  # the JSON of ``ktsolve longest``
        if tour is None:
            status = f" (its status is {shown(data['status'])})" if isinstance(data.get("status"), str) else ""
            raise TourFileError(f"the JSON object has no 'tour'{status}")
        data = tour
    if not isinstance(data, list) or not data:
        raise TourFileError("the JSON tour is not a non-empty list")
    if all(isinstance(x, str) for x in data):
        return _unchecked(board, coords_to_squares(board, names_to_coords(board, data))), closed
    for k, x in enumerate(data):
        # bool is an int to Python, and "0" or 0.5 is no row: pairs of whole numbers only
        if not (isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x)):
            raise TourFileError(
                f"step {k + 1} of the JSON tour, {_clip(_dumps(x), 80)}, is neither a [row, col] pair "
                "of whole numbers nor a square name"
            )
        if not all(-(2**62) < v < 2**62 for v in x):  # int64 would overflow; no board is that large
            raise InvalidTourError(f"step {k + 1}: square {_clip(_dumps(x), 80)} is outside the "
                                   f"{board.rows}x{board.cols} board")
    return _unchecked(board, coords_to_squares(board, np.array(data, dtype=np.int64))), closed


def _dumps(x) -> str:
    try:
        return json.dumps(x)
    except (RecursionError, ValueError):  # nested thousands deep, or a number past the digit limit
        return f"a JSON {type(x).__name__}"


def _from_matrix(board: Board, lines: list[list[str]]) -> Tour:
    if len(lines) != board.rows:
        raise TourFileError(
            f"the matrix has {len(lines)} row{'s' if len(lines) != 1 else ''}, the board {board.rows}"
        )
    for r, toks in enumerate(lines):
        if len(toks) != board.cols:
            raise TourFileError(f"row {r + 1} of the matrix has {len(toks)} cells, the board {board.cols} columns")
    mat = np.zeros((board.rows, board.cols), dtype=np.int64)
    partial = False
    for r, toks in enumerate(lines):
        for c, tok in enumerate(toks):
            if tok.startswith("#"):
                if board.mask[r, c]:
                    raise InvalidTourError(f"the matrix marks {board.name(r, c)} as a hole, but it is a square")
            elif not board.mask[r, c]:
                raise InvalidTourError(f"the matrix numbers {board.name(r, c)}, which is a hole")
            elif tok.startswith("."):
                mat[r, c] = _UNVISITED
                partial = True
            else:
                mat[r, c] = _small_int(tok)  # a 60-digit step is out of range, not an overflow
    steps = mat[board.mask]
    return _path_from_steps(board, steps) if partial else _tour_from_steps(board, steps)


def _path_from_steps(board: Board, steps: np.ndarray) -> Tour:
    """The path whose square ``i`` is visited at step ``steps[i]`` (1-based), -1 for squares not visited."""
    visited = np.flatnonzero(steps != _UNVISITED)
    vals = steps[visited]
    k = visited.size
    if k == 0:
        raise InvalidTourError("the matrix visits no square")
    bad = np.flatnonzero((vals < 1) | (vals > k))
    if bad.size:
        r, c = board.coords_of(visited[bad[:1]])[0]
        raise InvalidTourError(
            f"the matrix gives {board.name(int(r), int(c))} step {int(vals[bad[0]])}, but a path "
            f"of {k} squares has steps 1..{k}"
        )
    order = np.full(k, -1, dtype=np.int64)
    order[vals - 1] = visited
    missing = np.flatnonzero(order < 0)
    if missing.size:
        raise InvalidTourError(f"the matrix has no step {int(missing[0]) + 1}: step numbers must be 1..{k}")
    return _unchecked(board, order)


def _tour_from_steps(board: Board, steps: np.ndarray) -> Tour:
    """The tour whose square ``i`` is visited at step ``steps[i]`` (1-based); O(n), no sorting."""
    n = board.n_squares
    order = np.full(n, -1, dtype=np.int32)
    for lo in range(0, steps.size, _CHUNK):  # in chunks: no int64 copy of 10^8 steps
        part = steps[lo : lo + _CHUNK]
        idx = np.arange(lo, lo + part.size, dtype=np.int32)
        ok = (part >= 1) & (part <= n)
        if ok.all():
            order[part - 1] = idx
        else:
            order[part[ok] - 1] = idx[ok]
    missing = np.flatnonzero(order < 0)
    if missing.size:
        # n numbers for n steps: a step out of range or repeated leaves one missing
        raise InvalidTourError(f"the matrix has no step {int(missing[0]) + 1}: step numbers must be 1..{n}")
    return Tour._unchecked(board, order, False, distinct=True)


def _read_fixed_matrix(board: Board, fh, size: int | None = None) -> Tour | None:
    """Fast reader of Euler's matrix as ``ktsolve solve --format text`` writes it, from the open regular file ``fh``
    of ``size`` bytes; None if the file differs.

    That layout has cells of one width (numbers right-aligned, holes as
    ``#``), one space between cells and a newline after every row, so a row
    block of the file is a ``(rows, cols, width + 1)`` byte array and the
    numbers come out of a few vectorised passes, a block at a time.  Any
    other layout returns None and is read by the general parser.
    """
    if isinstance(fh, (str, os.PathLike)):  # a path: opened here, once
        with open(fh, "rb") as opened:
            return _read_fixed_matrix(board, opened, os.fstat(opened.fileno()).st_size)
    rows, cols = board.rows, board.cols
    # the caller's open file, read from its start: never reopened (a pipe cannot be)
    head = fh.read(min(size, 1 << 26, 10 * cols + 64))
    nl = head.find(b"\n")
    line = nl + 1 if nl >= 0 else size + 1
    if line % cols or line // cols < 2 or size not in (rows * line, rows * line - 1):
        return None
    cw = line // cols
    width = cw - 1
    fh.seek(0)
    steps = np.empty(rows * cols, dtype=np.int32)
    rows_per = max(1, (1 << 24) // line)
    for r0 in range(0, rows, rows_per):
        k = min(rows_per, rows - r0)
        buf = fh.read(k * line)
        if len(buf) == k * line - 1:
            buf += b"\n"
        if len(buf) != k * line:
            return None
        a = np.frombuffer(buf, dtype=np.uint8).reshape(k, cols, cw)
        sep = a[:, :, width]
        if not ((sep[:, :-1] == 32).all() and (sep[:, -1] == 10).all()):
            return None
        cells = a[:, :, :width]
        digit = (cells >= 48) & (cells <= 57)
        space = cells == 32
        hashes = cells == 35
        if not (digit | space | hashes).all():
            return None
        if width > 1 and (space[:, :, 1:] & ~space[:, :, :-1]).any():
            return None  # a space after a digit: not right-aligned numbers
        hole = hashes.all(axis=2)
        if (hashes.any(axis=2) & ~hole).any() or (~hole & ~digit.any(axis=2)).any():
            return None
        if width > 9:  # more digits than any board's step numbers
            return None
        values = cells.astype(np.int32)
        values -= 48
        values[~digit] = 0
        val = values[:, :, 0].copy()
        for pos in range(1, width):
            val *= 10
            val += values[:, :, pos]
        steps[r0 * cols : (r0 + k) * cols] = val.ravel()
    flat_holes = steps == 0
    if board.is_full:
        if flat_holes.any():
            r, c = divmod(int(np.argmax(flat_holes)), cols)
            raise InvalidTourError(f"the matrix marks {board.name(r, c)} as a hole, but it is a square")
        return _tour_from_steps(board, steps)
    mask = board.mask.ravel()
    wrong = flat_holes & mask
    if wrong.any():
        r, c = divmod(int(np.argmax(wrong)), cols)
        raise InvalidTourError(f"the matrix marks {board.name(r, c)} as a hole, but it is a square")
    wrong = ~flat_holes & ~mask
    if wrong.any():
        r, c = divmod(int(np.argmax(wrong)), cols)
        raise InvalidTourError(f"the matrix numbers {board.name(r, c)}, which is a hole")
    return _tour_from_steps(board, steps[mask])


def _several_tours(board: Board, lines: list[str]) -> list[Tour] | None:
    """Tours written one per line as full lists of square names (``ktsolve enumerate``), or None."""
    n = board.n_squares
    if len(lines) < 2 or n < 2:
        return None
    rows = [[t for t in re.split(r"[\s,;]+", ln.strip()) if t] for ln in lines]
    if any(len(row) != n for row in rows):
        return None
    if any(_MATRIX_TOKEN.match(tok) for tok in rows[0]):
        return None
    coords = board.coords_of(np.arange(n))
    index = {name: i for i, name in enumerate(board.names(coords))}
    tours = []
    for k, row in enumerate(rows):
        try:
            squares = [index[name] for name in row]
        except KeyError:
            try:
                squares = coords_to_squares(board, names_to_coords(board, row))
            except InvalidTourError as exc:
                if "is not a square name" in str(exc):
                    raise TourFileError(f"line {k + 1} is not a list of squares: {exc}") from None
                raise InvalidTourError(f"tour {k + 1}: {exc}") from None
        tours.append(_unchecked(board, squares))
    return tours


def parse_tours_text(board: Board, text: str) -> tuple[list[Tour], bool | None]:
    """Tours (one, or several written one per line) and the stated ``closed`` flag, from a tour file's text.

    The tours are not validated: :func:`ktsolve.validate` names their faults.

    Examples
    --------
    >>> b = Board(3, 4)
    >>> tours, closed = parse_tours_text(b, "a3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2\\n" * 2)
    >>> len(tours), len(tours[0]), closed
    (2, 12, None)
    >>> parse_tours_text(b, " 1 .. ..  2\\n.. .. .. ..\\n.. ..  3 ..")[0][0].names()
    ['a3', 'd3', 'c1']
    """
    stripped = text.removeprefix("\ufeff").strip()
    if not stripped:
        raise TourFileError("the tour file is empty")
    if stripped[0] in "[{":
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise TourFileError(f"the tour file is not valid JSON ({exc.msg} at line {exc.lineno})") from None
        except RecursionError:
            raise TourFileError("the tour file's JSON is nested too deeply to be a tour") from None
        except ValueError as exc:  # a number of thousands of digits: Python refuses to convert it
            raise TourFileError(f"the tour file's JSON has a number too long to read ({_clip(str(exc), 80)})") \
                from None
        tour, closed = _from_json(board, data)
        return [tour], closed
    lines = [ln for ln in stripped.splitlines() if ln.strip()]
    tokens = [ln.split() for ln in lines]
    if all(_MATRIX_TOKEN.match(tok) for t in tokens for tok in t) and (len(lines) > 1 or board.rows == 1):
        return [_from_matrix(board, tokens)], None
    if all(_PAIR_LINE.match(ln) for ln in lines):
        for k, ln in enumerate(lines):
            if any(len(v) > 18 for v in re.findall(r"\d+", ln)):  # no board has such a row; int64 would overflow
                raise InvalidTourError(f"step {k + 1}: square {shown(ln.strip())} is outside the "
                                       f"{board.rows}x{board.cols} board")
        pairs = [tuple(int(v) for v in re.findall(r"\d+", ln)) for ln in lines]
        return [_unchecked(board, coords_to_squares(board, np.array(pairs, dtype=np.int64)))], None
    several = _several_tours(board, lines)
    if several is not None:
        return several, None
    names = [tok for tok in re.split(r"[\s,;]+", stripped) if tok]
    try:
        return [_unchecked(board, coords_to_squares(board, names_to_coords(board, names)))], None
    except InvalidTourError as exc:
        if "is not a square name" in str(exc):
            raise TourFileError(f"the tour file is not a list of squares: {exc}") from None
        raise


def parse_tour_text(board: Board, text: str) -> tuple[Tour, bool | None]:
    """Tour (and the ``closed`` flag if the text states it) from the text of a tour file."""
    tours, closed = parse_tours_text(board, text)
    if len(tours) != 1:
        raise TourFileError(f"the tour file holds {len(tours)} tours, one per line; one was expected")
    return tours[0], closed


def _npy_tour(board: Board, data: bytes, shown: str) -> Tour:
    """The tour in the bytes of a ``.npy`` file, its header checked against its length before any allocation."""
    fh = io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(fh)
        read_header = np.lib.format.read_array_header_1_0 if version == (1, 0) else \
            np.lib.format.read_array_header_2_0
        shape, _fortran, dtype = read_header(fh, max_header_size=1 << 16)
        # a header may claim 10^11 squares: the bytes present say what can be allocated
        count = 1
        for d in shape:
            count *= int(d)
        if dtype.hasobject or count * dtype.itemsize != len(data) - fh.tell():
            raise ValueError(f"its header describes {count:,} {dtype} values, but it holds "
                             f"{len(data) - fh.tell():,} bytes after the header")
        fh.seek(0)
        arr = np.load(fh, allow_pickle=False)
    except (ValueError, EOFError, TypeError, OverflowError) as exc:
        raise TourFileError(f"tour file {shown} is not a numpy array: {_clip(str(exc))}") from None
    if not isinstance(arr, np.ndarray) or arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer) \
            or arr.size == 0:
        raise TourFileError(f"tour file {shown} does not hold whole square numbers")
    if arr.ndim == 2 and arr.shape[1] == 2:
        return _unchecked(board, coords_to_squares(board, arr))
    if arr.ndim != 1:
        raise TourFileError(f"tour file {shown} holds an array of shape {arr.shape}")
    bad = np.flatnonzero((arr < 0) | (arr >= board.n_squares))
    if bad.size:
        k = int(bad[0])
        raise InvalidTourError(
            f"step {k + 1} names square number {_clip(str(arr[k]))}, but the board has "
            f"squares 0..{board.n_squares - 1}"
        )
    return _unchecked(board, arr)


def _clip(text: str, limit: int = 200) -> str:
    # a message quotes a bounded prefix of what a file held, never all of it
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _npy_budget(board: Board) -> int:
    """Bytes of the largest ``.npy`` tour of ``board``: an ``(N, 2)`` int64 array and a 64 KiB header."""
    return (64 << 10) + 16 * board.size


def _shown_path(path: str) -> str:
    return "standard input" if path == "-" else shown(path, 200)


def _open_tours(board: Board, path: str, src: Source):
    """The stated ``closed`` flag and the tours of an open source: ``(closed, blocks)``.

    ``blocks`` yields lists of :class:`Tour` (one tour, or tours parsed from
    a whole text) or ``(k, N)`` int32 arrays of square numbers (a file of
    several tours, one per line, streamed a block at a time).
    """
    what = _shown_path(path)
    head = src.head
    # a gzipped .npy (solve --format npy -o t.npy.gz) is recognised by its inflated first bytes
    if head.startswith(_NPY_MAGIC) or (src.gzipped and src.peek(len(_NPY_MAGIC)) == _NPY_MAGIC) \
            or (src.regular and path.endswith(".npy") and not src.gzipped):
        data = src.read(f"more than a .npy tour of the {board.rows}x{board.cols} board can hold")
        return None, iter([[_npy_tour(board, data, what)]])
    fh = src.raw_file()
    if fh is not None:
        tour = _read_fixed_matrix(board, fh, src.size)
        if tour is not None:
            return None, iter([[tour]])
        fh.seek(len(head))  # the source has already handed out its first bytes
    budget = tour_text_budget(board.size)
    blocks = src.lines(budget)
    taken: list[bytes] = []
    for block in blocks:  # a block (a megabyte's lines) at a time, until two lines are known
        taken.extend(block)
        if len(taken) >= 2:
            break
    if len(taken) >= 2 and _starts_several(board, taken[0], taken[1]):
        return None, _stream_several(board, taken, blocks, src)
    total = sum(len(ln) + 1 for ln in taken)
    for block in itertools.chain([[]], blocks):
        total += sum(len(ln) + 1 for ln in block)
        if total > budget:
            raise src._too_large(budget, f"more than any tour of the {board.rows}x{board.cols} board needs")
        taken.extend(block)
    if total > budget:
        raise src._too_large(budget, f"more than any tour of the {board.rows}x{board.cols} board needs")
    try:
        text = b"\n".join(taken).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise TourFileError(f"cannot read tour file {what}: not UTF-8 text") from None
    try:
        tours, closed = parse_tours_text(board, text)
    except TourFileError as exc:
        raise TourFileError(f"tour file {what}: {exc}") from None
    except InvalidSquareError as exc:
        raise InvalidTourError(str(exc)) from None
    return closed, iter([tours])


def _starts_several(board: Board, first: bytes, second: bytes) -> bool:
    """True when the first two lines are full lists of squares: a file of tours one per line, streamed."""
    n = board.n_squares
    if n < 2 or first.lstrip(b"\xef\xbb\xbf \t").startswith((b"[", b"{")):
        return False
    try:
        one, two = split_line(first.removeprefix(b"\xef\xbb\xbf")), split_line(second)
        if len(one) != n or len(two) != n or _PAIR_LINE.match(first.decode("utf-8")):
            return False
        return not any(_MATRIX_TOKEN.match(t.decode("utf-8")) for t in one)
    except UnicodeDecodeError:
        return False


def _stream_several(board: Board, taken: list[bytes], blocks, src: Source):
    """``(k, N)`` int32 blocks of the tours of a file written one per line, parsed as it is read."""
    n = board.n_squares
    names = board.names(board.coords_of(np.arange(n)))
    keys = name_keys(names)
    order = np.argsort(keys).astype(np.int32)
    keys = keys[order]
    taken[0] = taken[0].removeprefix(b"\xef\xbb\xbf")
    done = 0
    for block in itertools.chain([taken], blocks):
        k = len(block)
        arr = parse_block(block, keys, order, n)
        if arr is None:  # a line of another length, or names written otherwise (A1, 7,0)
            rows = [split_line(ln) for ln in block]
            for j, row in enumerate(rows):
                if len(row) != n:
                    raise TourFileError(
                        f"tour file {_shown_path(src.path)}: line {done + j + 1} has {len(row):,} squares, "
                        f"but a file of tours one per line has {n} on every line"
                    ) from None
            arr = np.stack([_slow_line(board, row, done + j + 1, src) for j, row in enumerate(rows)])
        yield arr.reshape(k, n)
        done += k


def _slow_line(board: Board, row: list[bytes], lineno: int, src: Source) -> np.ndarray:
    try:
        names = [t.decode("utf-8") for t in row]
    except UnicodeDecodeError:
        raise TourFileError(f"cannot read tour file {_shown_path(src.path)}: line {lineno} is not UTF-8 text") \
            from None
    try:
        return coords_to_squares(board, names_to_coords(board, names)).astype(np.int32)
    except InvalidTourError as exc:
        if "is not a square name" in str(exc):
            raise TourFileError(f"tour file {_shown_path(src.path)}: line {lineno} is not a list of squares: "
                                f"{exc}") from None
        raise InvalidTourError(f"tour {lineno}: {exc}") from None


def _source(board: Board, path) -> Source:
    """The file opened once, with the budget of the largest tour file of ``board`` (a ``.npy`` or a text)."""
    path = os.fspath(path)
    budget = max(_npy_budget(board), tour_text_budget(board.size))
    src = Source(path, f"tour file {_shown_path(path)}", budget, TourFileError)
    src.path = path
    return src


def iter_tours(board: Board, path):
    """The tours of a tour file, one :class:`Tour` at a time, read in one streaming pass (not validated).

    A file of several tours one per line (``ktsolve enumerate -o``) is
    parsed as it is read, in constant memory; the other forms hold one
    tour.  The path is opened once, so pipes and standard input (``"-"``)
    work.  Raises :class:`TourFileError` or
    :class:`~ktsolve.errors.InvalidTourError` as :func:`read_tours` does,
    when the reading reaches the fault.
    """
    with _source(board, path) as src:
        _closed, blocks = _open_tours(board, src.path, src)
        for block in blocks:
            if isinstance(block, np.ndarray):
                for row in block:
                    yield _unchecked(board, row)
            else:
                yield from block


@dataclass(frozen=True)
class TourFileCheck:
    """What :func:`check_tours` found: ``count`` valid tours, their ``closed`` rule, and the ``tour`` when one."""

    count: int
    closed: bool
    tour: Tour | None


def check_tours(board: Board, path, *, closed: bool = False, start=None, end=None,
                complete: bool = True) -> TourFileCheck:
    """Validate every tour of a tour file as it is read; stop at the first fault.

    The engine of ``ktsolve verify``: a file of several tours (one per
    line, gzipped or not) is parsed and validated a block of lines at a
    time (:func:`~ktsolve.tour.validate_many`), so memory stays constant
    however many tours it holds and a fault at line 2 is reported after
    reading two lines.  ``closed`` is also required when the file states
    ``"closed": true``.  ``complete=False`` checks a single path (what
    ``ktsolve longest`` writes).

    Raises
    ------
    TourFileError
        The file cannot be read as tours (too large, damaged, not tours).
    InvalidTourError
        A tour breaks a rule; ``tour k:`` names the line when the file holds several.
    """
    with _source(board, path) as src:
        return _check_tours_src(board, src, closed=closed, start=start, end=end, complete=complete)


def _check_tours_src(board: Board, src: Source, *, closed: bool, start, end, complete: bool) -> TourFileCheck:
    """:func:`check_tours` on a source already open."""
    stated, blocks = _open_tours(board, src.path, src)
    want = bool(closed) or bool(stated)
    count, last = 0, None
    for block in blocks:
        if isinstance(block, np.ndarray):
            try:
                validate_many(board, block, closed=want, start=start, end=end)
            except InvalidTourError as exc:
                # validate_many numbers the tours of its block; the file's numbering is wanted
                msg = re.sub(r"^tour (\d+):", lambda m: f"tour {int(m.group(1)) + count}:", str(exc))
                raise InvalidTourError(msg) from None
            count += block.shape[0]
            last = None
        elif len(block) > 1:
            arr = np.stack([t.squares for t in block])
            validate_many(board, arr, closed=want, start=start, end=end)
            count += len(block)
        else:
            last = validate(board, block[0], closed=want, start=start, end=end, complete=complete)
            count += 1
    return TourFileCheck(count, want, last if count == 1 else None)


def check_file(board: Board, path, *, closed: bool = False, start=None, end=None, complete: bool = True):
    """What ``verify`` reads: a certificate object (a dict, not yet checked), or the :class:`TourFileCheck`
    of a file of tours (:func:`check_tours`), told apart by the file's first bytes, in one pass."""
    from .certificates import is_certificate, parse_certificate

    with _source(board, path) as src:
        if is_certificate(src):
            return parse_certificate(src, board)
        return _check_tours_src(board, src, closed=closed, start=start, end=end, complete=complete)


def read_tours(board: Board, path) -> tuple[list[Tour], bool | None]:
    """Read a tour file (see the module docstring); returns its tours and their stated ``closed`` flag.

    ``path`` ``"-"`` reads standard input.  The file is read once, front to
    back, within a byte budget (see :data:`ktsolve._reading.MAX_TEXT_BYTES`
    and the module docstring), so pipes work and a bomb or a device fails
    fast.  Raises :class:`~ktsolve.errors.TourFileError` for a file that cannot be read as
    tours, and :class:`~ktsolve.errors.InvalidTourError` for squares that
    are not on the board; the tours themselves are not validated.  A file
    of many tours is better checked by :func:`check_tours`, which streams.
    """
    with _source(board, path) as src:
        closed, blocks = _open_tours(board, src.path, src)
        tours: list[Tour] = []
        for block in blocks:
            if isinstance(block, np.ndarray):
                tours.extend(_unchecked(board, row) for row in block)
            else:
                tours.extend(block)
        return tours, closed


def read_tour(board: Board, path) -> tuple[Tour, bool | None]:
    """Read a file of one tour (see the module docstring); returns the tour and its stated ``closed`` flag."""
    tours, closed = read_tours(board, path)
    if len(tours) != 1:
        raise TourFileError(f"tour file {_shown_path(os.fspath(path))} holds {len(tours)} tours, one per line; "
                            "one was expected")
    return tours[0], closed


def write_atomic(path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` whole or not at all (see :func:`ktsolve.output.open_output`)."""
    with open_output(path) as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)


def open_atomic(path):
    """A binary writer whose data is at ``path`` once the ``with`` block ends without error.

    The same as :func:`ktsolve.output.open_output`: a regular file is
    replaced through a temporary file and a rename, a device, pipe or link
    target is written through, and on any error a file being replaced is
    left as it was.
    """
    return open_output(path)


def write_tours(path, board: Board, tours) -> int:
    """Write tours one per line, squares as algebraic names separated by single spaces.

    ``tours`` is a ``(k, N)`` array of square numbers.  A name ending in
    ``.gz`` is gzip-compressed.  The file appears whole or not at all
    (see :func:`ktsolve.output.open_output`).  Returns the number of lines
    written.
    """
    path = os.fspath(path)
    tours = np.asarray(tours)
    n = board.n_squares
    names = [nm.encode("ascii") for nm in board.names(board.coords_of(np.arange(n)))]
    get = names.__getitem__
    with open_atomic(path) as fh:  # gzip-compressed there when the name ends in .gz
        for lo in range(0, tours.shape[0], 4096):
            block = tours[lo : lo + 4096].tolist()
            fh.write(b"".join(b" ".join(map(get, row)) + b"\n" for row in block))
    return int(tours.shape[0])
