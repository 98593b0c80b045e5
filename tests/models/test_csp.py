"""python-constraint model: tours and proofs on small boards, the size limit, the clock, first solution only."""

import doctest
import time

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import UnsupportedError
from ktsolve.models import csp
from ktsolve.models.csp import Clock, ConstraintModel, WarnsdorffSolver, build_csp, solve_csp

from conftest import random_board
from naive_tours import exhaustive_tour


def test_doctests():
    assert doctest.testmod(csp).failed == 0


def test_constraint_model_wraps_python_constraint():
    model = ConstraintModel()
    model.add_variable("a", [1, 2, 3])
    model.add_variable("b", [1, 2, 3])
    model.add_all_different(["a", "b"])
    model.add_constraint(lambda a, b: a + b == 5, ["a", "b"])
    sols = {tuple(sorted(s.items())) for s in model.solutions()}
    assert sols == {(("a", 2), ("b", 3)), (("a", 3), ("b", 2))}
    assert model.first_solution() in ({"a": 2, "b": 3}, {"a": 3, "b": 2})


@pytest.mark.parametrize("variant", ["warnsdorff", "plain"])
@pytest.mark.parametrize(
    "board, kw",
    [
        ("3x4", dict(start="a1")),
        ("5x5", dict(start="a1")),
        ("4x5", dict()),
        ("3x4", dict(start="a1", end="d3")),
    ],
)
def test_small_tours_are_found_and_valid(variant, board, kw):
    res = solve(board, method="csp", variant=variant, time_limit=30, presolve_proofs=False, **kw)
    assert res.found  # solve() validated it against the question
    assert res.stats["checks"] > 0


def test_closed_tour_of_the_ring():
    b = Board(3, 3, holes=[(1, 1)])
    for variant in ("warnsdorff", "plain"):
        res = solve(b, method="csp", variant=variant, closed=True, time_limit=30, presolve_proofs=False)
        assert res.found and res.tour.closed


@pytest.mark.parametrize("variant", ["warnsdorff", "plain"])
def test_random_small_boards_agree_with_exhaustive_search(variant):
    rng = np.random.default_rng(31)
    answers = set()
    for _ in range(40):
        b = random_board(rng, 2, 4, 0.4)
        if b.n_squares > 12:
            continue
        g = KnightGraph(b)
        closed = bool(rng.integers(2))
        coords = [tuple(int(x) for x in b.coords_of([i])[0]) for i in range(b.n_squares)]
        start = coords[int(rng.integers(len(coords)))] if rng.random() < 0.5 else None
        spec = TourSpec(closed, start, None)
        res = solve_csp(g, spec, variant=variant, time_limit=60)
        ref = exhaustive_tour(g, spec)
        assert res.status is (Status.FOUND if ref is not None else Status.INFEASIBLE), (b, spec)
        if res.found:
            validate(b, res.tour, closed=closed, start=start)
        else:
            assert res.proof.argument == "exhaustive search" and "exhausted" in res.proof
        answers.add(res.status)
    assert answers == {Status.FOUND, Status.INFEASIBLE}


def test_larger_boards_are_refused_with_a_clear_message():
    with pytest.raises(UnsupportedError, match=r"at most 64 squares.*this one has 81.*cpsat"):
        solve_csp(KnightGraph(Board(9, 9)), TourSpec())
    with pytest.raises(UnsupportedError, match="at most 64 squares"):
        solve("9x9", method="csp")
    with pytest.raises(UnsupportedError, match="variant"):
        solve_csp(KnightGraph(Board(3, 4)), TourSpec(), variant="fast")


def test_time_limit_ends_in_unknown():
    # 5x5 from b1 has no tour (colour parity); with the proofs off, the search
    # would run for minutes: the clock in the knight's-move constraint stops it.
    t0 = time.perf_counter()
    res = solve("5x5", method="csp", start="b1", time_limit=0.3, presolve_proofs=False)
    assert res.status is Status.UNKNOWN and "python-constraint found no tour" in res.stats["reason"]
    assert time.perf_counter() - t0 < 30  # not a timing test: only "it does stop"


def test_clock_raises_after_the_deadline():
    clock = Clock(time.perf_counter() - 1.0, every=3)
    clock.tick()
    clock.tick()
    with pytest.raises(csp._OutOfTime):
        clock.tick()
    free = Clock(None, every=1)
    for _ in range(10):
        free.tick()


