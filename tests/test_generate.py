"""Random holed boards: the conditions they promise, reproducibility, and bad input."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, InvalidBoardError, InvalidParameterError, KnightGraph, TourSpec
from ktsolve.generate import random_holed_board
from ktsolve.proofs import components, quick_proof

CASES = [
    (5, 5, 0.0, 0, True),
    (8, 8, 0.05, 1, True),
    (9, 9, 0.1, 2, True),
    (9, 9, 0.1, 3, False),
    (12, 17, 0.08, 4, True),
    (13, 10, 0.05, 5, False),
    (30, 30, 0.02, 6, True),
    (31, 29, 0.03, 7, False),
    (60, 60, 0.01, 8, True),
    (40, 25, 0.2, 9, True),
]


def _forced(graph: KnightGraph) -> np.ndarray:
    """Per square, how many of its neighbours have exactly two neighbours."""
    two = graph.degree == 2
    counts = np.zeros(graph.n, dtype=np.int64)
    src = np.repeat(np.arange(graph.n), graph.degree)
    np.add.at(counts, src, two[graph.indices])
    return counts


@pytest.mark.parametrize("rows,cols,frac,seed,closed", CASES)
def test_conditions_hold(rows, cols, frac, seed, closed):
    board = random_holed_board(rows, cols, frac, seed=seed, closed=closed)
    assert (board.rows, board.cols) == (rows, cols)
    graph = KnightGraph(board)
    assert graph.degree.min() >= 2
    assert _forced(graph).max() <= 2
    even, odd = board.colour_counts()
    if closed:
        assert even == odd
    else:
        assert abs(even - odd) <= 1
    assert components(graph).max() == 0  # one component
    # The cheap proofs find nothing to object to.
    assert quick_proof(graph, TourSpec(closed=closed)) is None


@pytest.mark.parametrize("rows,cols,frac,seed,closed", CASES)
def test_hole_count_follows_the_fraction(rows, cols, frac, seed, closed):
    board = random_holed_board(rows, cols, frac, seed=seed, closed=closed)
    k = round(frac * rows * cols)
    # Closed tours on boards with an odd cell count may need one hole more.
    assert board.n_holes in (k, k + 1)


def test_reproducible_from_the_seed():
    a = random_holed_board(40, 40, 0.02, seed=11, closed=True)
    b = random_holed_board(40, 40, 0.02, seed=11, closed=True)
    assert a == b
    assert a.holes == b.holes
    others = {random_holed_board(40, 40, 0.02, seed=s, closed=True).holes for s in range(12, 16)}
    assert len(others | {a.holes}) > 1


def test_open_and_closed_draws_differ_only_in_balance():
    # 5x5 has 13 squares of the corner's colour and 12 of the other.
    closed = random_holed_board(5, 5, 0.0, seed=0, closed=True)
    assert closed.colour_counts()[0] == closed.colour_counts()[1]
    assert closed.n_holes == 1
    opened = random_holed_board(5, 5, 0.0, seed=0, closed=False)
    assert opened.n_holes == 0 and opened == Board(5, 5)


@pytest.mark.parametrize(
    "args, error",
    [
        ((4, 10, 0.01, 0), InvalidBoardError),
        ((10, 3, 0.01, 0), InvalidBoardError),
        ((10, 10, -0.1, 0), InvalidBoardError),
        ((10, 10, 0.5, 0), InvalidBoardError),
        ((10, 10, "lots", 0), InvalidBoardError),
        ((10, 10, 0.01, -1), InvalidParameterError),
        ((10, 10, 0.01, 1.5), InvalidParameterError),
        ((10.0, 10, 0.01, 0), InvalidBoardError),
    ],
)
def test_bad_input(args, error):
    # a bad board is an InvalidBoardError, a bad seed an InvalidParameterError (the seed rule)
    with pytest.raises(error):
        random_holed_board(*args[:3], seed=args[3], closed=True)


def test_a_fifth_of_a_small_board_still_fits():
    board = random_holed_board(5, 5, 0.2, seed=0, closed=True)
    assert board.n_holes == 5
    assert KnightGraph(board).degree.min() >= 2


def test_refused_when_no_draw_fits(monkeypatch):
    import ktsolve.generate as gen

    monkeypatch.setattr(gen, "_draw", lambda *a: None)
    with pytest.raises(InvalidBoardError, match="fewer holes"):
        random_holed_board(20, 20, 0.1, seed=0, closed=True)
