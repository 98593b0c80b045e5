"""Exhaustive search: against brute force, the existence theorems and the holed-board oracle."""

import numpy as np
import pytest
from conftest import load_oracle, random_board
from naive_tours import exhaustive_tour

from ktsolve import Board, KnightGraph, Status, UnsupportedError, solve, validate
from ktsolve.models.backtrack import CHUNK_NODES, Search, solve_backtrack
from ktsolve.tour import TourSpec


# ---------------------------------------------------------------------- references
def naive_tours(graph, start, end=-1, closed=False):
    """Every tour from ``start`` by plain recursion, no pruning (tiny boards only)."""
    table = [[int(w) for w in row if w >= 0] for row in graph.table]
    n = graph.n
    out = []
    path = [start]
    seen = {start}

    def extend():
        cur = path[-1]
        if len(path) == n:
            if closed and start not in table[cur]:
                return
            if end >= 0 and cur != end:
                return
            out.append(list(path))
            return
        for w in table[cur]:
            if w not in seen:
                seen.add(w)
                path.append(w)
                extend()
                path.pop()
                seen.discard(w)

    extend()
    return out


def ordered_first_tour(graph, start, end=-1, closed=False):
    """The first tour of a DFS with the kernel's move order but no pruning.

    Pruning only removes branches that hold no tour, so the kernel must find
    this same tour.  Moves are tried by the number of *available* neighbours
    (unvisited squares, the current square, and the fixed last square, which
    for a closed tour is the start), ties in move order; the fixed end is
    entered only as the last square.
    """
    table = [[int(w) for w in row if w >= 0] for row in graph.table]
    n = graph.n
    last = start if closed else end
    path = [start]
    seen = {start}

    def available(v):
        return v not in seen or v == path[-1] or v == last

    def search():
        cur = path[-1]
        if len(path) == n:
            return not closed or start in table[cur]
        if last >= 0 and not closed and len(path) == n - 1:
            moves = [last] if last in table[cur] else []
        else:
            moves = [w for w in table[cur] if w not in seen and w != last]
            moves.sort(key=lambda w: sum(1 for u in table[w] if available(u)))  # stable
        for w in moves:
            seen.add(w)
            path.append(w)
            if search():
                return True
            path.pop()
            seen.discard(w)
        return False

    return list(path) if search() else None


def _tiny_boards(seed, count, max_side=4):
    rng = np.random.default_rng(seed)
    return [random_board(rng, min_side=2, max_side=max_side, max_hole_frac=0.3) for _ in range(count)]


# ---------------------------------------------------------------------- kernel vs references
def test_counts_match_brute_force():
    for board in _tiny_boards(5, 40):
        g = KnightGraph(board)
        for start in range(g.n):
            want = naive_tours(g, start)
            s = Search(g, start, counting=True)
            assert s.run(10**7) == "exhausted"
            assert s.count == len(want), (board, start)
            if g.n >= 3:
                s = Search(g, start, closed=True, counting=True)
                s.run(10**7)
                assert s.count == len(naive_tours(g, start, closed=True)), (board, start)
            end = (start + 3) % g.n
            if end != start:
                s = Search(g, start, end, counting=True)
                s.run(10**7)
                assert s.count == len(naive_tours(g, start, end)), (board, start, end)


def test_first_tour_matches_ordered_reference():
    rng = np.random.default_rng(8)
    checked = 0
    for _ in range(1000):
        if checked >= 25:
            break
        board = random_board(rng, min_side=3, max_side=5, max_hole_frac=0.25)
        if board.n_squares > 18:
            continue
        g = KnightGraph(board)
        for start in (0, g.n - 1):
            for end, closed in ((-1, False), ((start + 5) % g.n, False), (-1, True)):
                if end == start or (closed and g.n < 3):
                    continue
                want = ordered_first_tour(g, start, end, closed)
                s = Search(g, start, end, closed=closed)
                state = s.run(10**7)
                if want is None:
                    assert state == "exhausted"
                else:
                    assert state == "found"
                    assert s.tour().tolist() == want
                    checked += 1
    assert checked >= 25


def test_every_tour_through_repeated_found_equals_count():
    g = KnightGraph(Board(5, 5))
    s = Search(g, 0)
    tours = set()
    while s.run(10**7) == "found":
        tours.add(tuple(s.tour().tolist()))
    assert len(tours) == 304


def test_small_chunks_resume_exactly():
    g = KnightGraph(Board(5, 6))
    whole = Search(g, 0, counting=True)
    whole.run(10**9)
    chunked = Search(g, 0, counting=True)
    while chunked.run(97) == "running":
        pass
    assert chunked.count == whole.count > 0 and chunked.nodes == whole.nodes


