"""Naive depth-first search: exact counts against a recursive reference and the oracles."""

from __future__ import annotations

import sys

import numpy as np
import pytest

from conftest import load_oracle
from ktsolve import Board, KnightGraph, Status, TourSpec, solve, validate
from ktsolve.errors import InvalidParameterError, UnsupportedError
from ktsolve.heuristics import dfs as dfs_mod
from ktsolve.heuristics.dfs import dfs_count, move_order, solve_dfs


def reference(graph, start, order, closed=False):
    """Recursive DFS in move order: (leaves, tours in the order found)."""
    table = graph.table
    n = graph.n
    leaves = 0
    tours = []
    path = [start]
    seen = {start}
    sys.setrecursionlimit(max(1000, 4 * n))

    def go(s):
        nonlocal leaves
        if len(path) == n:
            leaves += 1
            if not closed or path[0] in table[s]:
                tours.append(list(path))
            return
        nxt = [int(table[s, j]) for j in order if j < table.shape[1] and table[s, j] >= 0]
        nxt = [d for d in nxt if d not in seen]
        if not nxt and len(path) > 1:
            leaves += 1
            return
        for d in nxt:
            path.append(d)
            seen.add(d)
            go(d)
            seen.discard(d)
            path.pop()

    go(start)
    return leaves, tours


@pytest.mark.parametrize("board,start,order", [
    pytest.param(Board(5, 5), (0, 0), "12345678", marks=pytest.mark.slow),
    pytest.param(Board(5, 5), (2, 2), "87654321", marks=pytest.mark.slow),
    (Board(4, 5), (0, 0), "35172846"),
    (Board(4, 5), (1, 2), "12345678"),
    (Board(3, 8), (0, 0), "87654321"),
    (Board(5, 5, holes=[(0, 2), (1, 0), (1, 4), (3, 1), (4, 0), (4, 3), (4, 4)]), (0, 0), "12345678"),
    (Board(3, 7), (1, 0), "21436587"),
])
def test_counts_match_reference(board, start, order):
    graph = KnightGraph(board)
    st = dfs_count(graph, TourSpec(start=start), nodes=10**9, order=order, keep=10**6)
    leaves, tours = reference(graph, board.index(*start), move_order(order, None).tolist())
    assert st["exhausted"] and st["attempts"] == leaves
    assert [t.tolist() for t in st["found"]] == tours
    assert st["tours"] == len(tours)


def test_chunked_search_equals_one_call(monkeypatch):
    graph = KnightGraph(Board(5, 5))
    a = dfs_count(graph, TourSpec(start=(0, 0)), nodes=10**9, order="12345678", keep=1000)
    monkeypatch.setattr(dfs_mod, "CHUNK_NODES", 37)
    b = dfs_count(graph, TourSpec(start=(0, 0)), nodes=10**9, order="12345678", keep=1000)
    assert a["attempts"] == b["attempts"] and a["nodes"] == b["nodes"]
    assert [t.tolist() for t in a["found"]] == [t.tolist() for t in b["found"]]


def test_5x5_corner_counts_the_oracle(counts_oracle):
    want = {tuple(c["start"]): c["value"] for c in counts_oracle["per_start"] if c["board"] == [5, 5]}
    graph = KnightGraph(Board(5, 5))
    for start, value in want.items():
        st = dfs_count(graph, TourSpec(start=start), nodes=10**9, seed=3)
        assert st["exhausted"] and st["tours"] == value, start


@pytest.mark.slow
def test_5x5_all_starts_count_1728():
    st = dfs_count(KnightGraph(Board(5, 5)), TourSpec(), nodes=10**9, seed=1)
    assert st["exhausted"] and st["tours"] == 1728


def test_holed_oracle_tours_from_start():
    for case in load_oracle("holed.json")["cases"]:
        if "tours_from_start" not in case:
            continue
        board = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
        st = dfs_count(KnightGraph(board), TourSpec(start=tuple(case["start"])), nodes=10**9, seed=1)
        assert st["exhausted"] and st["tours"] == case["tours_from_start"], case


def test_closed_and_end_filters():
    graph = KnightGraph(Board(6, 6))
    res = solve_dfs(graph, TourSpec(closed=True, start=(0, 0)), order="12345678")
    assert res.status is Status.FOUND
    validate(graph.board, res.tour, closed=True, start=(0, 0))
    res = solve("5x5", "dfs", start="a5", end="e1", seed=1)
    if res.status is Status.FOUND:
        assert res.tour.names()[-1] == "e1"
    else:
        assert res.stats["exhausted"]


