"""Improved multi-colony ant colony: kernel against the plain-Python reference, sharing, behaviour."""

from __future__ import annotations

import math

import numpy as np
import pytest

import naive_colonies as naive
from conftest import load_oracle
from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import InvalidParameterError, UnsupportedError
from ktsolve.heuristics._walks import seed_state, walk_arrays
from ktsolve.heuristics.iaco import PARAMS, READINGS, enumerate_iaco, f_mean, solve_iaco
from ktsolve.heuristics import _colony_kernels as K
from ktsolve.heuristics._colony_kernels import share as _share

INF = math.inf
BOARDS = [Board(5, 5), Board(6, 6, holes=[(0, 0), (5, 5)]), Board(4, 5, holes=[(1, 1)])]
D = PARAMS.defaults


def _table(graph):
    return [[int(v) for v in row] + [-1] * (8 - len(row)) for row in graph.table]


def _kernel(graph, tau, starts, cycles, seed, *, f=D["f"], share_every=D["share_every"], reading=D["reading"],
            closed=False, ants=None, free=False, reserve=()):
    """The cycle kernel with the declared defaults, as the reference takes them (``ants`` None: the reading's)."""
    tpad, full, rev = walk_arrays(graph)
    deg = np.zeros(graph.n + 1, dtype=np.int32)
    deg[:-1] = graph.degree
    tau = np.array(tau, dtype=np.float64)
    per_colony, mode = READINGS[reading]
    ants = (per_colony or len(starts)) if ants is None else ants
    out = np.empty((ants * cycles * tau.shape[0], graph.n), dtype=np.int32)
    counts = np.zeros(6, dtype=np.int64)
    reals, ints = K.bundle(K.IACO_REALS, rho=D["rho"], deposit=D["deposit"], tau_lo=D["tau_lo"], tau_hi=D["tau_hi"],
                           f=f, ants=ants, cycle0=0, cycles=cycles, closed=closed, end=-1, first_only=False,
                           share_every=share_every, deposit_mode=mode, dynamic=free)
    done, n_out = K.iaco_cycles(tpad, full, rev, deg, tau, reals, ints, np.asarray(starts, dtype=np.int32),
                                np.asarray(reserve, dtype=np.int32), seed_state(seed), out, counts,
                                np.zeros(graph.n, np.int32), np.array([-2]))
    assert done == cycles
    return tau, out[:n_out].tolist(), counts


@pytest.mark.parametrize("board", BOARDS, ids=lambda b: f"{b.rows}x{b.cols}h{b.n_holes}")
@pytest.mark.parametrize("reading", ["edge", "square", "complete"])
@pytest.mark.parametrize("f", [-INF, 1.0, INF])
def test_kernel_matches_reference(board, reading, f):
    graph = KnightGraph(board)
    rng = np.random.default_rng(graph.n)
    tau0 = rng.uniform(0.01, 0.99, size=(2, graph.n, 8))
    starts = list(range(graph.n))
    tau, tours, counts = _kernel(graph, tau0, starts, 7, 99, f=f, share_every=3, reading=reading)
    rtau, rtours, rcounts = naive.iaco(_table(graph), graph.degree.tolist(), tau0.tolist(), starts, 7, 99, f=f,
                                       share_every=3, reading=reading)
    assert tours == rtours
    assert counts[:3].tolist() == rcounts
    assert np.array_equal(tau, np.array(rtau))


@pytest.mark.parametrize("f", [-INF, -2.0, 0.0, 0.5, 1.0, 3.0, INF])
def test_share_is_the_f_mean(f):
    rng = np.random.default_rng(1)
    tau = rng.uniform(0.001, 0.999, size=(3, 10, 8))
    ref = tau.tolist()
    _share(tau, f, 0.001, 0.999)
    naive.share(ref, f, 0.001, 0.999)
    assert np.allclose(tau, np.array(ref), rtol=1e-14, atol=0)
    assert (tau[0] == tau[1]).all() and (tau[1] == tau[2]).all()
    lo, hi = np.array(ref).min(axis=0), np.array(ref).max(axis=0)
    assert (tau[0] >= lo - 1e-15).all() and (tau[0] <= hi + 1e-15).all()


