"""Links from tours, and the cycles of links.

See :mod:`ktsolve.factor` for the link format (``int8 (rows, cols, 2)``:
move codes 0..7, 8 an end, -1 empty).
"""

from __future__ import annotations

import numpy as np

from ..board import Board
from ..errors import InvalidTourError
from ..graph import KNIGHT_MOVES

__all__ = ["links_from_tour", "cycles", "cycle_count"]

#: Squares handled per chunk when a tour becomes links (bounded temporaries on huge boards).
_CHUNK = 1 << 22

# code of the move (dr, dc) at index (dr + 2) * 5 + (dc + 2); -1 for a non-move
_CODE = np.full(25, -1, dtype=np.int8)
for _j, (_dr, _dc) in enumerate(KNIGHT_MOVES.tolist()):
    _CODE[(_dr + 2) * 5 + (_dc + 2)] = _j


def links_from_tour(board: Board, squares, *, closed: bool, source: Board | None = None) -> np.ndarray:
    """The moves of a tour as links on ``board``: slot 0 the move back, slot 1 the move on.

    Parameters
    ----------
    board : Board
        The board the links are for.
    squares : array of int
        The tour's square numbers on ``source`` (``board`` by default), in order.
    closed : bool
        Whether the last square links back to the first; an open tour's two
        ends get :data:`~ktsolve.factor.END` links.
    source : Board, optional
        The board the tour is on, of the same size as ``board``; its squares
        that are holes of ``board`` lose their links, and so do the slots
        that linked to them (a partial 2-matching, the warm start of
        :func:`~ktsolve.factor.two_factor`).

    Raises
    ------
    InvalidTourError
        When two consecutive squares are not a knight's move apart, or the
        boards differ in size.

    Examples
    --------
    >>> from ktsolve import solve
    >>> full = Board(6, 6)
    >>> tour = solve(full, method="warnsdorff", closed=True, seed=1).tour.squares
    >>> holed = Board(6, 6, holes=[(0, 0), (0, 1)])
    >>> links = links_from_tour(holed, tour, closed=True, source=full)
    >>> int((links >= 0).sum()), int((links[holed.mask] < 0).sum())   # 4 squares lost a move
    (64, 4)
    """
    source = board if source is None else source
    if source.shape != board.shape:
        raise InvalidTourError(f"the tour's board is {source.spec()}, not {board.spec()}")
    rows, cols = board.rows, board.cols
    sq = np.asarray(squares, dtype=np.int64).reshape(-1)
    links = np.full(rows * cols * 2, -1, dtype=np.int8)
    n = sq.size
    keep = board.mask.reshape(-1)
    for a in range(0, n, _CHUNK):
        b = min(n, a + _CHUNK)
        idx = np.arange(a, b + 1) % n if n else np.arange(0)
        flat = source.flat_of(sq[idx])  # one past the chunk, for the move on
        r, c = flat // cols, flat % cols
        dr, dc = r[1:] - r[:-1], c[1:] - c[:-1]
        ok = (np.abs(dr) <= 2) & (np.abs(dc) <= 2)
        code = np.where(ok, _CODE[np.clip((dr + 2) * 5 + (dc + 2), 0, 24)], -1)
        step = np.arange(a, b)
        last = step == n - 1
        if (code[~last] < 0).any() or (closed and n > 1 and code[last].size and (code[last] < 0).any()):
            k = int(step[np.flatnonzero(code < 0)[0]])
            raise InvalidTourError(f"the move from step {k + 1} to step {k + 2} is not a knight's move")
        here, there = flat[:-1], flat[1:]
        use = keep[here] & keep[there] & (closed | ~last) & (code >= 0)
        links[2 * here[use] + 1] = code[use]
        links[2 * there[use]] = code[use] ^ 4
    if not closed and n:
        for end, slot in ((sq[0], 0), (sq[-1], 1)):
            f = int(source.flat_of(np.array([end]))[0])
            if keep[f]:
                links[2 * f + slot] = 8
    return links.reshape(rows, cols, 2)


def cycles(links) -> tuple[np.ndarray, int]:
    """The components of ``links``: an int32 label per cell (``(rows, cols)``) and their number.

    Cycles and open paths (their ends linked to the extra vertex, or not
    linked) are components; holes and cells without a link are -1.  One
    linear walk (a numba kernel above ``PY_MAX`` cells).

    Examples
    --------
    >>> from ktsolve.factor import two_factor
    >>> labels, count = cycles(two_factor(Board(6, 6)).links)
    >>> labels.shape, count == len(set(labels.ravel().tolist()))
    ((6, 6), True)
    """
    from . import _kernels as K
    from .core import PY_MAX, pure_kernels

    links = np.ascontiguousarray(links, dtype=np.int8)
    rows, cols = links.shape[:2]
    func = K.label_cycles if rows * cols > PY_MAX else pure_kernels()["label_cycles"]
    labels, count = func(links.reshape(-1), rows, cols)
    return labels.reshape(rows, cols), int(count)


def cycle_count(links) -> int:
    """The number of cycles (and open paths) of ``links``; 1 for a tour.

    Examples
    --------
    >>> from ktsolve import Board, solve
    >>> tour = solve("6x6", method="warnsdorff", closed=True, seed=1).tour.squares
    >>> cycle_count(links_from_tour(Board(6, 6), tour, closed=True))
    1
    """
    return cycles(links)[1]
