"""Output of huge tours: npy, the streamed text matrix, bounded JSON, and reading them back."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from conftest import invoke
from ktsolve import Board, InvalidTourError, SolveResult, Status, Tour, UnsupportedError, solve, validate
from ktsolve.errors import TourFileError
from ktsolve.files import open_atomic, read_tour
from ktsolve.render import JSON_MAX_SQUARES, result_json, tour_matrix_text, write_tour_matrix, write_tour_npy


def random_tour(board, seed=0):
    """Not a knight's tour: a permutation, enough for the writers and readers."""
    return Tour(board, np.random.default_rng(seed).permutation(board.n_squares))


# ---------------------------------------------------------------------- npy
def test_npy_file_round_trip_through_verify(tmp_path):
    out = tmp_path / "t.npy"
    res = invoke(["solve", "30x32", "--closed", "--method", "divide", "--format", "npy", "-o", out])
    assert res.stdout == ""
    arr = np.load(out)
    assert arr.dtype == np.int32 and arr.shape == (960,)
    validate(Board(30, 32), arr, closed=True)
    ok = invoke(["verify", "30x32", out, "--closed"])
    assert ok.stdout.startswith("valid: closed tour of 960 squares from a30")


def test_npy_numbers_squares_row_major_with_holes(tmp_path):
    board = Board(5, 5, holes=[(0, 0)])
    tour = random_tour(board, 3)
    buf = io.BytesIO()
    write_tour_npy(tour, buf)
    buf.seek(0)
    arr = np.load(buf)
    assert arr.dtype == np.int32 and np.array_equal(arr, tour.squares)
    # square 0 is b5 (row 0, column 1): the first square that is not a hole
    assert board.coords_of([0]).tolist() == [[0, 1]]


def test_npy_to_a_pipe_and_refused_on_a_terminal(monkeypatch):
    res = invoke(["solve", "6x6", "--closed", "--method", "divide", "--format", "npy"])
    arr = np.load(io.BytesIO(res.stdout_bytes))
    validate(Board(6, 6), arr, closed=True)
    import ktsolve.cli.answers as cli

    class Tty(io.StringIO):
        def isatty(self):
            return True

    monkeypatch.setattr(cli.sys, "stdout", Tty())
    import click

    with pytest.raises(click.UsageError, match="-o FILE"):
        cli.check_output(Board(6, 6), "npy", None)
    cli.check_output(Board(6, 6), "npy", "t.npy")  # a file is fine


def test_npy_not_written_without_a_tour(tmp_path):
    out = tmp_path / "t.npy"
    res = invoke(["solve", "7x7", "--closed", "--method", "divide", "--format", "npy", "-o", out], code=1)
    assert not out.exists()
    assert "no closed tour" in res.stderr


def test_verify_rejects_a_wrong_npy(tmp_path):
    arr = np.arange(36, dtype=np.int32)
    np.save(tmp_path / "bad.npy", arr)
    res = invoke(["verify", "6x6", tmp_path / "bad.npy"], code=1)
    assert "illegal move at step 2" in res.stdout


# ---------------------------------------------------------------------- streamed text
@pytest.mark.parametrize("board", [Board(3, 3, holes=[(1, 1)]), Board(12, 14), Board(9, 10, holes=[(0, 0), (8, 9)]),
                                   Board(1, 7), Board(40, 3)])
def test_streamed_matrix_equals_the_text_matrix(board):
    tour = random_tour(board, board.rows)
    buf = io.BytesIO()
    write_tour_matrix(tour, buf)
    assert buf.getvalue().decode() == tour_matrix_text(tour) + "\n"


def test_streamed_matrix_in_row_blocks(monkeypatch):
    import ktsolve.render as render

    monkeypatch.setattr(render, "_TEXT_CHUNK", 7)  # many row blocks, one row per block
    board = Board(20, 11, holes=[(3, 4)])
    tour = random_tour(board, 2)
    buf = io.BytesIO()
    write_tour_matrix(tour, buf)
    assert buf.getvalue().decode() == tour_matrix_text(tour) + "\n"


def test_text_round_trip_through_verify(tmp_path):
    out = tmp_path / "t.txt"
    invoke(["solve", "41x43", "--method", "divide", "--start", "a1", "-o", out])
    res = invoke(["verify", "41x43", out, "--start", "a1"])
    assert res.stdout.startswith("valid: open tour of 1763 squares from a1")
    # stdout carries the same text
    piped = invoke(["solve", "41x43", "--method", "divide", "--start", "a1"])
    assert piped.stdout == out.read_text()


@pytest.mark.parametrize("holes", [[], [(0, 0), (5, 7)]])
def test_fixed_width_reader_matches_general_parser(tmp_path, holes):
    import ktsolve.files as files

    board = Board(9, 13, holes=holes)
    tour = random_tour(board, 4)
    path = tmp_path / "m.txt"
    with open(path, "wb") as fh:
        write_tour_matrix(tour, fh)
    fast = files._read_fixed_matrix(board, str(path))
    slow, _ = files.parse_tour_text(board, path.read_text())
    assert fast == slow == tour
    # without the final newline too
    path.write_bytes(path.read_bytes()[:-1])
    assert files._read_fixed_matrix(board, str(path)) == tour


