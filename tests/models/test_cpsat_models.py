"""The models of method cpsat (circuit, redundant, cuts, sat): soundness against exhaustive search,
the theorems and the oracles; fixed ends; honest unknowns; the cut loop's pieces."""

import doctest
import sys
from pathlib import Path

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import UnsupportedError
from ktsolve.models import cpsat_cuts, satcuts
from ktsolve.models.cpsat import MODELS, solve_cpsat
from ktsolve.models.cpsat_cuts import cycles_of, orient

from conftest import random_board
from naive_tours import closed_exists, exhaustive_tour, open_exists

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
from frontier_boards import dense_holes  # noqa: E402

HAVE_PYSAT = satcuts.have_pysat()
needs_pysat = pytest.mark.skipif(not HAVE_PYSAT, reason="python-sat is not installed (pip install 'ktsolve[sat]')")
ALL = [pytest.param(m, marks=needs_pysat) if m == "sat" else m for m in MODELS]


def run(board, model, **kw):
    """One model alone (no presolve proofs); solve() validates every tour it returns."""
    return solve(board, method="cpsat", presolve_proofs=False, seed=1, model=model, **kw)


def test_doctests():
    assert doctest.testmod(cpsat_cuts).failed == 0
    assert doctest.testmod(satcuts).failed == 0


def test_models_are_the_documented_ones():
    assert MODELS[0] == "circuit"  # the default
    assert set(MODELS) == {"circuit", "redundant", "cuts", "sat"}
    with pytest.raises(UnsupportedError, match="model must be one of circuit, redundant, cuts, sat, not 'nope'"):
        solve_cpsat(KnightGraph(Board(5, 5)), TourSpec(), model="nope")


@pytest.mark.parametrize("model", ALL)
def test_full_boards_agree_with_the_theorems(model):
    for m in range(1, 7):
        for n in range(m, 8):
            res = run(Board(m, n), model, time_limit=20)
            assert res.status is (Status.FOUND if open_exists(m, n) else Status.INFEASIBLE), (model, m, n, "open")
            res = run(Board(m, n), model, closed=True, time_limit=20)
            assert res.status is (Status.FOUND if closed_exists(m, n) else Status.INFEASIBLE), (model, m, n)


@pytest.mark.parametrize("model", ALL)
def test_5x5_fixed_starts_match_the_table(model):
    table = np.array([[1, 0, 1, 0, 1], [0, 1, 0, 1, 0], [1, 0, 1, 0, 1], [0, 1, 0, 1, 0], [1, 0, 1, 0, 1]])
    for r in range(5):
        for c in range(5):
            res = run(Board(5, 5), model, start=(r, c), time_limit=20)
            assert res.status is (Status.FOUND if table[r, c] else Status.INFEASIBLE), (model, r, c)
            if res.found:
                assert res.tour.start == (r, c)


@pytest.mark.parametrize("model", ALL)
def test_fixed_ends_and_closed_listing(model):
    b = Board(6, 6)
    res = run(b, model, start="a1", end="f1", time_limit=20)
    assert res.found and res.tour.names()[0] == "a1" and res.tour.names()[-1] == "f1"
    res = run(b, model, end="f1", time_limit=20)
    assert res.found and res.tour.names()[-1] == "f1"
    res = run(b, model, closed=True, start="c3", end="a2", time_limit=20)
    assert res.found and res.tour.names()[0] == "c3" and res.tour.names()[-1] == "a2"
    res = run(b, model, closed=True, end="d4", time_limit=20)
    assert res.found and res.tour.names()[-1] == "d4"
    res = run(b, model, closed=True, start="c3", end="c4", time_limit=20)  # no closing move
    assert res.status is Status.INFEASIBLE
    res = run(Board(1, 1), model, time_limit=20)  # a single square: the circuit model answers
    assert res.found and len(res.tour) == 1
    res = run(Board(1, 1), model, start="a1", end="a1", time_limit=20)
    assert res.found


@pytest.mark.parametrize("model", ALL)
def test_holed_oracle(model, holed_oracle):
    for case in holed_oracle["cases"]:
        b = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
        res = run(b, model, closed=case["kind"] == "closed", start=case.get("start") and tuple(case["start"]),
                  time_limit=30)
        assert res.status is (Status.FOUND if case["exists"] else Status.INFEASIBLE), (model, case)


def _questions(seed: int, count: int):
    """Random small holed boards (at most 20 squares) with random questions, both kinds and every fixing."""
    rng = np.random.default_rng(seed)
    made = 0
    while made < count:
        b = random_board(rng, 2, 6, 0.3)
        n = b.n_squares
        if n > 20 or n == 0:
            continue
        coords = [tuple(int(x) for x in b.coords_of([i])[0]) for i in range(n)]
        closed = bool(rng.integers(2))
        fix = int(rng.integers(4))
        s = coords[int(rng.integers(n))] if fix in (1, 3) else None
        e = coords[int(rng.integers(n))] if fix in (2, 3) else None
        if closed and s is not None and s == e:
            e = None
        made += 1
        yield b, TourSpec(closed, s, e)


