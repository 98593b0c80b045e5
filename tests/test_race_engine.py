"""The race's second engine (lane A's exact search once its steps are spent), the cancellable proofs,
and the proofs' compile seconds in ``stats["compile_s"]``."""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

import numba
import pytest

from ktsolve import Board, KnightGraph, prove
from ktsolve import jit, registry
from ktsolve.driver import Deadline, Stopped, drive
from ktsolve.plans import prove_plan
from ktsolve.proofs import cut_proofs, matching_proof
from ktsolve.race import split_lanes
from ktsolve.registry import MethodInfo, register_method, reset_methods
from ktsolve.result import SolveResult, Status
from ktsolve.tour import TourSpec

sys.path.insert(0, str(Path(__file__).parents[1] / "benchmarks"))
from frontier_boards import dense_holes  # noqa: E402

needs_two_cores = pytest.mark.skipif(split_lanes(prove_plan(Board(6, 6), TourSpec()), Board(6, 6)) is None,
                                     reason="the race needs two cores")


@pytest.fixture
def restore_methods():
    yield
    reset_methods()


def _as_builtin(monkeypatch, info: MethodInfo) -> None:
    """Register ``info`` in place of a built-in method, as a built-in (it then gets the call's Deadline)."""
    register_method(info, replace=True)
    monkeypatch.setitem(registry.BUILTIN, info.name, info)


def _until_cancelled(time_limit) -> bool:
    """Work in chunks until the clock runs out; whether a race cancelled it."""
    drive(lambda k: (k, False), units=None, deadline=time_limit)
    return time_limit.cancelled()


def _no_threads_left(before) -> bool:
    """No thread runs that did not run before (one that ended meanwhile, such as tqdm's monitor or a
    thread of an earlier test's Dask client, is not one the race left behind)."""
    return not set(threading.enumerate()) - before


def _ending(log: list, name: str):
    """A construction that answers ``unknown`` at once and logs that it ended."""

    def method(graph, spec, *, seed=None, time_limit=None, progress=None):
        log.append(f"{name} ended")
        return SolveResult(Status.UNKNOWN, stats={"reason": f"{name} found nothing"})

    return method


@needs_two_cores
def test_the_second_engine_starts_after_lane_a_and_settles_while_lane_b_is_stopped(monkeypatch, restore_methods):
    real_cpsat = registry.BUILTIN["cpsat"].load()
    log: list = []
    seen: dict = {}
    b_running = threading.Event()

    def cpsat(graph, spec, *, model="circuit", **kw):
        if model == "circuit":  # lane B: searches until the race stops it
            b_running.set()
            seen["B cancelled"] = _until_cancelled(kw["time_limit"])
            return SolveResult(Status.UNKNOWN, stats={"reason": "lane B ran out of time"})
        log.append(f"engine {model} started")
        assert b_running.wait(30)  # answer only once lane B is at work, so that it must be stopped
        return real_cpsat(graph, spec, model=model, **kw)

    _as_builtin(monkeypatch, MethodInfo("cpsat", "exact", "lane B never settles", cpsat, proves=True))
    for name in ("warnsdorff", "backtrack"):
        _as_builtin(monkeypatch, MethodInfo(name, "heuristic", "ends at once", _ending(log, name)))
    before = set(threading.enumerate())
    board = Board(5, 5, [(0, 0)])  # a closed tour exists (30 of them: ../shared/oracles/holed.json)
    res = prove(board, closed=True, time_limit=120, seed=4)
    assert res.status is Status.FOUND and res.stats["lane"] == "A"
    engine = split_lanes(prove_plan(board, TourSpec(closed=True)), board)[0][-1]
    assert res.stats["settled_by"] == engine.title and res.stats["steps"][-1]["step"] == engine.title
    assert log == ["warnsdorff ended", "backtrack ended", f"engine {dict(engine.params)['model']} started"]
    assert seen == {"B cancelled": True}
    b = [s for s in res.stats["steps"] if s["lane"] == "B"]
    assert [(s["step"], s["status"]) for s in b] == [("cpsat", "cancelled")]
    assert _no_threads_left(before)


