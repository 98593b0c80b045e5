"""The portfolio engine: plans of steps, the rule that prove knows what solve knows, the steps report."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, Status, TourSpec, prove, random_holed_board, solve
from ktsolve.plans import PROOFS, auto_plan, prove_plan


def ring(rows, cols, width):
    return Board(rows, cols, [(r, c) for r in range(width, rows - width) for c in range(width, cols - width)])


QUESTIONS = [
    TourSpec(),
    TourSpec(closed=True),
    TourSpec(start=(0, 0)),
    TourSpec(closed=True, start=(0, 0)),
]

BOARDS = [Board(5, 5), Board(6, 6), Board(8, 8), Board(3, 10), Board(30, 30), Board(4, 200),
          Board(3, 1001, [(0, 0)]), ring(8, 8, 3), ring(101, 99, 3), ring(40, 40, 2),
          Board(12, 12, [(5, 5), (6, 6)]), Board(25, 21, [(0, 0), (24, 20)])]


@pytest.mark.parametrize("board", BOARDS, ids=repr)
@pytest.mark.parametrize("spec", QUESTIONS, ids=repr)
def test_prove_plan_holds_every_auto_step_in_order(board, spec):
    if spec.start is not None and board.is_hole(*spec.start):
        # a1 is a hole on some boards: ask the same question from the board's first square
        first = tuple(int(v) for v in board.coords_of([0])[0])
        spec = TourSpec(closed=spec.closed, start=first)
    auto = [s for s in auto_plan(board, spec) if s.name not in PROOFS]
    full = [s for s in prove_plan(board, spec) if s.name not in PROOFS]
    names = [s.name for s in full]
    # every step of auto is a step of prove
    assert {s.name for s in auto} <= set(names)
    # the constructions come first, in auto's order, with auto's budget; the
    # exact steps (which prove orders to settle most) come after them
    built = [s for s in auto if s.name not in ("cpsat", "backtrack", "divide")]
    assert names[: len(built)] == [s.name for s in built] or names[0] == "divide"
    for step in built:
        twin = full[names.index(step.name)]
        # the same share of the time left, except that auto's last step (the whole remainder)
        # leaves room for the exact steps that follow in prove
        assert twin.share == step.share or (step.share == 1.0 and twin.share == 0.5)
        assert twin.cap == step.cap
    # prove ends with the exact side
    assert names[-1] == "cpsat" or board.n_squares > 40_000


def _questions(rng, board, count):
    squares = [tuple(int(v) for v in board.coords_of([i])[0]) for i in range(board.n_squares)]
    for _ in range(count):
        closed = bool(rng.integers(2))
        start = squares[int(rng.integers(len(squares)))] if rng.random() < 0.5 else None
        end = squares[int(rng.integers(len(squares)))] if not closed and rng.random() < 0.2 else None
        if start is not None and end == start:
            end = None
        yield dict(closed=closed, start=start, end=end)


def test_prove_finds_a_tour_whenever_solve_does_on_random_holed_boards():
    rng = np.random.default_rng(11)
    found = 0
    for k in range(40):
        rows, cols = int(rng.integers(5, 11)), int(rng.integers(5, 11))
        board = random_holed_board(rows, cols, int(rng.integers(0, 4)), closed=bool(rng.integers(2)), seed=k)
        for kw in _questions(rng, board, 2):
            s = solve(board, seed=k, time_limit=20, **kw)
            if s.found:
                found += 1
                p = prove(board, seed=k, time_limit=20, **kw)
                assert p.found, (board, kw, p.stats)
            elif s.status is Status.INFEASIBLE:
                assert prove(board, seed=k, time_limit=20, **kw).status is Status.INFEASIBLE
    assert found >= 10


@pytest.mark.parametrize("board, kw", [
    (Board(3, 1001, [(0, 0)]), dict(closed=True)),
    (Board(3, 1001, [(0, 500)]), dict()),
    (ring(101, 99, 3), dict(closed=True)),
    (ring(200, 200, 4), dict()),
    (Board(101, 101), dict(start="a1", end="cw101")),
    (random_holed_board(60, 60, 20, closed=True, seed=3), dict(closed=True, start=(0, 0))),
], ids=["3x1001 closed", "3x1001 open", "ring 101x99 w3", "ring 200 w4", "101x101 both ends", "60x60 holed"])
def test_prove_finds_a_tour_whenever_solve_does_on_structured_boards(board, kw):
    s = solve(board, seed=1, **kw)
    assert s.found
    p = prove(board, seed=1, time_limit=60, **kw)
    assert p.found and p.stats["settled_by"] != "none"


def test_steps_report_every_phase():
    # a board no other test built; in turn (a race builds the graph before its lanes: stats["graph_s"])
    res = prove(Board(3, 1009, [(0, 0)]), closed=True, seed=1, race=False)
    steps = res.stats["steps"]
    assert steps[0]["step"] == "quick proofs" and "graph_s" in steps[0]
    method = [s for s in steps if s["step"] == res.stats["settled_by"]][0]
    assert method["status"] == "found" and method["seconds"] >= 0 and "validation_s" in method
    res = solve("6x6", method="warnsdorff", start="a1", seed=2)
    assert [s["step"] for s in res.stats["steps"]] == ["quick proofs", "matching proof", "2-factor proof", "warnsdorff"]


def test_an_interrupted_step_ends_the_plan(monkeypatch):
    from ktsolve.registry import MethodInfo, register_method, reset_methods
    from ktsolve.result import SolveResult

    calls = []

    def pressed_ctrl_c(graph, spec, *, seed=None, time_limit=None, progress=None):
        calls.append("warnsdorff")
        return SolveResult(Status.UNKNOWN, stats={"interrupted": True, "reason": "interrupted"})

    register_method(MethodInfo("warnsdorff", "heuristic", "double", pressed_ctrl_c), replace=True)
    try:
        res = prove(Board(6, 6), closed=True, seed=1)
    finally:
        reset_methods()
    assert res.status is Status.UNKNOWN and res.stats["interrupted"] and calls == ["warnsdorff"]
    assert [s["step"] for s in res.stats["steps"]][-1] == "warnsdorff"


def test_a_user_callable_gets_presolve_and_validation():
    seen = []

    def walker(graph, spec, *, seed=None, time_limit=None, progress=None):
        seen.append(seed)
        return None

    res = solve("5x5", method=walker, closed=True, seed=3)
    assert res.status is Status.INFEASIBLE and seen == []  # refuted before the method ran

    def liar(graph, spec, *, seed=None, time_limit=None, progress=None):
        return np.arange(graph.n)  # row by row: not knight's moves

    res = solve("5x5", method=liar, seed=3)
    assert res.status is Status.UNKNOWN and "illegal move" in res.stats["invalid_tour"]
    res = solve("5x5", method=walker)
    assert res.status is Status.UNKNOWN and res.seed == seen[-1] is not None


def test_what_a_step_left_counts_its_pieces_once():
    """Splice's reason writes its count with a thousands separator; left_of must not append it again."""
    from ktsolve.plans import left_of

    said = "the time limit ran out while labelling the cycles, with 8,379 pieces left (restore 34.3 s)"
    assert left_of({"reason": said, "pieces": 8379}) == said
    assert left_of({"reason": "with 12 pieces left", "pieces": 12}) == "with 12 pieces left"
    assert left_of({"reason": "the time limit ran out", "pieces": 8379}) == "the time limit ran out; 8,379 pieces left"
    assert left_of({"reason": "stopped", "short": 1200}) == "stopped; 1,200 moves short"
