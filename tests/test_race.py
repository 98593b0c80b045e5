"""The racing portfolio (``ktsolve.race``): two lanes, the first definite answer wins, nothing left behind."""

from __future__ import annotations

import functools

import os
import signal
import sys
import threading
from pathlib import Path

import pytest

from ktsolve import Board, UnsupportedError, prove, solve
from ktsolve import registry
from ktsolve.driver import Deadline, drive
from ktsolve.plans import prove_plan
from ktsolve.proofs.registry import PROOFS
from ktsolve.portfolio import run_plan
from ktsolve.race import RACE_CAPPED, RACE_MAX, RACE_STEP_SHARE, split_lanes
from ktsolve.registry import MethodInfo, register_method, reset_methods
from ktsolve.result import SolveResult, Status
from ktsolve.tour import TourSpec, validate

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
from frontier_boards import dense_holes  # noqa: E402

needs_two_cores = pytest.mark.skipif(split_lanes(prove_plan(Board(6, 6), TourSpec()), Board(6, 6)) is None,
                                     reason="the race needs two cores")


def _as_builtin(monkeypatch, info: MethodInfo) -> None:
    """Register ``info`` in place of a built-in method, as a built-in (it then gets the call's Deadline)."""
    register_method(info, replace=True)
    monkeypatch.setitem(registry.BUILTIN, info.name, info)


def _slow(seen: dict, name: str):
    """A method that works in chunks until its clock runs out, and notes whether the race cancelled it."""

    def method(graph, spec, *, seed=None, time_limit=None, progress=None):
        assert isinstance(time_limit, Deadline)
        seen["started"] = True
        outcome = drive(lambda k: (k, False), units=None, deadline=time_limit)
        seen["cancelled"] = time_limit.cancelled()
        seen["reason"] = outcome.reason
        return SolveResult(Status.UNKNOWN, stats={"reason": f"{name} ran out of time"})

    return method


@pytest.fixture
def restore_methods():
    yield
    reset_methods()


def test_split_lanes_races_cpsat_beside_the_rest_where_it_can_win(monkeypatch):
    from ktsolve.models import satcuts

    board = Board(6, 6)
    plan = prove_plan(board, TourSpec(closed=True))
    a, b = split_lanes(plan, board, cores=2)
    assert [s.name for s in b] == ["cpsat"] and b[0].share == 1.0 and b[0].params == ()
    # lane A: the plan's other steps in order, then the second engine with the rest of the time
    assert [s.name for s in a[:-1]] == [s.name for s in plan if s.name != "cpsat"]
    engine = a[-1]
    assert engine.share == 1.0 and engine.cap is None
    assert engine.title == f"cpsat (model={'sat' if satcuts.have_pysat() else 'cuts'})"
    shares = {s.name: s.share for s in plan}
    for step in a[:-1]:  # the searches that run out their budget leave most of it to the engine
        want = min(shares[step.name], RACE_STEP_SHARE) if step.name in RACE_CAPPED else shares[step.name]
        assert step.share == want
    assert any(s.name in RACE_CAPPED and s.share < shares[s.name] for s in a)
    monkeypatch.setattr(satcuts, "have_pysat", lambda: False)
    assert split_lanes(plan, board, cores=2)[0][-1].params == (("model", "cuts"),)
    assert split_lanes(plan, board, cores=1) is None
    big = Board(101, 101)
    assert big.n_squares > RACE_MAX and split_lanes(prove_plan(big, TourSpec()), big, cores=2) is None
    dense = Board(100, 100, dense_holes(100, 0.2, 0))  # the frontier's largest dense boards race
    assert dense.n_squares <= RACE_MAX and split_lanes(prove_plan(dense, TourSpec()), dense, cores=2) is not None
    # without CP-SAT in the plan, the proofs race the constructions (lane B does not wait for them)
    lanes = split_lanes([s for s in plan if s.name != "cpsat"], board, cores=2)
    assert not lanes.b_waits and lanes.titles()["A"] and set(lanes.titles()["A"]) <= set(PROOFS)
    assert "cpsat" not in lanes.titles()["B"]


@needs_two_cores
def test_the_fast_lane_wins_and_the_slow_one_sees_the_cancellation(monkeypatch, restore_methods):
    seen: dict = {}
    started = threading.Event()
    slow = _slow(seen, "cpsat")
    real_walk = registry.BUILTIN["warnsdorff"].load()

    def slow_cpsat(graph, spec, **kw):
        started.set()
        return slow(graph, spec, **kw)

    def fast_walk(graph, spec, **kw):
        assert started.wait(60)  # answer only once the slow lane is at work, so it must be stopped
        return real_walk(graph, spec, **kw)

    _as_builtin(monkeypatch, MethodInfo("cpsat", "exact", "slow", slow_cpsat, proves=True))
    _as_builtin(monkeypatch, MethodInfo("warnsdorff", "heuristic", "fast", fast_walk))
    before = set(threading.enumerate())
    res = prove(Board(6, 6), closed=True, time_limit=120, seed=3)
    assert res.status is Status.FOUND and res.stats["settled_by"] == "warnsdorff" and res.stats["lane"] == "A"
    assert seen == {"started": True, "cancelled": True, "reason": "time limit"}
    cp = [s for s in res.stats["steps"] if s["step"] == "cpsat"]
    assert cp[0]["status"] == "cancelled" and cp[0]["lane"] == "B"
    assert res.stats["steps"][-1]["step"] == "warnsdorff"
    assert set(threading.enumerate()) == before  # no lane outlives the call


