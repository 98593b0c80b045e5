"""Warnsdorff's rule: the numba walk against a readable reference, the Squirrel-Cull orderings, the method."""

import numpy as np
import pytest
from conftest import random_board

from ktsolve import Board, KnightGraph, Status, UnsupportedError, solve, validate
from ktsolve.heuristics import warnsdorff as W
from ktsolve.heuristics.warnsdorff import (
    default_restarts,
    squirrel_applies,
    squirrel_orderings,
    warnsdorff_path,
)
from naive_splitmix import SplitMix64


# ---------------------------------------------------------------------- reference
def naive_walk(graph, start, end=-1, rule="first", seed=0):
    """Warnsdorff's walk written plainly: the kernel must produce the same squares.

    ``walked`` holds the squares of the walk; ``end`` is kept for last.  A
    square's onward degree counts its neighbours not yet walked (``end``
    included, since it is still to come).
    """
    table = graph.table.tolist()
    n = graph.n
    walked = {start}
    path = [start]
    rs = SplitMix64(seed)
    if rule == "squirrel":
        rank, switch = squirrel_orderings(graph.board.rows)
        rank, switch = rank.tolist(), switch.tolist()
    else:
        rank, switch = [list(range(len(table[0])))], []
    coords = graph.coords.tolist()
    rows, cols = graph.board.rows, graph.board.cols

    def onward(w):
        return sum(1 for u in table[w] if u >= 0 and u not in walked)

    def free(u):
        return u >= 0 and u not in walked and u != end

    def centre_distance(w):
        r, c = coords[w]
        return (2 * r - (rows - 1)) ** 2 + (2 * c - (cols - 1)) ** 2

    order = 0
    target = n - 1 if end >= 0 else n
    while len(path) < target:
        cur = path[-1]
        best, best_deg, best_key, ties = None, None, None, 0
        for j, w in enumerate(table[cur]):
            if not free(w):
                continue
            d = onward(w)
            if rule in ("first", "squirrel"):
                key = rank[order][j]
            elif rule == "pohl":
                key = sum(onward(u) for u in table[w] if free(u))
            elif rule == "roth":
                key = -centre_distance(w)
            else:
                key = 0
            if best is None or d < best_deg:
                best, best_deg, best_key, ties = w, d, key, 1
            elif d == best_deg:
                if rule == "random":
                    ties += 1
                    if rs.uniform() * ties < 1.0:
                        best = w
                elif key < best_key:
                    best, best_key = w, key
        if best is None:
            break
        path.append(best)
        walked.add(best)
        if order < len(switch) and best == switch[order]:
            order += 1
    if end >= 0 and len(path) == target and end in table[path[-1]]:
        path.append(end)
    return path


def _some_boards(seed, count):
    rng = np.random.default_rng(seed)
    return [random_board(rng, min_side=3, max_side=8, max_hole_frac=0.2) for _ in range(count)]


