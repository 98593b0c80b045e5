"""CP-SAT circuit model: the theorems, fixed ends, statuses, parameters and reproducibility."""

import doctest

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import UnsupportedError
from ktsolve.models import cpsat
from ktsolve.models.cpsat import build_circuit_model, solve_cpsat
from ktsolve.proofs import matching_proof, quick_proof

from conftest import random_board
from naive_tours import closed_exists, exhaustive_tour, open_exists


def run(board, **kw):
    """CP-SAT alone (no presolve proofs), validated by solve()."""
    return solve(board, method="cpsat", presolve_proofs=False, seed=1, **kw)


def test_doctests():
    assert doctest.testmod(cpsat).failed == 0


def test_model_arcs():
    from ortools.sat.python import cp_model

    g = KnightGraph(Board(8, 8))
    arcs = build_circuit_model(cp_model.CpModel(), g, TourSpec(closed=True))
    assert len(arcs) == 2 * 168 and all(isinstance(k, tuple) and len(k) == 2 for k in arcs)
    arcs = build_circuit_model(cp_model.CpModel(), g, TourSpec(start=(7, 0)))
    dummy = g.n
    assert [a for a in arcs if a[0] == dummy] == [(dummy, 56)]
    assert len([a for a in arcs if a[1] == dummy]) == 64
    arcs = build_circuit_model(cp_model.CpModel(), g, TourSpec(start=(7, 0), end=(0, 7)))
    assert [a for a in arcs if a[1] == dummy] == [(7, dummy)]


@pytest.mark.parametrize("m", range(1, 8))
def test_full_boards_agree_with_the_theorems_small(m):
    """CP-SAT alone, every m x n with m <= n <= 8 (bigger boards in test_prove)."""
    for n in range(m, 9):
        res = run(Board(m, n), time_limit=20)
        assert res.status is (Status.FOUND if open_exists(m, n) else Status.INFEASIBLE), (m, n, "open")
        res = run(Board(m, n), closed=True, time_limit=20)
        assert res.status is (Status.FOUND if closed_exists(m, n) else Status.INFEASIBLE), (m, n, "closed")


def test_5x5_fixed_starts_match_the_table():
    table = np.array([
        [304, 0, 56, 0, 304],
        [0, 56, 0, 56, 0],
        [56, 0, 64, 0, 56],
        [0, 56, 0, 56, 0],
        [304, 0, 56, 0, 304],
    ])
    b = Board(5, 5)
    for r in range(5):
        for c in range(5):
            res = run(b, start=(r, c), time_limit=20)
            assert res.status is (Status.FOUND if table[r, c] else Status.INFEASIBLE), (r, c)
            if res.found:
                assert res.tour.start == (r, c)
            else:
                assert res.proof.startswith("CP-SAT proved the circuit model infeasible")


def test_6x6_every_start_has_an_open_tour():
    b = Board(6, 6)
    for r in range(6):
        for c in range(6):
            res = run(b, start=(r, c), time_limit=20)
            assert res.found and res.tour.start == (r, c)


def test_fixed_ends_and_closed_listing():
    b = Board(6, 6)
    res = run(b, start="a1", end="f1", time_limit=20)  # opposite colours on 6x6
    assert res.found and res.tour.names()[0] == "a1" and res.tour.names()[-1] == "f1"
    res = run(b, closed=True, start="c3", end="a2", time_limit=20)  # a2 is a knight's move from c3
    assert res.found and res.tour.names()[0] == "c3" and res.tour.names()[-1] == "a2"
    res = run(b, closed=True, end="d4", time_limit=20)
    assert res.found and res.tour.names()[-1] == "d4"
    res = run(b, closed=True, start="c3", end="c4", time_limit=20)  # no closing move
    assert res.status is Status.INFEASIBLE


def test_holed_oracle(holed_oracle):
    for case in holed_oracle["cases"]:
        b = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
        res = run(b, closed=case["kind"] == "closed", start=case.get("start") and tuple(case["start"]),
                  time_limit=30)
        assert res.status is (Status.FOUND if case["exists"] else Status.INFEASIBLE), case


def test_statuses_are_mapped_once():
    # Unknown: the closed 4 x 24 board is beyond CP-SAT in a fraction of a second.
    res = run(Board(4, 24), closed=True, time_limit=0.2)
    assert res.status is Status.UNKNOWN and "CP-SAT found no tour" in res.stats["reason"]
    # Infeasible carries the solver's statistics.
    res = run(Board(3, 6), time_limit=20)
    assert res.status is Status.INFEASIBLE and res.proof.argument == "cpsat"
    for key in ("branches", "conflicts", "wall_time_s", "status"):
        assert key in res.proof.evidence and key in res.stats
    assert res.stats["status"] == "INFEASIBLE"


