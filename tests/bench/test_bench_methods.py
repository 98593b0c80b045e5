"""The bench harness for any method: built-in, registered or a callable, against prove's answers."""

from __future__ import annotations

import json
import textwrap
import time

import pytest

from ktsolve import MethodInfo, SolveResult, Status, register_method, solve
from ktsolve.bench.methods import bench_methods, check_plotting
from ktsolve.errors import InvalidParameterError, UnsupportedError
from ktsolve.registry import reset_methods
from ktsolve.testing import clear_cache

from conftest import invoke


@pytest.fixture(autouse=True)
def clean():
    reset_methods()
    clear_cache()
    yield
    reset_methods()


def exhaustive(graph, spec, *, seed=None, time_limit=None, progress=None):
    """A deterministic user's method that reports attempts: ktsolve's backtracking, 4 attempts per tour."""
    res = solve(graph.board, "backtrack", closed=spec.closed, start=spec.start, end=spec.end, presolve_proofs=False)
    if res.tour is None:
        return SolveResult(Status.UNKNOWN, stats={"attempts": 4, "tours": 0})
    return SolveResult(Status.FOUND, tour=res.tour.squares, stats={"attempts": 4, "tours": 1})


def liar(graph, spec, *, seed=None, time_limit=None, progress=None):
    """Says no tour exists, always (registered as a method that proves: a bug the bench must flag)."""
    from ktsolve import Proof

    return SolveResult(Status.INFEASIBLE, proof=Proof("I say so", argument="mine"))


def sloppy(graph, spec, *, seed=None, time_limit=None, progress=None):
    """Returns the squares in row order: never a knight's tour."""
    return list(range(graph.n))


def test_runs_every_method_on_every_board_and_seed():
    rep = bench_methods(["warnsdorff", exhaustive], ["5x5", "3x4", "4x4"], seeds=3, seed=7)
    assert len(rep.runs) == 2 * 3 * 3
    by = {(g["method"], g["board"]): g for g in rep.summary()}
    assert by[("warnsdorff", "5x5")]["tour_exists"] == 3 and by[("warnsdorff", "4x4")]["tour_exists"] == 0
    assert by[("exhaustive", "3x4")]["success_rate"] == 1.0
    assert by[("exhaustive", "4x4")]["success_rate"] is None and by[("exhaustive", "4x4")]["refuted"] == 3
    # the same seeds for every method: a paired comparison
    seeds = {m: [r.seed for r in rep.runs if r.method == m] for m in ("warnsdorff", "exhaustive")}
    assert seeds["warnsdorff"] == seeds["exhaustive"] and len(set(seeds["warnsdorff"])) == 3
    assert rep.bugs == 0


def test_tours_per_attempt_and_time_to_first_tour():
    def slow(graph, spec, *, seed=None, time_limit=None, progress=None):
        time.sleep(0.03)
        return exhaustive(graph, spec)

    rep = bench_methods([slow, exhaustive], ["3x4"], seeds=2)
    by = {g["method"]: g for g in rep.summary()}
    assert by["exhaustive"]["tours_per_attempt"] == 0.25
    assert by["slow"]["median_s_to_first"] >= 0.03
    assert by["exhaustive"]["median_s_to_first"] < by["slow"]["median_s_to_first"]
    # methods that report no attempts have no rate
    rep = bench_methods(["backtrack"], ["3x4"], seeds=1)
    assert rep.summary()[0]["tours_per_attempt"] is None


def test_a_method_that_contradicts_prove_is_flagged():
    register_method(MethodInfo("liar", "exact", "always says no", liar, proves=True, seeded=False))
    rep = bench_methods(["liar"], ["5x5", "4x4"], seeds=2)
    by = {g["board"]: g for g in rep.summary()}
    assert by["5x5"]["bugs"] == 2 and by["4x4"]["bugs"] == 0
    assert rep.bugs == 2
    notes = "\n".join(rep.table().notes)
    assert "BUG: liar on 5x5 #1 (open, seed" in notes and "but prove found one" in notes


