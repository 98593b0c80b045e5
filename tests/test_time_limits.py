"""Every phase of a call looks at the clock: the graph, the proofs, each step's share.

How close to the limit the answers come is measured in
``benchmarks/bench_time_limits.py``; these tests check the mechanics.
"""

from __future__ import annotations

import time

import pytest

from ktsolve import Board, KnightGraph, MethodInfo, TourSpec, solve
from ktsolve.driver import Deadline, Stopped
from ktsolve.proofs import quick_proof
from ktsolve.registry import register_method, reset_methods


class NoTimeLeft(Deadline):
    """A deadline that has not expired but has nothing left to give."""

    def __init__(self):
        super().__init__(60)

    def check(self, phase=""):
        pass

    def remaining(self):
        return 0.0


def test_quick_proofs_stop_at_an_expired_deadline():
    graph = KnightGraph(Board(8, 8, holes=[(0, 1), (1, 0)]))
    with pytest.raises(Stopped, match="running the quick proofs"):
        quick_proof(graph, TourSpec(), time_limit=Deadline(1e-9, t0=0.0))


def test_quick_proofs_leave_out_searches_that_cannot_end_in_time():
    # two columns of holes cut a 5x10 board in two: only the connectivity search sees it
    board = Board(5, 12, holes=[(r, c) for r in range(5) for c in (5, 6)])
    graph = KnightGraph(board)
    assert quick_proof(graph, TourSpec()).argument == "connectivity"
    assert quick_proof(graph, TourSpec(), time_limit=Deadline(60)).argument == "connectivity"
    assert quick_proof(graph, TourSpec(), time_limit=60).argument == "connectivity"
    # not None ("every condition holds"): the searches did not run
    with pytest.raises(Stopped, match="running the quick proofs"):
        quick_proof(graph, TourSpec(), time_limit=NoTimeLeft())


@pytest.fixture
def spy():
    given = []

    def method(graph, spec, *, seed=None, time_limit=None, progress=None):
        given.append(time_limit)
        return None

    register_method(MethodInfo("spy", "heuristic", "records its time limit", method))
    yield given
    reset_methods()


def test_a_step_gets_its_share_after_its_graph_is_built(spy, monkeypatch):
    real = KnightGraph.build

    def slow_build(self, deadline=None, **kw):
        time.sleep(0.3)
        return real(self, deadline, **kw)

    monkeypatch.setattr(KnightGraph, "build", slow_build)
    solve(Board(7, 9), "spy", seed=1, time_limit=1.0, presolve_proofs=False)
    assert spy and spy[0] < 0.75  # what was left once the graph was built


def test_a_method_step_leaves_time_to_validate_a_large_tour(spy):
    board = Board(300, 300)
    solve(board, "spy", seed=1, time_limit=5.0, presolve_proofs=False)
    # 90,000 squares: about 5 ms kept for the validator
    assert spy[0] < 5.0 - board.n_squares * 4e-8


def test_the_clock_stops_graph_building_inside_the_portfolio():
    res = solve(Board(1200, 1200, holes=[(0, 0)]), seed=1, time_limit=1e-3)
    assert res.status.value == "unknown"
    assert "time limit" in res.stats["reason"]


# ---------------------------------------------------------------------------------------------- the program's clock
def test_the_process_start_is_read_from_the_system():
    """Python's start-up and imports count: the clock reads when the process began, not when ktsolve's code ran."""
    import subprocess
    import sys

    code = ("import time; time.sleep(0.6); from ktsolve.cli.args import process_started; "
            "print(time.perf_counter() - process_started())")
    age = float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                               timeout=120).stdout)
    assert 0.6 <= age < 60, age


def test_the_programs_time_limit_counts_from_the_process_start(monkeypatch):
    """Run as the ``ktsolve`` program, --time-limit includes what passed before solve began (start-up, reading)."""
    from conftest import invoke

    from ktsolve.cli import args

    question = ["solve", "30x30", "--closed", "-m", "rotation", "--seed", "1", "--time-limit", "5"]
    assert invoke(question, 0).exit_code == 0  # inside another program the seconds start at the call
    monkeypatch.setattr(args, "_PROCESS_T0", time.perf_counter() - 100.0)  # a process that started 100 s ago
    t = time.perf_counter()
    res = invoke(question, 3)
    assert time.perf_counter() - t < 5, "the spent budget must end the run at once"
    assert "unknown whether" in res.stderr and " in 10" in res.stderr, res.stderr  # the process's 100 s said
