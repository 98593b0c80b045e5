"""Divide and conquer: the theorems' answer on every board up to 40x40, starts, blocks, kernels."""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, KnightGraph, Proof, Status, TourSpec, UnsupportedError, solve, validate
from ktsolve.heuristics import _divide_blocks as blocks
from ktsolve.heuristics import _divide_plan, divide
from ktsolve.proofs import full_board_proof, has_closed_tour, has_open_tour


def run(board, closed=False, start=None, end=None):
    return solve(board, method="divide", closed=closed, start=start, end=end)


def expect_answer(board: Board, closed: bool, exists: bool, start=None):
    res = run(board, closed=closed, start=start)
    if exists:
        assert res.status is Status.FOUND, (board, closed, res.stats)
        tour = validate(board, res.tour, closed=closed, start=start)
        assert tour.is_complete
    else:
        assert res.status is Status.INFEASIBLE, (board, closed, res.status)
        assert isinstance(res.proof, Proof) and res.proof.argument
    return res


# ---------------------------------------------------------------------- the theorems
@pytest.mark.parametrize("rows", range(1, 41))
def test_every_board_up_to_40_gets_the_theorems_answer(rows):
    """Schwenk (closed) and Cull-De Curtins / Conrad (open) on every m x n, 1 <= m, n <= 40."""
    for cols in range(1, 41):
        board = Board(rows, cols)
        expect_answer(board, True, has_closed_tour(rows, cols))
        expect_answer(board, False, has_open_tour(rows, cols))


def test_existence_tables_match_the_theorem_file():
    # smallest closed boards 3x10, 5x6, 6x6; the listed open exceptions
    assert [has_closed_tour(3, n) for n in (4, 6, 8, 10, 12)] == [False, False, False, True, True]
    assert has_closed_tour(5, 6) and has_closed_tour(6, 6) and not has_closed_tour(4, 100)
    assert not any(has_open_tour(*s) for s in ((2, 9), (3, 3), (3, 5), (3, 6), (4, 4), (1, 2)))
    assert all(has_open_tour(*s) for s in ((1, 1), (3, 4), (3, 7), (3, 8), (4, 5), (5, 5), (7, 9)))


@pytest.mark.parametrize(
    "size, closed, start, end, argument, words",
    [
        ((7, 7), True, None, None, "colour parity", "25 dark and 24 light"),
        ((4, 9), True, None, None, "outer and inner rows", "outer"),
        ((12, 4), True, None, None, "outer and inner rows", "columns"),
        ((3, 8), True, None, None, "theorem", "Schwenk"),
        ((3, 6), False, None, None, "theorem", "Conrad"),
        ((4, 4), False, None, None, "theorem", "4 x n"),
        ((2, 9), False, None, None, "connectivity", "column"),
        ((9, 2), True, None, None, "connectivity", "row"),
        ((1, 5), False, None, None, "degree", "no knight's move"),
        ((3, 3), False, None, None, "degree", "centre"),
        ((1, 1), True, None, None, "size", "at least 3"),
        ((9, 9), False, "b9", None, "colour parity", "start b9"),
        ((9, 9), False, None, "a8", "colour parity", "end a8"),
        ((8, 8), False, "a1", "h8", "colour parity", "same colour"),
        ((4, 10), False, "c3", None, "outer and inner rows", "start c3"),
        ((10, 4), False, None, "b5", "outer and inner rows", "end b5"),
        ((8, 8), True, "a1", "h8", "closing move", "h8 back to a1"),
        ((8, 8), False, "d4", "d4", "size", "same square"),
    ],
)
def test_infeasible_answers_carry_the_argument(size, closed, start, end, argument, words):
    board = Board(*size)
    res = run(board, closed=closed, start=start, end=end)
    assert res.status is Status.INFEASIBLE
    assert res.proof.argument == argument
    assert words in str(res.proof)
    assert res.exit_code == 1