def test_f_mean_limits():
    x = [0.2, 0.4, 0.8]
    assert f_mean(x, -INF) == 0.2 and f_mean(x, INF) == 0.8
    assert f_mean(x, 0) == pytest.approx(0.4)
    assert f_mean(x, 1) == pytest.approx(1.4 / 3)
    assert f_mean(x, -60) == pytest.approx(0.2, rel=0.02) and f_mean(x, 60) == pytest.approx(0.8, rel=0.02)


def test_low_degree_destinations_are_preferred():
    """With equal trails t the first move goes to neighbour d with probability proportional to t ** degree(d)."""
    _powers, _walk = K.powers_degree, K.walk

    graph = KnightGraph(Board(8, 8))
    tpad, full, rev = walk_arrays(graph)
    deg = np.zeros(graph.n + 1, dtype=np.int32)
    deg[:-1] = graph.degree
    start = graph.node("b8")
    nb = graph.neighbours(start)
    assert len(set(graph.degree[nb].tolist())) > 1  # neighbours of several degrees
    weight = np.empty((graph.n, 8))
    _powers(np.full((graph.n, 8), 0.5), tpad, deg, weight)
    expect = {int(d): 0.5 ** int(graph.degree[d]) for d in nb}
    total = sum(expect.values())
    avail = np.empty(graph.n + 1, np.uint8)
    path = np.empty(graph.n, np.int32)
    moves = np.empty(graph.n, np.int32)
    rng = seed_state(11)
    hits = dict.fromkeys(expect, 0)
    trials = 20000
    for _ in range(trials):
        _walk(tpad, full, rev, weight, start, -1, avail, path, moves, np.empty(8), rng)
        hits[int(path[1])] += 1
    for d, w in expect.items():
        assert abs(hits[d] / trials - w / total) < 0.015, (graph.name(d), hits[d] / trials, w / total)


def test_chunking_does_not_change_a_run(monkeypatch):
    from ktsolve.heuristics import _colony

    graph = KnightGraph(Board(6, 6))
    a = enumerate_iaco(graph, TourSpec(), cycles=25, seed=3)
    monkeypatch.setattr(_colony, "STEPS_PER_CHUNK", 1)
    b = enumerate_iaco(graph, TourSpec(), cycles=25, seed=3)
    assert len(b.history) == 25
    assert np.array_equal(a.tours, b.tours) and a.stats == b.stats
    assert np.array_equal(a.pheromone, b.pheromone)


def test_same_seed_same_tour_different_seeds_differ():
    tours = [tuple(solve("6x6", "iaco", seed=s).tour.squares.tolist()) for s in (1, 1, 2, 3, 4)]
    assert tours[0] == tours[1]
    assert len(set(tours[1:])) > 1


@pytest.mark.parametrize("closed,start", [(False, None), (True, None), (False, "a1"), (True, "c3")])
def test_finds_tours_on_6x6(closed, start):
    # the reading and F of earlier versions' default (one ant per square and cycle, C once per used move, the
    # maximum shared); the default reading stalls from a fixed start (test_default_reading_stalls_from_a_fixed_start)
    res = solve("6x6", "iaco", closed=closed, start=start, seed=5, cycles=400, reading="edge", f=INF)
    assert res.status is Status.FOUND
    validate(res.board, res.tour, closed=closed, start=start)


@pytest.mark.parametrize("case", [c for c in load_oracle("holed.json")["cases"] if c["exists"]],
                         ids=lambda c: f"{c['board']}-{c['holes']}-{c['kind']}")
