"""A user's method through the front door: solve(method=callable) and register_method, as a researcher uses them."""

from __future__ import annotations

import json
import sys
import time
import textwrap

import numpy as np
import pytest

import ktsolve
from ktsolve import (
    Board,
    InvalidParameterError,
    MethodInfo,
    SolveResult,
    Status,
    Tour,
    UnsupportedError,
    methods,
    register_method,
    solve,
    unregister_method,
    validate,
)
from ktsolve.registry import method_info, reset_methods
from ktsolve.testing import assert_agrees

from conftest import invoke

# An open tour of the 3x4 board as square numbers (row-major, no holes).
TOUR34 = [0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4]


@pytest.fixture(autouse=True)
def clean_registry():
    reset_methods()
    yield
    reset_methods()


class Recorder:
    """A user's method that records how it was called and returns what it is told to."""

    def __init__(self, answer=None, sleep=0.0):
        self.answer = answer
        self.sleep = sleep
        self.calls = []

    def __call__(self, graph, spec, *, seed=None, time_limit=None, progress=None, **params):
        self.calls.append({"board": graph.board, "spec": spec, "seed": seed, "time_limit": time_limit,
                           "progress": progress, "params": params})
        if self.sleep:
            time.sleep(self.sleep)
        if progress is not None:
            progress(1, 1)
        answer = self.answer
        return answer(graph, spec, seed) if callable(answer) else answer


def first_tour(graph, spec, seed):
    """A deterministic method: ktsolve's exhaustive search, handed back as square numbers."""
    res = solve(graph.board, "backtrack", closed=spec.closed, start=spec.start, end=spec.end, presolve_proofs=False)
    return None if res.tour is None else res.tour.squares.tolist()


# ---------------------------------------------------------------------- presolve
@pytest.mark.parametrize(
    "board, kw, settled",
    [
        (Board(4, 4), {"closed": True}, "matching proof"),
        (Board(5, 5), {"closed": True}, "quick proofs"),
        (Board(3, 3), {}, "quick proofs"),  # the centre has no neighbour
        (Board(6, 6, holes=[(0, 1), (1, 0)]), {"closed": True}, "quick proofs"),
    ],
)
def test_a_user_method_never_runs_on_a_board_already_proved_impossible(board, kw, settled):
    method = Recorder(answer=first_tour)
    res = solve(board, method=method, **kw)
    assert method.calls == []
    assert res.status is Status.INFEASIBLE and res.method == "proofs" and res.proof
    assert res.stats["requested"] == "user_method"  # a callable object has no __name__
    assert res.stats["settled_by"] == settled
    register_method(MethodInfo("recorded", "heuristic", "records", method))
    res = solve(board, "recorded", **kw)
    assert method.calls == [] and res.method == "proofs" and res.stats["requested"] == "recorded"


def test_presolve_can_be_switched_off():
    method = Recorder(answer=None)
    res = solve("4x4", method=method, closed=True, presolve_proofs=False)
    assert len(method.calls) == 1 and res.status is Status.UNKNOWN


def test_a_user_method_gets_the_same_steps_in_its_stats_as_a_registered_one():
    def walk(graph, spec, *, seed=None, time_limit=None, progress=None):
        return first_tour(graph, spec, seed)

    direct = solve("3x4", method=walk, seed=1)
    register_method(MethodInfo("walk", "heuristic", "a walk", walk))
    named = solve("3x4", "walk", seed=1)
    for res in (direct, named):
        assert res.found and res.method == "walk"
        assert [s["step"] for s in res.stats["steps"]] == ["quick proofs", "matching proof", "2-factor proof", "walk"]
        assert res.stats["settled_by"] == "walk"
    assert direct.tour == named.tour


# ---------------------------------------------------------------------- validation
def _bad_tours():
    b = Board(3, 4)
    swapped = TOUR34[:8] + [TOUR34[9], TOUR34[8]] + TOUR34[10:]
    return [
        ("illegal move", swapped, {}),
        ("missing square", TOUR34[:-1], {}),
        ("repeat", TOUR34[:5] + [TOUR34[3]] + TOUR34[6:], {}),
        ("off the board", TOUR34[:-1] + [b.n_squares], {}),
        ("wrong start", TOUR34, {"start": "a1"}),
        ("wrong end", TOUR34, {"end": "a3"}),
    ]


