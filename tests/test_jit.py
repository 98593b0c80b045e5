"""The first-run compile: seen coming, said once on a terminal, timed, kept out of the budget, done ahead of time."""

from __future__ import annotations

import importlib
import re
import io
import json
import os
import subprocess
import sys
import time

import numba
import pytest
from conftest import invoke

from ktsolve import Board, KnightGraph, MethodInfo, solve
from ktsolve import jit
from ktsolve.driver import Deadline
from ktsolve.registry import method_info, register_method, reset_methods
from ktsolve.tour import TourSpec


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_a_fresh_kernel_needs_compiling_and_then_does_not():
    kern = numba.njit(lambda x: x * 3)
    assert jit.needs_compile([kern])
    kern(1)
    assert not jit.needs_compile([kern])


def test_the_note_is_said_once_on_a_terminal_and_never_when_piped():
    tty, pipe = Terminal(), io.StringIO()
    a, b = numba.njit(lambda x: x + 5), numba.njit(lambda x: x + 6)
    assert jit.prepare("test a", lambda: a(1), [a], stream=tty) > 0
    assert jit.prepare("test a", lambda: a(1), [a], stream=tty) == 0.0  # once per process
    assert tty.getvalue() == jit.compile_note("test a") + "\n"
    assert jit.prepare("test b", lambda: b(1), [b], stream=pipe) > 0
    assert pipe.getvalue() == ""


def test_nothing_is_said_or_charged_for_ready_kernels():
    kern = numba.njit(lambda x: x - 1)
    kern(1)
    tty = Terminal()
    assert jit.prepare("test ready", lambda: kern(2), [kern], stream=tty) == 0.0
    assert tty.getvalue() == "" and jit.take_compile_seconds() >= 0.0


def test_compile_time_is_reported_and_not_charged_to_the_time_limit():
    kern = numba.njit(lambda x: x + 100)  # not cached: the first call compiles

    def compiling(graph, spec, *, seed=None, time_limit=None, progress=None):
        deadline = Deadline(time_limit)
        deadline.extend(jit.prepare("test slow kernel", lambda: (time.sleep(0.3), kern(1)), [kern], stream=None))
        assert not deadline.expired(), "the compile ate the method's time limit"
        return None

    register_method(MethodInfo("compiling", "heuristic", "a test double", compiling))
    try:
        res = solve("5x5", "compiling", seed=1, time_limit=0.2, presolve_proofs=False)
    finally:
        reset_methods()
    assert res.stats["compile_s"] >= 0.3
    assert res.stats["steps"][0]["compile_s"] == res.stats["compile_s"]


# the methods whose kernels :func:`warm` prepares, and a question that runs them
WARMED = {
    "warnsdorff": ("10x40", {"closed": True}),
    "rotation": ("12x12", {"closed": True}),
    "neural": ("6x6", {"closed": True, "repair": True}),
    "backtrack": ("5x5", {"start": "a1"}),
    "divide": ("13x15", {"start": "a1"}),
}


@pytest.mark.parametrize("name", list(WARMED))
def test_warm_compiles_the_types_the_method_uses(name):
    """After warm(), a real run finds every kernel compiled for its arguments: no new signature."""
    func = method_info(name).load()
    module = sys.modules[func.__module__]
    module.warm()
    kernel_modules = [module] + [importlib.import_module(m) for m in (
        "ktsolve.heuristics._warnsdorff_kernels", "ktsolve.heuristics._neural_kernels",
        "ktsolve.heuristics._divide_kernels", "ktsolve.heuristics._rotation_kernels",
        "ktsolve.models._backtrack_kernels")]

    def signatures():
        out = {}
        for mod in kernel_modules:
            for key, obj in vars(mod).items():
                if isinstance(obj, numba.core.registry.CPUDispatcher) and obj.signatures:
                    out[(mod.__name__, key)] = len(obj.signatures)
        return out

    before = signatures()
    board, kw = WARMED[name]
    kw = dict(kw)
    closed = kw.pop("closed", False)
    start = kw.pop("start", None)
    res = solve(board, name, closed=closed, start=start, seed=3, **kw)
    assert res.status.value == "found"
    after = signatures()
    grown = {k: (before.get(k, 0), v) for k, v in after.items() if v > before.get(k, 0) and k in before}
    assert not grown, f"kernels compiled again for other argument types: {grown}"


