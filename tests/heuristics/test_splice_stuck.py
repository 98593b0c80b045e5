"""Splice stops at once on a piece no repair can join (a disconnected board, or a cut square on a closed question)."""

from __future__ import annotations

import pytest

from ktsolve import Board, KnightGraph, Status, TourSpec, prove
from ktsolve.driver import Deadline
from ktsolve.heuristics.splice import solve_splice
from ktsolve.heuristics.splice.pieces import outside
from ktsolve.heuristics.splice.stuck import cut_off
from splice_helpers import build_links, merge_pieces, restore_factor
from ktsolve.tour import validate

#: Five squares of the top-left corner that hang on one square, (2, 2) (tests/proofs/test_local_proofs.py's CUT_CORNER).
CUT_CORNER = [(0, 0), (0, 5), (1, 4), (2, 0), (2, 3), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (4, 0), (4, 2)]


def _split_board() -> Board:
    """12 x 25 with columns 12 and 13 holes: a 12 x 12 part and a 12 x 11 part no knight's move joins."""
    return Board(12, 25, holes=[(r, c) for r in range(12) for c in (12, 13)])


def _merged(board):
    links, alive = build_links(board)
    restore_factor(links, alive, board.rows, board.cols, free_ends=0)
    return alive, merge_pieces(links, alive, board.rows, board.cols)


def _contacts_by_hand(board, state, alive):
    """Per piece other than the largest (by root): the squares with a move to a square of another piece."""
    cells, roots = outside(state, Deadline(None))
    root_of = dict(zip(cells.tolist(), roots.tolist()))
    rows, cols = board.rows, board.cols

    def root(f):
        if f in root_of:
            return root_of[f]
        x = int(state.labels[f])
        while state.parent[x] != x:
            x = int(state.parent[x])
        return x

    out = {}
    for f, rt in root_of.items():
        out.setdefault(rt, set())
        r, c = divmod(f, cols)
        for dr, dc in [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]:
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < cols and alive[rr * cols + cc] and root(rr * cols + cc) != rt:
                out[rt].add(f)
    return out


def test_a_cut_square_stops_a_closed_question_at_once():
    board = Board(20, 20, CUT_CORNER)
    alive, state = _merged(board)
    assert state.pieces > 1
    stuck = cut_off(state, alive, board.rows, board.cols, closed=True, deadline=Deadline(None))
    assert stuck is not None and stuck["contacts"] == 1
    assert divmod(stuck["cell"], board.cols) == (2, 2)  # c18, the square the corner hangs on
    assert min(len(v) for v in _contacts_by_hand(board, state, alive).values()) == 1
    res = solve_splice(KnightGraph(board), TourSpec(closed=True))
    assert res.status is Status.UNKNOWN and "only at c18, a cut square" in res.stats["reason"]
    assert "repair_rounds" not in res.stats  # no repair ran
    assert prove(board, closed=True, time_limit=30).status is Status.INFEASIBLE


def test_a_cut_square_does_not_stop_an_open_question():
    # an open tour may start in the corner and leave it through the cut square
    board = Board(20, 20, CUT_CORNER)
    alive, state = _merged(board)
    assert cut_off(state, alive, board.rows, board.cols, closed=False, deadline=Deadline(None)) is None
    res = solve_splice(KnightGraph(board), TourSpec(closed=False))
    assert "cut_off" not in res.stats
    if res.found:
        validate(board, res.tour, closed=False)


def test_a_disconnected_board_stops_every_question():
    board = _split_board()
    alive, state = _merged(board)
    for closed in (True, False):
        stuck = cut_off(state, alive, board.rows, board.cols, closed=closed, deadline=Deadline(None))
        assert stuck is not None and stuck["contacts"] == 0 and stuck["cell"] == -1
    assert stuck["squares"] in (132, 144)
    res = solve_splice(KnightGraph(board), TourSpec(closed=True))
    assert res.status is Status.UNKNOWN and "disconnected" in res.stats["reason"]


@pytest.mark.parametrize("seed", range(4))
def test_pieces_that_touch_the_rest_at_two_squares_are_left_to_the_repairs(seed):
    from ktsolve.generate import random_holed_board

    board = random_holed_board(60, 60, 0.05, closed=True, seed=seed)
    alive, state = _merged(board)
    by_hand = _contacts_by_hand(board, state, alive)
    stuck = cut_off(state, alive, board.rows, board.cols, closed=True, deadline=Deadline(None))
    assert (stuck is None) == all(len(v) >= 2 for v in by_hand.values())
    if stuck is None:
        res = solve_splice(KnightGraph(board), TourSpec(closed=True))
        assert "cut_off" not in res.stats


# ------------------------------------------------------------------ an end in a pocket (open questions)
def test_an_open_path_gets_an_end_in_the_pocket_its_pieces_left():
    """Two squares sharing their only two moves hold an end of every open tour; where the first attempt left
    their cycle of four, the pocket attempt starts the path there and tours the board."""
    from ktsolve.heuristics.splice import pipeline
    from ktsolve.shapes import planted

    board = Board.from_mask(planted(40, 41, "pair", balance="open").holes)
    spec = TourSpec(closed=False)
    first = pipeline.run_steps(board, spec, Deadline(None), None, "cpsat", None)
    assert first.status is Status.UNKNOWN and first.stats["pieces"] == 2
    pocket = first.stats["pocket"]
    graph = KnightGraph(board)
    assert pocket and all(len(graph.neighbours(board.index(*sq))) == 2 for sq in pocket)  # the pair's squares
    res = solve_splice(KnightGraph(board), spec)
    assert res.status is Status.FOUND and res.stats["pocket_end"] == board.name(*res.tour.start)
    assert board.parse_square(res.stats["pocket_end"]) in pocket
    validate(board, res.tour.squares, closed=False)


def test_no_pocket_attempt_where_the_question_fixes_both_ends_or_is_closed():
    from ktsolve.heuristics.splice.pocket import pocket_question

    board = Board(8, 8)
    assert pocket_question(board, TourSpec(closed=True), (3, 3)) is None
    assert pocket_question(board, TourSpec(closed=False, start=(0, 0), end=(7, 6)), (3, 3)) is None
    # a start fixed: the pocket square becomes the end, where the colours allow it (one end of each colour)
    assert pocket_question(board, TourSpec(closed=False, start=(0, 0)), (3, 4)).end == (3, 4)
    assert pocket_question(board, TourSpec(closed=False, start=(0, 0)), (3, 3)) is None
