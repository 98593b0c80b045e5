"""Turning results into text, JSON and pictures.

* :func:`tour_matrix_text`: Euler's view, the board as a matrix of step
  numbers (1 = first square), holes shown as ``##``.
* :func:`result_json`: the JSON object of the command line.
* :func:`tour_svg`: the board with holes shaded, the path drawn move by move,
  the start marked by a green disc and the end by a red square.
"""

from __future__ import annotations

import json

import numpy as np

from .board import Board
from .result import SolveResult
from .tour import Tour

__all__ = [
    "tour_matrix_text",
    "path_matrix_text",
    "write_tour_matrix",
    "write_tour_npy",
    "result_json",
    "int_pairs_json",
    "tour_svg",
    "SVG_MAX_SQUARES",
    "JSON_MAX_SQUARES",
]

#: Largest board drawn as SVG (a picture of more squares is unreadable and huge).
SVG_MAX_SQUARES = 250_000

#: Largest tour written as JSON: the list of ``[row, col]`` pairs costs about
#: 100 bytes of Python memory per square while it is built.  Larger tours are
#: written as ``npy`` or as the text matrix, both streamed.
JSON_MAX_SQUARES = 1_000_000

#: Cells formatted at a time by :func:`write_tour_matrix`.
_TEXT_CHUNK = 1 << 20


def tour_matrix_text(tour: Tour) -> str:
    """The tour as a matrix of 1-based step numbers, right-aligned; holes are ``##``.

    Examples
    --------
    >>> from ktsolve.board import Board
    >>> t = Tour(Board(3, 3, holes=[(1, 1)]), [0, 4, 5, 1, 7, 3, 2, 6], closed=True)
    >>> print(tour_matrix_text(t))
     1  4  7
     6 ##  2
     3  8  5
    """
    mat = tour.board_matrix()
    width = max(2, len(str(len(tour))))
    rows, cols = mat.shape
    # The text as a (rows, cols, width + 1) array of ASCII codes, built digit by digit with
    # numpy: a 1000x1000 tour takes milliseconds where formatting 10^6 strings takes a second.
    chars = np.empty((rows, cols, width + 1), dtype=np.uint8)
    rest = mat.copy()
    for p in range(width):
        digit = rest % 10 + ord("0")
        # right-aligned: digits above a number's highest are blanks (its units digit always shows)
        chars[:, :, width - 1 - p] = digit if p == 0 else np.where(mat >= 10**p, digit, ord(" "))
        rest //= 10
    chars[~tour.board.mask, :width] = ord("#")
    chars[:, :, width] = ord(" ")
    chars[:, -1, width] = ord("\n")
    return chars.tobytes()[:-1].decode("ascii")


def path_matrix_text(path: Tour) -> str:
    """A partial path as a matrix of step numbers; unvisited squares ``..``, holes ``##``.

    Examples
    --------
    >>> from ktsolve.board import Board
    >>> print(path_matrix_text(Tour(Board(3, 3), [0, 5, 6])))
     1 .. ..
    .. ..  2
     3 .. ..
    """
    mat = path.board_matrix()
    width = max(2, len(str(len(path))))
    cells = np.char.rjust(mat.astype(str), width)
    cells[mat == 0] = "." * width
    cells[~path.board.mask] = "#" * width
    return "\n".join(" ".join(row) for row in cells)


def _step_numbers(tour: Tour) -> np.ndarray:
    """int32 array over the whole rectangle: 1-based step of every square, 0 on holes."""
    board = tour.board
    steps = np.zeros(board.size, dtype=np.int32)
    sq = tour.squares
    for lo in range(0, sq.size, _TEXT_CHUNK):
        part = sq[lo : lo + _TEXT_CHUNK]
        where = part if board.is_full else board.flat_of(part)
        steps[where] = np.arange(lo + 1, lo + 1 + part.size, dtype=np.int32)
    return steps


