"""Turning results into text, JSON and pictures.

* :func:`tour_matrix_text`: Euler's view, the board as a matrix of step
  numbers (1 = first square), holes shown as ``##``.
* :func:`result_json`: the JSON object of the command line.
* :func:`tour_svg`: the board with holes shaded, the path drawn move by move,
  the start marked by a green disc and the end by a red square
  (``--format svg``).
* The notebook pictures behind ``Board._repr_svg_``, ``Tour._repr_svg_`` and
  ``SolveResult._repr_html_``: :func:`picture_svg` draws boards of up to
  :data:`DETAIL_MAX` cells square by square (step numbers on tours of up to
  :data:`NUMBERS_MAX` cells, so 30 x 30 is readable) and larger ones as a
  heat map of blocks (:func:`heat_svg`: the share of holes, or the mean step
  at which the tour visits a block, with a colour strip from the first step
  to the last), a picture whose size does not grow with the board;
  :func:`result_html` adds the summary, the proof with the squares it
  names highlighted (:func:`proof_marks`) and the stats.
"""

from __future__ import annotations

import base64
import html
import itertools
import json
import struct
import zlib
from dataclasses import dataclass, field

import numpy as np

from .board import Board
from .result import SolveResult, Status
from .tour import Tour

__all__ = [
    "tour_matrix_text",
    "path_matrix_text",
    "write_tour_matrix",
    "write_tour_npy",
    "result_json",
    "int_pairs_json",
    "tour_svg",
    "picture_svg",
    "heat_svg",
    "result_html",
    "result_page",
    "proof_marks",
    "Marks",
    "SVG_MAX_SQUARES",
    "JSON_MAX_SQUARES",
    "DETAIL_MAX",
    "NUMBERS_MAX",
]

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


# ---------------------------------------------------------------------- pictures
#: Largest board (cells, holes included) drawn by :func:`tour_svg` for the command line.
SVG_MAX_SQUARES = 250_000

#: Boards of at most this many cells are drawn square by square in notebooks;
#: larger ones as a heat map (:func:`heat_svg`).
DETAIL_MAX = 10_000

#: Tours on boards of at most this many cells show the number of every step.
NUMBERS_MAX = 1_024

#: Width in pixels the notebook pictures aim at, and the range of a square's side.
TARGET_PX = 720
MIN_CELL, MAX_CELL = 4, 48

#: Longest side of a heat map's image, in blocks of squares.
HEAT_PX = 240

LIGHT, DARK, HOLE = "#f0d9b5", "#b58863", "#555555"
PATH_COLOUR = "#1f3b73"
NAMED, OTHER = "#d32f2f", "#1565c0"
#: Colours of the separate parts of a board (the largest part stays uncoloured); no red or blue, the marks' colours.
_PARTS = ("#4daf4a", "#984ea3", "#ff7f00", "#f781bf", "#a65628", "#17becf", "#bcbd22", "#999999")
#: Ten colours along the viridis colour map, from first step to last.
_VIRIDIS = ("#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b",
            "#fde725")

#: Every picture gets its own id prefix: a notebook page holds many SVGs in one document.
_ids = itertools.count(1)