@pytest.mark.parametrize("name, squares, kw", _bad_tours(), ids=[t[0] for t in _bad_tours()])
def test_an_invalid_tour_is_an_honest_unknown_with_the_validators_message(name, squares, kw):
    board = Board(3, 4)
    with pytest.raises(ktsolve.InvalidTourError) as exc:
        validate(board, np.array(squares), **kw)
    for answer in (squares, np.array(squares), SolveResult(Status.FOUND, tour=np.array(squares))):
        method = Recorder(answer=answer)
        res = solve(board, method=method, seed=1, **kw)
        assert res.status is Status.UNKNOWN and res.tour is None and not res.found
        assert res.stats["invalid_tour"] == str(exc.value)
        assert str(exc.value) in res.stats["reason"]
        with pytest.raises(AssertionError):
            assert_agrees(board, res, unknown="any", **kw)


def test_a_closed_question_needs_a_closing_tour():
    board = Board(5, 6)
    # an open tour from a1 to a2: a2 is no knight's move from a1, so it cannot close
    open_tour = solve(board, "backtrack", start="a1", end="a2").tour.squares
    res = solve(board, method=Recorder(answer=open_tour), closed=True, seed=0)
    assert res.status is Status.UNKNOWN
    assert res.stats["invalid_tour"] == "the tour is not closed: a2 back to a1 is not a legal move"
    closed_tour = solve(board, "backtrack", closed=True).tour.squares
    res = solve(board, method=Recorder(answer=closed_tour), closed=True, seed=0)
    assert res.found and res.tour.closed


@pytest.mark.parametrize(
    "answer",
    [TOUR34, np.array(TOUR34, dtype=np.int64), np.array(TOUR34, dtype=np.int16)],
    ids=["list", "int64", "int16"],
)
def test_a_tour_in_square_numbers_is_found_and_validated(answer):
    res = solve("3x4", method=Recorder(answer=answer), seed=3)
    assert res.found and isinstance(res.tour, Tour) and res.tour.squares.tolist() == TOUR34
    assert res.tour.squares.dtype == np.int32
    assert_agrees("3x4", res)


def test_a_tour_or_a_solve_result_is_taken_as_is():
    board = Board(3, 4)
    res = solve(board, method=Recorder(answer=Tour(board, TOUR34)), seed=3)
    assert res.found
    out = SolveResult(Status.FOUND, tour=Tour(board, TOUR34), stats={"attempts": 7, "tours": 1})
    res = solve(board, method=Recorder(answer=out), seed=3)
    assert res.found and res.stats["attempts"] == 7 and res.board == board and res.spec is not None


def test_none_is_an_unknown_that_says_so():
    res = solve("3x4", method=Recorder(answer=None), seed=1)
    assert res.status is Status.UNKNOWN and "returned no tour" in res.stats["reason"]
    assert res.stats["settled_by"] == "none"


@pytest.mark.parametrize("answer", ["a1 b3", [0.0, 1.0], [[0, 1, 2], [2, 3, 4]], [], 42, [True, False]])
def test_a_return_value_that_is_no_answer_is_a_programming_error(answer):
    with pytest.raises(RuntimeError, match="returns a SolveResult, a tour as square numbers or .row, col. pairs, "
                                           "or None"):
        solve("3x4", method=Recorder(answer=answer), seed=1)


def test_row_col_pairs_are_a_tour_the_validator_checks():
    # (row, col) pairs, as assert_tour takes them (issue 20): two of them are no tour of 3x4, said by the validator
    res = solve("3x4", method=Recorder(answer=[[0, 1], [2, 3]]), seed=1)
    assert res.status is Status.UNKNOWN and "invalid_tour" in res.stats


def test_a_user_method_that_claims_no_tour_must_be_registered_as_proving():
    says_no = SolveResult(Status.INFEASIBLE, proof=ktsolve.Proof("I looked hard", argument="mine"))
    res = solve("3x4", method=Recorder(answer=says_no), seed=1)
    assert res.status is Status.UNKNOWN and res.proof is None
    assert res.stats["unproven_claim"] == "I looked hard"
    assert "proves=True" in res.stats["reason"]
    register_method(MethodInfo("prover", "exact", "says no", Recorder(answer=says_no), proves=True, seeded=False))
    res = solve("3x4", "prover")
    assert res.status is Status.INFEASIBLE and res.proof == "I looked hard" and res.method == "prover"


