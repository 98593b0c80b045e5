"""Pictures of boards, tours and answers: SVG for the command line and notebooks, HTML pages.

The work behind :mod:`ktsolve.render`'s pictures (which re-exports the
public names): boards of up to :data:`DETAIL_MAX` cells are drawn square by
square (:func:`picture_svg`), with file letters and rank numbers around
them, step numbers on request (``--numbers``; by default on notebook
pictures of up to :data:`NUMBERS_MAX` cells), a closed tour's closing move
drawn apart, and the squares a proof names highlighted
(:func:`proof_marks`).  A long board is wrapped into bands of columns, so
that its squares keep a readable size (``prove 4x100``: three bands of
about 45 columns, not a strip 28 pixels high).  Larger boards are a heat
map of blocks (:func:`heat_svg`) whose size does not grow with the board.
"""

from __future__ import annotations

import base64
import html
import itertools
import json
import struct
import textwrap
import zlib
import numpy as np

from ._proof_marks import NAMED, OTHER, Marks, proof_marks
from .board import Board, file_letters
from .result import SolveResult, Status
from .tour import Tour

#: Cells formatted or counted at a time.
_TEXT_CHUNK = 1 << 20


def step_numbers(tour: Tour) -> np.ndarray:
    """int32 array over the whole rectangle: 1-based step of every square, 0 on holes."""
    board = tour.board
    steps = np.zeros(board.size, dtype=np.int32)
    sq = tour.squares
    for lo in range(0, sq.size, _TEXT_CHUNK):
        part = sq[lo : lo + _TEXT_CHUNK]
        where = part if board.is_full else board.flat_of(part)
        steps[where] = np.arange(lo + 1, lo + 1 + part.size, dtype=np.int32)
    return steps



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
#: Colours of the separate parts of a board (the largest part stays uncoloured); no red or blue, the marks' colours.
_PARTS = ("#4daf4a", "#984ea3", "#ff7f00", "#f781bf", "#a65628", "#17becf", "#bcbd22", "#999999")
#: Ten colours along the viridis colour map, from first step to last.
_VIRIDIS = ("#440154", "#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b",
            "#fde725")

#: Every picture gets its own id prefix: a notebook page holds many SVGs in one document.
_ids = itertools.count(1)


#: Side in pixels under which a long board is wrapped into bands rather than drawn as a thin strip.
READABLE = 16
#: Tallest picture in pixels that wrapping or a tall board may give; beyond, the squares stay small.
WRAP_MAX_PX = 1600
PATH_COLOUR_CLOSING = "#e65100"