def _cell_px(board: Board) -> int:
    return max(MIN_CELL, min(MAX_CELL, TARGET_PX // max(board.rows, board.cols)))


@dataclass
class Marks:
    """Squares and moves a proof names, for the pictures: red ``named``, blue ``other``, coloured ``parts``."""

    named: list = field(default_factory=list)
    other: list = field(default_factory=list)
    moves: list = field(default_factory=list)
    parts: np.ndarray | None = None
    legend: list = field(default_factory=list)


def _squares(board: Board, names) -> list[tuple[int, int]]:
    """``(row, col)`` of the square names that are squares of ``board`` (the matching proof's ``*`` are not)."""
    out = []
    for name in names or ():
        try:
            out.append(board.parse_square(str(name), allow_hole=True))
        except Exception:  # noqa: BLE001 - extra squares of a proof, or garbage: not drawn
            continue
    return out


def _part_labels(board: Board, drop_square=None, drop_moves=()) -> np.ndarray | None:
    """``(rows, cols)`` component labels of the knight graph (-1 on holes), or None on a large board."""
    if board.size > DETAIL_MAX:
        return None
    import networkx as nx

    from .graph import KnightGraph

    g = KnightGraph(board).to_networkx()
    if drop_moves:
        idx = {board.name(*board.coords_of([i])[0]): i for i in range(board.n_squares)}
        g.remove_edges_from((idx[a], idx[b]) for a, b in drop_moves if a in idx and b in idx)
    if drop_square is not None:
        g.remove_node(board.index(*drop_square))
    labels = np.full(board.size, -1, dtype=np.int64)
    parts = sorted(nx.connected_components(g), key=min)
    for k, part in enumerate(parts):
        labels[board.flat_of(np.fromiter(part, dtype=np.int64))] = k
    return labels.reshape(board.rows, board.cols) if len(parts) > 1 else None


def proof_marks(board: Board, proof) -> Marks:
    """What to highlight for a proof that no tour exists, read from its evidence.

    The squares a degree proof names, the cut square and the parts it
    leaves, the parts of a disconnected board, the squares a matching proof
    cannot pair (and their few neighbours), the move that closes a short
    cycle.  Proofs without squares (CP-SAT, exhaustive search) mark nothing.

    Examples
    --------
    >>> from ktsolve import prove
    >>> m = proof_marks(Board(3, 3), prove("3x3").proof)
    >>> m.named, m.legend[0][1]
    ([(1, 1)], 'a square with no neighbour')
    """
    m = Marks()
    if proof is None:
        return m
    arg = getattr(proof, "argument", "")
    ev = dict(getattr(proof, "evidence", {}) or {})
    if arg in ("size", "ends", "colour parity"):
        m.named = _squares(board, [ev[k] for k in ("start", "end") if isinstance(ev.get(k), str)])
        if m.named:
            m.legend.append((NAMED, "the fixed start or end the argument is about"))
    elif arg == "degree":
        if "square" in ev:
            m.named = _squares(board, [ev["square"]])
            k = ev.get("neighbours", 0)
            m.legend.append((NAMED, "a square with no neighbour" if k == 0 else
                             f"a square with {k} neighbour{'s' if k != 1 else ''}"))
        if ev.get("one_neighbour"):
            m.named = _squares(board, ev["one_neighbour"])
            m.legend.append((NAMED, "squares with one neighbour: each must be an end"))
            m.other = _squares(board, ev.get("fixed_ends"))
            if m.other:
                m.legend.append((OTHER, "the fixed ends"))
    elif arg == "connectivity":
        m.named = _squares(board, ev.get("squares"))
        m.parts = _part_labels(board)
        m.legend.append((NAMED, "a square of each of two parts no knight's move joins"))
    elif arg == "cut square":
        if "square" in ev:
            m.named = _squares(board, [ev["square"]])
            m.other = _squares(board, ev.get("squares"))
            m.parts = _part_labels(board, drop_square=m.named[0]) if m.named else None
            m.legend += [(NAMED, "the cut square"), (OTHER, "a square of each part it leaves")]
        for g in ev.get("groups", ()):
            m.named += _squares(board, [g.get("through")])
            m.other += _squares(board, [g.get("square")])
        if ev.get("groups"):
            m.legend += [(NAMED, "squares that join a group to the rest"), (OTHER, "a square of each group")]
    elif arg == "matching":
        _matching_marks(board, ev, m)
    elif arg == "toughness":
        m.named, m.other = _squares(board, ev.get("removed")), _squares(board, ev.get("squares"))
        m.legend += [(NAMED, "the squares taken out"), (OTHER, "a square of each part they leave")]
    elif arg == "two-square cut":
        m.named = _squares(board, ev.get("cut"))
        m.other = _squares(board, [x for p in ev.get("pieces", ()) for x in p.get("piece", ())])
        m.legend += [(NAMED, "the two cut squares"), (OTHER, "parts with no path between them")]
    elif arg == "region colours":
        m.named = _squares(board, ev.get("region"))
        m.legend.append((NAMED, "a group richer in one colour than its border can feed"))
    # a legend line only for a colour that is on the picture
    shown = {NAMED: bool(m.named or m.moves), OTHER: bool(m.other)}
    m.legend = [(c, t) for c, t in m.legend if shown[c]]
    return m


def _matching_marks(board: Board, ev: dict, m: Marks) -> None:
    c = ev.get("conclusion", {}) or {}
    reason = c.get("reason")
    if reason == "no perfect matching":
        m.named, m.other = _squares(board, c.get("S")), _squares(board, c.get("T"))
        m.legend += [(NAMED, "squares that cannot all be paired with a neighbour"),
                     (OTHER, "the only neighbours left to them")]
    elif reason == "degree":
        m.named, m.other = _squares(board, [c.get("square")]), _squares(board, c.get("moves_left"))
        m.moves = [(m.named[0], o) for o in m.other] if m.named else []
        m.legend += [(NAMED, "a square left with fewer than two usable moves"), (OTHER, "where its usable moves go")]
    elif reason in ("cut", "three forced"):
        m.named = _squares(board, [c.get("square")])
        m.other = _squares(board, c.get("forced_to"))
        m.legend.append((NAMED, "splits the remaining moves" if reason == "cut" else "would need three moves"))
        if m.other:
            m.legend.append((OTHER, "its three forced moves go here"))
    elif reason == "disconnected":
        m.other = _squares(board, c.get("squares"))
        m.legend.append((OTHER, "a square of each part the remaining moves fall into"))
        if not ev.get("extra"):
            # A closed question: the remaining moves are the board's moves less those the proof deleted.
            gone = [tuple(mv) for s in ev.get("steps", ()) for mv in s.get("deleted", ())]
            gone += [tuple(s["move"]) for s in ev.get("steps", ()) if s.get("step") == "subtour"]
            m.parts = _part_labels(board, drop_moves=gone)
    elif reason in ("forced excluded", "short cycle"):
        pair = _squares(board, c.get("move"))
        if len(pair) == 2:
            m.moves = [tuple(pair)]
            m.named = pair
            m.legend.append((NAMED, "the forced move that breaks the tour"))
    if not (m.named or m.other or m.moves):
        halls = [s for s in ev.get("steps", ()) if s.get("step") == "hall"]
        if halls:
            ex = halls[0]["example"]
            m.named, m.other = _squares(board, ex.get("S")), _squares(board, ex.get("T"))
            m.legend += [(NAMED, "a tight set of the matching argument"), (OTHER, "its only neighbours")]


def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _svg_open(w: float, h: float, title: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}" height="{h:g}" viewBox="0 0 {w:g} {h:g}">',
            f"<title>{_esc(title)}</title>"]


def _detail_svg(board: Board, tour: Tour | None, *, cell: int, title: str, numbers: bool,
                marks: Marks | None = None) -> str:
    """The board square by square: a checkerboard pattern, hatched holes, the path, marks."""
    pid = f"kt{next(_ids)}"
    rows, cols = board.rows, board.cols
    w, h = cols * cell, rows * cell
    # a1 (bottom left) is dark; the pattern starts at the top left square
    dark00 = (rows - 1) % 2 == 0
    a, b = (0, cell) if dark00 else (cell, 0)
    out = _svg_open(w, h, title)
    out.append(
        f'<defs><pattern id="{pid}-cb" width="{2 * cell}" height="{2 * cell}" patternUnits="userSpaceOnUse">'
        f'<rect width="{2 * cell}" height="{2 * cell}" fill="{LIGHT}"/>'
        f'<rect x="{a}" y="0" width="{cell}" height="{cell}" fill="{DARK}"/>'
        f'<rect x="{b}" y="{cell}" width="{cell}" height="{cell}" fill="{DARK}"/></pattern>'
        f'<pattern id="{pid}-h" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        f'<rect width="6" height="6" fill="{HOLE}"/><line x1="0" y1="0" x2="0" y2="6" stroke="#222" '
        'stroke-width="3"/></pattern></defs>'
    )
    out.append(f'<rect width="{w}" height="{h}" fill="url(#{pid}-cb)"/>')
    if marks is not None and marks.parts is not None:
        out.append('<g opacity="0.5">')
        sizes = np.bincount(marks.parts[marks.parts >= 0])
        rr, cc = np.nonzero((marks.parts >= 0) & (marks.parts != int(np.argmax(sizes))))
        for r, c in zip(rr.tolist(), cc.tolist(), strict=True):
            colour = _PARTS[(int(marks.parts[r, c]) - 1) % len(_PARTS)]
            out.append(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" fill="{colour}"/>')
        out.append("</g>")
    if board.n_holes:
        out.append(f'<g fill="url(#{pid}-h)">')
        out.extend(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}"/>' for r, c in board.holes)
        out.append("</g>")
    if marks is not None:
        for colour, squares in ((OTHER, marks.other), (NAMED, marks.named)):
            if not squares:
                continue
            sw = max(2.0, cell / 8)
            out.append(f'<g fill="{colour}" fill-opacity="0.3" stroke="{colour}" stroke-width="{sw:g}">')
            out.extend(f'<rect x="{c * cell + sw / 2:g}" y="{r * cell + sw / 2:g}" width="{cell - sw:g}" '
                       f'height="{cell - sw:g}"/>' for r, c in squares)
            out.append("</g>")
        for (r0, c0), (r1, c1) in marks.moves:
            out.append(f'<line x1="{(c0 + 0.5) * cell:g}" y1="{(r0 + 0.5) * cell:g}" x2="{(c1 + 0.5) * cell:g}" '
                       f'y2="{(r1 + 0.5) * cell:g}" stroke="{NAMED}" stroke-width="{max(2.0, cell / 8):g}" '
                       'stroke-dasharray="6 3"/>')
    if tour is not None and len(tour):
        xy = tour.coords[:, ::-1] * cell + cell / 2
        pts = " ".join(f"{x:g},{y:g}" for x, y in xy)
        shape = "polygon" if tour.closed else "polyline"
        out.append(f'<{shape} points="{pts}" fill="none" stroke="{PATH_COLOUR}" stroke-width="{max(1.0, cell / 14):g}" '
                   'stroke-linejoin="round" stroke-linecap="round" opacity="0.85"/>')
        (sx, sy), (ex, ey) = xy[0], xy[-1]
        out.append(f'<circle cx="{sx:g}" cy="{sy:g}" r="{cell * 0.3:g}" fill="#2e9e44"><title>start</title></circle>')
        half = cell * 0.26
        out.append(f'<rect x="{ex - half:g}" y="{ey - half:g}" width="{2 * half:g}" height="{2 * half:g}" '
                   'fill="#c62828"><title>end</title></rect>')
        if numbers:
            digits = len(str(len(tour)))
            size = min(cell * 0.45, cell * 1.5 / digits)
            out.append(f'<g font-family="sans-serif" font-size="{size:.3g}" text-anchor="middle" '
                       f'dominant-baseline="central" fill="#111" stroke="#fff" stroke-width="{size / 4:.2g}" '
                       'paint-order="stroke">')
            out.extend(f'<text x="{x:g}" y="{y:g}">{k}</text>' for k, (x, y) in enumerate(xy, 1))
            out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _hex_rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))


