"""Hingston & Kendall's ant colony: kernel against the plain-Python reference, behaviour, budgets."""

from __future__ import annotations

import numpy as np
import pytest

import naive_colonies as naive
from conftest import load_oracle
from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import InvalidParameterError, InvalidTourError, UnsupportedError
from ktsolve.heuristics import _colony
from ktsolve.heuristics.aco import TAU_MIN, enumerate_aco, solve_aco
from ktsolve.heuristics._colony_kernels import ACO_REALS, aco_cycles as _aco_cycles, bundle, walk as _walk
from ktsolve.heuristics._walks import seed_state, walk_arrays

BOARDS = [Board(5, 5), Board(6, 6, holes=[(0, 0), (5, 5)]), Board(3, 4), Board(5, 6, holes=[(2, 2)])]


def _table(graph):
    return [[int(v) for v in row] + [-1] * (8 - len(row)) for row in graph.table]


def _kernel(graph, tau, starts, cycles, seed, *, alpha=1.0, rho=0.25, q=1.0, closed=False, end=-1, ants=None,
            reserve=()):
    tpad, full, rev = walk_arrays(graph)
    tau = np.array(tau, dtype=np.float64)
    weight = tau if alpha == 1.0 else np.maximum(tau**alpha, TAU_MIN)
    ants = len(starts) if ants is None else ants
    out = np.empty((ants * cycles, graph.n), dtype=np.int32)
    counts = np.zeros(6, dtype=np.int64)
    reals, ints = bundle(ACO_REALS, alpha=alpha, rho=rho, q=q, tau_min=TAU_MIN, ants=ants, cycle0=0, cycles=cycles,
                         closed=closed, end=end, first_only=False)
    done, n_out = _aco_cycles(tpad, full, rev, tau, weight, reals, ints, np.asarray(starts, dtype=np.int32),
                              np.asarray(reserve, dtype=np.int32), seed_state(seed), out, counts,
                              np.zeros(graph.n, np.int32), np.array([-2]))
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
        length = _walk(tpad, full, rev, tau, 12, -1, avail, path, moves, np.empty(8), seed_state(seed))
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
        length = _walk(tpad, full, rev, np.ones((n, 8)), seed % n, -1, avail, path, moves, np.empty(8),
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


# ---------------------------------------------------------------------- ranges, starts, kept squares
@pytest.mark.parametrize("params", [{"alpha": float("inf")}, {"alpha": 1e308}, {"q": float("inf")},
                                    {"tau0": float("inf")}, {"q": 1e308}, {"tau0": 1e300}, {"alpha": float("nan")},
                                    {"rho": float("nan")}, {"ants": 10**9}, {"seed_amount": float("inf")},
                                    {"local_search": "posa"}, {"seed_with": "oracle"}])
def test_values_that_could_crash_a_kernel_are_refused(params):
    """alpha=inf, alpha=1e308, q=inf and tau0=inf used to kill the interpreter (issue 14); now one clear error."""
    with pytest.raises(InvalidParameterError, match="method 'aco'"):
        solve("6x6", "aco", seed=1, cycles=5, **params)


def test_cli_refuses_an_infinite_alpha_in_one_line():
    from conftest import invoke

    for value in ("alpha=inf", "alpha=1e308", "q=inf", "tau0=inf"):
        res = invoke(["solve", "8x8", "-m", "aco", "-p", value], code=2)
        assert res.stderr.count("\n") == 1 and "method 'aco'" in res.stderr
    res = invoke(["enumerate", "6x6", "-p", "alpha=inf"], code=2)
    assert res.stderr.count("\n") == 1


@pytest.mark.parametrize("params", [{"alpha": 20.0, "q": 1e6, "tau0": 1e6, "rho": 0.0},
                                    {"alpha": 0.0}, {"alpha": 20.0, "tau0": 1e-300, "q": 1e-300},
                                    {"ants": 1, "rho": 0.999}])
def test_extreme_values_inside_the_ranges_run(params):
    res = enumerate_aco(KnightGraph(Board(6, 6)), TourSpec(), cycles=300, seed=1, **params)
    for t in res.tours:
        validate(res.board, t)
    assert np.isfinite(res.pheromone).all() and (res.pheromone > 0).all()


def test_walk_stays_on_the_board_with_zero_weights():
    """Weights that underflow to zero (a total of 0) still give legal walks: the last candidate is taken.

    Infinite or nan weights cannot reach a walk: every trail and weight is
    capped at TAU_MAX, so eight of them add up to a finite total
    (test_extreme_values_inside_the_ranges_run).
    """
    graph = KnightGraph(Board(6, 6, holes=[(2, 2)]))
    n = graph.n
    tpad, full, rev = walk_arrays(graph)
    avail = np.empty(n + 1, np.uint8)
    path = np.empty(n, np.int32)
    moves = np.empty(n, np.int32)
    for bad in (0.0,):
        weight = np.ones((n, 8))
        weight[::2] = bad
        for seed in range(20):
            length = _walk(tpad, full, rev, weight, seed % n, -1, avail, path, moves, np.empty(8), seed_state(seed))
            validate(graph.board, path[: length + 1], complete=False)


def test_fewer_ants_than_squares_take_the_squares_in_turn_as_the_reference_does():
    graph = KnightGraph(Board(5, 5))
    tau0 = np.full((graph.n, 8), 1e-6)
    starts = list(range(graph.n))
    tau, tours, counts = _kernel(graph, tau0, starts, 30, 9, ants=7)
    rtau, rtours, rcounts = naive.aco(_table(graph), tau0.tolist(), starts, 30, 9, ants=7)
    assert tours == rtours and counts[:3].tolist() == rcounts and np.array_equal(tau, np.array(rtau))
    assert counts[0] == 30 * 7
    res = enumerate_aco(graph, TourSpec(), cycles=25, ants=1, seed=2)
    assert res.stats["walks"] == 25 and res.stats["ants_per_cycle"] == 1


def test_kept_last_square_matches_the_reference():
    """A closed tour from a corner: every ant keeps the corner's other neighbour for its last move."""
    graph = KnightGraph(Board(6, 6))
    start = graph.node("a1")
    keep = [int(v) for v in graph.neighbours(start)[:1]]
    tau0 = np.full((graph.n, 8), 1e-6)
    ants = graph.n
    tau, tours, counts = _kernel(graph, tau0, [start], 150, 4, closed=True, reserve=keep, ants=ants)
    rtau, rtours, rcounts = naive.aco(_table(graph), tau0.tolist(), [start], 150, 4, closed=True, reserve=keep,
                                      ants=ants)
    assert tours == rtours and counts[:3].tolist() == rcounts and np.array_equal(tau, np.array(rtau))
    assert tours and all(t[-1] == keep[0] for t in tours)


@pytest.mark.parametrize("size", [13, 15])
@pytest.mark.parametrize("closed", [False, True])
def test_holed_boards_of_the_improved_colony_paper_from_a1(size, closed):
    """13x13 and 15x15 without the centre, from a1, with the defaults (the paper's budget in cycles)."""
    board = Board(size, size, holes=[(size // 2, size // 2)])
    res = solve(board, "aco", start="a1", closed=closed, seed=1, time_limit=60)
    assert res.status is Status.FOUND, res.stats
    validate(board, res.tour, closed=closed, start="a1")


# ---------------------------------------------------------------------- local search
def test_local_search_repairs_the_best_walk_of_a_cycle():
    board = Board(12, 12, holes=[(5, 5), (6, 7)])
    res = solve(board, "aco", closed=True, start="a1", seed=1, cycles=3, local_search="rotation")
    st = res.stats
    assert res.status is Status.FOUND and st["found_by_repair"] == 1
    assert st["repaired_walks"] >= 1 and st["repaired_longest"] == board.n_squares
    validate(board, res.tour, closed=True, start="a1")


def test_repaired_walk_deposits_its_trail():
    board = Board(10, 10, holes=[(4, 4), (5, 6)])
    graph = KnightGraph(board)
    plain = enumerate_aco(graph, TourSpec(start=(9, 0)), cycles=1, seed=3)
    repaired = enumerate_aco(graph, TourSpec(start=(9, 0)), cycles=1, seed=3, local_search="rotation")
    assert repaired.stats["repaired_walks"] == 1 and repaired.stats["walks"] == plain.stats["walks"]
    assert (repaired.pheromone >= plain.pheromone).all() and (repaired.pheromone > plain.pheromone).any()


def test_same_seed_same_answer_with_both_options():
    board = Board(10, 10, holes=[(4, 4), (5, 6)])
    runs = [solve(board, "aco", start="a1", seed=s, cycles=5, seed_with="exact", local_search="rotation")
            for s in (2, 2, 3)]
    assert runs[0].tour == runs[1].tour and runs[0].stats["walks"] == runs[1].stats["walks"]
