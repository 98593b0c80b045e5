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
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import sys
import zlib

import numpy as np

from .board import Board
from .errors import InvalidSquareError, InvalidTourError, TourFileError
from .output import open_output
from .tour import Tour, _coords_to_squares, _names_to_coords

__all__ = [
    "read_tour",
    "read_tours",
    "parse_tour_text",
    "parse_tours_text",
    "write_atomic",
    "open_atomic",
    "write_tours",
]


_CHUNK = 1 << 22
_PAIR_LINE = re.compile(r"^\s*\(?\s*\d+\s*,\s*\d+\s*\)?\s*$")
_MATRIX_TOKEN = re.compile(r"^(\d+|#+|\.+)$")
_NPY_MAGIC = b"\x93NUMPY"
_GZIP_MAGIC = b"\x1f\x8b"
_UNVISITED = -1


def _unchecked(board: Board, squares) -> Tour:
    # the validator, not the reader, names a tour's first fault
    return Tour._unchecked(board, squares, False)


def _from_json(board: Board, data) -> tuple[Tour, bool | None]:
    closed = None
    if isinstance(data, dict):
        if "closed" in data:
            if not isinstance(data["closed"], bool):
                raise TourFileError(f"the JSON's 'closed' must be true or false, not {json.dumps(data['closed'])}")
            closed = data["closed"]
        tour = data.get("tour")
        if tour is None:
            tour = data.get("path")  # the JSON of ``ktsolve longest``
        if tour is None:
            status = f" (its status is {data['status']!r})" if isinstance(data.get("status"), str) else ""
            raise TourFileError(f"the JSON object has no 'tour'{status}")
        data = tour
    if not isinstance(data, list) or not data:
        raise TourFileError("the JSON tour is not a non-empty list")
    if all(isinstance(x, str) for x in data):
        return _unchecked(board, _coords_to_squares(board, _names_to_coords(board, data))), closed
    for k, x in enumerate(data):
        # bool is an int to Python, and "0" or 0.5 is no row: pairs of whole numbers only
        if not (isinstance(x, list) and len(x) == 2 and all(type(v) is int for v in x)):
            raise TourFileError(
                f"step {k + 1} of the JSON tour, {json.dumps(x)}, is neither a [row, col] pair "
                "of whole numbers nor a square name"
            )
    return _unchecked(board, _coords_to_squares(board, np.array(data, dtype=np.int64))), closed


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
                mat[r, c] = int(tok)
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


def _read_fixed_matrix(board: Board, path: str) -> Tour | None:
    """Fast reader of Euler's matrix as ``ktsolve solve --format text`` writes it; None if the file differs.

    That layout has cells of one width (numbers right-aligned, holes as
    ``#``), one space between cells and a newline after every row, so a row
    block of the file is a ``(rows, cols, width + 1)`` byte array and the
    numbers come out of a few vectorised passes, a block at a time.  Any
    other layout returns None and is read by the general parser.
    """
    rows, cols = board.rows, board.cols
    size = os.path.getsize(path)
    with open(path, "rb") as fh:
        head = fh.read(min(size, 1 << 26))
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
                squares = _coords_to_squares(board, _names_to_coords(board, row))
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
        tour, closed = _from_json(board, data)
        return [tour], closed
    lines = [ln for ln in stripped.splitlines() if ln.strip()]
    tokens = [ln.split() for ln in lines]
    if all(_MATRIX_TOKEN.match(tok) for t in tokens for tok in t) and (len(lines) > 1 or board.rows == 1):
        return [_from_matrix(board, tokens)], None
    if all(_PAIR_LINE.match(ln) for ln in lines):
        pairs = [tuple(int(v) for v in re.findall(r"\d+", ln)) for ln in lines]
        return [_unchecked(board, _coords_to_squares(board, np.array(pairs, dtype=np.int64)))], None
    several = _several_tours(board, lines)
    if several is not None:
        return several, None
    names = [tok for tok in re.split(r"[\s,;]+", stripped) if tok]
    try:
        return [_unchecked(board, _coords_to_squares(board, _names_to_coords(board, names)))], None
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


