"""Exact and greedy knowledge seeds the colonies: seed_with lays Warnsdorff walks or exact tours of other boards.

The rule under test: the seeding never hands a colony a finished tour of the
question it answers.  Warnsdorff walks that would answer it are left out;
exact tours come from the board without its holes or from the two halves
of a full board, and a path that would still answer the question is cut.
"""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, MethodInfo, SolveResult, Status, TourSpec, solve
from ktsolve.errors import UnsupportedError
from ktsolve.heuristics._seeding import WARNSDORFF_WALKS, answers, seed_paths
from ktsolve.registry import method_info, register_method, reset_methods, unregister_method
from ktsolve.solve import enumerate_tours
from ktsolve.tour import Tour, validate


def _double(name, answer, calls, proves=True):
    def func(graph, spec, *, seed=None, time_limit=None, progress=None):
        calls.append((graph.board, spec))
        return answer(graph, spec)

    return MethodInfo(name=name, family="exact", summary="test double", func=func, proves=proves)


@pytest.fixture
def registry():
    yield lambda info: register_method(info, replace=True)
    reset_methods()


def _covers(graph, paths):
    """Every square on at most one path, every step a move."""
    seen = np.concatenate(paths)
    assert len(set(seen.tolist())) == len(seen)
    for p in paths:
        validate(graph.board, p, complete=False)


@pytest.mark.parametrize("method", ["aco", "iaco"])
def test_seed_with_warnsdorff_lays_greedy_walks(method):
    extra = {"degree": "free"} if method == "iaco" else {}
    res = solve("8x8", method, seed=5, start="a1", seed_with="warnsdorff", cycles=500, **extra)
    st = res.stats
    assert res.status is Status.FOUND
    assert st["seeded_with"] == "warnsdorff" and st["seed_source"] == f"{WARNSDORFF_WALKS} Warnsdorff walks"
    assert st["seed_paths"] + st["seed_walks_left_out"] == WARNSDORFF_WALKS
    assert st["seeded_moves"] > 0


def test_warnsdorff_walks_never_answer_the_question():
    graph = KnightGraph(Board(8, 8))
    for spec in (TourSpec(), TourSpec(start=(7, 0)), TourSpec(closed=True), TourSpec(start=(0, 3), end=(7, 7))):
        paths, info = seed_paths(graph, spec, "warnsdorff", seed=3)
        assert info["seed_walks_left_out"] + len(paths) == WARNSDORFF_WALKS
        assert not any(answers(graph, spec, p) for p in paths)
        for p in paths:
            validate(graph.board, p, complete=False)
    # on 8x8 greedy walks from the corners finish, so an open question leaves some out
    _, info = seed_paths(graph, TourSpec(), "warnsdorff", seed=3)
    assert info["seed_walks_left_out"] > 0


def test_exact_seeds_of_a_holed_board_come_from_the_board_without_holes(registry):
    calls = []
    real_divide = method_info("divide").load()
    registry(_double("divide", lambda g, s: real_divide(g, s), calls))
    board = Board(8, 8, holes=[(3, 3), (4, 4)])
    graph = KnightGraph(board)
    paths, info = seed_paths(graph, TourSpec(), "exact", seed=1)
    assert calls and all(b == Board(8, 8) and b.is_full for b, _ in calls)
    assert info["seed_source"] == "divide tour of the 8x8 board without its holes"
    _covers(graph, paths)
    assert sum(len(p) for p in paths) == graph.n  # cut at the two holes, nothing lost
    assert not any(answers(graph, TourSpec(), p) for p in paths)


def test_exact_seeds_of_a_full_board_are_tours_of_its_halves(registry):
    calls = []
    registry(_double("cpsat", lambda g, s: solve(g.board, "backtrack", closed=s.closed, seed=1), calls))
    unregister_method("divide")
    board = Board(6, 8)
    graph = KnightGraph(board)
    paths, info = seed_paths(graph, TourSpec(closed=True), "exact", seed=1)
    assert sorted({(b.rows, b.cols) for b, _ in calls}) == [(6, 4)]
    assert len(paths) == 2 and info["seed_source"].startswith("tours of the two halves")
    _covers(graph, paths)
    assert [len(p) for p in paths] == [24, 24]


def test_a_seed_path_that_answers_the_question_is_cut():
    """6x6 minus a1: the full board's closed tour cut at the hole covers all 35 squares; it is cut in two."""
    board = Board(6, 6, holes=[(5, 0)])
    graph = KnightGraph(board)
    paths, info = seed_paths(graph, TourSpec(), "exact", seed=1)
    assert info["seed_paths_cut"] == 1 and len(paths) == 2
    assert not any(answers(graph, TourSpec(), p) for p in paths)
    _covers(graph, paths)


def test_exact_source_without_a_tour_runs_unseeded(registry):
    calls = []
    registry(_double("divide", lambda g, s: SolveResult(Status.UNKNOWN, stats={"reason": "x"}), calls))
    registry(_double("cpsat", lambda g, s: SolveResult(Status.UNKNOWN, stats={"reason": "x"}), calls))
    res = solve(Board(6, 6, holes=[(0, 0), (0, 5)]), "aco", seed=4, seed_with="exact", cycles=50)
    assert calls and res.stats["seed_paths"] == 0 and "seeded_moves" not in res.stats
    assert res.stats["seed_source"].startswith("no exact tour")


def test_seed_with_in_enumeration():
    res = enumerate_tours("6x6", "aco", cycles=20, seed=1, start="a1", seed_with="warnsdorff")
    assert res.stats["seeded_with"] == "warnsdorff" and res.stats["seeded_moves"] > 0


def test_seed_with_errors(registry):
    with pytest.raises(UnsupportedError, match="seed_with must be one of"):
        solve("6x6", "aco", seed=1, seed_with="magic")
    with pytest.raises(UnsupportedError, match="no parameter 'seed_with'"):
        solve("6x6", "ga", seed=1, seed_with="warnsdorff")
    tour = Tour(Board(6, 6), np.arange(36))
    with pytest.raises(UnsupportedError, match="not both"):
        solve("6x6", "aco", seed=1, seed_with="warnsdorff", seed_tour=tour)
    unregister_method("divide")
    unregister_method("cpsat")
    with pytest.raises(UnsupportedError, match="needs method 'divide' or 'cpsat'"):
        solve("6x6", "aco", seed=1, seed_with="exact")


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


def test_seed_with_exact_on_a_holed_board():
    board = Board(6, 6, holes=[(0, 0), (0, 5)])
    res = solve(board, "iaco", seed=2, start="b6", seed_with="exact", cycles=200, degree="free")
    st = res.stats
    assert st["seed_source"] == "divide tour of the 6x6 board without its holes"
    assert st["seeded_moves"] == board.n_squares - st["seed_paths"]
    assert res.status is Status.FOUND