def _every_kernel_signature() -> dict:
    """(module, name) -> number of compiled signatures, for every numba kernel in every ktsolve module loaded."""
    out = {}
    for mod_name, mod in list(sys.modules.items()):
        if mod is None or not (mod_name == "ktsolve" or mod_name.startswith("ktsolve.")):
            continue
        for key, obj in list(vars(mod).items()):
            if isinstance(obj, numba.core.registry.CPUDispatcher) and getattr(obj, "__module__", "") == mod_name:
                out[(mod_name, key)] = len(obj.signatures)
    return out


def _small_question(info):
    """A small question every method accepts: 6x6 (closed for methods that cannot do open tours)."""
    return "6x6", {"closed": not info.open, "start": (0, 0) if info.start else None}


# runs with the parameters that call more kernels than the default: warm() prepares them too
EXTRA_RUNS = [("aco", {"local_search": "rotation"}), ("iaco", {"local_search": "rotation", "seed_with": "warnsdorff"}),
              ("abc", {"local_search": "rotation", "seed_with": "warnsdorff"}), ("aco", {"seed_with": "warnsdorff"})]


@pytest.mark.parametrize("name, params", [(n, {}) for n in __import__("ktsolve.registry", fromlist=["methods"])
                                          .methods()] + EXTRA_RUNS)
def test_after_warm_a_run_of_any_method_compiles_nothing(name, params):
    """Every registered method's warm() reaches every kernel a run calls: the run adds no compiled signature.

    Kernels are counted in every ktsolve module loaded after the run (a
    kernel the run compiled for the first time counts too), so a method
    whose warm() misses a kernel, a literal or a dtype fails here rather
    than on a user's first run.
    """
    info = method_info(name)
    func = info.load()
    state = jit.warm_method(func)[0]
    assert state in ("compiled", "loaded", "no kernels"), f"{name}: warm_method says {state!r}"
    before = _every_kernel_signature()
    board, kw = _small_question(info)
    res = solve(board, name, seed=3, time_limit=1, presolve_proofs=False, **kw, **params)
    assert res.status.value in ("found", "unknown")
    after = _every_kernel_signature()
    grown = {k: (before.get(k, 0), v) for k, v in after.items() if v > before.get(k, 0)}
    assert not grown, f"{name}: kernels compiled during the run, after warm(): {grown}"


def test_warm_command_lists_every_method_it_is_given():
    shared = [label for label, _ in jit.SHARED]
    res = invoke(["warm", "backtrack", "cpsat"])
    lines = res.stdout.splitlines()[len(shared):]  # the kernels every run may reach come first
    assert lines[0].startswith("backtrack: ") and lines[1] == "cpsat: ready (it runs no numba kernel)"
    lines = invoke(["warm"]).stdout.splitlines()  # the shared kernels, then every method: one line each
    from ktsolve.registry import methods

    assert [line.partition(": ")[0] for line in lines] == shared + list(methods())
    lines = lines[len(shared):]
    forms = ("compiled in ", "ready (loaded from numba's cache", "ready (it runs no numba kernel)")
    assert all(line.partition(": ")[2].startswith(forms) for line in lines)
    said = dict(line.split(": ", 1) for line in lines)
    for name in methods():  # every method with kernels is warmed; none "cannot be warmed" (issue 20)
        assert said[name].startswith(forms[:2]) or name in ("cpsat", "csp"), (name, said[name])
    assert not any(("no kernels to compile" in v or "cannot be warmed" in v) for v in said.values())
    bad = invoke(["warm", "nonsense"], 2)
    assert "no method 'nonsense'" in bad.stderr