@needs_two_cores
def test_cpsat_wins_while_the_slow_constructions_are_stopped(monkeypatch, restore_methods):
    seen: dict = {}
    _as_builtin(monkeypatch, MethodInfo("warnsdorff", "heuristic", "slow", _slow(seen, "warnsdorff")))
    _as_builtin(monkeypatch, MethodInfo("backtrack", "exact", "slow", _slow({}, "backtrack"), proves=True))
    before = set(threading.enumerate())
    res = prove(Board(6, 6), closed=True, time_limit=120, seed=3)
    assert res.status is Status.FOUND and res.stats["settled_by"] == "cpsat" and res.stats["lane"] == "B"
    assert seen.get("cancelled", True)
    lanes = {s["step"]: s["lane"] for s in res.stats["steps"]}
    assert lanes["cpsat"] == "B" and lanes["quick proofs"] == "A"
    assert res.stats["steps"][-1]["step"] == "cpsat"
    assert set(threading.enumerate()) == before


@needs_two_cores
def test_ctrl_c_ends_both_lanes_with_an_honest_unknown(monkeypatch, restore_methods):
    seen_a: dict = {}
    seen_b: dict = {}
    _as_builtin(monkeypatch, MethodInfo("warnsdorff", "heuristic", "slow", _slow(seen_a, "warnsdorff")))
    _as_builtin(monkeypatch, MethodInfo("cpsat", "exact", "slow", _slow(seen_b, "cpsat"), proves=True))
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        res = prove(Board(6, 6), closed=True, time_limit=120, seed=3)
    finally:
        timer.join()
    assert res.status is Status.UNKNOWN and res.stats["interrupted"] and res.stats["settled_by"] == "none"
    assert seen_a["cancelled"] and seen_b["cancelled"]
    assert [t for t in threading.enumerate() if t.name.startswith("ktsolve-")] == []


BOARDS = [(Board(5, 5), True), (Board(5, 5), False), (Board(6, 6), True), (Board(3, 4), False), (Board(4, 4), False),
          (Board(6, 6, ["a1", "f6"]), True), (Board(6, 6, ["a1", "b3"]), False), (Board(5, 6, ["c3"]), True),
          (Board(4, 5), False), (Board(7, 7, ["d4"]), True)]


@pytest.mark.parametrize("board, closed", BOARDS, ids=lambda x: str(x))
def test_the_race_gives_the_answer_of_the_plan_run_in_turn(board, closed):
    spec = TourSpec(closed=closed)
    plan = prove_plan(board, spec)
    raced = run_plan(plan, board, spec, deadline=Deadline(60), label=None, seed=5, race=True)
    in_turn = run_plan(plan, board, spec, deadline=Deadline(60), label=None, seed=5)
    assert raced.status is in_turn.status is not Status.UNKNOWN
    lanes = split_lanes(plan, board) or ([], [])
    assert raced.stats["settled_by"] in [s.name for s in plan] + [s.title for s in lanes[0] + lanes[1]]
    assert all("lane" in s for s in raced.stats["steps"]) or split_lanes(plan, board) is None


@needs_two_cores
def test_auto_races_when_asked_and_names_both_lanes():
    res = solve(Board(6, 6, ["a1", "f6"]), closed=True, time_limit=30, seed=2, race=True)
    assert res.status is not Status.UNKNOWN and " | " in res.stats["auto"]
    assert {s["lane"] for s in res.stats["steps"]} <= {"A", "B"}


def _instant_no(graph, spec, *, seed=None, time_limit=None, progress=None):
    """CP-SAT's answer on a board without a tour, at once: "no tour", resting on a search."""
    from ktsolve.result import Proof

    return SolveResult(Status.INFEASIBLE, proof=Proof("CP-SAT proved the circuit model infeasible (1 branches)",
                                                      argument="cpsat"), seed=seed)