def test_proof_agrees_with_the_graph_based_necessary_conditions():
    """Whenever quick_proof's basic arguments refute a full board, divide refutes it too."""
    from ktsolve.proofs import quick_proof

    rng = np.random.default_rng(5)
    for _ in range(300):
        board = Board(int(rng.integers(1, 12)), int(rng.integers(1, 12)))
        closed = bool(rng.integers(2))
        pick = lambda: (int(rng.integers(board.rows)), int(rng.integers(board.cols)))  # noqa: E731
        start = pick() if rng.random() < 0.5 else None
        end = pick() if rng.random() < 0.3 else None
        if closed and start is not None and end == start:
            end = None
        spec = TourSpec(closed=closed, start=start, end=end)
        other = quick_proof(KnightGraph(board), spec)
        if other is not None and other.argument in ("size", "colour parity", "degree", "connectivity"):
            assert full_board_proof(board, spec) is not None, (board, spec, other)


# ---------------------------------------------------------------------- starts and ends
def test_closed_tours_are_rotated_to_every_start():
    board = Board(8, 8)
    for r in range(8):
        for c in range(8):
            res = run(board, closed=True, start=(r, c))
            assert res.tour.start == (r, c)
            validate(board, res.tour, closed=True, start=(r, c))


@pytest.mark.parametrize("n", range(5, 14))
def test_square_boards_open_from_every_start_the_theorem_allows(n):
    """Conrad et al.: on n x n, n >= 6, every square (n even) or every corner-coloured square (n odd).

    On 5x5 every corner-coloured square starts some tour too (the oracle's table).
    """
    board = Board(n, n)
    for r in range(n):
        for c in range(n):
            allowed = n % 2 == 0 or (r + c) % 2 == 0
            res = run(board, start=(r, c))
            if allowed:
                assert res.status is Status.FOUND, ((r, c), res.stats)
                validate(board, res.tour, start=(r, c))
            else:
                assert res.status is Status.INFEASIBLE


@pytest.mark.parametrize("size", [(4, 5), (4, 9), (4, 14), (4, 23), (4, 40), (3, 15), (3, 21), (3, 30), (3, 33)])
def test_thin_boards_open_from_every_possible_start(size):
    board = Board(*size)
    for r in range(board.rows):
        for c in range(board.cols):
            res = run(board, start=(r, c))
            if res.status is Status.FOUND:
                validate(board, res.tour, start=(r, c))
            else:
                # only squares that no open tour can start on: colour, or an inner row of 4 x n
                assert res.status is Status.INFEASIBLE, ((r, c), res.stats)


def test_thin_boards_unknown_only_on_the_smallest_boards():
    """Starts that no stored block reaches; the slow test shows CP-SAT finds no tour there either."""
    seen = {}
    for size in [(3, 4), (3, 7), (3, 8), (3, 9), (3, 11), (3, 13), (4, 6)]:
        board = Board(*size)
        for r in range(board.rows):
            for c in range(board.cols):
                res = run(board, start=(r, c))
                if res.status is Status.UNKNOWN:
                    seen.setdefault(size, []).append((r, c))
                    assert "no stored block" in res.stats["reason"]
    assert set(seen) <= {(3, 4), (3, 7), (3, 8)}


def test_transposed_and_long_boards_with_starts():
    cases = [((30, 4), (0, 3)), ((30, 4), (29, 0)), ((41, 3), (20, 0)), ((41, 3), (19, 1)), ((1000, 3), (500, 0))]
    for size, start in cases:
        board = Board(*size)
        res = run(board, start=start)
        assert res.status is Status.FOUND
        validate(board, res.tour, start=start)


def test_middle_of_long_four_row_board_is_an_honest_unknown():
    res = run(Board(4, 101), start=(0, 50))
    assert res.status is Status.UNKNOWN
    assert "no stored block" in res.stats["reason"]