def test_a_built_in_method_that_claims_without_proving_is_a_bug(monkeypatch):
    from ktsolve import registry
    from ktsolve.graph import KnightGraph
    from ktsolve.portfolio import run_method

    says_no = Recorder(answer=SolveResult(Status.INFEASIBLE, proof=ktsolve.Proof("no")))
    double = registry.with_func(method_info("warnsdorff"), says_no)
    register_method(double, replace=True)
    res = solve("3x4", "warnsdorff", seed=1)  # a user's double in place of the built-in: honest unknown
    assert res.status is Status.UNKNOWN and res.stats["unproven_claim"] == "no"
    monkeypatch.setitem(registry.BUILTIN, "warnsdorff", double)  # now it is the built-in itself
    assert double.builtin
    with pytest.raises(RuntimeError, match="cannot prove infeasibility"):
        run_method(double, KnightGraph(Board(3, 4)), ktsolve.TourSpec(), seed=1)


# ---------------------------------------------------------------------- seeds, time, progress, parameters
def test_the_seed_is_passed_and_recorded():
    method = Recorder(answer=first_tour)
    res = solve("3x4", method=method, seed=12345)
    assert method.calls[-1]["seed"] == 12345 and res.seed == 12345
    res = solve("3x4", method=method)
    drawn = method.calls[-1]["seed"]
    assert isinstance(drawn, int) and 0 <= drawn < 2**32 and res.seed == drawn
    again = solve("3x4", method=method, seed=res.seed)
    assert again.tour == res.tour
    with pytest.raises(InvalidParameterError, match="seed must be a whole number"):
        solve("3x4", method=method, seed=-1)


def test_an_unseeded_registered_method_records_no_seed():
    method = Recorder(answer=first_tour)
    register_method(MethodInfo("plain", "heuristic", "no randomness", method, seeded=False))
    res = solve("3x4", "plain")
    assert res.seed is None and method.calls[-1]["seed"] is None


def test_time_is_measured_and_the_limit_passed_on():
    method = Recorder(answer=first_tour, sleep=0.05)
    res = solve("3x4", method=method, seed=1, time_limit=30)
    limit = method.calls[-1]["time_limit"]
    assert 0 < limit <= 30
    assert res.elapsed >= 0.05
    step = res.stats["steps"][-1]
    assert step["step"] == "user_method" and step["seconds"] >= 0.05 and step["validation_s"] >= 0
    assert sum(s["seconds"] for s in res.stats["steps"]) <= res.elapsed + 1e-6
    res = solve("3x4", method=method, seed=1)
    assert method.calls[-1]["time_limit"] is None


def test_progress_reaches_the_method():
    seen = []
    method = Recorder(answer=first_tour)
    solve("3x4", method=method, seed=1, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(1, 1)]


def test_method_parameters_are_checked_against_its_signature():
    def walk(graph, spec, *, seed=None, time_limit=None, progress=None, walks=10):
        return first_tour(graph, spec, seed) if walks > 5 else None

    assert solve("3x4", method=walk, seed=1, walks=6).found
    assert not solve("3x4", method=walk, seed=1, walks=1).found
    with pytest.raises(InvalidParameterError, match="has no parameter 'steps' \\(it takes walks\\)"):
        solve("3x4", method=walk, seed=1, steps=3)
    with pytest.raises(InvalidParameterError, match="argument of the call"):
        solve("3x4", method=walk, walks=6, **{"graph": 1})


def test_a_lambda_gets_a_name():
    res = solve("3x4", method=lambda graph, spec, **kw: first_tour(graph, spec, 0), seed=1)
    assert res.found and res.method == "user_method"