def test_same_seed_same_order_different_seeds_differ():
    runs = [solve("5x5", "dfs", start="a5", seed=s) for s in (1, 1, 2, 3, 4)]
    assert runs[0].stats["order"] == runs[1].stats["order"] and runs[0].tour == runs[1].tour
    assert len({tuple(r.tour.squares.tolist()) for r in runs[1:]}) > 1


@pytest.mark.parametrize("board,closed", [("4x4", False), ("3x6", False), ("3x5", False)])
def test_impossible_boards_end_unknown_and_exhausted(board, closed):
    b = Board.from_spec(board)
    res = solve_dfs(KnightGraph(b), TourSpec(closed=closed), seed=1)
    assert res.status is Status.UNKNOWN and res.tour is None and res.stats["exhausted"]
    assert solve(b, "dfs", seed=1).status is not Status.FOUND


@pytest.mark.parametrize("board,closed", [(Board(5, 5), True), (Board(6, 6, holes=[(0, 0), (0, 2)]), False)])
def test_parity_impossible_boards_never_give_a_tour(board, closed):
    res = solve_dfs(KnightGraph(board), TourSpec(closed=closed), seed=1, nodes=300_000)
    assert res.status is Status.UNKNOWN and res.tour is None
    assert solve(board, "dfs", closed=closed, seed=1, nodes=300_000).status is Status.INFEASIBLE


def test_budget_and_time_limit():
    res = solve("8x8", "dfs", start="a1", seed=1, nodes=10_000)
    assert res.status is Status.UNKNOWN and res.stats["nodes"] == 10_000
    res = solve("8x8", "dfs", start="a1", order="12345678", time_limit=0.01, nodes=10**12)
    assert res.status in (Status.UNKNOWN, Status.FOUND)


@pytest.mark.parametrize("params", [{"order": "1234567"}, {"order": "11345678"}, {"nodes": -1}])
def test_bad_parameters(params):
    with pytest.raises(UnsupportedError):
        solve("5x5", "dfs", seed=1, **params)


def test_move_order_from_seed_is_a_permutation():
    for seed in range(5):
        assert sorted(move_order(None, seed).tolist()) == list(range(8))
    assert np.array_equal(move_order(None, 4), move_order(None, 4))


# ---------------------------------------------------------------------- enumeration, Warnsdorff's order
def reference_warnsdorff(graph, start):
    """Recursive DFS trying moves by fewest unvisited onward squares, ties in move order: (leaves, tours)."""
    table = graph.table
    n = graph.n
    leaves = 0
    tours = []
    path = [start]
    seen = {start}

    def free(d):
        return sum(1 for e in table[d] if e >= 0 and e not in seen)

    def go(s):
        nonlocal leaves
        if len(path) == n:
            leaves += 1
            tours.append(list(path))
            return
        nxt = [int(d) for d in table[s] if d >= 0 and d not in seen]
        if not nxt and len(path) > 1:
            leaves += 1
            return
        for d in sorted(nxt, key=lambda d: (free(d), list(table[s]).index(d))):
            path.append(d)
            seen.add(d)
            go(d)
            seen.discard(d)
            path.pop()

    go(start)
    return leaves, tours


@pytest.mark.parametrize("board,start", [pytest.param(Board(5, 5), (0, 0), marks=pytest.mark.slow),
                                          (Board(4, 5), (1, 2)), (Board(3, 7), (1, 0)),
                                          (Board(5, 5, holes=[(0, 2), (1, 0)]), (0, 0))])
def test_warnsdorff_order_matches_reference(board, start):
    graph = KnightGraph(board)
    st = dfs_count(graph, TourSpec(start=start), nodes=10**9, order="warnsdorff", keep=10**6)
    leaves, tours = reference_warnsdorff(graph, board.index(*start))
    assert st["exhausted"] and st["attempts"] == leaves
    assert [t.tolist() for t in st["found"]] == tours


def test_enumerate_dfs_counts_every_tour_and_keeps_some():
    from ktsolve.solve import enumerate_tours

    res = enumerate_tours("5x5", "dfs", order="12345678", keep=100, seed=1)
    st = res.stats
    assert st["tours"] == st["distinct"] == 1728 and len(res.tours) == 100 and st["stopped"] == "exhausted"
    assert st["start_squares"] >= 1 and st["tours_per_start"] == pytest.approx(1728 / 25)
    with pytest.raises(InvalidParameterError, match="no cycles"):
        enumerate_tours("5x5", "dfs", cycles=3)


def test_attempts_per_start_is_hingston_and_kendalls_protocol():
    graph = KnightGraph(Board(6, 6))
    st = dfs_count(graph, TourSpec(), attempts_per_start=1000, order="12345678", seed=1)
    assert st["starts_searched"] == 36 and st["attempts"] == 36 * 1000 and st["stopped"] == "attempts"
    assert not st["exhausted"]