def test_fixed_end_and_both_ends():
    for board, closed in [(Board(8, 8), False), (Board(9, 9), False), (Board(10, 12), True), (Board(4, 11), False)]:
        for end in [(0, 0), (board.rows - 1, board.cols - 1)]:
            res = run(board, closed=closed, end=end)
            assert res.status is Status.FOUND
            validate(board, res.tour, closed=closed, end=end)
    # both ends: found when the construction joins them, otherwise unknown, never a wrong tour
    board = Board(8, 8)
    res = run(board, start=(0, 0))
    s, t = res.tour.start, res.tour.end
    again = run(board, start=s, end=t)
    assert again.status is Status.FOUND and again.tour.end == t
    closed = run(board, closed=True, start=(0, 0))
    nxt = closed.tour.coords[1]
    both = run(board, closed=True, start=tuple(int(v) for v in nxt), end=(0, 0))
    assert both.status is Status.FOUND
    validate(board, both.tour, closed=True, start=tuple(nxt), end=(0, 0))
    for r in range(8):
        for c in range(8):
            res = run(board, start=(0, 0), end=(r, c))
            assert res.status in (Status.FOUND, Status.UNKNOWN, Status.INFEASIBLE)
            if res.status is Status.FOUND:
                validate(board, res.tour, start=(0, 0), end=(r, c))


@pytest.mark.parametrize(
    "size, closed",
    [((101, 37), False), ((101, 37), True), ((200, 203), True), ((200, 203), False),
     ((3, 1000), True), ((3, 1000), False), ((1000, 3), True), ((1000, 3), False), ((3, 999), False),
     ((4, 1001), False), ((999, 1000), True), ((77, 1001), False), ((11, 11), False), ((300, 5), True)],
)
def test_larger_and_odd_shaped_boards(size, closed):
    board = Board(*size)
    expect_answer(board, closed, has_closed_tour(*size) if closed else has_open_tour(*size))


def test_odd_board_starts_sampled():
    rng = np.random.default_rng(11)
    for size in [(101, 37), (45, 47), (11, 29), (201, 9)]:
        board = Board(*size)
        for _ in range(25):
            r, c = int(rng.integers(size[0])), int(rng.integers(size[1]))
            if (r + c) % 2:  # move to a corner-coloured square, the only starts on odd x odd boards
                c = c - 1 if c > 0 else c + 1
            res = run(board, start=(r, c))
            assert res.status is Status.FOUND, ((r, c), res.stats)
            validate(board, res.tour, start=(r, c))


# ---------------------------------------------------------------------- solve() and auto
def test_divide_builds_no_graph_arrays():
    board = Board(60, 60)
    res = run(board, closed=True)
    assert res.status is Status.FOUND
    graph = KnightGraph.of(board)
    assert "table" not in graph.__dict__ and "_csr" not in graph.__dict__


def test_auto_picks_divide_for_large_full_boards():
    res = solve(Board(30, 30), closed=True)
    assert res.status is Status.FOUND and res.stats["auto"] == "divide"
    res = solve(Board(25, 25), closed=True)
    assert res.status is Status.INFEASIBLE and res.stats["auto"] == "divide"
    res = solve(Board(25, 25), start="a1")
    assert res.status is Status.FOUND and res.method == "divide"


def test_holes_are_refused_and_seed_is_ignored():
    with pytest.raises(UnsupportedError):
        solve(Board(10, 10, holes=[(0, 0)]), method="divide")
    a = run(Board(12, 12), closed=True)
    b = solve(Board(12, 12), method="divide", closed=True, seed=7)
    assert a.tour == b.tour and b.seed is None


def test_time_limit_gives_unknown_and_progress_is_reported():
    calls = []
    res = solve(Board(50, 50), method="divide", closed=True, progress=lambda d, t: calls.append((d, t)))
    assert res.status is Status.FOUND and calls[-1] == (3, 3)
    res = solve(Board(50, 50), method="divide", closed=True, time_limit=1e-9)
    assert res.status is Status.UNKNOWN and "time limit" in res.stats["reason"]