@pytest.mark.slow
def test_cold_cache_same_answer_compile_reported(tmp_path):
    """An empty numba cache: the compile is reported and the 1 s budget still finds the tour (issue 14)."""
    code = (
        "import json; from ktsolve import solve\n"
        "a = solve('8x8', 'neural', closed=True, seed=11, time_limit=1)\n"
        "b = solve('8x8', 'neural', closed=True, seed=11, time_limit=1)\n"
        "print(json.dumps([a.status.value, a.stats.get('compile_s', 0), b.stats.get('compile_s', 0),"
        " a.tour == b.tour]))\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    status, first, second, same = json.loads(out.stdout)
    assert status == "found" and first > 0 and second == 0 and same


@pytest.mark.slow
def test_the_note_reaches_a_terminal_but_not_a_pipe(tmp_path):
    """``ktsolve warm divide`` with an empty cache: the note on a pseudo-terminal, nothing when piped."""
    import pty

    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "tty"))
    cmd = [sys.executable, "-c", "from ktsolve.cli import main; main()", "warm", "divide"]
    leader, follower = pty.openpty()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=follower)
    os.close(follower)
    proc.wait(timeout=120)
    seen = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    os.close(leader)
    assert jit.compile_note("divide").encode() in seen
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "pipe"))
    piped = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
    assert piped.stderr == "" and piped.stdout.startswith("divide: compiled in ")


def test_graph_build_is_deadline_aware_in_methods():
    """A method given almost no time on a big board answers unknown at once, naming the phase."""
    graph = KnightGraph(Board(1500, 1500, holes=[(0, 0)]))
    from ktsolve.heuristics.warnsdorff import solve_warnsdorff

    t0 = time.perf_counter()
    res = solve_warnsdorff(graph, TourSpec(), seed=1, time_limit=0.01)
    assert res.status.value == "unknown" and "building the knight graph" in res.stats["reason"]
    assert time.perf_counter() - t0 < 5.0  # at once, not after building 2 million squares


def test_a_time_limit_on_a_first_run_says_compiling_took_the_rest():
    """The reason of an unknown that compiled says how long compiling took, and how to do it ahead."""
    kern = numba.njit(lambda x: x + 200)  # not cached: the first call compiles

    def compiling(graph, spec, *, seed=None, time_limit=None, progress=None):
        deadline = Deadline(time_limit)
        deadline.extend(jit.prepare("test first run", lambda: (time.sleep(0.2), kern(1)), [kern], stream=None))
        from ktsolve import SolveResult, Status

        return SolveResult(Status.UNKNOWN, stats={"reason": f"the time limit of {time_limit:g} s ran out"})

    register_method(MethodInfo("compiling2", "heuristic", "a test double", compiling))
    try:
        res = solve("5x5", "compiling2", seed=1, time_limit=0.1, presolve_proofs=False)
    finally:
        reset_methods()
    reason = res.stats["reason"]
    assert reason.startswith("the time limit of ") and "compiling the numba kernels took" in reason
    assert "ktsolve warm" in reason and res.stats["compile_s"] >= 0.2


def test_after_warm_the_proofs_of_a_large_board_compile_nothing():
    """The proofs run numba kernels above PY_MAX squares, before any method: 'ktsolve warm' compiles them too."""
    for _, path in jit.SHARED:  # what 'ktsolve warm' prepares before the methods, the proofs first
        jit.warm_shared(path)
    jit.warm_method(method_info("rotation").load())
    before = _every_kernel_signature()
    res = solve("26x26", "rotation", seed=3, time_limit=5, race=False)  # in turn: the proofs run whatever happens
    assert [s["step"] for s in res.stats["steps"]][:2] == ["quick proofs", "matching proof"]
    after = _every_kernel_signature()
    grown = {k: (before.get(k, 0), v) for k, v in after.items() if v > before.get(k, 0)}
    assert not grown, f"the proofs compiled during the run, after warm(): {grown}"