def test_holed_boards_with_tours(case):
    board = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
    start = tuple(case["start"]) if "start" in case else None
    res = solve(board, "iaco", closed=case["kind"] == "closed", start=start, seed=1, cycles=2000)
    assert res.status is Status.FOUND, res.stats
    validate(board, res.tour, closed=case["kind"] == "closed", start=start)


@pytest.mark.parametrize("case", [c for c in load_oracle("holed.json")["cases"] if not c["exists"]],
                         ids=lambda c: f"{c['board']}-{c['holes']}-{c['kind']}")
def test_never_a_tour_where_none_exists(case):
    board = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
    spec = TourSpec(closed=case["kind"] == "closed", start=tuple(case["start"]) if "start" in case else None)
    res = solve_iaco(KnightGraph(board), spec, seed=1, cycles=100)
    assert res.status is Status.UNKNOWN and res.tour is None
    assert solve(board, "iaco", closed=spec.closed, start=spec.start, seed=1, cycles=100).status is not Status.FOUND


@pytest.mark.parametrize("board,closed", [("4x4", False), ("5x5", True), ("3x6", False)])
def test_impossible_full_boards(board, closed):
    b = Board.from_spec(board)
    res = solve_iaco(KnightGraph(b), TourSpec(closed=closed), seed=2, cycles=100)
    assert res.status is Status.UNKNOWN and res.tour is None


@pytest.mark.parametrize("params", [{"colonies": 0}, {"rho": 1.5}, {"tau0": 1.0}, {"tau_lo": 0.0},
                                    {"tau_hi": 1.0}, {"deposit_on": "some"}, {"share_every": -1},
                                    {"f": "max"}, {"deposit": -0.1}])
def test_bad_parameters(params):
    with pytest.raises(UnsupportedError):
        solve("5x5", "iaco", seed=1, **params)


def test_seed_tour_sets_trails_in_every_colony():
    board = Board(5, 5)
    graph = KnightGraph(board)
    tour = solve(board, "iaco", start="a5", seed=1).tour
    res = enumerate_iaco(graph, TourSpec(), cycles=0, seed=1, seed_tour=tour, seed_amount=0.9)
    sq = tour.squares
    for a, b in zip(sq[:-1], sq[1:]):
        j = int(np.flatnonzero(graph.table[a] == b)[0])
        assert (res.pheromone[:, a, j] == 0.9).all()


def test_enumeration_counts():
    graph = KnightGraph(Board(5, 5))
    assert enumerate_iaco(graph, TourSpec(), cycles=50, seed=4).stats["walks"] == 50 * 3  # one ant per colony
    res = enumerate_iaco(graph, TourSpec(), cycles=50, seed=4, reading="square")
    st = res.stats
    assert st["walks"] == 50 * 25 * 3
    assert st["distinct"] == len(res.tours) <= st["complete"]
    for t in res.tours:
        validate(graph.board, t)


# ---------------------------------------------------------------------- the paper's readings
def test_default_is_the_papers_stated_values():
    res = enumerate_iaco(KnightGraph(Board(5, 5)), TourSpec(), cycles=10, seed=1)
    st = res.stats
    assert (st["rho"], st["deposit"], st["share_every"], st["f"], st["colonies"], st["tau0"]) == \
        (0.45, 0.1, 10, -INF, 3, 0.5)
    assert (st["reading"], st["degree"], st["ants_per_cycle"]) == ("ant", "board", 3)


@pytest.mark.parametrize("board", BOARDS[:2], ids=lambda b: f"{b.rows}x{b.cols}h{b.n_holes}")
def test_ant_reading_matches_the_reference(board):
    """One ant per colony and cycle, C on each move it used: the reference with one ant and the sum rule."""
    graph = KnightGraph(board)
    rng = np.random.default_rng(graph.n + 1)
    tau0 = rng.uniform(0.01, 0.99, size=(3, graph.n, 8))
    starts = list(range(graph.n))
    tau, tours, counts = _kernel(graph, tau0, starts, 40, 17, f=-INF, share_every=10, reading="ant")
    rtau, rtours, rcounts = naive.iaco(_table(graph), graph.degree.tolist(), tau0.tolist(), starts, 40, 17, f=-INF,
                                       share_every=10, reading="ant")
    assert tours == rtours and counts[:3].tolist() == rcounts and np.array_equal(tau, np.array(rtau))
    assert counts[0] == 40 * 3


