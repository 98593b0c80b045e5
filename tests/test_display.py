"""Notebook pictures: Board, Tour and SolveResult draw themselves as SVG / HTML."""

from __future__ import annotations

import base64
import json
import re
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
import zlib

import numpy as np
import pytest

from ktsolve import Board, Proof, SolveResult, Status, Tour, TourSpec, prove, solve
from ktsolve.render import DETAIL_MAX, HEAT_PX, NUMBERS_MAX, picture_svg, proof_marks

SVG = "{http://www.w3.org/2000/svg}"
RING = Board(3, 3, holes=[(1, 1)])
RING_TOUR = Tour(RING, [0, 4, 5, 1, 7, 3, 2, 6], closed=True)


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def tags(root, tag):
    return [el for el in root.iter() if el.tag == SVG + tag]


def svg_in(html_text: str) -> ET.Element:
    return parse(html_text[html_text.index("<svg"): html_text.index("</svg>") + 6])


def decode_png(data: bytes) -> np.ndarray:
    """The (h, w, 3) pixels of a PNG written without filters (ktsolve's own)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos: pos + 4])
        tag, body = data[pos + 4: pos + 8], data[pos + 8: pos + 8 + n]
        (crc,) = struct.unpack(">I", data[pos + 8 + n: pos + 12 + n])
        assert crc == zlib.crc32(tag + body) & 0xFFFFFFFF
        if tag == b"IHDR":
            size = struct.unpack(">II", body[:8])
        elif tag == b"IDAT":
            idat += body
        pos += 12 + n
    w, h = size
    raw = np.frombuffer(zlib.decompress(idat), dtype=np.uint8).reshape(h, 1 + 3 * w)
    assert (raw[:, 0] == 0).all()
    return raw[:, 1:].reshape(h, w, 3)


def cell_of(root) -> float:
    """The side of a square: the checkerboard pattern is two squares wide."""
    (pattern,) = [p for p in tags(root, "pattern") if p.get("id").endswith("-cb")]
    return float(pattern.get("width")) / 2


def bands(root) -> list:
    """The groups that hold the board's squares, one per band of columns (in board coordinates)."""
    return [g for g in tags(root, "g") if g.get("clip-path")]


def step_texts(root) -> list:
    """The step numbers (written inside the board; file letters and rank numbers are outside it)."""
    return [t for b in bands(root) for t in b.iter(SVG + "text")]


def heat_pixels(svg_root) -> np.ndarray:
    (img,) = tags(svg_root, "image")
    href = img.get("href")
    assert href.startswith("data:image/png;base64,")
    return decode_png(base64.b64decode(href.split(",", 1)[1]))


