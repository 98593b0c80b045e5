"""The proofs beside the constructions: solve's default race on two cores, and prove's on large boards.

A proof and a tour never both exist, so this race's answer does not depend on timing: the tests compare it
with the plan run in turn.
"""

from __future__ import annotations

import threading

import numpy as np
import pytest

from ktsolve import Board, solve
from ktsolve import registry
from ktsolve.plans import auto_plan
from ktsolve.proofs.registry import PROOFS, proof_step
from ktsolve.race import available_cores, split_lanes
from ktsolve.registry import MethodInfo, register_method, reset_methods
from ktsolve.result import SolveResult, Status
from ktsolve.tour import TourSpec

MOVES = [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]


def planted(n: int = 40) -> Board:
    """An n x n board where two squares share their only two moves (a forced 4-cycle: no closed tour),
    with the colours balanced by single holes far away, so that the quick proofs see nothing."""
    x, y, keep = (10, 10), (10, 12), {(8, 11), (12, 11)}
    holes = {(r + dr, c + dc) for r, c in (x, y) for dr, dc in MOVES} - keep
    surplus = sum(1 - 2 * ((r + c) % 2) for r, c in holes)  # even-coloured holes minus odd ones
    for r in range(25, n - 2, 5):
        for c in range(3, n - 2, 5):
            if surplus == 0:
                break
            holes.add((r, c) if (r + c) % 2 == (surplus > 0) else (r, c + 1))
            surplus += 1 if surplus < 0 else -1
    return Board(n, n, holes=sorted(holes))


needs_two_cores = pytest.mark.skipif(available_cores() < 2, reason="the race needs two cores")


@pytest.fixture
def restore_methods():
    yield
    reset_methods()


def _as_builtin(monkeypatch, info: MethodInfo) -> None:
    register_method(info, replace=True)
    monkeypatch.setitem(registry.BUILTIN, info.name, info)


def test_the_planted_board_has_no_closed_tour_and_the_quick_proofs_do_not_see_it():
    board = planted()
    assert board.n_squares > 400 and board.colour_counts()[0] == board.colour_counts()[1]
    res = solve(board, closed=True, race=False, seed=1, time_limit=60)
    assert res.status is Status.INFEASIBLE and res.stats["settled_by"] not in ("quick proofs",)


@needs_two_cores
def test_a_proof_stops_the_construction_and_the_answer_is_the_one_in_turn():
    board = planted()
    before = set(threading.enumerate())
    res = solve(board, closed=True, seed=1, time_limit=120)
    assert set(threading.enumerate()) <= before  # both lanes joined
    assert res.status is Status.INFEASIBLE and res.stats["settled_by"] in PROOFS and res.stats["lane"] == "A"
    assert res.stats["lanes"]["B"][0] == "splice"
    steps = {s["step"]: s for s in res.stats["steps"]}
    assert steps["splice"]["lane"] == "B" and steps["splice"]["status"] == "cancelled"
    alone = solve(board, closed=True, race=False, seed=1, time_limit=120)
    assert (alone.status, alone.proof.argument) == (res.status, res.proof.argument)


@needs_two_cores
def test_the_proof_lane_runs_the_cheapest_proofs_first():
    board = planted()
    lanes = split_lanes(auto_plan(board, TourSpec(closed=True)), board, search=False)
    costs = [proof_step(name).cost for name in lanes.titles()["A"]]
    assert costs == sorted(costs) and len(costs) >= 3


def test_on_huge_boards_the_2_factor_proof_runs_after_splice_not_beside_it():
    """Above TWO_FACTOR_AFTER_SPLICE squares splice's restoration, which builds a 2-factor of the same
    network on both cores, is not halved by the 2-factor proof beside it: the proof follows splice in its
    lane, with the time splice leaves, and the other proofs stay in the proof lane."""
    from ktsolve.plans import TWO_FACTOR_AFTER_SPLICE

    huge = Board(5000, 5000, holes=[(0, 0), (0, 1)])
    assert huge.n_squares > TWO_FACTOR_AFTER_SPLICE
    lanes = split_lanes(auto_plan(huge, TourSpec(closed=True)), huge, cores=2, search=False)
    titles = lanes.titles()
    assert titles["B"][:2] == ["splice", "2-factor proof"]
    assert "2-factor proof" not in titles["A"] and titles["A"]
    steps = [s.name for s in lanes.a]
    assert "2-factor proof" not in steps  # not in the queue lane A takes its next step from either
    # nothing else in its lane needs splice's last fifth: the proof after it gets what splice leaves
    assert next(iter(lanes.b)).share == 1.0


def test_below_the_bound_the_2_factor_proof_stays_beside_splice(monkeypatch):
    board = Board(300, 300, holes=[(0, 0), (0, 1)])
    lanes = split_lanes(auto_plan(board, TourSpec(closed=True)), board, cores=2, search=False)
    assert "2-factor proof" in lanes.titles()["A"] and lanes.titles()["B"][0] == "splice"
    assert next(iter(lanes.b)).share == 0.8
    from ktsolve import plans

    monkeypatch.setattr(plans, "TWO_FACTOR_AFTER_SPLICE", board.n_squares - 1)
    lanes = split_lanes(auto_plan(board, TourSpec(closed=True)), board, cores=2, search=False)
    assert lanes.titles()["A"] == ["quick proofs", "matching proof"]
    assert lanes.titles()["B"] == ["splice", "2-factor proof", "rotation", "warnsdorff"]