# ---------------------------------------------------------------------- the registry
def test_registered_methods_are_listed_and_solve_by_name():
    method = Recorder(answer=first_tour)
    info = register_method(MethodInfo("mywalk", "metaheuristic", "my random walk", method, closed=False,
                                      reference="me, 2025"))
    assert "mywalk" in methods() and list(methods()) == sorted(methods())
    assert method_info("mywalk") is info and not info.builtin
    res = solve("3x4", "mywalk", seed=2)
    assert res.found and res.method == "mywalk" and res.seed == 2
    with pytest.raises(UnsupportedError, match="cannot build closed tours"):
        solve("6x6", "mywalk", closed=True)
    with pytest.raises(UnsupportedError, match="already registered"):
        register_method(MethodInfo("mywalk", "heuristic", "again", method))
    with pytest.raises(UnsupportedError, match="already registered"):
        register_method(MethodInfo("aco", "heuristic", "mine", method))
    with pytest.raises(UnsupportedError, match="cannot be registered"):
        register_method(MethodInfo("auto", "heuristic", "mine", method))
    unregister_method("mywalk")
    assert "mywalk" not in methods()
    with pytest.raises(UnsupportedError, match="unknown method 'mywalk'"):
        solve("3x4", "mywalk")


def test_the_command_line_sees_registered_methods():
    from ktsolve.cli import cli  # noqa: F401 - imported before the registration on purpose

    register_method(MethodInfo("mywalk", "heuristic", "my random walk", Recorder(answer=first_tour),
                               closed=False, seeded=True))
    listed = json.loads(invoke(["methods", "--format", "json"]).stdout)
    mine = [m for m in listed if m["name"] == "mywalk"]
    assert mine == [{"name": "mywalk", "family": "heuristic", "holes": True, "open": True, "closed": False,
                     "start": True, "end": True, "proves": False, "seeded": True, "max_squares": None,
                     "enumerate": False, "summary": "my random walk", "reference": ""}]
    assert any(line.startswith("mywalk ") for line in invoke(["methods"]).stdout.splitlines())
    res = invoke(["solve", "3x4", "-m", "mywalk", "--seed", "4", "--format", "json"])
    out = json.loads(res.stdout)
    assert out["status"] == "found" and out["method"] == "mywalk" and out["seed"] == 4
    unregister_method("mywalk")
    assert "not one of" in invoke(["solve", "3x4", "-m", "mywalk"], code=2).stderr


def test_a_method_given_by_its_module_path_is_imported_when_it_first_runs(tmp_path, monkeypatch):
    (tmp_path / "my_walks.py").write_text(textwrap.dedent("""
        CALLS = []
        def walk(graph, spec, *, seed=None, time_limit=None, progress=None):
            CALLS.append(seed)
            return [0, 6, 8, 1, 7, 9, 2, 11, 5, 3, 10, 4]
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    register_method(MethodInfo("pathwalk", "heuristic", "from a module", "my_walks:walk"))
    assert "my_walks" not in sys.modules
    res = solve("3x4", "pathwalk", seed=9)
    assert res.found and sys.modules["my_walks"].CALLS == [9]
    sys.modules.pop("my_walks")


def test_a_double_in_place_of_a_built_in_and_back():
    method = Recorder(answer=first_tour)
    register_method(MethodInfo("warnsdorff", "heuristic", "a double", method), replace=True)
    solve("3x4", "warnsdorff", seed=1)
    assert len(method.calls) == 1
    unregister_method("warnsdorff")  # the built-in comes back
    assert method_info("warnsdorff").builtin
    unregister_method("warnsdorff")  # now hidden
    assert "warnsdorff" not in methods()
    assert "warnsdorff" not in [s.name for s in ktsolve.plans.auto_plan(Board(8, 8), ktsolve.TourSpec())]
    reset_methods()
    assert "warnsdorff" in methods()


@pytest.mark.parametrize(
    "code",
    [
        "from ktsolve import Board, prove, solve",
        "from ktsolve import prove; from ktsolve import solve",
        "import ktsolve.cli; from ktsolve import solve",
        "from ktsolve.solve import prove; import ktsolve; solve = ktsolve.solve",
    ],
)
def test_solve_is_the_function_whatever_was_imported_first(code):
    """The notebook's first cell: importing the submodule ktsolve.solve must not hide the function."""
    import subprocess

    run = f"{code}\nassert callable(solve), solve\nprint(solve('3x4', method='backtrack').status.value)"
    out = subprocess.run([sys.executable, "-c", run], capture_output=True, text=True)
    assert out.returncode == 0 and out.stdout.strip() == "found", out.stderr