def _format_cells(cells: np.ndarray, width: int) -> np.ndarray:
    """Bytes of rows of cells: numbers right-aligned in ``width`` characters, 0 as ``#``.

    Cells are separated by one space and every row ends with a newline,
    exactly as :func:`tour_matrix_text` lays them out.
    """
    k, cols = cells.shape
    out = np.empty((k, cols, width + 1), dtype=np.uint8)
    out[:, :, width] = ord(" ")
    out[:, -1, width] = ord("\n")
    rem = cells.astype(np.int32, copy=True)
    for pos in range(width - 1, -1, -1):
        rem, digit = np.divmod(rem, 10)
        shown = (rem > 0) | (digit > 0)
        out[:, :, pos] = np.where(shown, digit + ord("0"), ord(" "))
    holes = cells == 0
    if holes.any():
        out[holes, :width] = ord("#")
    return out


def write_tour_matrix(tour: Tour, fh) -> None:
    """Stream :func:`tour_matrix_text` (plus a final newline) to the binary file ``fh``.

    Works a block of rows at a time: besides the tour it holds one int32 per
    cell of the board and a few megabytes of text, so tours of 10^8 squares
    are written without building one giant string.
    """
    board = tour.board
    steps = _step_numbers(tour)
    width = max(2, len(str(len(tour))))
    cols = board.cols
    rows_per = max(1, _TEXT_CHUNK // cols)
    for r0 in range(0, board.rows, rows_per):
        r1 = min(board.rows, r0 + rows_per)
        cells = steps[r0 * cols : r1 * cols].reshape(r1 - r0, cols)
        fh.write(memoryview(_format_cells(cells, width)).cast("B"))


def write_tour_npy(tour: Tour, fh) -> None:
    """Write the tour as a numpy ``.npy`` int32 array of square numbers in visiting order.

    Squares that are not holes are numbered row by row from the top-left
    square (row 0, column 0), as everywhere in ktsolve.
    """
    np.save(fh, np.ascontiguousarray(tour.squares, dtype=np.int32), allow_pickle=False)


def result_json(res: SolveResult, indent: int | None = None) -> str:
    """One JSON object with the fields of DESIGN.md's command line.

    Raises :class:`~ktsolve.errors.UnsupportedError` for a tour of more than
    :data:`JSON_MAX_SQUARES` squares (use ``npy`` or text output instead).
    """
    for t in (res.tour, res.path):
        if t is not None and len(t) > JSON_MAX_SQUARES:
            from .errors import UnsupportedError

            raise UnsupportedError(
                f"JSON output is limited to {JSON_MAX_SQUARES:,} squares and this tour has "
                f"{len(t):,}; write it as npy or as text instead"
            )
    data = res.to_dict(with_squares=False)
    # The tour and path are the bulk of the object: they are written by the
    # vectorised encoder and spliced in where the placeholders stand.
    pieces = {}
    for key, t in (("tour", res.tour), ("path", res.path)):
        if t is not None:
            mark = f"\u0000{key}\u0000"
            data[key] = mark
            pieces[json.dumps(mark)] = int_pairs_json(t.coords).decode("ascii")
    text = json.dumps(data, indent=indent)
    for mark, encoded in pieces.items():
        text = text.replace(mark, encoded, 1)
    return text


def int_pairs_json(pairs) -> bytes:
    """``[[a,b],[c,d],...]``: the JSON of an ``(N, 2)`` array of non-negative ints, vectorised.

    Each pair is laid out in a fixed-width row of bytes (digits right-aligned,
    zero bytes as padding), and the padding is dropped in one pass: about 70
    ms for a million pairs, where ``json.dumps(array.tolist())`` takes 1.8 s.

    Examples
    --------
    >>> int_pairs_json(np.array([[0, 0], [9, 10], [123456, 7]]))
    b'[[0,0],[9,10],[123456,7]]'
    >>> int_pairs_json(np.zeros((0, 2), dtype=np.int32))
    b'[]'
    """
    v = np.asarray(pairs)
    n = v.shape[0]
    if n == 0:
        return b"[]"
    if int(v.min()) < 0:
        raise ValueError("int_pairs_json writes non-negative numbers only")
    d = len(str(int(v.max())))
    w = 2 * d + 4  # "[", d digits, ",", d digits, "]", ","
    mat = np.zeros((n, w), dtype=np.uint8)
    mat[:, 0] = ord("[")
    mat[:, d + 1] = ord(",")
    mat[:, 2 * d + 2] = ord("]")
    mat[:, 2 * d + 3] = ord(",")
    for col, last in ((0, d), (1, 2 * d + 1)):
        val = v[:, col].astype(np.int64)
        for k in range(d):
            digit = (val % 10).astype(np.uint8) + ord("0")
            if k:
                digit[val == 0] = 0  # no leading zeros
            mat[:, last - k] = digit
            val //= 10
    flat = mat.reshape(-1)
    body = flat[flat != 0]
    return b"[" + body[:-1].tobytes() + b"]"


def tour_svg(board: Board, tour: Tour | None, *, cell: int = 32, title: str | None = None) -> str:
    """An SVG picture of ``board`` and, when given, the path of ``tour``."""
    rows, cols = board.rows, board.cols
    if board.size > SVG_MAX_SQUARES:
        from .errors import UnsupportedError

        raise UnsupportedError(
            f"SVG pictures are limited to {SVG_MAX_SQUARES:,} squares; this board has {board.size:,}"
        )
    w, h = cols * cell, rows * cell
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">',
        f"<title>{title or _default_title(board, tour)}</title>",
        '<defs><pattern id="hatch" width="6" height="6" patternUnits="userSpaceOnUse" '
        'patternTransform="rotate(45)"><rect width="6" height="6" fill="#555"/>'
        '<line x1="0" y1="0" x2="0" y2="6" stroke="#222" stroke-width="3"/></pattern></defs>',
        f'<rect width="{w}" height="{h}" fill="#f0d9b5"/>',
    ]
    rr, cc = np.nonzero(((np.add.outer(np.arange(rows), np.arange(cols)) - (rows - 1)) % 2 == 0) & board.mask)
    out.append('<g fill="#b58863">')
    out.extend(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}"/>' for r, c in zip(rr, cc))
    out.append("</g>")
    if board.n_holes:
        out.append('<g fill="url(#hatch)">')
        out.extend(
            f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}"/>' for r, c in board.holes
        )
        out.append("</g>")
    if tour is not None and len(tour):
        xy = tour.coords[:, ::-1] * cell + cell / 2
        pts = " ".join(f"{x:g},{y:g}" for x, y in xy)
        shape = "polygon" if tour.closed else "polyline"
        stroke = max(1.0, cell / 14)
        out.append(
            f'<{shape} points="{pts}" fill="none" stroke="#1f3b73" stroke-width="{stroke:g}" '
            'stroke-linejoin="round" stroke-linecap="round" opacity="0.85"/>'
        )
        (sx, sy), (ex, ey) = xy[0], xy[-1]
        out.append(f'<circle cx="{sx:g}" cy="{sy:g}" r="{cell * 0.28:g}" fill="#2e9e44"><title>start</title></circle>')
        half = cell * 0.24
        out.append(
            f'<rect x="{ex - half:g}" y="{ey - half:g}" width="{2 * half:g}" height="{2 * half:g}" '
            'fill="#c62828"><title>end</title></rect>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _default_title(board: Board, tour: Tour | None) -> str:
    size = f"{board.rows}x{board.cols} board"
    if board.n_holes:
        size += f" with {board.n_holes} hole{'s' if board.n_holes > 1 else ''}"
    if tour is None:
        return size
    return f"{'closed' if tour.closed else 'open'} knight's tour of a {size}"
