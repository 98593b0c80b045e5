"""The validator's numba walk (``ktsolve._tour_kernels``) against its plain numpy walk.

:func:`ktsolve.tour.validate` walks tours of at least ``_KERNEL_MIN``
squares with one numba pass and shorter ones with vectorised numpy.  Both
must give the same verdict and the same message on every tour, so each case
here is validated twice, with the threshold moved below and above it, on
small random boards with holes and on tours forged from real ones: a repeated
square, a hole, a step off the board, a non-knight step, a wrong start or
end, a missing square, a missing closing move.
"""

from __future__ import annotations

import numpy as np
import pytest

from ktsolve import Board, solve
from ktsolve import tour as tour_mod
from ktsolve._tour_kernels import square_flats
from ktsolve.errors import InvalidTourError
from ktsolve.generate import random_holed_board
from ktsolve.tour import Tour, validate


def _verdict(board, tour, monkeypatch, kernel: bool, **kw) -> str:
    monkeypatch.setattr(tour_mod, "_KERNEL_MIN", 0 if kernel else 1 << 62)
    try:
        t = validate(board, tour, **kw)
    except InvalidTourError as exc:
        return f"refused: {exc}"
    return f"valid: {t.squares.tolist()} closed={t.closed}"


def _same(board, tour, monkeypatch, **kw) -> str:
    fast = _verdict(board, tour, monkeypatch, True, **kw)
    slow = _verdict(board, tour, monkeypatch, False, **kw)
    assert fast == slow, (fast, slow)
    return fast


@pytest.fixture(scope="module")
def tours():
    """Closed tours of small random holed boards (and one full board), settled by the default solver."""
    out = []
    for seed, (r, c) in enumerate([(12, 12), (10, 14), (16, 9), (20, 20)], start=1):
        b = random_holed_board(r, c, 0.08, closed=True, seed=seed)
        res = solve(b, closed=True, seed=seed, time_limit=30)
        assert res.status.value == "found", (r, c, res.stats)
        out.append((b, res.tour.squares.copy()))
    res = solve(Board(8, 8), closed=True, seed=1)
    out.append((Board(8, 8), res.tour.squares.copy()))
    return out


def test_square_flats_matches_the_board(tours):
    for b, _ in tours:
        flats = square_flats(b.hole_flat, b.size)
        assert flats.dtype == np.int32
        assert np.array_equal(flats, b.flat_of(np.arange(b.n_squares)))


def test_valid_tours_agree(tours, monkeypatch):
    for b, sq in tours:
        assert _same(b, sq, monkeypatch, closed=True).startswith("valid")
        assert _same(b, Tour(b, sq, closed=True), monkeypatch).startswith("valid")
        assert _same(b, sq[::-1].copy(), monkeypatch, closed=False).startswith("valid")
        assert _same(b, sq[:5], monkeypatch, complete=False).startswith("valid")


def _forgeries(b: Board, sq: np.ndarray, rng: np.random.Generator):
    """(name, tour, validate keywords): each breaks the tour in one way, at a random place."""
    n = sq.size
    k = int(rng.integers(2, n - 1))
    rep = sq.copy()
    rep[k] = sq[int(rng.integers(0, k))]
    yield "repeat", rep, {"closed": True}
    swap = sq.copy()
    swap[[k, k + 1]] = swap[[k + 1, k]]
    yield "non-knight step (swapped pair)", swap, {"closed": True}
    yield "missing square", np.delete(sq, k), {"closed": False}
    yield "missing square, path", np.delete(sq, k), {"closed": False, "complete": False}
    yield "out of range", np.concatenate([sq[:k], [b.n_squares + 3], sq[k:]]), {"closed": False}
    rot = np.roll(sq, -k)
    yield "wrong start", rot, {"closed": True, "start": tuple(b.coords_of(sq[:1])[0].tolist())}
    yield "wrong end", rot, {"closed": True, "end": tuple(b.coords_of(sq[-1:])[0].tolist())}
    # cutting the tour open after a move and rejoining it the other way round keeps
    # every inner move but, almost always, loses the closing one
    opened = np.concatenate([sq[:k], sq[k:][::-1]])
    yield "open halves, asked closed", opened, {"closed": True}
    yield "open halves, asked open", opened, {"closed": False}
    coords = b.coords_of(sq)
    if b.n_holes:
        hole = np.array(b.holes[int(rng.integers(0, b.n_holes))])
        with_hole = coords.copy()
        with_hole[k] = hole
        yield "a hole", with_hole, {"closed": True}
    off = coords.copy()
    off[k] = (b.rows + 1, 0)
    yield "off the board", off, {"closed": True}


