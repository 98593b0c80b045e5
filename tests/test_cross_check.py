"""The exact methods and the proofs never disagree; heuristics never solve what the exact side refutes.

Boards are random with holes anywhere (hypothesis, up to 6x6); every question
is answered by CP-SAT and by exhaustive backtracking, each with the presolve
proofs switched off so they answer on their own, and by the quick, matching
and cut proofs, which may only speak when both exact methods say no tour
exists (and whose witnesses must pass their checkers).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktsolve import Board, KnightGraph, Status, TourSpec, methods, solve
from ktsolve.proofs import check_proof, cut_proofs, matching_proof, quick_proof

from conftest import random_board


@st.composite
def questions(draw, max_side=6):
    rows = draw(st.integers(1, max_side))
    cols = draw(st.integers(1, max_side))
    cells = rows * cols
    flat = draw(st.sets(st.integers(0, cells - 1), max_size=min(cells - 1, 12)))
    board = Board(rows, cols, [(f // cols, f % cols) for f in flat])
    closed = draw(st.booleans())
    squares = [tuple(int(v) for v in rc) for rc in board.coords_of(np.arange(board.n_squares))]
    start = draw(st.none() | st.sampled_from(squares))
    end = draw(st.none() | st.sampled_from(squares))
    return board, closed, start, end


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(questions())
def test_exact_methods_and_proofs_agree(q):
    board, closed, start, end = q
    kw = dict(closed=closed, start=start, end=end, presolve_proofs=False, time_limit=30)
    a = solve(board, "cpsat", seed=1, **kw)
    b = solve(board, "backtrack", **kw)
    assert a.status is not Status.UNKNOWN and b.status is not Status.UNKNOWN
    assert a.status is b.status, (board, closed, start, end, a.proof, b.proof)
    spec = a.spec
    graph = KnightGraph(board)
    for proof in (quick_proof(graph, spec), matching_proof(graph, spec), cut_proofs(graph, spec)):
        if proof is not None:
            assert a.status is Status.INFEASIBLE, (board, spec, proof)
            assert check_proof(graph, spec, proof).valid, (board, spec, proof)


def _heuristics():
    return [name for name, info in methods().items() if not info.proves]


@pytest.mark.parametrize("method", _heuristics())
def test_heuristics_never_solve_what_the_exact_side_refutes(method):
    info = methods()[method]
    rng = np.random.default_rng(2024)
    refuted = solved = 0
    for _ in range(40):
        board = random_board(rng, 3, 6, 0.2)
        closed = bool(rng.integers(2)) if info.closed and info.open else info.closed
        spec = TourSpec(closed=closed)
        exact = solve(board, "cpsat", closed=closed, seed=0, presolve_proofs=False, time_limit=30)
        assert exact.status is not Status.UNKNOWN
        res = solve(board, method, closed=closed, seed=3, presolve_proofs=False, time_limit=0.05)
        if exact.status is Status.INFEASIBLE:
            refuted += 1
            assert res.status is Status.UNKNOWN, (method, board, spec)
            assert res.tour is None
        elif res.found:
            solved += 1
        # a heuristic may say unknown on a board with a tour, never infeasible
        assert res.status is not Status.INFEASIBLE
    assert refuted > 0 and solved > 0, (refuted, solved)