def test_invalid_tours_are_counted_not_found():
    rep = bench_methods([sloppy], ["5x5"], seeds=2)
    g = rep.summary()[0]
    assert g["found"] == 0 and g["invalid"] == 2 and g["success_rate"] == 0.0
    assert rep.bugs == 2
    assert "illegal move at step 2" in rep.runs[0].invalid


def test_holed_boards_are_drawn_once_for_every_method():
    rep = bench_methods(["warnsdorff", "rotation"], ["8x8"], holes=2, draws=2, seeds=2, seed=3)
    assert rep.settings["draws"] == 2 and len(rep.runs) == 2 * 2 * 2
    assert rep.summary()[0]["board"] == "8x8 - 2 holes"
    again = bench_methods(["warnsdorff"], ["8x8"], holes=2, draws=2, seeds=2, seed=3)
    assert [r.status for r in again.runs] == [r.status for r in rep.runs if r.method == "warnsdorff"]
    assert [r.board_index for r in rep.runs[:4]] == [0, 0, 1, 1]


def test_questions_a_method_cannot_answer_are_skipped_with_a_note():
    rep = bench_methods(["neural", "warnsdorff"], ["6x6"], tours=("open", "closed"), seeds=1, time_limit=2)
    assert ("neural", "6x6", "open") not in rep.groups and ("neural", "6x6", "closed") in rep.groups
    assert any("skipped neural on 6x6 (open)" in n for n in rep.table().notes)