@pytest.mark.parametrize("reserve", [False, True])
def test_free_degree_matches_the_reference(reserve):
    """D counts the destination's unvisited neighbours; a kept last square is never counted."""
    graph = KnightGraph(Board(6, 6))
    start = graph.node("a1")
    keep = [int(graph.neighbours(start)[0])] if reserve else []
    rng = np.random.default_rng(5)
    tau0 = rng.uniform(0.05, 0.95, size=(2, graph.n, 8))
    tau, tours, counts = _kernel(graph, tau0, [start], 30, 8, f=INF, reading="square", ants=4, free=True,
                                 reserve=keep, closed=reserve, share_every=3)
    rtau, rtours, rcounts = naive.iaco(_table(graph), graph.degree.tolist(), tau0.tolist(), [start], 30, 8, f=INF,
                                       reading="square", ants=4, free=True, reserve=keep, closed=reserve,
                                       share_every=3)
    assert tours == rtours and counts[:3].tolist() == rcounts and np.array_equal(tau, np.array(rtau))
    assert counts[1] > 0


def test_square_reading_saturates_and_ant_reading_learns():
    """The sum over one ant per square drives popular trails to the clamp; one ant per cycle keeps them low."""
    graph = KnightGraph(Board(6, 6))
    square = enumerate_iaco(graph, TourSpec(), cycles=30, seed=1, reading="square")
    ant = enumerate_iaco(graph, TourSpec(), cycles=30 * 36, seed=1)
    assert square.stats["walks"] == ant.stats["walks"]
    assert np.median(square.pheromone[square.pheromone > 0.01]) > 0.9
    assert ant.pheromone.max() <= 0.5 * 1.001  # 0.5 at most: the initial trail decays, a deposit adds 0.1
    assert ant.stats["distinct"] > square.stats["distinct"]


@pytest.mark.parametrize("size", [13, 15])
@pytest.mark.parametrize("closed", [False, True])
def test_free_degree_finds_the_papers_holed_boards_from_a1(size, closed):
    board = Board(size, size, holes=[(size // 2, size // 2)])
    res = solve(board, "iaco", start="a1", closed=closed, seed=1, degree="free", time_limit=60)
    assert res.status is Status.FOUND, res.stats
    validate(board, res.tour, closed=closed, start="a1")


def test_default_reading_stalls_from_a_fixed_start():
    """From one square, one walk per colony and cycle is memorised and repeated: the colony stops exploring."""
    res = enumerate_iaco(KnightGraph(Board(6, 6)), TourSpec(start=(3, 2)), cycles=3000, seed=1)
    tail = res.history[-1][1] - res.history[len(res.history) // 2][1]
    assert res.stats["mean_walk_moves"] > 30 and tail > 0
    assert res.history[-1][3] == res.history[len(res.history) // 2][3]  # no new tour in the second half


@pytest.mark.parametrize("params", [{"f": float("nan")}, {"f": 1e308}, {"reading": "sum"}, {"degree": "dynamic"},
                                    {"colonies": 1000}, {"deposit": float("inf")}, {"rho": float("inf")},
                                    {"ants": 10**9}, {"tau_lo": float("inf")}])
def test_out_of_range_values_are_refused(params):
    with pytest.raises(InvalidParameterError, match="method 'iaco'"):
        solve("6x6", "iaco", seed=1, cycles=5, **params)


def test_infinite_f_is_the_max_and_min():
    for f in (INF, -INF):
        res = enumerate_iaco(KnightGraph(Board(5, 5)), TourSpec(), cycles=30, seed=1, f=f)
        assert res.stats["f"] == f