# ---------------------------------------------------------------------- theorems
def open_tour_exists(m, n):
    """Cull & De Curtins; Conrad et al. (theorems.md), m <= n."""
    if m == n == 1:
        return True
    if m <= 2:
        return False
    if m == 3:
        return n == 4 or n >= 7
    if m == 4:
        return n >= 5
    return True


def closed_tour_exists(m, n):
    """Schwenk 1991 (theorems.md), m <= n."""
    if m % 2 == 1 and n % 2 == 1:
        return False
    if m in (1, 2, 4):
        return False
    if m == 3 and n in (4, 6, 8):
        return False
    return True


FULL = [(m, n) for m in range(3, 7) for n in range(m, 7)]


@pytest.mark.parametrize("m, n", FULL)
@pytest.mark.parametrize("closed", [False, True], ids=["open", "closed"])
def test_backtrack_agrees_with_existence_theorems(m, n, closed):
    want = closed_tour_exists(m, n) if closed else open_tour_exists(m, n)
    res = solve(Board(m, n), method="backtrack", closed=closed, presolve_proofs=False)
    assert res.status is (Status.FOUND if want else Status.INFEASIBLE)
    if want:
        validate(res.board, res.tour, closed=closed)
    else:
        assert res.proof.argument == "exhaustive search"
        assert res.proof.evidence["nodes"] >= 0 and res.proof.evidence["starts"]
    # with the quick proofs first, the answer is the same
    assert solve(Board(m, n), method="backtrack", closed=closed).status is res.status


def test_fixed_endpoints_on_6x6():
    # Conrad et al.: on n x n, n >= 6 even, an open tour joins any two squares of opposite colours.
    g = KnightGraph(Board(6, 6))
    for s, e in [((0, 0), (0, 1)), ((0, 0), (5, 0)), ((2, 2), (3, 2)), ((0, 2), (4, 5))]:
        res = solve_backtrack(g, TourSpec(start=s, end=e))
        assert res.found
        validate(g.board, res.tour, start=s, end=e)


def test_5x5_starts_match_the_table():
    # theorems.md: directed open tours of 5x5 start only on squares with a non-zero entry
    table = np.array([[304, 0, 56, 0, 304], [0, 56, 0, 56, 0], [56, 0, 64, 0, 56],
                      [0, 56, 0, 56, 0], [304, 0, 56, 0, 304]])
    g = KnightGraph(Board(5, 5))
    for r in range(5):
        for c in range(5):
            res = solve_backtrack(g, TourSpec(start=(r, c)))
            assert res.found == (table[r, c] > 0), (r, c)


# ---------------------------------------------------------------------- holed oracle
def _holed_cases():
    return load_oracle("holed.json")["cases"]


@pytest.mark.parametrize("case", _holed_cases(), ids=lambda c: f"{c['board']}-{c['holes']}-{c['kind']}")
def test_holed_oracle(case):
    from ktsolve.models.count import count_tours

    board = Board(*case["board"], holes=[tuple(h) for h in case["holes"]])
    closed = case["kind"] == "closed"
    start = tuple(case["start"]) if case.get("start") else None
    res = solve(board, method="backtrack", closed=closed, start=start, presolve_proofs=False)
    assert res.status is (Status.FOUND if case["exists"] else Status.INFEASIBLE)
    if res.found:
        validate(board, res.tour, closed=closed, start=start)
    if "tours_from_start" in case:
        assert int(count_tours(board, start=start)) == case["tours_from_start"]


# ---------------------------------------------------------------------- random holed boards
def test_random_holed_boards_agree_with_brute_force():
    for board in _tiny_boards(21, 60, max_side=4):
        g = KnightGraph(board)
        for closed in (False, True):
            res = solve(board, method="backtrack", closed=closed, presolve_proofs=False)
            if closed:
                exists = g.n >= 3 and bool(naive_tours(g, 0, closed=True))
            else:
                exists = any(naive_tours(g, s) for s in range(g.n))
            assert res.status is (Status.FOUND if exists else Status.INFEASIBLE), (board, closed)
            if res.found:
                validate(board, res.tour, closed=closed)


def test_free_start_search_agrees_with_counts():
    # The free-start search skips starts by colour and forbids exhausted starts as ends;
    # the count uses neither, so it checks both arguments independently.
    from ktsolve.models.count import count_tours

    rng = np.random.default_rng(9)
    checked = 0
    while checked < 40:
        board = random_board(rng, min_side=3, max_side=5, max_hole_frac=0.25)
        if board.n_squares > 22:
            continue
        checked += 1
        for closed in (False, True):
            res = solve(board, method="backtrack", closed=closed, presolve_proofs=False)
            n_tours = count_tours(board, closed=closed).value
            assert res.found == (n_tours > 0), (board, closed)