def test_search_stops_at_the_first_tour():
    class Counting(WarnsdorffSolver):
        yielded = 0

        def getSolutionIter(self, domains, constraints, vconstraints):  # noqa: N802
            for sol in super().getSolutionIter(domains, constraints, vconstraints):
                Counting.yielded += 1
                yield sol

    g = KnightGraph(Board(5, 5))
    solver = Counting([g.neighbours(v) for v in range(g.n)])
    res = solve_csp(g, TourSpec(start=(0, 0)), solver=solver, time_limit=30)
    assert res.found and Counting.yielded == 1


def test_injected_solver_object():
    import constraint

    g = KnightGraph(Board(3, 4))
    res = solve_csp(g, TourSpec(start=(2, 0)), solver=constraint.BacktrackingSolver(forwardcheck=False),
                    time_limit=30)
    assert res.found and res.stats["solver"] == "BacktrackingSolver"
    validate(g.board, res.tour, start=(2, 0))


def test_model_states_the_prolog_formulation():
    g = KnightGraph(Board(3, 4))
    model = ConstraintModel()
    steps = build_csp(model, g, TourSpec(start=(0, 0), end=(2, 3)))
    assert steps == list(range(12))
    sol = model.first_solution()
    order = [sol[k] for k in steps]
    assert order[0] == 0 and order[-1] == 11 and sorted(order) == list(range(12))
    validate(g.board, order, start=(0, 0), end=(2, 3))


# ---------------------------------------------------------------------- the Prolog paper's question: longest paths
from ktsolve import longest  # noqa: E402
from ktsolve.errors import InvalidParameterError  # noqa: E402
from ktsolve.models.csp import build_path_csp, longest_csp  # noqa: E402
from ktsolve.models.longest import longest_path  # noqa: E402
from naive_tours import longest_path_length  # noqa: E402

from conftest import invoke  # noqa: E402


def test_path_model_states_the_paper_question():
    """Steps are squares, all different, consecutive steps a knight's move apart, step 0 the start."""
    g = KnightGraph(Board(4, 4))
    for length in (1, 5, 15):
        model = ConstraintModel()
        steps = build_path_csp(model, g, 0, length)
        assert steps == list(range(length))
        sols = []
        for sol in model.solutions():
            sols.append([sol[k] for k in steps])
            if len(sols) == 50:
                break
        assert sols
        for path in sols:
            assert path[0] == 0 and len(set(path)) == length
            validate(g.board, path, start=(0, 0), complete=False)
    model = ConstraintModel()
    build_path_csp(model, g, 0, 16)
    assert model.first_solution() is None  # 4x4 has no open tour


@pytest.mark.parametrize("variant", ["warnsdorff", "plain"])
def test_longest_csp_matches_cpsat_and_brute_force_on_many_small_boards(variant):
    rng = np.random.default_rng(10)
    seen = 0
    holed = 0
    for _ in range(60):
        b = random_board(rng, 2, 5, 0.35)
        if b.n_squares > 14:
            continue
        g = KnightGraph(b)
        start = int(rng.integers(g.n)) if rng.random() < 0.75 else None
        res = longest_csp(g, start, variant=variant, time_limit=60)
        assert res.status is Status.FOUND and res.stats["optimal"], (b, start)
        exact = longest_path(g, start, time_limit=30)
        assert exact.stats["optimal"]
        assert res.stats["length"] == exact.stats["length"] == longest_path_length(g, start), (b, start)
        assert res.stats["bound"] == res.stats["length"]
        if res.path is not None:
            first = None if start is None else tuple(int(x) for x in b.coords_of([start])[0])
            validate(b, res.path, start=first, complete=False)
        seen += 1
        holed += not b.is_full
    assert seen >= 25 and holed >= 10


@pytest.mark.parametrize("board, start", [("4x4", "a1"), ("3x4", "b2"), ("3x3", "b2"), ("5x5", "a1"),
                                          ("4x5", None), ("1x1", "a1"), ("2x3", "a1")])
def test_public_api_csp_gives_the_cpsat_optimum(board, start):
    a = longest(board, start=start, method="csp", time_limit=60)
    b = longest(board, start=start, time_limit=60)
    assert a.status is b.status is Status.FOUND
    assert a.stats["length"] == b.stats["length"] == len(a.path)
    assert (a.tour is None) == (b.tour is None)