def test_forged_tours_agree(tours, monkeypatch):
    rng = np.random.default_rng(18)
    seen = set()
    for b, sq in tours:
        for _ in range(6):
            for name, forged, kw in _forgeries(b, sq, rng):
                verdict = _same(b, forged, monkeypatch, **kw)
                seen.add((name, verdict.split(":")[0]))
    refused = {name for name, v in seen if v == "refused"}
    # every forgery was refused somewhere (not a test that cannot fail)
    assert refused >= {"repeat", "non-knight step (swapped pair)", "missing square", "out of range",
                       "wrong start", "wrong end", "open halves, asked closed", "a hole", "off the board"}


def test_random_sequences_agree(monkeypatch):
    """Arbitrary square sequences (mostly illegal at once) and knight walks that cross themselves."""
    rng = np.random.default_rng(7)
    for seed in range(12):
        b = random_holed_board(9, 11, 0.1, closed=False, seed=seed + 1)
        seq = rng.integers(0, b.n_squares, size=int(rng.integers(1, 30)))
        _same(b, seq, monkeypatch, complete=False)
        _same(b, seq, monkeypatch)
        # a random knight walk: legal moves, repeats likely
        flats = b.flat_of(np.arange(b.n_squares))
        where = {int(f): i for i, f in enumerate(flats.tolist())}
        walk = [int(rng.integers(0, b.n_squares))]
        for _ in range(40):
            r, c = divmod(int(flats[walk[-1]]), b.cols)
            nxt = [where[(r + dr) * b.cols + c + dc] for dr, dc in
                   ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1))
                   if 0 <= r + dr < b.rows and 0 <= c + dc < b.cols and (r + dr) * b.cols + c + dc in where]
            if not nxt:
                break
            walk.append(nxt[int(rng.integers(0, len(nxt)))])
        _same(b, np.array(walk), monkeypatch, complete=False)
        _same(b, np.array(walk), monkeypatch, closed=True)


def test_the_messages_pinned(monkeypatch):
    """The kernel's own messages, spelled out (the numpy walk's are pinned in test_tour.py)."""
    b = Board(3, 4)
    monkeypatch.setattr(tour_mod, "_KERNEL_MIN", 0)
    with pytest.raises(InvalidTourError, match=r"^square a3 is visited twice, at steps 1 and 3$"):
        validate(b, [0, 6, 0], complete=False)
    with pytest.raises(InvalidTourError, match=r"^illegal move at step 2: a3 to b2 is not a legal move$"):
        validate(b, [(0, 0), (1, 1)], complete=False)
    with pytest.raises(InvalidTourError, match=r"^square b3 is never visited \(the tour has 3 of 12 squares\)$"):
        validate(b, [(0, 0), (1, 2), (2, 0)])


def test_long_tour_on_a_holed_board_goes_through_the_kernel(monkeypatch):
    """Above the threshold the numba walk runs (and the numpy one does not)."""
    b = random_holed_board(300, 300, 0.01, closed=True, seed=3)
    res = solve(b, closed=True, seed=3)
    assert res.status.value == "found"
    sq = res.tour.squares.copy()
    assert sq.size >= tour_mod._KERNEL_MIN

    def no_numpy(*a, **k):
        raise AssertionError("the numpy walk ran")

    monkeypatch.setattr(tour_mod, "_walk_numpy", no_numpy)
    validate(b, sq, closed=True)
    bad = sq.copy()
    bad[[100, 101]] = bad[[101, 100]]
    with pytest.raises(InvalidTourError, match="^illegal move at step 101: "):
        validate(b, bad, closed=True)


@pytest.mark.parametrize("compiled", [True, False])
def test_the_text_matrix_kernels_write_the_bytes_of_the_numpy_expressions(monkeypatch, compiled):
    """``write_tour_matrix`` on boards of at least ``TEXT_KERNEL_MIN`` cells (moved to 0 here) writes with two
    numba kernels: the same bytes as the numpy expressions, for full and holed boards, numbers of 2 to 5
    digits, and paths that leave squares unvisited (written like holes)."""
    import io

    from ktsolve import _tour_kernels, render

    if not compiled:
        for name in ("square_flats", "step_grid", "format_cells"):
            monkeypatch.setattr(_tour_kernels, name, getattr(_tour_kernels, name).py_func)
    rng = np.random.default_rng(5)
    boards = [Board(5, 7), Board(1, 1), Board(3, 40), random_holed_board(12, 9, 0.2, seed=1),
              random_holed_board(40, 31, 0.1, seed=2), random_holed_board(110, 97, 0.05, seed=3)]
    checked = 0
    for board in boards:
        for part in (1.0, 0.6):
            squares = rng.permutation(board.n_squares)[: max(1, int(board.n_squares * part))]
            t = Tour(board, squares.astype(np.int32))
            out = {}
            for fast in (True, False):
                monkeypatch.setattr(render, "TEXT_KERNEL_MIN", 0 if fast else 1 << 62)
                fh = io.BytesIO()
                render.write_tour_matrix(t, fh)
                out[fast] = fh.getvalue()
            assert out[True] == out[False], board
            checked += 1
    assert checked == 12