def _colour_map(values: np.ndarray) -> np.ndarray:
    """``(..., 3)`` uint8 viridis colours of values in ``[0, 1]``."""
    anchors = np.array([_hex_rgb(c) for c in _VIRIDIS], dtype=np.float64)
    x = np.clip(values, 0.0, 1.0) * (len(anchors) - 1)
    lo = np.minimum(np.floor(x).astype(np.int64), len(anchors) - 2)
    t = (x - lo)[..., None]
    return np.rint(anchors[lo] * (1 - t) + anchors[lo + 1] * t).astype(np.uint8)


def _png(rgb: np.ndarray) -> bytes:
    """A PNG file of an ``(h, w, 3)`` uint8 image (no filtering, zlib level 6)."""
    h, w, _ = rgb.shape
    raw = np.zeros((h, 1 + 3 * w), dtype=np.uint8)
    raw[:, 1:] = rgb.reshape(h, 3 * w)

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw.tobytes(), 6)) + chunk(b"IEND", b""))


def _block_sums(values: np.ndarray, block: int) -> tuple[np.ndarray, np.ndarray]:
    """Sums over ``block x block`` tiles of a 2-D array, and the count of non-zero cells of each tile.

    Works one row of tiles at a time, so beside ``values`` it holds a few
    rows of int64: a tour of 10^8 squares costs no copy of its step numbers.
    """
    rows, cols = values.shape
    starts = np.arange(0, cols, block)
    gh = -(-rows // block)
    sums = np.zeros((gh, starts.size), dtype=np.float64)
    nonzero = np.zeros((gh, starts.size), dtype=np.int64)
    for k, r0 in enumerate(range(0, rows, block)):
        part = values[r0 : r0 + block]
        sums[k] = np.add.reduceat(part.sum(axis=0, dtype=np.int64), starts)
        nonzero[k] = np.add.reduceat(np.count_nonzero(part, axis=0), starts)
    return sums, nonzero


def _hole_share(board: Board, block: int) -> np.ndarray:
    """Share of holes in every ``block x block`` tile, from the holes alone (no array of the board)."""
    r, c = np.divmod(board.hole_flat, board.cols)
    gh, gw = -(-board.rows // block), -(-board.cols // block)
    holes = np.bincount((r // block) * gw + c // block, minlength=gh * gw).reshape(gh, gw)
    tile_r = np.minimum(block, board.rows - np.arange(gh) * block)
    tile_c = np.minimum(block, board.cols - np.arange(gw) * block)
    return holes / np.outer(tile_r, tile_c)


def heat_svg(board: Board, tour: Tour | None = None, *, title: str, marks: Marks | None = None) -> str:
    """A large board as an image of blocks of squares, with a colour strip under it.

    Without a tour a block's shade is its share of holes; with a tour its
    colour is the mean step at which the tour visits the block's squares
    (viridis, from the first step to the last), so the picture shows the
    order in which the tour sweeps the board.  Blocks that are all holes are
    grey.  The image is a PNG inside the SVG: its size depends on
    :data:`HEAT_PX`, not on the board.
    """
    pid = f"kt{next(_ids)}"
    block = max(1, -(-max(board.rows, board.cols) // HEAT_PX))
    if tour is not None and len(tour):
        sums, visited = _block_sums(_step_numbers(tour).reshape(board.shape), block)
        rgb = _colour_map((sums / np.maximum(visited, 1) - 1) / max(1, len(tour) - 1))
        empty = visited == 0
    else:
        holes = _hole_share(board, block)
        light, hole = np.array(_hex_rgb(LIGHT), float), np.array(_hex_rgb(HOLE), float)
        rgb = np.rint(light + (hole - light) * holes[..., None]).astype(np.uint8)
        empty = holes >= 1.0
    rgb[empty] = _hex_rgb("#bdbdbd")
    gh, gw = rgb.shape[:2]
    scale = max(1, TARGET_PX // max(gh, gw))
    w, h = gw * scale, gh * scale
    strip = 14 if tour is not None else 0
    total_h = h + (strip + 18 if strip else 0)
    data = base64.b64encode(_png(rgb)).decode("ascii")
    out = _svg_open(w, total_h, title)
    out.append(f'<image width="{w}" height="{h}" preserveAspectRatio="none" style="image-rendering:pixelated" '
               f'href="data:image/png;base64,{data}"/>')
    if marks is not None:
        for colour, squares in ((OTHER, marks.other), (NAMED, marks.named)):
            for r, c in squares[:200]:
                out.append(f'<circle cx="{(c / block + 0.5) * scale:g}" cy="{(r / block + 0.5) * scale:g}" '
                           f'r="{max(4, scale):g}" fill="none" stroke="{colour}" stroke-width="2"/>')
    if strip:
        stops = "".join(f'<stop offset="{k / (len(_VIRIDIS) - 1):.3g}" stop-color="{c}"/>'
                        for k, c in enumerate(_VIRIDIS))
        out.append(f'<defs><linearGradient id="{pid}-g">{stops}</linearGradient></defs>')
        out.append(f'<rect y="{h + 2}" width="{w}" height="{strip}" fill="url(#{pid}-g)"/>')
        out.append(f'<g font-family="sans-serif" font-size="11" fill="#333"><text x="0" y="{total_h - 2}">step 1'
                   f'</text><text x="{w}" y="{total_h - 2}" text-anchor="end">step {len(tour):,}</text>'
                   f'<text x="{w / 2:g}" y="{total_h - 2}" text-anchor="middle">one block: {block}x{block} squares'
                   "</text></g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _default_title(board: Board, tour: Tour | None) -> str:
    size = f"{board.rows}x{board.cols} board"
    if board.n_holes:
        size += f" with {board.n_holes:,} hole{'s' if board.n_holes > 1 else ''}"
    if tour is None:
        return size
    kind = "closed" if tour.closed else "open"
    what = "knight's tour" if tour.is_complete else f"knight's path of {len(tour):,} squares"
    return f"{kind} {what} of a {size}"


def picture_svg(board: Board, tour: Tour | None = None, *, marks: Marks | None = None,
                title: str | None = None) -> str:
    """The notebook picture: square by square up to :data:`DETAIL_MAX` cells, a heat map beyond.

    Step numbers are written on tours of boards of at most
    :data:`NUMBERS_MAX` cells (30 x 30 is readable at the default size).

    Examples
    --------
    >>> ring = Board(3, 3, holes=[(1, 1)])
    >>> svg = picture_svg(ring, Tour(ring, [0, 4, 5, 1, 7, 3, 2, 6], closed=True))
    >>> svg.count("<text"), "<polygon" in svg
    (8, True)
    """
    title = title or _default_title(board, tour)
    if board.size <= DETAIL_MAX:
        return _detail_svg(board, tour, cell=_cell_px(board), title=title,
                           numbers=tour is not None and board.size <= NUMBERS_MAX, marks=marks)
    return heat_svg(board, tour, title=title, marks=marks)


def tour_svg(board: Board, tour: Tour | None, *, cell: int = 32, title: str | None = None) -> str:
    """An SVG picture of ``board`` and, when given, the path of ``tour`` (``--format svg``)."""
    if board.size > SVG_MAX_SQUARES:
        from .errors import UnsupportedError

        raise UnsupportedError(
            f"SVG pictures are limited to {SVG_MAX_SQUARES:,} squares; this board has {board.size:,}"
        )
    return _detail_svg(board, tour, cell=cell, title=title or _default_title(board, tour), numbers=False)


def _stats_text(stats) -> str:
    """The stats as indented JSON, arrays summarised, at most a few thousand characters."""
    from .result import _jsonable

    def small(v):
        if isinstance(v, np.ndarray) and v.size > 64:
            return f"array of shape {v.shape}"
        if isinstance(v, dict):
            return {k: small(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)) and len(v) > 64:
            return [*map(small, v[:64]), f"... ({len(v)} items)"]
        return v

    text = json.dumps(_jsonable(small(dict(stats))), indent=1, default=str)
    return text if len(text) <= 4000 else text[:4000] + "\n..."


def result_html(res: SolveResult) -> str:
    """A SolveResult for a notebook: its summary line, the picture, the proof with its squares, the stats."""
    status = res.status.value
    colour = {"found": "#2e7d32", "infeasible": "#c62828", "unknown": "#6d6d6d"}[status]
    out = ['<div class="ktsolve-result" style="font-family:sans-serif;line-height:1.35;max-width:760px">',
           f'<div><span style="color:#fff;background:{colour};padding:1px 6px;border-radius:3px">{status}</span> '
           f"{_esc(res.summary().removeprefix(status + ' '))}</div>"]
    board = res.board
    marks = proof_marks(board, res.proof) if board is not None and res.proof is not None else None
    shown = res.tour if res.tour is not None else res.path
    if board is not None:
        out.append(f'<div style="margin:6px 0">{picture_svg(board, shown, marks=marks)}</div>')
    if res.proof is not None:
        arg = getattr(res.proof, "argument", "")
        out.append(f'<div><b>Proof{" (" + _esc(arg) + ")" if arg else ""}:</b> {_esc(res.proof)}</div>')
        if marks is not None and marks.legend:
            items = "".join(f'<li><span style="display:inline-block;width:10px;height:10px;background:{c};'
                            f'margin-right:4px"></span>{_esc(t)}</li>' for c, t in marks.legend)
            if marks.parts is not None:
                items += "<li>shaded: the parts that no knight's move joins (the largest left plain)</li>"
            out.append(f'<ul style="margin:4px 0;padding-left:18px;font-size:90%">{items}</ul>')
    reason = res.stats.get("reason") if isinstance(res.stats, dict) else None
    if res.status is Status.UNKNOWN and reason:
        out.append(f"<div><b>Reason:</b> {_esc(reason)}</div>")
    if res.stats:
        out.append(f'<details><summary>stats</summary><pre style="font-size:85%">{_esc(_stats_text(res.stats))}'
                   "</pre></details>")
    out.append("</div>")
    return "\n".join(out)


def result_page(res: SolveResult) -> str:
    """A whole HTML page of a SolveResult (``--format html``): :func:`result_html` with a title, for a browser.

    Examples
    --------
    >>> from ktsolve import solve
    >>> page = result_page(solve("5x5", start="a1", seed=1))
    >>> page.startswith("<!DOCTYPE html>"), "<svg" in page
    (True, True)
    """
    title = res.summary() if res.board is not None else "ktsolve"
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            f"<title>{_esc(title)}</title>\n</head>\n<body style=\"margin:16px\">\n{result_html(res)}\n"
            "</body>\n</html>\n")
