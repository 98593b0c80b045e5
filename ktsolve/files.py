"""Reading tour files and writing output files whole or not at all.

Tour files come in four forms, recognised by content:

* JSON: the object ``ktsolve solve --format json`` prints (its ``tour`` and
  ``closed`` keys), or a bare list of ``[row, col]`` pairs or square names;
* ``.npy``: int array of square numbers (squares that are not holes,
  numbered in row-major order) or an ``(N, 2)`` array of ``(row, col)``;
* Euler's matrix, as ``ktsolve solve --format text`` prints it: step numbers
  in board layout, holes as ``##``;
* a list of squares: names such as ``a1 b3 c5`` (spaces, commas or new
  lines between them) or one ``row,col`` pair per line.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile

import numpy as np

from .board import Board
from .errors import InvalidSquareError, InvalidTourError
from .tour import Tour

__all__ = ["read_tour", "parse_tour_text", "write_atomic", "open_atomic", "write_tours", "TourFileError"]


class TourFileError(InvalidTourError):
    """A tour file that cannot be read as a tour at all (as opposed to an invalid tour)."""


_CHUNK = 1 << 22
_PAIR_LINE = re.compile(r"^\s*\(?\s*\d+\s*,\s*\d+\s*\)?\s*$")
_MATRIX_TOKEN = re.compile(r"^(\d+|#+)$")


def _from_json(board: Board, data) -> tuple[Tour, bool | None]:
    closed = None
    if isinstance(data, dict):
        if "tour" not in data or data["tour"] is None:
            raise TourFileError("the JSON object has no 'tour'")
        closed = bool(data["closed"]) if "closed" in data else None
        data = data["tour"]
    if not isinstance(data, list) or not data:
        raise TourFileError("the JSON tour is not a non-empty list")
    if all(isinstance(x, str) for x in data):
        return Tour.from_names(board, data), closed
    try:
        arr = np.array(data, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise TourFileError("the JSON tour is neither [row, col] pairs nor square names") from None
    if arr.ndim == 2 and arr.shape[1] == 2:
        return Tour.from_coords(board, arr), closed
    raise TourFileError("the JSON tour is neither [row, col] pairs nor square names")


def _from_matrix(board: Board, lines: list[list[str]]) -> Tour:
    mat = np.zeros((board.rows, board.cols), dtype=np.int64)
    for r, toks in enumerate(lines):
        for c, tok in enumerate(toks):
            if tok.startswith("#"):
                if board.mask[r, c]:
                    raise InvalidTourError(f"the matrix marks {board.name(r, c)} as a hole, but it is a square")
            else:
                if not board.mask[r, c]:
                    raise InvalidTourError(f"the matrix numbers {board.name(r, c)}, which is a hole")
                mat[r, c] = int(tok)
    return _tour_from_steps(board, mat[board.mask])


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
    return Tour(board, order)


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


def parse_tour_text(board: Board, text: str) -> tuple[Tour, bool | None]:
    """Tour (and the ``closed`` flag if the text states it) from the text of a tour file."""
    stripped = text.strip()
    if not stripped:
        raise TourFileError("the tour file is empty")
    if stripped[0] in "[{":
        try:
            data = json.loads(stripped)
        except json.JSONDecodeError as exc:
            raise TourFileError(f"the tour file is not valid JSON ({exc.msg} at line {exc.lineno})") from None
        return _from_json(board, data)
    lines = [ln for ln in stripped.splitlines() if ln.strip()]
    tokens = [ln.split() for ln in lines]
    if (
        len(lines) == board.rows
        and all(len(t) == board.cols for t in tokens)
        and all(_MATRIX_TOKEN.match(tok) for t in tokens for tok in t)
        and board.size > 1
    ):
        return _from_matrix(board, tokens), None
    if all(_PAIR_LINE.match(ln) for ln in lines):
        pairs = [tuple(int(v) for v in re.findall(r"\d+", ln)) for ln in lines]
        return Tour.from_coords(board, np.array(pairs, dtype=np.int64)), None
    names = [tok for tok in re.split(r"[\s,;]+", stripped) if tok]
    try:
        return Tour.from_names(board, names), None
    except InvalidTourError as exc:
        if "is not a square name" in str(exc):
            raise TourFileError(f"the tour file is not a list of squares: {exc}") from None
        raise


def read_tour(board: Board, path) -> tuple[Tour, bool | None]:
    """Read a tour file (see the module docstring); returns the tour and its stated ``closed`` flag."""
    path = os.fspath(path)
    try:
        if path.endswith(".npy"):
            try:
                arr = np.load(path, allow_pickle=False)
            except ValueError as exc:
                raise TourFileError(f"tour file {path!r} is not a numpy array: {exc}") from None
            if not np.issubdtype(arr.dtype, np.integer) or arr.size == 0:
                raise TourFileError(f"tour file {path!r} does not hold whole square numbers")
            if arr.ndim == 2 and arr.shape[1] == 2:
                return Tour.from_coords(board, arr), None
            if arr.ndim != 1:
                raise TourFileError(f"tour file {path!r} holds an array of shape {arr.shape}")
            bad = np.flatnonzero((arr < 0) | (arr >= board.n_squares))
            if bad.size:
                k = int(bad[0])
                raise InvalidTourError(
                    f"step {k + 1} names square number {int(arr[k])}, but the board has "
                    f"squares 0..{board.n_squares - 1}"
                )
            return Tour(board, arr), None
        tour = _read_fixed_matrix(board, path)
        if tour is not None:
            return tour, None
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = "not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else (exc.strerror or str(exc))
        raise TourFileError(f"cannot read tour file {path!r}: {reason}") from None
    try:
        return parse_tour_text(board, text)
    except TourFileError as exc:
        raise TourFileError(f"tour file {path!r}: {exc}") from None
    except InvalidSquareError as exc:
        raise InvalidTourError(str(exc)) from None


def write_atomic(path, data: str | bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file, so a failure leaves nothing half-written."""
    with open_atomic(path) as fh:
        fh.write(data.encode("utf-8") if isinstance(data, str) else data)


@contextlib.contextmanager
def open_atomic(path):
    """A binary file that becomes ``path`` when the ``with`` block ends without error.

    For output written piece by piece (huge tours); on any error the
    temporary file is removed and ``path`` is left as it was.
    """
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".ktsolve-", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            yield fh
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_tours(path, board: Board, tours) -> int:
    """Write tours one per line, squares as algebraic names separated by single spaces.

    ``tours`` is a ``(k, N)`` array of square numbers.  A name ending in
    ``.gz`` is gzip-compressed.  The file appears whole or not at all
    (written to a temporary file in the same folder, then renamed).
    Returns the number of lines written.
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