# ---------------------------------------------------------------------- boards
def test_board_shows_its_holes_and_colours():
    b = Board(5, 6, holes=[(0, 0), (2, 3), (4, 5)])
    root = parse(b._repr_svg_())
    assert "with 3 holes" in tags(root, "title")[0].text
    hole_rects = [r for g in tags(root, "g") if "-h)" in (g.get("fill") or "") for r in g]
    cell = int(cell_of(root))
    assert sorted((int(r.get("y")) // cell, int(r.get("x")) // cell) for r in hole_rects) == [(0, 0), (2, 3), (4, 5)]
    # a1, the bottom-left square, is dark: with 5 rows the pattern's top-left square is dark too
    pattern = [p for p in tags(root, "pattern") if p.get("id").endswith("-cb")][0]
    dark = [r for r in pattern if r.get("fill") == "#b58863"]
    assert {(r.get("x"), r.get("y")) for r in dark} == {("0", "0"), (str(cell), str(cell))}
    even = parse(Board(4, 4)._repr_svg_())
    dark = [r for p in tags(even, "pattern") if p.get("id").endswith("-cb") for r in p if r.get("fill") == "#b58863"]
    c4 = int(cell_of(even))
    assert {(r.get("x"), r.get("y")) for r in dark} == {(str(c4), "0"), ("0", str(c4))}


def test_every_picture_has_its_own_ids():
    a, b = Board(3, 3)._repr_svg_(), Board(3, 3)._repr_svg_()
    ids = lambda s: set(re.findall(r'id="([^"]+)"', s))  # noqa: E731
    assert ids(a) and not ids(a) & ids(b)


# ---------------------------------------------------------------------- tours
def _numbers(root):
    cell = cell_of(root)
    out = {}
    for t in step_texts(root):
        r, c = int(float(t.get("y")) // cell), int(float(t.get("x")) // cell)
        out[int(t.text)] = (r, c)
    return out


def root_cols(root) -> int:
    return int(re.search(r"(\d+)x(\d+) board", tags(root, "title")[0].text).group(2))


def test_tour_numbers_every_step_on_its_square():
    res = solve("5x6", method="warnsdorff", seed=2, closed=True)
    root = parse(res.tour._repr_svg_())
    numbers = _numbers(root)
    assert numbers == {k + 1: tuple(int(v) for v in rc) for k, rc in enumerate(res.tour.coords)}
    assert len(tags(root, "polygon")) == 1 and not tags(root, "polyline")
    (start,) = [c for c in tags(root, "circle")]
    cell = cell_of(root)
    r0, c0 = res.tour.coords[0]
    assert (float(start.get("cx")), float(start.get("cy"))) == ((c0 + 0.5) * cell, (r0 + 0.5) * cell)


def test_open_tours_are_polylines_and_paths_draw_too():
    t = solve("5x5", method="warnsdorff", seed=1).tour
    assert tags(parse(t._repr_svg_()), "polyline")
    path = Tour(Board(4, 4), [0, 6, 15])  # a partial path of a longest-path answer
    root = parse(path._repr_svg_())
    assert "path of 3 squares" in tags(root, "title")[0].text and len(step_texts(root)) == 3


def test_thirty_by_thirty_is_readable():
    res = solve(Board(30, 30), method="warnsdorff", seed=1)
    root = parse(res.tour._repr_svg_())
    texts = step_texts(root)
    assert len(texts) == 900 and int(root.get("width")) <= 760
    (numbers,) = [g for b in bands(root) for g in b.iter(SVG + "g") if g.get("font-size")]
    size = float(numbers.get("font-size"))
    cell = cell_of(root)
    assert size >= 9 and 3 * 0.6 * size < cell  # three digits fit in a square


def test_larger_boards_drop_the_numbers_then_the_squares():
    side = int(NUMBERS_MAX**0.5) + 1
    t = solve(Board(side, side), method="warnsdorff", seed=1).tour
    root = parse(t._repr_svg_())
    assert not step_texts(root) and tags(root, "polyline")
    b = Board(101, 100)
    assert b.size > DETAIL_MAX
    root = parse(b._repr_svg_())
    assert len(tags(root, "image")) == 1 and not tags(root, "polyline")


def test_heat_map_of_a_large_board_shades_the_holes():
    b = Board(300, 300, holes=[(r, c) for r in range(100) for c in range(100)])
    px = heat_pixels(parse(b._repr_svg_()))
    assert max(px.shape[:2]) <= HEAT_PX
    assert (px[0, 0] == (0xBD, 0xBD, 0xBD)).all()  # a block of holes only
    assert (px[-1, -1] == (0xF0, 0xD9, 0xB5)).all()  # squares only


def test_heat_map_of_a_tour_follows_the_visiting_order():
    b = Board(1000, 1000)
    # row by row (not a knight's tour: pictures draw what they are given)
    t = Tour(b, np.arange(b.n_squares, dtype=np.int32))
    root = parse(t._repr_svg_())
    px = heat_pixels(root).astype(int)
    assert px.shape[:2] == (200, 200)
    assert abs(px[0, 0] - (0x44, 0x01, 0x54)).max() <= 2
    assert abs(px[-1, -1] - (0xFD, 0xE7, 0x25)).max() <= 8
    # the same colour along a row of blocks, brighter down the rows (the green channel grows in viridis)
    assert np.abs(px[50] - px[50, 0]).max() <= 2 and (np.diff(px[:, 0, 1]) >= 0).all()
    assert "step 1,000,000" in "".join(el.text or "" for el in tags(root, "text"))


def test_a_million_square_result_is_small():
    res = solve("1000x1000", method="divide", seed=1)
    out = res._repr_html_()
    assert len(out) < 100_000
    assert out.count("<rect") < 10 and out.count("<text") < 20  # the coordinates: a few files and ranks
    root = svg_in(out)
    assert heat_pixels(root).shape[:2] == (200, 200)


# ---------------------------------------------------------------------- results and proofs
def test_found_result_html():
    res = solve("5x5", method="warnsdorff", seed=1, start="a1")
    out = res._repr_html_()
    assert out.startswith('<div class="ktsolve-result"') and ">found</span>" in out
    assert ">found</span> open tour from a1 of 25 squares with warnsdorff" in out
    assert len(step_texts(svg_in(out))) == 25
    assert "<details><summary>stats</summary>" in out


def test_unknown_result_shows_the_reason():
    res = solve("6x6", method=lambda graph, spec, **kw: None, seed=1)
    out = res._repr_html_()
    assert ">unknown</span>" in out and "<b>Reason:</b> method &#x27;user_method&#x27; returned no tour" in out


def test_text_is_escaped():
    p = Proof("a <b> & c", argument="mine")
    out = SolveResult(Status.INFEASIBLE, proof=p, board=Board(3, 3), spec=TourSpec())._repr_html_()
    assert "a &lt;b&gt; &amp; c" in out and "<b> &" not in out


def test_a_result_without_a_board_has_no_picture():
    out = SolveResult(Status.UNKNOWN, stats={"reason": "r"})._repr_html_()
    assert "<svg" not in out and "r</div>" in out


def test_stats_are_summarised():
    res = SolveResult(Status.UNKNOWN, board=Board(3, 3), spec=TourSpec(),
                      stats={"big": np.zeros(1000), "long": list(range(500)), "reason": "x"})
    out = res._repr_html_()
    text = out[out.index("<pre"):]
    assert "array of shape (1000,)" in text and "(500 items)" in text and len(text) < 4500


def _marks(board, closed=False):
    res = prove(board, closed=closed)
    assert res.status is Status.INFEASIBLE
    return res, proof_marks(board, res.proof)


@pytest.mark.parametrize(
    "board, closed, argument, named, other",
    [
        (Board(3, 3), False, "degree", ["b2"], []),
        (Board(4, 8, holes=[(0, 7), (1, 7), (2, 1), (2, 4), (2, 6)]), False, "degree", ["a4", "f4", "g1"], []),
        (Board(4, 4, holes=[(1, 1)]), False, "cut square", ["c2"], ["a4", "d4", "a1"]),
        (Board(3, 11, holes=[(r, k) for r in range(3) for k in (4, 5, 6)]), False, "connectivity", ["a3", "h3"], []),
        (Board(8, 4, holes=[(0, 2), (3, 2), (5, 2), (5, 3), (7, 2)]), False, "matching",
         ["a8", "d7", "a6", "d5", "a4", "a2", "d1"], ["b8", "c7", "b6", "b4", "b2"]),  # and the extra square *
        (Board(4, 6, holes=[(0, 0), (1, 4), (2, 0), (3, 2), (3, 3)]), False, "matching", ["f1"], ["d2"]),
        (Board(4, 7, holes=[(0, 3), (1, 3), (3, 4)]), False, "matching", ["c1", "a2"], []),
        (Board(4, 4), True, "matching", [], ["a4", "b4", "c4", "d4"]),
    ],
    ids=["degree-0", "one-neighbour", "cut-square", "connectivity", "no-perfect-matching", "matching-degree",
         "short-cycle", "disconnected"],
)
def test_proofs_highlight_the_squares_they_name(board, closed, argument, named, other):
    res, m = _marks(board, closed)
    assert res.proof.argument == argument
    assert sorted(board.names(m.named)) == sorted(named)
    assert sorted(board.names(m.other)) == sorted(other)
    assert m.legend
    out = res._repr_html_()
    root = svg_in(out)
    cell = cell_of(root)
    for colour, squares in (("#d32f2f", m.named), ("#1565c0", m.other)):
        groups = [g for g in tags(root, "g") if g.get("stroke") == colour]
        drawn = {(int(float(r.get("y")) // cell), int(float(r.get("x")) // cell)) for g in groups for r in g}
        assert drawn == set(squares)
    for _, text in m.legend:
        assert text.replace("'", "&#x27;") in out


def test_short_cycle_draws_its_move_and_parts_are_shaded():
    res, m = _marks(Board(4, 7, holes=[(0, 3), (1, 3), (3, 4)]))
    assert len(m.moves) == 1 and tags(svg_in(res._repr_html_()), "line")
    res, m = _marks(Board(4, 4), closed=True)
    # the four parts the remaining moves fall into: each square in the part of its example
    assert m.parts is not None and len(set(m.parts.ravel().tolist())) == 4
    assert len({int(m.parts[r, c]) for r, c in m.other}) == 4
    res, m = _marks(Board(4, 4, holes=[(1, 1)]))
    sizes = sorted(np.bincount(m.parts[m.parts >= 0]).tolist())
    assert sizes == [1, 1, 12]


def test_proofs_without_squares_mark_nothing():
    for arg in ("cpsat", "exhaustive search"):
        m = proof_marks(Board(5, 5), Proof("no", argument=arg))
        assert not (m.named or m.other or m.moves or m.legend) and m.parts is None
    m = proof_marks(Board(5, 5), Proof("no", argument="degree", evidence={"square": "z99"}))
    assert m.named == [] and m.legend == []


def test_proof_marks_on_a_large_board_become_circles():
    board = Board(200, 200, holes=[(1, 2), (2, 1), (100, 100), (100, 102)])  # a200 loses both its neighbours
    res = prove(board)
    assert res.proof.argument == "degree"
    root = svg_in(res._repr_html_())
    assert len(tags(root, "image")) == 1
    (circle,) = tags(root, "circle")
    assert circle.get("stroke") == "#d32f2f" and float(circle.get("cx")) < 10 and float(circle.get("cy")) < 10


def test_display_imports_no_method():
    code = (
        "import sys, ktsolve\n"
        "b = ktsolve.Board(6, 6, holes=[(0, 0)])\n"
        "b._repr_svg_(); ktsolve.Tour(b, [0, 1])._repr_svg_()\n"
        "ktsolve.SolveResult(ktsolve.Status.UNKNOWN, board=b)._repr_html_()\n"
        "prefixes = ('ktsolve.models', 'ktsolve.heuristics', 'numba', 'ortools')\n"
        "print([m for m in sys.modules if m.startswith(prefixes)])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.replace("'", '"')) == []


def test_picture_svg_of_a_one_square_board():
    b = Board(1, 1)
    root = parse(picture_svg(b, Tour(b, [0])))
    assert [t.text for t in step_texts(root)] == ["1"]