def test_model_invalid_is_a_bug(monkeypatch):
    real = cpsat.build_circuit_model

    def broken(model, graph, spec, **kw):
        lits = real(model, graph, spec, **kw)
        x = model.new_int_var(0, 3, "x")
        domain = model.proto.variables[x.index].domain
        domain[0], domain[1] = 3, 0  # an empty interval: an invalid model
        return lits

    monkeypatch.setattr(cpsat, "build_circuit_model", broken)
    with pytest.raises(RuntimeError, match="invalid"):
        solve_cpsat(KnightGraph(Board(5, 5)), TourSpec(start=(0, 0)), time_limit=5)


def test_parameters_pass_through():
    g = KnightGraph(Board(6, 6))
    res = solve_cpsat(g, TourSpec(), time_limit=10, parameters={"log_search_progress": False,
                                                                 "cp_model_presolve": True})
    assert res.found
    with pytest.raises(UnsupportedError, match="no parameter 'nonsense'"):
        solve_cpsat(g, TourSpec(), parameters={"nonsense": 1})
    with pytest.raises(UnsupportedError, match="num_workers"):
        solve_cpsat(g, TourSpec(), num_workers=0)
    res = solve_cpsat(g, TourSpec(closed=True), time_limit=10, num_workers=2)
    assert res.found and res.stats["num_workers"] == 2


def test_one_worker_is_reproducible():
    g = KnightGraph(Board(8, 8))
    a = solve_cpsat(g, TourSpec(closed=True), seed=7, time_limit=20)
    b = solve_cpsat(g, TourSpec(closed=True), seed=7, time_limit=20)
    assert a.found and a.tour == b.tour
    tours = {tuple(solve_cpsat(g, TourSpec(closed=True), seed=s, time_limit=20).tour.squares) for s in range(6)}
    assert len(tours) > 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), closed=st.booleans(), fix=st.sampled_from(["none", "start", "end", "both"]))
def test_random_holed_boards_cpsat_proofs_and_exhaustive_agree(seed, closed, fix):
    rng = np.random.default_rng(seed)
    b = random_board(rng, 2, 6, 0.4)
    g = KnightGraph(b)
    n = b.n_squares
    coords = [tuple(int(x) for x in b.coords_of([i])[0]) for i in range(n)]
    s = coords[int(rng.integers(n))] if fix in ("start", "both") else None
    e = coords[int(rng.integers(n))] if fix in ("end", "both") else None
    if closed and s is not None and s == e:
        e = None
    spec = TourSpec(closed, s, e)
    res = solve(b, method="cpsat", closed=closed, start=s, end=e, presolve_proofs=False, seed=3, time_limit=30)
    assert res.status is not Status.UNKNOWN
    q = quick_proof(g, spec)
    m = matching_proof(g, spec)
    if res.found:
        assert q is None and m is None
    if n <= 20:
        ref = exhaustive_tour(g, spec)
        assert (ref is not None) == res.found, (b, spec)
        if ref is not None:
            validate(b, ref, closed=closed, start=s, end=e)


@pytest.mark.parametrize("board, kw", [("7x7", dict(closed=True)), ("9x9", dict(closed=True)),
                                       (Board(8, 8, [(0, 0), (7, 7)]), dict()), ("6x6", dict(start="a1", end="f6")),
                                       ("7x7", dict(start="b1"))])
def test_colour_parity_is_seen_by_cpsat_alone(board, kw):
    """The redundant colour counts let CP-SAT refute these at once (without them: seconds to minutes)."""
    res = run(board, time_limit=20, **kw)
    assert res.status is Status.INFEASIBLE and res.stats["branches"] < 1000


def test_colour_counts_are_added_exactly_when_colour_parity_fails():
    from ktsolve.models.cpsat_run import colours_allow
    from ktsolve.proofs import colour_proof

    rng = np.random.default_rng(17)
    for _ in range(300):
        b = random_board(rng, 1, 7, 0.4)
        g = KnightGraph(b)
        n = b.n_squares
        coords = [tuple(int(x) for x in b.coords_of([i])[0]) for i in range(n)]
        for spec in (TourSpec(True), TourSpec(False), TourSpec(False, coords[int(rng.integers(n))], None),
                     TourSpec(False, coords[int(rng.integers(n))], coords[int(rng.integers(n))])):
            assert colours_allow(g, spec) == (colour_proof(g, spec) is None), (b, spec)