@needs_two_cores
def test_lane_b_stops_the_second_engine_when_it_wins(monkeypatch, restore_methods):
    real_cpsat = registry.BUILTIN["cpsat"].load()
    engine_running = threading.Event()
    seen: dict = {}

    def cpsat(graph, spec, *, model="circuit", **kw):
        if model == "circuit":  # lane B answers only once the engine is at work
            assert engine_running.wait(30)
            return real_cpsat(graph, spec, model=model, **kw)
        engine_running.set()
        seen["engine cancelled"] = _until_cancelled(kw["time_limit"])
        return SolveResult(Status.UNKNOWN, stats={"reason": "the engine ran out of time"})

    _as_builtin(monkeypatch, MethodInfo("cpsat", "exact", "slow engine", cpsat, proves=True))
    for name in ("warnsdorff", "backtrack"):
        _as_builtin(monkeypatch, MethodInfo(name, "heuristic", "ends at once", _ending([], name)))
    before = set(threading.enumerate())
    res = prove(Board(5, 5, [(0, 0)]), closed=True, time_limit=120, seed=4)
    assert res.status is Status.FOUND and res.stats["settled_by"] == "cpsat" and res.stats["lane"] == "B"
    assert seen == {"engine cancelled": True}
    last_a = [s for s in res.stats["steps"] if s["lane"] == "A"][-1]
    assert last_a["step"].startswith("cpsat (model=") and last_a["status"] == "cancelled"
    assert _no_threads_left(before)


@needs_two_cores
def test_lane_b_waits_for_lane_a_proofs_within_its_head_start(monkeypatch, restore_methods):
    from ktsolve import portfolio, race

    monkeypatch.setattr(race, "HEAD_START", 600.0)  # only the proofs' end can start lane B
    real_cpsat = registry.BUILTIN["cpsat"].load()
    real_proof = portfolio.run_proof
    b_started = threading.Event()
    proofs: list = []

    def proof(name, *args, **kw):
        proofs.append((name, b_started.is_set()))
        return real_proof(name, *args, **kw)

    def cpsat(graph, spec, *, model="circuit", **kw):
        if model == "circuit":
            b_started.set()
        return real_cpsat(graph, spec, model=model, **kw)

    monkeypatch.setattr(portfolio, "run_proof", proof)
    _as_builtin(monkeypatch, MethodInfo("cpsat", "exact", "notes its start", cpsat, proves=True))
    res = prove(Board(5, 5, [(0, 0)]), closed=True, time_limit=120, seed=4)
    assert res.status is Status.FOUND
    assert [name for name, _ in proofs][:2] == ["quick proofs", "matching proof"]
    assert not any(started for _, started in proofs)


@pytest.mark.parametrize("model", ["sat", "cuts"])
def test_a_cancelled_engine_stops_its_solver_at_once(monkeypatch, model):
    """The race's flag, set just as the engine's solver starts, ends it with an honest unknown.

    The board (40 x 40, 20 % holes, open from a fixed start) is one that
    neither engine settles in seconds, and the budget is ten minutes: a
    stop that is lost shows as a run of ten minutes.
    """
    from ktsolve.models import cpsat, cpsat_run, satcuts

    if model == "sat" and not satcuts.have_pysat():
        pytest.skip("python-sat is an optional extra")
    cancel = threading.Event()
    module = satcuts if model == "sat" else cpsat_run  # sat: its first 2-factor from CP-SAT runs unflagged
    real_call = module.call_guarded
    calls = []

    def call_then_cancel(func, **kw):
        calls.append(kw.get("cancel"))
        cancel.set()  # another lane settled the question just as this solve started
        return real_call(func, **kw)

    monkeypatch.setattr(module, "call_guarded", call_then_cancel)
    holes = dense_holes(40, 0.2, 2)
    start = next((r, c) for r in range(40) for c in range(40) if (r, c) not in set(holes))
    t0 = time.perf_counter()
    res = cpsat.solve_cpsat(KnightGraph(Board(40, 40, holes)), TourSpec(closed=False, start=start), model=model,
                            time_limit=Deadline(600, cancel=cancel), seed=1)
    assert res.status is Status.UNKNOWN and not res.stats.get("interrupted")
    assert calls and calls[0] is cancel  # the solver's wait loop watched the race's flag
    assert time.perf_counter() - t0 < 300  # stopped, not run out: a lost stop takes the whole 600 s


