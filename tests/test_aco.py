"""Hingston & Kendall's ant colony: kernel against the plain-Python reference, behaviour, budgets."""

from __future__ import annotations

import numpy as np
import pytest

import naive_colonies as naive
from conftest import load_oracle
from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import InvalidTourError, UnsupportedError
from ktsolve.heuristics import _colony
from ktsolve.heuristics.aco import TAU_MIN, enumerate_aco, solve_aco
from ktsolve.heuristics._colony_kernels import aco_cycles as _aco_cycles, walk as _walk
from ktsolve.heuristics._colony import seed_state, walk_arrays

BOARDS = [Board(5, 5), Board(6, 6, holes=[(0, 0), (5, 5)]), Board(3, 4), Board(5, 6, holes=[(2, 2)])]


def _table(graph):
    return [[int(v) for v in row] + [-1] * (8 - len(row)) for row in graph.table]


def _kernel(graph, tau, starts, cycles, seed, *, alpha=1.0, rho=0.25, q=1.0, closed=False, end=-1):
    tpad, full, rev = walk_arrays(graph)
    tau = np.array(tau, dtype=np.float64)
    weight = tau if alpha == 1.0 else np.maximum(tau**alpha, TAU_MIN)
    out = np.empty((len(starts) * cycles, graph.n), dtype=np.int32)
    counts = np.zeros(5, dtype=np.int64)
    done, n_out = _aco_cycles(tpad, full, rev, tau, weight, alpha, rho, q, TAU_MIN,
                              np.asarray(starts, dtype=np.int32), cycles, seed_state(seed), closed, end,
                              False, out, counts)
    assert done == cycles
    return tau, out[:n_out].tolist(), counts


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: f"{b.rows}x{b.cols}h{b.n_holes}")
@pytest.mark.parametrize("alpha", [1.0, 2.0])
def test_kernel_matches_reference(board, alpha):
    graph = KnightGraph(board)
    rng = np.random.default_rng(board.n_squares)
    tau0 = rng.uniform(0.05, 1.0, size=(graph.n, 8))
    starts = list(range(graph.n))
    tau, tours, counts = _kernel(graph, tau0, starts, 6, 12345, alpha=alpha)
    rtau, rtours, rcounts = naive.aco(_table(graph), tau0.tolist(), starts, 6, 12345, alpha=alpha)
    assert tours == rtours
    assert counts[:3].tolist() == rcounts
    assert np.array_equal(tau, np.array(rtau))


def test_kernel_closed_only_matches_reference():
    graph = KnightGraph(Board(6, 6))
    tau0 = np.full((graph.n, 8), 1e-6)
    starts = list(range(graph.n))
    tau, tours, counts = _kernel(graph, tau0, starts, 40, 7, closed=True)
    rtau, rtours, rcounts = naive.aco(_table(graph), tau0.tolist(), starts, 40, 7, closed=True)
    assert tours == rtours and counts[:3].tolist() == rcounts
    assert np.array_equal(tau, np.array(rtau))
    assert counts[1] > counts[2]  # complete walks counted, only closed ones kept


def test_deposit_rule_by_hand():
    """One ant, one cycle, no evaporation: move i of a walk of L moves gains Q (L - i) / (N - 1 - i)."""
    graph = KnightGraph(Board(5, 5))
    n = graph.n
    tpad, full, rev = walk_arrays(graph)
    tau = np.full((n, 8), 1.0)
    avail = np.empty(n + 1, np.uint8)
    path = np.empty(n, np.int32)
    moves = np.empty(n, np.int32)
    lengths = set()
    for seed in range(40):
        length = _walk(tpad, full, rev, tau, 12, avail, path, moves, np.empty(8), seed_state(seed))
        expect = np.zeros((n, 8))
        for i in range(length):
            expect[path[i], moves[i]] += 2.0 * (length - i) / (n - 1 - i)
        after, _, _ = _kernel(graph, tau, [12], 1, seed, rho=0.0, q=2.0)
        assert np.allclose(after - 1.0, expect, rtol=0, atol=1e-12)
        lengths.add(length)
    assert len(lengths) > 3  # walks of several lengths were checked


def test_walk_never_revisits_and_stops_only_when_stuck():
    graph = KnightGraph(Board(7, 7, holes=[(3, 3)]))
    n = graph.n
    tpad, full, rev = walk_arrays(graph)
    avail = np.empty(n + 1, np.uint8)
    path = np.empty(n, np.int32)
    moves = np.empty(n, np.int32)
    for seed in range(30):
        length = _walk(tpad, full, rev, np.ones((n, 8)), seed % n, avail, path, moves, np.empty(8),
                       seed_state(seed))
        p = path[: length + 1]
        assert len(set(p.tolist())) == length + 1
        validate(graph.board, p, complete=False)
        nb = graph.neighbours(int(p[-1]))
        assert set(nb.tolist()) <= set(p.tolist())


def test_chunking_does_not_change_a_run(monkeypatch):
    graph = KnightGraph(Board(6, 6))
    a = enumerate_aco(graph, TourSpec(), cycles=60, seed=3)
    monkeypatch.setattr(_colony, "STEPS_PER_CHUNK", 1)
    b = enumerate_aco(graph, TourSpec(), cycles=60, seed=3)
    assert len(b.history) == 60 and len(a.history) < 60
    assert np.array_equal(a.tours, b.tours) and a.stats == b.stats
    assert np.array_equal(a.pheromone, b.pheromone)