def test_progress_counts_proofs_and_runs():
    seen = []
    bench_methods(["warnsdorff"], ["5x5", "3x4"], tours=("open", "closed"), seeds=2,
                  progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (4 + 8, 12) and [d for d, _ in seen] == list(range(1, 13))


def test_an_interrupted_run_ends_the_bench():
    def interrupted(graph, spec, *, seed=None, time_limit=None, progress=None):
        return SolveResult(Status.UNKNOWN, stats={"interrupted": True, "reason": "interrupted"})

    rep = bench_methods([interrupted], ["5x5"], seeds=5)
    assert rep.interrupted and len(rep.runs) == 1
    assert "interrupted" in rep.table().notes[-1]


def test_bad_arguments():
    with pytest.raises(InvalidParameterError, match="at least one method"):
        bench_methods([], ["5x5"])
    with pytest.raises(InvalidParameterError, match="tours must be among"):
        bench_methods(["aco"], ["5x5"], tours=("both",))
    with pytest.raises(InvalidParameterError, match="seeds"):
        bench_methods(["aco"], ["5x5"], seeds=0)
    with pytest.raises(UnsupportedError, match="unknown method"):
        bench_methods(["nope"], ["5x5"])


def test_plots_need_matplotlib(monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "matplotlib" else real(name, *a))
    with pytest.raises(UnsupportedError, match="pip install 'ktsolve\\[plot\\]'"):
        check_plotting()
    res = invoke(["bench", "methods", "-m", "warnsdorff", "--boards", "5x5", "--plots", "out"], code=2)
    assert res.stderr.startswith("ktsolve: error: plots need matplotlib") and res.stdout == ""


def test_plots_are_written(tmp_path):
    pytest.importorskip("matplotlib")
    rep = bench_methods(["warnsdorff", exhaustive], ["5x5", "3x4"], seeds=2)
    paths = rep.plot(tmp_path / "figs")
    assert paths and (tmp_path / "figs" / "bench_methods.png").stat().st_size > 1000


# ---------------------------------------------------------------------- command line
def test_command_line_table():
    res = invoke(["bench", "methods", "-m", "warnsdorff", "-m", "backtrack", "--boards", "5x5,4x4", "--seeds", "2"])
    lines = res.stdout.splitlines()
    assert lines[0] == "Methods against prove's answers"
    assert lines[1].split()[:4] == ["method", "board", "tour", "runs"]
    rows = [line.split() for line in lines[3:7]]
    assert [r[:2] for r in rows] == [["warnsdorff", "5x5"], ["backtrack", "5x5"], ["warnsdorff", "4x4"],
                                     ["backtrack", "4x4"]]
    assert rows[0][6] == "100%" and rows[2][6] == "-"
    assert "8 runs, 0 disagreeing" in res.stderr
    assert "\r" not in res.stderr  # no progress bar when not on a terminal


def test_command_line_json_and_holes():
    res = invoke(["bench", "methods", "-m", "warnsdorff", "--boards", "8x8", "--holes", "2", "--draws", "2",
                  "--seeds", "2", "--tour", "both", "--format", "json"])
    out = json.loads(res.stdout)
    assert out["settings"]["holes"] == 2 and out["settings"]["tours"] == ["open", "closed"]
    assert len(out["runs"]) == 2 * 2 * 2 and {r["tour"] for r in out["runs"]} == {"open", "closed"}
    assert out["bugs"] == 0 and out["summary"][0]["board"] == "8x8 - 2 holes"


def test_command_line_flags_bugs_with_exit_1(tmp_path):
    plugin = tmp_path / "my_methods.py"
    plugin.write_text(textwrap.dedent("""
        import ktsolve

        def sloppy(graph, spec, *, seed=None, time_limit=None, progress=None):
            return list(range(graph.n))

        ktsolve.register_method(ktsolve.MethodInfo("sloppy", "heuristic", "row order", sloppy))
    """))
    res = invoke(["bench", "methods", "--import", str(plugin), "-m", "sloppy", "--boards", "5x5", "--seeds", "2"],
                 code=1)
    assert "2 runs, 2 disagreeing" in res.stderr
    row = res.stdout.splitlines()[3].split()
    assert row[0] == "sloppy" and row[-2:] == ["2", "0"]


@pytest.mark.parametrize(
    "args, message",
    [
        (["-m", "nope"], "'nope' is not one of"),
        ([], "Missing option '--method'"),
        (["-m", "aco", "--holes", "many"], "neither a number of holes"),
        (["-m", "aco", "--boards", "4x4", "--holes", "2"], "too small for random holes"),
        (["-m", "aco", "--boards", "9q9"], "9q9"),
        (["--import", "no_such_module_here", "-m", "aco"], "cannot import 'no_such_module_here'"),
        (["--import", "missing/file.py", "-m", "aco"], "no such file 'missing/file.py'"),
    ],
)
def test_command_line_bad_input_is_one_line(args, message):
    res = invoke(["bench", "methods", *args], code=2)
    assert message in res.stderr and len(res.stderr.strip().splitlines()) == 1 and res.stdout == ""


def test_command_line_all_runs_every_method_that_can_answer():
    register_method(MethodInfo("rowwise", "heuristic", "row order", sloppy, closed=False))
    res = invoke(["bench", "methods", "-m", "all", "--boards", "3x4", "--tour", "closed", "--seeds", "1",
                  "--time-limit", "1"], code=0)
    assert "skipped rowwise on 3x4 (closed)" in res.stdout
    assert "skipped abc on 3x4 (closed)" in res.stdout


def test_questions_prove_cannot_settle_are_left_out_of_the_rate():
    rep = bench_methods([exhaustive], ["6x6"], seeds=2, prove_time_limit=1e-9)
    g = rep.summary()[0]
    assert g["unsettled"] == 2 and g["tour_exists"] == 0 and g["success_rate"] is None and g["found"] == 2
    assert any("2 runs on questions prove did not settle" in n for n in rep.table().notes)


# ---------------------------------------------------------------------- issue 20: reproducible boards, user errors
def test_a_size_gets_the_same_holed_boards_whatever_the_other_sizes():
    """A board's draw depends on (seed, size, draw) only: listing 5x5 before 6x6 changes nothing of 6x6."""
    alone = bench_methods(["warnsdorff"], ["6x6"], holes=2, draws=3, seeds=1, seed=4)
    both = bench_methods(["warnsdorff"], ["5x5", "6x6"], holes=2, draws=3, seeds=1, seed=4)
    six = [b for b in both.to_dict()["boards"] if b["board"].startswith("6x6")]
    assert six == alone.to_dict()["boards"] and len(six) == 3
    assert [(r.status, r.invalid) for r in both.runs if r.board.startswith("6x6")] == \
           [(r.status, r.invalid) for r in alone.runs]


def test_reports_name_the_holes_of_every_board():
    rep = bench_methods(["warnsdorff"], ["6x6"], holes=2, draws=2, seeds=1, seed=4)
    boards = rep.to_dict()["boards"]
    assert [b["draw"] for b in boards] == [1, 2] and all(len(b["holes"]) == 2 for b in boards)
    assert all(r["holes"] in [b["holes"] for b in boards] for r in rep.to_dict()["runs"])
    notes = "\n".join(rep.table().notes)
    from ktsolve import Board

    for b in boards:
        names = ", ".join(Board(6, 6).name(r, c) for r, c in b["holes"])
        assert f"6x6 - 2 holes #{b['draw']}: holes {names}" in notes


def boom(graph, spec, *, seed=None, time_limit=None, progress=None):
    raise RuntimeError("kaboom " + "x" * 500)


def floats(graph, spec, *, seed=None, time_limit=None, progress=None):
    return [0.5 * i for i in range(graph.n)]


def quits(graph, spec, *, seed=None, time_limit=None, progress=None):
    import sys

    sys.exit(3)


@pytest.mark.parametrize("func, message", [(boom, "RuntimeError: kaboom"), (floats, "returned list"),
                                           (quits, "SystemExit: 3")])
def test_a_user_method_that_fails_is_a_recorded_run(func, message):
    register_method(MethodInfo("bad", "heuristic", "fails", func))
    rep = bench_methods(["bad", "warnsdorff"], ["5x5"], seeds=2)
    bad = [r for r in rep.runs if r.method == "bad"]
    assert len(bad) == 2 and all(r.status == "unknown" and message in r.error and len(r.error) <= 300 for r in bad)
    assert len([r for r in rep.runs if r.method == "warnsdorff"]) == 2 and rep.bugs == 2
    assert rep.summary()[0]["errors"] == 2
    assert any(message in n and "bad" in n for n in rep.table().notes)


@pytest.mark.parametrize("func", [5, "nosuchmodule", "a:b:c", "", None, "os:", ":path"])
def test_register_method_refuses_what_is_neither_callable_nor_a_path(func):
    with pytest.raises(InvalidParameterError, match="func of method 'odd' must be a callable or a 'module:function'"):
        register_method(MethodInfo("odd", "heuristic", "odd", func))


def test_a_path_that_cannot_be_imported_names_the_method():
    register_method(MethodInfo("ghost", "heuristic", "missing", "nosuchmodule_hc:func"))
    with pytest.raises(UnsupportedError, match="method 'ghost': cannot import 'nosuchmodule_hc:func'"):
        bench_methods(["ghost"], ["5x5"], seeds=1)
    register_method(MethodInfo("ghost2", "heuristic", "missing", "os:no_such_function_hc"))
    with pytest.raises(UnsupportedError, match="method 'ghost2': .*no_such_function_hc"):
        bench_methods(["ghost2"], ["5x5"], seeds=1)


@pytest.mark.parametrize("body, code, message", [
    ("def f(graph, spec, **kw):\n    raise ValueError('nope')\nreg(f)", 1, "ValueError: nope"),
    ("def f(graph, spec, **kw):\n    return [1.5, 2.5]\nreg(f)", 1, "returned list"),
    ("reg('nosuchmodule_hc:func')", 2, "method 'mine': cannot import 'nosuchmodule_hc:func'"),
    ("reg(5)", 2, "func of method 'mine' must be a callable"),
])
def test_command_line_user_method_failures(tmp_path, body, code, message):
    plugin = tmp_path / "plug_hc.py"
    plugin.write_text("import ktsolve\n"
                      "def reg(f):\n"
                      "    ktsolve.register_method(ktsolve.MethodInfo('mine', 'heuristic', 'x', f))\n" + body + "\n")
    res = invoke(["bench", "methods", "--import", str(plugin), "-m", "mine", "--boards", "5x5", "--seeds", "1"],
                 code=code)
    assert "Traceback" not in res.stderr and message in (res.stdout + res.stderr)
    if code == 2:
        assert len(res.stderr.strip().splitlines()) == 1
