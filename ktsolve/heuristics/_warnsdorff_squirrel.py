"""The Squirrel-Cull move orderings of Warnsdorff's walk (:mod:`ktsolve.heuristics.warnsdorff`).

Squirrel & Cull (1996) break Warnsdorff's ties by the move type that comes
first in the current one of a list of move orderings, the ordering
switching when the knight arrives on given squares.  Ganzfried (2004,
Table 1) lists the orderings for an open tour from the corner of every
``n x n`` board, ``n >= 5``, by ``n mod 8``.  This module holds that table,
turns it into the kernel's arrays (:func:`squirrel_orderings`), says when it
applies (:func:`squirrel_applies`), and reflects a walk from the corner
(0, 0) onto the corner asked for.

References
----------
D. Squirrel and P. Cull, "A Warnsdorff-rule algorithm for knight's tours on
square chessboards", Oregon State University REU report, 1996.
S. Ganzfried, "A new algorithm for knight's tours", Oregon State University
REU report, 2004 (Table 1: the Squirrel-Cull orderings).
"""

from __future__ import annotations

import numpy as np

from ..errors import UnsupportedError
from ..graph import KnightGraph

__all__ = ["squirrel_orderings", "squirrel_applies"]


def _squirrel_table(m: int) -> list[tuple[str, tuple[int, int] | None]]:
    """Ganzfried (2004) Table 1 for an ``m x m`` board: (ordering, 1-based switch square)."""
    if m == 74:
        return [("21345678", None)]
    r = m % 8
    if r == 0:
        return [("34261578", (m - 1, m - 2)), ("87642135", (2, 2)), ("51867342", (m - 8, 1)),
                ("51342678", (7, m - 3)), ("21435678", None)]
    if r == 1:
        return [("34261578", (m - 1, m - 2)), ("87642135", (2, 2)), ("51324678", (m - 6, (m + 9) // 2)),
                ("32481765", None)]
    if r == 2:
        return [("34261578", (6, 1)), ("87642135", (3, 1)), ("54132678", (m - 15, 4)),
                ("52431678", (10, m - 2)), ("85647123", (5, (m - 6) // 2)), ("15746823", None)]
    if r == 3:
        return [("34625718", (m - 1, m - 2)), ("42681357", (m - 6, m)), ("86512347", (2, 5)),
                ("51867342", (m - 10, 3)), ("61825437", ((m + 1) // 2, m - 2)), ("71642538", None)]
    if r == 4:
        return [("34261578", (m - 1, m - 2)), ("87642135", (2, 2)), ("51867342", (m - 8, 1)),
                ("51342678", (10, m - 5)), ("86753421", (13, (m + 2) // 2)), ("78563421", None)]
    if r == 5:
        s = (m - 2, (m - 5) // 2) if m % 16 == 5 else (m - 2, (m - 13) // 2)
        return [("34261578", (m - 1, m - 2)), ("87642135", (2, 2)), ("51324678", s), ("15234678", None)]
    if r == 6:
        return [("34261578", (6, 1)), ("87642135", (3, 1)), ("54132678", (m - 10, 1)),
                ("52431678", (10, m - 2)), ("85647123", (3, (m + 8) // 2)), ("12453678", None)]
    return [("34625718", (m - 1, m - 2)), ("42681357", (m - 6, m)), ("86512347", (2, 5)),
            ("51867342", (m - 6, 3)), ("61825437", ((m + 1) // 2, m - 2)), ("61357284", None)]


def squirrel_orderings(m: int) -> tuple[np.ndarray, np.ndarray]:
    """The Squirrel-Cull move orderings of an ``m x m`` board as kernel arrays.

    Parameters
    ----------
    m : int
        Side of the board, at least 5.

    Returns
    -------
    rank : (k, 8) int32 array
        ``rank[o, j]`` is the position of move ``j`` (0-based, Squirrel &
        Cull's type ``j + 1``) in ordering ``o``; lower wins a tie.
    switch : (k - 1,) int32 array
        Square number (row-major, 0-based) on whose arrival the walk moves on
        from ordering ``o`` to ``o + 1``; -1 where the listed square lies off
        the board (small ``m``), so that switch never happens.

    Notes
    -----
    Ganzfried's table lists squares 1-based with row 1 at the top, which is
    ktsolve's row 0, so ``(r, c)`` there is square ``(r - 1) * m + c - 1``.

    Examples
    --------
    >>> rank, switch = squirrel_orderings(8)
    >>> rank.shape, switch.tolist()
    ((5, 8), [53, 9, -1, 52])
    >>> [int(j) + 1 for j in np.argsort(rank[0])]  # ordering 34261578
    [3, 4, 2, 6, 1, 5, 7, 8]
    """
    m = int(m)
    if m < 5:
        raise UnsupportedError(f"the Squirrel-Cull orderings start at 5x5, not {m}x{m}")
    rows = _squirrel_table(m)
    rank = np.empty((len(rows), 8), dtype=np.int32)
    switch = np.full(len(rows) - 1, -1, dtype=np.int32)
    for o, (ordering, sq) in enumerate(rows):
        for pos, ch in enumerate(ordering):
            rank[o, int(ch) - 1] = pos
        if sq is not None:
            r, c = sq[0] - 1, sq[1] - 1
            if 0 <= r < m and 0 <= c < m:
                switch[o] = r * m + c
    return rank, switch


def squirrel_applies(graph: KnightGraph) -> bool:
    """True when the Squirrel-Cull orderings apply: a full ``n x n`` knight board, ``n >= 5``.

    Examples
    --------
    >>> from ktsolve import Board
    >>> squirrel_applies(KnightGraph(Board(8, 8))), squirrel_applies(KnightGraph(Board(8, 9)))
    (True, False)
    """
    b = graph.board
    return graph.is_knight and b.is_full and b.rows == b.cols and b.rows >= 5


def corner_transform(graph: KnightGraph, square: int) -> tuple[bool, bool] | None:
    """(flip rows, flip cols) that map ``square`` onto corner (0, 0), or None if not a corner."""
    b = graph.board
    r, c = (int(v) for v in b.coords_of(np.array([square]))[0])
    if r not in (0, b.rows - 1) or c not in (0, b.cols - 1):
        return None
    return (r != 0, c != 0)


def reflect(graph: KnightGraph, path: np.ndarray, flips: tuple[bool, bool]) -> np.ndarray:
    """Squares of a full board's ``path`` after flipping rows and/or columns."""
    b = graph.board
    r, c = np.divmod(path.astype(np.int64), b.cols)
    if flips[0]:
        r = b.rows - 1 - r
    if flips[1]:
        c = b.cols - 1 - c
    return (r * b.cols + c).astype(np.int32)
