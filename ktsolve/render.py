"""Turning results into text, JSON and pictures.

* :func:`tour_matrix_text`: Euler's view, the board as a matrix of step
  numbers (1 = first square), holes shown as ``##``; streamed by
  :func:`write_tour_matrix`, and :func:`write_tour_npy` for ``npy``.
* :func:`result_json`: the JSON object of the command line.
* The pictures, drawn by :mod:`ktsolve._pictures` and re-exported here:
  :func:`result_svg` (``--format svg``) and :func:`result_page`
  (``--format html``), the notebook pictures behind ``Board._repr_svg_``,
  ``Tour._repr_svg_`` and ``SolveResult._repr_html_`` (:func:`picture_svg`,
  :func:`result_html`), with file letters and rank numbers, step numbers
  on request, the closing move of a closed tour, the squares a proof names
  (:func:`proof_marks`), long boards wrapped into bands and huge ones as a
  heat map (:func:`heat_svg`).
"""

from __future__ import annotations

import json

import numpy as np

from ._pictures import (  # noqa: F401 - the pictures' public names, re-exported here
    DETAIL_MAX,
    HEAT_PX,
    NUMBERS_MAX,
    SVG_MAX_SQUARES,
    Marks,
    step_numbers,
    heat_svg,
    layout,
    picture_svg,
    proof_marks,
    result_html,
    result_page,
    result_svg,
    tour_svg,
)
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
    "result_svg",
    "picture_svg",
    "heat_svg",
    "layout",
    "result_html",
    "result_page",
    "proof_marks",
    "Marks",
    "SVG_MAX_SQUARES",
    "JSON_MAX_SQUARES",
    "DETAIL_MAX",
    "HEAT_PX",
    "NUMBERS_MAX",
]

#: Largest tour written as JSON: the list of ``[row, col]`` pairs costs about
#: 100 bytes of Python memory per square while it is built.  Larger tours are
#: written as ``npy`` or as the text matrix, both streamed.
JSON_MAX_SQUARES = 1_000_000

#: Cells formatted at a time by :func:`write_tour_matrix`.
_TEXT_CHUNK = 1 << 20

#: Boards of at least this many cells have their text matrix written by numba kernels
#: (``ktsolve._tour_kernels``): the numpy expressions took 1.3 s of a 10^7-square tour's 132 MB.
TEXT_KERNEL_MIN = 1 << 20


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
    fast = board.size >= TEXT_KERNEL_MIN
    if fast:
        from ._tour_kernels import format_cells, square_flats, step_grid

        flats = np.zeros(0, dtype=np.int32) if board.is_full else square_flats(board.hole_flat, board.size)
        steps = step_grid(tour.squares, flats, board.size)
        del flats
    else:
        steps = step_numbers(tour)
    width = max(2, len(str(len(tour))))
    cols = board.cols
    rows_per = max(1, _TEXT_CHUNK // cols)
    for r0 in range(0, board.rows, rows_per):
        r1 = min(board.rows, r0 + rows_per)
        cells = steps[r0 * cols : r1 * cols].reshape(r1 - r0, cols)
        if fast:
            text = format_cells(cells, width, np.empty((r1 - r0, cols, width + 1), dtype=np.uint8))
        else:
            text = _format_cells(cells, width)
        fh.write(memoryview(text).cast("B"))


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
    zero bytes as padding), both columns a digit at a time, and the padding is
    dropped in one pass: about 30 ms for a million pairs, where
    ``json.dumps(array.tolist())`` takes 1.8 s.

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
    mat = np.zeros((n, 2 * d + 4), dtype=np.uint8)  # "[", d digits, ",", d digits, "]", ","
    mat[:, 0] = ord("[")
    mat[:, d + 1] = ord(",")
    mat[:, 2 * d + 2] = ord("]")
    mat[:, 2 * d + 3] = ord(",")
    val = v.astype(np.uint64 if d > 9 else np.uint32)
    last = np.array([d, 2 * d + 1])  # the column of each number's last digit
    for k in range(d):
        digit = (val % 10).astype(np.uint8)
        digit += ord("0")
        if k:
            digit[val == 0] = 0  # no leading zeros
        mat[:, last - k] = digit
        val //= 10
    flat = mat.reshape(-1)
    body = flat[flat != 0]
    return b"[" + body[:-1].tobytes() + b"]"
