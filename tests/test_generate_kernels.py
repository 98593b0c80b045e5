"""The kernels of random_holed_board against the readable reference, and the large-board draw."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, KnightGraph
from ktsolve._generate_kernels import class_cell, connected
from ktsolve.generate import random_holed_board
from ktsolve.proofs import components

import naive_generate


@pytest.mark.parametrize("cols", [5, 6, 7, 10])
@pytest.mark.parametrize("par", [0, 1])
def test_class_cell_lists_the_class_in_row_major_order(cols, par):
    rows = 7
    flat = np.arange(rows * cols)
    want = flat[(flat // cols + flat % cols) % 2 == par]
    got = [class_cell(i, par, cols) for i in range(want.size)]
    assert got == want.tolist()


@pytest.mark.parametrize("rows,cols,k,closed,seed", [
    (5, 5, 0, True, 0), (8, 8, 3, True, 1), (9, 9, 8, True, 2), (9, 9, 8, False, 3),
    (12, 17, 16, True, 4), (13, 10, 7, False, 5), (30, 30, 18, True, 6), (31, 29, 27, False, 7),
    (40, 25, 200, True, 9), (20, 20, 80, True, 0), (11, 14, 30, False, 12),
])
def test_kernels_draw_the_reference_boards(rows, cols, k, closed, seed):
    want = naive_generate.random_holed_board(rows, cols, k, closed=closed, seed=seed)
    if want is None:
        with pytest.raises(Exception, match="no .* board"):
            random_holed_board(rows, cols, k, closed=closed, seed=seed)
    else:
        assert random_holed_board(rows, cols, k, closed=closed, seed=seed) == want


def test_connected_against_networkx():
    rng = np.random.default_rng(5)
    for _ in range(30):
        mask = rng.random((7, 9)) < 0.25
        if mask.all():
            continue
        board = Board.from_mask(mask)
        alive = (~mask).astype(np.uint8).ravel()
        assert connected(7, 9, alive) == (components(KnightGraph(board)).max() == 0)


def test_large_boards_draw_with_splitmix_and_keep_the_conditions(monkeypatch):
    from ktsolve import generate

    monkeypatch.setattr(generate, "PERMUTE_MAX", 100)  # the large-board path on a board one can check
    board = random_holed_board(60, 70, 0.03, closed=True, seed=4)
    assert board == random_holed_board(60, 70, 0.03, closed=True, seed=4)
    assert board != random_holed_board(60, 70, 0.03, closed=True, seed=5)
    graph = KnightGraph(board)
    assert graph.degree.min() >= 2
    two = graph.degree == 2
    forced = np.zeros(graph.n, dtype=np.int64)
    np.add.at(forced, np.repeat(np.arange(graph.n), graph.degree), two[graph.indices])
    assert forced.max() <= 2
    assert board.n_holes == round(0.03 * 60 * 70)
    even, odd = board.colour_counts()
    assert even == odd
    assert components(graph).max() == 0
