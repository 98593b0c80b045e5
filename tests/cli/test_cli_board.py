"""``ktsolve board random`` and mask boards on the command line (solve, verify)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import invoke
from ktsolve import Board
from ktsolve.cli.board import parse_holes
from ktsolve.errors import InvalidBoardError
from ktsolve.generate import random_holed_board


def test_random_mask_is_the_seeded_board(tmp_path):
    out = tmp_path / "m.npy"
    res = invoke(["board", "random", "30x40", "--holes", "2%", "--seed", "3", "--closed", "-o", out])
    mask = np.load(out)
    assert mask.dtype == bool and mask.shape == (30, 40)
    want = random_holed_board(30, 40, 0.02, closed=True, seed=3)
    assert Board.from_mask(mask) == want
    assert "24 holes" in res.stderr and "seed 3" in res.stderr
    assert res.stdout == ""


def test_random_text_board(tmp_path):
    res = invoke(["board", "random", "12x12", "--holes", "3", "--seed", "1", "--format", "text"])
    assert Board.parse(res.stdout) == random_holed_board(12, 12, 3, seed=1)


def test_solve_and_verify_a_mask_board(tmp_path):
    mask, tour = tmp_path / "m.npy", tmp_path / "t.npy"
    invoke(["board", "random", "20x20", "--holes", "8", "--seed", "1", "--closed", "-o", mask])
    invoke(["solve", mask, "--closed", "--format", "npy", "-o", tour, "--seed", "1"])
    res = invoke(["verify", mask, tour, "--closed"])
    assert res.stdout.startswith("valid: closed tour of 392 squares")
    squares = np.load(tour)
    squares[[3, 4]] = squares[[4, 3]]
    np.save(tour, squares)
    assert invoke(["verify", mask, tour, "--closed"], code=1).stdout.startswith("invalid:")


@pytest.mark.parametrize("args,message", [
    (["3x3"], "too small"),
    (["30x30", "--holes", "1x"], "must be a count"),
    (["30x30", "--holes", "25%"], "holes"),
    (["0x30"], "at least one row"),
    (["30x30", "--seed", "-1"], "seed"),
])
def test_bad_input_is_one_line_and_exit_2(args, message):
    res = invoke(["board", "random", *args], code=2)
    assert message in res.stderr
    assert len(res.stderr.strip().splitlines()) == 1


def test_bad_npy_board_file_is_one_line(tmp_path):
    bad = tmp_path / "bad.npy"
    np.save(bad, np.zeros((3, 3), dtype=np.float32))
    res = invoke(["solve", bad], code=2)
    assert "float32" in res.stderr and len(res.stderr.strip().splitlines()) == 1


def test_parse_holes():
    assert parse_holes(" 2.5% ") == 0.025
    with pytest.raises(InvalidBoardError):
        parse_holes("-1")