def test_one_square_board():
    res = run(Board(1, 1), start="a1", end="a1")
    assert res.status is Status.FOUND and len(res.tour) == 1


# ---------------------------------------------------------------------- splitting sides
def test_side_splits():
    for length in range(0, 400):
        parts = _divide_plan._even_parts(length)
        if parts is not None:
            assert parts.sum() == length and set(parts.tolist()) <= {6, 8, 10}
        else:
            assert length % 2 or length in (2, 4)
        parts = _divide_plan._range_parts(length, 7, 11)
        if parts is not None:
            assert parts.sum() == length and (length == 0 or (parts.min() >= 7 and parts.max() <= 11))
        else:
            assert length in (1, 2, 3, 4, 5, 6, 12, 13)
    for length in range(5, 80, 2):
        for x in range(length):
            splits = list(_divide_plan._odd_splits(length, x))
            assert splits, (length, x)
            for parts, i in splits:
                assert parts.sum() == length and parts[i] % 2 == 1
                assert (parts % 2 == 1).sum() == 1
                assert parts[:i].sum() <= x < parts[: i + 1].sum()


# ---------------------------------------------------------------------- stored blocks
def test_every_stored_block_is_valid():
    cat = blocks.load_catalog()
    assert len(cat) > 500
    for key in cat.keys:
        blocks.check_block(blocks.block_spec(key), cat.raw(key))


def test_blocks_are_checked_when_taken(tmp_path):
    cat = blocks.load_catalog()
    key = "gc/8x8/LRTB"
    good = cat.raw(key).copy()
    bad = good.copy()
    bad[[0, 1]] = bad[[1, 0]]  # two successors swapped: no longer a knight's cycle
    tampered = blocks.Catalog([key], [0, bad.size], bad)
    assert tampered.raw(key) is not None
    with pytest.raises(ValueError, match="gc/8x8/LRTB"):
        tampered.get(key)
    # a required joining move missing is caught too
    spec = blocks.block_spec(key)
    (a, b) = spec.arcs[0]
    cycle = blocks.Catalog([key], [0, good.size], good)
    assert cycle.get(key)[a[0] * 8 + a[1]] == b[0] * 8 + b[1]
    path = tmp_path / "blocks.npz"
    np.savez(path, keys=np.array([key]), offsets=np.array([0, bad.size]), succ=bad)
    with pytest.raises(ValueError):
        blocks.load_catalog(path).get(key)


def test_check_block_rejects_wrong_pieces():
    spec = blocks.block_spec("t4/6/ur")
    assert spec.pieces == (((0, 0), (3, 0)),)
    succ = blocks.load_catalog().get("t4/6/ur")
    blocks.check_block(spec, succ)
    other = blocks.block_spec("t4/6/s/3,0")
    with pytest.raises(ValueError, match="do not match"):
        blocks.check_block(other, succ)


def test_port_moves_are_knight_moves_and_joins_are_knight_moves():
    for f, port in blocks.PORTS.items():
        (a, b) = port(8, 10)
        assert blocks._knight(a, b), f
    for fam, lanes in blocks.LANES.items():
        for lane in lanes:
            (r0, d0), (r1, d1) = blocks.lane_arc(fam, lane)
            assert blocks._knight((r0, d0), (r1, d1)), (fam, lane)


@pytest.mark.slow
def test_regenerated_blocks_match_the_stored_ones():
    """CP-SAT rebuilds every block of the plan (about a minute); feasibility is a fact, so the keys agree."""
    counts = blocks.build_catalog(None)
    cat = blocks.load_catalog()
    assert counts["unknown"] == 0
    assert counts["stored"] == len(cat)


@pytest.mark.slow
def test_unknown_starts_on_small_boards_have_no_tour():
    """Where divide says unknown on the small thin boards, CP-SAT proves no open tour starts there."""
    for size in [(3, 4), (3, 7), (3, 8)]:
        board = Board(*size)
        for r in range(board.rows):
            for c in range(board.cols):
                if run(board, start=(r, c)).status is Status.UNKNOWN:
                    spec = blocks.BlockSpec("probe", board.rows, board.cols, (((r, c), None),))
                    assert blocks.solve_block(spec) == "infeasible", (size, (r, c))


