"""One form for the time limit (a Deadline from solve down to the loops) and one place where the seed is settled."""

from __future__ import annotations

import secrets
import time

import pytest

import ktsolve
from ktsolve import Board, KnightGraph, Status, TourSpec, enumerate_tours, prove, solve
from ktsolve.driver import Deadline, begin, drive
from ktsolve.errors import InvalidParameterError
from ktsolve.heuristics.aco import solve_aco
from ktsolve.heuristics.ga import solve_ga
from ktsolve.heuristics.iaco import enumerate_iaco
from ktsolve.portfolio import run_method
from ktsolve.registry import BUILTIN, MethodInfo, register_method, reset_methods


def test_begin_converts_a_number_once_and_passes_a_deadline_through():
    d = Deadline(5)
    assert begin(d, 3) == (d, 3)
    made, seed = begin(2.5, 7)
    assert isinstance(made, Deadline) and made.time_limit == 2.5 and seed == 7
    assert begin(None, None, seeded=False)[1] is None
    assert 0 <= begin(None, None)[1] < 2**32
    assert begin(None, 1, default=60.0)[0].time_limit == 60.0
    assert begin(d, 1, default=60.0)[0] is d
    for bad in (0, -1, float("nan"), "5", True):
        with pytest.raises(InvalidParameterError, match="time_limit"):
            begin(bad, 1)
    with pytest.raises(InvalidParameterError, match="seed"):
        begin(None, -1)


def test_a_part_never_outlives_its_deadline():
    d = Deadline(0.2)
    part = d.part(0.5)
    assert part.time_limit <= 0.1 + 1e-9
    part.extend(10)
    assert d.extra == 0.0
    assert Deadline(None).part(0.5, cap=2.0).time_limit == 2.0


def test_drive_takes_a_deadline_as_its_time_limit():
    d = Deadline(0.2)
    out = drive(lambda k: (time.sleep(0.01) or 1, False), units=None, time_limit=d)
    assert out.reason == "time limit" and d.elapsed() < 1.0


def test_a_colony_reads_the_callers_deadline():
    expired = Deadline(1e-9, t0=time.perf_counter() - 1.0)
    res = solve_aco(KnightGraph(Board(8, 8)), TourSpec(), time_limit=expired, seed=1, cycles=10**6)
    assert res.status is Status.UNKNOWN and "time limit" in res.stats["reason"]
    assert res.stats["cycles"] == 0
    en = enumerate_iaco(KnightGraph(Board(8, 8)), TourSpec(), time_limit=expired, seed=1, cycles=10**6)
    assert en.stats["stopped"] == "time limit" and en.stats["walks"] == 0
    res = solve_ga(KnightGraph(Board(8, 8)), TourSpec(), time_limit=expired, seed=1)
    assert res.status is Status.UNKNOWN and res.stats["reason"].startswith("time limit")


@pytest.fixture
def spy_builtin(monkeypatch):
    """A method registered as the built-in ``warnsdorff``, recording what it is given."""
    given = []

    def method(graph, spec, *, time_limit=None, progress=None, seed=None):
        given.append((time_limit, seed))
        return None

    info = MethodInfo("warnsdorff", "heuristic", "records its arguments", method)
    monkeypatch.setitem(BUILTIN, "warnsdorff", info)
    return given


def test_a_built_in_method_gets_the_plans_deadline_and_a_users_method_seconds(spy_builtin):
    solve("6x6", "warnsdorff", seed=4, time_limit=30, presolve_proofs=False)
    limit, seed = spy_builtin[-1]
    assert isinstance(limit, Deadline) and 0 < limit.time_limit <= 30 and seed == 4
    calls = []

    def users(graph, spec, *, time_limit=None, progress=None, seed=None):
        calls.append(time_limit)
        return None

    register_method(MethodInfo("users", "heuristic", "a user's method", users))
    try:
        solve("6x6", "users", seed=4, time_limit=30, presolve_proofs=False)
        run_method(ktsolve.registry.method_info("users"), KnightGraph(Board(6, 6)), TourSpec(),
                   time_limit=Deadline(20), seed=1)
    finally:
        reset_methods()
    assert all(isinstance(t, float) for t in calls) and 0 < calls[0] <= 30 and 0 < calls[1] <= 20


@pytest.fixture
def draws(monkeypatch):
    """Counts the fresh seeds drawn (``seeds.resolve_seed`` draws with ``secrets.randbelow``)."""
    count = []
    real = secrets.randbelow

    def counting(n):
        count.append(n)
        return real(n)

    monkeypatch.setattr(secrets, "randbelow", counting)
    return count


@pytest.mark.parametrize("call", [
    lambda: solve("5x5", "aco", start="a1", cycles=50),
    lambda: solve("5x5", "iaco", cycles=50),
    lambda: solve("6x6"),
    lambda: prove("6x6", time_limit=20),
    lambda: enumerate_tours("5x5", "aco", cycles=5),
    lambda: solve_aco(KnightGraph(Board(5, 5)), TourSpec(), cycles=5),
], ids=["solve aco", "solve iaco", "solve auto", "prove", "enumerate", "solve_aco"])
def test_a_seed_left_to_chance_is_drawn_once(draws, call):
    res = call()
    assert len(draws) == 1 and isinstance(res.seed, int)