def layout(board: Board, *, numbers: bool = False, steps: int = 0) -> tuple[int, int]:
    """``(cell, band)``: the side of a square in pixels, and the columns of each band of the picture.

    A board drawn :data:`TARGET_PX` wide keeps its squares at least
    :data:`READABLE` pixels (more when step numbers of ``steps`` digits are
    written in them): a long board (``4x100``) is wrapped into bands of
    columns one under the other, a tall one (``100x4``) keeps its width;
    when that would make the picture taller than :data:`WRAP_MAX_PX` (a
    large square board) the squares shrink instead, down to
    :data:`MIN_CELL`.

    Examples
    --------
    >>> layout(Board(8, 8)), layout(Board(4, 100)), layout(Board(100, 4)), layout(Board(100, 100))
    ((48, 8), (16, 45), (16, 4), (7, 100))
    """
    rows, cols = board.rows, board.cols
    cell = max(MIN_CELL, min(MAX_CELL, TARGET_PX // max(rows, cols)))
    need = READABLE
    if numbers:  # step numbers of 9 px at least, and as many digits as the last step has
        need = max(need, 20, 6 * len(str(max(1, steps))))
    if cell >= need:
        return cell, cols
    if cols * need <= TARGET_PX and rows * need <= WRAP_MAX_PX:
        return need, cols  # a tall board: its width fits, its height is readable
    band = max(1, TARGET_PX // need)
    bands = -(-cols // band)
    if cols >= 2 * rows and bands * (rows * need + 2 * need) <= WRAP_MAX_PX:
        return need, band  # a long board: bands of columns one under the other
    return cell, cols


def _esc(text) -> str:
    return html.escape(str(text), quote=True)


def _svg_open(w: float, h: float, title: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}" height="{h:g}" viewBox="0 0 {w:g} {h:g}">',
            f"<title>{_esc(title)}</title>"]


def _label_step(cell: float, text_px: float) -> int:
    """Label every k-th file or rank so that labels do not run into each other."""
    return max(1, int(-(-text_px // cell)))


def _legend_lines(marks: Marks) -> list[tuple[str, str]]:
    """What the colours of a proof's picture mean, one (colour, words) a line."""
    lines = list(marks.legend)
    if marks.parts is not None:
        lines.append((_PARTS[0], "shaded: the parts that no knight's move joins (the largest left plain)"))
    return lines


def _detail_svg(board: Board, tour: Tour | None, *, cell: int, title: str, numbers: bool,
                marks: Marks | None = None, band: int | None = None, with_legend: bool = False,
                caption: str = "") -> str:
    """The board square by square: checkerboard, hatched holes, marks, the path, coordinates; in bands of columns.

    Each band shows ``band`` columns (all of them by default) with rank
    numbers on its left and file letters under it; the board's content is
    drawn once per band, clipped to the band, so a move that crosses from
    one band to the next is seen leaving the one and entering the other.
    """
    pid = f"kt{next(_ids)}"
    rows, cols = board.rows, board.cols
    band = cols if band is None else max(1, min(cols, int(band)))
    n_bands = -(-cols // band)
    font = max(9, min(13, round(cell * 0.42)))
    left = int(font * 0.62 * len(str(rows)) + 7)
    under = int(font + 6)
    gap = font if n_bands > 1 else 0  # between two bands
    bh = rows * cell
    w = left + band * cell + 4
    h = 4 + n_bands * (bh + under) + (n_bands - 1) * gap
    legend = _legend_lines(marks) if marks is not None and with_legend else []
    if legend:
        w = max(w, left + 24 + 7 * max(len(text) for _, text in legend))
        h += 6 + 18 * len(legend)
    lines = []
    if caption:
        chars = max(48, int((w - left - 4) / 6.8))  # about 6.8 px a character of 12 px sans-serif
        w = max(w, int(left + 6.8 * chars + 4))
        lines = textwrap.wrap(caption, chars, break_long_words=False)
        h += 6 + 16 * len(lines)
    # a1 (bottom left) is dark; the pattern starts at the top left square
    dark00 = (rows - 1) % 2 == 0
    a, b = (0, cell) if dark00 else (cell, 0)
    out = _svg_open(w, h, title)
    defs = [f'<pattern id="{pid}-cb" width="{2 * cell}" height="{2 * cell}" patternUnits="userSpaceOnUse">'
            f'<rect width="{2 * cell}" height="{2 * cell}" fill="{LIGHT}"/>'
            f'<rect x="{a}" y="0" width="{cell}" height="{cell}" fill="{DARK}"/>'
            f'<rect x="{b}" y="{cell}" width="{cell}" height="{cell}" fill="{DARK}"/></pattern>',
            f'<pattern id="{pid}-h" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
            f'<rect width="6" height="6" fill="{HOLE}"/><line x1="0" y1="0" x2="0" y2="6" stroke="#222" '
            'stroke-width="3"/></pattern>']
    for k in range(n_bands):
        c0, c1 = k * band, min(cols, (k + 1) * band)
        defs.append(f'<clipPath id="{pid}-b{k}"><rect x="{c0 * cell}" y="0" width="{(c1 - c0) * cell}" '
                    f'height="{bh}"/></clipPath>')
    out.append("<defs>" + "".join(defs) + "</defs>")
    xy = None
    if tour is not None and len(tour):
        xy = tour.coords[:, ::-1] * cell + cell / 2
        tcols = tour.coords[:, 1]
    holes = np.asarray(board.holes, dtype=np.int64).reshape(-1, 2)
    for k in range(n_bands):
        c0, c1 = k * band, min(cols, (k + 1) * band)
        y0 = 4 + k * (bh + under + gap)

        def inside(c, lo=c0, hi=c1):
            return lo <= c < hi

        out.append(f'<g transform="translate({left - c0 * cell:g},{y0:g})" clip-path="url(#{pid}-b{k})">')
        out.append(f'<rect x="{c0 * cell}" width="{(c1 - c0) * cell}" height="{bh}" fill="url(#{pid}-cb)"/>')
        if marks is not None and marks.parts is not None:
            out.append('<g opacity="0.5">')
            sizes = np.bincount(marks.parts[marks.parts >= 0])
            part = marks.parts[:, c0:c1]
            rr, cc = np.nonzero((part >= 0) & (part != int(np.argmax(sizes))))
            for r, c in zip(rr.tolist(), (cc + c0).tolist(), strict=True):
                colour = _PARTS[(int(marks.parts[r, c]) - 1) % len(_PARTS)]
                out.append(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}" fill="{colour}"/>')
            out.append("</g>")
        here = holes[(holes[:, 1] >= c0) & (holes[:, 1] < c1)]
        if len(here):
            out.append(f'<g fill="url(#{pid}-h)">')
            out.extend(f'<rect x="{c * cell}" y="{r * cell}" width="{cell}" height="{cell}"/>' for r, c in here.tolist())
            out.append("</g>")
        if marks is not None:
            for colour, squares in ((OTHER, marks.other), (NAMED, marks.named)):
                squares = [(r, c) for r, c in squares if inside(c)]
                if not squares:
                    continue
                sw = max(2.0, cell / 8)
                out.append(f'<g fill="{colour}" fill-opacity="0.3" stroke="{colour}" stroke-width="{sw:g}">')
                out.extend(f'<rect x="{c * cell + sw / 2:g}" y="{r * cell + sw / 2:g}" width="{cell - sw:g}" '
                           f'height="{cell - sw:g}"/>' for r, c in squares)
                out.append("</g>")
            for (r0, q0), (r1, q1) in marks.moves:
                if inside(q0, c0 - 2, c1 + 2) or inside(q1, c0 - 2, c1 + 2):
                    out.append(f'<line x1="{(q0 + 0.5) * cell:g}" y1="{(r0 + 0.5) * cell:g}" '
                               f'x2="{(q1 + 0.5) * cell:g}" y2="{(r1 + 0.5) * cell:g}" stroke="{NAMED}" '
                               f'stroke-width="{max(2.0, cell / 8):g}" stroke-dasharray="6 3"/>')
        if xy is not None:
            out.extend(_path(tour, xy, tcols, c0, c1, cell, numbers, n_bands == 1))
        out.append("</g>")
        out.extend(_coordinates(board, c0, c1, cell, left, y0, bh, font))
    if legend:
        y = 4 + n_bands * (bh + under) + (n_bands - 1) * gap + 6
        out.append('<g font-family="sans-serif" font-size="12" fill="#333">')
        for k, (colour, text) in enumerate(legend):
            out.append(f'<rect x="{left}" y="{y + 18 * k + 2}" width="12" height="12" fill="{colour}" '
                       f'fill-opacity="{0.5 if colour in _PARTS else 0.6}"/>'
                       f'<text x="{left + 18}" y="{y + 18 * k + 12}">{_esc(text)}</text>')
        out.append("</g>")
    if lines:
        y = h - 16 * len(lines) - 2
        out.append('<g font-family="sans-serif" font-size="12" fill="#222">')
        out.extend(f'<text x="{left}" y="{y + 16 * k + 10}">{_esc(line)}</text>' for k, line in enumerate(lines))
        out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _path(tour: Tour, xy: np.ndarray, tcols: np.ndarray, c0: int, c1: int, cell: int, numbers: bool,
          whole: bool) -> list[str]:
    """The tour's moves near columns ``[c0, c1)``, its closing move, its start and end, its step numbers."""
    out = []
    width = f'stroke-width="{max(1.0, cell / 14):g}" stroke-linejoin="round" stroke-linecap="round"'
    if whole:
        pts = " ".join(f"{x:g},{y:g}" for x, y in xy)
        shape = "polygon" if tour.closed else "polyline"
        out.append(f'<{shape} points="{pts}" fill="none" stroke="{PATH_COLOUR}" {width} opacity="0.85"/>')
    else:
        # moves with a square in the band or next to it (a knight moves at most two columns)
        lo, hi = np.minimum(tcols[:-1], tcols[1:]), np.maximum(tcols[:-1], tcols[1:])
        near = np.flatnonzero((hi >= c0) & (lo < c1))
        d, last = [], -2
        for i in near.tolist():
            if i != last + 1:
                d.append(f"M{xy[i, 0]:g},{xy[i, 1]:g}")
            d.append(f"L{xy[i + 1, 0]:g},{xy[i + 1, 1]:g}")
            last = i
        if d:
            out.append(f'<path d="{" ".join(d)}" fill="none" stroke="{PATH_COLOUR}" {width} opacity="0.85"/>')
    board = tour.board
    first, final = tour.coords[0], tour.coords[-1]
    if tour.closed and len(tour) > 2 and (c0 - 2 <= min(first[1], final[1]) < c1 or c0 <= max(first[1], final[1])
                                          < c1 + 2):
        (sx, sy), (ex, ey) = xy[0], xy[-1]
        names = f"{board.name(*final)}-{board.name(*first)}"
        out.append(f'<line class="closing" x1="{ex:g}" y1="{ey:g}" x2="{sx:g}" y2="{sy:g}" '
                   f'stroke="{PATH_COLOUR_CLOSING}" stroke-width="{max(1.5, cell / 10):g}" '
                   f'stroke-dasharray="{max(2.0, cell / 6):g} {max(2.0, cell / 10):g}" stroke-linecap="round">'
                   f"<title>the closing move {names}, back to the start</title></line>")
    if c0 <= first[1] < c1:
        sx, sy = xy[0]
        out.append(f'<circle cx="{sx:g}" cy="{sy:g}" r="{cell * 0.3:g}" fill="#2e9e44"><title>start '
                   f"{board.name(*first)}</title></circle>")
    if c0 <= final[1] < c1:
        ex, ey = xy[-1]
        half = cell * 0.26
        out.append(f'<rect x="{ex - half:g}" y="{ey - half:g}" width="{2 * half:g}" height="{2 * half:g}" '
                   f'fill="#c62828"><title>end {board.name(*final)}</title></rect>')
    if numbers:
        digits = len(str(len(tour)))
        size = min(cell * 0.45, cell * 1.5 / digits)
        out.append(f'<g font-family="sans-serif" font-size="{size:.3g}" text-anchor="middle" '
                   f'dominant-baseline="central" fill="#111" stroke="#fff" stroke-width="{size / 4:.2g}" '
                   'paint-order="stroke">')
        steps = np.flatnonzero((tcols >= c0) & (tcols < c1))
        out.extend(f'<text x="{xy[i, 0]:g}" y="{xy[i, 1]:g}">{i + 1}</text>' for i in steps.tolist())
        out.append("</g>")
    return out


def _coordinates(board: Board, c0: int, c1: int, cell: int, left: float, y0: float, bh: int,
                 font: float) -> list[str]:
    """Rank numbers left of a band and file letters under it (every k-th when the squares are small)."""
    rows = board.rows
    out = [f'<g font-family="sans-serif" font-size="{font:g}" fill="#444">']
    step = _label_step(cell, font * 1.1)
    for r in range(rows):
        rank = rows - r
        if rank % step == 0 or rank == 1 or (step > 1 and rank == rows):
            out.append(f'<text x="{left - 4:g}" y="{y0 + (r + 0.5) * cell:g}" text-anchor="end" '
                       f'dominant-baseline="central">{rank}</text>')
    widest = len(file_letters(max(0, c1 - 1)))
    step = _label_step(cell, font * (0.65 * widest + 0.4))
    for c in range(c0, c1):
        if (c - c0) % step == 0 or c == c1 - 1 and (c - c0) % step >= step // 2 + 1:
            out.append(f'<text x="{left + (c - c0 + 0.5) * cell:g}" y="{y0 + bh + font + 1:g}" '
                       f'text-anchor="middle">{file_letters(c)}</text>')
    out.append("</g>")
    return out


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
        sums, visited = _block_sums(step_numbers(tour).reshape(board.shape), block)
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
    # a few files and ranks around the image, at the blocks that hold them
    font = 11
    left = int(font * 0.62 * len(str(board.rows)) + 7)
    under = font + 6
    strip = 14 if tour is not None else 0
    total_h = h + under + (strip + 18 if strip else 0)
    data = base64.b64encode(_png(rgb)).decode("ascii")
    out = _svg_open(left + w + 4, total_h, title)
    out.append(f'<g transform="translate({left},0)">')
    out.append(f'<image width="{w}" height="{h}" preserveAspectRatio="none" style="image-rendering:pixelated" '
               f'href="data:image/png;base64,{data}"/>')
    if marks is not None:
        for colour, squares in ((OTHER, marks.other), (NAMED, marks.named)):
            for r, c in squares[:200]:
                out.append(f'<circle cx="{(c / block + 0.5) * scale:g}" cy="{(r / block + 0.5) * scale:g}" '
                           f'r="{max(4, scale):g}" fill="none" stroke="{colour}" stroke-width="2"/>')
    out.append(f'<g font-family="sans-serif" font-size="{font}" fill="#444">')
    for c in sorted({0, board.cols // 4, board.cols // 2, 3 * board.cols // 4, board.cols - 1}):
        anchor = "start" if c == 0 else "end" if c == board.cols - 1 else "middle"
        x = 0 if c == 0 else w if c == board.cols - 1 else (c / block + 0.5) * scale
        out.append(f'<text x="{x:g}" y="{h + font + 1}" text-anchor="{anchor}">{file_letters(c)}</text>')
    for r in sorted({0, board.rows // 2, board.rows - 1}):
        baseline = "hanging" if r == 0 else "auto" if r == board.rows - 1 else "central"
        y = 0 if r == 0 else h if r == board.rows - 1 else (r / block + 0.5) * scale
        out.append(f'<text x="-4" y="{y:g}" text-anchor="end" dominant-baseline="{baseline}">{board.rows - r}'
                   "</text>")
    out.append("</g>")
    if strip:
        stops = "".join(f'<stop offset="{k / (len(_VIRIDIS) - 1):.3g}" stop-color="{c}"/>'
                        for k, c in enumerate(_VIRIDIS))
        y0 = h + under
        out.append(f'<defs><linearGradient id="{pid}-g">{stops}</linearGradient></defs>')
        out.append(f'<rect y="{y0 + 2}" width="{w}" height="{strip}" fill="url(#{pid}-g)"/>')
        out.append(f'<g font-family="sans-serif" font-size="11" fill="#333"><text x="0" y="{total_h - 2}">step 1'
                   f'</text><text x="{w}" y="{total_h - 2}" text-anchor="end">step {len(tour):,}</text>'
                   f'<text x="{w / 2:g}" y="{total_h - 2}" text-anchor="middle">one block: {block}x{block} squares'
                   "</text></g>")
    out.append("</g>")
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
                title: str | None = None, numbers: bool | None = None) -> str:
    """The picture of a board: square by square up to :data:`DETAIL_MAX` cells, a heat map beyond.

    Files and ranks are named around the board, a long board is wrapped
    into bands (:func:`layout`), a closed tour's closing move is drawn apart
    (dashed), and ``numbers`` writes every step's number in its square
    (by default on tours of boards of at most :data:`NUMBERS_MAX` cells).

    Examples
    --------
    >>> ring = Board(3, 3, holes=[(1, 1)])
    >>> svg = picture_svg(ring, Tour(ring, [0, 4, 5, 1, 7, 3, 2, 6], closed=True))
    >>> svg.count("<text"), "<polygon" in svg, 'class="closing"' in svg
    (14, True, True)
    """
    title = title or _default_title(board, tour)
    if board.size <= DETAIL_MAX:
        if numbers is None:
            numbers = tour is not None and board.size <= NUMBERS_MAX
        numbers = bool(numbers) and tour is not None
        cell, band = layout(board, numbers=numbers, steps=0 if tour is None else len(tour))
        return _detail_svg(board, tour, cell=cell, title=title, numbers=numbers, marks=marks, band=band)
    return heat_svg(board, tour, title=title, marks=marks)


def _check_svg_size(board: Board) -> None:
    if board.size > SVG_MAX_SQUARES:
        from .errors import UnsupportedError

        raise UnsupportedError(
            f"SVG pictures are limited to {SVG_MAX_SQUARES:,} squares; this board has {board.size:,}"
        )


def tour_svg(board: Board, tour: Tour | None, *, title: str | None = None, numbers: bool = False,
             marks: Marks | None = None, legend: bool = True, caption: str = "") -> str:
    """An SVG picture of ``board`` and, when given, the path of ``tour``: square by square, up to
    :data:`SVG_MAX_SQUARES` cells (a heat map is for notebooks; a file asked for as SVG shows every square).

    Examples
    --------
    >>> b = Board(4, 100)
    >>> svg = tour_svg(b, None)
    >>> svg.count("<clipPath"), 'height="' in svg.splitlines()[0]
    (3, True)
    """
    _check_svg_size(board)
    title = title or _default_title(board, tour)
    numbers = bool(numbers) and tour is not None
    cell, band = layout(board, numbers=numbers, steps=0 if tour is None else len(tour))
    return _detail_svg(board, tour, cell=cell, title=title, numbers=numbers, marks=marks, band=band,
                       with_legend=legend, caption=caption)


def result_svg(res: SolveResult, *, numbers: bool = False) -> str:
    """``--format svg``: the tour found, or the board with the squares a proof names highlighted, and what they mean.

    Examples
    --------
    >>> from ktsolve import prove
    >>> svg = result_svg(prove("4x6", closed=True))
    >>> "fill-opacity" in svg or "opacity" in svg
    True
    """
    board = res.board
    marks = proof_marks(board, res.proof) if res.proof is not None else None
    shown = res.tour if res.tour is not None else res.path
    title = res.summary()
    caption = ""
    if res.proof is not None:
        title += f": {res.proof}"
        caption = f"No tour: {res.proof}"  # the picture says why on its own, as the HTML page does
    elif res.status is Status.UNKNOWN:
        caption = f"Unknown: {res.stats.get('reason', 'the budget ran out')}"
    return tour_svg(board, shown, title=title, numbers=numbers, marks=marks, caption=caption)


def _stats_text(stats) -> str:
    """The stats as indented JSON, arrays summarised, at most a few thousand characters."""
    from .result import jsonable

    def small(v):
        if isinstance(v, np.ndarray) and v.size > 64:
            return f"array of shape {v.shape}"
        if isinstance(v, dict):
            return {k: small(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)) and len(v) > 64:
            return [*map(small, v[:64]), f"... ({len(v)} items)"]
        return v

    text = json.dumps(jsonable(small(dict(stats))), indent=1, default=str)
    return text if len(text) <= 4000 else text[:4000] + "\n..."


def result_html(res: SolveResult, *, numbers: bool | None = None) -> str:
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
        out.append(f'<div style="margin:6px 0">{picture_svg(board, shown, marks=marks, numbers=numbers)}</div>')
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


def result_page(res: SolveResult, *, numbers: bool = False) -> str:
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
            f"<title>{_esc(title)}</title>\n</head>\n<body style=\"margin:16px\">\n"
            f"{result_html(res, numbers=numbers)}\n"
            "</body>\n</html>\n")