@pytest.mark.slow
def test_every_start_on_boards_up_to_24():
    for m in range(5, 25):
        for n in range(5, 25):
            board = Board(m, n)
            for r in range(m):
                for c in range(n):
                    res = run(board, start=(r, c))
                    assert res.status is not Status.UNKNOWN, (m, n, (r, c))


# ---------------------------------------------------------------------- kernels
def fill_reference(nrows, ncols, placements, types, arcs):
    """Readable reference of fill_successors: blocks as (r0, c0, type), types as (h, w, succ list)."""
    nxt = [0] * (nrows * ncols)
    for r0, c0, t in placements:
        h, w, succ = types[t]
        for k in range(h * w):
            lr, lc = divmod(k, w)
            s = succ[k]
            nxt[(r0 + lr) * ncols + c0 + lc] = -1 if s == 255 else (r0 + s // w) * ncols + c0 + s % w
    for a, b in arcs:
        nxt[a] = b
    return nxt


def walk_reference(nxt, start, total, nrows, ncols, flip_r, flip_c, transpose, out_cols, reverse):
    out, q = [], start
    for _ in range(total):
        if q < 0:
            break
        r, c = divmod(q, ncols)
        r = nrows - 1 - r if flip_r else r
        c = ncols - 1 - c if flip_c else c
        out.append(c * out_cols + r if transpose else r * out_cols + c)
        q = nxt[q]
    return out[::-1] if reverse and len(out) == total else out


@pytest.mark.parametrize("seed", range(4))
def test_kernels_match_readable_reference(seed):
    from ktsolve.heuristics._divide_kernels import fill_successors, walk

    rng = np.random.default_rng(seed)
    cat = blocks.load_catalog()
    board = Board(int(rng.integers(5, 40)), int(rng.integers(5, 40)))
    if has_closed_tour(board.rows, board.cols):
        lay, _ = divide.plan_cycle(cat, board.rows, board.cols)
    else:
        lay, _ = divide.plan_open(cat, board.rows, board.cols, (0, 0))
    keys = lay.keys
    types = [(blocks.block_spec(k).h, blocks.block_spec(k).w, cat.get(k).tolist()) for k in keys]
    placements = list(zip(lay.r0.tolist(), lay.c0.tolist(), lay.btype.tolist()))
    arcs = list(zip(lay.src.tolist(), lay.dst.tolist()))
    ref = fill_reference(lay.rows, lay.cols, placements, types, arcs)
    got = divide.successors(cat, lay)
    assert got.tolist() == ref
    begin = lay.start if lay.start is not None else 0
    total = lay.rows * lay.cols
    for flip_r, flip_c, transpose, reverse in [(0, 0, 0, 0), (1, 0, 0, 1), (0, 1, 1, 0), (1, 1, 1, 1)]:
        out = np.empty(total, dtype=np.int32)
        out_cols = lay.rows if transpose else lay.cols
        done = walk(got, begin, total, out, lay.rows, lay.cols, bool(flip_r), bool(flip_c), bool(transpose),
                    out_cols, bool(reverse))
        want = walk_reference(ref, begin, total, lay.rows, lay.cols, flip_r, flip_c, transpose, out_cols, reverse)
        assert done == total and out.tolist() == want
    # the kernel stops at the end of a broken path and says how far it got
    broken = got.copy()
    broken[broken.size // 2] = -1
    out = np.empty(total, dtype=np.int32)
    done = walk(broken, begin, total, out, lay.rows, lay.cols, False, False, False, lay.cols, False)
    assert done == len(walk_reference(broken.tolist(), begin, total, lay.rows, lay.cols, 0, 0, 0, lay.cols, 0))
    assert fill_successors is not None