def test_the_proofs_kernels_compile_one_signature_each():
    """The matching proof's network arrays are read-only like the graph's: one compile per kernel, not two."""
    from ktsolve.proofs import _kernels
    from ktsolve.proofs import warm as warm_proofs

    warm_proofs()
    assert {k.__name__: len(k.signatures) for k in jit.kernels_of(_kernels)} == {
        "lowpoint_dfs": 1, "blocks": 1, "component_labels": 1, "hopcroft_karp": 1, "alternating_scc": 1,
        "csr_copy_rows": 1, "csr_sort_rows": 1, "csr_twins": 1, "drop_lost_pairs": 1, "off_matchings": 1,
        "matching_from_factor": 1, "closed_components": 1, "other_side_levels": 1}


def test_one_compile_figure_in_the_reason_the_stats_and_the_summary(monkeypatch):
    """The reason of an unknown, stats["compile_s"] and the stderr summary name the same seconds (issue 31).

    The compile of a plan's proofs counts with the method's: the reason said only the method's (6.8 s where
    stats["compile_s"] was 21.154).
    """
    import click
    from click.testing import CliRunner

    import ktsolve.proofs
    from ktsolve.cli.answers import report

    kern_a, kern_b = numba.njit(lambda x: x + 301), numba.njit(lambda x: x + 302)
    import ktsolve.proofs._common

    real = ktsolve.proofs._common.warm_kernels  # what a finder calls at its entry
    monkeypatch.setattr(ktsolve.proofs._common, "warm_kernels", lambda: real() + jit.prepare(
        "test figure a", lambda: (time.sleep(0.2), kern_a(1)), [kern_a], stream=None))

    def compiling(graph, spec, *, seed=None, time_limit=None, progress=None):
        deadline = Deadline.of(time_limit)
        deadline.extend(jit.prepare("test figure b", lambda: (time.sleep(0.15), kern_b(1)), [kern_b],
                                    stream=None))
        from ktsolve import SolveResult, Status

        return SolveResult(Status.UNKNOWN, stats={"reason": "the time limit ran out"})

    register_method(MethodInfo("figure", "heuristic", "a test double", compiling))
    try:
        res = solve("26x26", "figure", seed=1, time_limit=30, race=False)  # one after the other: the seconds add
    finally:
        reset_methods()
    total = res.stats["compile_s"]
    assert total >= 0.35, res.stats  # the proofs' 0.2 s and the method's 0.15 s
    said = re.findall(r"compiling the numba kernels took ([\d.]+) s", res.stats["reason"])
    assert said == [f"{total:.3g}"], res.stats["reason"]
    out = CliRunner().invoke(click.command()(lambda: report(res)))
    assert f"{total:.3g} s of it compiling numba kernels" in out.stderr


def test_the_summary_says_nothing_of_compiling_when_nothing_compiled():
    from click.testing import CliRunner
    import click

    from ktsolve.cli.answers import report

    res = solve("5x5", "warnsdorff", seed=1)
    out = CliRunner().invoke(click.command()(lambda: report(res)))
    assert "compiling" not in out.stderr


def test_two_lanes_compiling_at_once_count_once():
    """A race's lanes compile at once: the call's figure is the wall time, never more than the call took."""
    import threading

    kerns = [numba.njit(lambda x: x + 401), numba.njit(lambda x: x + 402)]
    t0 = time.perf_counter()
    lanes = [threading.Thread(target=lambda k=k, i=i: jit.prepare(
        f"test lane {i}", lambda: (time.sleep(0.4), k(1)), [k], stream=None)) for i, k in enumerate(kerns)]
    for lane in lanes:
        lane.start()
    for lane in lanes:
        lane.join()
    elapsed = time.perf_counter() - t0
    summed = {"compile_s": 0.8, "reason": "the time limit ran out"}
    settled = jit.settle_compile(summed, elapsed)
    assert 0.4 <= settled["compile_s"] <= round(elapsed, 3) + 0.001 and elapsed < 0.8 + 0.5  # compile_s is rounded to ms
    assert f"took {settled['compile_s']:.3g} s" in settled["reason"]
