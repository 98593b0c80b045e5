"""Degree-2 forcing on the cells: the kernels against a readable closure, sound against exhaustive search and
the oracles, its steps traced back from the conclusion, its checker against forgeries, and its deadline."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import load_oracle, random_board
from naive_tours import closed_exists, exhaustive_tour
from ktsolve import Board, TourSpec, solve
from ktsolve.driver import Deadline, Stopped
from ktsolve.graph import KnightGraph
from ktsolve.proofs import check_proof
from ktsolve.proofs import forcing as F
from ktsolve.proofs._grid_check import square_moves
from ktsolve.proofs.forcing import forcing_proof
from ktsolve.proofs.local_check import check_forcing
from ktsolve.result import Proof
from ktsolve.shapes import planted

CLOSED = TourSpec(closed=True)


def _closure(board: Board):
    """Forcing to its fixed point, plainly: ``(contradiction, forced moves, deleted moves)``."""
    squares = [tuple(int(x) for x in rc) for rc in board.coords_of(np.arange(board.n_squares))]
    moves = {sq: set(square_moves(board, sq)) for sq in squares}
    forced, deleted = set(), set()
    changed = True
    while changed:
        changed = False
        for sq in squares:
            left = [w for w in moves[sq] if frozenset((sq, w)) not in deleted]
            mine = [w for w in left if frozenset((sq, w)) in forced]
            if len(left) < 2 or len(mine) > 2:
                return True, forced, deleted
            if len(left) == 2 and len(mine) < 2:
                forced |= {frozenset((sq, w)) for w in left}
                changed = True
            elif len(mine) == 2 and len(left) > 2:
                deleted |= {frozenset((sq, w)) for w in left if w not in mine}
                changed = True
    # a cycle of forced moves short of the board
    at = {}
    for m in forced:
        for x in m:
            at.setdefault(x, []).append(m)
    seen = set()
    for start in at:
        if start in seen:
            continue
        part, todo = {start}, [start]
        while todo:
            for m in at[todo.pop()]:
                for y in m:
                    if y not in part:
                        part.add(y)
                        todo.append(y)
        seen |= part
        if all(len(at[x]) == 2 for x in part) and len(part) < board.n_squares:
            return True, forced, deleted
    return False, forced, deleted


def _kernel_state(board: Board):
    """The kernels' forced and deleted moves at the end, when they find no contradiction."""
    from ktsolve.proofs import _local_kernels as K
    from ktsolve._grid_kernels import MOVES

    alive = np.ones(board.size, dtype=np.uint8)
    alive[board.hole_flat] = 0
    deg = np.empty(board.size, dtype=np.int8)
    K.degree_rows(alive, board.rows, board.cols, deg, 0, board.rows)
    dead, forced = np.zeros(board.size, dtype=np.uint8), np.zeros(board.size, dtype=np.uint8)
    queue, steps, state = np.empty(9 * board.size + 8, dtype=np.int32), np.empty(board.size + 1, dtype=np.int64), \
        np.zeros(8, dtype=np.int64)
    K.forcing_steps(alive, board.rows, board.cols, deg, dead, forced, queue, steps, state, 1 << 40)
    assert state[4] == 1 and state[7] == 0

    def moves(bits):
        out = set()
        for f in np.flatnonzero(bits):
            r, c = divmod(int(f), board.cols)
            out |= {frozenset(((r, c), (r + dr, c + dc))) for j, (dr, dc) in enumerate(MOVES) if bits[f] >> j & 1}
        return out

    return int(state[5]), moves(forced), moves(dead)


def test_the_kernels_reach_the_readable_closure():
    """On random holed boards: a contradiction exactly when the plain closure finds one, and where neither
    does, the same forced and deleted moves."""
    rng = np.random.default_rng(5)
    found = clear = 0
    for _ in range(300):
        board = random_board(rng, 3, 9, 0.3)
        if board.n_squares < 3:
            continue
        bad, forced, deleted = _closure(board)
        assert (forcing_proof(board, CLOSED) is not None) == bad, board
        if bad:
            found += 1
            continue
        reason, kforced, kdeleted = _kernel_state(board)
        assert reason == 0 and kforced == forced and kdeleted == deleted, board
        clear += len(forced) > 0
    assert found > 30 and clear > 30


