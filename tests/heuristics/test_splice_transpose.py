"""Splice's second attempt on the transposed board (ktsolve.heuristics.splice.second)."""

from __future__ import annotations

import time

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, Status, TourSpec
from ktsolve.generate import random_holed_board
from ktsolve.heuristics import splice
from ktsolve.heuristics.splice import pipeline, second
from ktsolve.heuristics.splice.second import squares_back, transposed
from ktsolve.result import SolveResult
from ktsolve.tour import validate


def _steps(monkeypatch, fake):
    """Every attempt of splice (the first, from the entry, and the second) runs ``fake``."""
    monkeypatch.setattr(splice, "run_steps", fake)
    monkeypatch.setattr(second, "run_steps", fake)


def _left_pieces(pieces=2, **stats):
    return SolveResult(Status.UNKNOWN, stats={"reason": f"{pieces} pieces were left", "pieces": pieces, **stats})


@pytest.fixture
def first_leaves_pieces(monkeypatch):
    """splice's steps answer `unknown` with two pieces on the board as given, and run as usual on any other."""
    splice.warm()  # its first call solves a small board, which would count as an attempt here
    real = pipeline.run_steps
    calls = []

    def fake(board, spec, *args, **kw):
        calls.append(board.shape)
        if len(calls) == 1:
            return _left_pieces()
        return real(board, spec, *args, **kw)

    _steps(monkeypatch, fake)
    return calls


def _specs(board, closed):
    even, odd = board.colour_counts()
    squares = [tuple(int(v) for v in rc) for rc in board.coords_of(np.linspace(0, board.n_squares - 1, 25).astype(int))]
    if closed:
        s = squares[7]
        t = next((s[0] + dr, s[1] + dc) for dr, dc in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1))
                 if board.contains(s[0] + dr, s[1] + dc) and not board.is_hole(s[0] + dr, s[1] + dc))
        return [TourSpec(closed=True), TourSpec(closed=True, start=s), TourSpec(closed=True, end=s),
                TourSpec(closed=True, start=s, end=t)]
    want = None if even == odd else (0 if even > odd else 1)
    ok = [sq for sq in squares if want is None or (sq[0] + sq[1]) % 2 == want]
    s = ok[1]
    t = next(sq for sq in reversed(ok) if want is not None or (sq[0] + sq[1]) % 2 != (s[0] + s[1]) % 2)
    return [TourSpec(closed=False), TourSpec(closed=False, start=s), TourSpec(closed=False, end=s),
            TourSpec(closed=False, start=s, end=t)]


@pytest.mark.parametrize("closed", [True, False])
def test_the_tour_of_the_transposed_board_comes_back_valid(first_leaves_pieces, closed):
    board = random_holed_board(30, 41, 0.03, closed=closed, seed=3)
    for spec in _specs(board, closed):
        first_leaves_pieces.clear()
        res = splice.solve_splice(KnightGraph(board), spec)
        assert first_leaves_pieces == [(30, 41), (41, 30)]
        assert res.status is Status.FOUND, res.stats
        assert res.stats["transposed"] is True and res.stats["first_attempt"]["pieces"] == 2
        validate(board, res.tour, closed=spec.closed, start=spec.start, end=spec.end)


def test_both_attempts_left_pieces(monkeypatch):
    _steps(monkeypatch, lambda board, spec, *args, **kw: _left_pieces(3 if board.rows == 41 else 2))
    res = splice.solve_splice(KnightGraph(random_holed_board(30, 41, 0.03, closed=True, seed=3)), TourSpec(closed=True))
    assert res.status is Status.UNKNOWN and res.tour is None
    assert res.stats["first_attempt"]["pieces"] == 2 and res.stats["pieces"] == 3
    assert res.stats["reason"].startswith("2 pieces were left unjoined, and on the transposed board 3")


@pytest.mark.parametrize("first", [_left_pieces(cut_off={"squares": 10, "contacts": 1, "cell": 5}),
                                   SolveResult(Status.UNKNOWN, stats={"reason": "the colours of the board do not "
                                                                      "balance"}),
                                   _left_pieces(pieces=1)])
def test_no_second_attempt_where_it_cannot_help(monkeypatch, first):
    calls = []
    _steps(monkeypatch, lambda *args, **kw: calls.append(1) or first)
    res = splice.solve_splice(KnightGraph(Board(8, 8)), TourSpec(closed=True))
    assert calls == [1]
    assert res.status is Status.UNKNOWN and res.stats == first.stats


def test_no_time_left_keeps_the_first_answer(monkeypatch):
    def slow(*args, **kw):
        time.sleep(0.05)
        return _left_pieces()

    _steps(monkeypatch, slow)
    res = splice.solve_splice(KnightGraph(Board(8, 8)), TourSpec(closed=True), time_limit=0.01)
    assert res.status is Status.UNKNOWN and res.stats["pieces"] == 2
    assert res.stats["second_attempt"].startswith("the time limit ran out while transposing")


def test_ctrl_c_in_the_second_attempt_is_an_honest_unknown(monkeypatch):
    from ktsolve.driver import Stopped

    def solve(board, *args, **kw):
        if board.rows == 9:
            raise Stopped("interrupted", "restoring two moves at every square")
        return _left_pieces()

    _steps(monkeypatch, solve)
    res = splice.solve_splice(KnightGraph(Board(8, 9)), TourSpec(closed=True))
    assert res.status is Status.UNKNOWN and res.tour is None
    assert res.stats["interrupted"] is True and res.stats["first_attempt"]["pieces"] == 2
    assert res.stats["reason"].startswith("interrupted (Ctrl-C)")


@pytest.mark.parametrize("rows,cols,k,seed", [(5, 9, 6, 1), (12, 7, 10, 2), (20, 20, 30, 3)])
def test_squares_back_maps_every_square_through_the_diagonal(rows, cols, k, seed):
    board = random_holed_board(rows, cols, k, closed=True, seed=seed)
    mirrored, spec = transposed(board, TourSpec(closed=True, start=board.coords_of([0])[0].tolist()))
    assert mirrored.shape == (cols, rows)
    assert np.array_equal(mirrored.mask, board.mask.T)
    assert spec.start == tuple(reversed(board.coords_of([0])[0].tolist()))
    every = np.arange(mirrored.n_squares)
    want = [board.index(c, r) for r, c in mirrored.coords_of(every).tolist()]
    assert squares_back(board, mirrored, every).tolist() == want
