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
