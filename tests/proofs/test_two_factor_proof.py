"""The 2-factor proof as a proof step: sound against exhaustive search and the oracles, re-checked by the checker."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import load_oracle, random_board
from naive_factor import check_evidence
from naive_tours import exhaustive_tour
from ktsolve import Board, TourSpec, prove, solve
from ktsolve.graph import KnightGraph
from ktsolve.plans import PROOFS, auto_plan, prove_plan
from ktsolve.proofs import quick_proof
from ktsolve.proofs.two_factor import two_factor_proof


def _specs(board, rng):
    yield TourSpec(closed=True)
    yield TourSpec(closed=False)
    k = int(rng.integers(board.n_squares))
    s = tuple(int(v) for v in board.coords_of([k])[0])
    yield TourSpec(closed=False, start=s)
    k2 = int(rng.integers(board.n_squares))
    e = tuple(int(v) for v in board.coords_of([k2])[0])
    if e != s:
        yield TourSpec(closed=False, start=s, end=e)
        yield TourSpec(closed=True, start=s, end=e)


@pytest.mark.parametrize("seed", range(6))
def test_no_tour_whenever_the_proof_says_so(seed):
    """Soundness: every 2-factor proof on random holed boards of at most 16 squares is confirmed by
    exhaustive search, and its evidence passes the checker."""
    rng = np.random.default_rng(seed)
    proved = tours = 0
    for _ in range(40):
        board = random_board(rng, 3, 5, 0.3)
        if board.n_squares > 16:
            continue
        graph = KnightGraph(board)
        for spec in _specs(board, rng):
            proof = two_factor_proof(graph, spec)
            ref = exhaustive_tour(graph, spec)
            if proof is not None:
                assert ref is None, (board, spec, str(proof))
                assert check_evidence(board, spec, proof) is None
                proved += 1
            tours += ref is not None
    assert proved and tours  # both kinds of answer occurred


def test_the_proof_is_sound_on_36_squares_with_backtracking():
    rng = np.random.default_rng(11)
    proved = 0
    for _ in range(25):
        board = random_board(rng, 5, 6, 0.15)
        graph = KnightGraph(board)
        for spec in (TourSpec(closed=True), TourSpec(closed=False)):
            if quick_proof(graph, spec) is not None:
                continue
            proof = two_factor_proof(graph, spec)
            if proof is None:
                continue
            proved += 1
            res = solve(board, "backtrack", closed=spec.closed, presolve_proofs=False, time_limit=60)
            assert res.status.value == "infeasible", (board, spec)
    assert proved


def test_oracles_of_holed_boards():
    cases = load_oracle("holed.json")["cases"]
    seen = 0
    for case in cases:
        board = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
        spec = TourSpec(closed=case["kind"] == "closed",
                        start=tuple(case["start"]) if case.get("start") else None,
                        end=tuple(case["end"]) if case.get("end") else None)
        proof = two_factor_proof(board, spec)
        if case["exists"]:
            assert proof is None, case
        elif proof is not None:
            assert check_evidence(board, spec, proof) is None
        seen += 1
    assert seen >= 5


def test_the_proof_runs_before_any_search_in_both_plans():
    for board in (Board(6, 6), Board(60, 60, holes=[(0, 0), (0, 1)]), Board(3, 1000)):
        for plan in (auto_plan(board, TourSpec(closed=True)), prove_plan(board, TourSpec(closed=True))):
            names = [s.name for s in plan]
            first_method = min(k for k, n in enumerate(names) if n not in (*PROOFS, "divide"))
            assert names.index("quick proofs") < names.index("2-factor proof") < first_method


def test_prove_settles_with_the_2_factor_proof_and_its_evidence_checks():
    # 3x6 open: the quick proofs and the matching proof leave it, the 2-factor proof does not
    board = Board(3, 6)
    res = prove(board, closed=False, seed=1)
    assert res.status.value == "infeasible" and res.stats["settled_by"] == "2-factor proof"
    assert res.method == "2-factor" and res.proof.argument == "2-factor"
    assert check_evidence(board, res.spec, res.proof) is None
    assert res.to_dict()["certificate"]["argument"] == "2-factor"


def test_an_expired_deadline_stops_the_proof():
    from ktsolve.driver import Deadline, Stopped

    with pytest.raises(Stopped):
        two_factor_proof(Board(8, 8), TourSpec(closed=True), time_limit=Deadline(1e-9, t0=0.0))
    # seconds that run out before the 2-factor is complete: stopped, never None ("a 2-factor exists")
    with pytest.raises(Stopped):
        two_factor_proof(Board(30, 30), TourSpec(closed=True), time_limit=1e-9)
    assert two_factor_proof(Board(30, 30), TourSpec(closed=True), time_limit=60) is None


def test_without_a_time_limit_the_proof_has_a_cap_that_grows_with_the_board():
    # its construction is far from linear on dense holes: with no time limit the cap keeps a method
    # asked by name from waiting minutes for a proof that may not come
    from ktsolve import plans

    for board in (Board(60, 60, holes=[(0, 0), (0, 1)]), Board(2000, 2000, holes=[(0, 0), (0, 1)])):
        for plan in (auto_plan(board, TourSpec(closed=True)), prove_plan(board, TourSpec(closed=True))):
            step = next(s for s in plan if s.name == "2-factor proof")
            want = plans.TWO_FACTOR_CAP_BASE + plans.TWO_FACTOR_CAP_PER_SQUARE * board.n_squares
            assert step.cap == pytest.approx(want) and step.share == plans.TWO_FACTOR_SHARE


def test_the_proof_lane_gives_the_2_factor_proof_a_longer_cap():
    # beside the constructions it delays no method; where no 2-factor exists its search runs longest
    from ktsolve import plans

    board = Board(1000, 1000, holes=[(0, 0), (0, 1)])
    plan = auto_plan(board, TourSpec(closed=True))
    step = next(s for s in plans.proof_lane(plan, board) if s.name == "2-factor proof")
    assert step.cap == pytest.approx(plans.TWO_FACTOR_CAP_BASE + plans.LANE_TWO_FACTOR_CAP_PER_SQUARE * 999_998)
    assert step.cap > next(s for s in plan if s.name == "2-factor proof").cap


def test_a_proof_past_its_cap_gives_up_and_the_method_answers(monkeypatch):
    # 3x6 open has no tour, and only the 2-factor proof among the presolve proofs refutes it
    from ktsolve import plans

    board = Board(3, 6)
    assert solve(board, closed=False, method="warnsdorff", seed=1).stats["settled_by"] == "2-factor proof"
    monkeypatch.setattr(plans, "TWO_FACTOR_CAP_BASE", 1e-9)
    monkeypatch.setattr(plans, "TWO_FACTOR_CAP_PER_SQUARE", 0.0)
    res = solve(board, closed=False, method="warnsdorff", seed=1)
    assert res.status.value == "unknown"
    step = next(s for s in res.stats["steps"] if s["step"] == "2-factor proof")
    assert step["status"] == "no proof"


def _shared_pair_board(n: int) -> Board:
    """Two squares whose only moves go to the same two squares a and b (a 4-cycle), and a third square
    with a move to a and one other move: a is full, so the third square has one move left.  No square
    has fewer than two moves, the colours balance (holes of the other colour far away), and no single
    square cuts the board: the 2-factor argument refutes it, and so does degree-2 forcing."""
    from ktsolve.graph import KNIGHT_MOVES

    def moves(r, c):
        return [(r + dr, c + dc) for dr, dc in KNIGHT_MOVES.tolist() if 0 <= r + dr < n and 0 <= c + dc < n]

    r0 = c0 = n // 2
    x1, x2, a, b = (r0, c0), (r0 + 2, c0), (r0 + 1, c0 + 2), (r0 + 1, c0 - 2)
    holes = {y for x in (x1, x2) for y in moves(*x) if y not in (a, b)}
    x3 = (r0 - 1, c0 + 3)
    other = next(y for y in moves(*x3) if y != a and y not in holes)
    holes |= {y for y in moves(*x3) if y not in (a, other)}
    mask = np.zeros((n, n), dtype=bool)
    for h in holes:
        mask[h] = True
    need = len(holes)  # every hole so far is of colour 1 (a move from a square of colour 0)
    far = [(r, c + (r + c) % 2) for r in (5, 11) for c in range(6, n - 7, 6)]
    for h in far[:need]:
        mask[h] = True
    board = Board.from_mask(mask)
    assert board.colour_counts()[0] == board.colour_counts()[1]
    return board


def test_the_shared_pair_board_has_no_2_factor_and_falls_to_forcing():
    from ktsolve.proofs.local import local_proof

    board = _shared_pair_board(60)
    spec = TourSpec(closed=True)
    assert quick_proof(KnightGraph(board), spec) is None
    forcing = local_proof(board, spec, cuts=True)
    # a gets two forced moves, so the third square's move to a goes and it is left with one
    assert forcing.argument == "forced moves" and forcing.evidence["conclusion"]["reason"] == "degree"
    proof = two_factor_proof(board, spec)
    assert proof is not None and check_evidence(board, spec, proof) is None
    assert proof.evidence["need"] == 6 and len(proof.evidence["X"]) == 3


def _moat_board(n: int, top: int = 20, side: int = 10) -> Board:
    """A ``side x side`` block walled off by a moat of holes two thick, joined to the rest through two squares
    of colour 1 in the moat, with three squares of colour 1 taken out inside it (colours balanced far away).

    The block's squares of colour 0 have only the block's squares of colour 1 and the two in the moat as
    neighbours, one fewer than they are, so no 2-factor pairs them; no square has fewer than two moves,
    none is cut, and degree-2 forcing stops at the block's corners."""
    mask = np.zeros((n, n), dtype=bool)
    lo, hi = top, top + side
    mask[lo - 2:hi + 2, lo - 2:hi + 2] = True
    mask[lo:hi, lo:hi] = False
    mid = lo + side // 2
    for r in (lo - 1, hi):
        mask[r, mid if (r + mid) % 2 == 1 else mid + 1] = False
    inside = [(r, c) for r in range(lo + 2, hi - 2) for c in range(lo + 2, hi - 2) if (r + c) % 2 == 1]
    for rc in inside[::len(inside) // 3][:3]:
        mask[rc] = True
    c0, c1 = Board.from_mask(mask).colour_counts()
    want = 0 if c0 > c1 else 1
    far = [(r, c + ((r + c) % 2 != want)) for r in range(n - 6, n - 2, 2) for c in range(4, n - 4, 4)]
    for rc in far[:abs(c0 - c1)]:
        mask[rc] = True
    board = Board.from_mask(mask)
    assert board.colour_counts()[0] == board.colour_counts()[1]
    return board


def test_the_moat_board_has_no_2_factor_and_no_local_obstruction():
    from ktsolve.proofs.local import local_proof

    board = _moat_board(60)
    spec = TourSpec(closed=True)
    assert quick_proof(KnightGraph(board), spec) is None and local_proof(board, spec, cuts=True) is None
    proof = two_factor_proof(board, spec)
    assert proof is not None and check_evidence(board, spec, proof) is None
    assert len(proof.evidence["X"]) == 50


@pytest.mark.parametrize("call", [solve, prove])
def test_a_huge_board_whose_obstruction_is_the_2_factor_gets_that_proof(call):
    """Above PRESOLVE_MAX squares: splice cannot tour the moat's block, the local proofs find nothing, and
    the 2-factor proof (restored start, no graph built) refutes the board."""
    from ktsolve.plans import PRESOLVE_MAX

    board = _moat_board(3000)
    assert board.n_squares > PRESOLVE_MAX
    res = call(board, closed=True, time_limit=120, seed=1)
    assert res.status.value == "infeasible" and res.proof.argument == "2-factor", res.stats
    assert res.stats["settled_by"] == "2-factor proof"
    assert "table" not in KnightGraph.of(board).__dict__
    assert check_evidence(board, TourSpec(closed=True), res.proof) is None
