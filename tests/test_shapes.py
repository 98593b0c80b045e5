"""ktsolve.shapes: the kernels against the readable references, determinism, fitness, and the exact side."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, Status, prove, solve
from ktsolve.errors import InvalidBoardError, InvalidParameterError
from ktsolve.proofs import components
from ktsolve.seeds import derive_seed
from ktsolve.shapes import cheese, maze, planted, rings

import naive_shapes
from test_cleaning import assert_fit

RAW = dict(largest=False, prune=False, balance=None)


@pytest.mark.parametrize("rows,cols,corridor,wall,seed", [
    (10, 10, 2, 2, 0), (23, 31, 3, 2, 1), (40, 17, 5, 3, 2), (30, 30, 1, 1, 3), (52, 61, 4, 2, 4),
])
def test_maze_is_the_reference_maze(rows, cols, corridor, wall, seed):
    got = maze(rows, cols, corridor=corridor, wall=wall, seed=seed, **RAW)
    want = naive_shapes.maze(rows, cols, corridor, wall, derive_seed(seed, "maze", 0))
    assert np.array_equal(got.squares, want)
    assert got.seed == seed


def test_a_maze_is_a_tree_of_corridors():
    got = maze(62, 62, corridor=4, wall=2, seed=5, **RAW)
    # 10 x 10 cells, 99 openings: cells and openings form a tree, so squares = 100 * 16 + 99 * 8
    assert int(got.squares.sum()) == 100 * 16 + 99 * 8
    assert not got.squares[:2].any() and not got.squares[:, :2].any()


@pytest.mark.parametrize("rows,cols,width,gap", [(9, 9, 2, 1), (20, 31, 3, 2), (41, 40, 4, 0), (33, 33, 1, 3)])
def test_rings_are_the_reference_rings(rows, cols, width, gap):
    got = rings(rows, cols, width=width, gap=gap, **RAW)
    assert np.array_equal(got.squares, naive_shapes.rings(rows, cols, width, gap))
    assert got.seed is None


@pytest.mark.parametrize("rows,cols,share,radii,seed", [
    (20, 20, 0.2, (1.0, 3.0), 0), (31, 17, 0.5, (0.6, 0.6), 1), (50, 60, 0.3, (2.0, 9.5), 2), (12, 40, 0.0, (1, 2), 3),
])
def test_cheese_is_the_reference_cheese(rows, cols, share, radii, seed):
    got = cheese(rows, cols, share=share, radii=radii, seed=seed, **RAW)
    want, disks = naive_shapes.cheese(rows, cols, int(round(share * rows * cols)), float(radii[0]), float(radii[1]),
                                      derive_seed(seed, "cheese", 0))
    assert np.array_equal(got.squares, want)
    assert f"of {disks:,} disks" in got.made[0]
    assert (~want).sum() >= share * rows * cols


@pytest.mark.parametrize("make", [
    lambda seed: maze(50, 50, corridor=5, wall=2, seed=seed),
    lambda seed: cheese(80, 80, share=0.25, radii=(2, 8), seed=seed),
])
def test_same_seed_same_board_other_seeds_not_always(make):
    assert make(7) == make(7)
    assert len({make(s).squares.tobytes() for s in (1, 2, 3)}) > 1


@pytest.mark.parametrize("balance", ["closed", "open"])
@pytest.mark.parametrize("make", [
    lambda b: maze(60, 70, corridor=5, wall=2, balance=b, seed=1),
    lambda b: maze(60, 70, corridor=3, wall=2, balance=b, seed=2),
    lambda b: rings(61, 61, width=6, gap=2, balance=b),
    lambda b: rings(50, 64, width=3, gap=1, balance=b),
    lambda b: cheese(70, 70, share=0.3, radii=(2, 10), balance=b, seed=4),
    lambda b: planted(30, 30, "pair", balance=b),
    lambda b: planted(30, 30, "pocket", balance=b),
])
def test_cleaned_shapes_are_fit_for_a_tour(make, balance):
    region = make(balance)
    assert_fit(region.squares, balance)
    assert region.cleaning.colours == region.board.colour_counts()


def test_planted_pair_keeps_its_two_squares_and_their_two_moves():
    region = planted(40, 36, "pair")
    board = region.board
    graph = KnightGraph(board)
    a, b = board.index(19, 18), board.index(21, 18)
    nbrs = lambda i: set(graph.indices[graph.indptr[i]:graph.indptr[i + 1]].tolist())  # noqa: E731
    assert nbrs(a) == nbrs(b) == {board.index(20, 16), board.index(20, 20)}


def test_planted_pocket_hangs_on_one_square():
    region = planted(30, 40, "pocket")
    cut = region.squares.copy()
    cut[5, 5] = False
    board = Board.from_mask(~cut)
    labels = components(KnightGraph(board))
    assert labels.max() == 1
    pocket = board.indices_of([(r, c) for r in range(5) for c in range(5)])
    assert (labels[pocket] == labels[pocket[0]]).all() and (labels == labels[pocket[0]]).sum() == 25


# ---------------------------------------------------------------- the exact side, at small sizes

def _small_boards():
    # up to 64 squares: exhaustive search answers too
    yield "maze tiny", maze(12, 12, corridor=3, wall=2, balance="closed", seed=1).board
    yield "maze tiny open", maze(12, 12, corridor=3, wall=2, balance="open", seed=3).board
    yield "rings tiny", rings(10, 10, width=2, gap=1, balance="closed").board
    yield "rings tiny open", rings(9, 9, width=2, gap=1, balance="open").board
    yield "cheese tiny", cheese(8, 8, share=0.1, radii=(1, 1.5), balance="closed", seed=5).board
    yield "cheese tiny open", cheese(8, 9, share=0.1, radii=(1, 1.5), balance="open", seed=6).board
    yield "maze", maze(17, 17, corridor=3, wall=2, balance="closed", seed=1).board
    yield "maze open", maze(19, 12, corridor=3, wall=2, balance="open", seed=2).board
    yield "rings", rings(15, 15, width=3, gap=1, balance="closed").board
    yield "rings open", rings(13, 14, width=2, gap=1, balance="open").board
    yield "cheese", cheese(12, 12, share=0.15, radii=(1, 2), balance="closed", seed=3).board
    yield "cheese open", cheese(11, 12, share=0.2, radii=(1, 1.5), balance="open", seed=4).board
    yield "pair", planted(16, 16, "pair", balance="closed").board
    yield "pocket", planted(16, 16, "pocket", balance="closed").board


@pytest.mark.parametrize("name,board", list(_small_boards()), ids=[n for n, _ in _small_boards()])
def test_small_shapes_agree_with_the_exact_side(name, board):
    closed = not name.endswith("open")
    got = prove(board, closed=closed, race=False, time_limit=60, seed=1)
    assert got.status is not Status.UNKNOWN, got.stats.get("reason")
    exact = solve(board, "cpsat", closed=closed, presolve_proofs=False, time_limit=60, seed=1)
    assert exact.status is got.status, (name, exact.stats.get("reason"))
    if name in ("pair", "pocket"):
        assert got.status is Status.INFEASIBLE
    if board.n_squares <= 64:
        search = solve(board, "backtrack", closed=closed, presolve_proofs=False, time_limit=60)
        assert search.status is got.status


@pytest.mark.parametrize("kind", ["pair", "pocket"])
def test_planted_boards_have_a_tour_once_the_obstruction_is_mended(kind):
    """The obstruction is the only one: fill its holes back (and balance again) and a closed tour exists."""
    region = planted(16, 16, kind, balance="closed")
    sq = region.squares.copy()
    if kind == "pocket":
        sq[:7, :7] = True
    else:
        sq[5:12, 5:12] = True
    from ktsolve.cleaning import clean

    mended = clean(sq, balance="closed").board
    res = prove(mended, closed=True, race=False, time_limit=60, seed=1)
    assert res.found


@pytest.mark.parametrize("call,error,match", [
    (lambda: maze(8, 8, corridor=6, wall=2), InvalidBoardError, "no room for a maze cell"),
    (lambda: maze(20, 20, corridor=0), InvalidParameterError, "corridor"),
    (lambda: maze(20, 20, seed=-1), InvalidParameterError, "seed"),
    (lambda: rings(20, 20, width=0), InvalidParameterError, "width"),
    (lambda: rings(1, 1), InvalidBoardError, "no squares"),
    (lambda: cheese(20, 20, share=0.95), InvalidParameterError, "share"),
    (lambda: cheese(20, 20, radii=(3, 2)), InvalidParameterError, "r2"),
    (lambda: cheese(20, 20, radii=5), InvalidBoardError, "radii"),
    (lambda: planted(10, 30, "pair"), InvalidBoardError, "too small"),
    (lambda: planted(20, 30, "hole"), InvalidParameterError, "kind"),
    (lambda: maze(0, 20), InvalidBoardError, "at least one row"),
])
def test_bad_shapes_are_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_after_warm_the_shapes_compile_nothing():
    from ktsolve import _shapes_kernels as K
    from ktsolve.shapes import warm

    warm()
    kernels = [K.maze_tree, K.paint_maze, K.paint_rings, K.paint_cheese]
    before = [len(k.signatures) for k in kernels]
    maze(40, 40, seed=1), rings(40, 40), cheese(40, 40, radii=(1, 4), seed=1), planted(20, 20, "pair")
    assert [len(k.signatures) for k in kernels] == before