def test_same_seed_same_tour_different_seeds_differ():
    tours = [tuple(solve("6x6", "aco", seed=s).tour.squares.tolist()) for s in (1, 1, 2, 3, 4)]
    assert tours[0] == tours[1]
    assert len(set(tours[1:])) > 1


@pytest.mark.parametrize("closed,start", [(False, None), (True, None), (False, "a1"), (True, "c3")])
def test_finds_tours_on_6x6(closed, start):
    res = solve("6x6", "aco", closed=closed, start=start, seed=5, cycles=400)
    assert res.status is Status.FOUND
    validate(res.board, res.tour, closed=closed, start=start)
    assert res.stats["walks_to_first"] <= res.stats["walks"]


def test_fixed_end_only_filters():
    """An end square filters tours without changing the run: the first tour of a run is found again."""
    free = solve("5x5", "aco", start="a5", seed=2, cycles=2000)
    end = free.tour.names()[-1]
    res = solve("5x5", "aco", start="a5", end=end, seed=2, cycles=2000)
    assert res.status is Status.FOUND and res.tour == free.tour
    assert res.stats["walks_to_first"] == free.stats["walks_to_first"]


@pytest.mark.parametrize("case", [c for c in load_oracle("holed.json")["cases"] if c["exists"]],
                         ids=lambda c: f"{c['board']}-{c['holes']}-{c['kind']}")
def test_holed_boards_with_tours(case):
    board = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
    start = tuple(case["start"]) if "start" in case else None
    res = solve(board, "aco", closed=case["kind"] == "closed", start=start, seed=1, cycles=3000)
    assert res.status is Status.FOUND, res.stats
    validate(board, res.tour, closed=case["kind"] == "closed", start=start)


@pytest.mark.parametrize("case", [c for c in load_oracle("holed.json")["cases"] if not c["exists"]],
                         ids=lambda c: f"{c['board']}-{c['holes']}-{c['kind']}")
def test_never_a_tour_where_none_exists(case):
    board = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
    spec = TourSpec(closed=case["kind"] == "closed", start=tuple(case["start"]) if "start" in case else None)
    res = solve_aco(KnightGraph(board), spec, seed=1, cycles=200)
    assert res.status is Status.UNKNOWN and res.tour is None
    res = solve(board, "aco", closed=spec.closed, start=spec.start, seed=1, cycles=200)
    assert res.status is not Status.FOUND


@pytest.mark.parametrize("board,closed", [("4x4", False), ("5x5", True), ("3x6", False)])
def test_impossible_full_boards(board, closed):
    b = Board.from_spec(board)
    res = solve_aco(KnightGraph(b), TourSpec(closed=closed), seed=2, cycles=300)
    assert res.status is Status.UNKNOWN and "300 cycles" in res.stats["reason"]
    assert solve(b, "aco", closed=closed, seed=2, cycles=300).status is not Status.FOUND


def test_parity_failing_holed_board_is_proved_first():
    res = solve(Board(6, 6, holes=[(0, 0), (0, 2)]), "aco", seed=1)
    assert res.status is Status.INFEASIBLE and res.proof.argument == "colour parity"


def test_time_limit_ends_in_unknown():
    res = solve("40x40", "aco", seed=1, time_limit=0.05, cycles=10**6)
    assert res.status in (Status.UNKNOWN, Status.FOUND)
    if res.status is Status.UNKNOWN:
        assert "time limit" in res.stats["reason"]


@pytest.mark.parametrize("params", [{"rho": 1.0}, {"rho": -0.1}, {"q": 0}, {"alpha": -1}, {"cycles": -5},
                                    {"ants": 0}, {"tau0": 0.0}, {"cycles": 2.5}])
def test_bad_parameters(params):
    with pytest.raises(UnsupportedError):
        solve("5x5", "aco", seed=1, **params)


def test_unknown_parameter():
    with pytest.raises(UnsupportedError, match="no parameter 'beta'"):
        solve("5x5", "aco", beta=2)


def test_seed_tour_lays_pheromone_and_is_checked():
    board = Board(5, 5)
    graph = KnightGraph(board)
    tour = solve(board, "aco", start="a5", seed=1).tour
    res = enumerate_aco(graph, TourSpec(), cycles=0, seed=1, seed_tour=tour.squares, seed_amount=5.0)
    tau = res.pheromone
    sq = tour.squares
    for a, b in zip(sq[:-1], sq[1:]):
        j = int(np.flatnonzero(graph.table[a] == b)[0])
        assert tau[a, j] == pytest.approx(5.0 + 1e-6)
    assert (tau > 1).sum() == len(sq) - 1
    with pytest.raises(InvalidTourError, match="not a move"):
        solve_aco(graph, TourSpec(), seed=1, seed_tour=np.array([0, 1, 2], dtype=np.int32))
    with pytest.raises(InvalidTourError, match="square 99"):
        solve_aco(graph, TourSpec(), seed=1, seed_tour=np.array([0, 99], dtype=np.int32))


def test_enumeration_stats_and_validity():
    graph = KnightGraph(Board(5, 5))
    res = enumerate_aco(graph, TourSpec(start=(0, 0)), cycles=300, seed=4)
    st = res.stats
    assert st["walks"] == 300 * 25
    assert st["distinct"] == len(res.tours) <= st["complete"]
    assert st["production_rate"] == pytest.approx(st["complete"] / st["walks"])
    assert len({tuple(t) for t in res.tours.tolist()}) == len(res.tours)
    for t in res.tours:
        validate(graph.board, t, start=(0, 0))
    assert len(res.tours) <= 304  # directed open tours of 5x5 from a corner (oracle)