@pytest.mark.parametrize("seed", range(4))
def test_no_closed_tour_whenever_forcing_says_so(seed):
    """Soundness: every forcing proof on random holed boards of at most 16 squares is confirmed by exhaustive
    search, and checks; an open question gets none (boards with a closed tour: the theorem's, below)."""
    rng = np.random.default_rng(100 + seed)
    proved = 0
    for _ in range(60):
        board = random_board(rng, 3, 5, 0.3)
        if board.n_squares > 16 or board.n_squares < 3:
            continue
        graph = KnightGraph(board)
        proof = forcing_proof(board, CLOSED)
        ref = exhaustive_tour(graph, CLOSED)
        if proof is not None:
            assert ref is None, (board, str(proof))
            assert check_proof(board, CLOSED, proof).outcome == "valid", (board, proof.evidence)
            proved += 1
        assert forcing_proof(board, TourSpec()) is None
    assert proved


def test_full_boards_against_the_theorem_and_holed_oracles():
    """No forcing proof on a rectangle with a closed tour (Schwenk), and none on the oracles' boards with one."""
    for m in range(3, 9):
        for n in range(m, 12):
            proof = forcing_proof(Board(m, n), CLOSED)
            if closed_exists(m, n):
                assert proof is None, (m, n)
            elif proof is not None:
                assert check_forcing(Board(m, n), CLOSED, proof.evidence) is None
    seen = 0
    for case in load_oracle("holed.json")["cases"]:
        if case["kind"] != "closed":
            continue
        board = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
        proof = forcing_proof(board, CLOSED)
        if case["exists"]:
            assert proof is None, case
        elif proof is not None:
            assert check_forcing(board, CLOSED, proof.evidence) is None
        seen += 1
    assert seen >= 3


def test_the_planted_pair_is_refuted_by_its_own_four_squares_at_any_size():
    for size in (16, 300):
        board = planted(size, size, "pair", balance="closed").board
        proof = forcing_proof(board, CLOSED)
        ev = proof.evidence
        assert ev["conclusion"]["reason"] == "short cycle" and ev["conclusion"]["length"] == 4
        assert [kind for kind, _ in ev["steps"]] == ["forced", "forced"]  # the two squares alone
        assert "short of all" in str(proof) and check_forcing(board, CLOSED, ev) is None


def test_a_proof_keeps_only_the_steps_its_conclusion_rests_on(monkeypatch):
    """On the planted pair the board's corners force moves too; the proof keeps the pair's two steps, and a
    proof with either of them left out does not check."""
    taken = []
    trace = F._rests_on
    monkeypatch.setattr(F, "_rests_on", lambda board, steps, *a: taken.append(len(steps)) or trace(board, steps, *a))
    board = planted(40, 40, "pair", balance="closed").board
    ev = forcing_proof(board, CLOSED).evidence
    assert taken[0] > 4 and len(ev["steps"]) == 2
    for i in range(2):
        assert check_forcing(board, CLOSED, {**ev, "steps": ev["steps"][:i] + ev["steps"][i + 1:]}) is not None


