"""The hypothesis strategies of ktsolve.testing draw what they promise, and shrink to small boards."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from ktsolve import Board, KnightGraph, Status, solve
from ktsolve.errors import InvalidParameterError
from ktsolve.testing import assert_agrees, exact_answer
from ktsolve.testing.strategies import (
    Question,
    balanced_boards,
    boards,
    one_hole_boards,
    plausible_boards,
    questions,
    ring_boards,
    squares,
)

from conftest import load_oracle

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(boards(2, 6, max_holes=3))
def test_boards_stay_in_bounds(board):
    assert 2 <= board.rows <= 6 and 2 <= board.cols <= 6
    assert board.n_holes <= 3 and board.n_squares >= 1


@FAST
@given(boards(1, 4))
def test_boards_default_holes_are_a_quarter_at_most(board):
    assert board.n_holes <= max(0, min(board.size - 1, board.size // 4))


def test_boards_shrink_to_the_smallest_board_that_fails():
    # the smallest board with two holes in a quarter of its cells has 8 cells
    b = find(boards(1, 8), lambda b: b.n_holes >= 2)
    assert b.n_holes == 2 and b.size == 8


@FAST
@given(st.data())
def test_squares_are_never_holes(data):
    board = data.draw(boards(1, 6))
    r, c = data.draw(squares(board))
    assert board.mask[r, c]


@FAST
@given(questions(boards(1, 5)))
def test_questions_ask_about_squares_of_their_board(q):
    assert isinstance(q, Question)
    board, closed, start, end = q
    assert isinstance(closed, bool)
    for sq in (start, end):
        assert sq is None or board.mask[sq]
    assert q.kwargs == {"closed": closed, "start": start, "end": end}


@FAST
@given(questions(boards(3, 5), closed=True, ends=False))
def test_questions_can_fix_the_kind_of_tour(q):
    assert q.closed and q.start is None and q.end is None


@FAST
@given(questions(boards(1, 5)))
def test_every_question_drawn_can_be_asked_and_checked(q):
    """ktsolve's own exhaustive search agrees with prove on whatever the strategy draws."""
    res = solve(q.board, "backtrack", **q.kwargs)
    assert_agrees(q.board, res, unknown="any", **q.kwargs)


def test_questions_need_boards():
    with pytest.raises(InvalidParameterError, match="strategy of boards"):
        find(questions(st.just("8x8")), lambda q: True)


@FAST
@given(balanced_boards(closed=True))
def test_balanced_boards_for_closed_tours_have_equal_colours(board):
    light, dark = board.colour_counts()
    assert light == dark and board.n_holes <= 6


@FAST
@given(balanced_boards(3, 7, max_holes=5))
def test_balanced_boards_for_open_tours_differ_by_one_at_most(board):
    light, dark = board.colour_counts()
    assert abs(light - dark) <= 1 and board.n_holes <= 5


@FAST
@given(one_hole_boards(3, 7))
def test_one_hole_boards(board):
    assert board.n_holes == 1 and 3 <= board.rows <= 7


@FAST
@given(ring_boards(5, 11, 2, 3))
def test_ring_boards_are_frames(board):
    holes = np.array(board.holes)
    r0, c0 = holes.min(axis=0)
    r1, c1 = holes.max(axis=0)
    # the holes fill one rectangle ...
    assert board.n_holes == (r1 - r0 + 1) * (c1 - c0 + 1)
    # ... with a frame of width 2 or 3 on each side
    for width in (r0, c0, board.rows - 1 - r1, board.cols - 1 - c1):
        assert 2 <= width <= 3
    assert 5 <= board.rows <= 11 and 5 <= board.cols <= 11


@FAST
@given(plausible_boards(5, 7, max_holes=3, closed=True))
def test_plausible_boards_pass_the_cheap_conditions(board):
    light, dark = board.colour_counts()
    assert light == dark
    graph = KnightGraph(board)
    assert graph.degree.min() >= 2
    assert board.n_holes <= 3


@pytest.mark.parametrize(
    "make, match",
    [
        (lambda: boards(5, 3), "max_size = 3 must be from 5"),
        (lambda: boards(0, 3), "min_size = 0"),
        (lambda: boards(1, 3, max_holes=-1), "max_holes"),
        (lambda: ring_boards(5, 4), "max_size"),
        (lambda: ring_boards(3, 6, 3, 3), "no room for a hole"),
        (lambda: balanced_boards(closed=True, max_holes=0), "at least 1"),
        (lambda: plausible_boards(4, 6), "min_size = 4"),
        (lambda: questions(closed="yes"), "closed must be True or False"),
    ],
)
def test_strategy_arguments_are_checked(make, match):
    with pytest.raises(InvalidParameterError, match=match):
        make()


@pytest.mark.parametrize("case", load_oracle("holed.json")["cases"], ids=lambda c: f"{c['board']}-{c['kind']}")
def test_the_oracle_matches_the_published_holed_boards(case):
    rows, cols = case["board"]
    board = Board(rows, cols, [tuple(h) for h in case["holes"]])
    kw = {"closed": case["kind"] == "closed", "start": tuple(case["start"]) if case.get("start") else None}
    ans = exact_answer(board, time_limit=60, **kw)
    assert ans.status is (Status.FOUND if case["exists"] else Status.INFEASIBLE)
    if case["exists"]:
        with pytest.raises(AssertionError, match="but ktsolve.prove found one"):
            assert_agrees(board, None, **kw)
    else:
        assert_agrees(board, None, **kw)