# ---------------------------------------------------------------------- kernel vs reference
@pytest.mark.parametrize("rule", ["first", "random", "pohl", "roth"])
def test_kernel_matches_reference(rule):
    for i, board in enumerate(_some_boards(11, 25)):
        g = KnightGraph(board)
        for start in sorted({0, g.n // 2, g.n - 1}):
            ends = [-1] + [int(t) for t in g.table[start] if t >= 0][:1]
            for end in ends:
                seed = 100 * i + start
                got = warnsdorff_path(g, start, rule, end=None if end < 0 else end, seed=seed)
                assert got.dtype == np.int32
                assert got.tolist() == naive_walk(g, start, end, rule, seed), (board, start, end)
                validate(board, got, complete=False, start=tuple(g.coords[start]))


@pytest.mark.parametrize("rule", ["first", "random", "pohl", "roth", "squirrel"])
def test_python_walk_matches_kernel(rule):
    # solve_warnsdorff runs its first walks of small boards in Python: it must be the same walk
    boards = [Board(m, m) for m in (5, 8, 13)] if rule == "squirrel" else _some_boards(12, 25)
    for i, board in enumerate(boards):
        g = KnightGraph(board)
        rank, switch, dist = W._rule_arrays(g, rule)
        for start in sorted({0, g.n // 3, g.n - 1}):
            for end in [-1] + [int(t) for t in g.table[start] if t >= 0][:1]:
                a = np.empty(g.n, np.int32)
                b = np.empty(g.n, np.int32)
                args = (g.table, g.degree, start, end, W._RULE_CODE[rule], i + start, rank, switch, dist)
                la, lb = W._walk(*args, a), W._walk(*args, b, python=True)
                assert la == lb and a[:la].tolist() == b[:lb].tolist()


def test_squirrel_kernel_matches_reference():
    for m in range(5, 13):
        g = KnightGraph(Board(m, m))
        assert warnsdorff_path(g, 0, "squirrel").tolist() == naive_walk(g, 0, rule="squirrel")


def test_partial_walk_is_a_valid_path():
    # 3x6 has no open tour, so every walk stops early at a dead end.
    g = KnightGraph(Board(3, 6))
    for start in range(g.n):
        path = warnsdorff_path(g, start, "first")
        assert 0 < len(path) < g.n
        validate(g.board, path, complete=False, start=tuple(g.coords[start]))


def test_path_accepts_names_and_coordinates():
    g = KnightGraph(Board(5, 5))
    a = warnsdorff_path(g, "a5", "roth")
    assert a.tolist() == warnsdorff_path(g, (0, 0), "roth").tolist() == warnsdorff_path(g, 0, "roth").tolist()


def test_path_end_is_last_when_complete():
    g = KnightGraph(Board(8, 8))
    path = warnsdorff_path(g, 0, "roth", end=63)
    if len(path) == g.n:
        assert path[-1] == 63
    assert 63 not in path[:-1].tolist()


# ---------------------------------------------------------------------- Squirrel-Cull
def test_squirrel_orderings_read_from_the_table():
    rank, switch = squirrel_orderings(8)
    # m = 0 (mod 8): 34261578 -> (7,6); 87642135 -> (2,2); 51867342 -> (0,1) off board; ...
    assert [int(j) + 1 for j in np.argsort(rank[0])] == [3, 4, 2, 6, 1, 5, 7, 8]
    assert [int(j) + 1 for j in np.argsort(rank[-1])] == [2, 1, 4, 3, 5, 6, 7, 8]
    assert switch.tolist() == [6 * 8 + 5, 1 * 8 + 1, -1, 6 * 8 + 4]
    rank, switch = squirrel_orderings(74)
    assert rank.shape == (1, 8) and switch.size == 0
    assert [int(j) + 1 for j in np.argsort(rank[0])] == [2, 1, 3, 4, 5, 6, 7, 8]
    with pytest.raises(UnsupportedError):
        squirrel_orderings(4)


def test_squirrel_applies():
    assert squirrel_applies(KnightGraph(Board(5, 5)))
    assert not squirrel_applies(KnightGraph(Board(4, 4)))
    assert not squirrel_applies(KnightGraph(Board(5, 6)))
    assert not squirrel_applies(KnightGraph(Board(6, 6, holes=[(0, 0)])))


@pytest.mark.parametrize("m", range(5, 61))
def test_squirrel_gives_open_tour_from_corner(m):
    g = KnightGraph(Board(m, m))
    path = warnsdorff_path(g, 0, "squirrel")
    assert len(path) == g.n
    validate(g.board, path, start=(0, 0))


@pytest.mark.slow
@pytest.mark.parametrize("m", list(range(61, 201)) + [256, 300, 333, 400, 500, 610])
def test_squirrel_gives_open_tour_from_corner_large(m):
    g = KnightGraph(Board(m, m))
    path = warnsdorff_path(g, 0, "squirrel")
    assert len(path) == g.n
    validate(g.board, path, start=(0, 0))


@pytest.mark.parametrize("corner", ["a1", "a8", "h1", "h8"])
def test_squirrel_from_every_corner(corner):
    res = solve("8x8", method="warnsdorff", start=corner, rule="squirrel", seed=1)
    assert res.found and res.stats["rule"] == "squirrel"
    validate(res.board, res.tour, start=corner)


def test_million_squares_without_recursion():
    g = KnightGraph(Board(1000, 1000))
    path = warnsdorff_path(g, 0, "roth")
    assert len(path) == 1_000_000
    validate(g.board, path, start=(0, 0))


# ---------------------------------------------------------------------- the method
SPECS = [
    {},
    {"start": "a1"},
    {"end": "d4"},
    {"start": "a1", "end": "h1"},
    {"closed": True},
    {"closed": True, "start": "a1"},
    {"closed": True, "end": "c3"},
    {"closed": True, "start": "a1", "end": "b3"},
]


@pytest.mark.parametrize("kw", SPECS)
def test_every_request_on_8x8(kw):
    res = solve("8x8", method="warnsdorff", seed=3, **kw)
    assert res.status is Status.FOUND
    validate(res.board, res.tour, closed=kw.get("closed", False), start=kw.get("start"), end=kw.get("end"))


@pytest.mark.parametrize("rule", ["first", "random", "pohl", "roth"])
def test_each_rule_through_solve(rule):
    res = solve("12x12", method="warnsdorff", rule=rule, seed=5)
    assert res.found and res.stats["rule"] == rule
    validate(res.board, res.tour)


def test_outputs_valid_on_random_holed_boards():
    from ktsolve.models.backtrack import solve_backtrack

    found = 0
    for i, board in enumerate(_some_boards(3, 60)):
        for closed in (False, True):
            res = solve(board, method="warnsdorff", closed=closed, seed=i, restarts=200)
            assert res.status in (Status.FOUND, Status.UNKNOWN, Status.INFEASIBLE)
            if res.found:
                found += 1
                validate(board, res.tour, closed=closed)
                # cross-check: the exact side must not call this board impossible
                exact = solve_backtrack(KnightGraph(board), res.spec)
                assert exact.status is Status.FOUND
    assert found > 20


def test_same_seed_same_tour_and_seeds_differ():
    board = Board(10, 10, holes=[(4, 4)])
    tours = []
    for seed in (1, 1, 2, 3, 4):
        res = solve(board, method="warnsdorff", rule="random", closed=False, start=(0, 1), seed=seed)
        assert res.found and res.seed == seed
        tours.append(res.tour.squares.tolist())
    assert tours[0] == tours[1]
    assert any(t != tours[0] for t in tours[2:])


def test_recorded_seed_repeats_the_run():
    res = solve("9x9", method="warnsdorff", closed=False, start="e5")
    again = solve("9x9", method="warnsdorff", closed=False, start="e5", seed=res.seed)
    assert res.tour == again.tour


def test_budget_ends_in_unknown():
    # 3x6 has no open tour (the presolve's 2-factor proof tells, so the walks run without it).
    res = solve("3x6", method="warnsdorff", seed=1, restarts=7, presolve_proofs=False)
    assert res.status is Status.UNKNOWN and res.stats["walks"] == 7
    assert "without completing" in res.stats["reason"]
    res = solve(Board(300, 301, holes=[(5, 5)]), method="warnsdorff", seed=1, rule="random", time_limit=1e-9)
    assert res.status is Status.UNKNOWN and "time limit" in res.stats["reason"]


def test_deterministic_rule_stops_after_one_sweep():
    res = solve("3x6", method="warnsdorff", rule="first", restarts=10_000, presolve_proofs=False)
    assert res.status is Status.UNKNOWN
    assert res.stats["walks"] == 18  # one walk per start square
    assert "every start and rule" in res.stats["reason"]


def test_closed_tour_with_unreachable_end_is_unknown():
    res = solve("8x8", method="warnsdorff", closed=True, start="a1", end="h8", seed=1, presolve_proofs=False)
    assert res.status is Status.UNKNOWN and "knight's move apart" in res.stats["reason"]


def test_degree_one_square_starts_the_walk():
    # 3x3 minus the centre is an 8-cycle; remove one more square to get a path with two ends.
    board = Board(3, 3, holes=[(1, 1), (0, 0)])
    res = solve(board, method="warnsdorff", seed=1)
    assert res.found
    g = KnightGraph(board)
    assert g.degree[res.tour.squares[0]] == 1


def test_one_square_board():
    res = solve("1x1", method="warnsdorff", seed=1)
    assert res.found and len(res.tour) == 1


@pytest.mark.parametrize(
    "params, message",
    [
        ({"rule": "bogus"}, "no tie-break rule"),
        ({"restarts": 0}, "restarts must be"),
        ({"restarts": 2.5}, "restarts must be"),
    ],
)
def test_bad_parameters(params, message):
    with pytest.raises(UnsupportedError, match=message):
        solve("8x8", method="warnsdorff", seed=1, **params)


@pytest.mark.parametrize(
    "board, kw",
    [
        ("8x9", {}),
        (Board(8, 8, holes=[(3, 3)]), {}),
        ("8x8", {"closed": True}),
        ("8x8", {"end": "h8"}),
        ("8x8", {"start": "d4"}),
    ],
)
def test_squirrel_refuses_what_it_cannot_do(board, kw):
    with pytest.raises(UnsupportedError, match="squirrel"):
        solve(board, method="warnsdorff", rule="squirrel", seed=1, **kw)


def test_default_restarts():
    assert default_restarts(64) == 10_000
    assert default_restarts(10**6) == 100
    assert default_restarts(100_000) == 200


def test_auto_cycle_names_are_rules():
    assert set(W._AUTO_CYCLE) <= set(W.RULES)


def test_start_order_in_slices_matches_a_plain_reference(monkeypatch):
    """Degree-1 square first; else the majority colour (when the counts differ) by degree, then square."""
    monkeypatch.setattr(W, "_ORDER_SLICE", 7)
    for board in _some_boards(21, 60):
        g = KnightGraph(board)
        deg = g.degree.tolist()
        even, odd = board.colour_counts()
        ones = [v for v in range(g.n) if deg[v] == 1]
        if ones:
            want = ones[:1]
        else:
            cand = [v for v in range(g.n) if even == odd or g.colour[v] == (0 if even > odd else 1)]
            want = sorted(cand, key=lambda v: (deg[v], v))
        assert W._start_order(g).tolist() == want, board


def test_first_walks_of_a_small_board_start_no_kernel():
    """Eight random-rule walks of a small board run as plain Python: not one kernel is compiled or loaded."""
    import subprocess
    import sys

    code = (
        "from ktsolve import Board, KnightGraph, TourSpec\n"
        "from ktsolve.heuristics.warnsdorff import solve_warnsdorff\n"
        "from ktsolve.heuristics import _warnsdorff_kernels as K\n"
        "from ktsolve import _splitmix\n"
        "r = solve_warnsdorff(KnightGraph(Board(3, 6)), TourSpec(), seed=3, rule='random', restarts=8)\n"
        "assert r.stats['walks'] == 8, r.stats\n"
        "kernels = (K._walk_start, K._walk_steps, _splitmix.uniform, _splitmix.step, _splitmix._mix)\n"
        "print(sum(len(k.signatures) for k in kernels))\n"
    )
    out = subprocess.run([sys.executable, "-W", "error::RuntimeWarning", "-c", code], capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "0", out.stderr