def _refuted_by(kind: str):
    """A small board and question that the matching proof (or only the cut proofs) refute."""
    if kind == "matching":
        return KnightGraph(Board(10, 10, dense_holes(10, 0.35, 5))), TourSpec(closed=True)
    return KnightGraph(Board(4, 6, [(0, 2), (3, 0)])), TourSpec(closed=True)  # region colours


@pytest.mark.parametrize("kind", ["matching", "cuts"])
def test_the_long_proofs_give_up_once_the_race_is_cancelled(kind):
    graph, spec = _refuted_by(kind)
    prover = matching_proof if kind == "matching" else cut_proofs
    assert prover(graph, spec, time_limit=30) is not None
    assert prover(graph, spec, time_limit=Deadline(30, cancel=threading.Event())) is not None
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Stopped):  # stopped, never None ("no contradiction")
        prover(graph, spec, time_limit=Deadline(30, cancel=cancel))


@pytest.mark.parametrize("name, kind", [("matching proof", "matching"), ("cut proofs", "cuts")])
def test_a_proof_step_stopped_by_the_race_is_not_taken_as_finished(monkeypatch, name, kind):
    """The step's clock passes its check; the flag is set as the proof starts: no proof, and not finished."""
    from importlib import import_module

    from ktsolve.portfolio import run_proof
    from ktsolve.proofs.registry import proof_step

    graph, spec = _refuted_by(kind)
    module, _, attr = proof_step(name).find.partition(":")
    real = getattr(import_module(module), attr)
    clock = Deadline(30, cancel=threading.Event())
    assert run_proof(name, graph, spec, time_limit=clock)[0] is not None

    def flag_then_prove(*a, **kw):
        clock.cancel.set()  # the other lane answers just as this proof starts
        return real(*a, **kw)

    monkeypatch.setattr(import_module(module), attr, flag_then_prove)
    assert run_proof(name, graph, spec, time_limit=clock) == (None, False)


@pytest.mark.parametrize("race", [False, True])
def test_the_proofs_first_run_compile_is_in_compile_s(monkeypatch, race):
    import ktsolve.proofs._common as common  # the finders warm their kernels through it

    name = f"test proofs compile {race}"  # prepared once per name and process
    kernel = numba.njit(lambda x: x + 7)  # a new kernel, not cached: its first call compiles
    monkeypatch.setattr(common, "warm_kernels", lambda: jit.prepare(name, lambda: (time.sleep(0.3), kernel(1)), [kernel],
                                                            stream=None))
    board = Board(26, 26)  # above proofs.PY_MAX: the proofs warm their kernels
    res = prove(board, closed=True, time_limit=120, seed=1, race=race)
    assert res.status is Status.FOUND
    compiled = [s for s in res.stats["steps"] if s.get("compile_s")]
    assert compiled and compiled[0]["step"] in ("quick proofs", "matching proof", "cut proofs", "2-factor proof")
    assert res.stats["compile_s"] >= 0.3
    assert res.stats["compile_s"] == pytest.approx(sum(s.get("compile_s", 0.0) for s in res.stats["steps"]))


def test_prove_without_the_race_runs_the_plan_as_before():
    board = Board(6, 6, ["a1", "f6"])
    spec = TourSpec(closed=True)
    res = prove(board, closed=True, time_limit=60, seed=2, race=False)
    assert "lane" not in res.stats and all("lane" not in s for s in res.stats["steps"])
    assert all("(model=" not in s["step"] for s in res.stats["steps"])
    plan = [s.name for s in prove_plan(board, spec)]
    tried = [s["step"] for s in res.stats["steps"]]
    assert tried == plan[:len(tried)]


def _oracle_cases():
    from conftest import load_oracle

    return [c for c in load_oracle("holed.json")["cases"] if c["board"][0] * c["board"][1] <= 64]


