"""Pictures a reader can read (issue 31, item 7): coordinates, step numbers on request, the closing move, long
boards wrapped into bands, proofs drawn with their squares."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from conftest import invoke

from ktsolve import Board, Tour, prove, solve
from ktsolve.board import file_letters
from ktsolve.render import layout, picture_svg, result_svg, tour_svg

SVG = "{http://www.w3.org/2000/svg}"


def tags(root, tag):
    return [el for el in root.iter() if el.tag == SVG + tag]


def bands(root):
    return [g for g in tags(root, "g") if g.get("clip-path")]


def band_offsets(root):
    """(x0, y0) of each band: the translate of its group, plus the first column it shows (x0 = left - c0 * cell)."""
    out = []
    for g in bands(root):
        x, y = map(float, re.match(r"translate\(([-\d.]+),([-\d.]+)\)", g.get("transform")).groups())
        out.append((x, y))
    return out


def cell_of(root):
    (pattern,) = [p for p in tags(root, "pattern") if p.get("id").endswith("-cb")]
    return float(pattern.get("width")) / 2


def coordinate_labels(root):
    """(text, x, y) of every label outside the board: file letters and rank numbers."""
    inside = {id(t) for b in bands(root) for t in b.iter(SVG + "text")}
    return [(t.text, float(t.get("x")), float(t.get("y"))) for t in tags(root, "text") if id(t) not in inside]


def test_files_and_ranks_are_named_where_they_are():
    root = ET.fromstring(picture_svg(Board(8, 8)))
    cell = cell_of(root)
    ((x0, y0),) = band_offsets(root)
    labels = coordinate_labels(root)
    files = {t: x for t, x, y in labels if t.isalpha()}
    ranks = {t: y for t, x, y in labels if t.isdigit()}
    assert sorted(files) == list("abcdefgh") and sorted(ranks, key=int) == [str(k) for k in range(1, 9)]
    for c, letter in enumerate("abcdefgh"):
        assert files[letter] == pytest.approx(x0 + (c + 0.5) * cell)  # under its column
    for r in range(8):
        assert ranks[str(8 - r)] == pytest.approx(y0 + (r + 0.5) * cell)  # beside its row, rank 1 at the bottom
    assert all(y > y0 + 8 * cell for t, x, y in labels if t.isalpha())  # under the board


def test_step_numbers_only_when_asked_on_the_command_line(tmp_path):
    plain, numbered = tmp_path / "a.svg", tmp_path / "b.svg"
    invoke(["solve", "6x6", "--seed", "1", "-o", plain])
    invoke(["solve", "6x6", "--seed", "1", "--numbers", "-o", numbered])
    steps = lambda p: [t.text for b in bands(ET.parse(p).getroot()) for t in b.iter(SVG + "text")]  # noqa: E731
    assert steps(plain) == [] and sorted(map(int, steps(numbered))) == list(range(1, 37))
    page = tmp_path / "c.html"
    invoke(["solve", "6x6", "--seed", "1", "--numbers", "-o", page])
    assert page.read_text().count("</text>") >= 36 + 12
    res = invoke(["solve", "6x6", "--numbers", "--format", "json"], 2)
    assert "--numbers" in res.stderr and len(res.stderr.splitlines()) == 1


def test_a_closed_tour_draws_its_closing_move_and_an_open_one_does_not():
    closed = solve("6x6", closed=True, seed=1).tour
    root = ET.fromstring(picture_svg(closed.board, closed))
    (line,) = [el for el in tags(root, "line") if el.get("class") == "closing"]
    cell = cell_of(root)
    (first, last) = closed.coords[0], closed.coords[-1]
    assert (float(line.get("x1")), float(line.get("y1"))) == ((last[1] + 0.5) * cell, (last[0] + 0.5) * cell)
    assert (float(line.get("x2")), float(line.get("y2"))) == ((first[1] + 0.5) * cell, (first[0] + 0.5) * cell)
    names = f"{closed.board.name(*last)}-{closed.board.name(*first)}"
    assert names in "".join(t.text or "" for t in line)
    opened = solve("6x6", seed=1).tour
    assert not [el for el in tags(ET.fromstring(picture_svg(opened.board, opened)), "line")
                if el.get("class") == "closing"]


def test_a_long_board_is_wrapped_into_readable_bands():
    """The issue's prove 4x100: not a 700x28 strip, but bands of readable squares with their coordinates."""
    board = Board(4, 100)
    cell, band = layout(board)
    assert cell >= 16 and band < 100
    root = ET.fromstring(picture_svg(board))
    assert len(bands(root)) == -(-100 // band)
    width, height = float(root.get("width")), float(root.get("height"))
    assert width <= 760 and 150 <= height <= 600
    files = [t for t, x, y in coordinate_labels(root) if t.isalpha()]
    assert len(files) == len(set(files))  # each file named once, in its band
    assert {file_letters(0), file_letters(99)} <= set(files)
    # every column's squares are drawn in exactly one band (the clip rectangles tile the board)
    clips = sorted(float(r.get("x")) for c in tags(root, "clipPath") for r in c)
    assert clips == [k * band * cell for k in range(len(clips))]


def test_a_tour_of_a_long_board_crosses_from_band_to_band():
    board = Board(5, 60)
    tour = solve(board, seed=1).tour
    root = ET.fromstring(tour_svg(board, tour, numbers=True))
    cell, band = layout(board, numbers=True, steps=len(tour))
    assert len(bands(root)) > 1
    # each move is drawn in the band of each of its two squares
    paths = [g.find(SVG + "path") for g in bands(root)]
    segments = [len(re.findall(r"L", p.get("d"))) for p in paths]
    cols = tour.coords[:, 1] // band
    crossing = int((cols[1:] != cols[:-1]).sum())
    assert sum(segments) == len(tour) - 1 + crossing
    steps = [int(t.text) for g in bands(root) for t in g.iter(SVG + "text")]
    assert sorted(steps) == list(range(1, len(tour) + 1))  # every step numbered once


def test_a_proof_picture_highlights_its_squares_and_reads_well(tmp_path):
    out = tmp_path / "p.svg"
    invoke(["prove", "4x100", "--closed", "-o", out], 1)
    root = ET.parse(out).getroot()
    assert cell_of(root) >= 16 and len(bands(root)) >= 2
    assert [g for g in tags(root, "g") if g.get("stroke") in ("#d32f2f", "#1565c0")]  # the proof's squares
    assert "no closed tour exists" in tags(root, "title")[0].text


def test_result_svg_of_an_infeasible_answer_names_the_proof():
    res = prove("3x3")
    svg = result_svg(res)
    assert "b2" in svg and "#d32f2f" in svg


def test_a_tall_board_keeps_its_width_and_readable_squares():
    cell, band = layout(Board(100, 4))
    assert cell >= 16 and band == 4


def test_a_huge_svg_is_refused_before_any_work(tmp_path):
    res = invoke(["solve", "600x600", "--format", "svg", "-o", tmp_path / "t.svg"], 2)
    assert "SVG pictures are limited" in res.stderr and not (tmp_path / "t.svg").exists()


def test_large_pictures_still_show_every_square_when_asked_as_svg():
    board = Board(120, 120, holes=[(0, 0)])
    tour = Tour(board, list(range(1, board.n_squares + 1))[:10])  # pictures draw what they are given
    svg = tour_svg(board, tour)
    assert svg.count("<rect") >= 2 and "<image" not in svg
