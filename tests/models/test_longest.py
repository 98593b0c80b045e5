"""Longest knight's paths: exact optima against brute force, the public contract, the CLI."""

import doctest
import json

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, Status, longest, validate
from ktsolve.errors import InvalidSquareError, UnsupportedError
from ktsolve.models import longest as longest_module
from ktsolve.models.longest import greedy_path, longest_path

from conftest import invoke, random_board
from naive_tours import longest_path_length


def test_doctests():
    assert doctest.testmod(longest_module).failed == 0


@pytest.mark.parametrize(
    "rows, cols, holes, start, length",
    [
        (3, 3, [], 0, 8),  # the ring of eight squares
        (3, 3, [], 4, 1),  # the centre has no move
        (4, 4, [], 0, 15),
        (1, 1, [], 0, 1),
        (2, 3, [], 0, 2),
    ],
)
def test_known_optima(rows, cols, holes, start, length):
    g = KnightGraph(Board(rows, cols, holes))
    res = longest_path(g, start, time_limit=20)
    assert res.status is Status.FOUND and res.stats["optimal"] is True
    assert res.stats["length"] == length == res.stats["bound"] == len(res.path)
    validate(g.board, res.path, closed=False, start=g.board.coords_of([start])[0], complete=False)
    assert res.path.closed is False
    assert (res.tour is not None) == (length == g.n)


def test_random_boards_match_brute_force():
    rng = np.random.default_rng(4)
    for _ in range(25):
        b = random_board(rng, 2, 5, 0.4)
        if b.n_squares > 16:
            continue
        g = KnightGraph(b)
        start = int(rng.integers(g.n)) if rng.random() < 0.8 else None
        res = longest_path(g, start, time_limit=20)
        assert res.status is Status.FOUND
        assert res.stats["length"] == longest_path_length(g, start), (b, start)
        validate(b, res.path, complete=False, start=None if start is None else b.coords_of([start])[0])


def test_a_tour_when_the_path_covers_the_board():
    g = KnightGraph(Board(5, 5))
    res = longest_path(g, 0, time_limit=20)
    assert res.stats["length"] == 25 and res.tour is not None
    validate(g.board, res.tour, start=(0, 0))
    res = longest_path(g, 1, time_limit=20)  # b-file square of the minority colour: 24 at most
    assert res.stats["length"] == 24 and res.tour is None and res.stats["optimal"]


def test_stopped_early_reports_path_and_bound():
    b = Board(12, 12, holes=[(5, 5), (6, 7), (2, 2), (9, 4)])
    res = longest_path(KnightGraph(b), 0, time_limit=0.01)
    st = res.stats
    assert st["bound"] >= st["length"] >= 1
    if not st["optimal"]:
        assert res.status is Status.UNKNOWN and "no path is longer than" in st["reason"]
    validate(b, res.path, complete=False, start=(0, 0))


def test_an_early_stop_reports_the_time_it_took_not_the_limit(monkeypatch):
    """CP-SAT may stop after its presolve, well before the limit: the reason says when it stopped."""
    import ktsolve.models.cpsat_run as cpsat

    def stop_after_presolve(solver, model, deadline, what=""):
        solver.parameters.stop_after_presolve = True
        return solver.solve(model), False

    monkeypatch.setattr(cpsat, "run_solver", stop_after_presolve)
    res = longest_path(KnightGraph(Board(8, 8)), 0, time_limit=30)
    assert res.status is Status.UNKNOWN
    assert "stopped after 30 s" not in res.stats["reason"] and "of a 30 s limit" in res.stats["reason"]


def test_greedy_hint_is_a_path():
    rng = np.random.default_rng(9)
    for _ in range(10):
        b = random_board(rng, 3, 9, 0.2)
        g = KnightGraph(b)
        s = int(rng.integers(g.n))
        path = greedy_path(g, s)
        validate(b, np.array(path), complete=False, start=b.coords_of([s])[0])


def test_bad_input():
    g = KnightGraph(Board(4, 4))
    with pytest.raises(UnsupportedError, match="not a square number"):
        longest_path(g, 16)
    with pytest.raises(UnsupportedError, match="num_workers"):
        longest_path(g, 0, num_workers=0)
    with pytest.raises(InvalidSquareError):
        longest(Board(4, 4, [(3, 0)]), start="a1")


def test_public_api_validates_and_fills_the_question():
    res = longest("4x4", start="a1", time_limit=20)
    assert res.status is Status.FOUND and res.stats["length"] == 15
    assert res.path.names()[0] == "a1" and res.spec.start == (3, 0) and res.board == Board(4, 4)
    res = longest(Board(3, 3), time_limit=20)
    assert res.stats["length"] == 8


def test_cli_text_and_json():
    out = invoke(["longest", "3x3", "--start", "a1"])
    lines = out.stdout.splitlines()
    assert len(lines) == 3 and ".." in lines[1]  # the centre is never visited
    assert "8 of 9 squares (optimal)" in out.stderr
    out = invoke(["longest", "4x4", "--start", "a1", "--format", "json"])
    data = json.loads(out.stdout)
    assert data["stats"]["length"] == 15 and len(data["path"]) == 15 and data["tour"] is None
    out = invoke(["longest", "3x3", "--start", "z9"], code=2)
    assert "outside the 3x3 board" in out.stderr
    out = invoke(["longest", "3x3", "--start", "b2"])
    assert "1 of 9 squares (optimal)" in out.stderr
