"""Splice's window step with a choice of solver: CP-SAT's exact model or an ant colony (issue 18, item 2)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import invoke
from ktsolve import Board, KnightGraph, TourSpec
from ktsolve.driver import Deadline
from ktsolve.errors import InvalidParameterError
from ktsolve.generate import random_holed_board
from ktsolve.heuristics.splice import colony_window as W
from ktsolve.heuristics.splice import repairs
from ktsolve.heuristics.splice import window as SW
from ktsolve.heuristics.splice import solve_splice
from ktsolve.heuristics.splice.pieces import piece_boxes
from splice_helpers import build_links, job, merge_pieces, restore_factor, window_clock
from ktsolve.tour import validate


@pytest.fixture(scope="module")
def board():
    """300x300 with 5% holes, seed 3: the exchanges leave pieces, so splice re-solves windows."""
    return random_holed_board(300, 300, 0.05, closed=True, seed=3)


def _check(board, res):
    assert res.status.value == "found", res.stats
    validate(board, res.tour, closed=True)


def _merged(board):
    """Links and pieces of ``board`` after the exchanges, before the repairs: what the window step gets."""
    rows, cols = board.rows, board.cols
    links, alive = build_links(board)
    restore_factor(links, alive, rows, cols, free_ends=0)
    return links, alive, merge_pieces(links, alive, rows, cols)


def _windows_step(board, method, seed):
    links, alive, state = _merged(board)
    before = state.pieces
    after, counts = SW.repair_windows(job(links, alive, board.rows, board.cols, method=method, seed=seed), state, 0)
    live = alive.astype(bool)
    assert ((links[live] >= 0).sum(axis=1) == 2).all()  # still a 2-factor
    assert after.pieces <= before - counts["windows"]
    return links, counts


@pytest.mark.parametrize("method", W.WINDOW_METHODS)
def test_each_window_method_runs_the_window_step(board, method):
    # ruin and recreate comes first in splice's repairs and joins most pieces of this board, so the
    # window step is run on its own, on the pieces the exchanges leave
    _, stats = _windows_step(board, method, 5)
    assert stats["windows_tried"] >= 1


def _windows_only(monkeypatch):
    """Switch off the repairs that come before the windows (reroutes, rotations, kicks, ruin and recreate)."""
    keep = tuple(st for st in repairs.REPAIRS if st.name in ("windows", "free windows"))
    monkeypatch.setattr(repairs, "REPAIRS", keep)


@pytest.mark.parametrize("method", W.WINDOW_METHODS)
def test_each_window_method_gives_a_validated_tour(method, board, monkeypatch):
    # the reroutes join every piece of the boards tried (300 and 400 squares a side, 5-10 % holes), so
    # the window step is reached here with the earlier repairs switched off
    _windows_only(monkeypatch)
    res = solve_splice(KnightGraph(board), TourSpec(closed=True), window_method=method, seed=5)
    _check(board, res)
    assert res.stats["windows_tried"] >= 1
    assert res.seed == (None if method == "cpsat" else 5)


def test_the_default_is_cpsat_and_solves_windows(board):
    res = solve_splice(KnightGraph(board), TourSpec(closed=True))
    _check(board, res)
    assert res.seed is None
    assert _windows_step(board, "cpsat", None)[1]["windows"] >= 1


def test_a_colony_solves_a_window_here(board):
    # iaco (free degree) solves windows of this board with seed 6 (the first turn's seed derived from it)
    assert _windows_step(board, "iaco", 6)[1]["windows"] >= 1


def test_through_solve_and_its_parameters(board):
    from ktsolve import solve

    res = solve(board, method="splice", closed=True, seed=5, window_method="aco")
    assert res.found and res.seed == 5


def test_a_seed_repeats_the_windows_and_seeds_differ(board):
    # iaco solves windows of this board (each well inside its walks, so the time cap plays no part)
    (a, sa), (b, _), (c, sc) = (_windows_step(board, "iaco", s) for s in (6, 6, 2))
    assert sa["windows"] >= 1 and sc["windows"] >= 1
    assert np.array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("method", ["aco", "iaco"])
def test_each_colony_re_solves_a_small_window_of_a_full_board(method):
    # a 4x4 window of divide's tour of a 20x20 board: the colonies solve it (5x5 and larger: neither does)
    board = Board(20, 20)
    links, alive = build_links(board)
    before = links.copy()
    assert SW.repair_window(links, alive, 20, 20, 6, 10, 6, 10, clock=window_clock(), method=method, seed=1)
    r, c = np.divmod(np.arange(400), 20)
    outside = ~((r >= 6) & (r < 10) & (c >= 6) & (c < 10))
    assert np.array_equal(links[outside], before[outside])
    assert ((links >= 0).sum(axis=1) == 2).all()
    assert merge_pieces(links, alive, 20, 20).pieces == 1


@pytest.mark.parametrize("bad", ["ga", "CPSAT", "", 3, None])
def test_an_unknown_window_method_is_refused(bad):
    board = random_holed_board(20, 20, 0.02, closed=True, seed=1)
    with pytest.raises(InvalidParameterError, match="window_method must be one of cpsat, aco, iaco"):
        solve_splice(KnightGraph(board), TourSpec(closed=True), window_method=bad)
    assert issubclass(InvalidParameterError, ValueError)


def test_the_command_line_refuses_an_unknown_window_method():
    res = invoke(["solve", "12x12", "--holes", "a1,b1", "--closed", "-m", "splice", "-p", "window_method=ga"], code=2)
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "window_method" in lines[0]


def test_the_command_line_takes_a_window_method():
    res = invoke(["solve", "12x12", "--holes", "a1,b1", "--closed", "-m", "splice", "-p", "window_method=iaco",
                  "--seed", "3", "--format", "json"])
    assert '"found"' in res.stdout


# ---------------------------------------------------------------------- the reduction
def _windows(board, margin=3):
    """The windows splice would re-solve on ``board``: ``(nodes, node_set, nbrs, pairs)`` of each."""
    rows, cols = board.rows, board.cols
    links, alive = build_links(board)
    restore_factor(links, alive, rows, cols, free_ends=0)
    state = merge_pieces(links, alive, rows, cols)
    out = []
    for top, bottom, left, right in piece_boxes(state, cols, Deadline(None)):
        got = SW.window_paths(links, alive, rows, cols, top - margin, bottom + margin + 1, left - margin,
                              right + margin + 1)
        if got is not None:
            out.append(got)
    return out


def test_the_augmented_table_is_a_slot_table_and_holds_cpsats_solutions(board):
    windows = _windows(board)
    assert windows
    solved = 0
    for nodes, node_set, nbrs, pairs in windows:
        table = W.augmented_table(nodes, node_set, pairs, board.rows, board.cols)
        assert table is not None and table.dtype == np.int32
        k = len(nodes)
        # every slot j of s leads to d whose slot j ^ 4 leads back (the colonies' reversal of moves)
        for s, j in zip(*np.nonzero(table >= 0)):
            assert table[table[s, j], j ^ 4] == s
        # each extra vertex has degree 2 and joins q_i to p_{i+1}
        index = {f: i for i, f in enumerate(nodes)}
        for i in range(len(pairs)):
            nb = sorted(table[k + i][table[k + i] >= 0].tolist())
            assert nb == sorted([index[pairs[i][1]], index[pairs[(i + 1) % len(pairs)][0]]])
        edges = SW._cpsat_edges(nodes, node_set, pairs, board.rows, board.cols, Deadline(5.0))
        if edges is None:
            continue
        solved += 1
        # CP-SAT's answer, with the extra vertices, is a Hamiltonian cycle of the table that pairs the ends
        adj = {v: [] for v in range(table.shape[0])}
        for f, g in edges:
            a, b = index[f], index[g]
            assert b in table[a]
            adj[a].append(b)
            adj[b].append(a)
        for i in range(len(pairs)):
            for f in (pairs[i][1], pairs[(i + 1) % len(pairs)][0]):
                adj[k + i].append(index[f])
                adj[index[f]].append(k + i)
        assert all(len(v) == 2 for v in adj.values())
        cycle, prev, cur = [k], -1, k
        while True:
            nxt = adj[cur][0] if adj[cur][0] != prev else adj[cur][1]
            if nxt == k:
                break
            cycle.append(nxt)
            prev, cur = cur, nxt
        assert len(cycle) == table.shape[0]
        pair_of = np.full(k, -1)
        for i, (p, q) in enumerate(pairs):
            pair_of[index[p]] = pair_of[index[q]] = i
        assert W.paths_pair(np.array(cycle), k, pair_of)
    assert solved >= 1


def test_paths_pair_refuses_crossed_paths():
    pair_of = np.array([0, 0, 1, 1])
    assert W.paths_pair(np.array([4, 0, 1, 5, 2, 3]), 4, pair_of)
    assert W.paths_pair(np.array([4, 1, 0, 5, 3, 2]), 4, pair_of)
    assert not W.paths_pair(np.array([4, 0, 3, 5, 2, 1]), 4, pair_of)
    assert not W.paths_pair(np.array([4, 0, 2, 5, 1, 3]), 4, pair_of)


def test_a_colony_window_changes_nothing_outside_and_keeps_a_two_factor(board):
    rows, cols = board.rows, board.cols
    links, alive = build_links(board)
    restore_factor(links, alive, rows, cols, free_ends=0)
    state = merge_pieces(links, alive, rows, cols)
    before_pieces = state.pieces
    before = links.copy()
    solved = 0
    for k, (top, bottom, left, right) in enumerate(piece_boxes(state, cols, Deadline(None))):
        r0, r1, c0, c1 = top - 2, bottom + 3, left - 2, right + 3
        if SW.repair_window(links, alive, rows, cols, r0, r1, c0, c1, clock=window_clock(), method="iaco",
                            seed=W.window_seed(5, k)):
            solved += 1
            r, c = np.divmod(np.arange(rows * cols), cols)
            outside = ~((r >= r0) & (r < r1) & (c >= c0) & (c < c1))
            assert np.array_equal(links[outside], before[outside])
            before = links.copy()
    live = alive.astype(bool)
    assert ((links[live] >= 0).sum(axis=1) == 2).all()
    after = merge_pieces(links, alive, rows, cols).pieces
    assert after <= before_pieces - solved


def test_a_window_stops_at_once_when_the_race_is_settled(board):
    # the window's clock carries the race's cancel flag: CP-SAT is stopped through call_guarded, and the
    # windows step ends at its next look at the call's clock
    import threading
    import time

    from ktsolve.driver import Stopped

    rows, cols = board.rows, board.cols
    links, alive = build_links(board)
    restore_factor(links, alive, rows, cols, free_ends=0)
    state = merge_pieces(links, alive, rows, cols)
    cancel = threading.Event()
    cancel.set()
    clock = Deadline(None, cancel=cancel)
    before = links.copy()
    t = time.perf_counter()
    windows = _windows(board)
    assert windows
    nodes, node_set, _, pairs = windows[0]
    assert SW._cpsat_edges(nodes, node_set, pairs, rows, cols, SW.window_clock(clock)) is None
    with pytest.raises(Stopped, match="while re-solving windows around the pieces left"):
        SW.repair_windows(repairs_job(links, alive, rows, cols, clock), state, 0)
    assert time.perf_counter() - t < 2.0 and np.array_equal(links, before)


def repairs_job(links, alive, rows, cols, clock):
    from ktsolve.heuristics.splice.pieces import Job

    return Job(links, alive, rows, cols, clock)
