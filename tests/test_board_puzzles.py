"""Board files of published puzzles: S and E, the accepted letters, conventions that mix (issue 20, item 6)."""

from __future__ import annotations

import warnings

import pytest

from ktsolve import Board
from ktsolve.board import MAX_BOARD_FILE_BYTES, BoardFileWarning
from ktsolve.errors import InvalidBoardError
from tests.hostile_inputs import gzip_bomb, run_capped

# Rosetta Code, "Solve a Holy Knight's tour", as its Python strings write it: x a square, . a hole, s the start
ROSETTA = [".xxx....", ".x.xx...", ".xxxxxxx", "xxx..x.x", "x.x..xxx", "sxxxxxx.", "..xx.x..", "...xxx.."]


def test_s_and_e_mark_the_start_and_end():
    f = Board.parse_file("S.#\n...\n.E.\n")
    assert f.board.holes == ((0, 2),) and f.start == (0, 0) and f.end == (2, 1) and f.notes == ()
    assert Board.parse("s..\n..e").n_squares == 6  # S and E are squares
    assert Board.parse_file("...\n...").start is None


def test_two_starts_are_refused_by_name():
    with pytest.raises(InvalidBoardError, match=r"marks 2 start squares \(a2, c1\)"):
        Board.parse_file("S..\n..S")


def test_the_rosetta_strings_read_as_the_complement_with_a_warning():
    with pytest.warns(BoardFileWarning, match="Rosetta Code's puzzles write x for squares"):
        b = Board.parse("\n".join(ROSETTA))
    assert b.is_hole(0, 1) and not b.is_hole(0, 0)  # the complement, and the user is told
    fixed = "\n".join(r.replace(".", "#").replace("x", ".") for r in ROSETTA)  # what the warning asks for
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        f = Board.parse_file(fixed)
    assert f.start == (5, 0) and f.board.n_squares == sum(r.count("x") + r.count("s") for r in ROSETTA) == 36


def test_rosetta_task_digits_are_refused_with_the_translation():
    with pytest.raises(InvalidBoardError, match=r"'0' at column 1; .*write \. for 0, S for 1"):
        Board.parse("0 0 0\n0   0 0")


@pytest.mark.parametrize("text, match", [
    ("..#\n.x.", "holes both as # and as x"),
    (".o\n..", "squares both as . and as o"),
    (".  .\n. .", "gaps of spaces"),
])
def test_mixed_conventions_warn(text, match):
    with pytest.warns(BoardFileWarning, match=match):
        Board.parse(text)


@pytest.mark.parametrize("spec", ["\uff18x\uff18", "8x\uff18", "\u0668x8"])
def test_sizes_in_other_digits_are_refused(spec):
    with pytest.raises(InvalidBoardError, match="ASCII digits"):
        Board.from_spec(spec)


def test_a_size_of_5000_digits_is_refused_in_one_short_line():
    with pytest.raises(InvalidBoardError) as err:
        Board.from_spec("9" * 5000 + "x8")
    assert len(str(err.value)) < 200


def test_the_board_reader_has_a_budget(tmp_path):
    bomb = gzip_bomb(tmp_path / "board.gz", inflated=MAX_BOARD_FILE_BYTES * 4, byte=b".")
    for path in (bomb, "/dev/zero"):
        out = run_capped(f"""
from ktsolve import Board
from ktsolve.errors import InvalidBoardError
try:
    Board.read({path!r})
except InvalidBoardError as exc:
    print(str(exc))
""", timeout=60)
        assert out.returncode == 0 and out.stdout.strip(), out.stderr[-1500:]
        assert len(out.stdout) < 300


def test_a_board_file_is_read_once_from_a_pipe():
    import os
    import threading

    r, w = os.pipe()
    threading.Thread(target=lambda: (os.write(w, b"S.#\n...\n"), os.close(w)), daemon=True).start()
    try:
        f = Board.read_file(f"/dev/fd/{r}")
    finally:
        os.close(r)
    assert f.start == (0, 0) and f.board.n_holes == 1


@pytest.mark.parametrize("rows, cols", [(10**5000, 8), (8, -(10**5000)), (10**20, 10**20)], 
                         ids=["rows", "cols", "both"])
def test_a_size_of_thousands_of_digits_is_refused_without_writing_it_out(rows, cols):
    # str() of such a number raises ValueError: the message must not try
    with pytest.raises(InvalidBoardError) as err:
        Board(rows, cols)
    assert len(str(err.value)) < 200


def test_a_size_with_a_megabyte_of_spaces_is_quoted_short():
    with pytest.raises(InvalidBoardError) as err:
        Board.from_spec("8" + " " * 1_000_000 + "x999999999999")
    assert len(str(err.value)) < 200