@needs_two_cores
def test_where_a_tour_exists_the_race_returns_the_tour_found_in_turn():
    board = Board(30, 30, holes=[(0, 0), (0, 1), (14, 14), (14, 15)])
    raced = solve(board, closed=True, seed=4, time_limit=120)
    alone = solve(board, closed=True, race=False, seed=4, time_limit=120)
    assert raced.status is alone.status is Status.FOUND
    assert raced.stats["settled_by"] == alone.stats["settled_by"] and raced.stats["lane"] == "B"
    assert np.array_equal(np.asarray(raced.tour), np.asarray(alone.tour))


@needs_two_cores
def test_a_lane_out_of_steps_takes_the_other_lanes_next_proof(monkeypatch, restore_methods):
    from ktsolve.proofs import quick

    done = threading.Event()

    def gives_up(graph, spec, **kw):
        return SolveResult(Status.UNKNOWN, stats={"reason": "gave up"})

    def last(graph, spec, **kw):
        done.set()
        return gives_up(graph, spec)

    for name in ("splice", "rotation"):
        _as_builtin(monkeypatch, MethodInfo(name, "heuristic", "gives up", gives_up))
    _as_builtin(monkeypatch, MethodInfo("warnsdorff", "heuristic", "gives up", last))
    real = quick.quick_proof

    def slow_quick(graph, spec, **kw):
        assert done.wait(60)  # lane A is still on its first proof when lane B runs out of constructions
        return real(graph, spec, **kw)

    monkeypatch.setattr(quick, "quick_proof", slow_quick)
    res = solve(planted(), closed=True, seed=1, time_limit=120)
    assert res.status is Status.INFEASIBLE
    lanes = {s["step"]: s["lane"] for s in res.stats["steps"]}
    assert lanes["quick proofs"] == "A" and lanes["2-factor proof"] == "B"


@needs_two_cores
def test_a_method_named_that_cannot_prove_races_the_proofs():
    res = solve(planted(), "rotation", closed=True, seed=1, time_limit=120)
    assert res.status is Status.INFEASIBLE and res.stats["settled_by"] in PROOFS
    steps = {s["step"]: s for s in res.stats["steps"]}
    assert steps["rotation"]["lane"] == "B"


def test_a_method_that_proves_runs_after_the_proofs_in_turn():
    res = solve(Board(30, 30, holes=[(0, 0), (0, 1)]), "cpsat", closed=True, seed=1, time_limit=120)
    assert res.status is Status.FOUND and "lanes" not in res.stats
    assert all("lane" not in s for s in res.stats["steps"])


def test_race_false_runs_in_turn():
    res = solve(planted(), closed=True, race=False, seed=1, time_limit=60)
    assert "lanes" not in res.stats and all("lane" not in s for s in res.stats["steps"])


# ---------------------------------------------------------------------- solve settles the "no"s that prove's proofs settle
def _cut_pocket(n: int) -> Board:
    """A corner pocket of five squares joined to the rest through one square (bench_obstructed's CUT_CORNER),
    colours equal: no closed tour, by the cut square."""
    holes = [(0, 0), (0, 5), (1, 4), (2, 0), (2, 3), (2, 5), (3, 1), (3, 2), (3, 3), (3, 4), (4, 0), (4, 2)]
    return Board(n, n, holes=holes)


@needs_two_cores
@pytest.mark.parametrize("board", [planted(40), planted(200), _cut_pocket(30), Board(4, 120, [(0, 0), (3, 119)])],
                         ids=["planted40", "planted200", "pocket30", "4x120"])
def test_solve_settles_the_no_that_prove_settles_with_a_proof(board):
    from ktsolve import prove

    proved = prove(board, closed=True, seed=1, time_limit=120, race=False)
    assert proved.status is Status.INFEASIBLE and proved.stats["settled_by"] in PROOFS
    solved = solve(board, closed=True, seed=1, time_limit=120)
    assert solved.status is Status.INFEASIBLE and solved.stats["settled_by"] in PROOFS


@needs_two_cores
def test_only_the_proof_lane_gives_solve_the_matching_proof_above_auto_s_limit():
    """Above PRESOLVE_MATCHING_MAX squares auto's plan in turn has no matching proof; beside splice it runs."""
    from ktsolve.plans import PRESOLVE_MATCHING_MAX

    board = planted(200)
    assert board.n_squares > PRESOLVE_MATCHING_MAX
    in_turn = solve(board, closed=True, seed=1, time_limit=8, race=False)
    assert in_turn.status is Status.UNKNOWN and "matching proof" not in {s["step"] for s in in_turn.stats["steps"]}
    raced = solve(board, closed=True, seed=1, time_limit=120)
    assert raced.status is Status.INFEASIBLE and raced.stats["settled_by"] == "matching proof"
