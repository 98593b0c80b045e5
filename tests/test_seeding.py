"""Exact knowledge seeds the colonies: seed_with runs Warnsdorff or the exact side first."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, MethodInfo, SolveResult, Status, solve
from ktsolve.errors import UnsupportedError
from ktsolve.result import Proof
from ktsolve.registry import register_method, reset_methods, unregister_method
from ktsolve.solve import enumerate_tours
from ktsolve.tour import Tour


def _fake(name, answer):
    calls = []

    def func(graph, spec, *, seed=None, time_limit=None, progress=None):
        calls.append(spec)
        return answer(graph, spec)

    return MethodInfo(name=name, family="heuristic", summary="test double", func=func), calls


@pytest.fixture
def registry():
    def install(info):
        register_method(info, replace=True)

    for name in ("warnsdorff", "cpsat", "backtrack"):
        unregister_method(name)
    yield install
    reset_methods()


def _dfs_tour(graph, spec):
    res = solve(graph.board, "dfs", closed=spec.closed, start=spec.start, seed=1, order="12345678")
    return SolveResult(Status.FOUND, tour=res.tour) if res.found else SolveResult(Status.UNKNOWN)


@pytest.mark.parametrize("method", ["aco", "iaco"])
def test_seed_with_lays_the_tour(registry, method):
    info, calls = _fake("warnsdorff", _dfs_tour)
    registry(info)
    res = solve("6x6", method, seed=4, start="a1", seed_with="warnsdorff", cycles=50)
    assert res.status is Status.FOUND
    assert res.stats["seeded_with"] == "warnsdorff" and res.stats["seed_status"] == "found"
    assert res.stats["seeded_moves"] == 35
    assert calls and calls[0].start == (5, 0)


def test_seed_with_exact_prefers_cpsat_and_returns_its_proof(registry):
    proof = Proof("no tour, said the test double", argument="cpsat")
    info, calls = _fake("cpsat", lambda g, s: SolveResult(Status.INFEASIBLE, proof=proof))
    registry(MethodInfo(name="cpsat", family="exact", summary="x", func=info.func, proves=True))
    res = solve("4x4", "aco", seed=1, seed_with="exact", cycles=5)
    assert res.status is Status.INFEASIBLE and res.proof == proof


def test_seed_with_unknown_answer_runs_unseeded(registry):
    info, _ = _fake("warnsdorff", lambda g, s: SolveResult(Status.UNKNOWN, stats={"reason": "x"}))
    registry(info)
    res = solve("6x6", "aco", seed=4, seed_with="warnsdorff", cycles=50)
    assert res.stats["seed_status"] == "unknown" and "seeded_moves" not in res.stats


def test_seed_with_in_enumeration(registry):
    info, _ = _fake("warnsdorff", _dfs_tour)
    registry(info)
    res = enumerate_tours("6x6", "aco", cycles=20, seed=1, start="a1", seed_with="warnsdorff")
    assert res.stats["seeded_with"] == "warnsdorff" and res.stats["seeded_moves"] == 35


def test_seed_with_errors(registry):
    with pytest.raises(UnsupportedError, match="not installed"):
        solve("6x6", "aco", seed=1, seed_with="warnsdorff")
    with pytest.raises(UnsupportedError, match="seed_with must be one of"):
        solve("6x6", "aco", seed=1, seed_with="magic")
    with pytest.raises(UnsupportedError, match="no parameter 'seed_with'"):
        solve("6x6", "ga", seed=1, seed_with="warnsdorff")
    tour = Tour(Board(6, 6), np.arange(36))
    info, _ = _fake("warnsdorff", _dfs_tour)
    registry(info)
    with pytest.raises(UnsupportedError, match="not both"):
        solve("6x6", "aco", seed=1, seed_with="warnsdorff", seed_tour=tour)


def test_seeded_colony_follows_its_seed():
    """A strong seed makes the first ants of an 8x8 colony from the seed's start find tours at once."""
    board = Board(8, 8)
    graph = KnightGraph(board)
    tour = solve(board, "dfs", start="a1", order="12345678", seed=1, nodes=10**8).tour
    plain = solve(board, "aco", start="a1", seed=3, cycles=200)
    seeded = solve(board, "aco", start="a1", seed=3, cycles=200, seed_tour=tour, seed_amount=100.0)
    assert seeded.status is Status.FOUND
    assert seeded.stats["walks_to_first"] <= plain.stats.get("walks_to_first", plain.stats["walks"])
    assert graph.n == 64


@pytest.mark.parametrize("method", ["aco", "iaco"])
def test_seed_with_the_real_warnsdorff(method):
    """With the real Warnsdorff registered, seeding lays a validated tour of the board's squares."""
    res = solve("8x8", method, seed=5, start="a1", seed_with="warnsdorff", cycles=20)
    assert res.stats["seeded_with"] == "warnsdorff" and res.stats["seed_status"] == "found"
    assert res.stats["seeded_moves"] == 63
    assert res.status is Status.FOUND


def test_seed_with_exact_on_a_holed_board():
    board = Board(6, 6, holes=[(0, 0), (0, 5)])
    res = solve(board, "iaco", seed=2, start="b6", seed_with="exact", cycles=20)
    assert res.stats["seed_status"] == "found" and res.stats["seeded_moves"] == board.n_squares - 1
    assert res.status is Status.FOUND