@pytest.mark.parametrize("case", _oracle_cases(), ids=lambda c: f"{c['board']}-{c['kind']}-{c.get('start')}")
@pytest.mark.parametrize("race", [True, False])
def test_the_race_answers_as_the_oracles_say(case, race):
    board = Board(*case["board"], [tuple(h) for h in case["holes"]])
    start = tuple(case["start"]) if case.get("start") else None
    res = prove(board, closed=case["kind"] == "closed", start=start, time_limit=60, seed=3, race=race)
    assert res.status is (Status.FOUND if case["exists"] else Status.INFEASIBLE)


# ---------------------------------------------------------------------- the sat engine's first round
def test_the_first_round_is_the_linear_time_2_factor_and_fits_the_sat_model():
    from ktsolve.models._cpsat_loops import _factor_two_factor
    from ktsolve.models.satcuts import have_pysat

    holes = dense_holes(12, 0.2, 0)
    start = next((r, c) for r in range(12) for c in range(12) if (r, c) not in set(holes))
    for spec in (TourSpec(closed=True), TourSpec(closed=False, start=start)):
        graph = KnightGraph(Board(12, 12, holes))
        answer, chosen = _factor_two_factor(graph, spec, Deadline(60), 1)
        assert answer is None
        nodes = graph.n + (0 if spec.closed else 1)
        degree = [0] * nodes
        for u, v in chosen:
            degree[u] += 1
            degree[v] += 1
        assert degree == [2] * nodes  # a 2-factor of the question's network, the dummy node included
        edges = {tuple(e) for e in graph.edges().tolist()}
        assert all(v == graph.n or (u, v) in edges for u, v in chosen)
        if have_pysat():
            from ktsolve.models.satcuts import SatLoop

            loop = SatLoop(graph, spec)
            try:
                assert set(chosen) <= set(loop.var)
                phases = [x if (e in chosen) else -x for e, x in loop.var.items()]
                assert loop.solve_round(Deadline(60), assumptions=phases) == (True, False)  # a model at once
            finally:
                loop.close()


def test_the_first_round_refutes_with_the_checkable_2_factor_witness():
    from ktsolve.factor import check_two_factor_witness, two_factor, witness_proof
    from ktsolve.models._cpsat_loops import _factor_two_factor

    board = Board(5, 5, holes=[(1, 2), (2, 1), (2, 3), (3, 2)])  # its open network has no 2-factor
    spec = TourSpec(closed=False)
    answer, chosen = _factor_two_factor(KnightGraph(board), spec, Deadline(60), 1)
    assert chosen is None and answer.status is Status.INFEASIBLE and answer.proof.argument == "2-factor"
    witness = two_factor(board, closed=False).witness
    assert check_two_factor_witness(board, spec, witness) is None
    assert str(answer.proof) == str(witness_proof(board, spec, witness))


@pytest.mark.parametrize("case", _oracle_cases(), ids=lambda c: f"{c['board']}-{c['kind']}-{c.get('start')}")
def test_the_sat_engine_answers_as_the_oracles_say(case):
    from ktsolve.models.cpsat import solve_cpsat
    from ktsolve.models.satcuts import have_pysat

    if not have_pysat():
        pytest.skip("python-sat is an optional extra")
    board = Board(*case["board"], [tuple(h) for h in case["holes"]])
    start = tuple(case["start"]) if case.get("start") else None
    spec = TourSpec(closed=case["kind"] == "closed", start=start)
    res = solve_cpsat(KnightGraph(board), spec, model="sat", time_limit=60, seed=3)
    assert res.status is (Status.FOUND if case["exists"] else Status.INFEASIBLE)


def test_large_boards_get_the_2_factor_proof_before_the_cut_proofs():
    from ktsolve.plans import TWO_FACTOR_BEFORE_CUTS, auto_plan

    for n, first in ((12, "cut proofs"), (60, "2-factor proof")):
        board = Board(n, n, dense_holes(n, 0.25, 0))
        assert (board.n_squares > TWO_FACTOR_BEFORE_CUTS) is (n == 60)
        for plan in (prove_plan(board, TourSpec(closed=True)), auto_plan(board, TourSpec(closed=True))):
            names = [s.name for s in plan]
            pair = sorted(("cut proofs", "2-factor proof"), key=names.index)
            assert pair[0] == first and names.index("matching proof") < names.index(first)