def test_outputs_valid_on_larger_random_holed_boards():
    rng = np.random.default_rng(4)
    for i in range(30):
        board = random_board(rng, min_side=4, max_side=7, max_hole_frac=0.15)
        g = KnightGraph(board)
        start = tuple(int(v) for v in g.coords[i % g.n])
        for kw in ({}, {"closed": True}, {"start": start}):
            res = solve(board, method="backtrack", time_limit=20, **kw)
            assert res.status is not Status.UNKNOWN
            if res.found:
                validate(board, res.tour, closed=kw.get("closed", False), start=kw.get("start"))


def test_end_only_and_closed_listing():
    g = KnightGraph(Board(6, 6))
    res = solve_backtrack(g, TourSpec(end=(2, 3)))
    assert res.found and res.tour.end == (2, 3)
    res = solve_backtrack(g, TourSpec(closed=True, start=(2, 3)))
    assert res.found and res.tour.start == (2, 3)
    validate(g.board, res.tour, closed=True, start=(2, 3))
    res = solve_backtrack(g, TourSpec(closed=True, end=(2, 3)))
    assert res.found and res.tour.end == (2, 3)
    validate(g.board, res.tour, closed=True, end=(2, 3))
    res = solve_backtrack(g, TourSpec(closed=True, start=(0, 0), end=(1, 2)))
    validate(g.board, res.tour, closed=True, start=(0, 0), end=(1, 2))


def test_closed_tour_needs_adjacent_start_and_end():
    res = solve("6x6", method="backtrack", closed=True, start="a1", end="f6", presolve_proofs=False)
    assert res.status is Status.INFEASIBLE and res.proof.argument == "closing move"


def test_proves_what_quick_proofs_cannot():
    # 3x6: colours balanced, no square of degree < 2, connected; still no open tour.  (The 2-factor
    # proof of the presolve sees it too, so the search runs without the presolve here.)
    res = solve("3x6", method="backtrack", presolve_proofs=False)
    assert res.status is Status.INFEASIBLE and res.method == "backtrack"
    assert res.proof.argument == "exhaustive search"
    assert "exhaustive search" in str(res.proof)


def test_tiny_boards():
    assert solve("1x1", method="backtrack", presolve_proofs=False).found
    res = solve("1x1", method="backtrack", closed=True, presolve_proofs=False)
    assert res.status is Status.INFEASIBLE and res.proof.argument == "size"
    res = solve("1x2", method="backtrack", presolve_proofs=False)
    assert res.status is Status.INFEASIBLE


# ---------------------------------------------------------------------- budgets
def test_node_budget_ends_in_unknown():
    res = solve("8x8", method="backtrack", max_nodes=10)
    assert res.status is Status.UNKNOWN and "node budget" in res.stats["reason"]
    assert res.stats["nodes"] <= 10


def test_time_limit_ends_in_unknown():
    # 4 x n has no closed tour; the matching proof sees it at once, the search does not.
    res = solve("4x40", method="backtrack", closed=True, time_limit=0.05, presolve_proofs=False)
    assert res.status is Status.UNKNOWN and "time limit" in res.stats["reason"]
    assert res.stats["nodes"] >= CHUNK_NODES


def test_time_limit_checked_between_start_squares():
    # each start of 3x6 is exhausted within one chunk: the clock is read between starts too
    res = solve("3x6", method="backtrack", time_limit=1e-9)
    assert res.status is Status.UNKNOWN and "time limit" in res.stats["reason"]
    assert res.stats["starts_tried"] == 1


def test_bad_budget():
    with pytest.raises(UnsupportedError, match="max_nodes"):
        solve("5x5", method="backtrack", max_nodes=0)


def test_deterministic():
    a = solve("7x7", method="backtrack", start="d4")
    b = solve("7x7", method="backtrack", start="d4")
    assert a.found and a.tour == b.tour and a.seed is None


def test_closed_6x6_from_c6_is_quick_in_nodes():
    # The benchmark's case: a greedy-ordered search needs few nodes.
    res = solve("6x6", method="backtrack", closed=True, start=(0, 2))
    assert res.found and res.stats["nodes"] < 1000


@pytest.mark.parametrize("board", [
    Board(3, 4), Board(4, 4), Board(3, 5), Board(3, 6), Board(4, 5),
    Board(5, 5, holes=[(2, 2)]), Board(5, 5, holes=[(0, 0), (4, 4)]), Board(4, 6, holes=[(0, 0), (3, 5)]),
    Board(6, 6, holes=[(2, 2), (2, 3), (3, 2), (3, 3)]),
], ids=repr)
def test_one_start_per_symmetry_orbit_gives_the_exhaustive_answer(board):
    """A free-start open search tries one square of each orbit of the board's symmetries."""
    g = KnightGraph(board)
    res = solve(board, method="backtrack", presolve_proofs=False)
    ref = exhaustive_tour(g, TourSpec())
    assert res.found == (ref is not None)
    if not res.found:
        assert "symmetric image" in res.proof or len(board.symmetries()) == 1