def test_the_checker_refuses_forged_proofs():
    board = Board(4, 5)
    ev = forcing_proof(board, CLOSED).evidence
    assert check_forcing(board, CLOSED, ev) is None
    ring = ev["conclusion"]["squares"]

    def forged(**change):
        return check_forcing(board, CLOSED, {**ev, "conclusion": {**ev["conclusion"], **change}})

    assert forged(squares=ring[:-1]) is not None  # the cycle does not close
    assert forged(squares=ring[1:] + ring[:1]) is None  # the same cycle, from another square
    assert forged(squares=ring + ring[:1]) is not None  # a square twice
    assert forged(reason="degree", square=ring[0]) is not None
    assert forged(reason="three forced", square=ring[0]) is not None
    assert forged(reason="parity") is not None
    assert check_forcing(board, TourSpec(), ev) is not None  # an open question
    assert check_forcing(board, CLOSED, {**ev, "steps": [["forced", "a1"], *ev["steps"]]}) is None  # a1: two moves
    assert check_forcing(board, CLOSED, {**ev, "steps": [["forced", "c3"], *ev["steps"]]}) is not None
    assert check_forcing(board, CLOSED, {**ev, "steps": [["drop", "a1"], *ev["steps"]]}) is not None
    assert check_forcing(board, CLOSED, {**ev, "steps": [["guess", "a1"], *ev["steps"]]}) is not None
    assert check_forcing(board, CLOSED, {**ev, "steps": list(reversed(ev["steps"]))}) is not None
    # a cycle as long as the board is a tour, not a contradiction
    ring_board = Board(3, 3, holes=[(1, 1)])  # eight squares, each with two moves: one cycle, a tour
    assert forcing_proof(ring_board, CLOSED) is None
    names = ["a1", "b3", "c1", "a2", "c3", "b1", "a3", "c2"]
    steps = [["forced", x] for x in names]
    said = check_forcing(ring_board, CLOSED,
                         {"steps": steps, "conclusion": {"reason": "short cycle", "squares": names}})
    assert said is not None and "tour" in said
    assert check_proof(board, CLOSED, Proof("", argument="forced moves", evidence={"steps": 3})).outcome != "valid"


def test_the_queue_and_steps_grow_and_the_clock_is_looked_at(monkeypatch):
    board = planted(120, 120, "pocket", balance="closed").board
    whole = forcing_proof(board, CLOSED)
    monkeypatch.setattr(F, "_ROOM", 8)  # room for one square's moves: grown many times
    small = forcing_proof(board, CLOSED)
    assert (str(small), small.evidence) == (str(whole), whole.evidence)

    class Clock(Deadline):
        def check(self, phase=""):
            raise Stopped("interrupted", phase)

    with pytest.raises(Stopped) as stop:
        forcing_proof(board, CLOSED, time_limit=Clock(None))
    assert stop.value.phase == F.FORCING_PHASE


def test_solve_settles_the_planted_pair_by_forcing_above_the_graph_size():
    """On a board above PRESOLVE_MAX squares the local proofs run first, on the cells: no graph, no matching."""
    from ktsolve.plans import PRESOLVE_MAX

    board = planted(2300, 2300, "pair", balance="closed").board
    assert board.n_squares > PRESOLVE_MAX
    res = solve(board, closed=True, time_limit=60, seed=1)
    assert res.status.value == "infeasible" and res.proof.argument == "forced moves", res.stats
    assert res.stats["settled_by"] == "local proofs"
    assert "table" not in KnightGraph.of(board).__dict__


def test_the_pictures_mark_the_cycle_and_the_forcing_squares():
    from ktsolve.census.plot import letter_of
    from ktsolve.render import proof_marks

    board = planted(16, 16, "pair", balance="closed").board
    m = proof_marks(board, forcing_proof(board, CLOSED))
    assert len(m.named) == 4 and len(m.moves) == 4 and len(m.other) == 0  # both forcing squares are on the cycle
    assert [text for _, text in m.legend] == ["forced moves closing a cycle short of the board"]
    board = Board(3, 5)
    proof = forcing_proof(board, CLOSED)
    assert proof.evidence["conclusion"]["reason"] == "degree"
    m = proof_marks(board, proof)
    assert m.named == [board.parse_square(proof.evidence["conclusion"]["square"])] and m.other and not m.moves
    assert letter_of("infeasible", "forced moves") == "F"


def test_the_bits_of_the_readable_side_are_the_kernels_moves():
    """forcing.py names the kernels' move bits without importing numba (the local proofs load it when they run)."""
    import subprocess
    import sys

    from ktsolve._grid_kernels import MOVES

    assert F._MOVES == list(MOVES)
    code = "import sys, ktsolve.proofs.local; print('numba' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
