"""A researcher's own method, checked against ktsolve inside an ordinary pytest suite.

The method is a random walk with restarts: from the start square (or a
random one) the knight moves to a random unvisited neighbour until it is
stuck; a walk that covers the board, ends where asked and closes when asked
is a tour.  It has the signature of every ktsolve method, so
``ktsolve.solve(board, method=random_walk, ...)`` gives it the presolve
proofs, the validator, seed recording and timing of a built-in method.

Run it with ``pytest docs/examples/test_random_walk.py`` (needs
``pip install 'ktsolve[test]'``).
"""

from __future__ import annotations

import time

import numpy as np
import pytest
from hypothesis import given, settings

import ktsolve
from ktsolve.testing import assert_agrees, assert_tour, balanced_boards, boards, questions, ring_boards


def random_walk(graph, spec, *, seed=None, time_limit=None, progress=None, walks=2000):
    """Random walks with restarts; a tour as square numbers, or None when every walk got stuck."""
    rng = np.random.default_rng(seed)
    board, n = graph.board, graph.n
    start = None if spec.start is None else board.index(*spec.start)
    end = None if spec.end is None else board.index(*spec.end)
    stop = None if time_limit is None else time.perf_counter() + time_limit
    for _ in range(walks):
        if stop is not None and time.perf_counter() > stop:
            return None
        path = [int(rng.integers(n)) if start is None else start]
        seen = {path[0]}
        while True:
            free = [int(u) for u in graph.neighbours(path[-1]) if int(u) not in seen]
            if not free:
                break
            path.append(free[int(rng.integers(len(free)))])
            seen.add(path[-1])
        if len(path) < n or (end is not None and path[-1] != end):
            continue
        if spec.closed and path[0] not in graph.neighbours(path[-1]):
            continue
        return path
    return None


def careless_walk(graph, spec, *, seed=None, time_limit=None, progress=None):
    """A walk with a bug ktsolve must catch: when no walk covers the board it returns the longest one."""
    rng = np.random.default_rng(seed)
    best = []
    for _ in range(50):
        path = [int(rng.integers(graph.n))]
        while True:
            free = [int(u) for u in graph.neighbours(path[-1]) if int(u) not in path]
            if not free:
                break
            path.append(free[int(rng.integers(len(free)))])
        best = max(best, path, key=len)
    return best


SETTINGS = settings(max_examples=30, deadline=None)


@SETTINGS
@given(questions(boards(1, 5)))
def test_random_walk_never_contradicts_ktsolve(q):
    """Any board, any question: every tour is valid and no claim contradicts prove."""
    res = ktsolve.solve(q.board, method=random_walk, seed=1, time_limit=2, **q.kwargs)
    assert_agrees(q.board, res, unknown="allow", **q.kwargs)


@SETTINGS
@given(questions(boards(3, 4, max_holes=1), ends=False))
def test_random_walk_finds_the_easy_tours(q):
    """On boards of at most 16 squares, 2,000 walks find every tour that Warnsdorff's rule finds."""
    res = ktsolve.solve(q.board, method=random_walk, seed=1, **q.kwargs)
    assert_agrees(q.board, res, **q.kwargs)


@SETTINGS
@given(balanced_boards(5, 6, max_holes=4) | ring_boards(5, 7))
def test_random_walk_on_the_hard_families(board):
    res = ktsolve.solve(board, method=random_walk, seed=2, time_limit=2, walks=500)
    assert_agrees(board, res, unknown="allow")
    if res.found:
        assert_tour(board, res.tour)


def test_a_user_method_goes_through_the_front_door():
    res = ktsolve.solve("4x4", method=random_walk, closed=True)
    assert res.status.value == "infeasible" and res.method == "proofs"  # the walk never ran
    res = ktsolve.solve("3x4", method=random_walk, seed=5)
    assert res.found and res.method == "random_walk" and res.seed == 5


def test_a_careless_method_is_caught():
    board = ktsolve.Board(5, 5)
    res = ktsolve.solve(board, method=careless_walk, seed=4)
    assert res.status.value == "unknown"  # an invalid tour is never "found"
    assert "is never visited" in res.stats["invalid_tour"]
    path = careless_walk(ktsolve.KnightGraph(board), ktsolve.TourSpec(), seed=4)
    with pytest.raises(AssertionError, match="is never visited"):
        assert_agrees(board, path)