def test_fixed_width_reader_falls_back_for_other_layouts(tmp_path):
    import ktsolve.files as files

    board = Board(3, 4)
    tour = Tour.from_names(board, "a3 c2 a1 b3 d2 b1 c3 d1 b2 d3 c1 a2".split())
    ragged = "\n".join(" ".join(str(v) for v in row) for row in tour.board_matrix())  # widths vary
    path = tmp_path / "r.txt"
    path.write_text(ragged + "\n")
    assert files._read_fixed_matrix(board, str(path)) is None
    assert read_tour(board, path)[0] == tour
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes((tour_matrix_text(tour) + "\n").replace("\n", "\r\n").encode())
    assert files._read_fixed_matrix(board, str(crlf)) is None
    assert read_tour(board, crlf)[0] == tour


def test_fixed_width_reader_faults(tmp_path):
    board = Board(4, 5, holes=[(0, 0)])
    tour = random_tour(board, 1)
    text = tour_matrix_text(tour) + "\n"
    lines = text.splitlines()

    def read(txt):
        p = tmp_path / "f.txt"
        p.write_text(txt)
        return read_tour(board, p)

    assert read(text)[0] == tour
    dup = text.replace(f"{int(tour.board_matrix()[3, 4]):2d}\n", f"{int(tour.board_matrix()[3, 3]):2d}\n")
    with pytest.raises(InvalidTourError, match="no step"):
        read(dup)
    with pytest.raises(InvalidTourError, match="marks b4 as a hole"):
        read(text.replace(lines[0][3:5], "##", 1) if lines[0][3:5] != "##" else text)
    with pytest.raises(InvalidTourError, match="numbers a4, which is a hole"):
        read(" 1" + text[2:])
    with pytest.raises(InvalidTourError):
        read(text.replace(lines[1][:2], "99", 1))


@pytest.mark.slow
def test_round_trips_at_ten_million_squares(tmp_path):
    """npy and text of a 3000x3334 tour through read_tour and validate (about a minute here)."""
    board = Board(3000, 3334)
    res = solve(board, method="divide", closed=True)
    for name, writer in (("t.npy", write_tour_npy), ("t.txt", write_tour_matrix)):
        path = tmp_path / name
        with open_atomic(path) as fh:
            writer(res.tour, fh)
        tour, _ = read_tour(board, path)
        assert np.array_equal(tour.squares, res.tour.squares)
        validate(board, tour, closed=True)


# ---------------------------------------------------------------------- JSON and atomic files
def test_json_refused_for_huge_boards_before_solving():
    res = invoke(["solve", "1001x1000", "--format", "json"], code=2)
    assert "JSON output is limited to 1,000,000 squares" in res.stderr
    assert res.stdout == ""


def test_prove_writes_a_proof_of_a_huge_board_as_json(tmp_path):
    # JSON's limit is for tours: a proof of a board above it is small, and its certificate is what
    # ``prove -o FILE.json`` is for.
    out = tmp_path / "no.json"
    res = invoke(["prove", "1001x1001", "--closed", "-o", out], code=1)
    assert "limited to" not in res.stderr
    assert "a tour would not be written" in res.stderr
    ok = invoke(["verify", "1001x1001", out, "--closed"])
    assert ok.stdout.startswith("valid: no closed tour exists"), ok.stdout
    shown = invoke(["prove", "1001x1001", "--closed", "--format", "json"], code=1)
    assert json.loads(shown.stdout)["status"] == "infeasible"


def test_prove_leaves_the_json_file_alone_when_it_finds_a_huge_tour(tmp_path):
    out = tmp_path / "t.json"
    res = invoke(["prove", "1000x1002", "--closed", "-o", out])
    assert not out.exists() and res.stdout == ""
    assert "JSON holds at most 1,000,000 squares" in res.stderr and "nothing was written" in res.stderr
    shown = invoke(["prove", "1000x1002", "--closed", "--format", "json"])
    assert shown.stdout == "" and "nothing was written to standard output" in shown.stderr


def test_result_json_refuses_huge_tours():
    board = Board(1, JSON_MAX_SQUARES + 1)
    big = SolveResult(Status.FOUND, tour=Tour(board, np.arange(board.n_squares)), board=board)
    with pytest.raises(UnsupportedError, match="as npy or as text"):
        result_json(big)


def test_json_still_works_for_small_tours():
    import json

    res = invoke(["solve", "6x6", "--closed", "--method", "divide", "--format", "json"])
    data = json.loads(res.stdout)
    assert data["status"] == "found" and len(data["tour"]) == 36


def test_open_atomic_leaves_nothing_on_error(tmp_path):
    path = tmp_path / "out.bin"
    with pytest.raises(RuntimeError):
        with open_atomic(path) as fh:
            fh.write(b"half")
            raise RuntimeError("boom")
    assert list(tmp_path.iterdir()) == []
    with open_atomic(path) as fh:
        fh.write(b"whole")
    assert path.read_bytes() == b"whole"


def test_verify_reports_start_and_end_without_naming_every_square(tmp_path):
    out = tmp_path / "t.npy"
    invoke(["solve", "3x1000", "--closed", "--method", "divide", "--start", "b2", "--format", "npy", "-o", out])
    res = invoke(["verify", "3x1000", out, "--closed", "--start", "b2"])
    assert "from b2 to" in res.stdout


def test_tour_file_error_for_garbage(tmp_path):
    p = tmp_path / "g.txt"
    p.write_text("hello world\n")
    with pytest.raises(TourFileError):
        read_tour(Board(3, 4), p)