def _npy_tour(board: Board, source, shown: str) -> Tour:
    try:
        arr = np.load(source, allow_pickle=False)
    except (ValueError, EOFError) as exc:
        raise TourFileError(f"tour file {shown} is not a numpy array: {exc}") from None
    if not isinstance(arr, np.ndarray) or arr.dtype == bool or not np.issubdtype(arr.dtype, np.integer) \
            or arr.size == 0:
        raise TourFileError(f"tour file {shown} does not hold whole square numbers")
    if arr.ndim == 2 and arr.shape[1] == 2:
        return _unchecked(board, _coords_to_squares(board, arr))
    if arr.ndim != 1:
        raise TourFileError(f"tour file {shown} holds an array of shape {arr.shape}")
    bad = np.flatnonzero((arr < 0) | (arr >= board.n_squares))
    if bad.size:
        k = int(bad[0])
        raise InvalidTourError(
            f"step {k + 1} names square number {int(arr[k])}, but the board has "
            f"squares 0..{board.n_squares - 1}"
        )
    return _unchecked(board, arr)


def read_tours(board: Board, path) -> tuple[list[Tour], bool | None]:
    """Read a tour file (see the module docstring); returns its tours and their stated ``closed`` flag.

    ``path`` ``"-"`` reads standard input.  Raises :class:`~ktsolve.errors.TourFileError`
    for a file that cannot be read as tours, and
    :class:`~ktsolve.errors.InvalidTourError` for squares that are not on
    the board; the tours themselves are not validated.
    """
    path = os.fspath(path)
    stdin = path == "-"
    shown = "standard input" if stdin else repr(path)
    try:
        if stdin:
            if sys.stdin is None:
                raise TourFileError("cannot read tour file standard input: it is closed")
            data = getattr(sys.stdin, "buffer", None)
            data = data.read() if data is not None else sys.stdin.read().encode("utf-8")
            head = data[:6]
        else:
            data = None
            with open(path, "rb") as fh:
                head = fh.read(6)
        if head.startswith(_NPY_MAGIC) or (not stdin and path.endswith(".npy")):
            return [_npy_tour(board, io.BytesIO(data) if stdin else path, shown)], None
        if head.startswith(_GZIP_MAGIC):
            if stdin:
                data = gzip.decompress(data)
            else:
                with gzip.open(path, "rb") as fh:
                    data = fh.read()
        elif not stdin:
            tour = _read_fixed_matrix(board, path)
            if tour is not None:
                return [tour], None
            with open(path, "rb") as fh:
                data = fh.read()
        text = data.decode("utf-8-sig")
    except (OSError, EOFError, zlib.error, UnicodeDecodeError) as exc:
        if isinstance(exc, UnicodeDecodeError):
            reason = "not UTF-8 text"
        elif isinstance(exc, (EOFError, zlib.error, gzip.BadGzipFile)):
            reason = f"a damaged gzip file ({exc})"
        else:
            reason = exc.strerror or str(exc)
        raise TourFileError(f"cannot read tour file {shown}: {reason}") from None
    try:
        return parse_tours_text(board, text)
    except TourFileError as exc:
        raise TourFileError(f"tour file {shown}: {exc}") from None
    except InvalidSquareError as exc:
        raise InvalidTourError(str(exc)) from None


def read_tour(board: Board, path) -> tuple[Tour, bool | None]:
    """Read a file of one tour (see the module docstring); returns the tour and its stated ``closed`` flag."""
    tours, closed = read_tours(board, path)
    if len(tours) != 1:
        shown = "standard input" if os.fspath(path) == "-" else repr(os.fspath(path))
        raise TourFileError(f"tour file {shown} holds {len(tours)} tours, one per line; one was expected")
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
    import gzip

    path = os.fspath(path)
    tours = np.asarray(tours)
    n = board.n_squares
    names = [nm.encode("ascii") for nm in board.names(board.coords_of(np.arange(n)))]
    get = names.__getitem__
    with open_atomic(path) as raw:
        fh = gzip.GzipFile(fileobj=raw, mode="wb", compresslevel=6, mtime=0) if path.endswith(".gz") else raw
        try:
            for lo in range(0, tours.shape[0], 4096):
                block = tours[lo : lo + 4096].tolist()
                fh.write(b"".join(b" ".join(map(get, row)) + b"\n" for row in block))
        finally:
            if fh is not raw:
                fh.close()
    return int(tours.shape[0])