def test_longest_csp_grows_the_length_as_prolog_would():
    res = longest_csp(KnightGraph(Board(4, 4)), 0)
    lengths = res.stats["lengths"]
    assert [e["length"] for e in lengths] == list(range(1, 17))
    assert [e["answer"] for e in lengths] == ["path"] * 15 + ["none"]
    full = longest_csp(KnightGraph(Board(5, 5)), 0)
    assert full.stats["length"] == 25 and full.tour is not None and full.stats["lengths"][-1]["length"] == 25


def test_longest_csp_time_limit_and_ctrl_c_give_unknown():
    import os
    import signal

    g = KnightGraph(Board(5, 5))
    res = longest_csp(g, 1, time_limit=0.2)  # b-file start: 24 squares at most, proving it is slow
    assert res.status is Status.UNKNOWN and not res.stats["optimal"] and res.stats["bound"] == 25
    assert "time limit" in res.stats["reason"] and res.stats["length"] >= 1
    validate(g.board, res.path, complete=False)

    def progress(length, total):
        if length == 3:
            os.kill(os.getpid(), signal.SIGINT)

    res = longest_csp(g, 1, progress=progress)
    assert res.status is Status.UNKNOWN and res.stats["interrupted"] is True
    assert "interrupted" in res.stats["reason"] and res.stats["length"] == 2


def test_longest_csp_refuses_large_boards_and_bad_input():
    with pytest.raises(UnsupportedError, match="at most 64 squares.*cpsat"):
        longest("9x9", method="csp")
    with pytest.raises(InvalidParameterError):
        longest("4x4", method="prolog")
    with pytest.raises(InvalidParameterError):
        longest("4x4", method="csp", num_workers=2)
    with pytest.raises(UnsupportedError, match="not a square number"):
        longest_csp(KnightGraph(Board(3, 3)), 9)


def test_cli_longest_method_csp():
    out = invoke(["longest", "4x4", "--start", "a1", "--method", "csp"])
    assert "15 of 16 squares (optimal)" in out.stderr
    out = invoke(["longest", "3x3", "--start", "a1", "-m", "csp", "--format", "json"])
    assert '"length": 8' in out.stdout
    out = invoke(["longest", "9x9", "-m", "csp"], 2)
    assert len(out.stderr.strip().splitlines()) == 1 and "64 squares" in out.stderr
    invoke(["longest", "4x4", "-m", "prolog"], 2)


# ---------------------------------------------------------------------- bad solvers, the seed rule
@pytest.mark.parametrize("params", [{"solver": "bogus"}, {"solver": 3}, {"variant": "fast"}, {"variant": 1}])
def test_bad_solver_or_variant_is_one_line(params):
    with pytest.raises(InvalidParameterError):
        solve("3x4", method="csp", **params)
    args = ["solve", "3x4", "-m", "csp"] + [x for k, v in params.items() for x in ("-p", f"{k}={v}")]
    out = invoke(args, 2)
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_seed_doc_and_recorded_seed():
    import inspect

    from ktsolve.seeds import UNSEEDED_SEED_DOC

    assert UNSEEDED_SEED_DOC in inspect.getdoc(solve_csp)
    # the search draws no random number: like backtrack and divide it records no seed
    res = solve_csp(KnightGraph(Board(3, 4)), TourSpec(start=(0, 0)))
    assert res.found and res.seed is None
    assert solve_csp(KnightGraph(Board(3, 4)), TourSpec(start=(0, 0)), seed=7).seed is None


def test_csp_ctrl_c_is_an_honest_unknown():
    import os
    import signal

    class Interrupting(WarnsdorffSolver):
        def getSolutionIter(self, domains, constraints, vconstraints):  # noqa: N802
            os.kill(os.getpid(), signal.SIGINT)
            yield from super().getSolutionIter(domains, constraints, vconstraints)

    g = KnightGraph(Board(5, 5))
    res = solve_csp(g, TourSpec(start=(4, 1)), solver=Interrupting([g.neighbours(v) for v in range(g.n)]))
    assert res.status is Status.UNKNOWN and res.stats["interrupted"] is True
    assert "interrupted" in res.stats["reason"]