@needs_two_cores
@pytest.mark.parametrize("entry", [prove, functools.partial(solve, race=True)], ids=["prove", "solve"])
def test_a_proof_with_a_witness_is_preferred_to_a_search_that_was_faster(monkeypatch, restore_methods, entry):
    board = Board(10, 10, dense_holes(10, 0.35, 5))  # the matching proof refutes its closed tours
    assert prove(board, closed=True, seed=1).stats["settled_by"] == "matching proof"  # and loads the kernels
    from ktsolve import portfolio

    answered = threading.Event()
    real_proof = portfolio.run_proof

    def instant_no(*args, **kw):
        answered.set()
        return _instant_no(*args, **kw)

    def late_proof(name, *args, **kw):  # the matching proof starts only once CP-SAT has answered
        if name == "matching proof":
            assert answered.wait(60)
            threading.Event().wait(0.05)
        return real_proof(name, *args, **kw)

    monkeypatch.setattr(portfolio, "run_proof", late_proof)
    _as_builtin(monkeypatch, MethodInfo("cpsat", "exact", "instant", instant_no, proves=True))
    res = entry(board, closed=True, time_limit=60, seed=1)
    assert res.status is Status.INFEASIBLE and res.stats["settled_by"] == "matching proof"
    assert res.proof.argument == "matching" and res.method in ("matching", "proofs")


def test_a_racing_auto_gives_its_proofs_the_time_prove_gives_them():
    from ktsolve.plans import PROVE_CUT_PROOFS_TIME, auto_plan

    board = Board(8, 8, ["a1", "h8"])
    a, _ = split_lanes(auto_plan(board, TourSpec(closed=True)), board, cores=2)
    proofs = {s.name: s.cap for s in prove_plan(board, TourSpec(closed=True)) if s.name in ("cut proofs",
                                                                                          "matching proof")}
    assert {s.name: s.cap for s in a if s.name in proofs} == proofs
    assert proofs["cut proofs"] == PROVE_CUT_PROOFS_TIME


def test_auto_runs_in_turn_by_default_so_a_seed_repeats_it():
    board = Board(6, 6, ["a1", "f6"])
    first, again = (solve(board, closed=True, time_limit=30, seed=2) for _ in range(2))
    assert "lane" not in first.stats and all("lane" not in s for s in first.stats["steps"])
    assert first.method == again.method and first.tour == again.tour


def test_race_is_refused_for_a_single_method():
    with pytest.raises(UnsupportedError, match="race"):
        solve("5x5", "warnsdorff", race=True)


@pytest.mark.parametrize("seed,closed", [(4, True), (0, False)])
def test_dense_100x100_boards_no_single_search_settled_get_their_tours(seed, closed):
    # the frontier's moonshot cell: neither rotation nor CP-SAT (2 workers) settled these in 60 s
    # (benchmarks/results/frontier_full_60_100.md); splice, before the cut proofs, tours them
    holes = dense_holes(100, 0.2, seed)
    board = Board(100, 100, holes)
    start = None if closed else next((r, c) for r in range(100) for c in range(100) if (r, c) not in set(holes))
    res = prove(board, closed=closed, start=start, time_limit=60, seed=1)
    assert res.found and res.stats["settled_by"] == "splice", res.stats["steps"]
    validate(board, res.tour, closed=closed, start=start)  # raises on any fault


_LANE_IMPORTS = r"""
import json, sys, threading
from ktsolve import prove, shapes, solve
from ktsolve.generate import random_holed_board

started = {}
start = threading.Thread.start


def note_first_lane(thread):
    if thread.name.startswith("ktsolve-lane") and not started:
        started.update(dict.fromkeys(sys.modules))
    start(thread)


threading.Thread.start = note_first_lane
boards = {"pair": shapes.planted(120, 120, "pair", balance="closed").board,
          "holed": random_holed_board(60, 60, 0.05, closed=True, seed=1)}
ask = {"solve": solve, "prove": prove}
kind, command = sys.argv[1], sys.argv[2]
res = ask[command](boards[kind], closed=True, time_limit=60, seed=1)
late = [m for m in sys.modules if m.startswith("ktsolve") and m not in started and hasattr(sys.modules[m], "__path__")]
print(json.dumps({"raced": bool(started), "late": late, "status": res.status.value}))
"""


@needs_two_cores
@pytest.mark.parametrize("kind, command", [("pair", "solve"), ("pair", "prove"), ("holed", "solve"),
                                           ("holed", "prove")])
def test_no_package_is_first_imported_while_the_lanes_run(kind, command):
    """Two lanes importing one package at once can deadlock Python's module locks (one holds a submodule's
    lock and waits for its package, whose ``__init__``, run by the other, waits for that submodule): seen as
    ``_DeadlockError`` on ``ktsolve.factor.chunks`` in ``solve`` of a 10^7-square board.  So every package
    a lane imports is imported before the lanes start."""
    import json
    import subprocess

    got = subprocess.run([sys.executable, "-c", _LANE_IMPORTS, kind, command], capture_output=True, text=True,
                         timeout=300, check=True)
    seen = json.loads(got.stdout.strip().splitlines()[-1])
    assert seen["raced"]
    assert seen["late"] == []
    assert seen["status"] == ("infeasible" if kind == "pair" else "found")  # the lanes' steps all ran