@pytest.mark.parametrize("model", ALL)
def test_random_holed_boards_agree_with_exhaustive_search(model):
    """Every answer against the naive exhaustive search; tours through the one validator."""
    found = 0
    for b, spec in _questions(2024, 150):
        g = KnightGraph(b)
        ref = exhaustive_tour(g, spec)
        res = solve_cpsat(g, spec, model=model, seed=5, time_limit=30)
        assert res.status is not Status.UNKNOWN, (model, b, spec)
        assert res.found == (ref is not None), (model, b, spec)
        if res.found:
            found += 1
            validate(b, res.tour, closed=spec.closed, start=spec.start, end=spec.end)
    assert found >= 5  # the sample has tours, not only refutations


@pytest.mark.parametrize("model", ALL)
def test_tours_with_many_subtours_on_the_way(model):
    """Boards whose first 2-factor has many cycles: the loop must cut them all and return a valid tour."""
    for n, closed, start in ((12, True, None), (12, False, (0, 0)), (16, False, None), (20, True, (3, 4))):
        b = Board(n, n)
        res = solve_cpsat(KnightGraph(b), TourSpec(closed, start), model=model, seed=2, num_workers=2,
                          time_limit=60)
        assert res.found, (model, n, closed)
        validate(b, res.tour, closed=closed, start=start)
        if model in ("cuts", "sat"):
            assert res.stats["rounds"] >= 1 and res.stats["cuts"] >= 0


@pytest.mark.parametrize("model", ALL)
def test_dense_boards_agree_with_the_circuit_model(model):
    """Dense holed 12x12 boards of the frontier family: every model gives the circuit model's answer."""
    for seed in range(3):
        for share in (0.2, 0.3):
            holes = dense_holes(12, share, seed)
            b = Board(12, 12, holes)
            g = KnightGraph(b)
            first = next((r, c) for r in range(12) for c in range(12) if not b.is_hole(r, c))
            for spec in (TourSpec(True), TourSpec(False, first)):
                ref = solve_cpsat(g, spec, seed=1, num_workers=2, time_limit=60)
                res = solve_cpsat(g, spec, model=model, seed=1, num_workers=2, time_limit=60)
                assert ref.status is not Status.UNKNOWN and res.status is ref.status, (model, seed, share, spec)
                if res.found:
                    validate(b, res.tour, closed=spec.closed, start=spec.start)


@pytest.mark.parametrize("model", ALL)
def test_time_limit_gives_an_honest_unknown(model):
    b = Board(60, 60, dense_holes(60, 0.2, 0))  # has a tour, which no model finds in half a second
    res = solve_cpsat(KnightGraph(b), TourSpec(True), model=model, seed=1, time_limit=0.5)
    assert res.status is Status.UNKNOWN and res.tour is None and res.proof is None
    assert "within" in res.stats["reason"] or "time limit" in res.stats["reason"]
    assert res.stats.get("interrupted", False) is False


def test_sat_without_python_sat_says_how_to_get_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "pysat.solvers", None)
    monkeypatch.setitem(sys.modules, "pysat", None)
    assert not satcuts.have_pysat()
    with pytest.raises(UnsupportedError, match=r"python-sat \(pip install 'ktsolve\[sat\]'\)"):
        solve_cpsat(KnightGraph(Board(6, 6)), TourSpec(True), model="sat", time_limit=10)


def test_cycles_and_orientation():
    assert cycles_of(7, [(0, 1), (1, 2), (2, 0), (3, 4), (4, 5), (5, 6), (6, 3)]) == [[0, 1, 2], [3, 4, 5, 6]]
    g = KnightGraph(Board(3, 4))  # 12 squares, the dummy is 12
    for start, end in ((None, None), ((0, 0), None), (None, (0, 0)), ((0, 0), (0, 3)), ((0, 3), (0, 0))):
        succ = orient([12, 3, 7, 0], g, TourSpec(False, start, end))
        order = [succ[12]]
        while succ[order[-1]] != 12:
            order.append(succ[order[-1]])
        if start is not None:
            assert order[0] == g.board.index(*start)
        if end is not None:
            assert order[-1] == g.board.index(*end)


def test_every_cut_holds_for_every_tour():
    """The subtour cut of any proper node set is met by every Hamiltonian cycle (5x6, 8 tours checked)."""
    from ktsolve.models.cpsat_cuts import subtour_cut

    b = Board(5, 6)
    g = KnightGraph(b)
    rng = np.random.default_rng(3)
    at = [[(int(w), (min(v, int(w)), max(v, int(w)))) for w in g.neighbours(v)] for v in range(g.n)]
    for seed in range(8):
        tour = solve_cpsat(g, TourSpec(True), seed=seed, time_limit=20).tour
        sq = tour.squares.tolist()
        used = {(min(a, c), max(a, c)) for a, c in zip(sq, sq[1:] + sq[:1])}
        for _ in range(50):
            k = int(rng.integers(1, g.n))
            part = rng.choice(g.n, size=k, replace=False).tolist()
            leaving = subtour_cut(part, g.n, at)
            assert sum(e in used for e in leaving) >= 2
